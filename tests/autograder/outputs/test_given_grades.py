"""Does a feedback page take from the grades given with it exactly what nbgrader's GetGrades
reads from a gradebook holding them: a TA's score and extra credit, a comment, the late
penalty, every cell's points?"""

from __future__ import annotations

import copy
import datetime

import nbformat
import pytest
from nbgrader.api import MissingEntry
from nbgrader.preprocessors import GetGrades

from autograder.course.directory import Course, open_gradebook
from autograder.engine.bundle import quiet_gradebook, scores_in
from autograder.grading.parallel import register_assignments
from autograder.outputs.given_grades import GIVEN_GRADES, GivenGrades, given, with_given_grades
from autograder.plumbing import private_api
from tests.course import ROOT

ID = "01_attention_by_hand"


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A course whose gradebook holds ada's submission of 01 as a TA left it: a score, extra
    credit and a comment of the TA's, a late penalty, and every other grade automatic."""
    root = tmp_path_factory.mktemp("given") / "course"
    Course.create(root, ROOT, [ID])
    register_assignments(root, [ID], log=lambda _: None)
    with open_gradebook(root) as gradebook, quiet_gradebook():
        gradebook.add_student("ada")
        gradebook.add_submission(ID, "ada", timestamp=datetime.datetime(2026, 11, 2, 9, 30))
        notebook = gradebook.find_submission(ID, "ada").notebooks[0]
        notebook.late_submission_penalty = 1.5
        for number, grade in enumerate(notebook.grades):
            grade.auto_score = float(number % 3)
        grade.manual_score, grade.extra_credit = 2.5, 1.0
        notebook.comments[-1].manual_comment = "see me after class"
        gradebook.db.commit()
        scores = scores_in(gradebook, ID, "ada")
    return root, scores


def released():
    return nbformat.read(ROOT / "release" / ID / f"{ID}.ipynb", as_version=4)


def resources(root):
    return {"nbgrader": {"notebook": ID, "assignment": ID, "student": "ada",
                         "db_url": f"sqlite:///{root / 'gradebook.db'}"}}


def test_the_grades_given_make_what_getgrades_reads(course):
    """Is the notebook and what the page's header shows the same, taken from the grades
    given, as nbgrader's GetGrades makes them from the course's gradebook?"""
    assert private_api.applies("grades given"), private_api.why_not("grades given")
    root, scores = course
    theirs = GetGrades().preprocess(released(), resources(root))
    with given(scores):
        ours = GivenGrades().preprocess(released(), resources(root))
    assert ours == theirs
    notebook, shown = ours
    assert shown["nbgrader"]["late_penalty"] == 1.5
    cells = [c.metadata.nbgrader for c in notebook.cells if "nbgrader" in c.metadata]
    assert "see me after class" in [c.get("comment") for c in cells]
    assert {c.get("points") for c in cells if c.get("grade")} - {None}, "no cell's points"


def test_without_grades_given_it_reads_the_gradebook(course):
    """Outside `given` (a pipeline run by nbgrader's own command), does GivenGrades read the
    gradebook as GetGrades does?"""
    root, _ = course
    theirs = GetGrades().preprocess(released(), resources(root))
    assert GivenGrades().preprocess(released(), resources(root)) == theirs


def test_a_cell_without_a_grade_given_is_missing_as_in_the_gradebook(course):
    """A grade cell the grades given have no grade for: is it nbgrader's MissingEntry, the
    error GetGrades raises for it, not a page without its score?"""
    _, scores = course
    lacking = copy.deepcopy(scores)
    grades = lacking["notebooks"][ID]["shown"]["grades"]
    grades.pop(next(iter(grades)))
    with given(lacking), pytest.raises(MissingEntry):
        GivenGrades().preprocess(released(), resources(course[0]))


def test_only_nbgraders_getgrades_is_replaced():
    """Is GetGrades replaced in place, by either of its names, and a pipeline without it (a
    course's own) left to write the gradebook?"""
    stages = ["nbgrader.preprocessors.GetGrades", "a.Stage"]
    assert with_given_grades(stages) == [GIVEN_GRADES, "a.Stage"]
    assert with_given_grades(["nbgrader.preprocessors.getgrades.GetGrades"]) == [GIVEN_GRADES]
    assert with_given_grades(["a.Stage"]) is None
