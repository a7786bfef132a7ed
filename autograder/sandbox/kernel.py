"""One student's kernel, in a sandbox: started from the warm template, run cell by cell,
killed with everything it started.

The notebook's folder is copied into a scratch folder first, its regular files only: no link
is followed, and files past a size are refused (`copy_regular_files`, `SandboxedKernel.refused`).

Full isolation (the grader runs as root, as in CI or the container recipe): the kernel runs as
a user of its own (one uid per grading worker), as PID 1 of namespaces of its own (PID, mount,
network with no interface up, IPC, host name), in a root that holds an allow-list only: its
scratch folder; the Python installation, the virtualenv and /usr read-only (the kit's packages
in them covered); a minimal /dev, its own /proc and a private /tmp (zygote.py, `build_root`);
under limits on CPU time, memory, file size and processes. Limits only (any other user): the
same limits, the same user.

The template, so every kernel, starts with a minimal environment of its own, not the grader's.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import os
import shutil
import stat
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from queue import Empty

import nbformat
import zmq
from jupyter_client import BlockingKernelClient
from jupyter_client.connect import write_connection_file

from autograder.course.submission_files import FOLDER_DEPTH, FOLDER_ENTRIES, NOTEBOOK_BYTES
from autograder.i18n import os_reason, t
from autograder.plumbing.timeline import mark
from autograder.sandbox import handover, isolation, template_start
from autograder.sandbox.folder_watch import FolderWatch
from autograder.sandbox.grader_session import GraderSession
from autograder.sandbox.socket_folder import socket_parent
from autograder.sandbox.template_start import template_command, template_env


@dataclass(frozen=True)
class Limits:
    cpu_seconds: int = 120
    memory_bytes: int = 6 << 30
    file_bytes: int = 64 << 20
    processes: int = 128
    # A kernel uses some 40 (its sockets, torch's libraries, a figure); the hard limit bounds
    # what open files cost the machine beyond the folder watch: the epoll watches every
    # process of the grader's user shares (2,200 epolls watching 2,600 eventfds each used up
    # the machine's, and libzmq aborted the grader and serve), files removed but held open
    open_files: int = 256


# The largest message the grader reads from a kernel by default: twice the largest notebook
# grading reads (a cell's output past it could not be kept anyway). libzmq drops the
# connection that sends a larger one before it holds it (a 300 MB print held 900 MB of the
# grading worker's memory); the drop is watched (`cut_off`) and said.
MESSAGE_BYTES = 2 * NOTEBOOK_BYTES


def message_bytes(reply_bytes):
    """The largest message a kernel may send when one part of a reply to the grader may have
    `reply_bytes` characters (sandbox/link.py): a part's quotes and backslashes are escaped
    again in the Jupyter message that carries it."""
    return max(MESSAGE_BYTES, 2 * reply_bytes + (1 << 20))


def read_channels(client):
    """The channels the grader reads a kernel's messages from (no heartbeat, no control)."""
    return (client.iopub_channel, client.shell_channel, client.stdin_channel)


@dataclass
class Settings:
    isolation: str = "full"  # "full" (the strongest mechanism here, or none) or "limits"
    uid: int = 61000  # the first sandbox user id to try (see claimed_uid)
    limits: Limits = field(default_factory=Limits)
    hidden: tuple = ()  # folders the kernel must not see even inside a kept one (the kit's)
    start_timeout: float = 30.0
    max_file_bytes: int = 16 << 20  # the largest file copied from the notebook's folder
    max_folder_bytes: int = 256 << 20  # all of them together
    folder_limit_bytes: int = 512 << 20  # what the kernel's folder may hold (folder_watch.py)
    max_message_bytes: int = MESSAGE_BYTES  # of one message from the kernel (message_bytes)

    @property
    def mechanism(self):
        """How kernels are confined here (sandbox/isolation.py); NoSandbox when the full
        sandbox was asked for and cannot be had."""
        return isolation.choose(self.isolation)

    @property
    def full(self):
        return self.mechanism in isolation.FULL


def sandbox_uid_for(mechanism, base):
    """The user a kernel runs as, when it gets one of its own: as root (namespaces, or
    Landlock in a container without the right to make them), else None (a user namespace
    gives it one inside; limits only runs it as the grader)."""
    if os.geteuid() == 0 and mechanism in (isolation.NAMESPACES, isolation.LANDLOCK):
        return claimed_uid(base)
    return None


class KernelGone(BaseException):
    """The kernel died or ran out of time; what it was doing gets no points.

    A BaseException, so that the checks' `except Exception` (for errors of student code)
    does not swallow it."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


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
        if os.geteuid() == 0:
            remove_stale_scratch(uid)
        return uid
    raise RuntimeError(f"no free sandbox user id in {base}..{base + span - 1}")


# The prefixes of the scratch folders grading makes in the temporary folder: a kernel's (the
# notebook's files copied in) and the judging kernel's empty one (grading/session.py).
SCRATCH_PREFIXES = ("kit-sandbox-", "kit-judge-")
_swept = []  # whether this process removed the dead graders' scratch folders already


def new_scratch(prefix):
    """A scratch folder (mode 0700) named with this process's id, `prefix` then the id: a
    later grader finds it dead and removes it (remove_dead_scratch), the first time it makes
    one of its own."""
    if not _swept:
        _swept.append(True)
        remove_dead_scratch()
    return tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=socket_parent())


def remove_dead_scratch():
    """Remove the scratch folders of this user's graders that are gone (a serve or a grade
    stopped in the middle of a notebook): those whose name holds the id of a process that
    no longer runs. A folder of a live process, of another user, or named by an older kit
    (no id) is left."""
    for folder, pid in scratch_folders():
        try:
            info = folder.lstat()
        except OSError:
            continue
        if info.st_uid != os.getuid() or not stat.S_ISDIR(info.st_mode) or process_runs(pid):
            continue
        remove_scratch(folder)  # never follows a link inside


def remove_scratch(folder):
    """Remove a scratch folder with all it holds, never following a link inside, whatever
    modes its kernel left on the folders in it: as an ordinary user, rmtree neither enters a
    folder the kernel made unreadable (chmod 000) nor empties one it made unwritable, and
    what they hold would outlive the kernel, as many files as the student's code wrote; nor
    does it reach folders nested deeper than its recursion or than a path can name (a
    kernel's 2,100 nested folders left 489 MB behind). What rmtree leaves, remove_deep
    removes. Only once the kernel is dead."""
    with contextlib.suppress(RecursionError):
        shutil.rmtree(folder, ignore_errors=True)
    if os.path.lexists(folder) and not os.path.islink(folder):
        remove_deep(folder)


DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW


def remove_deep(top):
    """Remove `top` and all it holds however deep, one open folder at a time: each folder
    is entered by its name within its parent and left by "..", so that neither Python's
    recursion nor the length of a path bounds the depth, nor the number of open files. Every
    folder is made its owner's first (rwx); no link is followed; what cannot be removed is
    left. Only once the kernel that made them is dead (nothing moves a folder meanwhile)."""
    with contextlib.suppress(OSError):
        os.chmod(top, 0o700, follow_symlinks=False)
    try:
        here = os.open(top, DIRECTORY)
    except OSError:
        return
    path = []  # the names entered from top down to `here`
    left = [set()]  # for each folder entered: the folders in it that could not be removed
    while True:
        entered = None
        with contextlib.suppress(OSError), os.scandir(here) as entries:
            for entry in entries:
                if not entry.is_dir(follow_symlinks=False):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.name, dir_fd=here)
                elif entry.name not in left[-1]:
                    entered = entry.name
                    break
        if entered is not None:
            with contextlib.suppress(OSError):
                os.chmod(entered, 0o700, dir_fd=here)  # a folder: no link is followed here
            try:
                inner = os.open(entered, DIRECTORY, dir_fd=here)
            except OSError:
                left[-1].add(entered)
                continue
            os.close(here)
            here = inner
            path.append(entered)
            left.append(set())
            continue
        if not path:
            os.close(here)
            with contextlib.suppress(OSError):
                os.rmdir(top)
            return
        parent = os.open("..", DIRECTORY, dir_fd=here)
        os.close(here)
        here, name = parent, path.pop()
        left.pop()
        try:
            os.rmdir(name, dir_fd=here)
        except OSError:
            left[-1].add(name)


def process_runs(pid):
    """Whether process `pid` runs: one that has ended and waits for its status to be read
    (a zombie: a grading worker its cluster ended, reparented once its fork server ended)
    does not."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return proc_stat(pid)[:1] != ["Z"]


def proc_stat(pid):
    """The fields of /proc/PID/stat after the command's name (state, parent, ...); [] when
    it cannot be read."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return []


def scratch_folders():
    """(folder, id of the process it is named with) of this machine's scratch folders
    (new_scratch), whoever made them."""
    for prefix in SCRATCH_PREFIXES:
        for folder in Path(socket_parent()).glob(prefix + "*"):
            pid = folder.name[len(prefix):].split("-", 1)[0]
            if pid.isdigit():
                yield folder, int(pid)


def scratch_owners():
    """The ids of the processes the scratch folders are named with."""
    return {pid for _, pid in scratch_folders()}


def remove_scratch_of(pids):
    """Remove the scratch folders named with `pids`, this process's graders that have ended,
    whoever owns them now (a kernel's folder is its sandbox user's, as root)."""
    for folder, pid in scratch_folders():
        if pid in pids and not process_runs(pid) and not folder.is_symlink() \
                and folder.is_dir():
            remove_scratch(folder)


def descends_from_this_process(pid):
    """Whether process `pid` is a child of this one, or a child's child, and so on."""
    seen = set()
    while pid > 1 and pid not in seen:
        seen.add(pid)
        fields = proc_stat(pid)
        if len(fields) < 2 or not fields[1].isdigit():
            return False
        pid = int(fields[1])
        if pid == os.getpid():
            return True
    return False


def remove_stale_scratch(uid):
    """Remove the scratch folders of a sandbox user whose lock was just claimed: they are a
    dead grader's (killed before it could stop its kernels, which died with their template),
    since a live one would hold the lock."""
    for folder in Path(socket_parent()).glob("kit-sandbox-*"):
        try:
            info = folder.lstat()
        except OSError:
            continue
        if info.st_uid == uid and stat.S_ISDIR(info.st_mode):
            remove_scratch(folder)  # never follows a link inside


class Zygote:
    """The warm template process (zygote.py), one per grading process and mechanism."""

    _lock = threading.Lock()
    _instances = {}  # mechanism -> Zygote
    _deaths = 0  # templates of this process found dead and replaced
    _stopped = False  # grading in this process was stopped: no template starts (stop_all)

    def __init__(self, mechanism):
        self.mechanism = mechanism
        self.warmed = set()  # texts whose IPython work the template did (cell_cache.py)
        # A copy of the template the client started ahead for the workers (or for itself,
        # grading in process), ready (handover.py), else one of our own, once it says so.
        mark("template: asked for")
        self.process = handover.take(os.environ.get(handover.FOLDER_VARIABLE), mechanism) \
            or template_start.copy_of_early_pool(mechanism)
        if self.process is None:
            self.process = template_start.adopt(mechanism) or \
                template_start.start_template(mechanism)
            if not self.process.stdout.readline():
                raise RuntimeError("the kernel template (autograder/sandbox/zygote.py) did "
                                   "not start; run it by hand to see why")
        mark("template: ready")

    @classmethod
    def shared(cls, mechanism=None):
        """This process's template for kernels of `mechanism` (the full sandbox's, by
        default)."""
        mechanism = mechanism or Settings().mechanism
        with cls._lock:
            if cls._stopped:
                raise RuntimeError("grading was stopped: no kernel starts")
            if cls._instance_died(mechanism):
                cls._instances[mechanism], cls._deaths = None, cls._deaths + 1
            if cls._instances.get(mechanism) is None:
                cls._instances[mechanism] = cls(mechanism)
            return cls._instances[mechanism]

    @classmethod
    def running(cls, mechanism):
        """This process's template for kernels of `mechanism` when one runs, else None: for a
        thread that must not start one (a template dies with the thread that started it)."""
        with cls._lock:
            if cls._stopped or cls._instance_died(mechanism):
                return None
            return cls._instances.get(mechanism)

    @classmethod
    def deaths_so_far(cls):
        """How many of this process's templates have died: those replaced, and the present
        ones that are dead (each counts once, before and after it is replaced)."""
        with cls._lock:
            return cls._deaths + sum(map(cls._instance_died, list(cls._instances)))

    @classmethod
    def _instance_died(cls, mechanism):
        instance = cls._instances.get(mechanism)
        return instance is not None and instance.process.poll() is not None

    @classmethod
    def stop_all(cls, stopped=True):
        """Stop grading in this process (a worker that is a thread of the client, which was
        interrupted): no template starts from now on, and those running end, killing their
        kernels, so that a task still running fails at once. `stopped` False lets templates
        start again (the next grading in the same process)."""
        with cls._lock:
            cls._stopped = stopped
        if stopped:
            cls.close_shared()

    @classmethod
    def close_shared(cls):
        """End the templates: each kills what is left of its kernels, and is waited for."""
        with cls._lock:
            for instance in cls._instances.values():
                if instance is not None:
                    instance.process.stdin.close()
                    instance.process.wait(timeout=10)
            cls._instances = {}

    def warm(self, texts):
        """Have the template do IPython's work on these cell texts once, for every kernel
        it forks after (sandbox/cell_cache.py): the course's cells, the same in every
        notebook."""
        new = [text for text in dict.fromkeys(texts) if text not in self.warmed]
        if new:
            self.ask({"op": "warm", "cells": new})
            self.warmed.update(new)

    def ask(self, request):
        with self._lock:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            answer = json.loads(self.process.stdout.readline() or '{"error": "template died"}')
        if "error" in answer:
            raise RuntimeError(f"kernel template: {answer['error']}")
        return answer


def template_pool(count, log, mechanism=None):
    """A template of `mechanism` with a copy for each of the `count` workers about to start,
    writing its errors to the file `log` (handover.py): the one the command started early
    (template_start.start_pool_early), else one started now. The workers' environment is
    KIT_TEMPLATES=<pool.folder>."""
    mechanism = mechanism or Settings().mechanism
    return template_start.adopt_pool(mechanism) or handover.TemplatePool(
        count, template_command(mechanism), template_env(), log, mechanism)


def _forget_after_fork():
    """A forked process (a grading worker) gets a template and a sandbox user of its own: it
    must not talk to its parent's template, nor kill its parent's kernels."""
    Zygote._instances = {}
    _claimed.clear()


os.register_at_fork(after_in_child=_forget_after_fork)


def kernel_env(scratch, mechanism):
    """A kernel's environment. Without a /tmp of its own (Landlock, limits only), its
    temporary files go in its scratch folder, the only one it may write."""
    env = {
        "PATH": os.path.dirname(sys.executable) + ":/usr/local/bin:/usr/bin:/bin",
        # IPython's and matplotlib's settings folders are the grader's own, ".kit-" names that
        # the copy of the notebook's folder never takes: a submission's .ipython startup
        # file or matplotlibrc would otherwise run, or be read, as the kernel starts.
        "HOME": scratch, "IPYTHONDIR": f"{scratch}/.kit-ipython",
        "MPLCONFIGDIR": f"{scratch}/.kit-mpl",
        "OMP_NUM_THREADS": "1", "LANG": "C.UTF-8",
        "MPLBACKEND": "module://matplotlib_inline.backend_inline",
        "PYDEVD_DISABLE_FILE_VALIDATION": "1",
    }
    if mechanism not in (isolation.NAMESPACES, isolation.USER_NAMESPACES):
        env["TMPDIR"] = os.path.join(scratch, ".tmp")
    return env


def kept_folders():
    """The folders a kernel sees read-only besides the system's: the virtualenv and the
    Python installation, and any other site-packages folder on the path (a virtualenv whose
    dependencies come from another one through a .pth file); the scratch folder is kept
    read-write. Source folders on the path (an editable checkout of the kit) are not."""
    sites = {path for path in sys.path if os.path.basename(path.rstrip("/")) in
             ("site-packages", "dist-packages") and os.path.isdir(path)}
    return sorted({sys.prefix, sys.base_prefix} | sites)


MAX_DEPTH, MAX_ENTRIES = FOLDER_DEPTH, FOLDER_ENTRIES  # of the notebook's folder, as copied


def copy_regular_files(source, target, max_file, max_total):
    """Copy the regular files of `source` (the notebook's folder) into the folder `target`,
    with its subfolders; return what was refused, one line each ("notes.txt: a symbolic
    link, not copied").

    The copy runs as root: inside `source` (the grader's own path, followed) it never follows
    a link (a link to /root/secret or to the kit's solutions/ is not read) and opens nothing
    but regular files and folders, checked on the open file. A hard link is refused too: it
    cannot be told from the file it shares, which may be anywhere on the same file system.
    A file past `max_file` bytes is refused, and so is any file once the copied ones make
    `max_total` bytes; past MAX_DEPTH folders deep or MAX_ENTRIES entries, the rest."""
    copy = _Copy(max_file, max_total)
    try:
        copy.folder(os.open(source, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC),
                    Path(target), "", 0)
    except _Enough:
        pass
    return copy.refused


class _Enough(Exception):
    pass


class _Copy:
    def __init__(self, max_file, max_total):
        self.max_file, self.max_total = max_file, max_total
        self.refused, self.total, self.entries = [], 0, 0

    def folder(self, fd, into, prefix, depth):
        """Copy the folder open as `fd` (closed here) into the existing folder `into`."""
        try:
            for name in sorted(os.listdir(fd)):
                if name.startswith(".kit-"):  # the grader's own files beside the notebook
                    continue
                where = prefix + name
                self.entries += 1
                if self.entries > MAX_ENTRIES:
                    self.refused.append(t("{path} and the rest: past {count} files and "
                                          "folders, not copied", path=where, count=MAX_ENTRIES))
                    raise _Enough
                info = os.stat(name, dir_fd=fd, follow_symlinks=False)
                if stat.S_ISDIR(info.st_mode) and depth < MAX_DEPTH:
                    inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW |
                                    os.O_CLOEXEC, dir_fd=fd)
                    (into / name).mkdir(mode=0o700)
                    self.folder(inner, into / name, where + "/", depth + 1)
                    continue
                why = self.refusal(info)
                if why is None:
                    why = copy_file(fd, name, info, into / name, self.max_file)
                if why is None:
                    self.total += info.st_size
                else:
                    self.refused.append(t("{path}: {why}, not copied", path=where, why=why))
        finally:
            os.close(fd)

    def refusal(self, info):
        """Why a file is not copied, from its lstat; None when it may be."""
        kinds = {stat.S_ISLNK: t("a symbolic link"), stat.S_ISFIFO: t("a named pipe"),
                 stat.S_ISSOCK: t("a socket"), stat.S_ISCHR: t("a device"),
                 stat.S_ISBLK: t("a device"),
                 stat.S_ISDIR: t("past {depth} folders deep", depth=MAX_DEPTH)}
        for test, kind in kinds.items():
            if test(info.st_mode):
                return kind
        if not stat.S_ISREG(info.st_mode):
            return t("not a regular file")
        if info.st_nlink > 1:
            return t("a hard link (the same file as another one, maybe outside the folder)")
        if info.st_size > self.max_file:
            return t("{size:,} bytes, more than the {limit} a file may have",
                     size=info.st_size, limit=mib(self.max_file))
        if self.total + info.st_size > self.max_total:
            return t("past the {limit} the folder's files may have in all",
                     limit=mib(self.max_total))
        return None


def copy_file(folder, name, info, target, max_file):
    """Copy one regular file, opened without following a link and checked to be the file
    that was looked at; None when copied, else why not."""
    try:
        source = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                         dir_fd=folder)
    except OSError as error:
        return t("unreadable ({reason})", reason=os_reason(error))
    try:
        opened = os.fstat(source)
        if not stat.S_ISREG(opened.st_mode) or (opened.st_dev, opened.st_ino) != (
                info.st_dev, info.st_ino):
            return t("changed while it was copied")
        mode = stat.S_IMODE(info.st_mode) & 0o755 | 0o600
        with open(target, "xb") as out:
            os.chmod(out.fileno(), mode)
            size = 0
            while chunk := os.read(source, 1 << 20):
                size += len(chunk)
                if size > max_file:  # it grew since it was looked at
                    break
                out.write(chunk)
        if size > max_file:
            os.unlink(target)
            return t("more than the {limit} a file may have", limit=mib(max_file))
        os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
        return None
    finally:
        os.close(source)


def mib(size):
    return f"{size / (1 << 20):g} MiB"


class SandboxedKernel:
    """Start with `start()`, run code with `execute()`, end with `stop()` (kills everything)."""

    def __init__(self, folder: Path, settings: Settings):
        self.folder = Path(folder)
        self.settings = settings
        self.mechanism = settings.mechanism  # NoSandbox when "full" cannot be had here
        self.full = self.mechanism in isolation.FULL
        self.pid = None
        self.uid = None
        self.client = None
        self.scratch = None
        self.refused = []  # files of the notebook's folder not copied, and why (one line each)
        self.running = None  # the last Run sent
        self.watch = None  # the FolderWatch of the kernel's folder while it lives
        self.cuts = []  # a monitor of each channel's socket: an event when its connection drops

    # life ---------------------------------------------------------------------------------

    def start(self):
        mark("kernel: starting")
        self.scratch = new_scratch(SCRATCH_PREFIXES[0])
        self.refused = copy_regular_files(self.folder, self.scratch,
                                          self.settings.max_file_bytes,
                                          self.settings.max_folder_bytes)
        os.mkdir(os.path.join(self.scratch, ".tmp"), 0o700)
        connection = os.path.join(self.scratch, ".kernel.json")
        write_connection_file(connection, transport="ipc",
                              ip=os.path.join(self.scratch, ".ipc"))
        uid = self.uid = sandbox_uid_for(self.mechanism, self.settings.uid)
        if uid is not None:
            for path in [self.scratch, *Path(self.scratch).rglob("*")]:
                os.chown(path, uid, uid, follow_symlinks=False)
        self.pid = self.template().ask({
            "op": "spawn", "mechanism": self.mechanism, "connection_file": connection,
            "cwd": self.scratch, "uid": uid,
            "hide": sorted(set(map(str, self.settings.hidden))), "keep": kept_folders(),
            "limits": dict(vars(self.settings.limits)),
            "env": kernel_env(self.scratch, self.mechanism),
        })["pid"]
        self.watch = self.watched(self.pid, uid)
        self.client = BlockingKernelClient(session=GraderSession())
        # A client dropped without stop() is ended when collected, by whatever thread collects
        # it; with zmq's default linger a message still queued to a dead kernel held that end,
        # and the process, for ever (a test process hung so in an unrelated test). stop()
        # sets its own linger.
        self.client.context.setsockopt(zmq.LINGER, 0)
        self.client.context.setsockopt(zmq.MAXMSGSIZE, self.settings.max_message_bytes)
        self.client.load_connection_file(connection)
        deadline = time.monotonic() + self.settings.start_timeout  # of the whole start
        self._wait_bound(deadline)
        # No heartbeat (a thread and a socket each kernel; whether the kernel lives is read
        # from /proc) and no control channel (the template kills, nothing interrupts).
        self.client.start_channels(hb=False, control=False)
        self.cuts = [channel.socket.get_monitor_socket(zmq.EVENT_DISCONNECTED)
                     for channel in read_channels(self.client)]
        self._wait_ready(deadline)
        mark("kernel: ready")

    def take_over(self, other):
        """Become the kernel `other` started (sandbox/spare_kernel.py: one started ahead, in a
        folder with nothing of a notebook's), with this kernel's folder kept for a restart;
        `other` holds nothing after."""
        self.pid, self.uid, self.client, self.scratch = other.pid, other.uid, other.client, \
            other.scratch
        self.refused, self.running, self.watch = list(other.refused), None, other.watch
        self.cuts, other.cuts = other.cuts, []
        other.pid = other.uid = other.client = other.scratch = other.watch = None

    def watched(self, pid, uid):
        """A FolderWatch of the kernel's folder, which ends the kernel `pid` (of `uid`) once
        it holds more than the settings allow."""
        template = self.template()
        held = {"op": "held", "pid": pid, "uid": uid, "device": os.stat(self.scratch).st_dev,
                "file_bytes": self.settings.limits.file_bytes}  # the disk, as the grader sees it
        return FolderWatch(self.scratch, self.settings.folder_limit_bytes,
                           lambda: template.ask({"op": "kill", "pid": pid, "uid": uid}),
                           lambda: template.ask(held)["bytes"])

    def cut_off(self):
        """The kernel broke its connection to the grader while it lives (a message past the
        settings' max_message_bytes, which libzmq drops with the connection, or its sockets
        closed): stop it, and raise KernelGone saying so."""
        ending = time.monotonic() + 0.5  # a kernel that is exiting drops it too: let it end
        while self.alive() and time.monotonic() < ending:
            time.sleep(0.02)
        reason = self.gone_reason() if not self.alive() else t(
            "it sent the grader a message of more than {mb} MB (an output or a value too large "
            "to read), or closed the kernel's connection",
            mb=self.settings.max_message_bytes >> 20)
        self.stop()
        raise KernelGone(reason)

    def gone_reason(self):
        """Why the kernel is gone, as the grader says it: what its FolderWatch found, else a
        death of its own."""
        if self.watch is not None and self.watch.reason is not None:
            return self.watch.reason
        return t("the kernel died (os._exit, a crash, or out of memory)")

    def refusals(self):
        """What start refuses to copy of the notebook's folder (`refused`), found by copying
        it into a scratch folder that goes at once: for a notebook whose grading starts no
        kernel on its folder (grading/session.py, `first_kernel`)."""
        scratch = new_scratch(SCRATCH_PREFIXES[0])
        try:
            return copy_regular_files(self.folder, scratch, self.settings.max_file_bytes,
                                      self.settings.max_folder_bytes)
        finally:
            remove_scratch(scratch)

    def template(self):
        return Zygote.shared(self.mechanism)

    def _wait_bound(self, deadline):
        """Until the kernel has bound its five sockets. A channel that connects before then
        retries 100-200 ms later, and a request the kernel sends on a channel not connected yet
        is dropped: a first input() could wait forever for its reply."""
        client = self.client
        ports = (client.shell_port, client.iopub_port, client.stdin_port, client.hb_port,
                 client.control_port)
        paths = [f"{client.ip}-{port}" for port in ports]
        while not all(map(os.path.exists, paths)):
            self._still_starting(deadline)
            time.sleep(0.005)

    def _wait_ready(self, deadline):
        """Until the kernel answers a request on the shell channel and its iopub messages for
        that request, down to its last (the kernel idle again), reach us: a subscriber misses
        what is published before it is connected, so a request whose messages did not all
        come is sent again. Messages of earlier requests are dropped on the way (and execute
        reads only those of its own request)."""
        while True:
            self._still_starting(deadline)
            request = self.client.kernel_info()
            try:
                self._next_of(self.client.get_shell_msg, request, lambda _: True, deadline)
                self._next_of(self.client.get_iopub_msg, request, is_idle, deadline)
            except Empty:
                continue
            return

    def _next_of(self, receive, request, wanted, deadline):
        """Read a channel until a message of `request` that is `wanted` comes; Empty when the
        channel is silent for 0.2 s first."""
        while True:
            self._still_starting(deadline)
            message = receive(timeout=0.2)
            if message["parent_header"].get("msg_id") == request and wanted(message):
                return message

    def _still_starting(self, deadline):
        """Raise when the kernel exited or the start ran past its time."""
        if not self.alive():
            raise RuntimeError(t("the sandboxed kernel exited at start: {log}",
                                 log=self.log_tail()))
        if time.monotonic() > deadline:
            raise RuntimeError(t("the sandboxed kernel did not answer within {seconds} s",
                                 seconds=self.settings.start_timeout))

    def log_tail(self, lines=3):
        """The last lines the kernel wrote (its scratch folder goes when it is stopped)."""
        try:
            text = Path(self.scratch, ".kernel.log").read_text(errors="replace")
        except OSError:
            return t("it wrote no log")
        return " | ".join(text.strip().splitlines()[-lines:]) or t("it wrote no log")

    def alive(self):
        try:
            with open(f"/proc/{self.pid}/stat") as stat:
                return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
        except (OSError, IndexError):
            return False

    def stop(self):
        if self.watch is not None:
            self.watch.stop()
            self.watch = None
        if self.client is not None:
            for channel in read_channels(self.client):
                with contextlib.suppress(zmq.ZMQError, AttributeError):
                    channel.socket.disable_monitor()
        for cut in self.cuts:
            cut.close(linger=0)
        self.cuts = []
        if self.client is not None:
            self.client.stop_channels()
            self.client = None
        if self.pid is not None:
            self.template().ask({"op": "kill", "pid": self.pid, "uid": self.uid})
            self.pid = None
        if self.scratch is not None:
            remove_scratch(self.scratch)
            self.scratch = None

    def warm(self, texts):
        """Cells every kernel of this notebook will run (the course's): the template prepares
        them once."""
        self.template().warm(texts)

    def restart(self):
        self.stop()
        self.start()

    def kill_strays(self):
        """Kill every running process of the sandbox but the kernel (a fork of it, a daemon);
        the number killed."""
        if self.pid is None:
            return 0
        return self.template().ask({"op": "strays", "pid": self.pid, "uid": self.uid})["killed"]

    # work ---------------------------------------------------------------------------------

    def execute(self, code, timeout, stdin_hook=None, silent=False):
        """Run code; return (outputs as nbformat outputs, status). Each input() of the code
        is answered with stdin_hook(prompt) (with "" when there is none). Raise KernelGone
        when the kernel dies or the code runs past `timeout` seconds (the kernel is then
        killed)."""
        run = self.run(code, silent)
        deadline = time.monotonic() + timeout
        while (prompt := run.next_prompt(deadline, timeout)) is not None:
            run.answer(stdin_hook(prompt) if stdin_hook else "")
        return run.outputs, run.status

    def run(self, code, silent=False):
        """Send code to run; read what it does with the Run returned. The run before must be
        over: a kernel runs one request at a time, and one waiting for an answer to its
        input() would hold this one until its time ran out."""
        if self.running is not None and not self.running.done:
            raise RuntimeError("the kernel's previous run is not over (a conversation of "
                               "the grader's Link left open)")
        self.running = Run(self, code, silent)
        return self.running


class Run:
    """One execute request of a kernel, read message by message: its outputs gather as it
    goes, and each input() it makes is a prompt the reader answers, now or later (the code
    waits for the answer)."""

    def __init__(self, kernel, code, silent):
        self.kernel = kernel
        self.client = client = kernel.client
        self.msg_id = client.execute(code, silent=silent, store_history=not silent,
                                     allow_stdin=True)
        self.poller = zmq.Poller()
        self.channels = {channel.socket: channel for channel in read_channels(client)}
        for socket in [*self.channels, *kernel.cuts]:
            self.poller.register(socket, zmq.POLLIN)
        self.outputs, self.status, self.idle = [], None, False
        self.pending = []  # input prompts read and not yet handed to the reader

    @property
    def done(self):
        """Whether the code ended (its reply and its last iopub message came), or the
        kernel this run was sent to is no longer the one running."""
        return (self.status is not None and self.idle) or self.kernel.client is not self.client

    def next_prompt(self, deadline, seconds):
        """The prompt of the code's next input(), to be answered with `answer`; None when
        the code ended. Raise KernelGone when the kernel dies or `deadline` (monotonic, the
        end of a time limit of `seconds`) passes first (the kernel is then killed)."""
        kernel = self.kernel
        while not self.pending and not self.done:
            if time.monotonic() > deadline:
                kernel.stop()
                raise KernelGone(t("ran past the time limit ({seconds:.0f} s)",
                                   seconds=seconds))
            ready = self.poller.poll(50)  # ms; wakes as soon as any channel has a message
            if not ready and not kernel.alive():  # a kernel that sends is alive
                reason = kernel.gone_reason()
                kernel.stop()
                raise KernelGone(reason)
            for socket, _ in ready:
                if socket not in self.channels:  # a monitor: a connection dropped
                    kernel.cut_off()
                self._read(self.channels[socket])
        return self.pending.pop(0) if self.pending else None

    def answer(self, text):
        """Answer the prompt last handed out."""
        self.client.input(text)

    def _read(self, channel):
        client = self.client
        message = channel.get_msg(timeout=0)
        if channel is client.stdin_channel:
            self.pending.append(message["content"].get("prompt", ""))
        elif message["parent_header"].get("msg_id") != self.msg_id:
            return
        elif channel is client.shell_channel:
            self.status = message["content"]["status"]
        else:
            self.idle = self._collect(message, self.outputs) or self.idle

    @staticmethod
    def _collect(message, outputs):
        """Add an iopub message to the outputs; True when it says the kernel is idle."""
        kind = message["msg_type"]
        if kind == "status":
            return is_idle(message)
        if kind == "clear_output":
            outputs.clear()
        elif kind in ("stream", "display_data", "execute_result", "error"):
            outputs.append(nbformat.v4.output_from_msg(message))
        return False


def is_idle(message):
    """Whether an iopub message says the kernel is idle again (its request's last message)."""
    return message["msg_type"] == "status" and message["content"].get("execution_state") == "idle"
