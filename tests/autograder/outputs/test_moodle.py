"""Is the Moodle file what Moodle's CSV grade import maps: the user fields, the email address
it finds a student by, a column per assignment, points with a full stop, and no cell a
spreadsheet runs?"""

from __future__ import annotations

import pytest

from tests.autograder.outputs import lms_class
from tests.autograder.outputs.lms_class import MOODLE_IDENTITY, enrol, export
from tests.autograder.outputs.test_csv_cells import HYPERLINK, a_formula

pytestmark = pytest.mark.filterwarnings(
    "ignore:Object of type <Submitted:sqlalchemy.exc.SAWarning")
gradebook, course = lms_class.gradebook, lms_class.course  # the class's fixtures


def test_moodle_columns_and_rows(course):
    """Does the Moodle file hold the user fields, the email Moodle maps students by, and a
    column per assignment, points written with a full stop?"""
    rows, _, _ = export(course, "moodle")
    assert rows == [MOODLE_IDENTITY + ["01_attention", "02_heads"],
                    ["Alice", "Liddell", "alice@example.org", "2.5", "1"],
                    ["Bob", "Dylan", "bob@example.org", "1", "0"],
                    ["Carol", "King", "carol@example.org", "0", "0"]]


def test_a_formula_in_a_name_or_email_is_inert(course, gradebook):
    """Does a student whose names and email are formulas (the red team's `=HYPERLINK(...)`,
    `+SUM(1,2)`, `@evil.example`) get a row no spreadsheet runs, while every other student
    keeps the email Moodle finds them by, and points stay bare numbers?"""
    enrol(gradebook, {"mallory": (HYPERLINK, "+SUM(1,2)", "@evil.example", "104")})
    rows, _, _ = export(course, "moodle")
    assert rows[4] == ["'" + HYPERLINK, "'+SUM(1,2)", "'@evil.example", "0", "0"]
    assert not any(a_formula(cell) for row in rows for cell in row)
    assert [row[2] for row in rows[1:4]] == [
        "alice@example.org", "bob@example.org", "carol@example.org"]
    text = (course / "moodle.csv").read_bytes().decode()
    assert '"Alice","Liddell","alice@example.org",2.5,1\r\n' in text
