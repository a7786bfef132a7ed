"""Graded end to end (real nbgrader, the kit's grade, real sandboxed kernels): can a student's
code switch off, edit, outrun or sidestep what records its operations, and so keep a step's
points while breaking its rule? And do the honest idioms once refused keep full marks?

Each student of tests/autograder/grading/rule_attacks.py is a solved notebook with one or two
steps written their way: an evasion must cost exactly its step (every other step keeps its
points, the step after it included), its feedback naming what it did; an honest idiom costs
nothing. The mechanisms are those a determined student used against a record kept in the
student's own kernel (a process of its own, a lazy value, a public object that pops a mode,
pickle, ctypes, a profiler, the grader's stand-in, a private part of torch by an alias, numpy,
complex numbers, a loop without a loop statement, calls whose results are not used).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from autograder.course.directory import Course
from autograder.course.notebook_record import read_record
from autograder.grading.parallel import grade, submission_scores
from autograder.tools import simulate
from tests.autograder.grading.rule_attacks import ATTACKS, HONEST

ROOT = Path(__file__).resolve().parents[3]
STUDENTS = {**ATTACKS, **HONEST}
IDS = sorted({assignment for assignment, *_ in STUDENTS.values()})


def notebook(release, source, steps):
    """The solved notebook with each step's cell replaced by its code (a function of the
    solved cell's code, or the code itself)."""
    solved = simulate.correct(release, source)
    cells = {c.metadata.get("nbgrader", {}).get("grade_id"): c.source for c in solved.cells}
    return simulate.fill(solved, {step: code(cells[step]) if callable(code) else code
                                  for step, code in steps.items()})


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    course = Course.create(tmp_path_factory.mktemp("out_of_reach"), ROOT, IDS)
    for assignment_id in IDS:
        course.generate(assignment_id)
    for student, (assignment_id, steps, _, _) in STUDENTS.items():
        release = nbformat.read(course.root / "release" / assignment_id /
                                f"{assignment_id}.ipynb", 4)
        source = nbformat.read(ROOT / "source" / assignment_id / f"{assignment_id}.ipynb", 4)
        course.submit(student, assignment_id, notebook(release, source, steps))
    run = grade(course.root, IDS, workers=2, log=lambda _: None)
    return course, run


@pytest.mark.parametrize("student", STUDENTS)
def test_a_student_earns_what_the_judged_code_earns(graded, student):
    """Does an evasion cost exactly its step, saying what it did, and does an honest idiom
    cost nothing?"""
    course, run = graded
    assignment_id, _, lost, said = STUDENTS[student]
    assert not run.failed, run.failed
    scores = submission_scores(course.root, assignment_id, student)
    assert scores, f"{student} was not graded"
    wrong = {grade_id: score for grade_id, (score, most) in scores.items()
             if score != (0 if grade_id.removeprefix("test_") in lost else most)}
    record = read_record(nbformat.read(course.root / "autograded" / student / assignment_id /
                                       f"{assignment_id}.ipynb", 4))
    texts = [finding.text for finding in record.findings if finding.step in lost]
    assert not wrong, (student, wrong, texts)
    assert not said or any(said in text for text in texts), (student, texts)
