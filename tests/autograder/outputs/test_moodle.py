"""Is the Moodle file what Moodle's CSV grade import maps: the user fields, the email address
it finds a student by, a column per assignment, points with a full stop?"""

from __future__ import annotations

import pytest

from tests.autograder.outputs import lms_class
from tests.autograder.outputs.lms_class import MOODLE_IDENTITY, export

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
