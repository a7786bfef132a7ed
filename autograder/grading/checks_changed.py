"""Whether the hidden checks a notebook was graded with are its assignment's checks now.

Each grading records a digest of the files grading reads (course/ledger.py's status: its
`checks`); a grade that leaves graded notebooks as they are compares it with the files now,
so that an instructor who mended a check hears which notebooks were graded before the mend.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from autograder.checks.loader import CATALOG, CHECKS, REFERENCE, assignments_folder
from autograder.course.ledger import read_status

GRADING_FILES = (CHECKS, "probes.py", REFERENCE)  # an assignment's, read when it is graded


def checks_digest(root: Path, assignment_id) -> str:
    """A digest of what grading reads of the assignment: its checks, probes and reference,
    and the course's shared modules beside the assignments (its texts' zh.py aside)."""
    folder = assignments_folder(root)
    shared = sorted(p for p in folder.glob("*.py") if p.name != CATALOG)
    digest = hashlib.sha256()
    for path in [*(folder / assignment_id / name for name in GRADING_FILES), *shared]:
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def graded_with_other_checks(root: Path, submissions, digests) -> list:
    """Of `submissions` (graded), those whose grading recorded checks other than `digests`
    ({assignment: checks_digest}); one graded before the kit recorded them is not told."""
    return [s for s in submissions
            if (recorded := (read_status(root, s.student, s.assignment) or {}).get("checks"))
            and recorded != digests[s.assignment]]
