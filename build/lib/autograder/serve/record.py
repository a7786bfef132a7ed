"""What became of each submission `serve` has taken from the exchange: `.kit/on_submit.json`,
written whole and atomically after every change, so that a restart (a crash, a reboot) goes
on from it: a submission taken but not finished ("grading") is done again, one finished is
never graded again, and each counts once against its student's limit."""

from __future__ import annotations

import json
from pathlib import Path

from autograder.course.directory import write_atomically
from autograder.course.ledger import FOLDER
from autograder.i18n import t
from autograder.plumbing.errors import KitError

GRADING = "grading"  # taken: collected and being graded; done again after a restart
RELEASED = "released"  # graded, its feedback in the exchange for the student
NOT_GRADED = "not graded"  # the kit could not grade it (the console said why)
SUPERSEDED = "superseded"  # a later submission of the same student came before it was taken
OVER_LIMIT = "over the limit"  # past the student's graded submissions of the day
KEPT_FOR_TA = "kept for the TA"  # the assignment was graded by hand for this student
REFUSED = "refused"  # not what nbgrader's submit makes (inbound.why_refused): never collected
GRADED_BEFORE = "graded before"  # collect and grade took this very submission before serve
COUNTED = (GRADING, RELEASED, NOT_GRADED)  # what uses one of the day's graded submissions


class Record:
    """{inbound name: {"student", "assignment", "day", "state"}}, kept in the course."""

    def __init__(self, root: Path):
        self.path = root / FOLDER / "on_submit.json"
        self.found = self.path.exists()
        self.entries = read_entries(self.path) if self.found else {}

    def state(self, name):
        return self.entries.get(name, {}).get("state")

    def set(self, handed, day, state):
        self.entries[handed.name] = {"student": handed.student,
                                     "assignment": handed.assignment, "day": day,
                                     "state": state}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(self.path, json.dumps(self.entries, indent=1, sort_keys=True) + "\n")

    def used(self, student, assignment, day):
        """How many of the student's submissions of the assignment were graded on `day`."""
        return sum(1 for entry in self.entries.values()
                   if (entry["student"], entry["assignment"], entry["day"]) ==
                   (student, assignment, day) and entry["state"] in COUNTED)


class RecordError(KitError, ValueError):
    """The record cannot be read: the message names the file and the way out."""


def read_entries(path: Path) -> dict:
    """The record's entries; RecordError when the file is not one serve wrote."""
    try:
        entries = json.loads(path.read_text("utf-8"))
        if not isinstance(entries, dict) or not all(
                isinstance(entry, dict) and {"student", "assignment", "day", "state"} <= set(entry)
                for entry in entries.values()):
            raise ValueError("not serve's record")
    except (OSError, ValueError) as error:
        raise RecordError(t("{path} cannot be read ({error}): put back the copy you have, or "
                            "move it aside to start afresh (every student's latest submission "
                            "in the exchange is then taken again, and the day's counts start "
                            "at 0)", path=path, error=error)) from None
    return entries
