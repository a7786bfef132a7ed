"""Every student the course knows, for every assignment, with a status: the rows of the export
and of the report's class table.

A student is known when they have a folder in submitted/, a row in the gradebook, or an input
problem the kit kept (`.kit/problems.json`). The status of one student's assignment:

- graded: nbgrader graded the file that is in submitted/ now;
- graded with warnings: graded, but the kit warned about the input (restored test cells ...);
- not gradable: the input was refused; the note says why and what to do;
- not graded yet: submitted, but no grade (yet), or grading was interrupted, or the file
  changed since it was graded; run grade;
- missing: nothing was handed in.

The statuses are the kit's words for the export's status column and the report's CSS
classes; the report shows them, and every note, in the course's language (the caller sets it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

from nbgrader.api import MissingEntry

from autograder.course.deadlines import Lateness, lateness, penalised_score
from autograder.course.directory import course_ids
from autograder.course.ledger import REGRADE, digest, read_problems, read_status
from autograder.i18n import t

GRADED, WARNED, REFUSED, PENDING, MISSING = (
    "graded", "graded with warnings", "not gradable", "not graded yet", "missing")


@dataclass(frozen=True)
class Entry:
    student: str
    assignment: str
    status: str
    score: float | None  # None when there is no grade; late penalty taken off
    max_score: float
    note: str = ""
    late: Lateness | None = None  # None when nothing was handed in


@dataclass(frozen=True)
class Unregistered:
    """An assignment of the course that nbgrader has not registered yet (its notebooks are
    collected, none graded): its name and the points of its notebook."""
    name: str
    max_score: float


def unregistered(root: Path, gradebook, ids=None) -> list[Unregistered]:
    """The course's assignments (of `ids`) with a notebook in submitted/ that the gradebook
    does not have yet: their students' rows say "not graded yet", not nothing."""
    registered = {a.name for a in gradebook.assignments}
    return [Unregistered(name, notebook_points(root / "source" / name / f"{name}.ipynb"))
            for name in course_ids(root)
            if name not in registered and (ids is None or name in ids)
            and any((root / "submitted").glob(f"*/{name}/{name}.ipynb"))]


def notebook_points(path: Path) -> float:
    """The points of a notebook's graded cells (nbgrader's metadata); 0 when unreadable."""
    try:
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError):
        return 0.0
    return float(sum(cell.get("metadata", {}).get("nbgrader", {}).get("points", 0) or 0
                     for cell in cells if isinstance(cell, dict)))


def known_students(root: Path, gradebook, problems):
    submitted = root / "submitted"
    folders = {p.name for p in submitted.iterdir() if p.is_dir()} if submitted.exists() else set()
    return sorted(folders | {s.id for s in gradebook.students}
                  | {p.student for p in problems if p.student})


def notes(problems):
    return t("; ").join(t("{reason}; {fix}", reason=p.reason, fix=p.fix) for p in problems)


def removal_note(assignment_id):
    """What to do about an assignment the gradebook has and the course no longer has."""
    return t("{id} is in the gradebook but no longer in the course (no source/{id}/); "
             "`python -m autograder remove {id}` takes it out of the gradebook",
             id=assignment_id)


def not_in_course(root: Path, gradebook):
    """The assignments of the gradebook that the course folder no longer has (none where the
    folder has no source/ at all: no course the kit built, nothing to compare with)."""
    if not (root / "source").is_dir():
        return []
    return sorted(set(a.name for a in gradebook.assignments) - set(course_ids(root)))


def entry(root: Path, gradebook, student, assignment, problems, gone=False, grace=0.0):
    """The status of one student's assignment (`gone`: the course no longer has it; `grace`:
    the course's grace_seconds)."""
    name, max_score = assignment.name, assignment.max_score
    mine = [p for p in problems if p.student == student and p.assignment in ("", name)]
    try:
        submission = gradebook.find_submission(name, student)
        late, score = lateness(submission, grace), penalised_score(submission)
    except MissingEntry:
        late = score = None
    notebook = root / "submitted" / student / name / f"{name}.ipynb"
    # The file in submitted/ cannot be graded; or nothing was collected and the file was refused.
    refused = [p for p in mine if not p.graded_anyway
               and (p.stage != "collect" or (score is None and not notebook.exists()))]
    if refused:
        return Entry(student, name, REFUSED, score, max_score, notes(refused), late)
    if score is None:  # of an assignment the course lost, grade can do nothing: say so
        if notebook.exists():
            return Entry(student, name, PENDING, None, max_score,
                         removal_note(name) if gone else t("run grade"))
        return Entry(student, name, MISSING, None, max_score,
                     removal_note(name) if gone else "")
    status = read_status(root, student, name) or {}
    if status.get("state") == "grading":
        return Entry(student, name, PENDING, score, max_score,
                     t("grading was interrupted; run grade"), late)
    if status.get("state") == REGRADE:
        return Entry(student, name, PENDING, score, max_score,
                     t("a grade --force stopped before this notebook; run grade"), late)
    if status.get("state") == "failed":  # its problem was not kept (grade was interrupted):
        # the score in the gradebook is an earlier grading's
        return Entry(student, name, PENDING, score, max_score,
                     t("its last grading failed and grade was interrupted before saying why; "
                       "run grade"), late)
    if notebook.exists() and status.get("sha256") not in (None, digest(notebook)):
        return Entry(student, name, PENDING, score, max_score,
                     t("the submitted file changed since it was graded; run grade"), late)
    warned = [p for p in mine if p not in refused]
    if warned:
        return Entry(student, name, WARNED, score, max_score, notes(warned), late)
    return Entry(student, name, GRADED, score, max_score, late=late)


def roster(root: Path, gradebook, ids=None, students=(), grace=0.0):
    """An Entry for every known student and every assignment of the gradebook (or of `ids`),
    plus a row for each refused file whose student could not be told. With `students` (ids
    or globs), only those students' rows: the others' are not read (grading one student of a
    class of hundreds reads one student's grades). `grace`: the course's grace_seconds, for
    each Lateness to tell late from within the grace minutes."""
    problems = read_problems(root)
    assignments = sorted([*(a for a in gradebook.assignments if ids is None or a.name in ids),
                          *unregistered(root, gradebook, ids)], key=lambda a: a.name)
    gone = set(not_in_course(root, gradebook))
    chosen = [student for student in known_students(root, gradebook, problems)
              if not students or any(fnmatch(student, pattern) for pattern in students)]
    rows = [entry(root, gradebook, student, assignment, problems, assignment.name in gone,
                  grace) for student in chosen for assignment in assignments]
    if not students:  # a warning of the whole inbox (its times are an export's) is no refusal
        rows += [Entry("", p.assignment, WARNED if p.graded_anyway else REFUSED, None, 0.0,
                       t("{path}: {reason}; {fix}", path=p.path, reason=p.reason, fix=p.fix))
                 for p in problems if not p.student and (ids is None or p.assignment in ids)]
    return rows


def page_is_stale(root: Path, student, assignment_id):
    """Was the student's notebook graded again after its feedback page was written? (grade
    writes autograded/<student>/<id>/ last; the page then shows the old scores.) False when
    there is no page."""
    page = root / "feedback" / student / assignment_id / f"{assignment_id}.html"
    graded = root / "autograded" / student / assignment_id / f"{assignment_id}.ipynb"
    return page.exists() and graded.exists() and graded.stat().st_mtime > page.stat().st_mtime
