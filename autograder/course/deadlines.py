"""Due dates, extensions and the late penalty, declared in nbgrader_config.py.

nbgrader computes lateness from the gradebook: the assignment's due date, the student's
extension and the time the submission was handed in (timestamp.txt, written by the exchange
at submit or by the kit's collect). `Deadlines` writes the configured dates into the gradebook
just before nbgrader's AssignLatePenalties reads them, so plain `nbgrader autograde` and the
kit's `grade` apply the same rule; `PercentPerDay` is the late-penalty plugin. `Lateness` is
what a graded submission's lateness cost, as grade, the export and the report say it.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import warnings
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from dateutil import parser as tz_parser
from dateutil import tz
from nbgrader.api import Gradebook
from nbgrader.plugins import LateSubmissionPlugin
from nbgrader.preprocessors import NbGraderPreprocessor
from nbgrader.utils import parse_utc
from traitlets import Dict, Float

from autograder.i18n import counted, t
from autograder.plumbing.errors import KitError

EXAMPLE = "'2026-12-04 23:59:00 Europe/Berlin'"


class DeadlineError(KitError, ValueError):
    pass


def handed_in_at(text: str):
    """The time a submission's timestamp.txt gives (`text`), aware in UTC, as nbgrader reads
    it; None where it gives none."""
    try:
        return parse_utc(text.strip()).replace(tzinfo=UTC)
    except (ValueError, OverflowError):  # dateutil's ParserError is a ValueError
        return None


def submitted_time(folder: Path):
    """When the submission in `folder` was handed in (its timestamp.txt), aware in UTC; None
    where it says no time."""
    try:
        return handed_in_at((folder / "timestamp.txt").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return None


# A zone written after the time as an offset: +08:00, +0800, -05 (nbgrader's parse_utc
# reads a bare number there as seconds: "+0800" was 13 minutes 20 seconds)
OFFSET = re.compile(r"[+-]\d{2}(:?\d{2})?")


def due_date(assignment_id, text):
    """The configured due date as nbgrader stores it (naive UTC). A zone the kit does not
    know (`Asia/Beijing`, `CST`, `+08:00` after a space) is refused: nbgrader's parse_utc
    reads the time as UTC then, without a word."""
    try:
        return parsed_zone_known(text)
    except (ValueError, OverflowError, TypeError) as error:
        raise DeadlineError(t("c.Deadlines.due_dates[{id!r}] = {value!r} is not a date "
                              "({error}); write it as {example}", id=assignment_id, value=text,
                              error=error, example=EXAMPLE)) from error


def parsed_zone_known(text):
    """parse_utc's time of `text`, where the zone it names is one it understands."""
    parts = text.split() if isinstance(text, str) else []
    if len(parts) == 3:  # date, time, zone: parse_utc looks the zone up, None where unknown
        zone = parts[2]
        if OFFSET.fullmatch(zone):
            return parse_utc(" ".join(parts[:2]) + zone)
        if zone.upper() in ("Z", "UTC", "GMT"):
            return parse_utc(" ".join(parts[:2]))
        if zone.lstrip("+-").isdigit() or tz.gettz(zone) is None:
            raise unknown_zone(zone)
    with warnings.catch_warnings():  # a zone inside the text dateutil cannot read
        warnings.simplefilter("error", tz_parser.UnknownTimezoneWarning)
        try:
            return parse_utc(text)
        except tz_parser.UnknownTimezoneWarning:
            raise unknown_zone(parts[-1]) from None


def unknown_zone(zone):
    return ValueError(t("its time zone {zone!r} is not one the kit knows: name one of the tz "
                        "database (Asia/Shanghai) or an offset (+08:00)", zone=zone))


def check_deadlines(config, known_ids, removed_ids=()):
    """Every configured due date parses and every configured id is an assignment (or one
    `remove` took out, whose entry it told the instructor to delete): a clear error before
    grading starts instead of a failure in every notebook."""
    deadlines = Deadlines(config=config)
    named = set(deadlines.due_dates) | set(deadlines.extension_hours)
    unknown = sorted(named - set(known_ids) - set(removed_ids))
    if unknown:
        raise DeadlineError(t("c.Deadlines in nbgrader_config.py names {unknown}, not an "
                              "assignment of the course ({known}): correct the id, or delete "
                              "its entry", unknown=", ".join(unknown),
                              known=", ".join(known_ids)))
    for assignment_id, text in deadlines.due_dates.items():
        due_date(assignment_id, text)
    for assignment_id, hours in deadlines.extension_hours.items():
        if not isinstance(hours, dict) or not all(
                isinstance(h, int | float) and h >= 0 for h in hours.values()):
            raise DeadlineError(t("c.Deadlines.extension_hours[{id!r}] must map student ids "
                                  "to hours (a number >= 0), e.g. {example}", id=assignment_id,
                                  example="{'ada': 48}"))
    check_penalty(PercentPerDay(config=config))


def check_penalty(penalty):
    """The late penalty's settings are within their sense: a percent a day from 0 to 100 (150
    took everything on the first day, a negative one added points), grace minutes >= 0."""
    if not 0 <= penalty.percent_per_day <= 100:
        raise DeadlineError(t("c.PercentPerDay.percent_per_day is {value:g}: a percent of the "
                              "score lost per day late must be from 0 to 100 (0: no penalty)",
                              value=penalty.percent_per_day))
    if penalty.grace_minutes < 0:
        raise DeadlineError(t("c.PercentPerDay.grace_minutes is {value:g}: minutes of grace "
                              "must be 0 or more", value=penalty.grace_minutes))


class Deadlines(NbGraderPreprocessor):
    """Autograde stage, just before nbgrader's AssignLatePenalties: the assignment's due date
    and the student's extension, as nbgrader_config.py declares them, go into the gradebook.

    An assignment or a student the configuration does not name keeps what the gradebook has
    (a due date set with `nbgrader db assignment add ID --duedate=...`, an extension given
    with nbgrader's `Gradebook.grant_extension`)."""

    due_dates = Dict(help="{assignment id: due date}, e.g. {'01_attention_by_hand': "
                     f"{EXAMPLE}}}; a time without a zone is UTC").tag(config=True)
    extension_hours = Dict(help="{assignment id: {student id: hours}}: a student's extension "
                           "past the due date, e.g. {'01_attention_by_hand': {'ada': 48}}"
                           ).tag(config=True)

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        assignment_id, student = info["assignment"], info["student"]
        with Gradebook(info["db_url"]) as gradebook:
            if assignment_id in self.due_dates:
                due = due_date(assignment_id, self.due_dates[assignment_id])
                assignment = gradebook.find_assignment(assignment_id)
                if assignment.duedate != due:
                    assignment.duedate = due
                    gradebook.db.commit()
            hours = self.extension_hours.get(assignment_id, {}).get(student)
            if hours is not None:
                submission = gradebook.find_submission(assignment_id, student)
                extension = timedelta(hours=hours) if hours else None
                if submission.extension != extension:
                    submission.extension = extension
                    gradebook.db.commit()
        return nb, resources


class PercentPerDay(LateSubmissionPlugin):
    """nbgrader's late-penalty plugin for the course: each day late, started, costs
    `percent_per_day` percent of the notebook's score, up to all of it. Late means after the
    due date plus the student's extension plus `grace_minutes`."""

    percent_per_day = Float(10.0, help="percent of the score lost per started day late"
                            ).tag(config=True)
    grace_minutes = Float(0.0, help="minutes past the due date that do not count as late "
                          "(an upload that takes a while)").tag(config=True)

    def late_submission_penalty(self, student_id, score, total_seconds_late):
        late = total_seconds_late - self.grace_minutes * 60
        if late <= 0:
            return 0.0
        days = math.ceil(late / 86400)
        return score * min(1.0, days * self.percent_per_day / 100)


def late_terms(config, assignment_id, student) -> str:
    """A digest of what decides the student's late penalty for the assignment: its due date,
    their extension, the grace minutes and the percent a day (nbgrader_config.py). Grading
    records it (course/ledger.py's status: `terms`); a grade that leaves graded notebooks as
    they are compares it with the config now, so that a date set or moved after grading is
    said, not left in the grades in silence."""
    deadlines, penalty = Deadlines(config=config), PercentPerDay(config=config)
    terms = [deadlines.due_dates.get(assignment_id),
             deadlines.extension_hours.get(assignment_id, {}).get(student, 0),
             penalty.grace_minutes, penalty.percent_per_day]
    return hashlib.sha256(json.dumps(terms, default=str).encode()).hexdigest()[:16]


def time_late(config, assignment_id, student, handed_in):
    """How long after its deadline (due date and the student's extension, as nbgrader counts
    seconds late; the grace minutes of nbgrader_config.py only waive the penalty) a notebook
    handed in at `handed_in` (a time with its zone) came; None when it is on time or the
    course sets no due date for the assignment."""
    deadlines = Deadlines(config=config)
    if assignment_id not in deadlines.due_dates:
        return None
    deadline = (due_date(assignment_id, deadlines.due_dates[assignment_id])
                + timedelta(hours=deadlines.extension_hours.get(assignment_id, {})
                            .get(student, 0)))
    late = handed_in.astimezone(UTC).replace(tzinfo=None) - deadline
    return late if late > timedelta(0) else None


@dataclass(frozen=True)
class Lateness:
    """When a submission was handed in against when it was due (naive UTC, as nbgrader keeps
    them), and what that cost."""

    timestamp: datetime | None
    due: datetime | None  # the student's own: the assignment's due date plus any extension
    seconds_late: float
    raw_score: float
    penalty: float
    grace_seconds: float = 0.0  # the course's grace minutes: as late as that is not late

    @property
    def is_late(self) -> bool:
        """Past the deadline by more than the grace minutes (what the penalty counts)."""
        return self.seconds_late > self.grace_seconds


def penalised_score(submission):
    """A gradebook submission's score as the student keeps it: nbgrader's raw score, its late
    penalty taken off, never below 0 (what the console, the export and the report all
    show)."""
    return max(0.0, submission.score - (submission.late_submission_penalty or 0.0))


def grace_seconds(config) -> float:
    """The course's grace minutes (nbgrader_config.py), in seconds."""
    return PercentPerDay(config=config).grace_minutes * 60


def lateness(submission, grace=0.0):
    """The Lateness of a gradebook submission, `grace` the course's grace_seconds."""
    return Lateness(submission.timestamp, submission.duedate, submission.total_seconds_late,
                    submission.score, submission.late_submission_penalty or 0.0, grace)


def late_by(late: Lateness) -> str:
    """'1 d 2:00:00' ('1 天 2:00:00' in Chinese): how late, to the second; 'within the grace
    minutes' said where that is all it is."""
    if late.is_late:
        return duration(late.seconds_late)
    return t("{by} (within the grace minutes)", by=duration(late.seconds_late))


def duration(seconds_late) -> str:
    """'1 d 2:00:00' ('1 天 2:00:00' in Chinese): a time to the second."""
    days, seconds = divmod(round(seconds_late), 24 * 3600)
    clock = str(timedelta(seconds=seconds))
    return t("{days} d {clock}", days=days, clock=clock) if days else clock


def late_lines(rows):
    """One line per late submission of [(student, assignment, Lateness)]: who, which
    assignment, by how much, what it cost."""
    return [counted(late.raw_score, "late: {student} {assignment} by {by}, penalty {penalty} "
                    "of {raw} point", "late: {student} {assignment} by {by}, penalty {penalty} "
                    "of {raw} points", student=student, assignment=assignment,
                    by=late_by(late), penalty=f"{late.penalty:g}", raw=f"{late.raw_score:g}")
            for student, assignment, late in rows
            if late is not None and late.seconds_late > 0]
