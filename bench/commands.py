"""Benchmark: how long the commands an instructor types take before they answer.

Prints the wall time of `grade` refusing an assignment id the course does not have, of `init`
writing a course with the kit's assignments, and of registering seven assignments in a new
course's gradebook (what the first `grade` does before it grades: nbgrader's
generate_assignment for each), beside registering them with an `nbgrader generate_assignment`
process each, as grade did before. Each command runs as a user runs it, in a process of its
own (`python -m autograder ...`), but registering, which runs here with its lines shown.

    .venv/bin/python bench/commands.py [--language en]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.checks.loader import assignment_ids  # noqa: E402
from autograder.course.directory import Course, run_nbgrader  # noqa: E402
from autograder.grading.parallel import register_assignments  # noqa: E402


def kit(*args, cwd):
    """(seconds, exit code) of `python -m autograder ARGS` run in `cwd`."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "autograder", *args], cwd=cwd,
                          capture_output=True, text=True)
    return time.monotonic() - started, done.returncode


def registering(folder: Path, ids):
    course = Course.create(folder, ROOT, ids)
    started = time.monotonic()
    register_assignments(course.root, ids, lambda line: print("   ", line))
    return time.monotonic() - started


def registering_by_subprocess(folder: Path, ids):
    """As grade registered before: one `nbgrader generate_assignment` process each."""
    course = Course.create(folder, ROOT, ids)
    started = time.monotonic()
    for assignment_id in ids:
        run_nbgrader(course.root, "generate_assignment", assignment_id, "--force")
    return time.monotonic() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--language", default="en", choices=("en", "zh"))
    args = parser.parse_args()
    ids = assignment_ids(ROOT)
    with tempfile.TemporaryDirectory(prefix="kit-commands-") as scratch:
        scratch = Path(scratch)
        seconds, code = kit("init", str(scratch / "course"), "--language", args.language,
                            cwd=scratch)
        print(f"init ({len(ids)} assignments, {args.language}): {seconds:.1f} s (exit {code})")
        seconds, code = kit("grade", "no_such_assignment", cwd=scratch / "course")
        print(f"grade with an id the course does not have: {seconds:.2f} s (exit {code})")
        print(f"registering {len(ids[:7])} assignments in a new gradebook:")
        seconds = registering(scratch / "seven", ids[:7])
        print(f"registering {len(ids[:7])} assignments: {seconds:.1f} s")
        seconds = registering_by_subprocess(scratch / "seven-again", ids[:7])
        print(f"the same with an nbgrader process for each (as grade did before): "
              f"{seconds:.1f} s")


if __name__ == "__main__":
    main()
