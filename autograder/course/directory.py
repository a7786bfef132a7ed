"""A course directory as nbgrader sees it, and the nbgrader commands run on it.

Every command is the real `nbgrader` app in a subprocess, started in the course root (nbgrader
reads nbgrader_config.py from the current directory only).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook
from sqlalchemy import inspect, text
from sqlalchemy.exc import OperationalError

from autograder.course import gradebook_engines, gradebook_version
from autograder.course.access import CLOSED
from autograder.course.config_file import (  # noqa: F401
    CONFIG,
    DEFAULT_DB_URL,
    course_config,
    course_language,
    db_url,
    isolation_of,
    isolation_setting,
    sqlite_file,
    stray_gradebooks,
)
from autograder.course.ids import UnknownAssignment, check_ids, course_ids  # noqa: F401
from autograder.i18n import t
from autograder.plumbing.errors import KitError
from autograder.plumbing.kit_command import with_kit_folder_first

HELPER_CELL = "public_checks"  # the grade_id of every notebook's helper cell (build/render.py)
gradebook_engines.install()  # every gradebook this process opens (course/gradebook_engines.py)


class NbgraderError(KitError, RuntimeError):
    """An nbgrader command that failed; the message holds the end of its output."""


def write_atomically(path: Path, content: str | bytes):
    """Write a file (text as UTF-8, or bytes) so that a reader sees the old content or the
    new, never a torn file (two writers at once each write their own partial file; the last
    rename wins); a write that fails leaves no partial file behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        if isinstance(content, bytes):
            partial.write_bytes(content)
        else:
            partial.write_text(content, encoding="utf-8")
        partial.replace(path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def nbgrader_env():
    """The environment nbgrader needs: it runs the `alembic` executable to create a gradebook,
    so the virtualenv's bin folder must be on PATH even when it is not activated."""
    return with_kit_folder_first(dict(os.environ))


def open_gradebook(root: Path) -> Gradebook:
    """The course's gradebook. Creating one reads its schema's version in this process
    (gradebook_version), or where that steps aside runs the `alembic` executable, so the
    virtualenv's bin folder goes on this process's PATH first."""
    with_kit_folder_first(os.environ)
    gradebook_version.read_in_process()
    url = db_url(root)
    try:
        return with_version(Gradebook(url), url)
    except OperationalError as error:
        file = sqlite_file(url)
        if file is None or "unable to open" not in str(error.orig):
            raise
        raise KitError(t("{path}: SQLite cannot open or make the course's gradebook there; the "
                         "folder must be writable by the user running the command (ls -ld "
                         "shows who may), on a file system that is not read-only",
                         path=file)) from error


def with_version(gradebook: Gradebook, url) -> Gradebook:
    """`gradebook`, its schema's version written where nbgrader made its tables but could not
    write the version (its `alembic` executable was not on PATH: nbgrader run from a
    virtualenv not activated), which every later open would have left missing, and which
    nbgrader's later commands and the kit's own read."""
    if "alembic_version" in inspect(gradebook.engine).get_table_names():
        return gradebook
    import nbgrader.api

    version = nbgrader.api.get_alembic_version()
    gradebook.db.execute(text("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)"))
    gradebook.db.execute(text("INSERT INTO alembic_version (version_num) VALUES (:v)"),
                         {"v": version})
    gradebook.db.commit()
    print(t("warning: the gradebook {url} had no schema version: nbgrader made it where it "
            "could not run its alembic command (a virtualenv not activated). The kit wrote the "
            "version ({version}); before running nbgrader yourself, activate the virtualenv or "
            "put {folder} first on PATH", url=url, version=version,
            folder=Path(sys.executable).parent), file=sys.stderr)
    return gradebook


# Written after a course's config copied into another course (build's and validate's, the
# demo's): the folder nbgrader runs in (the kit runs it in the course's root) and nbgrader's
# own default gradebook there. An absolute db_url (a PostgreSQL server, an SQLite file named
# by its whole path) or a CourseDirectory.root in the config would otherwise make nbgrader,
# run in the other course, write the first course's gradebook: validate's two students
# "solutions" and "stubs", the points of a build that was then refused.
OWN_FOLDER_AND_GRADEBOOK = ("\n# this course's own folder and gradebook, not the course's whose "
                            "config this is\nc.CourseDirectory.root = '.'\n"
                            f"c.CourseDirectory.db_url = {DEFAULT_DB_URL!r}\n")


def copy_config(project: Path, root: Path):
    """The course's nbgrader_config.py (at `project`) copied into the course at `root`,
    with that course's own folder and gradebook (OWN_FOLDER_AND_GRADEBOOK)."""
    shutil.copy(project / CONFIG, root / CONFIG)
    with (root / CONFIG).open("a", encoding="utf-8") as config:
        config.write(OWN_FOLDER_AND_GRADEBOOK)


def copy_assignments(source: Path, target: Path, ids):
    """Copy a course's assignments/ folder: its shared modules and the folders of `ids`."""
    target.mkdir(parents=True, exist_ok=True)
    for path in source.iterdir():
        if path.is_file() and path.suffix == ".py":
            shutil.copy(path, target / path.name)
    for assignment_id in ids:
        shutil.copytree(source / assignment_id, target / assignment_id, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def nbgrader_api(root: Path, **overrides):
    """nbgrader's Python API (NbGraderAPI) working on `root`, configured by its
    nbgrader_config.py with `overrides` on top: nbgrader's commands in this process, without
    the seconds an `nbgrader` subprocess takes to start. nbgrader resolves some paths from the
    current directory, so the process moves there; its PATH gets the virtualenv (for alembic)."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    os.chdir(root)
    with_kit_folder_first(os.environ)
    gradebook_version.read_in_process()
    config = course_config(root, **overrides)
    coursedir = CourseDirectory(config=config)
    coursedir.root = str(root)
    return NbGraderAPI(coursedir=coursedir, config=config)


def generate_with(api, root: Path, assignment_id):
    """nbgrader's generate_assignment through `api` (nbgrader_api), in this process."""
    api_checked(api.generate_assignment(assignment_id, force=True),
                f"generate_assignment {assignment_id}", root)


def api_checked(result, command, root: Path):
    """The result of one of nbgrader's API commands (`command`, as typed); an NbgraderError
    with the end of nbgrader's log when it failed, as run_nbgrader says it."""
    if not result["success"]:
        tail = "\n".join(str(result.get("log", "")).strip().splitlines()[-15:])
        raise NbgraderError(t("nbgrader {command} failed in {root}:\n{tail}",
                              command=command, root=root, tail=tail or result.get("error")))
    return result


NBGRADER_WARNING = re.compile(r"^\s*\[(WARNING|ERROR|CRITICAL)\]\s*(.*)$")


def api_warnings(result) -> list[str]:
    """The warnings and errors nbgrader logged during one of its API commands (its log lines
    are `[LEVEL] message`), each as `LEVEL: message`."""
    found = (NBGRADER_WARNING.match(line) for line in str(result.get("log", "")).splitlines())
    return [f"{match[1]}: {match[2]}" for match in found if match]


def run_nbgrader(root: Path, *args, timeout=None):
    result = subprocess.run(
        [sys.executable, "-m", "autograder.course.nbgrader_main", *args],
        cwd=root,
        env=nbgrader_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
        raise NbgraderError(t("nbgrader {command} failed in {root}:\n{tail}",
                              command=" ".join(args), root=root, tail=tail))
    return result


@dataclass(frozen=True)
class CellScore:
    grade_id: str
    score: float
    max_score: float


@dataclass
class Course:
    """The folders source/ release/ submitted/ autograded/ feedback/ and the gradebook."""

    root: Path

    @classmethod
    def create(cls, root: Path, project: Path, ids, sources=True):
        """A new course at `root` with the config of the course at `project`, its master
        notebooks of `ids` (unless not `sources`: the course builds its own) and its
        assignments' folders (the hidden checks grading reads); closed to other users, as
        `init` makes a course (autograder/course/access.py)."""
        root.mkdir(parents=True, exist_ok=True)
        root.chmod(CLOSED)
        copy_config(project, root)
        copy_assignments(project / "assignments", root / "assignments", ids)
        for assignment_id in ids if sources else ():
            shutil.copytree(project / "source" / assignment_id, root / "source" / assignment_id,
                            dirs_exist_ok=True)
        return cls(root)

    def generate(self, assignment_id):
        """Register the assignment in the gradebook and write its student version."""
        run_nbgrader(self.root, "generate_assignment", assignment_id, "--force")

    def submit(self, student, assignment_id, notebook):
        """Place one student's notebook where nbgrader collects submissions."""
        folder = self.root / "submitted" / student / assignment_id
        folder.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, folder / f"{assignment_id}.ipynb")

    def autograde(self, assignment_id, *extra):
        run_nbgrader(self.root, "autograde", assignment_id, "--force", *extra)

    def generate_feedback(self, assignment_id, *extra):
        run_nbgrader(self.root, "generate_feedback", assignment_id, "--force", *extra)

    def feedback_html(self, student, assignment_id):
        path = self.root / "feedback" / student / assignment_id / f"{assignment_id}.html"
        return path.read_text(encoding="utf-8")

    def cell_scores(self, assignment_id, student):
        """The score of every graded cell of one student's submission."""
        with open_gradebook(self.root) as gradebook:
            submission = gradebook.find_submission_notebook(assignment_id, assignment_id, student)
            return {
                grade.name: CellScore(grade.name, grade.score, grade.max_score)
                for grade in submission.grades
            }
