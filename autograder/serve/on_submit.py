"""Feedback on submit: while `serve` runs, each submission of an assignment the instructor
turned on is collected, graded and its feedback released as it lands in the exchange.

For each new folder in the exchange's inbound/ (inbound.py), once (record.py):
- a student's earlier submission that a later one overtook before it was taken: superseded;
- a student whose submission of the assignment a TA graded by hand: left in the exchange for
  the instructor (nothing is collected over it; collect and grade keep a TA's scores anyway);
- a submission the gradebook holds graded already (the instructor's collect and grade took
  it, as when serve starts mid-week without its record): not graded again nor counted;
- past the day's graded submissions (c.FeedbackOnSubmit.per_day): left in the exchange, for
  the instructor's own collect and grade; the feedback of the last one graded said so;
- else nbgrader's collect of that very submission (collect_one.py), the kit's grade and
  feedback of that one notebook (on the engine `serve` keeps warm, in the sandbox `grade`
  uses, refused rather than weakened), and nbgrader's release_feedback, which the student's
  `nbgrader fetch_feedback` finds. Every outcome is a line on the console.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

from nbgrader.api import MissingEntry
from traitlets import Float, Integer, List, Unicode
from traitlets.config import Configurable

from autograder.course.config_file import as_nbgrader_reads
from autograder.course.directory import (
    api_checked,
    api_warnings,
    course_config,
    course_ids,
    nbgrader_api,
    open_gradebook,
)
from autograder.course.ids import STUDENT_ID
from autograder.course.ledger import CourseBusy
from autograder.i18n import os_reason, t
from autograder.plumbing.errors import KitError
from autograder.serve.collect_one import collect_one, why_not_usable
from autograder.serve.inbound import (
    being_written,
    handed_in,
    inbound_folder,
    submitted_at,
    why_home_open,
    why_not_taken,
    why_not_theirs,
)
from autograder.serve.record import (
    GRADED_BEFORE,
    GRADING,
    KEPT_FOR_TA,
    NOT_GRADED,
    OVER_LIMIT,
    REFUSED,
    RELEASED,
    SUPERSEDED,
    Record,
)
from autograder.serve.refusal_notice import release_notice


class FeedbackOnSubmit(Configurable):
    """Which assignments `serve` grades as they are handed in (nbgrader_config.py:
    c.FeedbackOnSubmit....)."""

    assignments = List(Unicode(), help="assignments graded as students submit them through "
                       "nbgrader's exchange, while `python -m autograder serve` runs; their "
                       "feedback is released at once").tag(config=True)
    per_day = Integer(5, help="graded submissions a student gets per assignment and day (the "
                      "machine's day); later ones that day stay in the exchange for your own "
                      "collect and grade; 0: no limit").tag(config=True)
    interval = Float(1.0, help="seconds between two looks at the exchange's inbound folder"
                     ).tag(config=True)
    max_notebook_mb = Float(8.0, help="the largest notebook taken from the exchange, in MB; "
                            "a larger one is refused and stays there (a notebook of the kit's "
                            "assignments is some 100 KB with its outputs); 0: any size"
                            ).tag(config=True)


class ServeError(KitError, RuntimeError):
    """`serve` cannot start: the message says why and what to set."""


def today() -> str:
    """The machine's day (YYYY-MM-DD): a submission counts on the day it is taken (its own
    time is the student's to write)."""
    return time.strftime("%Y-%m-%d")


def clock():
    return time.strftime("%H:%M:%S")


def in_gradebook(root: Path, handed, zone="UTC") -> tuple[bool, bool]:
    """What the gradebook holds of the student's submission of the assignment: (whether a
    TA set a score or wrote a comment on it, whether it is this very submission, its time
    the folder's: collect and grade took it before serve did)."""
    with open_gradebook(root) as gradebook:
        try:
            submission = gradebook.find_submission(handed.assignment, handed.student)
        except MissingEntry:
            return False, False
        by_hand = any(grade.manual_score is not None for notebook in submission.notebooks
                      for grade in notebook.grades) or any(
            comment.manual_comment for notebook in submission.notebooks
            for comment in notebook.comments)
        return by_hand, submission.timestamp == submitted_at(handed, zone).replace(tzinfo=None)


class OnSubmit:
    """One course's feedback on submit: `look()` takes what is new in the exchange."""

    def __init__(self, root: Path, say=print, lock=None):
        self.root, self.say = root, say
        self.lock = lock or contextlib.nullcontext()  # held while one submission is taken
        config = course_config(root)
        self.settings = FeedbackOnSubmit(config=config)
        exchange = as_nbgrader_reads(root)  # as the students' nbgrader reads it
        self.inbound = inbound_folder(exchange)
        self.record = Record(root)
        self.waiting = False
        self.not_graded = 0  # submissions this run could not grade (the console said why)
        self.homes_looked_at = set()  # students whose home this run looked at
        self.check_owner = exchange.ExchangeCollect.get("check_owner", True)
        self.zone = exchange.Exchange.get("timezone", "UTC")  # of the times submit writes
        self.groupshared = exchange.CourseDirectory.get("groupshared", False)
        if self.settings.per_day < 0 or self.settings.interval <= 0:
            raise ServeError(t("c.FeedbackOnSubmit.per_day must be 0 (no limit) or more, and "
                               "c.FeedbackOnSubmit.interval more than 0 seconds (they are "
                               "{per_day} and {interval})", per_day=self.settings.per_day,
                               interval=self.settings.interval))
        unknown = sorted(set(self.settings.assignments) - set(course_ids(root)))
        if unknown:
            raise ServeError(t("c.FeedbackOnSubmit.assignments names {ids}, not assignments "
                               "of this course ({known})", ids=", ".join(unknown),
                               known=", ".join(course_ids(root))))
        unusable = why_not_usable(nbgrader_api(root))
        if unusable:
            raise ServeError(t("feedback on submit cannot collect one submission at a time "
                               "here: {why}", why=unusable))
        if self.inbound is None or not self.inbound.is_dir():
            raise ServeError(t("no exchange inbound folder to watch ({folder}): set "
                               "c.Exchange.root and c.CourseDirectory.course_id in "
                               "nbgrader_config.py, and release an assignment first "
                               "(nbgrader release_assignment ID)",
                               folder=self.inbound or t("not configured")))
        if not self.record.found and handed_in(self.inbound, set(self.settings.assignments)):
            say(t("no record of earlier submissions ({path}): every student's latest "
                  "submission in the exchange is taken now, except where the gradebook holds it "
                  "graded already", path=self.record.path))

    def look(self):
        """Take every submission not finished yet; returns how many were taken."""
        new = [h for h in handed_in(self.inbound, set(self.settings.assignments))
               if self.record.state(h.name) == GRADING or self.record.state(h.name) is None
               and not self.being_submitted(h)]
        for handed in [h for h in new if self.record.state(h.name) is None]:
            if self.refused(handed):
                new.remove(handed)
        for handed in new:
            self.warn_of_open_home(handed)
        latest = {(h.student, h.assignment): h for h in new}  # oldest first: the last wins
        for handed in new:
            if latest[(handed.student, handed.assignment)] is not handed:
                self.record.set(handed, today(), SUPERSEDED)
                self.tell(handed, t("a later submission came before this one was graded; "
                                    "the later one is graded"))
        taken = 0
        for handed in latest.values():
            try:
                with self.lock:
                    taken += self.take(handed)
            except CourseBusy as busy:
                if not self.waiting:
                    self.say(t("{time} waiting: {why}", time=clock(), why=busy))
                self.waiting = True
                return taken
            except KitError as error:
                self.record.set(handed, today(), NOT_GRADED)
                self.not_graded += 1
                self.tell(handed, t("not graded: {why}", why=error))
        self.waiting = False
        return taken

    def warn_of_open_home(self, handed):
        """Say once a run, for a student whose home classmates can enter, why and the fix."""
        if not self.check_owner or handed.student in self.homes_looked_at:
            return
        self.homes_looked_at.add(handed.student)
        why = why_home_open(handed.student)
        if why:
            self.tell(handed, t("warning: {message}", message=why))

    def being_graded(self) -> list[str]:
        """'student assignment' of each submission taken and not finished."""
        return [f"{entry['student']} {entry['assignment']}" for entry in
                self.record.entries.values() if entry["state"] == GRADING]

    def being_submitted(self, handed) -> bool:
        """Whether the student's own nbgrader submit may still be writing `handed`: it is
        looked at again next time (a folder not theirs is refused at once)."""
        return being_written(self.inbound / handed.name) and not why_not_theirs(
            self.inbound, handed, self.check_owner, self.zone)

    def refused(self, handed) -> bool:
        """Whether `handed` is refused at intake (inbound.py): said on the console, and where
        the folder is the student's own, in a notice their fetch_feedback finds."""
        why = why_not_theirs(self.inbound, handed, self.check_owner, self.zone)
        notice = ""
        if not why:
            why = why_not_taken(self.inbound / handed.name, handed,
                                self.settings.max_notebook_mb)
            notice = self.notify(handed, why) if why else ""
        if why:
            self.record.set(handed, today(), REFUSED)
            self.tell(handed, t("refused, not collected: {why}", why=why) + notice)
        return bool(why)

    def notify(self, handed, why) -> str:
        """Release the student's notice of a refusal; what the console adds about it."""
        try:
            release_notice(self.inbound.parent, self.inbound, handed, why, self.groupshared)
        except OSError as error:
            return t("; the student gets no notice of it ({error})",
                     error=os_reason(error))
        return t("; the student's feedback says so (nbgrader fetch_feedback)")

    def take(self, handed) -> int:
        again = self.record.state(handed.name) == GRADING  # taken before a restart
        day = self.record.entries[handed.name]["day"] if again else today()
        limit = self.settings.per_day
        by_hand, graded_before = in_gradebook(self.root, handed, self.zone)
        if by_hand:
            self.record.set(handed, day, KEPT_FOR_TA)
            self.tell(handed, t("not graded: a TA graded this assignment by hand for this "
                                "student; it stays in the exchange for your collect and "
                                "grade, which keep the TA's scores"))
            return 0
        if graded_before and not again:
            self.record.set(handed, day, GRADED_BEFORE)
            self.tell(handed, t("not graded again: collect and grade took this very "
                                "submission before serve did; its scores stand, and its "
                                "feedback is what feedback and release_feedback give"))
            return 0
        used = self.record.used(handed.student, handed.assignment, day) - again
        if limit and used >= limit:
            self.record.set(handed, day, OVER_LIMIT)
            self.tell(handed, t("not graded now: {limit} graded submissions today already; "
                                "it stays in the exchange for your collect and grade",
                                limit=limit))
            return 0
        started = time.monotonic()
        self.record.set(handed, day, GRADING)
        score, points = self.grade(handed, self.note(used + 1, limit))
        self.record.set(handed, day, RELEASED)
        self.tell(handed, t("graded, {score:g} of {points:g} points, feedback released in "
                            "{seconds:.1f} s{count}{again}", score=score, points=points,
                            seconds=time.monotonic() - started,
                            again=t("; it was being graded when serve stopped") if again
                            else "",
                            count=t(" ({number} of {limit} today)", number=used + 1,
                                    limit=limit) if limit else ""))
        return 1

    def grade(self, handed, note):
        """Collect, grade, write and release the feedback of one submission."""
        from autograder.grading.parallel import grade
        from autograder.outputs.feedback import write_feedback

        api = nbgrader_api(self.root)
        self.relay(handed, api_checked(collect_one(api, handed),
                                       f"collect {handed.assignment} ({handed.name})",
                                       self.root))
        lines = []
        # forced: the collected copy is this submission even where its notebook is the one
        # graded before (a second Submit), so its time and its page are this one's
        run = grade(self.root, [handed.assignment], students=[handed.student], force=True,
                    log=lines.append)
        if not run.graded:
            raise ServeError("; ".join(lines) or t("nothing was graded"))
        write_feedback(self.root, [handed.assignment], [handed.student], log=lines.append,
                       notes={handed.student: note})
        self.relay(handed, api_checked(
            api.release_feedback(handed.assignment, handed.student),
            f"release_feedback {handed.assignment} --student {handed.student}", self.root))
        with open_gradebook(self.root) as gradebook:
            submission = gradebook.find_submission(handed.assignment, handed.student)
            return submission.score, submission.max_score

    def relay(self, handed, result):
        """Say on the console what nbgrader warned of in one of its commands."""
        for warning in api_warnings(result):
            self.tell(handed, t("nbgrader said {warning}", warning=warning))

    def note(self, number, limit):
        """The line that opens the student's feedback page."""
        if not limit:
            return t("Graded as you handed it in.")
        return t("Graded as you handed it in: submission {number} of the {limit} graded each "
                 "day for this assignment.", number=number, limit=limit) + (
            t(" Later submissions today are kept for the instructor's grading.")
            if number >= limit else "")

    def tell(self, handed, what):
        student = handed.student if STUDENT_ID.match(handed.student) else repr(handed.student)
        self.say(t("{time} {student} {assignment}: {what}", time=clock(), student=student,
                   assignment=handed.assignment, what=what))
