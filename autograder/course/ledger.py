"""The kit's own records in a course, under `.kit/`: its unfinished work and the inputs it refused.

nbgrader's gradebook and folders belong to nbgrader and to the people who use it (a TA's
manual score, a comment, a submission collected by plain nbgrader). The kit never deletes or
overwrites them to keep its own books; it keeps them here instead:

- `.kit/status/<student>/<assignment>.json`: which submitted file the kit graded, and whether
  that grading finished ({"sha256": ..., "state": "grading" | "graded"}), and what its hidden
  cases were drawn from ({"reseed": ..., "draws": a digest of the key}: draw_keys.py; a
  regrade draws the same, `grade --reseed` anew). A submission is
  marked "grading" before nbgrader starts on it and "graded" after nbgrader finished, so an
  interrupted run (Ctrl-C, a crash, a killed worker) leaves "grading" and the next run grades
  it again; nothing is deleted for it. `grade --force` first marks every notebook it will grade
  again "regrade", so the notebooks an interrupted forced run had not reached are graded by
  the next `grade`, which says so.
- `.kit/problems.json`: every input `collect` or `grade` refused or graded with a warning,
  kept until the next run of the same stage on the same assignment replaces them, so that
  `export` and `report` show them days later.
- `.kit/handed-in/<assignment>/<student>.json`: the files a collect put in the student's
  folder in submitted/ (course/handed_in.py), which tells a TA's file put there since.
- `.kit/secret`: the course's secret, which each student's hidden cases are drawn from
  (draw_keys.py); the instructor's alone (mode 0600).
- `.kit/grade.lock`: held (flock) by the one `grade` running in the course. The operating
  system releases it when that process ends, however it ends, so a crashed run never leaves a
  stale lock; the file names the holder for the message a second run prints.
"""

from __future__ import annotations

import fcntl
import fnmatch
import hashlib
import json
import os
import socket
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from autograder.i18n import t
from autograder.plumbing.course_root import KIT_FOLDER
from autograder.plumbing.errors import KitError

FOLDER = KIT_FOLDER  # .kit, declared where the command line reads it before it imports this
#                     module or nbgrader (serve/commands.py): this module imports directory.py late
REGRADE = "regrade"  # the state of a notebook a `grade --force` has still to grade again


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# Grading status ------------------------------------------------------------------------------


def status_path(root: Path, student, assignment_id) -> Path:
    return root / FOLDER / "status" / student / f"{assignment_id}.json"


def read_status(root: Path, student, assignment_id):
    """{"sha256", "state"} of the kit's grading of one submission, or None."""
    try:
        data = json.loads(status_path(root, student, assignment_id).read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


DRAW = ("reseed", "draws")  # what a status keeps of the notebook's draw (draw_keys.py)


def mark(root: Path, student, assignment_id, notebook: Path, state, isolation="", draw=None,
         checks="", terms=""):
    """Record the kit's grading state of a submission; once graded, with the sandbox its
    student code ran in, in words (grade names it so on the console), which the class report
    shows, the digest of the checks it was graded with (grading/checks_changed.py), and its
    draw ({"reseed", "draws"}: draw_keys.py), which stays the notebook's through every later
    state until a grading records another; and the digest of its late penalty's terms
    (deadlines.late_terms)."""
    status = {"sha256": digest(notebook), "state": state}
    if isolation:
        status["isolation"] = isolation
    if checks:
        status["checks"] = checks
    if terms:
        status["terms"] = terms
    kept = draw if draw is not None else read_status(root, student, assignment_id) or {}
    status.update({name: kept[name] for name in DRAW if name in kept})
    from autograder.course.directory import (
        write_atomically,  # directory.py imports nbgrader: see FOLDER
    )

    write_atomically(status_path(root, student, assignment_id), json.dumps(status))


def recorded_reseed(root: Path, student, assignment_id) -> str:
    """The reseed the notebook's last grading drew with ("" for the course's first draw)."""
    reseed = (read_status(root, student, assignment_id) or {}).get("reseed", "")
    return reseed if isinstance(reseed, str) else ""


def is_graded(root: Path, student, assignment_id, notebook: Path) -> bool:
    """Did the kit finish grading exactly this file (and nbgrader's result is still there)?"""
    status = read_status(root, student, assignment_id)
    autograded = root / "autograded" / student / assignment_id / notebook.name
    return (status is not None and status.get("state") == "graded"
            and status.get("sha256") == digest(notebook) and autograded.exists())


# Refused inputs ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """Bad input: the file, what is wrong, and how to fix it. The batch goes on without it
    (or, when `graded_anyway`, grades it and warns). `stage` is the command that found it;
    `student` and `assignment` are set when they are known."""

    path: Path
    reason: str
    fix: str
    graded_anyway: bool = False
    stage: str = ""
    student: str = ""
    assignment: str = ""

    def __str__(self):  # the course's language's marks around them
        return t("{path}: {reason}; {fix}", path=self.path, reason=self.reason, fix=self.fix)

    def to_data(self):
        return {**asdict(self), "path": str(self.path)}

    @classmethod
    def from_data(cls, data):
        return cls(**{**data, "path": Path(data["path"])})


def problems_path(root: Path) -> Path:
    return root / FOLDER / "problems.json"


def read_problems(root: Path, ids=None):
    """The problems kept in the course (of the assignments `ids`, when given)."""
    try:
        data = json.loads(problems_path(root).read_text())
        problems = [Problem.from_data(item) for item in data]
    except (OSError, ValueError, TypeError, KeyError):
        return []
    return [p for p in problems if ids is None or p.assignment in ids]


def chosen(student, patterns):
    """Is the student one of `patterns` (ids or shell-style globs; none means everyone)?"""
    return not patterns or any(fnmatch.fnmatchcase(student, p) for p in patterns)


def keep_problems(root: Path, stage, assignment_ids, problems, students=()):
    """Replace the problems `stage` found earlier for these assignments (and these students,
    when given) by `problems`."""
    kept = [p for p in read_problems(root)
            if not (p.stage == stage and p.assignment in (*assignment_ids, "")
                    and chosen(p.student, students))]
    fresh = [Problem(**{**asdict(p), "stage": stage}) for p in problems]
    kept = [p for p in kept if p not in fresh]
    from autograder.course.directory import write_atomically

    write_atomically(problems_path(root),
                     json.dumps([p.to_data() for p in kept + fresh], indent=1))


# One grading run at a time -------------------------------------------------------------------


class CourseBusy(KitError):
    """Another grading run holds the course; the message names it."""


class CourseLock:
    """Held by one process of a course for one purpose (a file in the course's .kit/).
    Taking it fails at once: `busy(holder)` is the error raised, the holder named."""

    def __init__(self, path: Path, busy):
        self.path, self.busy = path, busy
        self.handle = None

    def __enter__(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held until __exit__
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = holder_words(handle.read())
            handle.close()
            raise self.busy(holder) from None
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                 "started": time.strftime("%Y-%m-%d %H:%M:%S")}) + "\n")
        handle.flush()
        self.handle = handle
        return self

    def __exit__(self, *exc):
        self.handle.truncate(0)
        fcntl.flock(self.handle, fcntl.LOCK_UN)
        self.handle.close()


def holder_words(text) -> str:
    """Who holds a lock, in the current language, from what its holder wrote in the file (data,
    so that a Chinese course's second command says it in Chinese; an older kit's words as
    they are)."""
    try:
        holder = json.loads(text)
        return t("pid {pid} on {host}, started {started}", pid=holder["pid"],
                 host=holder["host"], started=holder["started"])
    except (ValueError, TypeError, KeyError):
        return text.strip() or t("another process")


def grade_running(root: Path):
    """Who holds the course's grade lock (holder_words), or None when no grade runs."""
    path = root / FOLDER / "grade.lock"
    try:
        handle = open(path, encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError:
        return None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return holder_words(handle.read())
        fcntl.flock(handle, fcntl.LOCK_UN)
    return None


class GradeLock(CourseLock):
    """Held by one `grade` per course."""

    def __init__(self, root: Path):
        super().__init__(root / FOLDER / "grade.lock", lambda holder: CourseBusy(t(
            "another grade is running in this course ({holder}); wait for it to finish, or "
            "stop it, then run grade again", holder=holder)))
