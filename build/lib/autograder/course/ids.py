"""Which assignments a course can grade, and the check of the ids a command is given: light
enough (no nbgrader, no torch) that a wrong id is refused before a command imports what it
needs."""

from __future__ import annotations

from pathlib import Path

from autograder.i18n import t
from autograder.plumbing.errors import KitError


class UnknownAssignment(KitError, ValueError):
    """An assignment id the course does not have; the message lists the ids it has."""


def course_ids(root: Path) -> list[str]:
    """The assignments a course can grade: its master notebooks in source/."""
    return sorted(p.name for p in (root / "source").glob("[0-9][0-9]_*") if p.is_dir())


def check_ids(ids, known):
    """The ids asked for (all known ones when none), or UnknownAssignment naming the known."""
    unknown = [i for i in ids if i not in known]
    if unknown:
        if not known:
            raise UnknownAssignment(t(
                "unknown assignment id {id!r}: this course has no assignment yet; write one "
                "with `python -m autograder new {id}`, then build it", id=unknown[0]))
        raise UnknownAssignment(t("unknown assignment id {id!r}: the ids are {known}",
                                  id=unknown[0], known=", ".join(known)))
    return list(ids) or list(known)
