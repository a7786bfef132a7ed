"""What a cell that raised defines: the statements before the one that raised."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from autograder.grading.raised_cells import Raised, defines_unrun, raised, ran_part
from autograder.grading.session import Session, why_undefined
from autograder.sandbox.kernel import Settings

ROOT = Path(__file__).resolve().parents[3]

# IPython's traceback of a cell that raised on its line 2, colours and all (as a kernel sends it)
TRACEBACK = [
    "\x1b[31m---------------------------------------------------------------------------\x1b[39m",
    "\x1b[31mModuleNotFoundError\x1b[39m                       Traceback (most recent call last)",
    "\x1b[36mCell\x1b[39m\x1b[36m \x1b[39m\x1b[32mIn[2]\x1b[39m\x1b[32m, line 2\x1b[39m\n"
    "\x1b[32m      1\x1b[39m a = \x1b[32m1\x1b[39m\n",
    "\x1b[36mCell\x1b[39m\x1b[36m \x1b[39m\x1b[32mIn[1]\x1b[39m\x1b[32m, line 7\x1b[39m, in g()\n",
    "\x1b[31mModuleNotFoundError\x1b[39m: No module named 'nowhere'",
]
CELL = "a = 1\nimport nowhere\n\ndef f(x):\n    return x\n"


def error(ename, traceback):
    return {"output_type": "error", "ename": ename, "evalue": "", "traceback": traceback}


def test_the_cell_s_own_line_is_where_it_stopped():
    """Is the line read from the cell's own frame (the first), not from a function of an
    earlier cell that the error passed through, and the error's kind kept?"""
    stop = raised(CELL, [{"output_type": "stream", "text": "x"}, error("ModuleNotFoundError",
                                                                       TRACEBACK)])
    assert stop == Raised(CELL, 2, "ModuleNotFoundError")


def test_a_chained_error_is_read_from_its_last_part():
    """A cell whose error was raised while handling another (its cause drawn first, in a
    helper of the same cell or of an earlier one): is the line the one of the cell's own
    frame in the last part, where the cell stopped?"""
    chained = [
        "\x1b[36mCell\x1b[39m In[4], line 3, in load_rows()\n",
        "KeyError: 'train'",
        "\nDuring handling of the above exception, another exception occurred:\n",
        "\x1b[36mCell\x1b[39m In[5], line 9\n", "Cell In[4], line 5, in load_rows()\n",
        "ValueError: no rows"]
    assert raised(CELL, [error("ValueError", chained)]).line == 9


def test_an_error_only_shown_is_no_stop():
    """A cell that caught an error and showed it (showtraceback: an error output, status
    ok): did it run whole?"""
    assert raised(CELL, [error("ZeroDivisionError", TRACEBACK)], status="ok") is None


@pytest.mark.parametrize("outputs", [
    [],
    [{"output_type": "stream", "name": "stdout", "text": "Cell In[3], line 1"}],
    [error("SyntaxError", TRACEBACK)],
    [error("ValueError", ["ValueError: a traceback the student's code rewrote"])],
])
def test_a_cell_counts_whole_where_no_line_of_its_own_is_named(outputs):
    """A cell that did not raise, printed a traceback's words, did not parse or raised with no
    line of its own named: does it count whole (None)?"""
    assert raised(CELL, outputs) is None


@pytest.mark.parametrize(("source", "line", "kept"), [
    (CELL, 2, "a = 1"),
    ("import torch\n@torch.no_grad()\n@bad\ndef f():\n    pass\nf()", 3, "import torch"),
    ("x = 1; y = g()\ndef h():\n    pass", 1, ""),
    ("%matplotlib inline\nb = 2\nfor i in range(3):\n    1 / 0\ndef f():\n    pass", 4,
     "%matplotlib inline\nb = 2\nfor i in range(3):\n    1 / 0"),
    ("def f():\n    return 2\nf() + undefined", 3, "def f():\n    return 2"),
    ("def f():\n    return 2\n", 9, "def f():\n    return 2\n"),  # past its statements
    ("def f(:\n    pass", 1, "def f(:\n    pass"),  # does not parse
    ("try:\n    def f():\n        pass\n    f(1)\nfinally:\n    print('done')\ng = 2", 4,
     "try:\n    def f():\n        pass\n    f(1)\nfinally:\n    print('done')"),
])
def test_what_ran_of_a_cell_is_what_came_before_the_statement_that_raised(source, line, kept):
    """Is a cell cut before the whole statement that raised (its decorators, the statements
    that share its line too), after one that is compound (a `try` may have bound names
    before it raised inside: a loop too), and kept whole where that is not known?"""
    assert ran_part(Raised(source, line, "Error")) == kept


def test_a_step_whose_cell_raised_before_it_says_so():
    """When the cell that defines a step raised before the definition, does the verdict say
    on which line and with what (not "run the cell that defines it"), and say nothing of a
    definition that came before the error?"""
    stop = Raised(CELL, 2, "ModuleNotFoundError")
    ran = [ran_part(stop)]
    said = why_undefined("f", ran, [], [stop])
    assert said == ("the cell that defines it raised ModuleNotFoundError on its line 2, before "
                    "the definition ran; fix the cell and run it")
    assert why_undefined("a", ran, [], [stop]) is None
    assert why_undefined("g", ran, [], [stop]) is None


def test_a_definition_in_the_statement_that_raised_is_unrun():
    """A class whose body raised: is its name among what the cell left unrun, though its
    `class` line comes before the line that raised?"""
    stop = Raised("class A:\n    size = 2\n    width = missing\n", 3, "NameError")
    defines = re.compile(r"^class A\b")
    assert defines_unrun(stop, defines)
    assert not defines_unrun(Raised("class A:\n    pass\nB = missing\n", 3, "NameError"),
                             defines)


def test_a_course_cell_that_raised_stays_whole(tmp_path):
    """A cell of the course's (known by its key) that raised: is it kept whole in what ran,
    so that it is still the course's and never read as the student's text, while a student's
    cell that raised is cut?"""
    course_cell = "shown = 1\nraise ValueError('a plot that failed')\nafter = 2"
    with Session(tmp_path, Settings(hidden=(str(ROOT),)), notebook_timeout=60, cell_timeout=10,
                 course_texts=[course_cell]) as session:
        session.run_cell(course_cell)
        session.run_cell("mine = 1\nraise ValueError('mine')\ndef f():\n    pass")
        assert session.ran == [course_cell, "mine = 1"]
        assert [stop.line for stop in session.raised] == [2]
