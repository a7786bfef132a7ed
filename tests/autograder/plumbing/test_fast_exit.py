"""Tests for autograder.plumbing.fast_exit: does a process ended so run its exit handlers, say
all it printed, keep its exit status and skip Python's own teardown; and where a thread of it
is still working, does it end as Python ends a program, after that thread?"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

PROGRAM = """
import atexit, sys, threading, time
from pathlib import Path
from autograder.plumbing.fast_exit import exit_now

seen = Path(sys.argv[1])

class TornDown:
    def __del__(self):  # runs in Python's teardown of this module's globals
        with seen.open("a") as file:
            file.write("teardown\\n")

kept = TornDown()
atexit.register(lambda: seen.open("a").write("exit handler\\n"))
print("said before the end", end="")  # no newline: still in the pipe's buffer
if sys.argv[3] == "thread":
    def work():
        time.sleep(0.3)
        with seen.open("a") as file:
            file.write("thread done\\n")
    threading.Thread(target=work).start()
exit_now(eval(sys.argv[2]))
"""


def ended(tmp_path, code, thread="none"):
    """(exit status, stdout, the lines the process left in its file) of PROGRAM run so."""
    seen = tmp_path / "seen.txt"
    seen.touch()
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(PROGRAM), str(seen), code,
                           thread], cwd=ROOT, capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout, seen.read_text().splitlines()


@pytest.mark.parametrize(("code", "status"), [("3", 3), ("0", 0), ("None", 0), ("'why'", 1)])
def test_the_exit_handlers_run_the_output_is_said_and_the_teardown_is_skipped(
        tmp_path, code, status):
    """Does exit_now(code) end with `status`, after the exit handlers and with all it
    printed, and without the teardown that would have finalized the module's objects?"""
    returncode, stdout, lines = ended(tmp_path, code)
    assert returncode == status
    assert stdout == "said before the end"
    assert lines == ["exit handler"]


def test_a_working_thread_is_waited_for_as_python_would(tmp_path):
    """Where a thread is still working, is the process ended as Python ends a program: the
    thread finishes, then the exit handlers, then the teardown?"""
    returncode, stdout, lines = ended(tmp_path, "4", thread="thread")
    assert returncode == 4
    assert stdout == "said before the end"
    assert lines == ["thread done", "exit handler", "teardown"]
