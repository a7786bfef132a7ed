"""nbgrader's collect of one chosen submission.

nbgrader's collect takes each student's latest submission. Feedback on submit must collect
the very one it grades and counts: a student may hand in again while one is graded, and one
past the day's limit must stay uncollected while an earlier one is graded again after a
restart. CollectOne is nbgrader's own ExchangeCollect (its check of the owner, its copy, its
rule of never replacing a newer collected submission by an older one) with its list of what
to collect set to that one folder. That list (`src_records`, made by `_path_to_record`) is
nbgrader's private code: private_api checks it first, and where it differs `serve` refuses
to start rather than collect something else (on_submit.py).

Its copy is the kit's (`copy_without_links`): nbgrader's follows links, and inbound/ is
writable by every student, so a file checked by inbound.why_refused could be swapped for a
link to another student's work before nbgrader copied it. Each entry is opened once, relative
to its folder's descriptor and without following a link, and copied from that descriptor:
what was checked is what is copied, and a link or special file is left out.
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import stat
from pathlib import Path

from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.utils import capture_log, temp_attrs
from traitlets import Unicode

from autograder.plumbing import private_api
from autograder.serve.inbound import (
    handed_from,
    in_true_time,
    true_time_written,
    why_not_as_submitted,
)
from autograder.serve.owned_collect import OwnedCollect
from autograder.serve.previous_kept import PreviousKept

PRIVATE_API = "one submission collected"


class CollectOne(PreviousKept, ExchangeCollect):
    chosen = Unicode("", help="the inbound folder's name of the one submission to collect")

    def init_src(self):
        # nbgrader's own reads every folder of the student in inbound/ (one with a name it
        # cannot parse would stop it); only the chosen one is read here, as it reads it.
        self.course_path = os.path.join(self.root, self.coursedir.course_id)
        self.inbound_path = os.path.join(self.course_path, "inbound")
        self.src_records = [in_true_time(
            self._path_to_record(os.path.join(self.inbound_path, self.chosen)), self.timezone)]

    def do_copy(self, src, dest, log=None):
        """The kit's copy, then the folder judged again (a notebook swapped between intake's
        check and the copy shows in its change time: the copy is removed and collect fails,
        saying why); the copy's timestamp.txt in UTC where nbgrader would misread its zone."""
        source, dest = Path(src), Path(dest)
        copy_without_links(source, dest, self.coursedir.ignore)
        handed = handed_from(source)
        why = why_not_as_submitted(source, handed, self.timezone) if handed else None
        if why:
            shutil.rmtree(dest, ignore_errors=True)
            raise RuntimeError(why)
        if handed:
            true_time_written(dest, handed, self.timezone)
        self.collected(dest)


OPEN_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
OPEN_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def copy_without_links(src: Path, dest: Path, ignore=()):
    """Copy the folder `src` to `dest` (made here), never following a link: its regular files
    and folders alone, each read from the descriptor it was opened and checked with; names
    matching a pattern of `ignore` (nbgrader's CourseDirectory.ignore) are left out."""
    folder = os.open(src, OPEN_FOLDER)
    try:
        copy_folder(folder, dest, list(ignore))
    finally:
        os.close(folder)


def copy_folder(folder: int, dest: Path, ignore):
    dest.mkdir()
    for name in sorted(os.listdir(folder)):
        if any(fnmatch.fnmatch(name, pattern) for pattern in ignore):
            continue
        try:
            entry = os.open(name, OPEN_FILE, dir_fd=folder)
        except OSError:  # a link (ELOOP), or gone
            continue
        try:
            info = os.fstat(entry)
            if stat.S_ISDIR(info.st_mode):
                copy_folder(entry, dest / name, ignore)
            elif stat.S_ISREG(info.st_mode):
                os.set_blocking(entry, True)
                with open(dest / name, "xb") as out, os.fdopen(os.dup(entry), "rb") as source:
                    while chunk := source.read(1 << 20):
                        out.write(chunk)
        finally:
            os.close(entry)


def why_not_usable(api) -> str | None:
    """None when CollectOne can collect for the course's nbgrader API; else why not."""
    if api.exchange.collect not in (ExchangeCollect, OwnedCollect):
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
