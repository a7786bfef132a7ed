"""The repository's own course as the engine loads it (autograder/checks/loader.py): the tests'
one way to its assignments, their steps and figures."""

from __future__ import annotations

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
