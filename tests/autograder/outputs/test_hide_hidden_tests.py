"""Does the feedback stage HideHiddenTests take hidden tests and their tracebacks off graded
cells, and leave everything else alone?

In nbgrader's own style: each test builds a notebook with nbformat.v4 cells and nbgrader
metadata, runs the stage's preprocess, and looks at the result. No kernel starts."""

from __future__ import annotations

import ast
import copy
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output
from traitlets.config import Config

from autograder.build.standalone import helper_cell_code, packed_helper_cell
from autograder.course.directory import HELPER_CELL
from autograder.outputs.hide_hidden_tests import HideHiddenTests
from tests.autograder.cells import nbgrader_cell

ROOT = Path(__file__).resolve().parents[3]
ID = "03_scaled_dot_product"
VISIBLE = "assert f(1) == 2"
HIDDEN = "### BEGIN HIDDEN TESTS\nassert f(3) == 6, 'f must double'\n### END HIDDEN TESTS\n"


# -- helpers --------------------------------------------------------------------------------


def graded_cell(source, grade_id="test_f", cell_type="code"):
    return nbgrader_cell(source, grade_id, cell_type=cell_type, grade=True, locked=True,
                         points=1)


def error(ename="AssertionError", evalue="f must double"):
    return new_output("error", ename=ename, evalue=evalue, traceback=[
        "\x1b[0;31m---------------------------------------------------------------\x1b[0m",
        "\x1b[0;32m      3\x1b[0m assert f(3) == 6, 'f must double'",
        f"\x1b[0;31m{ename}\x1b[0m: {evalue}"])


def stream(text="checked\n"):
    return new_output("stream", name="stdout", text=text)


def hide(*cells):
    nb, _ = HideHiddenTests().preprocess(new_notebook(cells=list(cells)), {})
    return nb


# -- graded cells -----------------------------------------------------------------------


def test_hidden_region_is_removed_from_a_test_cell():
    """Is a hidden region cut out of a graded code cell, the visible tests kept?"""
    nb = hide(graded_cell(f"{VISIBLE}\n{HIDDEN}"))
    assert nb.cells[0].source == VISIBLE


def test_hidden_region_before_visible_tests():
    """Are visible tests after a hidden region kept, with the region gone?"""
    nb = hide(graded_cell(f"{HIDDEN}{VISIBLE}\n"))
    assert nb.cells[0].source == VISIBLE


def test_two_hidden_regions_both_go():
    """Does a cell with two hidden regions lose both, and keep what lies between them?"""
    source = f"{VISIBLE}\n{HIDDEN}assert f(0) == 0\n{HIDDEN}"
    nb = hide(graded_cell(source))
    assert nb.cells[0].source == f"{VISIBLE}\nassert f(0) == 0"
    assert "HIDDEN" not in nb.cells[0].source and "f must double" not in nb.cells[0].source


def test_indented_region_without_final_newline():
    """Is an indented region at the very end of the cell, with no newline after its END
    marker, removed too?"""
    source = ("for x in range(3):\n    assert f(x) == 2 * x\n"
              "    ### BEGIN HIDDEN TESTS\n    assert f(-x) == -2 * x\n"
              "    ### END HIDDEN TESTS")
    nb = hide(graded_cell(source))
    assert nb.cells[0].source == "for x in range(3):\n    assert f(x) == 2 * x"


def test_cell_of_hidden_tests_only_becomes_empty():
    """Is a test cell made only of hidden tests left empty?"""
    nb = hide(graded_cell(HIDDEN))
    assert nb.cells[0].source == ""


def test_error_output_keeps_only_its_message():
    """Is a failed check's traceback reduced to 'Ename: evalue', its name and message
    kept?"""
    nb = hide(graded_cell(f"{VISIBLE}\n{HIDDEN}"))
    nb.cells[0].outputs = [error()]
    nb = hide(*nb.cells)
    [output] = nb.cells[0].outputs
    assert output["output_type"] == "error"
    assert output["traceback"] == ["AssertionError: f must double"]
    assert output["ename"] == "AssertionError" and output["evalue"] == "f must double"
    nbformat.validate(nb)


def test_other_outputs_are_kept():
    """Are a graded cell's stream outputs kept as they are, and in order beside its
    error?"""
    cell = graded_cell(VISIBLE)
    cell.outputs = [stream(), error("ValueError", "bad shape")]
    nb = hide(cell)
    first, second = nb.cells[0].outputs
    assert first == stream()
    assert second["traceback"] == ["ValueError: bad shape"]


def test_graded_cell_without_hidden_tests_is_unchanged():
    """Is a graded cell with no hidden region and no error left exactly as it was?"""
    cell = graded_cell(VISIBLE)
    cell.outputs = [stream()]
    before = copy.deepcopy(cell)
    nb = hide(cell)
    assert nb.cells[0] == before


# -- cells that are not graded code ---------------------------------------------------------


def test_solution_cell_is_untouched():
    """Is a student's solution cell left alone, markers, traceback and all?"""
    cell = nbgrader_cell(f"def f(x):\n    return 2 * x\n{HIDDEN}", "answer", solution=True)
    cell.outputs = [error()]
    before = copy.deepcopy(cell)
    nb = hide(cell)
    assert nb.cells[0] == before


def test_plain_cell_is_untouched():
    """Is a cell without nbgrader metadata left alone?"""
    cell = new_code_cell(f"{VISIBLE}\n{HIDDEN}", outputs=[error()])
    before = copy.deepcopy(cell)
    nb = hide(cell)
    assert nb.cells[0] == before


def test_graded_markdown_cell_is_untouched():
    """Is a graded markdown cell (a written answer) left alone, its text included?"""
    cell = graded_cell(f"My answer.\n{HIDDEN}", grade_id="essay", cell_type="markdown")
    before = copy.deepcopy(cell)
    nb = hide(cell)
    assert nb.cells[0] == before


def test_only_graded_cells_change_in_a_mixed_notebook():
    """In a notebook of instructions, a solution and a test cell, does only the test cell
    change?"""
    intro = nbgrader_cell("# Step 1\n### BEGIN HIDDEN TESTS", "intro", cell_type="markdown",
                          locked=True)
    answer = nbgrader_cell("def f(x):\n    return x", "answer", solution=True)
    test = graded_cell(f"{VISIBLE}\n{HIDDEN}")
    test.outputs = [error()]
    before = copy.deepcopy([intro, answer])
    nb = hide(intro, answer, test)
    assert nb.cells[:2] == before
    assert nb.cells[2].source == VISIBLE
    assert nb.cells[2].outputs[0]["traceback"] == ["AssertionError: f must double"]



@pytest.mark.parametrize("code", ["en", "zh"])
def test_the_helper_cell_shows_its_docstring_alone(code):
    """Does a page show the helper cell of a built notebook as its docstring, in the
    course's language, and a line saying where its code is, instead of its hundreds of
    lines?"""
    notebook = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", as_version=4)
    [helper] = [c for c in notebook.cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == HELPER_CELL]
    helper.source = packed_helper_cell(helper_cell_code(code))
    docstring = ast.get_docstring(ast.parse(helper.source), clean=False)
    config = Config()
    config.Course.language = code
    nb, _ = HideHiddenTests(config=config).preprocess(notebook, {})
    [shown] = [c for c in nb.cells if c.metadata == helper.metadata]
    assert shown.source.startswith(f'"""{docstring}"""')
    assert len(shown.source.splitlines()) == len(f'"""{docstring}"""'.splitlines()) + 1
    assert "def " not in shown.source
    assert ("你的笔记本" in shown.source) == (code == "zh")
