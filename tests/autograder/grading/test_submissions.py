"""Which submissions does grade find, and which does it leave unread?"""

from __future__ import annotations

import nbformat

from autograder.grading.submissions import find_submissions

ID = "01_attention_by_hand"


def submit(root, student, text):
    folder = root / "submitted" / student / ID
    folder.mkdir(parents=True)
    (folder / f"{ID}.ipynb").write_text(text)


def test_a_grade_of_one_student_reads_that_students_notebook_alone(tmp_path):
    """With students given, is another student's unreadable notebook left unread (no problem
    of theirs reported), and found again when the whole class is graded?"""
    submit(tmp_path, "ann", nbformat.writes(nbformat.v4.new_notebook()))
    submit(tmp_path, "bob", "{ not json")
    (tmp_path / "submitted" / "not a student id").mkdir()

    ready, problems = find_submissions(tmp_path, [ID], {ID: []}, ["ann"])
    assert [(s.student, s.assignment) for s in ready] == [("ann", ID)]
    assert problems == []

    ready, problems = find_submissions(tmp_path, [ID], {ID: []}, ["b*"])
    assert ready == [] and [p.student for p in problems] == ["bob"]

    ready, problems = find_submissions(tmp_path, [ID], {ID: []})
    assert [s.student for s in ready] == ["ann"]
    assert sorted(p.student for p in problems) == ["bob", "not a student id"]
