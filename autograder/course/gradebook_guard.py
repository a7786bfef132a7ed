"""Is the gradebook a command is about to open the course's own? Asked before anything reads
or writes it, so that a missing or wrong gradebook is one line and the fix, never an empty
export, an empty report or feedback pages deleted.

nbgrader opens `c.CourseDirectory.db_url` and, when nothing is there, quietly makes an empty
gradebook. The kit asks first, with SQLAlchemy alone (nothing is created): can the database be
reached, and does it record every notebook autograded/ holds? A course's autograded/<student>/
<id>/ folder is written only after nbgrader recorded that submission in the gradebook, so a
gradebook that lacks one is another course's, an old copy, or a new empty one.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, inspect, make_url, text
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from autograder.course.config_file import SQLITE, configured_db_url
from autograder.course.directory import db_url
from autograder.i18n import t
from autograder.plumbing.errors import KitError

SETTING = "c.CourseDirectory.db_url in nbgrader_config.py"
SHOWN = 3  # submissions named in a refusal; the rest are counted


class GradebookError(KitError):
    """The course's gradebook is missing, unreachable or not the course's."""


def autograded_on_disk(root: Path) -> set[tuple[str, str]]:
    """(assignment id, student) of every autograded notebook of the course."""
    return {(path.parent.name, path.parent.parent.name)
            for path in (root / "autograded").glob("*/*/*.ipynb")
            if path.stem == path.parent.name}


@contextmanager
def connected(url: str):
    """A connection to the database at `url` that makes nothing in it, and lets go of it
    after (a server that does not answer gives up after 5 s)."""
    connect_args = {"connect_timeout": 5} if url.startswith("postgresql") else {}
    engine = create_engine(url, connect_args=connect_args)
    try:
        with engine.connect() as connection:
            yield connection
    finally:
        engine.dispose()


def recorded(url: str) -> set[tuple[str, str]]:
    """(assignment id, student) of every submission the gradebook at `url` records; empty
    for a database without nbgrader's tables."""
    with connected(url) as connection:
        if not inspect(connection).has_table("submitted_assignment"):
            return set()
        rows = connection.execute(text(
            "SELECT assignment.name, submitted_assignment.student_id "
            "FROM submitted_assignment JOIN assignment "
            "ON submitted_assignment.assignment_id = assignment.id"))
        return {(name, student) for name, student in rows}


def has_tables(url: str) -> bool:
    """Whether the database at `url` holds nbgrader's gradebook tables (none are made)."""
    with connected(url) as connection:
        return inspect(connection).has_table("source_cell")


def one_line(error: Exception) -> str:
    """The first line of a database error, without SQLAlchemy's background link."""
    reason = str(getattr(error, "orig", None) or error).strip().splitlines()
    return reason[0] if reason else type(error).__name__


def listed(missing) -> str:
    shown = ", ".join(f"autograded/{student}/{assignment_id}"
                      for assignment_id, student in sorted(missing)[:SHOWN])
    more = len(missing) - SHOWN
    return shown + (t(" and {more} more", more=more) if more > 0 else "")


# The package pip installs a database driver from, by the module SQLAlchemy imports
DRIVER_PACKAGES = {"psycopg2": "psycopg2-binary", "psycopg": "'psycopg[binary]'",
                   "pymysql": "PyMySQL", "MySQLdb": "mysqlclient"}


def without_password(url) -> str:
    """`url` as a message shows it: a password in it written as ***."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return url


def check_gradebook(root: Path, complete=True):
    """Refuse (GradebookError: one line, the setting and the fix) a gradebook that cannot be
    opened or (when `complete`) lacks a submission autograded/ holds; creates nothing."""
    shown = without_password(configured_db_url(root))
    if shown.startswith("postgres://"):
        raise GradebookError(t("{setting} is {url!r}: SQLAlchemy names PostgreSQL "
                               "'postgresql://'; write postgresql+psycopg2://USER@HOST/DATABASE",
                               setting=t(SETTING), url=shown))
    url = db_url(root)
    on_disk = autograded_on_disk(root)
    if url.startswith(SQLITE) and not Path(url[len(SQLITE):]).exists():
        if on_disk and complete:
            raise GradebookError(t(
                "the gradebook {path} ({setting}) does not exist, but autograded/ holds "
                "{count} graded notebooks: restore the gradebook from a backup or point db_url "
                "at it; `python -m autograder grade --force` grades every submission again "
                "into a new one", path=url[len(SQLITE):], setting=t(SETTING), count=len(on_disk)))
        return
    try:
        known = recorded(url)
    except ImportError as error:  # a URL whose driver is not installed (postgresql:// -> psycopg)
        raise GradebookError(t("cannot open the gradebook {url!r} ({setting}): its database "
                               "driver {driver} is not installed where the kit runs; install "
                               "it there: `{python} -m pip install {package}`", url=shown,
                               setting=t(SETTING), driver=error.name, python=sys.executable,
                               package=DRIVER_PACKAGES.get(error.name, error.name))) from None
    except SQLAlchemyError as error:
        raise GradebookError(t("cannot open the gradebook {url!r} ({setting}): {reason}; "
                               "start the database server or correct db_url", url=shown,
                               setting=t(SETTING), reason=one_line(error))) from None
    missing = on_disk - known
    if missing and complete:
        raise GradebookError(t(
            "the gradebook {url!r} ({setting}) has no record of {count} graded notebooks "
            "({listed}): it is not this course's gradebook; point db_url at the course's, or "
            "grade them again with `python -m autograder grade --force`", url=shown,
            setting=t(SETTING), count=len(missing), listed=listed(missing)))
