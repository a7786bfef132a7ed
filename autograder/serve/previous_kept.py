"""A collect that never leaves a student without the copy they had in submitted/.

nbgrader's collect removes a student's collected copy before it copies their newer
submission. Where that copy then fails (the kit refuses a folder that changed while it was
copied; nbgrader refuses one past c.CourseDirectory.max_dir_size), the student had no copy
left in submitted/, though one had been collected before. Each copy about to be replaced is
kept aside first, as hard links in the course's .kit/ (nothing is read or written twice), and
put back wherever the new one did not land; what is put back is said on the console. Where
the new one landed, the files of the copy before that it lacks (a TA's notes) are carried
into it (plumbing/files_beside.py), after what was copied is recorded as the student's
(course/handed_in.py)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from autograder.course.handed_in import record
from autograder.course.ledger import FOLDER
from autograder.i18n import t
from autograder.plumbing.files_beside import carry


class PreviousKept:
    """A mixin of nbgrader's ExchangeCollect (before it in the bases)."""

    def copy_files(self):
        aside = Path(self.coursedir.root) / FOLDER / f"collect-previous-{os.getpid()}"
        kept = {}
        try:
            for record in self.src_records:
                dest = Path(self.coursedir.format_path(
                    self.coursedir.submitted_directory, record["username"],
                    self.coursedir.assignment_id))
                if dest.is_dir() and dest not in kept:
                    kept[dest] = aside / str(len(kept))
                    shutil.copytree(dest, kept[dest], symlinks=True, copy_function=linked)
            super().copy_files()
        finally:
            for dest, copy in kept.items():
                if not dest.exists() and copy.is_dir():
                    os.rename(copy, dest)
                    self.log.warning(t("{folder}: the copy collected before is kept there",
                                       folder=dest))
                elif copy.is_dir():  # a TA's file beside the copy before stays with the new
                    carry(copy, dest, ours={"timestamp.txt"})
            shutil.rmtree(aside, ignore_errors=True)

    def collected(self, dest):
        """Said by a subclass's do_copy of each copy it kept in submitted/: what it copied is
        recorded as the student's (course/handed_in.py), before copy_files carries a TA's
        files back beside it."""
        record(Path(self.coursedir.root), self.coursedir.assignment_id,
               Path(dest).parent.name, Path(dest))


def linked(src, dest):
    """A hard link of `src` at `dest`; a copy where the file system has none."""
    try:
        os.link(src, dest, follow_symlinks=False)
    except OSError:
        shutil.copy2(src, dest, follow_symlinks=False)
