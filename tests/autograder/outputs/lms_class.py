"""A small class for the LMS export tests (test_canvas.py, test_moodle.py, test_lms_export.py):
a course folder whose gradebook is written with nbgrader's Gradebook API (as test_export.py
writes one; no kernel), every student enrolled with names, email and Canvas user id."""

from __future__ import annotations

import csv

import pytest
from nbgrader.api import Gradebook
from traitlets.config import Config

from autograder.course.directory import db_url
from autograder.outputs.export import ClassCsvExport
from autograder.outputs.lms_export import export_lms
from tests.autograder.outputs.test_export import add_assignment, gradebook, submit  # noqa: F401

# The columns each LMS documents for its import: Canvas's own export begins with these five,
# Moodle's with the user fields; the instructor maps Email address to Moodle's email.
CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE_IDENTITY = ["First name", "Last name", "Email address"]
PEOPLE = {  # id: (first name, last name, email, Canvas user id)
    "alice": ("Alice", "Liddell", "alice@example.org", "101"),
    "bob": ("Bob", "Dylan", "bob@example.org", "102"),
    "carol": ("Carol", "King", "carol@example.org", "103"),
}


def read(path):
    with open(path, newline="", encoding="utf-8-sig") as handle:
        return list(csv.reader(handle))


def enrol(gb, people):
    for student, (first, last, email, lms_id) in people.items():
        gb.update_or_create_student(student, first_name=first, last_name=last, email=email,
                                    lms_user_id=lms_id)


@pytest.fixture
def course(gradebook, tmp_path):  # noqa: F811 (the fixture of test_export)
    """A course folder (tmp_path) of two assignments (3.5 and 3 points) and three students:
    alice handed in both, the second late (penalty 0.4), bob the first only, carol nothing."""
    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\n", encoding="utf-8")
    add_assignment(gradebook, "01_attention", {"test_a": 2, "test_b": 1.5})
    add_assignment(gradebook, "02_heads", {"test_c": 3})
    enrol(gradebook, PEOPLE)
    submit(gradebook, "01_attention", "alice", {"test_a": 2, "test_b": 0.5})
    submit(gradebook, "02_heads", "alice", {"test_c": 1.4})
    gradebook.find_submission("02_heads", "alice").notebooks[0].late_submission_penalty = 0.4
    submit(gradebook, "01_attention", "bob", {"test_a": 1})
    gradebook.db.commit()
    return tmp_path


def export(root, form, ids=None, name=None):
    """(rows of the file, the lines said, the number of empty cells)."""
    said = []
    empty = export_lms(root, form, root / (name or f"{form}.csv"), ids, log=said.append)
    return read(root / (name or f"{form}.csv")), said, empty


def kit_scores(root):
    """{(student, assignment): score} of the kit's own CSV."""
    ClassCsvExport(to=str(root / "grades.csv"),
                   config=Config({"CourseDirectory": {"root": str(root)}})).export(
        Gradebook(db_url(root)))
    return {(row[0], row[1]): row[2] for row in read(root / "grades.csv")[1:]}
