"""Does the kit's `nbgrader export` plugin, ClassCsvExport, write a row per student and
assignment, then a TOTAL row per student, from a real gradebook, no cell a spreadsheet runs?

Each test makes a real SQLite gradebook in tmp_path with nbgrader's Gradebook API and calls
the plugin's export. No kernel starts.

Creating a gradebook asks alembic for the newest schema revision. nbgrader does that by
running the `alembic` executable, which takes seconds; the fixture below asks alembic the
same question in this process, from nbgrader's own migration folder (the virtualenv's bin
still goes on PATH, as autograder.course.directory.nbgrader_env does, should the patch not
apply)."""

from __future__ import annotations

import csv
from datetime import datetime

import nbgrader.api
import pytest
from alembic.script import ScriptDirectory
from nbgrader.api import Gradebook
from nbgrader.dbutil import ALEMBIC_DIR
from traitlets.config import Config

from autograder.course.directory import nbgrader_env
from autograder.outputs.export import COLUMNS, ClassCsvExport
from tests.autograder.outputs.test_csv_cells import a_formula

# nbgrader's add_submission builds its rows in a way SQLAlchemy 2 warns about; not the kit's.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Object of type <Submitted:sqlalchemy.exc.SAWarning")

# -- helpers --------------------------------------------------------------------------------


@pytest.fixture
def gradebook(tmp_path, monkeypatch):
    """An empty SQLite gradebook in tmp_path."""
    monkeypatch.setenv("PATH", nbgrader_env()["PATH"])
    monkeypatch.setattr(nbgrader.api, "get_alembic_version",
                        lambda: ScriptDirectory(ALEMBIC_DIR).get_current_head())
    gb = Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}")
    yield gb
    gb.close()


def add_assignment(gb, name, points):
    """An assignment of one notebook whose test cells are worth `points` ({cell: points})."""
    gb.add_assignment(name)
    gb.add_notebook("problem", name)
    for cell, most in points.items():
        gb.add_grade_cell(cell, "problem", name, max_score=most, cell_type="code")


def submit(gb, assignment, student, scores):
    """A submission whose autograder scores are `scores` ({cell: score}); a cell left out
    has no score yet."""
    gb.add_submission(assignment, student)
    for cell, score in scores.items():
        gb.find_grade(cell, "problem", assignment, student).auto_score = score
    gb.db.commit()


def export_all(gb, destination):
    """Export from a course folder (the plugin's root) with no submitted/ and no .kit/."""
    config = Config({"CourseDirectory": {"root": str(destination.parent)}})
    ClassCsvExport(to=str(destination), config=config).export(gb)
    with open(destination, newline="", encoding="utf-8-sig") as handle:
        return list(csv.reader(handle))


GRADE_COLUMNS = COLUMNS.index("note") + 1


def export(gb, destination):
    """The grade columns of the export (student to note); the late columns have their own
    tests."""
    return [row[:GRADE_COLUMNS] for row in export_all(gb, destination)]


@pytest.fixture
def course(gradebook):
    """Two assignments (3.5 and 3 points) and three students: alice handed in both, bob the
    first only, carol nothing."""
    add_assignment(gradebook, "01_attention", {"test_a": 2, "test_b": 1.5})
    add_assignment(gradebook, "02_heads", {"test_c": 3})
    for student in ("carol", "alice", "bob"):
        gradebook.add_student(student)
    submit(gradebook, "01_attention", "alice", {"test_a": 2, "test_b": 0.5})
    submit(gradebook, "02_heads", "alice", {"test_c": 1})
    submit(gradebook, "01_attention", "bob", {"test_a": 1})
    return gradebook


# -- the rows -------------------------------------------------------------------------------


def test_rows_per_student_and_assignment_then_total(course, tmp_path):
    """Is there one row per student and assignment, sorted, each student's followed by a
    TOTAL row?"""
    rows = export(course, tmp_path / "grades.csv")
    assert rows == [
        COLUMNS[:GRADE_COLUMNS],
        ["alice", "01_attention", "2.5", "3.5", "graded", ""],
        ["alice", "02_heads", "1", "3", "graded", ""],
        ["alice", "TOTAL", "3.5", "6.5", "", ""],
        ["bob", "01_attention", "1", "3.5", "graded", ""],
        ["bob", "02_heads", "0", "3", "missing", ""],
        ["bob", "TOTAL", "1", "6.5", "", ""],
        ["carol", "01_attention", "0", "3.5", "missing", ""],
        ["carol", "02_heads", "0", "3", "missing", ""],
        ["carol", "TOTAL", "0", "6.5", "", ""],
    ]


def test_the_assignments_asked_for_alone(course, tmp_path):
    """With assignments named (`export ID`), are only their rows written, each student's
    TOTAL over them alone?"""
    config = Config({"CourseDirectory": {"root": str(tmp_path)}})
    destination = tmp_path / "grades.csv"
    ClassCsvExport(to=str(destination), config=config, assignment=["02_heads"]).export(course)
    with open(destination, newline="", encoding="utf-8-sig") as handle:
        rows = [row[:GRADE_COLUMNS] for row in csv.reader(handle)]
    assert rows[1:] == [["alice", "02_heads", "1", "3", "graded", ""],
                        ["alice", "TOTAL", "1", "3", "", ""],
                        ["bob", "02_heads", "0", "3", "missing", ""],
                        ["bob", "TOTAL", "0", "3", "", ""],
                        ["carol", "02_heads", "0", "3", "missing", ""],
                        ["carol", "TOTAL", "0", "3", "", ""]]


def test_header_names_the_columns(course, tmp_path):
    """Does the file start with the header student_id, assignment, score, max_score,
    status, note, then nbgrader's late columns?"""
    rows = export_all(course, tmp_path / "grades.csv")
    assert rows[0] == ["student_id", "assignment", "score", "max_score", "status", "note",
                       "duedate", "timestamp", "raw_score", "late_submission_penalty"]


def test_the_file_tells_excel_it_is_utf8(course, tmp_path):
    """Does the file begin with UTF-8's byte-order mark, once, so that Excel reads a Chinese
    or accented name as written (without it, Excel on a Chinese Windows reads GBK)?"""
    export_all(course, tmp_path / "grades.csv")
    data = (tmp_path / "grades.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf\"student_id\",") and data.count(b"\xef\xbb\xbf") == 1


def test_missing_submission_scores_zero_and_missing(course, tmp_path):
    """Does a student with no submission get 0 and "missing" for it, the full maximum still
    counted?"""
    rows = export(course, tmp_path / "grades.csv")
    assert ["bob", "02_heads", "0", "3", "missing", ""] in rows
    assert ["bob", "TOTAL", "1", "6.5", "", ""] in rows


def test_student_with_no_submission_at_all(course, tmp_path):
    """Is a student who handed in nothing listed anyway, with zeros and a TOTAL of 0?"""
    rows = [r for r in export(course, tmp_path / "grades.csv") if r[0] == "carol"]
    assert rows == [["carol", "01_attention", "0", "3.5", "missing", ""],
                    ["carol", "02_heads", "0", "3", "missing", ""],
                    ["carol", "TOTAL", "0", "6.5", "", ""]]


def test_submission_without_scores_counts_zero(gradebook, tmp_path):
    """Is a submission with no score yet counted as handed in, with 0 points?"""
    add_assignment(gradebook, "01_attention", {"test_a": 2})
    gradebook.add_student("alice")
    submit(gradebook, "01_attention", "alice", {})
    rows = export(gradebook, tmp_path / "grades.csv")
    assert rows[1:] == [["alice", "01_attention", "0", "2", "graded", ""],
                        ["alice", "TOTAL", "0", "2", "", ""]]


def test_manual_score_takes_precedence(gradebook, tmp_path):
    """Does a grader's manual score count in place of the autograder's, as in nbgrader?"""
    add_assignment(gradebook, "01_attention", {"test_a": 2})
    gradebook.add_student("alice")
    submit(gradebook, "01_attention", "alice", {"test_a": 2})
    gradebook.find_grade("test_a", "problem", "01_attention", "alice").manual_score = 0.5
    gradebook.db.commit()
    rows = export(gradebook, tmp_path / "grades.csv")
    assert rows[1] == ["alice", "01_attention", "0.5", "2", "graded", ""]


def test_empty_gradebook_gives_the_header_only(gradebook, tmp_path):
    """Does a gradebook with no student give a file with the header alone?"""
    add_assignment(gradebook, "01_attention", {"test_a": 2})
    assert export_all(gradebook, tmp_path / "grades.csv") == [COLUMNS]


def test_default_destination_is_grades_csv(course, tmp_path, monkeypatch):
    """Without --to, is the file grades.csv in the current folder?"""
    monkeypatch.chdir(tmp_path)
    ClassCsvExport().export(course)
    with open(tmp_path / "grades.csv", newline="", encoding="utf-8-sig") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == COLUMNS and len(rows) == 10


# -- lateness -------------------------------------------------------------------------------


def late_columns(rows, student, assignment):
    [row] = [r for r in rows if r[0] == student and r[1] == assignment]
    return dict(zip(COLUMNS, row, strict=True))


def test_late_submission_shows_due_date_timestamp_and_penalty(gradebook, tmp_path):
    """Does a late submission's row keep nbgrader's due date, timestamp, raw score and
    penalty, with the penalty taken off the score (and off the TOTAL)?"""
    add_assignment(gradebook, "01_attention", {"test_a": 2})
    gradebook.add_student("alice")
    gradebook.update_or_create_assignment("01_attention", duedate=datetime(2026, 12, 4, 12))
    submit(gradebook, "01_attention", "alice", {"test_a": 2})
    submission = gradebook.find_submission("01_attention", "alice")
    submission.timestamp = datetime(2026, 12, 5, 13, 30)
    submission.notebooks[0].late_submission_penalty = 0.4
    gradebook.db.commit()
    rows = export_all(gradebook, tmp_path / "grades.csv")
    row = late_columns(rows, "alice", "01_attention")
    assert row["duedate"] == "2026-12-04 12:00:00"
    assert row["timestamp"] == "2026-12-05 13:30:00"
    assert (row["raw_score"], row["late_submission_penalty"], row["score"]) == ("2", "0.4", "1.6")
    assert late_columns(rows, "alice", "TOTAL")["score"] == "1.6"


def test_extension_moves_the_students_due_date(gradebook, tmp_path):
    """Is the due date in a row the student's own, extension included?"""
    add_assignment(gradebook, "01_attention", {"test_a": 2})
    gradebook.add_student("alice")
    gradebook.update_or_create_assignment("01_attention", duedate=datetime(2026, 12, 4, 12))
    submit(gradebook, "01_attention", "alice", {"test_a": 2})
    gradebook.grant_extension("01_attention", "alice", hours=48)
    row = late_columns(export_all(gradebook, tmp_path / "grades.csv"), "alice", "01_attention")
    assert row["duedate"] == "2026-12-06 12:00:00"


def test_missing_submission_has_no_late_columns(course, tmp_path):
    """Does a student who handed nothing in get empty late columns (nothing to be late)?"""
    row = late_columns(export_all(course, tmp_path / "grades.csv"), "carol", "01_attention")
    assert [row[c] for c in COLUMNS[GRADE_COLUMNS:]] == ["", "", "", ""]


# -- cells a spreadsheet opens --------------------------------------------------------------


def test_a_formula_as_student_id_is_inert(course, tmp_path):
    """Does a gradebook student id that is a formula (the red team's `=1+1`) come out with a
    single quote in front on each of its rows, no cell of the file a formula?"""
    course.add_student("=1+1")
    rows = export(course, tmp_path / "grades.csv")
    assert rows[1:4] == [["'=1+1", "01_attention", "0", "3.5", "missing", ""],
                         ["'=1+1", "02_heads", "0", "3", "missing", ""],
                         ["'=1+1", "TOTAL", "0", "6.5", "", ""]]
    assert not any(a_formula(cell) for row in rows for cell in row)


def test_a_negative_score_stays_a_bare_number(gradebook, tmp_path):
    """Is a manual score of -2 written as the bare number -2 in raw_score (no quote, no
    single quote), while the text cells are quoted?"""
    add_assignment(gradebook, "01_attention", {"test_a": 2})
    gradebook.add_student("alice")
    submit(gradebook, "01_attention", "alice", {"test_a": 2})
    gradebook.find_grade("test_a", "problem", "01_attention", "alice").manual_score = -2
    gradebook.db.commit()
    export_all(gradebook, tmp_path / "grades.csv")
    text = (tmp_path / "grades.csv").read_bytes().decode()
    assert '"alice","01_attention",0,2,"graded","","","",-2,0\r\n' in text


def test_a_chinese_course_gets_its_statuses_in_chinese(course, tmp_path):
    """In a course set to Chinese, do the status column and the notes speak Chinese, as the
    report does, while the columns keep nbgrader's names?"""
    destination = tmp_path / "grades.csv"
    config = Config({"CourseDirectory": {"root": str(tmp_path)}, "Course": {"language": "zh"}})
    ClassCsvExport(to=str(destination), config=config).export(course)
    with open(destination, newline="", encoding="utf-8-sig") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][:5] == ["student_id", "assignment", "score", "max_score", "status"]
    assert ["carol", "01_attention", "0", "3.5", "未提交", ""] in [r[:GRADE_COLUMNS] for r in rows]
    assert "missing" not in {row[4] for row in rows}
