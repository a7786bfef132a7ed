"""The lines `grade` ends with: each student's score when they are few, the distribution when
they are many."""

from __future__ import annotations

from autograder.outputs.roster import GRADED, MISSING, PENDING, WARNED, Entry
from autograder.outputs.score_summary import score_lines


def entries(assignment, scores, most=10.0, status=GRADED):
    return [Entry(f"s{i:02d}", assignment, status, score, most)
            for i, score in enumerate(scores)]


def test_a_few_students_are_shown_one_by_one():
    """With three graded students, is each one's score shown, late penalty's score as the
    export has it, and are students with no current grade (missing, not graded yet) left
    out?"""
    rows = entries("01_a", [10, 7.5]) + [Entry("s09", "01_a", WARNED, 3.0, 10.0),
                                         Entry("s10", "01_a", MISSING, None, 10.0),
                                         Entry("s11", "01_a", PENDING, 4.0, 10.0)]
    assert score_lines(rows) == ["01_a (of 10 points): s00 10, s01 7.5, s09 3"]


def test_many_students_get_the_distribution():
    """With twenty students, are the count, mean, median, extremes and the five bars shown,
    the last bar holding full marks?"""
    scores = [0] * 2 + [3] * 3 + [5] * 5 + [10] * 10
    lines = score_lines(entries("01_a", scores))
    assert lines[0] == ("01_a (of 10 points): 20 graded, mean 6.7, median 7.5, lowest 0, "
                        "highest 10")
    assert lines[1].split() == ["[0,", "2):", "2", "[2,", "4):", "3", "[4,", "6):", "5",
                                "[6,", "8):", "0", "[8,", "10]:", "10"]


def test_each_assignment_has_its_lines_and_an_ungraded_one_none():
    """Is each assignment summarised on its own, and one with nothing graded skipped?"""
    rows = (entries("02_b", [1, 2], most=3.0) + entries("01_a", [4])
            + entries("03_c", [None], status=MISSING))
    assert score_lines(rows) == ["01_a (of 10 points): s00 4",
                                 "02_b (of 3 points): s00 1, s01 2"]
