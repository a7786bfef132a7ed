"""The class's grades as an LMS gradebook holds them: a row per student, a column per
assignment, a cell of points. Canvas's and Moodle's files (canvas.py, moodle.py) are written
from this sheet; neither computes a score.

The students are those of the roster (autograder/outputs/roster.py: the gradebook, submitted/,
the refused inputs), each with what the gradebook records of them (first and last name, email,
lms_user_id), which is how an LMS tells its students apart. A cell holds the score of the kit's
own CSV, written as that CSV writes it (late penalty taken off: roster's Entry.score): the
points of a graded notebook, 0 when nothing was handed in (as in the kit's CSV), and nothing
while the kit has no grade to give (not gradable, not graded yet), so that no LMS records a 0
the student may not have earned (lms_export.py leaves such a student out of the file).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from nbgrader.api import MissingEntry

from autograder.outputs.csv_cells import Number, points
from autograder.outputs.roster import GRADED, MISSING, WARNED, Entry, roster


@dataclass(frozen=True)
class Person:
    """A student as the gradebook records them; "" for what it does not know."""
    id: str
    first_name: str = ""
    last_name: str = ""
    email: str = ""
    lms_user_id: str = ""


@dataclass(frozen=True)
class Sheet:
    assignments: list[tuple[str, float]]  # (assignment id, its points), in the roster's order
    people: list[Person]
    cells: dict[tuple[str, str], Number | str]  # (student, assignment) -> points, "": no grade
    unsettled: list[Entry]  # each empty cell's entry, and refused files with no student


def person(gradebook, student_id) -> Person:
    """What the gradebook records of a student (a student known only from submitted/ or a
    refused file has no record: every field empty)."""
    try:
        student = gradebook.find_student(student_id)
    except MissingEntry:
        return Person(student_id)
    return Person(student_id, *((value or "").strip() for value in (
        student.first_name, student.last_name, student.email, student.lms_user_id)))


def cell(entry: Entry) -> Number | str:
    """The points an LMS records for one entry: the kit CSV's score when graded, 0 when
    nothing was handed in, "" while there is no grade to give."""
    if entry.status in (GRADED, WARNED):
        return points(entry.score or 0)
    if entry.status == MISSING:
        return points(0)
    return ""


def without_empty_cells(grades: Sheet) -> Sheet:
    """The sheet with only the students each of whose cells holds points."""
    full = [p for p in grades.people
            if all(grades.cells[p.id, a] != "" for a, _ in grades.assignments)]
    return replace(grades, people=full)


def sheet(root, gradebook, ids=None) -> Sheet:
    """The sheet of the course at `root`: every known student, every assignment of the
    gradebook (or of `ids`)."""
    entries = roster(root, gradebook, ids)
    assignments = sorted((a.name, a.max_score) for a in gradebook.assignments
                         if ids is None or a.name in ids)
    students = sorted({e.student for e in entries if e.student})
    cells = {(e.student, e.assignment): cell(e) for e in entries if e.student}
    unsettled = [e for e in entries if not e.student or cells[e.student, e.assignment] == ""]
    return Sheet(assignments, [person(gradebook, s) for s in students], cells,
                 unsettled)
