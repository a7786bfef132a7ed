"""What a student handed in: the files a collect put in submitted/<student>/<id>/, recorded as
it puts them, before a TA's files kept from the copy before are carried back beside them
(`.kit/handed-in/<id>/<student>.json`: each file's path in the folder and its digest).

A file of that folder the record does not name (a TA's notes, put there since) is not the
student's: it stays out of the feedback folder students may be given (engine/bundle.py,
`graded_submission`). A folder the record no longer describes (its notebook is not the one
recorded: placed by hand or by nbgrader's own collect since) and a folder without a record
are taken whole: nothing tells a TA's file from the student's there.
"""

from __future__ import annotations

import json
from pathlib import Path

from autograder.course.directory import write_atomically
from autograder.course.ledger import FOLDER, digest
from autograder.plumbing.files_beside import files_beside

# what a collect writes beside the student's files itself (nbgrader's exchange and the kit's
# stamp the time of the submission and a secret; release_feedback reads both from the page's
# folder to name the page), taken as before whatever the record says
COLLECT_WRITES = {"timestamp.txt", "submission_secret.txt"}


def record_path(root: Path, assignment_id, student) -> Path:
    return root / FOLDER / "handed-in" / assignment_id / f"{student}.json"


def record(root: Path, assignment_id, student, folder: Path):
    """Record the files `folder` (the student's in submitted/) holds now, as the student's."""
    files = {relative.as_posix(): digest(folder / relative)
             for relative in files_beside(folder) if (folder / relative).is_file()}
    write_atomically(record_path(root, assignment_id, student),
                     json.dumps(files, indent=1, sort_keys=True))


def students_files(root: Path, assignment_id, student) -> set[str] | None:
    """The paths in submitted/<student>/<id>/ that the student handed in, or None where that
    cannot be told (no record, or one whose notebook is not the folder's now)."""
    try:
        files = json.loads(record_path(root, assignment_id, student).read_text())
    except (OSError, ValueError):
        return None
    notebook = root / "submitted" / student / assignment_id / f"{assignment_id}.ipynb"
    if not isinstance(files, dict) or not notebook.is_file() or \
            files.get(notebook.name) != digest(notebook):
        return None
    return set(files)
