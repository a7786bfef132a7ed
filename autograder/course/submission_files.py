"""Which files of a submission the kit reads: none through a symbolic link, none of a folder
that holds a link or a special file (a named pipe, a device). One rule for `grade`, which
refuses such a submission (grading/submissions.py), plain nbgrader's copy, which passes the
entries by (grading/submission_guard.py), and the similarity report, which leaves the
notebook out (outputs/similarity.py).

And the bounds of every walk over a student's folder, with the one walker that keeps them
(`entries_of`: a stack, not recursion, so 1,100 nested folders cannot overflow Python's
stack as os.walk, Path.rglob and shutil.copytree do): the checks above, the folders a grading
or feedback task sends (engine/bundle.py), a Gradescope upload (gradescope/run.py), and the
copy of a notebook's folder into its kernel's (sandbox/kernel.py, which walks open folders
itself and keeps the same bounds); and the largest notebook read. The kernel's folder, measured
while its kernel lives and may swap a folder for a link, is walked through open folders by
sandbox/folder_watch.py, within twice FOLDER_ENTRIES. A leaf of i18n alone, so
each of those rooms may use it."""

from __future__ import annotations

import json
import os
import stat

from autograder.i18n import t

# The largest notebook the kit reads, its outputs' images included: an LMS inbox's
# (outputs/inbox.py) and grade's (grading/submissions.py). Reading a notebook takes about ten
# times its size in memory (a 150 MB one took 1.5 GB).
NOTEBOOK_BYTES = 32 * 2**20
# The most code one cell may have for grading to run it (c.GradeInSandbox.max_source_kb's
# default); a larger cell is not run, and said so.
CELL_CODE_KB = 256
CELL_CODE_BYTES = CELL_CODE_KB << 10
# The most code the cells that run (those within CELL_CODE_BYTES) may hold together for the
# kit to judge: a course's notebook holds 40-55 thousand characters with its helper cell.
# Judging a step reads the code that defines it, in time that grows with the notebook's
# statements (a 3 MB notebook of generated definitions held a grading worker for 30 s).
CODE_CHARACTERS = 1_000_000
FOLDER_DEPTH = 32  # folders inside a submission, at most
FOLDER_ENTRIES = 10_000  # files and folders in a submission, at most


class Unwalkable(Exception):
    """A submission folder too deep or too full to be looked through."""


def entries_of(folder):
    """(path relative to `folder`, mode) of every entry below it, without following a link,
    walked with a stack (not recursion) and within FOLDER_DEPTH and FOLDER_ENTRIES."""
    stack, count = [(folder, 0)], 0
    while stack:
        place, depth = stack.pop()
        with os.scandir(place) as listing:
            for entry in listing:
                count += 1
                if count > FOLDER_ENTRIES:
                    raise Unwalkable(t("it holds more than {count} files and folders",
                                       count=FOLDER_ENTRIES))
                mode = entry.stat(follow_symlinks=False).st_mode
                yield os.path.relpath(entry.path, folder), mode
                if stat.S_ISDIR(mode):
                    if depth + 1 > FOLDER_DEPTH:
                        raise Unwalkable(t("its folders are nested more than {depth} deep",
                                           depth=FOLDER_DEPTH))
                    stack.append((entry.path, depth + 1))


def odd_entries(folder, limit=1000):
    """Entries of a submission folder that are not plain files or folders (symbolic links,
    pipes, devices ...), without following any link."""
    odd = []
    for relative, mode in entries_of(folder):
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            odd.append(relative)
            if len(odd) >= limit:
                break
    return odd


def linked_folder(folder):
    """Why a submission folder is not read at all (it or its student's folder is a symbolic
    link), or None."""
    if folder.is_symlink() or folder.parent.is_symlink():
        return t("the submission folder is a symbolic link")
    return None


def holds_links(folder):
    """Why a submission folder's files are not read (it holds a symbolic link or special
    file), or None; Unwalkable or OSError when it cannot be looked through."""
    odd = odd_entries(folder)
    if not odd:
        return None
    return t("the submission holds {entry}, a symbolic link or special file", entry=odd[0]) \
        + (t(" (and {count} more)", count=len(odd) - 1) if len(odd) > 1 else "")


def unfollowable(path):
    """Why the kit reads nothing of the submission whose notebook is `path` (grade refuses
    it, and the similarity report leaves it out), or None: one rule for both."""
    try:
        return linked_folder(path.parent) or holds_links(path.parent)
    except (Unwalkable, OSError) as error:
        return t("the submission folder cannot be looked through: {error}", error=error)


def read_notebook(path, reading):
    """(the notebook `reading()` returns, None), or (None, the Problem of the file at `path`
    when it is no notebook): the one decision, at collect and at grade."""
    import nbformat

    from autograder.course.ledger import Problem

    try:
        return reading(), None
    except (json.JSONDecodeError, UnicodeDecodeError, nbformat.reader.NotJSONError) as error:
        return None, Problem(path, t("not a Jupyter notebook ({error})",
                                     error=type(error).__name__),
                             t("ask the student to resubmit the .ipynb file saved by Jupyter"))
    except Exception as error:  # noqa: BLE001 - nbformat raises many kinds of errors
        return None, Problem(path, t("not a valid notebook ({error})", error=error),
                             t("ask the student to resubmit the .ipynb file saved by Jupyter"))
