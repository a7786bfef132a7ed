"""Does the roster of some students (`grade --student`'s summary) give those students' rows
as the whole class's roster has them, without reading the other students' grades?

A real SQLite gradebook, made as test_export.py makes one; no kernel starts."""

from __future__ import annotations

import json

import pytest

from autograder.outputs.roster import MISSING, PENDING, roster
from tests.autograder.outputs.test_export import (
    add_assignment,
    gradebook,  # noqa: F401 - the fixture
    submit,
)

pytestmark = pytest.mark.filterwarnings(
    "ignore:Object of type <Submitted:sqlalchemy.exc.SAWarning")


def test_some_students_rows_are_the_class_rows_and_only_theirs_are_read(
        tmp_path, gradebook, monkeypatch):  # noqa: F811 - the fixture
    """Of a class of s1, s2 and t1, do the rows of "s*" equal the class roster's rows of s1
    and s2, with no gradebook lookup of t1's submission?"""
    add_assignment(gradebook, "01_a", {"step": 4.0})
    for student, score in (("s1", 4.0), ("s2", 1.0), ("t1", 3.0)):
        gradebook.add_student(student)
        submit(gradebook, "01_a", student, {"step": score})
    gradebook.db.commit()
    whole = roster(tmp_path, gradebook)
    looked_up, find = [], gradebook.find_submission

    def recorded(assignment, student):
        looked_up.append(student)
        return find(assignment, student)

    monkeypatch.setattr(gradebook, "find_submission", recorded)
    some = roster(tmp_path, gradebook, students=["s*"])
    assert [(e.student, e.score) for e in some] == [("s1", 4.0), ("s2", 1.0)]
    assert some == [e for e in whole if e.student in ("s1", "s2")]
    assert looked_up == ["s1", "s2"]


def test_a_collected_assignment_nbgrader_has_not_registered_has_its_rows(
        tmp_path, gradebook):  # noqa: F811 - the fixture
    """Collected but never graded, so not in the gradebook: does each student with a notebook
    in submitted/ get a "not graded yet" row out of the points its notebook gives, and each
    other student a "missing" one, where the roster (and export's CSV) had no row at all?"""
    notebook = {"cells": [{"cell_type": "code", "source": "", "metadata": {
        "nbgrader": {"grade": True, "points": points}}} for points in (2, 3)]}
    (tmp_path / "source" / "02_b").mkdir(parents=True)
    (tmp_path / "source" / "02_b" / "02_b.ipynb").write_text(json.dumps(notebook))
    for student in ("s1", "s2"):
        (tmp_path / "submitted" / student / "02_b").mkdir(parents=True)
    (tmp_path / "submitted" / "s1" / "02_b" / "02_b.ipynb").write_text(json.dumps(notebook))
    rows = roster(tmp_path, gradebook)
    assert [(e.student, e.assignment, e.status, e.max_score) for e in rows] == [
        ("s1", "02_b", PENDING, 5.0), ("s2", "02_b", MISSING, 5.0)], rows
