"""`export --format canvas|moodle`: the file an LMS's grade import takes, written whole or not
at all.

Every student must carry the field the LMS finds them by (canvas.py, moodle.py say which),
and no two the same; otherwise nothing is written and the error names the students and the
fix. The file is written beside its destination under a temporary name and renamed onto it,
so an interrupted export leaves the old file, never half of one.

No cell is written empty: both LMSs' imports read an empty cell as "no grade", and where the
LMS already holds a grade (one the instructor entered there) an empty cell clears it (Canvas's
importer counts a blank against a present score as a change; Moodle's sets the grade to none).
So a student with a notebook not graded, or not gradable, is left out of the file, their other
assignments too, until it has a grade: each such cell is said, one line each, and the export
exits 1.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from autograder.course.directory import course_config, open_gradebook, write_atomically
from autograder.course.gradebook_guard import check_gradebook
from autograder.i18n import counted, t
from autograder.outputs import canvas, moodle
from autograder.outputs.csv_cells import csv_text
from autograder.outputs.destination import check_destination, same_table
from autograder.outputs.lms_sheet import sheet, without_empty_cells
from autograder.plumbing.errors import OutputError

FORMATS = {"canvas": canvas, "moodle": moodle}
DEFAULT_FILES = {"canvas": Path("canvas.csv"), "moodle": Path("moodle.csv")}


def check_keys(layout, people):
    """Refuse students without the field the LMS matches on, or sharing one."""
    missing = [p.id for p in people if not getattr(p, layout.KEY)]
    if missing:
        raise OutputError(layout.missing_key(missing))
    holders = defaultdict(list)
    for p in people:
        holders[getattr(p, layout.KEY)].append(p.id)
    shared = {key: ids for key, ids in holders.items() if len(ids) > 1}
    if shared:
        raise OutputError(t("{lms} would put two students' grades on one account: {pairs}; give "
                            "each student their own {field} in the gradebook (`nbgrader db "
                            "student add ID --{option}=...`), then export again; nothing was "
                            "written", lms=layout.NAME, field=layout.KEY,
                            option=layout.KEY.replace("_", "-"),
                            pairs=t("; ").join(t("{key}: {students}", key=key,
                                                 students=t(", ").join(ids))
                                               for key, ids in shared.items())))


def unsettled_lines(entries):
    """One line per cell without a grade, and per refused file whose student is unknown."""
    return [t("{student} {assignment}: student left out of the file, {status}: {note}",
              student=e.student, assignment=e.assignment, status=t(e.status),
              note=e.note or t("run grade"))
            if e.student else t("not in the file, no student could be told: {note}", note=e.note)
            for e in entries]


def export_lms(root: Path, form: str, destination: Path | None, ids=None, log=print):
    """Write the `form` ("canvas" or "moodle") file of the course at `root` for the
    assignments `ids` (all when None). Returns the number of notebooks the file holds no
    grade of (0: every one is in it): those awaiting a grade, and refused files whose student
    could not be told."""
    layout = FORMATS[form]
    destination = destination or DEFAULT_FILES[form]
    if not destination.resolve().parent.is_dir():
        raise OutputError(t("{folder}: no such folder; create it or export elsewhere (--to)",
                            folder=destination.parent))
    check_gradebook(root)
    with open_gradebook(root) as gradebook:
        grades = sheet(root, gradebook, ids)
    check_keys(layout, grades.people)
    complete = without_empty_cells(grades)
    text = csv_text(layout.rows(complete, course_config(root)))
    check_destination(root, destination, same_table(text))
    write_atomically(destination.resolve(), text)
    for line in unsettled_lines(grades.unsettled):
        log(line)
    log(t("{lms} grades: {path}, {students}, {assignments}", lms=layout.NAME, path=destination,
          students=counted(len(complete.people), "1 student", "{count} students"),
          assignments=counted(len(grades.assignments), "1 assignment", "{count} assignments")))
    empty = sum(1 for e in grades.unsettled if e.student)
    if empty:
        left_out = len(grades.people) - len(complete.people)
        log(t("{students} left out of the file until {notebooks} a grade (an empty cell "
              "would clear the grade the LMS holds): run grade (or fix what is named above), "
              "then export again",
              students=counted(left_out, "1 student is", "{count} students are"),
              notebooks=counted(empty, "1 notebook has", "{count} notebooks have")))
    return len(grades.unsettled)
