"""nbgrader's collect of one chosen submission.

nbgrader's collect takes each student's latest submission. Feedback on submit must collect
the very one it grades and counts: a student may hand in again while one is graded, and one
past the day's limit must stay uncollected while an earlier one is graded again after a
restart. CollectOne is nbgrader's own ExchangeCollect (its check of the owner, its copy, its
rule of never replacing a newer collected submission by an older one) with its list of what
to collect set to that one folder. That list (`src_records`, made by `_path_to_record`) is
nbgrader's private code: private_api checks it first, and where it differs `serve` refuses
to start rather than collect something else (on_submit.py).
"""

from __future__ import annotations

import os

from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.utils import capture_log, temp_attrs
from traitlets import Unicode

from autograder.sandbox import private_api

PRIVATE_API = "one submission collected"


class CollectOne(ExchangeCollect):
    chosen = Unicode("", help="the inbound folder's name of the one submission to collect")

    def init_src(self):
        # nbgrader's own reads every folder of the student in inbound/ (one with a name it
        # cannot parse would stop it); only the chosen one is read here, as it reads it.
        self.course_path = os.path.join(self.root, self.coursedir.course_id)
        self.inbound_path = os.path.join(self.course_path, "inbound")
        self.src_records = [self._path_to_record(os.path.join(self.inbound_path, self.chosen))]


def why_not_usable(api) -> str | None:
    """None when CollectOne can collect for the course's nbgrader API; else why not."""
    if api.exchange.collect is not ExchangeCollect:
        return (f"the course's exchange ({api.exchange.collect.__module__}) is not nbgrader's "
                "default one, which feedback on submit is written for")
    return private_api.why_not(PRIVATE_API)


def collect_one(api, handed):
    """nbgrader's collect of the submission `handed` (inbound.HandedIn) alone: its result
    dict (success, log, error), as NbGraderAPI's commands return it."""
    with temp_attrs(api.coursedir, assignment_id=handed.assignment,
                    student_id=handed.student):
        app = CollectOne(coursedir=api.coursedir, authenticator=api.authenticator, parent=api)
        app.update = True
        app.chosen = handed.name
        return capture_log(app)
