"""The repository's own course as the engine loads it (autograder/checks/loader.py): the tests'
one way to its assignments, their steps and figures."""

from __future__ import annotations

import shutil
from pathlib import Path

from autograder.checks.hidden import references
from autograder.checks.loader import assignment_ids, load_assignment

ROOT = Path(__file__).resolve().parents[1]
IDS = assignment_ids(ROOT)
ASSIGNMENTS = {assignment_id: load_assignment(ROOT, assignment_id) for assignment_id in IDS}
STEPS = {name: step for assignment in ASSIGNMENTS.values()
         for name, step in assignment.steps.items()}
ASSIGNMENT_OF = {name: assignment for assignment in ASSIGNMENTS.values()
                 for name in assignment.steps}
FIGURES = {name: draw for assignment in ASSIGNMENTS.values()
           for name, draw in getattr(assignment.module("figures"), "FIGURES", {}).items()}


def helpers_of(step):
    """{name: reference} of the earlier steps `step` uses (its assignment's)."""
    return references(step, ASSIGNMENT_OF[step.name].steps)


def copy_course(root: Path, assignment_ids=IDS, folders=("source",)):
    """A course folder at `root` as an instructor keeps one: the repository's config, and for
    each id its assignment folder (notebook, reference, checks) and each of `folders`."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    for assignment_id in assignment_ids:
        for folder in ("assignments", *folders):
            shutil.copytree(ROOT / folder / assignment_id, root / folder / assignment_id)
    return root
