"""Does one student's folder with 1,100 nested folders cost that student alone, in every
command that lists a submission, with real nbgrader and a real gradebook: `grade` refuses it
with its reason and grades the classmates of the same run; `collect`, `similarity`, `report`
and `feedback` go on for the class and name it? (os.walk, Path.rglob and shutil.copytree
recurse once a folder: at 1,100 they overflowed Python's stack and stopped the command.)"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest

from autograder.cli import main
from autograder.course.directory import Course
from autograder.course.submission_files import FOLDER_DEPTH
from autograder.grading.parallel import grade
from autograder.outputs.collect import collect
from autograder.outputs.feedback import write_feedback
from autograder.outputs.similarity_page import write_similarity
from autograder.plumbing.errors import OutputError
from autograder.tools import simulate
from tests.autograder.deep_folders import deep_folders

ROOT = Path(__file__).resolve().parents[2]
ID = "01_attention_by_hand"
TOO_DEEP = ("the submission folder cannot be looked through: its folders are nested more than "
            f"{FOLDER_DEPTH} deep")


def correct():
    release = nbformat.read(ROOT / "release" / ID / f"{ID}.ipynb", as_version=4)
    source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", as_version=4)
    return simulate.correct(release, source)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """(course root, what grade said, its run): ada, bob and cy hand in the reference; cy's
    folder also holds 1,100 nested folders, there while the module's tests run."""
    root = Course.create(tmp_path_factory.mktemp("deep") / "course", ROOT, [ID]).root
    shutil.copytree(ROOT / "release" / ID, root / "release" / ID)
    for student in ("ada", "bob", "cy"):
        (root / "submitted" / student / ID).mkdir(parents=True)
        nbformat.write(correct(), root / "submitted" / student / ID / f"{ID}.ipynb")
    with deep_folders(root / "submitted" / "cy" / ID):
        said = []
        run = grade(root, [ID], workers=1, log=said.append)
        yield root, said, run


def test_grade_refuses_the_deep_one_and_grades_the_rest(course):
    """Are ada and bob graded in the same run, and cy refused with the reason, said on the
    console?"""
    root, said, run = course
    assert sorted(s.student for s, _ in run.graded) == ["ada", "bob"]
    [refused] = run.refused
    assert refused.student == "cy" and refused.reason == TOO_DEEP
    assert any(line.startswith("error: ") and TOO_DEEP in line and "cy" in line
               for line in said)


def test_collect_goes_on_beside_it(course, tmp_path):
    """Does collect take dee's notebook from an inbox that also holds 1,100 nested folders,
    while cy's folder in submitted/ holds its own?"""
    root, _, _ = course
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    nbformat.write(correct(), inbox / f"dee_{ID}.ipynb")
    said = []
    with deep_folders(inbox):
        collect(root, ID, inbox, log=said.append)
    assert (root / "submitted" / "dee" / ID / f"{ID}.ipynb").exists()
    assert [line for line in said if line.startswith(f"collected {ID}: 1 new, 0 newer ")
            and line.endswith("; 4 submissions in submitted/")], said


def test_similarity_and_report_name_it_and_go_on(course, capsys):
    """Does the similarity report compare the rest and name cy with the reason, and the class
    report get written?"""
    root, _, _ = course
    said = []
    [result] = write_similarity(root, [ID], root / "similarity", log=said.append)
    assert "cy" not in {n.student for n in result.notebooks}
    assert result.left_out["cy"] == TOO_DEEP
    assert f"similarity {ID}: cy not compared: {TOO_DEEP}" in said
    assert main(["--root", str(root), "report", "--to", str(root / "report.html"), ID]) == 0
    assert "Traceback" not in capsys.readouterr().err
    assert "ada--bob.html" in (root / "report.html").read_text(encoding="utf-8")


def test_feedback_goes_on_beside_it(course):
    """With 1,100 nested folders in ada's autograded folder, is bob's page written and ada's
    named as not written, with the reason?"""
    root, _, _ = course
    with deep_folders(root / "autograded" / "ada" / ID), \
            pytest.raises(OutputError, match=f"ada/{ID}: {TOO_DEEP}"):
        write_feedback(root, [ID], workers=1, log=lambda _: None)
    assert (root / "feedback" / "bob" / ID / f"{ID}.html").exists()
    assert not (root / "feedback" / "ada" / ID).exists()
