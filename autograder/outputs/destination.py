"""Where a table or a page may be written (`--to`): never over what the kit did not write.

`export --to` and `report --to` name any path. A slip (`report --to nbgrader_config.py`, an
export onto a roster kept beside the course) replaced the file without a word. A destination
that exists is written over only when it is what the command writes: a CSV whose first two
columns are the ones this export writes (a grade table written before, to be brought up to
date), or a page the kit's report wrote. The course's own files (its config, its gradebook,
what its folders hold) are never a destination.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from autograder.course.config_file import db_url, sqlite_file
from autograder.i18n import t
from autograder.plumbing.course_root import CONFIG, KIT_FOLDER
from autograder.plumbing.errors import OutputError

COURSE_FOLDERS = ("assignments", "source", "release", "submitted", "autograded", "feedback",
                  "downloaded", KIT_FOLDER)
KIT_PAGE_START = "<!DOCTYPE html><html lang='"  # how the kit's pages begin (report, plain_page)


def check_destination(root: Path, destination: Path, is_ours):
    """OutputError when `destination` is one of the course's own files, or a file there
    already that `is_ours(its first 4 KB, as text)` does not take for this command's own."""
    check_outside_course(root, destination)
    path = destination.resolve()
    if not path.exists():
        return
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            start = file.read(4096)
    except OSError:
        start = ""
    if path.is_dir() or not is_ours(start):
        raise OutputError(t("{path} exists and is not what this command writes: nothing was "
                            "written over it; give another file (--to), or move it away first",
                            path=destination))


def check_outside_course(root: Path, destination: Path):
    """OutputError when `destination` (a file, or a folder of pages: similarity's) is one
    of the course's own files or inside one of its folders: released there, a page would go
    to every student."""
    path = destination.resolve()
    own = {(root / CONFIG).resolve()}
    gradebook = sqlite_file(db_url(root))
    if gradebook is not None:
        own.add(gradebook.resolve())
    inside = [root.resolve() / folder for folder in COURSE_FOLDERS]
    if path in own:
        raise OutputError(t("{path} is one of the course's own files: write the output "
                            "elsewhere (--to)", path=destination))
    folder = next((f for f in inside if path.is_relative_to(f)), None)
    if folder is not None:
        raise OutputError(t("{path} is inside {folder}/, which holds the course's own files "
                            "and nothing else: write the output elsewhere (--to)",
                            path=destination, folder=folder.name))


def same_table(text: str):
    """An is_ours for a CSV: a file whose first two columns are those of `text`'s header."""
    def first_columns(start):
        rows = list(csv.reader(io.StringIO(start.lstrip("\ufeff").split("\n", 1)[0])))
        return rows[0][:2] if rows else []

    header = first_columns(text)
    return lambda start: bool(header) and first_columns(start) == header


def a_report(start: str) -> bool:
    """An is_ours for the class report: a page the kit's report wrote."""
    return start.startswith(KIT_PAGE_START)
