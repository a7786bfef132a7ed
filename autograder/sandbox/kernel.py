"""One student's kernel, in a sandbox: started from the warm template, run cell by cell,
killed with everything it started.

Full isolation (the grader runs as root, as in CI or the container recipe): the kernel runs as
a user of its own (one uid per grading worker), in a network namespace with no interface up
and a mount namespace where the course folder, /tmp and the grader's home are empty folders
but for the virtualenv and the notebook's scratch copy; under limits on CPU time, memory,
file size and processes. Limits only (any other user): the same limits, the same user.
"""

from __future__ import annotations

import atexit
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from queue import Empty

import nbformat
import zmq
from jupyter_client import BlockingKernelClient
from jupyter_client.connect import write_connection_file

ZYGOTE = Path(__file__).with_name("zygote.py")


@dataclass(frozen=True)
class Limits:
    cpu_seconds: int = 120
    memory_bytes: int = 6 << 30
    file_bytes: int = 64 << 20
    processes: int = 128


@dataclass
class Settings:
    isolation: str = "auto"  # "full", "limits" or "auto" (full when root)
    uid: int = 61000  # the first sandbox user id to try (see claimed_uid)
    limits: Limits = field(default_factory=Limits)
    hidden: tuple = ()  # folders the kernel must not see, besides /tmp and $HOME
    start_timeout: float = 30.0

    @property
    def full(self):
        if self.isolation == "full" and os.geteuid() != 0:
            raise PermissionError("full isolation needs root: run the grader as root (see the "
                                  "container recipe in README.md) or set isolation = 'limits'")
        return self.isolation == "full" or (self.isolation == "auto" and os.geteuid() == 0)


class KernelGone(BaseException):
    """The kernel died or ran out of time; what it was doing gets no points.

    A BaseException, so that the checks' `except Exception` (for errors of student code)
    does not swallow it."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


_warned_weak = False
_claimed = {}


def claimed_uid(base, span=1000):
    """A sandbox user id no other grading process on this machine uses: the first of
    base, base + 1, ... whose lock file this process can hold (it holds it until it exits).
    Killing a sandbox kills every process of its user, so two graders must never share one."""
    if base in _claimed:
        return _claimed[base][0]
    folder = Path("/run/kit-sandbox" if os.geteuid() == 0 else tempfile.gettempdir())
    folder.mkdir(mode=0o700, exist_ok=True)
    for uid in range(base, base + span):
        handle = open(folder / f"uid-{uid}.lock", "w")  # noqa: SIM115 - held for life
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            continue
        _claimed[base] = (uid, handle)
        atexit.register(handle.close)
        return uid
    raise RuntimeError(f"no free sandbox user id in {base}..{base + span - 1}")


def warn_weak_isolation():
    global _warned_weak
    if not _warned_weak:
        _warned_weak = True
        warnings.warn("the grader is not root, so student code runs as you with limits only: "
                      "it can read your files and use the network. Grade as root in a "
                      "container for the full sandbox (README.md, 'Sandbox').", stacklevel=3)


class Zygote:
    """The warm template process (zygote.py), one per grading process."""

    _lock = threading.Lock()
    _instance = None

    def __init__(self):
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        self.process = subprocess.Popen([sys.executable, str(ZYGOTE)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env=env, text=True)
        ready = self.process.stdout.readline()
        if not ready:
            raise RuntimeError("the kernel template (autograder/sandbox/zygote.py) did not "
                               "start; run it by hand to see why")

    @classmethod
    def shared(cls):
        with cls._lock:
            if cls._instance is None or cls._instance.process.poll() is not None:
                cls._instance = cls()
            return cls._instance

    @classmethod
    def close_shared(cls):
        """End the template: it kills what is left of its kernels, and is waited for."""
        with cls._lock:
            if cls._instance is not None:
                cls._instance.process.stdin.close()
                cls._instance.process.wait(timeout=10)
                cls._instance = None

    def ask(self, request):
        with self._lock:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            answer = json.loads(self.process.stdout.readline() or '{"error": "template died"}')
        if "error" in answer:
            raise RuntimeError(f"kernel template: {answer['error']}")
        return answer


def _forget_after_fork():
    """A forked process (a grading worker) gets a template and a sandbox user of its own: it
    must not talk to its parent's template, nor kill its parent's kernels."""
    Zygote._instance = None
    _claimed.clear()


os.register_at_fork(after_in_child=_forget_after_fork)


def kernel_env(scratch):
    return {
        "PATH": os.path.dirname(sys.executable) + ":/usr/local/bin:/usr/bin:/bin",
        "HOME": scratch, "IPYTHONDIR": f"{scratch}/.ipython", "MPLCONFIGDIR": f"{scratch}/.mpl",
        "OMP_NUM_THREADS": "1", "LANG": "C.UTF-8",
        "MPLBACKEND": "module://matplotlib_inline.backend_inline",
        "PYDEVD_DISABLE_FILE_VALIDATION": "1",
    }


def kept_folders(scratch):
    return [sys.prefix, sys.base_prefix, scratch]


def hidden_folders(settings, kept):
    """The folders a kernel sees empty: temporary folders, the grader's home, the course and
    the kit, and any folder on the way to a kept one that others may not enter (it becomes
    an empty, enterable folder with only the kept one inside)."""
    closed = {str(parent) for folder in kept for parent in Path(folder).parents
              if parent != Path("/") and not os.stat(parent).st_mode & 0o001}
    return sorted({tempfile.gettempdir(), "/tmp", "/var/tmp", "/dev/shm",
                   os.path.expanduser("~"), *map(str, settings.hidden), *closed})


class SandboxedKernel:
    """Start with `start()`, run code with `execute()`, end with `stop()` (kills everything)."""

    def __init__(self, folder: Path, settings: Settings):
        self.folder = Path(folder)
        self.settings = settings
        self.full = settings.full
        if not self.full and settings.isolation == "auto":
            warn_weak_isolation()  # chosen knowingly with isolation = "limits"
        self.pid = None
        self.uid = None
        self.client = None
        self.scratch = None

    # life ---------------------------------------------------------------------------------

    def start(self):
        self.scratch = tempfile.mkdtemp(prefix="kit-sandbox-")
        shutil.copytree(self.folder, self.scratch, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".kit-*"))
        connection = os.path.join(self.scratch, ".kernel.json")
        write_connection_file(connection, transport="ipc",
                              ip=os.path.join(self.scratch, ".ipc"))
        uid = self.uid = claimed_uid(self.settings.uid) if self.full else None
        if uid is not None:
            for path in [self.scratch, *Path(self.scratch).rglob("*")]:
                os.chown(path, uid, uid, follow_symlinks=False)
        limits = dict(vars(self.settings.limits))
        if uid is None:
            limits.pop("processes")  # would count all of this user's processes
        kept = kept_folders(self.scratch)
        self.pid = Zygote.shared().ask({
            "op": "spawn", "connection_file": connection, "cwd": self.scratch, "uid": uid,
            "hide": hidden_folders(self.settings, kept), "keep": kept, "limits": limits,
            "env": kernel_env(self.scratch),
        })["pid"]
        self.client = BlockingKernelClient()
        self.client.load_connection_file(connection)
        self.client.start_channels()
        self._wait_ready()

    def _wait_ready(self):
        """Until the kernel answers on the shell channel and its iopub messages reach us (a
        subscriber misses what is published before it is connected)."""
        deadline = time.monotonic() + self.settings.start_timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise RuntimeError(f"the sandboxed kernel exited at start; see {self.scratch}"
                                   "/.kernel.log")
            self.client.kernel_info()
            try:
                self.client.get_shell_msg(timeout=0.2)
                self.client.get_iopub_msg(timeout=0.2)
            except Empty:
                continue
            while True:  # drop the status messages of the requests so far
                try:
                    self.client.get_iopub_msg(timeout=0.05)
                except Empty:
                    return
        raise RuntimeError("the sandboxed kernel did not answer within "
                           f"{self.settings.start_timeout} s")

    def alive(self):
        try:
            with open(f"/proc/{self.pid}/stat") as stat:
                return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
        except (OSError, IndexError):
            return False

    def stop(self):
        if self.client is not None:
            self.client.stop_channels()
            self.client = None
        if self.pid is not None:
            Zygote.shared().ask({"op": "kill", "pid": self.pid, "uid": self.uid})
            self.pid = None
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None

    def restart(self):
        self.stop()
        self.start()

    # work ---------------------------------------------------------------------------------

    def execute(self, code, timeout, stdin_hook=None, silent=False):
        """Run code; return (outputs as nbformat outputs, status). Raise KernelGone when the
        kernel dies or the code runs past `timeout` seconds (the kernel is then killed)."""
        client = self.client
        msg_id = client.execute(code, silent=silent, store_history=not silent,
                                allow_stdin=True)
        deadline = time.monotonic() + timeout
        poller = zmq.Poller()
        channels = {client.iopub_channel.socket: client.iopub_channel,
                    client.stdin_channel.socket: client.stdin_channel,
                    client.shell_channel.socket: client.shell_channel}
        for socket in channels:
            poller.register(socket, zmq.POLLIN)
        outputs, status, idle = [], None, False
        while status is None or not idle:
            if time.monotonic() > deadline:
                self.stop()
                raise KernelGone(f"ran past the time limit ({timeout:.0f} s)")
            if not self.alive():
                self.stop()
                raise KernelGone("the kernel died (os._exit, a crash, or out of memory)")
            for socket, _ in poller.poll(50):  # ms; wakes as soon as any channel has a message
                channel = channels[socket]
                message = channel.get_msg(timeout=0)
                if channel is client.stdin_channel:
                    prompt = message["content"].get("prompt", "")
                    client.input(stdin_hook(prompt) if stdin_hook else "")
                elif message["parent_header"].get("msg_id") != msg_id:
                    continue
                elif channel is client.shell_channel:
                    status = message["content"]["status"]
                else:
                    idle = self._collect(message, outputs) or idle
        return outputs, status

    @staticmethod
    def _collect(message, outputs):
        """Add an iopub message to the outputs; True when it says the kernel is idle."""
        kind = message["msg_type"]
        if kind == "status":
            return message["content"]["execution_state"] == "idle"
        if kind == "clear_output":
            outputs.clear()
        elif kind in ("stream", "display_data", "execute_result", "error"):
            outputs.append(nbformat.v4.output_from_msg(message))
        return False
