"""Does one odd notebook in a class of correct ones cost only itself: are the similarity
report and the class report written, by the commands themselves, whatever that notebook
holds (code nested too deep for Python's parser, a code cell without its source, a character
no file may hold), and is a notebook whose code cannot be read named with the reason, on the
console and on the index, as a symbolic link is? No kernel: both commands read code."""

from __future__ import annotations

import json
import shutil

import nbformat
import pytest

from autograder.cli import main
from autograder.tools import simulate
from tests.autograder.outputs.test_report import quick_alembic  # noqa: F401 - autouse fixture
from tests.course import ROOT

ID = "01_attention_by_hand"
CLASS = ("ada", "bob", "cy")  # the correct ones
NOT_READ = "its code cannot be read for comparison ({error})"


def with_cell(code):
    """The correct notebook with one more code cell of `code`, as JSON."""
    release = nbformat.read(ROOT / "release" / ID / f"{ID}.ipynb", as_version=4)
    source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", as_version=4)
    return json.loads(nbformat.writes(simulate.after_cell(simulate.correct(release, source),
                                                          "context_vectors", code)))


def without_source():
    notebook = with_cell("x = 1")
    del next(c for c in notebook["cells"] if c.get("source") in ("x = 1", ["x = 1"]))["source"]
    return notebook


ODD = {  # what eve hands in: (notebook as JSON, why it is not read, or None: it is compared)
    "minus signs": (lambda: with_cell("x = " + "-" * 100_000 + "1"), None),
    "plus terms": (lambda: with_cell("+".join(["1"] * 200_000)), None),
    "no source": (without_source, NOT_READ.format(error="AttributeError")),
    "lone surrogate": (lambda: with_cell("y = \ud800 + 1"),
                       NOT_READ.format(error="UnicodeEncodeError")),
}


@pytest.fixture(params=list(ODD))
def course(request, tmp_path):
    """(a course of ada, bob and cy, correct, and eve's odd notebook; why eve's is not read)."""
    root = tmp_path / "course"
    root.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    for stage in ("source", "release"):  # the commands know a course's ids by source/
        shutil.copytree(ROOT / stage / ID, root / stage / ID)
    make, why = ODD[request.param]
    correct = with_cell("pass")
    for student, notebook in [*((s, correct) for s in CLASS), ("eve", make())]:
        (root / "submitted" / student / ID).mkdir(parents=True)
        (root / "submitted" / student / ID / f"{ID}.ipynb").write_text(json.dumps(notebook))
    return root, why


def test_one_odd_notebook_costs_only_itself(course, capsys):
    """Do `similarity` and `report` write their pages, with eve compared (similarity exits
    0), or named with the reason on the index and the console (similarity exits 1: its report
    is not whole), and the class's pairs still found?"""
    root, why = course
    code = main(["--root", str(root), "similarity", ID, "--to", str(root / "similarity")])
    assert code == (0 if why is None else 1)
    said = capsys.readouterr()
    assert "Traceback" not in said.err, said.err
    index = (root / "similarity" / ID / "index.html").read_text(encoding="utf-8")
    assert (root / "similarity" / ID / "ada--bob.html").exists()
    if why is None:
        assert (root / "similarity" / ID / "ada--eve.html").exists()
        assert "not read" not in said.out
    else:
        assert f"Not compared, their notebook was not read: eve ({why})" in index
        assert f"similarity {ID}: eve not compared: {why}" in said.out
        assert f"similarity {ID}: 3 notebooks" in said.out
    assert main(["--root", str(root), "report", "--to", str(root / "report.html"), ID]) == 0
    said = capsys.readouterr()
    assert "Traceback" not in said.err, said.err
    assert "ada--bob.html" in (root / "report.html").read_text(encoding="utf-8")
