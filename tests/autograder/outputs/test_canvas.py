"""Is the Canvas file the shape Canvas's gradebook import takes (Student, ID, SIS User ID,
SIS Login ID, Section, a column per assignment, the Points Possible row), with a row per
student found by their Canvas user id and the kit CSV's points, and no cell a spreadsheet
runs?"""

from __future__ import annotations

import pytest

from tests.autograder.outputs import lms_class
from tests.autograder.outputs.lms_class import CANVAS_IDENTITY, PEOPLE, enrol, export, kit_scores
from tests.autograder.outputs.test_csv_cells import HYPERLINK, a_formula

pytestmark = pytest.mark.filterwarnings(
    "ignore:Object of type <Submitted:sqlalchemy.exc.SAWarning")
gradebook, course = lms_class.gradebook, lms_class.course  # the class's fixtures


def test_canvas_columns_and_points_possible(course):
    """Does the Canvas file open with Canvas's five identity columns and a column per
    assignment, then the Points Possible row with each assignment's points?"""
    rows, _, _ = export(course, "canvas")
    assert rows[0] == CANVAS_IDENTITY + ["01_attention", "02_heads"]
    assert rows[1] == ["Points Possible", "", "", "", "", "3.5", "3"]


def test_canvas_rows_name_each_student_by_canvas_user_id(course):
    """Is there a row per student, "Last, First" with their Canvas user id (lms_user_id) in
    ID, and their points: the late one's after the penalty, 0 for nothing handed in?"""
    rows, said, empty = export(course, "canvas")
    assert rows[2:] == [["Liddell, Alice", "101", "", "", "", "2.5", "1"],
                        ["Dylan, Bob", "102", "", "", "", "1", "0"],
                        ["King, Carol", "103", "", "", "", "0", "0"]]
    assert empty == 0 and said == ["Canvas grades: " + str(course / "canvas.csv")
                                   + ", 3 students, 2 assignments"]


def test_canvas_cells_are_the_kit_csvs_scores(course):
    """Is every cell of the Canvas file the score of the kit's own CSV, the late penalty
    taken off exactly as there?"""
    rows, _, _ = export(course, "canvas")
    kit = kit_scores(course)
    ids = {p[3]: s for s, p in PEOPLE.items()}
    cells = {(ids[row[1]], title): cell for row in rows[2:]
             for title, cell in zip(rows[0][5:], row[5:], strict=True)}
    assert cells == {key: score for key, score in kit.items() if key[1] != "TOTAL"}
    assert cells["alice", "02_heads"] == "1"  # 1.4 - 0.4


def test_canvas_assignment_ids_from_the_config(course):
    """With c.CanvasExport.assignment_ids, is a column titled "id (Canvas id)", as Canvas
    titles the assignments it already has?"""
    with (course / "nbgrader_config.py").open("a", encoding="utf-8") as config:
        config.write("c.CanvasExport.assignment_ids = {'02_heads': 4711}\n")
    rows, _, _ = export(course, "canvas")
    assert rows[0][5:] == ["01_attention", "02_heads (4711)"]


def test_only_the_given_assignments(course):
    """Given assignment ids, are only their columns written, every student still there?"""
    rows, _, _ = export(course, "canvas", ids=["02_heads"])
    assert rows[0] == CANVAS_IDENTITY + ["02_heads"]
    assert [row[0] for row in rows[2:]] == ["Liddell, Alice", "Dylan, Bob", "King, Carol"]


def test_a_formula_in_a_name_or_id_is_inert(course, gradebook):
    """Does a student whose names and Canvas user id are formulas (the red team's
    `+SUM(1,2), =HYPERLINK(...)` and `-2+3`) get a row no spreadsheet runs, while every other
    student keeps the Canvas user id Canvas finds them by, and points stay bare numbers?"""
    enrol(gradebook, {"mallory": (HYPERLINK, "+SUM(1,2)", "m@example.org", "-2+3")})
    rows, _, _ = export(course, "canvas")
    assert rows[5][:2] == ["'+SUM(1,2), " + HYPERLINK, "'-2+3"]
    assert not any(a_formula(cell) for row in rows for cell in row)
    assert [row[:2] for row in rows[2:5]] == [
        ["Liddell, Alice", "101"], ["Dylan, Bob", "102"], ["King, Carol", "103"]]
    text = (course / "canvas.csv").read_bytes().decode()
    assert '"Points Possible","","","","",3.5,3\r\n' in text
    assert '"Liddell, Alice","101","","","",2.5,1\r\n' in text
