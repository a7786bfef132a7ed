"""Does the integrity scan look at the student's code only, and name where it looked?

tests/autograder/sandbox/test_sandbox.py already checks `suspicious` on single pieces of
code (each kind of grader-facing code, and a plain solution with a magic and a literal
getattr); these tests are about `scan` over a notebook: which cells it reads, how it names
them, and magics and getattr inside a notebook's cells. No kernel starts."""

from __future__ import annotations

from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from autograder.grading.integrity import scan
from autograder.i18n import language
from tests.autograder.cells import nbgrader_cell

# -- helpers --------------------------------------------------------------------------------


def solution_cell(source, grade_id="answer"):
    return nbgrader_cell(source, grade_id, solution=True)


def locked_cell(source, grade_id="setup"):
    return nbgrader_cell(source, grade_id, locked=True)


def graded_cell(source, grade_id="test_f"):
    return nbgrader_cell(source, grade_id, grade=True, locked=True, points=1)


def notebook(*cells):
    return new_notebook(cells=list(cells))


def reasons(flags):
    return [flag["reason"] for flag in flags]


# -- which cells are read -------------------------------------------------------------------


def test_solution_cell_is_flagged_under_its_grade_id():
    """Is suspicious code in a solution cell flagged, the flag naming the cell's grade id?"""
    flags = scan(notebook(solution_cell("import ctypes", grade_id="step_1")))
    assert flags == [{"cell": "step_1", "kind": "suspicious code", "reason": "ctypes"}]


def test_plain_cell_is_flagged_under_its_position():
    """Is a cell the student added (no nbgrader metadata) read too, and named by its
    position, counted from 1, in the course's language?"""
    nb = notebook(new_markdown_cell("# Step 1"), solution_cell("x = 1"),
                  new_code_cell("import subprocess"))
    assert scan(nb) == [{"cell": "cell 3", "kind": "suspicious code", "reason": "subprocess"}]
    with language("zh"):
        assert [flag["cell"] for flag in scan(nb)] == ["单元格 3"]


def test_cell_with_empty_grade_id_is_named_by_position():
    """Is a cell whose grade id is empty named by its position instead?"""
    cell = solution_cell("import socket", grade_id="")
    assert [flag["cell"] for flag in scan(notebook(new_code_cell("x = 1"), cell))] == ["cell 2"]


def test_locked_cell_is_not_read():
    """Is the instructor's locked code (which may well import what students must not) left
    unflagged?"""
    nb = notebook(locked_cell("import subprocess\nimport sys\nsys.modules['x'] = None"))
    assert scan(nb) == []


def test_graded_cell_is_not_read():
    """Are the tests' own cells left unflagged, hidden tests and all?"""
    nb = notebook(graded_cell("### BEGIN HIDDEN TESTS\nimport builtins\n"
                              "assert getattr(builtins, name)\n### END HIDDEN TESTS"))
    assert scan(nb) == []


def test_markdown_cell_is_not_read():
    """Is a markdown cell that shows grader-facing code as text left unflagged?"""
    nb = notebook(new_markdown_cell("```python\nimport subprocess\nexec(code)\n```"),
                  nbgrader_cell("import ctypes", "notes", cell_type="markdown", solution=True))
    assert scan(nb) == []


def test_only_student_cells_are_flagged_in_a_mixed_notebook():
    """In a notebook of every kind of cell, each with suspicious code, are only the solution
    and the added cell flagged, in the notebook's order?"""
    nb = notebook(
        locked_cell("import signal"),
        solution_cell("exec('1')", grade_id="answer"),
        graded_cell("import socket"),
        new_markdown_cell("import ctypes"),
        new_code_cell("import os\nos.fork()"),
    )
    assert [(flag["cell"], flag["reason"]) for flag in scan(nb)] == [
        ("answer", "exec of a string"), ("cell 5", "os.fork")]


def test_every_reason_in_a_cell_is_its_own_flag():
    """Does a cell with several kinds of suspicious code give one flag per kind, sorted, and
    one only for a kind seen twice?"""
    cell = solution_cell("import subprocess\nimport ctypes\nsubprocess.run(['ls'])")
    flags = scan(notebook(cell))
    assert reasons(flags) == ["ctypes", "subprocess"]
    assert {flag["cell"] for flag in flags} == {"answer"}


def test_empty_and_clean_notebooks_give_no_flags():
    """Do an empty notebook and one with a plain solution give no flags?"""
    assert scan(notebook()) == []
    assert scan(notebook(solution_cell("def f(x):\n    return 2 * x"))) == []


def test_cell_that_does_not_parse_does_not_stop_the_scan():
    """Does a cell that is not Python leave the scan of the other cells going?"""
    nb = notebook(solution_cell("def f(x) return x"), new_code_cell("import ctypes"))
    assert reasons(scan(nb)) == ["ctypes"]


# -- magics and getattr inside cells --------------------------------------------------------


def test_magic_lines_are_ignored():
    """Are IPython magics and shell commands, whatever words they hold, left unflagged?"""
    cell = solution_cell("%pip install socket-tools\n!ls /etc\n%load_ext signal\n"
                         "x = 1\n")
    assert scan(notebook(cell)) == []


def test_indented_magic_is_ignored():
    """Is a magic inside a block (indented) ignored, the block still read as Python?"""
    cell = solution_cell("for _ in range(2):\n    %time f()\n    y = 2\n")
    assert scan(notebook(cell)) == []


def test_code_around_a_magic_is_still_read():
    """Is only the magic line skipped, the cell's other lines still scanned?"""
    cell = solution_cell("%matplotlib inline\nimport ctypes\n!echo done\n")
    assert reasons(scan(notebook(cell))) == ["ctypes"]


def test_literal_getattr_is_not_flagged():
    """Is getattr with a literal name (an ordinary attribute) left unflagged in a student's
    cell?"""
    cell = solution_cell("def width(x):\n    return getattr(x, 'shape')[-1]")
    assert scan(notebook(cell)) == []


def test_getattr_with_a_variable_name_is_flagged():
    """Is getattr whose name is held in a variable flagged, beside a literal one that is
    not?"""
    cell = solution_cell("name = 'soft' 'max'\nf = getattr(torch, name)\n"
                         "g = getattr(torch, 'relu')")
    assert reasons(scan(notebook(cell))) == ["getattr with a computed name"]


def test_getattr_with_a_literal_default_is_still_flagged_when_the_name_is_computed():
    """Is getattr(x, name, 'default') flagged: the literal is the default, not the name?"""
    cell = solution_cell("value = getattr(torch, name, 'fallback')")
    assert reasons(scan(notebook(cell))) == ["getattr with a computed name"]
