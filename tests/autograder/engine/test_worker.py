"""Does a worker write its throwaway gradebooks without waiting for the disk, and every other
database as SQLite would?"""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from autograder.engine import worker


def sqlite_settings(path):
    """(synchronous, journal_mode) of a new SQLAlchemy connection to the SQLite file `path`."""
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as connection:
            return (connection.execute(text("PRAGMA synchronous")).scalar(),
                    connection.execute(text("PRAGMA journal_mode")).scalar())
    finally:
        engine.dispose()


@pytest.fixture
def fresh_workspace():
    """This process's worker workspace, made for the test and removed after it."""
    kept = worker._WORKSPACE
    worker._WORKSPACE = None
    yield worker.workspace()
    worker._WORKSPACE.close()
    worker._WORKSPACE = kept


def test_a_gradebook_in_the_workspace_commits_unsynced_and_others_keep_sqlite_s_default(
        fresh_workspace, tmp_path):
    """Is a gradebook copy inside the workspace opened with synchronous OFF and its journal in
    memory, while a gradebook elsewhere (a course's) keeps SQLite's FULL sync and its journal
    file?"""
    inside = fresh_workspace.folder / "course-0" / "gradebook.db"
    inside.parent.mkdir()
    assert sqlite_settings(inside) == (0, "memory")
    assert sqlite_settings(tmp_path / "gradebook.db") == (2, "delete")


def test_without_a_workspace_no_connection_is_touched(tmp_path):
    """In a process that has made no workspace (a client's), is a SQLite connection left as
    SQLite opens it?"""
    kept = worker._WORKSPACE
    worker._WORKSPACE = None
    try:
        assert sqlite_settings(tmp_path / "gradebook.db") == (2, "delete")
    finally:
        worker._WORKSPACE = kept


def test_a_killed_workers_workspace_is_removed_by_the_next_and_no_other(tmp_path):
    """A worker killed mid-grade leaves its workspace: does the next worker's start remove the
    one whose process is gone, and keep a live process's and one named the older way?"""
    import os
    import subprocess

    gone = subprocess.Popen(["true"])
    gone.wait()
    dead = tmp_path / f"{worker.WORKSPACE_PREFIX}{gone.pid}-abc"
    live = tmp_path / f"{worker.WORKSPACE_PREFIX}{os.getpid()}-def"
    older = tmp_path / f"{worker.WORKSPACE_PREFIX}x1y2z3"
    for folder in (dead, live, older):
        (folder / "course-0").mkdir(parents=True)
    worker.remove_orphaned_workspaces(tmp_path)
    assert not dead.exists() and live.is_dir() and older.is_dir()
