"""While `serve` runs in a course, do `grade`, `feedback` and `validate` run in it, warm, and
say and exit exactly as they do alone; and where it does not answer, do they run alone?

A real `python -m autograder serve` process, real commands beside it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time

import nbformat
import pytest

from autograder.course.directory import Course, nbgrader_env, open_gradebook
from autograder.plumbing.timeline import VARIABLE
from autograder.plumbing.unix_socket import SUN_PATH, socket_address
from autograder.serve.commands import (
    NO_SERVE,
    SERVED,
    VERSION,
    command_of,
    served_unparsed,
    socket_path,
)
from autograder.tools import simulate
from tests.autograder.serve.test_on_submit import WAIT, Serve
from tests.course import ROOT

ID = "01_attention_by_hand"
SLOW_CELL = 4  # seconds: the slow student's notebook is still being graded when serve is killed


def kit(root, *args, **env):
    return subprocess.run([sys.executable, "-m", "autograder", *args], cwd=root,
                          env=dict(nbgrader_env(), **env), capture_output=True, text=True,
                          timeout=600)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A course whose folder is deep enough that serve's socket path passes Linux's limit on a
    Unix socket's path: every test here reaches serve past it (plumbing/unix_socket.py)."""
    root = tmp_path_factory.mktemp("serve-commands") / ("a-deep-folder-" * 6) / "course"
    assert len(os.fsencode(str(socket_path(root)))) > SUN_PATH
    made = Course.create(root, ROOT, [ID])
    release = nbformat.read(ROOT / "release" / ID / f"{ID}.ipynb", 4)
    source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", 4)
    for student in ("s0", "s1", "s2"):
        made.submit(student, ID, simulate.correct(release, source))
    slow = simulate.correct(release, source)  # a notebook graded for some seconds
    slow.cells.append(nbformat.v4.new_code_cell(f"import time\ntime.sleep({SLOW_CELL})"))
    made.submit("slow", ID, slow)
    return root


def started_with_timeline(root, name):
    """serve started in the course at `root`, its processes writing their timeline
    (plumbing/timeline.py) into the file `name` beside the course: (Serve, the file)."""
    serve = Serve(root)
    timeline = root.parent / name
    os.environ[VARIABLE] = str(timeline)
    try:
        serve.start()
    finally:
        del os.environ[VARIABLE]
    return serve, timeline


@pytest.fixture(scope="module")
def serving(course):
    """The course with serve running, writing its timeline (plumbing/timeline.py) beside the
    course; stopped (SIGTERM) after the module's tests."""
    serve, timeline = started_with_timeline(course, "serve-timeline.txt")
    yield {"root": course, "process": serve.process, "timeline": timeline, "serve": serve}
    if serve.process.poll() is None:
        serve.stop()


def score(root, student):
    with open_gradebook(root) as gradebook:
        return gradebook.find_submission(ID, student).score


def test_grade_runs_in_serve_and_says_what_grade_says(serving):
    """Does `grade --student` with serve running grade the notebook in serve (its score in the
    gradebook, serve's process doing the work), print grade's own lines and exit 0?"""
    root = serving["root"]
    started = time.monotonic()
    result = kit(root, "grade", "--student", "s0")
    print(f"grade of one notebook through serve: {time.monotonic() - started:.2f} s")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "graded 1, already graded 0" in result.stdout
    assert f"{ID} (of 10 points): s0 10" in result.stdout
    assert score(root, "s0") == 10


def test_a_handed_command_leaves_the_command_line_unimported(serving):
    """Does `python -m autograder grade --student` hand itself to serve before it imports the
    command line (cli.py, and with it the checks' loader), or any library's file read for a
    speedup's check, so that the client costs its interpreter's start and a socket?"""
    result = kit(serving["root"], "grade", "--student", "s1", PYTHONPROFILEIMPORTTIME="1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{ID} (of 10 points): s1 10" in result.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines()
                if line.startswith("import time:")}
    assert "autograder.serve.commands" in imported  # the timing lines are there
    assert not imported & {"autograder.cli", "autograder.checks.loader", "inspect",
                           "dataclasses", "nbformat", "torch"}


def interpreters_of(root, *args, **env):
    """How many interpreters `python -m autograder ARGS`, started hashing at random, ran in
    turn: one, or two where it started itself again to hash as the kernels do (each imports
    `site` once as it starts)."""
    result = kit(root, *args, PYTHONHASHSEED="random", PYTHONPROFILEIMPORTTIME="1", **env)
    assert result.returncode == 0, result.stdout + result.stderr
    return sum(line.startswith("import time:") and line.rsplit("|", 1)[-1].strip() == "site"
               for line in result.stderr.splitlines())


def test_a_handed_command_is_not_started_again_to_hash_as_the_kernels(serving):
    """Is the process of a command handed to serve left as it was started, hashing at random
    (it only relays what serve runs, in serve's process, which hashes as the kernels do),
    where the same command run alone is started again, once, to hash so?"""
    root = serving["root"]
    assert interpreters_of(root, "grade", "--student", "s0") == 1
    assert interpreters_of(root, "grade", "--student", "s0", **{NO_SERVE: "1"}) == 2


def test_the_next_notebook_is_judged_in_a_kernel_started_ahead_and_graded_alike(serving):
    """After a grade through serve, does the next notebook's judging take the kernel serve
    started ahead, and is that notebook graded exactly as `grade` alone grades it: its scores
    and every output of its test cells?"""
    root = serving["root"]
    assert kit(root, "grade", "--student", "s0").returncode == 0  # graded already, or now
    serving["timeline"].write_text("")
    served = kit(root, "grade", "--student", "s2")
    assert served.returncode == 0, served.stdout + served.stderr
    marks = [line.split(" ", 2)[2] for line in serving["timeline"].read_text().splitlines()
             if line.split(" ", 2)[1] == str(serving["process"].pid)]
    assert "kernel: spare taken" in marks and "kernel: starting" not in marks[
        :marks.index("grading: steps judged")], marks
    in_serve = outputs_of_tests(root, "s2"), score(root, "s2")

    alone = kit(root, "grade", "--student", "s2", "--force", **{NO_SERVE: "1"})
    assert alone.returncode == 0, alone.stdout + alone.stderr
    assert in_serve == (outputs_of_tests(root, "s2"), score(root, "s2"))
    assert in_serve[1] == 10


def outputs_of_tests(root, student):
    """The outputs of the autograded notebook's test cells, by grade id."""
    notebook = nbformat.read(root / "autograded" / student / ID / f"{ID}.ipynb", 4)
    return {cell.metadata["nbgrader"]["grade_id"]: cell.outputs for cell in notebook.cells
            if cell.metadata.get("nbgrader", {}).get("grade")}


def test_a_refusal_in_serve_is_the_command_s_own(serving):
    """Does an unknown id, refused inside serve, exit 1 with grade's own message, and a
    wrong option exit 2 with argparse's, as they would alone?"""
    unknown = kit(serving["root"], "grade", "99_nothing")
    assert unknown.returncode == 1
    assert "unknown assignment id '99_nothing'" in unknown.stderr
    wrong = kit(serving["root"], "feedback", "--no-such-option")
    assert wrong.returncode == 2
    assert "--no-such-option" in wrong.stderr


def test_a_served_command_line_is_handed_over_before_it_is_parsed(serving, monkeypatch,
                                                                  capsys):
    """From a folder inside the course, is `feedback` with a wrong option handed to serve
    unparsed (serve refuses it with argparse's words, exit 2, this process parsing nothing),
    while `grade --help` is left to this process?"""
    inside = serving["root"] / "source"
    monkeypatch.chdir(inside)
    assert served_unparsed(["feedback", "--no-such-option"]) == 2
    assert "unrecognized arguments: --no-such-option" in capsys.readouterr().err
    assert served_unparsed(["grade", "--help"]) is None
    assert served_unparsed(["build"]) is None  # not a command serve runs


def test_the_socket_is_the_instructor_s_and_serves_only_its_commands(serving):
    """Is the socket readable by its owner alone, and does serve refuse a command it does
    not run for others (serve itself, init) or a request of another kit?"""
    path = socket_path(serving["root"])
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert command_of(["--root", "/x", "grade", "01"]) == "grade" and "serve" not in SERVED
    assert command_of(["--root=/x", "feedback"]) == "feedback"
    for request in ({"argv": ["serve"], "cwd": "/", "kit": VERSION},
                    {"argv": ["init", "/tmp/x"], "cwd": "/", "kit": VERSION},
                    {"argv": ["grade"], "cwd": "/", "kit": "/another/kit"}):
        with socket.socket(socket.AF_UNIX) as connection:
            with socket_address(path) as address:
                connection.connect(address)
            connection.sendall((json.dumps(request) + "\n").encode())
            assert json.loads(connection.makefile().readline()) == {"refused": True}


def test_a_client_that_leaves_mid_command_leaves_serve_answering(serving):
    """When a client goes away while its command runs in serve (Ctrl-C, a lost session), does
    serve finish that command and answer the next one?"""
    root = serving["root"]
    request = {"argv": ["--root", str(root), "grade", "--student", "s1", "--force"],
               "cwd": str(root), "kit": VERSION}
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        with socket_address(socket_path(root)) as address:
            client.connect(address)
        client.sendall((json.dumps(request) + "\n").encode())
        assert client.recv(1)  # the command runs (its first line came): the client leaves
    result = subprocess.run([sys.executable, "-m", "autograder", "grade", "--student", "s0"],
                            cwd=root, env=nbgrader_env(), capture_output=True, text=True,
                            timeout=180)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{ID} (of 10 points): s0 10" in result.stdout
    assert serving["process"].poll() is None


def test_a_second_serve_is_refused_naming_the_first(serving):
    """Does a second serve of the course exit 1, naming the one that runs?"""
    second = kit(serving["root"], "serve")
    assert second.returncode == 1
    assert f"another serve runs in this course (pid {serving['process'].pid}" in second.stderr


def test_serve_says_each_command_handed_to_it(serving):
    """Does serve's console say each command handed to it, as it starts and how it ended?"""
    result = kit(serving["root"], "grade", "--student", "s2")
    assert result.returncode == 0, result.stdout + result.stderr
    serving["serve"].wait_for(" grade --student s2: exit 0 after ")
    assert " handed in: grade --student s2\n" in serving["serve"].text()


def test_a_serve_killed_mid_command_is_said_and_the_command_runs_alone(serving):
    """When serve is killed while it runs a handed command, does the command say so and run
    again in its own process, grading the notebook and exiting 0? (Ends the module's serve.)"""
    root, process = serving["root"], serving["process"]
    client = subprocess.Popen([sys.executable, "-m", "autograder", "grade", "--student",
                               "slow"], cwd=root, env=nbgrader_env(), text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert client.stdout.readline()  # serve relays the command's first line: it runs there
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=WAIT)
    out, err = client.communicate(timeout=600)
    assert client.returncode == 0, out + err
    assert "serve stopped before this command ended" in err, err
    assert f"{ID} (of 10 points): slow 10" in out


def test_without_an_answering_serve_the_command_runs_alone(serving):
    """After serve is killed outright (its socket left behind), does grade run by itself
    and grade the notebook?"""
    process = serving["process"]
    if process.poll() is None:  # the test before may have killed it mid-command
        os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=WAIT)
    assert socket_path(serving["root"]).exists()
    result = kit(serving["root"], "grade", "--student", "s1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert score(serving["root"], "s1") == 10

