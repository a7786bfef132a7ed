"""Per assignment: points, number of hidden checks, and the time one autograde takes.

Hidden checks are counted per step as document cases + random cases + properties + rules.
The time is the wall time of nbgrader autograding the solved notebook in a warm grading
process (its kernel template started by a first notebook): sanitizing, a kernel forked and
sandboxed, the student's cells, every hidden check, the gradebook written.

    .venv/bin/python bench/assignments.py
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
import warnings
from pathlib import Path

import nbformat
import torch
from sqlalchemy.exc import SAWarning

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.checks.loader import assignment_ids, load_assignment  # noqa: E402
from autograder.course.directory import Course  # noqa: E402
from autograder.engine.nbgrader_api import course_api  # noqa: E402
from autograder.grading.parallel import register_assignments  # noqa: E402
from autograder.grading.submissions import grade_ids  # noqa: E402
from autograder.tools import simulate  # noqa: E402


def hidden_checks(step):
    generator = torch.Generator().manual_seed(0)
    cases = len(step.document_cases()) + len(step.fixed_cases()) + len(
        step.random_cases(generator))
    return cases + len(step.properties) + len(step.rules)


def points(source):
    return sum(c.metadata["nbgrader"].get("points", 0) for c in source.cells
               if c.metadata.get("nbgrader", {}).get("grade"))


def autograde_seconds(assignment_id, release, source):
    with tempfile.TemporaryDirectory(prefix="kit-time-") as scratch:
        course = Course.create(Path(scratch), ROOT, [assignment_id])
        shutil.copytree(ROOT / "release" / assignment_id, course.root / "release" /
                        assignment_id)
        register_assignments(course.root, [assignment_id], log=lambda _: None)
        for student in ("warm-up", "solved"):
            course.submit(student, assignment_id, simulate.correct(release, source))
        api = course_api(course.root)
        api.autograde(assignment_id, "warm-up", force=True, create=True)
        started = time.monotonic()
        outcome = api.autograde(assignment_id, "solved", force=True, create=True)
        assert outcome["success"], outcome.get("log")
        return time.monotonic() - started


def main():
    argparse.ArgumentParser(description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    # nbgrader 0.9.6 warns on every first autograde of a submission (a known, harmless
    # SAWarning); the table is the point here.
    warnings.filterwarnings("ignore", category=SAWarning)
    print(f"{'assignment':32} {'points':>6} {'steps':>5} {'hidden checks':>13} "
          f"{'mistakes':>8} {'autograde s':>11}")
    for assignment_id in assignment_ids(ROOT):
        source = nbformat.read(ROOT / "source" / assignment_id / f"{assignment_id}.ipynb", 4)
        release = nbformat.read(ROOT / "release" / assignment_id / f"{assignment_id}.ipynb", 4)
        steps = list(load_assignment(ROOT, assignment_id).steps.values())
        assert len(steps) == len(grade_ids(source))
        checks = sum(hidden_checks(step) for step in steps)
        mistakes = sum(len(step.mistakes) for step in steps)
        seconds = autograde_seconds(assignment_id, release, source)
        print(f"{assignment_id:32} {points(source):6} {len(steps):5} {checks:13} "
              f"{mistakes:8} {seconds:11.1f}")


if __name__ == "__main__":
    main()
