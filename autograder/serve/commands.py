"""`grade`, `feedback` and `validate` run by the course's `serve`, when one runs.

A command of these started in a course where `serve` runs hands its command line to it over
a Unix socket in the course (.kit/serve.sock, the instructor's alone: mode 0600, and the
peer's user checked), and relays what it prints and its exit status. `serve` runs it as the
command line would (cli.main), one at a time and never during a grading on submit, on what
it keeps warm: the imports, and for one notebook or page its in-process engine and kernel
template. Where no `serve` answers, or it runs another version of the kit, the command runs
as it always does, in its own process.

    client: python -m autograder grade --student ada
       | {"argv": [...], "cwd": ..., "kit": ...}                    (one JSON line)
       v
    serve: run_command(argv) --> {"out": text} / {"err": text} ... {"exit": status}
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shlex
import socket
import struct
import sys
import threading
import time
from pathlib import Path

from autograder.plumbing.course_root import KIT_FOLDER, course_root_of, typed_here
from autograder.plumbing.unix_socket import socket_address

SOCKET = "serve.sock"  # in the course's .kit/
SERVED = frozenset({"grade", "feedback", "validate"})
NO_SERVE = "KIT_NO_SERVE"  # set: a command never hands itself to serve
VERSION = str(Path(__file__).resolve().parents[1])  # which kit: a serve of another answers no
SERVING = []  # [True] in the serve process, once it listens


def socket_path(root: Path) -> Path:
    return root / KIT_FOLDER / SOCKET


# The client --------------------------------------------------------------------------------

def served_unparsed(argv):
    """A command line of SERVED run by the course's serve before this process parses it: serve
    parses it as this process would, in the course's language, and says what argparse would
    refuse; its exit status, or None when no serve answers, or the command is another, or it
    asks for help (printed here)."""
    if command_of(argv) not in SERVED or {"-h", "--help"} & set(argv):
        return None
    root = given_root(argv) or course_root_of(typed_here())
    return None if root is None else through_serve(root.resolve(), argv)


def given_root(argv):
    """--root of the command line, unparsed otherwise; None when not given, or given wrong
    (the command line's parser then says so, once)."""
    first = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    first.add_argument("--root", type=Path, default=None)
    try:
        return first.parse_known_args(argv)[0].root
    except argparse.ArgumentError:
        return None


def through_serve(root: Path, argv) -> int | None:
    """Run the command line `argv` in the course's serve: its exit status, or None when no
    serve of this kit answers (the caller then runs it itself)."""
    path = socket_path(root)
    if os.environ.get(NO_SERVE) or SERVING or not path.exists():
        return None  # serve itself runs what it is handed
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        with socket_address(path) as address:
            connection.connect(address)
    except OSError:
        connection.close()
        return None  # a socket left by a serve that is gone
    with connection, connection.makefile("rw", encoding="utf-8") as stream:
        request = {"argv": ["--root", str(root), *argv], "cwd": os.getcwd(), "kit": VERSION}
        stream.write(json.dumps(request) + "\n")
        stream.flush()
        try:
            for line in stream:
                message = json.loads(line)
                if "exit" in message:
                    return message["exit"]
                if "refused" in message:
                    return None
                target = sys.stdout if "out" in message else sys.stderr
                target.write(message.get("out", message.get("err", "")))
                target.flush()
        except KeyboardInterrupt:
            print("\n" + in_course_language(root, "interrupted: serve finishes the command it "
                                             "was handed (what it grades is kept); stop serve "
                                             "to stop it"), file=sys.stderr)
            return 130
    print(in_course_language(root, "serve stopped before this command ended (what it graded is "
                             "kept); the command runs again here, in its own process"),
          file=sys.stderr, flush=True)  # serve went away before the end
    return None


# The server --------------------------------------------------------------------------------

class Relay(io.TextIOBase):
    """A text stream whose writes go to the client as {key: text} lines."""

    def __init__(self, stream, key):
        self.stream, self.key = stream, key

    def writable(self):
        return True

    def write(self, text):
        with contextlib.suppress(OSError, ValueError):  # the client left: the command goes on
            self.stream.write(json.dumps({self.key: text}) + "\n")
            self.stream.flush()
        return len(text)


def peer_uid(connection) -> int:
    """The user id of the process at the other end of a Unix socket (SO_PEERCRED)."""
    credentials = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                        struct.calcsize("3i"))
    return struct.unpack("3i", credentials)[1]


def command_of(argv):
    """The command a command line names (its first word that is not an option of the kit's
    own, `--root FOLDER` or `--root=FOLDER`), or None."""
    words = list(argv)
    while words and (words[0] == "--root" or words[0].startswith("--root=")):
        words = words[2:] if words[0] == "--root" else words[1:]
    return words[0] if words and not words[0].startswith("-") else None


class CommandServer:
    """Listens at the course's socket while `serve` runs; `lock` is held for each command (the
    grading on submit holds it too). `run_command(argv)` runs one, as the command line's own
    main does: the command line hands it in, so that serve never imports the command line.
    serve's console says each command as it starts and how it ended (`say`)."""

    def __init__(self, root: Path, lock, run_command, say=None):
        self.root, self.lock, self.run_command = root, lock, run_command
        self.say = say  # serve's console: each command handed in, as it starts and ends
        self.path = socket_path(root)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.unlink(missing_ok=True)  # a serve holds the grade lock: a socket here is dead
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)  # the socket is created 0600: the instructor's alone
        try:
            with socket_address(self.path) as address:
                self.listener.bind(address)
        finally:
            os.umask(old)
        self.listener.listen(8)
        SERVING.append(True)
        self.thread = threading.Thread(target=self.serve_forever, name="kit-commands",
                                       daemon=True)

    def start(self):
        self.thread.start()
        return self

    def close(self):
        with contextlib.suppress(OSError):
            self.listener.close()
        self.path.unlink(missing_ok=True)

    def serve_forever(self):
        from autograder.sandbox import spare_kernel  # here: the client's module stays light

        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return  # closed
            with connection:
                try:
                    self.answer(connection)
                except (OSError, ValueError):
                    pass  # the client went away (Ctrl-C, a lost session): serve goes on
            spare_kernel.start_pending()  # the client has its answer: the cores are free

    def answer(self, connection):
        with connection.makefile("rw", encoding="utf-8") as stream:
            try:
                request = json.loads(stream.readline())
                argv, cwd = list(request["argv"]), request["cwd"]
                allowed = (peer_uid(connection) == os.getuid()
                           and request.get("kit") == VERSION and command_of(argv) in SERVED)
            except (ValueError, KeyError, TypeError, OSError):
                allowed = False
            if not allowed:
                with contextlib.suppress(OSError):
                    stream.write(json.dumps({"refused": True}) + "\n")
                return
            status = self.run(argv, cwd, stream)
            with contextlib.suppress(OSError):
                stream.write(json.dumps({"exit": status}) + "\n")

    def run(self, argv, cwd, stream):
        """run_command(argv) in `cwd`, its output to the client; its exit status. When serve
        is busy (another command, a submission), the client is told it waits."""
        if not self.lock.acquire(blocking=False):
            Relay(stream, "err").write(waiting_line(self.root))
            self.lock.acquire()
        here, started = os.getcwd(), time.monotonic()
        self.tell(argv, status=None)
        try:
            with contextlib.redirect_stdout(Relay(stream, "out")), \
                    contextlib.redirect_stderr(Relay(stream, "err")):
                try:
                    os.chdir(cwd)
                    status = self.run_command(argv)
                except SystemExit as end:  # argparse's refusal, --help
                    status = end.code if isinstance(end.code, int) else \
                        0 if end.code is None else 2
                except Exception as error:  # noqa: BLE001 - the client says it; serve goes on
                    print(f"error: {type(error).__name__}: {error}", file=sys.stderr)
                    status = 1
                finally:
                    os.chdir(here)
        finally:
            self.lock.release()
        self.tell(argv, status, time.monotonic() - started)
        return status

    def tell(self, argv, status, seconds=0.0):
        """Say on serve's console a handed command starting (`status` None) or ended."""
        if self.say is None:
            return
        words = argv[2:] if argv[:1] == ["--root"] else argv  # the --root the client added
        command, now = " ".join(shlex.quote(word) for word in words), time.strftime("%H:%M:%S")
        self.say(in_course_language(self.root, "{time} handed in: {command}", time=now,
                                    command=command) if status is None else
                 in_course_language(self.root, "{time} {command}: exit {status} after "
                                    "{seconds:.1f} s", time=now, command=command,
                                    status=status, seconds=seconds))


def waiting_line(root: Path) -> str:
    """What a client hears while serve finishes what it is doing before its command."""
    return in_course_language(root, "serve is busy (another command, a submission, or an "
                              "assignment made ready as it starts); this command runs once "
                              "that is done") + "\n"


def in_course_language(root: Path, text, **fields) -> str:
    """t(text) in the language of the course at `root` (imported here: the client's module
    stays light until it has something to say)."""
    from autograder.course.config_file import course_language
    from autograder.i18n import language, t

    with language(course_language(root)):
        return t(text, **fields)
