"""Which assignments a course can grade, the check of the ids a command is given, and the
shape of a student's id: light
enough (no nbgrader, no torch) that a wrong id is refused before a command imports what it
needs."""

from __future__ import annotations

import re
from pathlib import Path

from autograder.i18n import t
from autograder.plumbing.errors import KitError


class UnknownAssignment(KitError, ValueError):
    """An assignment id the course does not have; the message lists the ids it has."""


def course_ids(root: Path) -> list[str]:
    """The assignments a course can grade: its master notebooks in source/."""
    return sorted(p.name for p in (root / "source").glob("[0-9][0-9]_*") if p.is_dir())


ID_SHAPE = re.compile(r"^\d\d_[a-z][a-z0-9_]*$")  # as checks/loader.py's ID (checks/ may not
# import course/: tests/autograder/test_layout.py)
# A student id the course can use: a folder name in submitted/, a row of the gradebook
STUDENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


REMOVED = "removed"  # where `remove` keeps an assignment's folders: removed/ID/


def removed_ids(root: Path) -> list[str]:
    """The ids of the assignments `remove` took out, whose folders removed/ keeps."""
    kept = root / REMOVED
    return sorted(p.name for p in kept.iterdir() if p.is_dir()) if kept.is_dir() else []


def without_notebook(assignments: Path) -> list[str]:
    """The folders of an assignments/ folder named as an assignment (NN_words) that hold no
    notebook.py: an assignment that lost its text, which no command builds or grades."""
    if not assignments.is_dir():
        return []
    return sorted(path.name for path in assignments.iterdir()
                  if path.is_dir() and ID_SHAPE.match(path.name)
                  and not (path / "notebook.py").is_file())


def lost_notebook(assignment_id, kit="python -m autograder") -> str:
    """What to say of an assignment folder without its notebook.py, and the fix (`kit`: the
    kit's command as the user types it where they are)."""
    return t("assignments/{id}/ has no notebook.py, so no command can build or grade {id}: put "
             "it back (one of the kit's: `{kit} update {id} --apply --take "
             "assignments/{id}/notebook.py`), or remove the folder", id=assignment_id, kit=kit)


def check_ids(ids, known, lost=()):
    """The ids asked for (all known ones when none), or UnknownAssignment naming the known;
    one of `lost` (without_notebook) is named as such."""
    unknown = [i for i in ids if i not in known]
    if unknown:
        if unknown[0] in lost:
            raise UnknownAssignment(lost_notebook(unknown[0]))
        if not known:
            raise UnknownAssignment(t(
                "unknown assignment id {id!r}: this course has no assignment yet; write one "
                "with `python -m autograder new {id}`, then build it", id=unknown[0]))
        raise UnknownAssignment(t("unknown assignment id {id!r}: the ids are {known}",
                                  id=unknown[0], known=", ".join(known)))
    return list(ids) or list(known)
