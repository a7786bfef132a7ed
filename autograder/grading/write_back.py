"""The client's half of autograde: what a worker graded, written into the course once.

A worker runs nbgrader's autograde in a folder of its own (autograder/engine/worker.py) and
sends back the autograded folder. Here, in the process that owns the course, that folder
replaces autograded/<student>/<id>/, and nbgrader's own stages that write the gradebook
(SaveAutoGrades, the kit's Deadlines, AssignLatePenalties: stages.RECORD, as the course's
c.Autograde.autograde_preprocessors lists them) run on the autograded notebook against the
course's gradebook, SQLite or PostgreSQL. nbgrader's SaveAutoGrades sets automatic scores
and comments only: a TA's manual grade is never touched. A notebook's rows are written in one
transaction (autograder/course/gradebook_engines.py's one_transaction): the gradebook has
all of them or, when writing them failed, none.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
from traitlets.utils.importstring import import_item

from autograder.course.deadlines import submitted_time
from autograder.course.directory import db_url, open_gradebook
from autograder.course.gradebook_engines import one_transaction
from autograder.course.stages import RECORD, stage_names
from autograder.engine.bundle import quiet_gradebook, replace_folder
from autograder.plumbing.files_beside import files_beside


def record_stages(config):
    """The course's autograde stages that write the gradebook, in its order."""
    listed = stage_names(config.Autograde.get("autograde_preprocessors", RECORD))
    return [import_item(name)(config=config) for name in listed if name in RECORD]


def submission_time(root: Path, student, assignment_id):
    """The submission's time, as nbgrader reads it (timestamp.txt of its folder, naive UTC);
    None where the file gives none. grade refused a submission whose file held text that is no
    time (grading/submissions.py); one written since is read as none, not a crash of the
    class (nbgrader's reader raises on it)."""
    when = submitted_time(root / "submitted" / student / assignment_id)
    return None if when is None else when.replace(tzinfo=None)


def drop_graded(folder: Path, copied, notebooks):
    """Remove what grading put in the autograded `folder`: the files of the folders it copies
    there (`copied`: the student's submitted folder, the assignment's source and release), the
    time and the graded `notebooks`; the files of someone else's (a TA's notes) stay, and with
    them the folder."""
    ours = {p.as_posix() for each in copied for p in files_beside(each)} | {"timestamp.txt",
                                                                            *notebooks}
    present = files_beside(folder)
    if all(relative.as_posix() in ours for relative in present):
        shutil.rmtree(folder, ignore_errors=True)
        return
    for relative in present:
        if relative.as_posix() in ours:
            (folder / relative).unlink()


def keep_graded(root: Path, config, graded):
    """Write one worker's result into the course: the student and the submission (as
    nbgrader's autograde makes them before grading), then, when graded, the autograded folder
    and its grades. A notebook that could not be graded leaves no autograded folder, as with
    nbgrader. Its rows are written in one transaction: all of them, or none."""
    with one_transaction(db_url(root)):
        _keep_graded(root, config, graded)


def _keep_graded(root: Path, config, graded):
    student, assignment_id = graded.student, graded.assignment
    timestamp = submission_time(root, student, assignment_id)
    with open_gradebook(root) as gradebook, quiet_gradebook():
        gradebook.update_or_create_student(student)
        gradebook.update_or_create_submission(assignment_id, student,
                                              **({"timestamp": timestamp} if timestamp else {}))
        notebooks = [n.name for n in gradebook.find_assignment(assignment_id).notebooks]
    folder = root / "autograded" / student / assignment_id
    if not graded.ok:  # no autograded notebook, as with nbgrader; a TA's file there stays
        drop_graded(folder, [root / "submitted" / student / assignment_id,
                             root / "source" / assignment_id, root / "release" / assignment_id],
                    {f"{name}.ipynb" for name in notebooks})
        return
    replace_folder(folder, graded.files)
    stages = record_stages(config)
    for name in notebooks:
        path = folder / f"{name}.ipynb"
        if not path.is_file():
            continue
        notebook = nbformat.read(path, as_version=4)
        resources = {"nbgrader": {"db_url": db_url(root), "assignment": assignment_id,
                                  "notebook": name, "student": student}}
        for stage in stages:
            notebook, resources = stage.preprocess(notebook, resources)
