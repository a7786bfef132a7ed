"""Does the full sandbox hold as whoever grades: root, an ordinary user (JupyterHub, a shared
server), an ordinary user where user namespaces are refused (Docker's and Kubernetes' default
seccomp profiles), root with Docker's default capabilities (Gradescope)? And where none of its
ways can be had, does grading refuse, with one line, and grade nothing?

Real `python -m autograder init` and `grade`, run as that user (runuser), on a course made by
init in the user's own folder; the restricted environments are made with tests/autograder/
confined.py (a seccomp filter like Docker's, its capabilities). Six students attack, as a red
team did as an ordinary user: each answer exec()s the course's reference.py; one prints the
instructor's private file; one connects to a listener on 127.0.0.1; one writes into the course;
one kills every process it may (kill(-1)); one holds 115 zombies while the others are graded;
one holds 640 MiB of files it removed; one makes its processes unreadable to its own user;
one, honest, holds nine locks of multiprocessing's (removed pages of /dev/shm, mapped).
A correct and a blank notebook beside them. Needs
root, as in CI (KIT_REQUIRE_ROOT)."""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import nbformat
import pytest

from autograder.build.proof import solution_cells
from autograder.course.directory import nbgrader_env
from autograder.tools import simulate
from tests.accounts import ensure_user
from tests.autograder.test_exchange import interpreter_open_to_students

pytestmark = pytest.mark.long

ID = "01_attention_by_hand"
FULL = 10
INSTRUCTOR = "kit-instructor"
CONFINED = Path(__file__).resolve().parents[1] / "confined.py"
MODES = {  # name: (user, confined.py's options, the sandbox the summary line names)
    "root": (None, [], "full (namespaces, as root)"),
    "ordinary user": (INSTRUCTOR, [], "full (user namespaces)"),
    "ordinary user, no user namespaces": (INSTRUCTOR, ["--no-user-namespaces"],
                                          "full (Landlock ABI"),
    "root, Docker's default capabilities": (None, ["--no-user-namespaces",
                                                   "--docker-capabilities"],
                                            "full (Landlock ABI"),
}
ATTACKS = {  # student: code in a cell before the answers ({course}, {secret}, {port} filled)
    "a-kill": "import os, signal\nos.kill(-1, signal.SIGKILL)",
    "b-secret": "try:\n    print(open({secret!r}).read())\nexcept OSError as error:\n"
                "    print('refused', error)",
    "c-network": "import socket\nfor _ in range(5):\n    try:\n"
                 "        socket.create_connection(('127.0.0.1', {port}), timeout=2).close()\n"
                 "    except OSError as error:\n        print('refused', error)",
    "d-write": "for path in [{course!r} + '/planted.txt', {course!r} + '/submitted/planted']:\n"
               "    try:\n        open(path, 'w').write('x')\n    except OSError as error:\n"
               "        print('refused', error)",
    # 115 zombies, orphaned to the kernel (which never reaps them), held while the other
    # worker grades: as an ordinary user, every kernel once shared 128 processes
    "f-zombies": "import subprocess, time\n"
                 "subprocess.run(['/bin/sh', '-c', 'for i in $(seq 115); do /bin/true & done'])\n"
                 "time.sleep(8)",
    # 640 MiB in files removed while held open: no listing of its folder shows them
    "g-held-open": "import os, time\nheld = []\nfor i in range(40):\n"
                   "    part = open(f'part{{i}}', 'wb+')\n    part.write(b'0' * (16 << 20))\n"
                   "    part.flush()\n    os.unlink(f'part{{i}}')\n    held.append(part)\n"
                   "time.sleep(3)",
    # its /proc closed to its own user (PR_SET_DUMPABLE 0), to hide what it holds
    "h-undumpable": "import ctypes, time\nctypes.CDLL(None).prctl(4, 0, 0, 0, 0)\n"
                    "time.sleep(3)",
    # honest: nine locks of multiprocessing's, each a removed page mapped from /dev/shm
    # (memory, not the disk; refused where the sandbox has no /dev/shm to write)
    "i-locks": "import multiprocessing, time\ntry:\n"
               "    locks = [multiprocessing.Lock() for _ in range(9)]\n"
               "except OSError as error:\n    print('refused', error)\ntime.sleep(1)",
}
SETUP = "setup_04"  # the release's last setup cell: the attacks' cell comes after it
REFERENCE_EXEC = ("exec(open({reference!r}).read(), globals())  # the course's own answers\n")


def needs_root():
    if os.geteuid() == 0 and shutil.which("useradd") and shutil.which("runuser"):
        return
    if os.environ.get("KIT_REQUIRE_ROOT"):
        pytest.fail("these tests grade as other users and need root (as in CI)")
    pytest.skip("these tests grade as other users: run them as root")


def ensure_instructor():
    return ensure_user(INSTRUCTOR, home=True)


def command(user, confine, *args):
    """`python -m autograder ARGS` as `user` (None: root), in the confined environment."""
    line = [sys.executable, "-m", "autograder", *args]
    if confine:
        line = [sys.executable, str(CONFINED), *confine, "--", *line]
    if user:
        line = ["runuser", "-u", user, "--", *line]
    return line


def run(cwd, user, confine, *args, check=True):
    env = nbgrader_env()
    if user:
        home = pwd.getpwnam(user).pw_dir
        env.update(HOME=home, USER=user, LOGNAME=user)
    env.pop("KIT_SANDBOX", None)  # the sandbox is the one this environment gives
    result = subprocess.run(command(user, confine, *args), cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=900)
    if check:
        assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result


class Listener:
    """A TCP listener on 127.0.0.1 that counts the connections it accepts."""

    def __init__(self):
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.socket.settimeout(0.2)
        self.port = self.socket.getsockname()[1]
        self.accepted = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while not self.stop.is_set():
            with contextlib.suppress(TimeoutError, OSError):
                self.socket.accept()[0].close()
                self.accepted += 1

    def close(self):
        self.stop.set()
        self.thread.join()
        self.socket.close()


def owned_folder(user, home, name):
    """A new folder of `user` (root: a folder every user may enter, in /tmp)."""
    if user:
        folder = home / name
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        shutil.chown(folder, user, user)
        return folder
    folder = Path(f"/tmp/{name}-{secrets.token_hex(4)}")
    folder.mkdir(mode=0o755)
    return folder


def hand_in(course, user, student, notebook):
    path = course / "submitted" / student / ID / f"{ID}.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(notebook, path)
    if user:
        for part in [course / "submitted", *path.relative_to(course / "submitted").parents,
                     path.relative_to(course / "submitted")]:
            shutil.chown(course / "submitted" / part, user, user)


def class_of(course, secret, port):
    """{student: notebook}: the attacks, the reference exec, a correct and a blank one."""
    release = nbformat.read(course / "release" / ID / f"{ID}.ipynb", as_version=4)
    source = nbformat.read(course / "source" / ID / f"{ID}.ipynb", as_version=4)
    correct = simulate.correct(release, source)
    reference = str(course / "assignments" / ID / "reference.py")
    notebooks = {"y-blank": release, "z-correct": correct,
                 "e-reference": simulate.fill(release, {
                     cell: REFERENCE_EXEC.format(reference=reference)
                     for cell in solution_cells(source)})}
    for student, code in ATTACKS.items():
        notebooks[student] = simulate.after_cell(correct, SETUP, code.format(
            course=str(course), secret=str(secret), port=port))
    return notebooks


def scores(course):
    with sqlite3.connect(course / "gradebook.db") as db:
        rows = db.execute(
            "SELECT submitted_assignment.student_id, SUM(grade.auto_score) FROM grade "
            "JOIN submitted_notebook ON grade.notebook_id = submitted_notebook.id "
            "JOIN submitted_assignment ON submitted_notebook.assignment_id = "
            "submitted_assignment.id GROUP BY submitted_assignment.student_id").fetchall()
    return {student: score for student, score in rows}


@pytest.fixture(scope="module", params=list(MODES))
def graded(request):
    """A course made by init as the mode's user, the class handed in and graded in the
    mode's environment: (mode, course, grade's result, the listener, the secret)."""
    needs_root()
    user, confine, _ = MODES[request.param]
    home = ensure_instructor()
    with interpreter_open_to_students():
        base = owned_folder(user, home, "kit-course-" + request.param.split(",")[0]
                            .replace(" ", "-"))
        course = base / "course"
        run(base, user, [], "init", str(course), ID)
        secret = base / "secret.txt"
        token = secrets.token_hex(16)
        secret.write_text(token)
        secret.chmod(0o600)
        if user:
            shutil.chown(secret, user, user)
        listener = Listener()
        try:
            for student, notebook in class_of(course, secret, listener.port).items():
                hand_in(course, user, student, notebook)
            result = run(course, user, confine, "grade", "--workers", "2", check=False)
        finally:
            listener.close()
        yield request.param, course, result, listener, token
        shutil.rmtree(base, ignore_errors=True)


def test_correct_earns_full_marks_and_blank_zero(graded):
    """Does a correct notebook earn full marks and a blank one zero, in every mode?"""
    mode, course, result, _, _ = graded
    assert result.returncode in (0, 1), result.stderr
    found = scores(course)
    assert found.get("z-correct") == FULL, (mode, found, result.stdout, result.stderr)
    assert found.get("y-blank") == 0, (mode, found)


def test_the_summary_names_the_sandbox(graded):
    """Does the console's summary line name the sandbox the notebooks were graded in, and
    grade.log and the class report too?"""
    mode, course, result, _, _ = graded
    named = MODES[mode][2]
    summary = [line for line in result.stdout.splitlines() if line.startswith("graded ")]
    assert summary and named in summary[-1], (mode, result.stdout)
    assert named in (course / "grade.log").read_text()
    user, confine, _ = MODES[mode]
    with interpreter_open_to_students():
        run(course, user, confine, "report", "--to", str(course / "report.html"))
    page = (course / "report.html").read_text()
    assert "Student code ran in the sandbox: " + named in page, mode


def test_the_reference_earns_nothing(graded):
    """Can a student exec() the course's own reference.py into their answers? Not in any
    mode: zero points."""
    mode, course, _, _, _ = graded
    assert scores(course).get("e-reference") == 0, mode


def test_nothing_leaks_reaches_or_is_written(graded):
    """The instructor's private file is in no graded notebook, the listener on 127.0.0.1
    accepted no connection, nothing was written into the course, and the attackers keep
    exactly what their correct answers earn."""
    mode, course, _, listener, token = graded
    for path in course.rglob("*"):
        if path.is_file() and path.suffix in (".ipynb", ".html", ".log", ".json"):
            assert token not in path.read_text(errors="replace"), (mode, path)
    assert listener.accepted == 0, mode
    assert not (course / "planted.txt").exists() and not (course / "submitted" /
                                                          "planted").exists(), mode
    found = scores(course)
    for student in ("b-secret", "c-network", "d-write", "f-zombies", "g-held-open",
                    "h-undumpable", "i-locks"):
        assert found.get(student) == FULL, (mode, student, found)


def test_kill_minus_one_stops_nothing(graded):
    """Does one student's kill(-1) leave the grading of every other notebook whole? Every
    student is in the gradebook; the run did not die (exit 137)."""
    mode, course, result, _, _ = graded
    assert result.returncode != -9 and result.returncode != 137, (mode, result.stderr)
    assert set(scores(course)) >= {"b-secret", "c-network", "d-write", "e-reference",
                                   "f-zombies", "g-held-open", "h-undumpable", "y-blank",
                                   "z-correct"}, mode


def said_in(course, student):
    return (course / "autograded" / student / ID / f"{ID}.ipynb").read_text()


def test_files_removed_but_held_are_counted(graded):
    """Is the cell that holds 640 MiB of removed files stopped, saying why, in every mode
    (its answers still graded, above)? And where the grader's user cannot read an
    undumpable kernel's /proc (an ordinary user, no namespace between them), is that kernel
    stopped as hiding what it holds? (Where a template, root without CAP_SYS_PTRACE as in
    Docker, reads a kernel's /proc as the kernel's own user, so is it.)"""
    mode, course, _, _, _ = graded
    assert "removed but still holds" in said_in(course, "g-held-open"), mode
    assert "removed but still holds" not in said_in(course, "i-locks"), mode
    if mode in ("ordinary user, no user namespaces", "root, Docker's default capabilities"):
        assert "hid from the grader" in said_in(course, "h-undumpable"), mode


@pytest.mark.parametrize("args", [["grade"], ["validate", ID]])
def test_no_sandbox_refuses_in_one_line(args, tmp_path):
    """Where neither namespaces nor Landlock can be had (an ordinary user, user namespaces
    refused, a Linux without Landlock), do grade and validate refuse: exit 1, one line naming
    what is missing and both ways out, nothing graded, the submission kept?"""
    needs_root()
    home = ensure_instructor()
    confine = ["--no-user-namespaces", "--no-landlock"]
    with interpreter_open_to_students():
        base = owned_folder(INSTRUCTOR, home, "kit-course-refused")
        course = base / "course"
        run(base, INSTRUCTOR, [], "init", str(course), ID)
        release = nbformat.read(course / "release" / ID / f"{ID}.ipynb", as_version=4)
        hand_in(course, INSTRUCTOR, "ada", release)
        before = (course / "submitted" / "ada" / ID / f"{ID}.ipynb").read_bytes()
        result = run(course, INSTRUCTOR, confine, *args, check=False)
    try:
        assert result.returncode == 1, (result.stdout, result.stderr)
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, result.stderr
        assert "the full sandbox cannot be built here" in lines[0]
        assert "user-namespaces: Operation not permitted" in lines[0]
        assert "no Landlock" in lines[0] and 'isolation = "limits"' in lines[0]
        assert not list((course / "autograded").rglob("*.ipynb"))
        assert (course / "submitted" / "ada" / ID / f"{ID}.ipynb").read_bytes() == before
    finally:
        shutil.rmtree(base, ignore_errors=True)
