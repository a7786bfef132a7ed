"""Does the helper cell stay short where a notebook is only looked at, run where it is alone,
and keep its code readable beside it?"""

from __future__ import annotations

import re
import traceback

import nbformat
import pytest
import torch
from nbconvert import HTMLExporter

from autograder.build import helpers_of
from autograder.build.authoring import AuthoringError
from autograder.build.standalone import (
    HELPERS_FILE,
    helper_cell_code,
    packed_helper_cell,
    unpacked_helpers,
)
from autograder.checks.code_rules import bound_names, statements
from autograder.checks.loader import load_assignment
from autograder.course.directory import HELPER_CELL
from autograder.grading.grade_in_sandbox import course_cells, course_helpers
from tests.course import IDS, ROOT

SHOWN_LINES = 25  # what a static render may show of the helper cell: its docstring and a few


def released(assignment_id):
    return nbformat.read(ROOT / "release" / assignment_id / f"{assignment_id}.ipynb", 4)


def helper_source(notebook):
    return next(cell.source for cell in notebook.cells
                if cell.metadata.get("nbgrader", {}).get("grade_id") == HELPER_CELL)


@pytest.mark.parametrize("assignment_id", IDS)
def test_a_static_render_shows_the_helper_cell_in_a_few_lines(assignment_id):
    """Rendered as nbviewer and an exported page render it (nbconvert's HTML), does the
    helper cell take a few lines, not its code's hundreds?"""
    page, _ = HTMLExporter().from_notebook_node(released(assignment_id))
    blocks = [block for block in re.findall(r"<pre>(.*?)</pre>", page, re.DOTALL)
              if "b85decode" in block]
    assert len(blocks) == 1, "the page shows no packed helper cell, or more than one"
    assert blocks[0].count("\n") <= SHOWN_LINES
    assert len(helpers_of(released(assignment_id)).splitlines()) > 10 * SHOWN_LINES


@pytest.mark.parametrize("assignment_id", IDS)
def test_course_helpers_beside_each_release_is_the_code_its_cell_runs(assignment_id):
    """Is release/<id>/course_helpers.py, which the helper cell tells students to read,
    exactly the code that cell unpacks and runs?"""
    beside = (ROOT / "release" / assignment_id / HELPERS_FILE).read_text(encoding="utf-8")
    assert beside == helpers_of(released(assignment_id)), (
        f"release/{assignment_id}/{HELPERS_FILE} is stale: run python -m autograder build")


def test_a_failing_helper_shows_its_own_lines_with_no_file_beside(tmp_path, monkeypatch):
    """Run with nothing beside it, does a check that fails show, in its traceback, the lines
    of the helper that raised (not a bare file name and line number)?"""
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__main__"}
    exec(packed_helper_cell(helper_cell_code()), namespace)
    with pytest.raises(AssertionError) as failure:
        namespace["expect_close"](torch.ones(2, 3), torch.zeros(2, 3))
    frames = [frame for frame in traceback.extract_tb(failure.value.__traceback__)
              if frame.filename == HELPERS_FILE]
    assert frames and all(frame.line for frame in frames)


def test_the_lines_the_build_fills_stay_outside_the_packed_code():
    """Are STEP_USES and COURSE_CELLS set in the cell itself, before the packed code runs
    (the cell's key leaves out the COURSE_CELLS line), and nowhere in the packed code?"""
    cell = packed_helper_cell(helper_cell_code())
    shown = cell.splitlines()
    assert shown.index("STEP_USES = {}") < shown.index("import base64, linecache, sys, zlib")
    assert any(line.startswith("COURSE_CELLS = ") for line in shown[:shown.index(
        "import base64, linecache, sys, zlib")])
    assert not re.search(r"^(STEP_USES|COURSE_CELLS|COURSE_HELPERS) = ", unpacked_helpers(cell),
                         re.MULTILINE)


@pytest.mark.parametrize("assignment_id", IDS)
def test_grading_removes_the_helpers_own_code_and_nothing_a_student_may_read(assignment_id):
    """Does each release name, for grading to remove, the helper cell's probes, checks and
    tables, but neither a step's name, a name another course cell binds, nor an alias of the
    library's (Tensor)?"""
    release = released(assignment_id)
    removed = course_helpers(course_cells(release))
    assert {"spans_probe", "stand_in_probe", "PROBES", "expect_close", "expect_rule",
            "closure", "Recorder", "KEPT"} <= removed
    assert not removed & {"Tensor", "Parameter", "torch", "math", "re"}
    others = {name for cell in release.cells if cell.cell_type == "code"
              and cell.metadata.get("nbgrader", {}).get("grade_id") != HELPER_CELL
              for node, _ in statements([cell.source], texts=False)
              for name in bound_names(node)}
    assert not removed & others
    assert not removed & set(load_assignment(ROOT, assignment_id).steps)


def test_packing_refuses_code_without_the_lines_to_fill():
    """Does the build refuse helper code that lost a line it fills in, saying which?"""
    code = helper_cell_code().replace("STEP_USES = {}\n", "")
    with pytest.raises(AuthoringError, match="STEP_USES, COURSE_CELLS, COURSE_HELPERS and "
                                             "MISTAKE_HINTS"):
        packed_helper_cell(code)
