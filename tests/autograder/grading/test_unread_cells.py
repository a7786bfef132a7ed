"""Which cells does grading leave out: the release's cells that only show, unless a cell that
runs after them reads what they make; and which cells only define, so that a notebook of them
needs no kernel before its steps are judged?"""

from __future__ import annotations

import nbformat
import pytest

from autograder.grading.grade_in_sandbox import shown_only_keys
from autograder.grading.unread_cells import defines_only, unread

SETUP = "import torch\nx = torch.eye(3)"
SOLUTION = "def double(t):\n    return 2 * t"
PLOT = "shown = double(x)\nprint(shown)"
MEASURE = "import time\nstart = time.perf_counter()\ndouble(torch.ones(2048, 2048))"
TEST = "assert double(x).sum() == 6"


def release():
    def cell(source, **meta):
        made = nbformat.v4.new_code_cell(source)
        if meta:
            made.metadata["nbgrader"] = meta
        return made

    return nbformat.v4.new_notebook(cells=[
        cell(SETUP, locked=True), cell("def double(t):\n    ...", solution=True),
        cell(PLOT), cell(MEASURE), cell(TEST, grade=True, locked=True)])


def skipped(*sources):
    return unread(list(sources), shown_only_keys(release()))


def test_only_the_cells_that_show_are_candidates():
    """Are the plot and the measurement the release's cells that only show, and not its
    locked, solution and test cells?"""
    assert skipped(SETUP, SOLUTION, PLOT, MEASURE) == {2, 3}


def test_a_cell_the_student_changed_runs():
    """Does a cell the student edited run, though it was the release's plot?"""
    assert skipped(SETUP, SOLUTION, PLOT + "\nprint('mine')", MEASURE) == {3}


def test_a_later_cell_that_reads_what_it_makes_keeps_it():
    """Does the plot run when a cell of the student's after it prints `shown`, and does the
    cell that reads it in turn (here: nothing of the measurement) decide alone?"""
    assert skipped(SETUP, SOLUTION, PLOT, MEASURE, "print(shown.shape)") == {3}


def test_what_a_kept_cell_reads_is_kept_too():
    """Is a cell kept because a kept cell reads it, as far back as the names go?"""
    first = "import time\nstart = time.perf_counter()\ndouble(torch.ones(2048, 2048))"
    second = "elapsed = time.perf_counter() - start"
    keys = shown_only_keys(nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(first), nbformat.v4.new_code_cell(second)]))
    assert unread([SETUP, SOLUTION, first, second], keys) == {2, 3}
    assert unread([SETUP, SOLUTION, first, second, "print(elapsed)"], keys) == set()


def test_a_function_that_reads_it_later_keeps_it():
    """Does a student's function that reads `shown` when called keep the plot, though the
    cell only defines it?"""
    assert skipped(SETUP, SOLUTION, PLOT, "def later():\n    return shown") == set()


def test_code_that_may_read_anything_keeps_every_cell_that_binds():
    """Do magic, eval and globals() keep each earlier cell that binds a name (the
    measurement binds `start`), and does a cell that binds nothing still go?"""
    bare = "double(x)"
    keys = shown_only_keys(nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(source) for source in (PLOT, bare)]))
    for anything in ("%timeit double(x)", "print(eval('shown'))", "globals()['shown']"):
        assert unread([SETUP, SOLUTION, PLOT, bare, anything], keys) == {3}, anything


def test_a_cell_that_changes_a_name_in_place_is_kept_for_its_reader():
    """Is a cell that changes `x` in place (x[0] = ...) kept when a later cell reads x?"""
    change = "x[0] = 5"
    keys = shown_only_keys(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(change)]))
    assert unread([SETUP, change, "print(x)"], keys) == set()
    assert unread([SETUP, change, "print(1)"], keys) == {1}


@pytest.mark.parametrize("source", [
    "import torch\nimport torch.nn.functional as F\nfrom math import sqrt",
    '"""notes"""\ndef f(x, dim=-1, *, scale=None) -> torch.Tensor:\n    print(x)\n    return x',
    "def g(q: torch.Tensor, k: tuple[int, int] | None = None) -> list[float]:\n    pass",
    "class Block(torch.nn.Module):\n    size = 4\n    def __init__(self):\n"
    "        super().__init__()\n    @property\n    def width(self):\n        return 2",
    "import torch.nn.functional as F\ndef f(x):\n    return F.relu(x)",
    "class A:\n    size = 2\n    def g(self, n: int = -1):\n        return n\n"
    "def f(x: A = None, n: int = 2):\n    return x",
])
def test_cells_that_only_define(source):
    """Is a cell of imports of the libraries, plain definitions and classes one that only
    defines (its definitions run nothing of the student's)?"""
    assert defines_only(source)


@pytest.mark.parametrize("source", [
    "print(1)", "x = f(3)", "import helpers", "from . import mine", "%timeit f(1)",
    "def f(x=print('now')):\n    pass", "@shout\ndef f():\n    pass",
    "def f() -> print('now'):\n    pass", "class A(base()):\n    pass",
    "class A:\n    print('now')", "class A(metaclass=Loud):\n    pass", "def f(:\n",
    "from torch import no_such_name\ndef f(x):\n    return x",
    "import torch.nn.functionl as F\ndef f(x):\n    return x",
    "def g(x=torch.pi):\n    pass\ndef f(x):\n    return x",
    "class A(Missing):\n    pass\ndef f(x):\n    return x",
    "class A:\n    pass\nclass B(A):\n    pass\nclass C(A, B):\n    pass\ndef f(x):\n"
    "    return x",  # no order of its bases exists: TypeError
    "def g(x, factor=-'2'):\n    pass\ndef f(x):\n    return x",
    "def g(x: tuple[0] | 3):\n    pass\ndef f(x):\n    return x",
    "class Flag(bool):\n    pass\ndef f(x):\n    return x",
])
def test_cells_that_do_more_than_define(source):
    """Does a cell that shows, computes, imports a file of the student's, uses magic, runs
    code as it defines (a default, a decorator, an annotation, a base, a class body, a
    metaclass) or does not parse count as one that must run? And one where a statement that
    may raise (an import that does not resolve, a name or attribute read as it defines) comes
    before another definition, which the student's notebook would then leave unrun?"""
    assert not defines_only(source)
