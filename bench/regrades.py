"""Benchmark: the same class graded again and again gets the same grades.

For each of the course's assignments, a simulated class in a scratch course (made as the
demo makes its class: the solutions, each catalogued mistake, a partly done and a blank
notebook, one that crashes and one with a syntax error; no endless loop, whose fate is the
clock's), graded once with `grade`, then graded again aside --times times with
`regrade-check` (autograder/grading/regrade_check.py: the same engine, each notebook's draw
from the course's secret). Prints, per assignment, the notebooks, the regrades, how many
notebook gradings matched the first in score, failing cases and named mistakes, every
difference found, and the seconds taken. Exit 1 on any difference.

    .venv/bin/python bench/regrades.py [--times 20] [--workers 2] [--assignment ID ...]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.checks.loader import assignment_ids  # noqa: E402
from autograder.course.directory import Course  # noqa: E402
from autograder.grading.parallel import grade  # noqa: E402
from autograder.grading.regrade_check import regrade_check  # noqa: E402
from autograder.tools import simulate  # noqa: E402

KINDS = ("correct", "partly_done", "crashing", "syntax_error")  # and the blank release


def hand_in_class(course, assignment_id):
    """The class of one assignment in submitted/: a notebook of each kind and of each
    catalogued mistake; its number of notebooks."""
    release = nbformat.read(course.root / "release" / assignment_id / f"{assignment_id}.ipynb", 4)
    source = nbformat.read(ROOT / "source" / assignment_id / f"{assignment_id}.ipynb", 4)
    notebooks = {kind: getattr(simulate, kind)(release, source) for kind in KINDS}
    notebooks["blank"] = release
    for index, mistake in enumerate(simulate.mistakes_of(ROOT, assignment_id)):
        notebooks[f"mistake{index:02d}"] = simulate.with_mistake(release, source, mistake)
    for student, notebook in notebooks.items():
        course.submit(student, assignment_id, notebook)
    return len(notebooks)


def measure(assignment_id, times, workers):
    """A row: (notebooks, regrades, matching gradings, differences, seconds)."""
    with tempfile.TemporaryDirectory(prefix="kit-regrades-") as scratch:
        course = Course.create(Path(scratch) / "course", ROOT, [assignment_id])
        course.generate(assignment_id)
        count = hand_in_class(course, assignment_id)
        run = grade(course.root, [assignment_id], workers=workers, log=lambda line: None)
        if run.failed:
            raise SystemExit(f"{assignment_id}: not graded: {run.failed}")
        started = time.monotonic()
        same, differences = 0, []
        for number in range(1, times + 1):
            check = regrade_check(course.root, assignment_id, workers=workers,
                                  log=lambda line: None)
            same += len(check.same)
            differences += [(number, student, lines) for student, lines in check.different]
            differences += [(number, student, [why]) for student, why in check.unchecked]
        return count, times, same, differences, time.monotonic() - started


def arguments(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--times", type=int, default=20, help="regrades of each class")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--assignment", action="append", default=[], metavar="ID")
    return parser.parse_args(argv)


def main():
    args = arguments()
    ids = args.assignment or assignment_ids(ROOT)
    print(f"{'assignment':30} {'notebooks':>9} {'regrades':>8} {'the same':>13} "
          f"{'seconds':>8}")
    differed = False
    for assignment_id in ids:
        count, times, same, differences, seconds = measure(assignment_id, args.times,
                                                           args.workers)
        print(f"{assignment_id:30} {count:9d} {times:8d} {same:6d} / {count * times:<4d} "
              f"{seconds:8.1f}", flush=True)
        for number, student, lines in differences:
            differed = True
            print(f"    regrade {number}, {student}: " + "; ".join(lines))
    return 1 if differed else 0


if __name__ == "__main__":
    sys.exit(main())
