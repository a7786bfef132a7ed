"""Does real nbgrader, on real kernels, grade every assignment as the kit promises?

One course is built in a scratch folder from the committed source/ notebooks. Per assignment
it receives the solved master notebook, the unmodified release, and one submission per
catalogued mistake (the solved notebook with that step redefined the wrong way); nbgrader
generate_assignment, autograde and generate_feedback then run as an instructor runs them.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import nbformat
import pytest

from autograder.build import assignment_ids
from autograder.course import Course
from autograder.steps import ASSIGNMENTS

ROOT = Path(__file__).resolve().parents[2]
IDS = assignment_ids(ROOT)


def mistakes_of(assignment_id):
    return [m for step in ASSIGNMENTS[assignment_id] for m in step.mistakes]


def student_for(index):
    return f"mistake{index:02d}"


def with_mistake(notebook, mistake):
    """The solved notebook with the mistake's code in a new cell right after the step's
    solution cell, as a student who rewrote the step would leave it."""
    wrong = copy.deepcopy(notebook)
    position = next(
        i for i, cell in enumerate(wrong.cells)
        if cell.metadata.get("nbgrader", {}).get("grade_id") == mistake.step
    )
    wrong.cells.insert(position + 1, nbformat.v4.new_code_cell(mistake.code))
    return wrong


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = Course.create(tmp_path_factory.mktemp("course"), ROOT, IDS)
    for assignment_id in IDS:
        course.generate(assignment_id)
        solved = nbformat.read(ROOT / "source" / assignment_id / f"{assignment_id}.ipynb", 4)
        blank = nbformat.read(course.root / "release" / assignment_id / f"{assignment_id}.ipynb", 4)
        course.submit("solved", assignment_id, solved)
        course.submit("blank", assignment_id, blank)
        for index, mistake in enumerate(mistakes_of(assignment_id)):
            course.submit(student_for(index), assignment_id, with_mistake(solved, mistake))
        course.autograde(assignment_id)
        course.generate_feedback(assignment_id)
    return course


@pytest.mark.parametrize("assignment_id", IDS)
def test_solved_notebook_scores_full_marks(course, assignment_id):
    """Does the master notebook with its solutions earn every point?"""
    scores = course.cell_scores(assignment_id, "solved")
    lost = {g: s.score for g, s in scores.items() if s.score != s.max_score}
    assert scores and not lost, f"points lost by the solutions: {lost}"


@pytest.mark.parametrize("assignment_id", IDS)
def test_unmodified_release_scores_zero(course, assignment_id):
    """Does the untouched student notebook autograde to exactly 0 points?"""
    scores = course.cell_scores(assignment_id, "blank")
    assert scores, "the blank submission was not graded"
    earned = {g: s.score for g, s in scores.items() if s.score}
    assert not earned, f"points earned by stubs: {earned}"


def mistake_params():
    return [
        pytest.param(assignment_id, index, mistake, id=f"{assignment_id}:{mistake.name}")
        for assignment_id in IDS
        for index, mistake in enumerate(mistakes_of(assignment_id))
    ]


@pytest.mark.parametrize(("assignment_id", "index", "mistake"), mistake_params())
def test_mistake_loses_only_its_step_and_is_named(course, assignment_id, index, mistake):
    """Does a known mistake cost its step's points, only those, and is it named in the
    feedback?"""
    student = student_for(index)
    scores = course.cell_scores(assignment_id, student)
    step_cell = f"test_{mistake.step}"
    assert scores[step_cell].score == 0, f"{mistake.name} still earned {step_cell}"
    others = {g: s.score for g, s in scores.items() if g != step_cell and s.score != s.max_score}
    assert not others, f"{mistake.name} also cost {others}"
    assert mistake.name in course.feedback_html(student, assignment_id)


@pytest.mark.parametrize("assignment_id", IDS)
def test_committed_release_matches_nbgrader_output(course, assignment_id):
    """Is release/ what nbgrader makes from the committed source/ (not stale)?"""
    made = course.root / "release" / assignment_id / f"{assignment_id}.ipynb"
    committed = ROOT / "release" / assignment_id / f"{assignment_id}.ipynb"
    assert json.loads(made.read_text()) == json.loads(committed.read_text()), (
        f"release/{assignment_id} is stale: run `python -m autograder build {assignment_id}`"
    )
