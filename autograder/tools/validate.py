"""Prove an assignment works: its solutions earn full marks and its stubs earn zero, graded
by real nbgrader in a scratch course."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import nbformat

from autograder.course import Course
from autograder.grading.parallel import grade, submission_scores
from autograder.tools import simulate


def validate(project: Path, ids, workers=None, log=print):
    """A list of failures (empty when every assignment is sound)."""
    failures = []
    with tempfile.TemporaryDirectory(prefix="kit-validate-") as scratch:
        course = Course.create(Path(scratch), project, ids)
        for assignment_id in ids:
            shutil.copytree(project / "release" / assignment_id,
                            course.root / "release" / assignment_id)
            release = nbformat.read(course.root / "release" / assignment_id /
                                    f"{assignment_id}.ipynb", as_version=4)
            source = nbformat.read(course.root / "source" / assignment_id /
                                   f"{assignment_id}.ipynb", as_version=4)
            course.submit("solutions", assignment_id, simulate.correct(release, source))
            course.submit("stubs", assignment_id, release)
        grade(course.root, ids, workers=workers, log=log)
        for assignment_id in ids:
            failures += judge(course.root, assignment_id)
    for failure in failures:
        log(f"FAILED: {failure}")
    if not failures:
        log(f"valid: {', '.join(ids)} (solutions full marks, stubs zero)")
    return failures


def judge(root, assignment_id):
    solved = submission_scores(root, assignment_id, "solutions")
    blank = submission_scores(root, assignment_id, "stubs")
    if solved is None or blank is None:
        return [f"{assignment_id}: could not be graded"]
    failures = [f"{assignment_id}: the solution loses points in {cell} ({s:g}/{m:g})"
                for cell, (s, m) in solved.items() if s != m]
    failures += [f"{assignment_id}: the blank stub earns points in {cell} ({s:g})"
                 for cell, (s, _) in blank.items() if s]
    return failures
