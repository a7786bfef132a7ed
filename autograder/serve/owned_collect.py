"""nbgrader's collect, taking only the folders their student made.

nbgrader's collect takes each student's latest folder in the exchange's inbound/ (by the time
in its name), and where the folder's owner is not the student it only warns ("cheating
attempt?"). inbound/ is writable by every student, so a classmate's folder named
`victim+assignment+<a later time>+x` replaced the victim's submission, and `grade` graded the
classmate's notebook as the victim's. The kit's stages make this class nbgrader's collect
(`c.ExchangeFactory.collect`, autograder/course/stages.py), so `nbgrader collect` in the course
leaves such a folder where it is: the console says which folder and why (inbound.why_not_theirs, as
`serve` decides), and the student's latest folder of their own is collected instead, chosen as
nbgrader chooses (before the due date where --before-duedate asks for it).

The time in a folder's name, and its timestamp.txt, which nbgrader reads the lateness from,
are the student's to write too: a folder made by hand after the due date under an earlier
time, or a notebook edited in the folder after its submit, escaped the late penalty. Such a
folder, and one a submit left half-way (no timestamp.txt: never late), is left in the same
way (inbound.why_not_as_submitted, why_unfinished), with check_owner False as well.

Finding the student's own folders reads each as nbgrader does (`_path_to_record`, its private
code, checked by private_api as for collect_one.py); where that code differs, the forged folder
is still left, and the console says the student's own was not looked for.
"""

from __future__ import annotations

import os
import shutil
from datetime import datetime
from pathlib import Path

from nbgrader.exchange.default.collect import ExchangeCollect

from autograder.i18n import t
from autograder.plumbing import private_api
from autograder.serve.inbound import (
    HandedIn,
    handed_from,
    handed_in,
    in_true_time,
    true_time_written,
    why_not_theirs,
    why_unfinished,
)
from autograder.serve.previous_kept import PreviousKept

PRIVATE_API = "one submission collected"  # the same private code CollectOne leans on
UNREADABLE = "kit_unreadable"  # a record's key: its folder's name gives no time


class OwnedCollect(PreviousKept, ExchangeCollect):
    """ExchangeCollect whose records are folders their student made."""

    def _path_to_record(self, path):
        """nbgrader's record of a folder; one whose name gives no time nbgrader reads (a
        student's `mkdir` of `ben+ID+not a time+x` stopped the whole class's collect with a
        traceback) is a record marked unreadable, the oldest of its student's, never taken.
        Its time is the true one (inbound.in_true_time)."""
        try:
            return in_true_time(super()._path_to_record(path), self.timezone)
        except (ValueError, OverflowError):  # dateutil's ParserError is a ValueError
            name = os.path.basename(path)
            return {"username": name.rsplit("+", 3)[0], "filename": name,
                    "timestamp": datetime.min, UNREADABLE: True}

    def init_src(self):
        super().init_src()
        inbound, assignment_id = Path(self.inbound_path), self.coursedir.assignment_id
        chosen = []
        for record in self.src_records:
            student = record["username"]
            why = t("its name gives no time nbgrader reads") if record.get(UNREADABLE) else \
                self.why_not_collected(inbound, HandedIn(
                    record["filename"], student, assignment_id, record["timestamp"]))
            if not why:
                chosen.append(record)
                continue
            own = self.own_records(inbound, student)
            if own is None:
                what = t("The student's own submissions were not looked for: nbgrader's "
                         "collect differs from what the kit reads.")
            elif own:
                what = t("The student's latest own submission is collected instead.")
                chosen.append(self.latest(own))
            else:
                what = t("The student has no submission of their own there.")
            self.log.error(t("{folder} is not collected: {why}. {what}",
                             folder=record["filename"], why=why, what=what))
        self.src_records = chosen

    def own_records(self, inbound, student):
        """nbgrader's records of the folders `student` made; None when they cannot be read
        as nbgrader reads them."""
        if not private_api.applies(PRIVATE_API):
            return None
        return [self._path_to_record(os.path.join(inbound, h.name))
                for h in handed_in(inbound, {self.coursedir.assignment_id})
                if h.student == student and not self.why_not_collected(inbound, h)]

    def do_copy(self, src, dest, log=None):
        """nbgrader's copy, then the folder judged again: a notebook swapped between the
        check and the copy shows in its change time, and such a copy is removed. A folder
        nbgrader refuses to copy (too large: it raised, and the class's collect stopped
        there) is left, said, and the others are collected. The copy's timestamp.txt is
        written in UTC where nbgrader would misread its zone (inbound.true_time_written)."""
        source = Path(src)
        try:
            super().do_copy(src, dest, log)
        except RuntimeError as error:
            self.log.error(t("{folder} is not collected: {why}. {what}", folder=source.name,
                             why=error, what=t("The others are collected.")))
            return
        handed = handed_from(source)
        why = self.why_not_collected(source.parent, handed) if handed else None
        if why:
            shutil.rmtree(dest, ignore_errors=True)
            self.log.error(t("{folder} is not collected: {why}. {what}", folder=source.name,
                             why=why, what=t("It changed while it was being collected.")))
        else:
            if handed and true_time_written(Path(dest), handed, self.timezone):
                self.log.info(t("{folder}: its time is written in UTC in submitted/, as "
                                "nbgrader would misread its zone", folder=source.name))
            self.collected(dest)

    def why_not_collected(self, inbound, handed):
        """Why the folder is not collected (in words), or None: it is the student's own, as
        their submit left it (the owner unchecked where check_owner is False), and finished."""
        return (why_not_theirs(inbound, handed, self.check_owner, self.timezone)
                or why_unfinished(inbound / handed.name))

    def latest(self, records):
        """The record nbgrader's collect picks of one student's: the latest, or with
        --before-duedate the latest before the due date where there is one."""
        records = sorted(records, key=lambda record: record["timestamp"], reverse=True)
        if self.before_duedate and self.duedate is not None:
            return next((r for r in records if r["timestamp"] <= self.duedate), records[0])
        return records[0]
