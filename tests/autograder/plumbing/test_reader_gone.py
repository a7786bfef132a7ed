"""Tests for autograder.plumbing.reader_gone: does a command whose reader has gone (`| head`)
do its whole work and end with its own status, where the closed pipe used to stop it at its
next print with status 0?"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

PROGRAM = """
import sys
from pathlib import Path
from autograder.plumbing.reader_gone import dropped_when_gone

dropped_when_gone()
for line in range(20000):  # far past a pipe's buffer, on both streams (2>&1 | head)
    print("line", line)
    print("progress", line, file=sys.stderr)
sys.stdout.flush()
Path(sys.argv[1]).write_text("done")
sys.exit(3)
"""


def without_a_reader(command, cwd, both=False):
    """(status, stderr) of `command` run with its output's reader gone before it writes;
    `both`: stderr goes to that pipe too (`2>&1 | head`), and the status alone is said."""
    started = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT if both else subprocess.PIPE)
    started.stdout.close()
    _, stderr = started.communicate(timeout=300)
    return started.returncode, (stderr or b"").decode()


def test_a_process_whose_reader_left_goes_on_to_its_own_end(tmp_path):
    """Does a program printing into a closed pipe, on stdout alone or on both streams, do
    what comes after, exit with its own status, and print no traceback?"""
    for both in (False, True):
        done = tmp_path / f"done-{both}"
        status, stderr = without_a_reader([sys.executable, "-c", PROGRAM, str(done)], ROOT,
                                          both=both)
        assert status == 3 and "Traceback" not in stderr, (both, status, stderr[-2000:])
        assert done.read_text() == "done"


def test_init_piped_to_a_reader_that_left_makes_the_whole_course(tmp_path):
    """Does `init` whose reader (of stdout and stderr) has gone before its first line make
    every assignment, where it used to make nothing and end with status 0?"""
    status, stderr = without_a_reader([sys.executable, "-m", "autograder", "init", "course"],
                                      tmp_path, both=True)  # init c 2>&1 | head -1
    assert (status, stderr) == (0, ""), (status, stderr)
    made = sorted(path.name for path in (tmp_path / "course" / "assignments").glob("0*"))
    kit = sorted(path.name for path in (ROOT / "assignments").glob("0*"))
    assert made == kit and len(made) == 9, made
    assert (tmp_path / "course" / "nbgrader_config.py").is_file()
