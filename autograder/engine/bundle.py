"""What a grading task carries, so that a worker never needs the course folder.

An assignment's bundle is the part of the course its grading reads: nbgrader_config.py, the
course's assignments/ folder (shared modules and this assignment's folder: checks, reference,
catalog), source/<id>/ and release/<id>/, and a gradebook that holds this assignment's master
cells and nothing else (no student, no score). A submission is the student's folder in
submitted/, as files. Both are plain bytes: a worker on another machine writes them into a
folder of its own and grades there (autograder/engine/worker.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from nbgrader.api import (
    Assignment,
    Base,
    Comment,
    Grade,
    Gradebook,
    GradeCell,
    MissingEntry,
    Notebook,
    SolutionCell,
    SourceCell,
    SubmittedAssignment,
    SubmittedNotebook,
    TaskCell,
)
from sqlalchemy import create_engine, event, text
from sqlalchemy.exc import SAWarning
from sqlalchemy.orm import joinedload, undefer

from autograder.checks.loader import assignments_folder
from autograder.course.directory import CONFIG, open_gradebook
from autograder.course.earlier_releases import record_path
from autograder.course.handed_in import COLLECT_WRITES, students_files
from autograder.course.submission_files import entries_of
from autograder.plumbing.files_beside import carry
from autograder.plumbing.timeline import mark

GRADEBOOK = "gradebook.db"  # the bundle's own gradebook, relative to the worker's folder
SKIPPED = {"__pycache__", ".ipynb_checkpoints"}  # folders never sent


@dataclass(frozen=True)
class Bundle:
    """One assignment of a course, as files: {relative path: bytes}."""

    assignment: str
    files: dict = field(repr=False)
    digest: str = ""

    def write(self, folder: Path):
        for name, data in self.files.items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)


@dataclass(frozen=True)
class Submission:
    """One student's folder of submitted/<student>/<assignment>/, as files, and the key its
    hidden cases are drawn from (hex; autograder/course/draw_keys.py): a worker never sees the
    course's secret, only each notebook's key."""

    student: str
    assignment: str
    files: dict = field(repr=False)
    draw_key: str = field(default="", repr=False)


def read_files(folder: Path, prefix="") -> dict:
    """{prefix + relative path: bytes} of the regular files under `folder`; links and special
    files are left out (the submission checks refuse them before grading). Walked within the
    bounds of every walk over a submission: a folder beyond them raises
    submission_files.Unwalkable."""
    files = {}
    if not folder.is_dir():
        return files
    for relative, mode in sorted(entries_of(folder)):
        path = Path(relative)
        if stat.S_ISREG(mode) and not SKIPPED & set(path.parts):
            files[prefix + path.as_posix()] = (folder / path).read_bytes()
    return files


def digest_of(files: dict) -> str:
    hasher = hashlib.sha256()
    for name in sorted(files):
        hasher.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return hasher.hexdigest()


# The cells of a master notebook a bundle's gradebook holds: each kind, nbgrader's model of
# it and the fields it copies.
MASTER_CELLS = {
    "grade_cells": (GradeCell, ("max_score", "cell_type")),
    "solution_cells": (SolutionCell, ()),
    "task_cells": (TaskCell, ("max_score", "cell_type")),
    "source_cells": (SourceCell, ("cell_type", "locked", "source", "checksum")),
}


def master_of(course: Gradebook, assignment_id):
    """The assignment as the course's gradebook holds it, as data: its due date and, for each
    notebook, its name, the kernel it names and each cell of each kind (MASTER_CELLS)."""
    assignment = course.find_assignment(assignment_id)
    return assignment.duedate, [
        (notebook.name, notebook.kernelspec,
         {kind: [(cell.name, {field: getattr(cell, field) for field in fields})
                 for cell in getattr(notebook, kind)]
          for kind, (_, fields) in MASTER_CELLS.items()})
        for notebook in assignment.notebooks]


def copy_master_cells(master, into: Gradebook, assignment_id):
    """The assignment's notebooks and cells (`master`, master_of's) into `into`, a gradebook
    that does not hold the assignment yet, in one transaction: nbgrader's update_or_create_*
    look each cell up and commit it alone, some 70 ms for assignment 01's 33 cells, most of
    the bundle's making (bench/single.py's cold grade waits for it)."""
    duedate, notebooks = master
    assignment = into.add_assignment(assignment_id, duedate=duedate)
    for name, kernelspec, cells in notebooks:
        notebook = Notebook(name=name, assignment=assignment, kernelspec=kernelspec)
        into.db.add(notebook)
        into.db.add_all(MASTER_CELLS[kind][0](name=cell_name, notebook=notebook, **fields)
                        for kind, of_kind in cells.items() for cell_name, fields in of_kind)
    into.db.commit()


def empty_gradebook(course: Gradebook, path: Path):
    """A new SQLite gradebook at `path`, of the course gradebook's schema version. nbgrader
    looks its alembic version up for a new gradebook, which takes it seconds; here it is read
    from the course's. Its tables are made without waiting for the disk after each (SQLite's
    synchronous=OFF, on this connection alone): the file is a scratch copy, read back into the
    bundle at once, and each of its 13 tables and their indexes waited some 3 ms (create_all
    36-46 ms -> 6 ms, on a bundle's 75 ms)."""
    version = course.db.execute(text("SELECT version_num FROM alembic_version")).scalar()
    engine = create_engine(f"sqlite:///{path}")
    event.listen(engine, "connect",
                 lambda connection, _: connection.execute("PRAGMA synchronous=OFF"))
    Base.metadata.create_all(bind=engine, checkfirst=False)  # a new file: nothing to look up
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE alembic_version "
                                "(version_num VARCHAR(32) NOT NULL)"))
        connection.execute(text("INSERT INTO alembic_version VALUES (:v)"), {"v": version})
    engine.dispose()
    return Gradebook(f"sqlite:///{path}")


@contextlib.contextmanager
def quiet_gradebook():
    """nbgrader warns (SAWarning, autoflush) each time it adds a submission; nothing is lost,
    and the warning would cut through the progress bar."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SAWarning)
        yield


_made: dict = {}  # (root, assignment id) -> (what it was made of, Bundle): see assignment_bundle


def assignment_bundle(root: Path, assignment_id) -> Bundle:
    """The bundle of one registered assignment of the course at `root`. A process that
    grades again (`serve`) reuses the one it made while the files and the gradebook's master
    cells it was made of are the same: the gradebook of one's own takes some 80 ms to make,
    most of a warm grade's time before its kernel starts."""
    folder = assignments_folder(root)
    files = {CONFIG: (root / CONFIG).read_bytes()}
    files |= {f"assignments/{path.name}": path.read_bytes()  # the course's shared modules
              for path in sorted(folder.glob("*.py"))}
    files |= read_files(folder / assignment_id, f"assignments/{assignment_id}/")
    earlier = record_path(root, assignment_id)  # the cells of its releases before this one
    if earlier.is_file():
        files[earlier.relative_to(root).as_posix()] = earlier.read_bytes()
    stages = {}
    for stage in ("source", "release"):
        folder = root / stage / assignment_id
        if folder.is_dir():
            stages |= read_files(folder, f"{stage}/{assignment_id}/")
    with open_gradebook(root) as course:
        master = master_of(course, assignment_id)
        made_of = (digest_of(files | stages), repr(master))
        kept = _made.get((root, assignment_id))
        if kept is not None and kept[0] == made_of:
            return kept[1]
        with tempfile.TemporaryDirectory(prefix="kit-bundle-") as scratch:
            path = Path(scratch) / GRADEBOOK
            with empty_gradebook(course, path) as gradebook:
                copy_master_cells(master, gradebook, assignment_id)
            files[GRADEBOOK] = path.read_bytes()
    files |= stages
    bundle = Bundle(assignment_id, files, digest_of(files))
    _made[(root, assignment_id)] = (made_of, bundle)
    mark(f"bundle: {assignment_id} made")
    return bundle


SCORE_COLUMNS = ("auto_score", "manual_score", "extra_credit", "needs_manual_grade")
COMMENT_COLUMNS = ("auto_comment", "manual_comment")


def scores_of(root: Path, assignment_id, students) -> dict:
    """{student: their submission of the assignment in the course's gradebook, as data
    (scores_in)}, read in one session of the gradebook: a class's pages opened it once a
    page, 30 ms each, in the process that writes every page back."""
    with open_gradebook(root) as course:
        return class_scores(course, assignment_id, students)


def scores_in(gradebook: Gradebook, assignment_id, student) -> dict:
    """One student's submission of the assignment in `gradebook`, as data: its time and
    extension, and for each notebook its flag, its late penalty, every grade's scores and
    every comment, automatic and manual (a TA's too), and what its feedback page shows
    (`shown`: given_grades.py). MissingEntry when the student has none."""
    return class_scores(gradebook, assignment_id, [student])[student]


SCORES_AT_ONCE = 500  # students a query names (SQLite's bound parameters are limited)


def class_scores(gradebook: Gradebook, assignment_id, students) -> dict:
    """{student: scores_in's data} for every one of `students`, each value by nbgrader's own
    column expressions, read in four queries per SCORES_AT_ONCE students (submissions,
    notebooks, grades, comments): read through each object's relations, a student took
    about twenty, 38 ms, in the process that then writes every page back. MissingEntry
    names a student without a submission, as nbgrader's find_submission does."""
    found = {}
    students = list(dict.fromkeys(students))
    for start in range(0, len(students), SCORES_AT_ONCE):
        found |= _scores_of_some(gradebook, assignment_id, students[start:start + SCORES_AT_ONCE])
    missing = [student for student in students if student not in found]
    if missing:
        raise MissingEntry(f"No such submission: {assignment_id} for {missing[0]}")
    return found


def _scores_of_some(gradebook: Gradebook, assignment_id, students) -> dict:
    db = gradebook.db
    submissions = (db.query(SubmittedAssignment)
                   .join(Assignment, Assignment.id == SubmittedAssignment.assignment_id)
                   .filter(Assignment.name == assignment_id,
                           SubmittedAssignment.student_id.in_(students)).all())
    notebooks = (db.query(SubmittedNotebook)
                 .options(undefer(SubmittedNotebook.score),
                          undefer(SubmittedNotebook.max_score),
                          joinedload(SubmittedNotebook.notebook))
                 .filter(SubmittedNotebook.assignment_id.in_([s.id for s in submissions]))
                 .all()) if submissions else []
    ids = [notebook.id for notebook in notebooks]
    grades, comments = {}, {}
    if ids:
        for grade in (db.query(Grade).options(undefer(Grade.max_score), joinedload(Grade.cell))
                      .filter(Grade.notebook_id.in_(ids)).order_by(Grade.id)):
            grades.setdefault(grade.notebook_id, []).append(grade)
        for comment in (db.query(Comment).options(joinedload(Comment.cell))
                        .filter(Comment.notebook_id.in_(ids)).order_by(Comment.id)):
            comments.setdefault(comment.notebook_id, []).append(comment)
    of_submission = {}
    for notebook in notebooks:
        of_submission.setdefault(notebook.assignment_id, []).append(notebook)
    return {submitted.student_id: {
        "timestamp": submitted.timestamp, "extension": submitted.extension,
        "notebooks": {notebook.name: notebook_scores(notebook, grades.get(notebook.id, []),
                                                     comments.get(notebook.id, []))
                      for notebook in of_submission.get(submitted.id, [])}}
        for submitted in submissions}


def notebook_scores(notebook, grades, comments) -> dict:
    """One submitted notebook of scores_in, from its `grades` and `comments` as read with it,
    for what it holds and what its page shows."""
    return {"flagged": notebook.flagged,
            "late_submission_penalty": notebook.late_submission_penalty,
            "grades": {grade.name: {column: getattr(grade, column) for column in SCORE_COLUMNS}
                       for grade in grades},
            "comments": {comment.name: {column: getattr(comment, column)
                                        for column in COMMENT_COLUMNS}
                         for comment in comments},
            "shown": shown_in(notebook, grades, comments)}


def shown_in(notebook, grades, comments) -> dict:
    """What a feedback page of the submitted `notebook` (its `grades` and `comments`) shows,
    as nbgrader's GetGrades reads it from the gradebook, each value by nbgrader's own
    expression: the notebook's score, its points and late penalty, each grade's score and
    points, each comment."""
    return {"score": notebook.score, "max_score": notebook.max_score,
            "late_penalty": notebook.late_submission_penalty,
            "grades": {grade.name: (grade.score, grade.max_score) for grade in grades},
            "comments": {comment.name: comment.comment for comment in comments}}


def write_scores(into: Gradebook, assignment_id, student, scores: dict):
    """Add the submission `scores` (scores_of) describes to a gradebook that has the
    assignment's cells (a bundle's). A grade or comment the gradebook has no cell for raises
    MissingEntry, as nbgrader's lookups do."""
    with quiet_gradebook():
        into.update_or_create_student(student)
        into.update_or_create_submission(assignment_id, student,
                                         timestamp=scores["timestamp"],
                                         extension=scores["extension"])
        for name, notebook in scores["notebooks"].items():
            target = into.find_submission_notebook(name, assignment_id, student)
            target.flagged = notebook["flagged"]
            target.late_submission_penalty = notebook["late_submission_penalty"]
            for kind, rows in (("grades", target.grades), ("comments", target.comments)):
                by_name = {row.name: row for row in rows}
                for cell, columns in notebook[kind].items():
                    if cell not in by_name:
                        raise MissingEntry(f"no cell {cell} of {name} in this gradebook")
                    for column, value in columns.items():
                        setattr(by_name[cell], column, value)
        into.db.commit()


def graded_submission(root: Path, assignment_id, student) -> Submission:
    """What a feedback page is made of besides its scores: the student's autograded folder
    as grading wrote it: its notebook and the files of the student's that grading copied
    from submitted/. A file a TA put beside them there (kept across regrades,
    plumbing/files_beside.py), or in submitted/ since the student's were collected
    (course/handed_in.py), stays out: nbgrader copies the folder into the page's, which
    students may be given."""
    handed_in = root / "submitted" / student / assignment_id
    theirs = students_files(root, assignment_id, student)
    files = read_files(root / "autograded" / student / assignment_id)
    return Submission(student, assignment_id, {
        f"autograded/{student}/{assignment_id}/{name}": data for name, data in files.items()
        if name == f"{assignment_id}.ipynb" or (handed_in / name).is_file() and (
            theirs is None or name in theirs or name in COLLECT_WRITES)})


def submission_of(root: Path, student, assignment_id, draw_key=b"") -> Submission:
    return Submission(student, assignment_id,
                      read_files(root / "submitted" / student / assignment_id), draw_key.hex())


def replace_folder(folder: Path, files: dict):
    """Make `folder` hold `files` ({relative path: bytes}) and the files of the old folder
    that none of them replaces (a TA's notes: files_beside.py); the old content goes only once
    the new one is complete, so an interruption never leaves half of each."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    # mkdtemp's 0700 would keep the course's TA group out: the folder takes its parent's mode
    fresh.chmod(stat.S_IMODE(folder.parent.stat().st_mode))
    for name, data in files.items():
        path = fresh / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    carry(folder, fresh)
    old = folder.with_name(f".{folder.name}-old-{os.getpid()}")
    if folder.exists():
        folder.rename(old)
    fresh.rename(folder)
    shutil.rmtree(old, ignore_errors=True)
