"""Render an assignment's cell specs as nbgrader's master notebook (source/<id>/<id>.ipynb)."""

from __future__ import annotations

from pathlib import Path

import nbformat

from autograder.build import public_checks
from autograder.build.authoring import AuthoringError
from autograder.build.check_notebook import points
from autograder.build.hand_in import HAND_IN
from autograder.build.stubs import given_code, solution_code
from autograder.checks import code_rules
from autograder.checks.compare import TOLERANCE
from autograder.checks.steps import STEPS

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
# The hidden part opens the test cell and names the step it checks. Grading never runs a test
# cell: GradeInSandbox reads that name and judges the step in the grader. When the master
# notebook runs by itself (an instructor in Jupyter), the hidden part runs first, so a known
# mistake is named even when a public assert below it would fail. The release keeps only the
# public part.
HIDDEN_TESTS = (
    "### BEGIN HIDDEN TESTS\n"
    "from autograder.checks.hidden import check_step, use_references\n"
    "{prologue}"
    'check_step("{name}", globals())\n'
    "### END HIDDEN TESTS"
)
USE_REFERENCES = 'use_references("{name}", globals())\n'
# The first line of every test cell, in the master and in the release: what the step is worth.
TEST_HEADER = ("# {name}: {points}. The public checks below, and when graded the same "
               "requirements on other inputs.\n")


def nbgrader_metadata(grade_id, *, solution=False, grade=False, locked=False, points=None):
    meta = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": locked,
        "schema_version": 3,
        "solution": solution,
        "task": False,
    }
    if points is not None:
        meta["points"] = points
    return {"nbgrader": meta}


def total_points(specs):
    return sum(spec.points for spec in specs if spec.kind == "tests")


def render(specs, assignment_id):
    """The master notebook: prose, read-only setup, solution cells, graded test cells and
    the hand-in instructions."""
    cells = []
    total = total_points(specs)
    for index, spec in enumerate(specs):
        cells.append(render_cell(spec, index, total))
    cells.append(hand_in_cell(assignment_id, total))
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata = {
        "kernelspec": KERNELSPEC,
        "language_info": {"name": "python"},
    }
    for cell in notebook.cells:
        cell.pop("id", None)
    notebook.nbformat_minor = 4
    return notebook


def render_cell(spec, index, total):
    if spec.kind == "markdown":
        text = spec.text.replace("{total_points}", str(total))
        return nbformat.v4.new_markdown_cell(
            text, metadata=nbgrader_metadata(f"prose_{index:02d}", locked=True)
        )
    if spec.kind == "setup":
        return code_cell(spec.text, nbgrader_metadata(f"setup_{index:02d}", locked=True))
    if spec.kind == "checks":
        return code_cell(public_checks_code(), nbgrader_metadata("public_checks", locked=True))
    if spec.kind == "given":
        meta = nbgrader_metadata(f"given_{'_'.join(spec.names)}", locked=True)
        return code_cell(given_code(spec.names), meta)
    if spec.kind == "solution":
        meta = nbgrader_metadata(spec.names[0], solution=True)
        return code_cell(solution_code(spec.names), meta)
    if spec.kind == "tests":
        name = spec.names[0]
        if name not in STEPS:
            raise AuthoringError(
                f"line {spec.line}: no hidden checks are declared for {name!r}; "
                "add its Step to a module of autograder/checks/steps/"
            )
        prologue = USE_REFERENCES.format(name=name) if STEPS[name].uses else ""
        text = (TEST_HEADER.format(name=name, points=points(spec.points))
                + HIDDEN_TESTS.format(name=name, prologue=prologue) + "\n" + spec.text
                + rule_checks(STEPS[name]))
        meta = nbgrader_metadata(f"test_{name}", grade=True, locked=True, points=spec.points)
        return code_cell(text.strip("\n"), meta)
    return code_cell(spec.text, {})


def hand_in_cell(assignment_id, total):
    """The notebook's last cell: how to check, how to hand in, what is graded."""
    text = HAND_IN.strip().format(
        assignment=assignment_id, notebook=f"{assignment_id}.ipynb", total_points=points(total))
    return nbformat.v4.new_markdown_cell(text, metadata=nbgrader_metadata("hand_in",
                                                                          locked=True))


def rule_checks(step):
    """The public check of each of the step's rules: the grader's decision, made in plain
    Jupyter on the student's code (checks/code_rules.py), so no rule is a surprise."""
    lines = [f"expect_rule({step.name}, {kind!r}, {params!r}, {rule.name!r}, {why!r})"
             for rule in step.rules for kind, params, why in [rule.public]]
    return "\n# The step's rules, as grading checks them:\n" + "\n".join(lines) if lines else ""


def code_cell(text, metadata):
    return nbformat.v4.new_code_cell(text, metadata=metadata)


def public_checks_code():
    """The public tests' helpers and the rules' decisions, copied whole into the notebook
    (nothing of the kit is installed where students run them); their tolerance is the
    hidden checks' one."""
    if public_checks.TOLERANCE != TOLERANCE:
        raise AuthoringError("build/public_checks.py's TOLERANCE differs from "
                             "autograder.checks.compare.TOLERANCE: make them equal")
    return "\n\n\n".join(Path(module.__file__).read_text(encoding="utf-8").strip()
                         for module in (public_checks, code_rules))
