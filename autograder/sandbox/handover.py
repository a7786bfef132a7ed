"""Kernel templates started ahead by the client, each taken over by one grading worker.

A template (zygote.py) needs about 1.4 CPU s to start (torch, IPython, matplotlib), and a
worker of the embedded cluster exists only once the process its workers are forked from has
made its own imports (about 1.5 s on one core, while the other waits). Started by the worker
at its first notebook, the template's start came after both; started by the client with the
cluster, it runs beside them: the first notebook of a 40-notebook grade came back 4.3 s
after the start instead of 5.5 s, and a teaching assistant grading a few late notebooks
waits as much less.

    client: TemplatePool(n)   n templates, each listening on a Unix socket of a folder only
       |                      the client's user can enter, each announced by a token file
       | KIT_TEMPLATES=<folder> in the workers' environment
       v
    worker: take(folder)      claims a token (created exclusively: one worker each), connects,
                              and the template serves it alone, its stdin and stdout that
                              connection, until the worker closes it

A template no worker took leaves when the client closes the pool (its stdin ends); a taken
one when its worker closes the connection or dies (it kills its kernels first, as before),
and with the client (it dies with its parent). A worker that finds no token (a worker
restarted after a crash, or one of an external cluster) starts its own template.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

FOLDER_VARIABLE = "KIT_TEMPLATES"  # where a worker finds the templates started for it
TOKEN = ".free"  # a template's token: <pid>.free; its socket: <pid>.sock


class TemplatePool:
    """`count` templates started now (`command`, in `env`, writing their errors to the file
    `log`), waiting for workers."""

    def __init__(self, count, command, env, log):
        self.folder = Path(tempfile.mkdtemp(prefix="kit-templates-"))  # mode 0700
        self.processes = []
        try:
            with open(log, "a") as errors:
                for _ in range(count):  # each kept as started: a failed start closes them
                    self.processes.append(subprocess.Popen(
                        [*command, "--listen", str(self.folder)], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=errors, env=env, text=True))
            for process in self.processes:
                self.announce(process)
        except BaseException:
            self.close()
            raise

    def announce(self, process):
        """Once the template listens on <pid>.sock (its first line, written before its
        imports), its token is put out for a worker to claim."""
        if not process.stdout.readline().startswith("listening"):
            raise RuntimeError("the kernel template (autograder/sandbox/zygote.py) did not "
                               "start; run it by hand to see why")
        (self.folder / f"{process.pid}{TOKEN}").touch()

    def close(self):
        """Every template no worker took ends (its stdin ends); a taken one ends with its
        worker's connection, and is waited for here too."""
        for process in self.processes:
            process.stdin.close()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            process.stdout.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class TakenTemplate:
    """A template of the client's pool, as a worker holds it: what the worker's Zygote uses
    of a subprocess.Popen (pid, stdin, stdout, poll, wait), over the connection. It is not
    this process's child: `poll` and `wait` watch it through a pidfd, and say 0 once it
    ended (its exit status is the client's to read)."""

    def __init__(self, pid, pidfd, connection):
        self.pid = pid
        self.pidfd = pidfd
        self.returncode = None
        self.stdin = SendingEnd(connection)
        self.stdout = connection.makefile("r", encoding="utf-8")
        self.connection = connection

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


def take(folder):
    """A template of the pool in `folder` that no other worker took, connected (its ready
    line still to come), or None when none is left or `folder` is not one."""
    try:
        names = sorted(os.listdir(folder))
    except (OSError, TypeError):
        return None
    for name in names:
        pid = name.removesuffix(TOKEN)
        if not name.endswith(TOKEN) or not pid.isdigit() or not claimed(folder, pid):
            continue
        try:
            pidfd = os.pidfd_open(int(pid))
        except OSError:  # it has ended
            continue
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            connection.connect(os.path.join(folder, f"{pid}.sock"))
        except OSError:
            connection.close()
            os.close(pidfd)
            continue
        return TakenTemplate(int(pid), pidfd, connection)
    return None


def claimed(folder, pid):
    """Whether this worker claimed the template `pid`: the first to create its claim
    (<pid>.taken, which holds the worker's pid: who holds which template)."""
    try:
        claim = os.open(os.path.join(folder, f"{pid}.taken"),
                        os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except OSError:
        return False
    os.write(claim, str(os.getpid()).encode())
    os.close(claim)
    return True


def holder(folder, pid):
    """The pid of the worker that took the template `pid` of the pool in `folder`, or None
    (not taken, or the pool is closed)."""
    try:
        return int(Path(folder, f"{pid}.taken").read_text())
    except (OSError, ValueError):
        return None
