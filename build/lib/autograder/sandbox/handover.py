"""Kernel templates started ahead by the client, each taken over by one grading worker.

A template (zygote.py) needs about 1.4 CPU s to start (torch, IPython, matplotlib), and a
worker of the embedded cluster exists only once the process its workers are forked from has
made its own imports (about 1.5 s on one core, while the other waits). Started by the worker
at its first notebook, the template's start came after both; started by the client with the
cluster, it runs beside them: the first notebook of a 40-notebook grade came back 4.3 s
after the start instead of 5.5 s, and a teaching assistant grading a few late notebooks
waits as much less. One template is started for all the workers: once imported, it forks a
copy of itself for each (the copies share the libraries' memory), so n workers pay for one
start, not n.

    client: TemplatePool(n)   one template with n sockets (<pid>.<copy>.sock) in a folder
       |                      only the client's user can enter, each announced by a token
       |                      file (<pid>.<copy>.free); once imported, a copy per socket
       | KIT_TEMPLATES=<folder> in the workers' environment
       v
    worker: take(folder)      claims a token (created exclusively: one worker each), connects,
                              and that copy serves it alone, its stdin and stdout that
                              connection, until the worker closes it

A copy no worker took leaves when the client closes the pool (its stdin ends); a taken one
when its worker closes the connection or dies (it kills its kernels first, as before), and
with the client (the template dies with the client, and each copy with the template, which
waits for its copies before it leaves). A worker that finds no token (a worker restarted
after a crash, or one of an external cluster), or whose copy does not say it is ready within
READY_SECONDS (said in grade.log), starts its own template. The client locks the pool's
folder while the pool lives: a new pool removes the folders whose lock is free (a client
killed before it could close its pool).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import shutil
import socket
import stat
import subprocess
import tempfile
import time
import warnings
from pathlib import Path

from autograder.sandbox.socket_folder import socket_parent

FOLDER_VARIABLE = "KIT_TEMPLATES"  # where a worker finds the templates started for it
PREFIX = "kit-templates-"  # a pool's folder, in the temporary folder
LOCK = "pool.lock"  # in a pool's folder, locked by its client for as long as the pool lives
READY_SECONDS = 300  # how long a worker waits for the copy it took to say it is ready
TOKEN = ".free"  # a copy's token: <pid>.<copy>.free; its socket: <pid>.<copy>.sock
MECHANISM = "mechanism"  # in a pool's folder: how its template confines kernels (isolation.py)


class TemplatePool:
    """One template started now (`command`, in `env`, writing its errors to the file `log`),
    with a copy waiting for each of `count` workers; its kernels are confined by `mechanism`,
    and only a worker whose kernels are to be confined so takes one."""

    def __init__(self, count, command, env, log, mechanism=None):
        remove_dead_pools()
        self.folder = Path(tempfile.mkdtemp(prefix=PREFIX, dir=socket_parent()))  # mode 0700
        (self.folder / MECHANISM).write_text(mechanism or default_mechanism())
        self.lock = open(self.folder / LOCK, "w")  # noqa: SIM115 - held until close
        fcntl.flock(self.lock, fcntl.LOCK_EX)  # no child inherits it (close_fds)
        self.process = None
        try:
            with open(log, "a") as errors:
                # A process group of its own: a terminal's Ctrl-C, sent to the command's
                # group, printed the template's traceback of its imports; the command ends it
                # (close), and its kernels interrupt as they always did (zygote.py).
                self.process = subprocess.Popen(
                    [*command, "--listen", str(self.folder), str(count)],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, env=env,
                    text=True, process_group=0)
            self.announce(count)
        except BaseException:
            self.close()
            raise

    def announce(self, count):
        """Once the template listens on its sockets (its first line, written before its
        imports), a token for each is put out for a worker to claim."""
        if not self.process.stdout.readline().startswith("listening"):
            raise RuntimeError("the kernel template (autograder/sandbox/zygote.py) did not "
                               "start; run it by hand to see why")
        for copy in range(count):
            (self.folder / f"{self.process.pid}.{copy}{TOKEN}").touch()

    def close(self):
        """Every copy no worker took ends (its stdin ends); a taken one ends with its
        worker's connection; the template, once its copies ended, is waited for here."""
        process = self.process
        if process is not None:
            process.stdin.close()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            process.stdout.close()
        shutil.rmtree(self.folder, ignore_errors=True)
        self.lock.close()


def remove_dead_pools(min_age=3600):
    """Remove the folders of pools whose client is gone: a client killed before it could
    close its pool (SIGKILL) leaves its folder (sockets and tokens, nothing else). A pool's
    client holds the lock of its folder while it lives, whatever the process namespace it
    runs in; a folder is removed only when it is this user's and its lock is free, or, with
    no lock (a client killed as it made it), older than `min_age` seconds."""
    for folder in Path(socket_parent()).glob(PREFIX + "*"):
        try:
            info = folder.lstat()
            if info.st_uid != os.geteuid() or not stat.S_ISDIR(info.st_mode):
                continue
            lock = os.open(folder / LOCK, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            if time.time() - info.st_mtime > min_age:
                shutil.rmtree(folder, ignore_errors=True)
            continue
        except OSError:
            continue
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # its client holds it
            continue
        else:
            shutil.rmtree(folder, ignore_errors=True)
        finally:
            os.close(lock)


class TakenTemplate:
    """A copy of the pool's template, as a worker holds it: what the worker's Zygote uses of a
    subprocess.Popen (pid, stdin, stdout, poll, wait), over the connection. It is not this
    process's child: `poll` and `wait` watch it through a pidfd, opened once its ready line
    names it, and say 0 once it ended (its exit status is its template's to read)."""

    def __init__(self, connection):
        self.pid = None
        self.pidfd = None
        self.returncode = None
        self.stdin = SendingEnd(connection)
        self.stdout = connection.makefile("r", encoding="utf-8")
        self.connection = connection

    def started(self, seconds):
        """Wait for the copy's ready line ({"ready": pid}), at most `seconds`; whether it
        came (else the copy ended first or hangs, and the connection is closed)."""
        self.connection.settimeout(seconds)
        try:
            self.pid = json.loads(self.stdout.readline())["ready"]
            self.pidfd = os.pidfd_open(self.pid)
        except (ValueError, KeyError, TypeError, OSError):  # TimeoutError among them
            self.release()
            return False
        self.connection.settimeout(None)
        return True

    def poll(self):
        if self.returncode is None and select.select([self.pidfd], [], [], 0)[0]:
            self.returncode = 0
            self.release()
        return self.returncode

    def wait(self, timeout=None):
        """Once the template has ended (closing stdin ends it); TimeoutExpired after
        `timeout` seconds."""
        if self.returncode is None and not select.select([self.pidfd], [], [], timeout)[0]:
            raise subprocess.TimeoutExpired(f"kernel template {self.pid}", timeout)
        self.returncode = 0
        self.release()
        return 0

    def release(self):
        for end in (self.stdin, self.stdout, self.connection):
            end.close()  # the template reads the end of its stdin once all three are closed
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None


class SendingEnd:
    """The connection's sending end, as a Popen's stdin: closing it ends the template's
    stdin (the connection stays open for the template's last answers)."""

    def __init__(self, connection):
        self.connection = connection
        self.file = connection.makefile("w", encoding="utf-8")

    def write(self, text):
        return self.file.write(text)

    def flush(self):
        self.file.flush()

    def close(self):
        if not self.file.closed:
            self.file.close()
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_WR)


def take(folder, mechanism=None):
    """A copy of the pool's template in `folder` that no other worker took, connected and
    ready, or None when none is left, `folder` is not a pool, or its template confines
    kernels by another mechanism than `mechanism`."""
    try:
        names = sorted(os.listdir(folder))
        if Path(folder, MECHANISM).read_text() != (mechanism or default_mechanism()):
            return None
    except (OSError, TypeError):
        return None
    for name in names:
        slot = name.removesuffix(TOKEN)
        if not name.endswith(TOKEN) or not slot.replace(".", "", 1).isdigit() or \
                not claimed(folder, slot):
            continue
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            connection.connect(os.path.join(folder, f"{slot}.sock"))
        except OSError:
            connection.close()
            continue
        template = TakenTemplate(connection)
        if template.started(READY_SECONDS):
            with contextlib.suppress(OSError), \
                    open(os.path.join(folder, f"{slot}.taken"), "a") as claim:
                claim.write(f" {template.pid}")  # who holds this copy (`holder`)
            return template
        warnings.warn(f"the kernel template's copy {slot} did not say it was ready within "
                      f"{READY_SECONDS} s (it ended, or hangs); this worker takes another copy "
                      "or starts a template of its own, which costs it a few seconds. The "
                      "template's errors are in grade.log.", stacklevel=2)
    return None


def default_mechanism():
    from autograder.sandbox.isolation import choose

    return choose("full")


def claimed(folder, slot):
    """Whether this worker claimed the copy `slot` (<pid>.<copy>): the first to create its
    claim (<slot>.taken, which holds the worker's pid, then the copy's: who holds which)."""
    try:
        claim = os.open(os.path.join(folder, f"{slot}.taken"),
                        os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except OSError:
        return False
    os.write(claim, str(os.getpid()).encode())
    os.close(claim)
    return True


def holder(folder, pid):
    """The pid of the worker that took the copy `pid` of the pool in `folder`, or None (not
    taken, or the pool is closed)."""
    try:
        claims = [path.read_text().split() for path in Path(folder).glob("*.taken")]
    except OSError:
        return None
    return next((int(fields[0]) for fields in claims if fields[1:] == [str(pid)]), None)
