"""Does a new gradebook get its schema's version without the `alembic` executable, the same
version nbgrader's own function finds (autograder/course/gradebook_version.py)?"""

from __future__ import annotations

import nbgrader.api
import pytest
from sqlalchemy import text

from autograder.course import gradebook_version
from autograder.course.directory import CONFIG, nbgrader_env, open_gradebook
from autograder.plumbing import private_api

ROOT_CONFIG = 'c = get_config()\nc.CourseDirectory.db_url = "sqlite:///gradebook.db"\n'


@pytest.fixture
def nbgraders_own(monkeypatch):
    """nbgrader's own get_alembic_version, in place before the test and after it."""
    own = getattr(nbgrader.api.get_alembic_version, "replaces", nbgrader.api.get_alembic_version)
    monkeypatch.setattr(nbgrader.api, "get_alembic_version", own)
    monkeypatch.setenv("PATH", nbgrader_env()["PATH"])  # where nbgrader finds alembic
    private_api.why_not.cache_clear()
    yield own
    private_api.why_not.cache_clear()


def test_a_new_gradebook_holds_the_executables_version_without_running_it(
        nbgraders_own, monkeypatch, tmp_path):
    """Does a gradebook open_gradebook makes hold the version `alembic heads` prints, while
    no process is started for it?"""
    expected = nbgraders_own()  # the executable, as nbgrader runs it
    assert len(expected) == 12 and expected.isalnum(), expected

    def no_process(*args, **kwargs):
        raise AssertionError(f"a process was started: {args}")

    monkeypatch.setattr(nbgrader.api.sp, "check_output", no_process)
    (tmp_path / CONFIG).write_text(ROOT_CONFIG)
    with open_gradebook(tmp_path) as gradebook:
        version = gradebook.db.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert version == expected


def test_it_steps_aside_where_nbgraders_function_differs(nbgraders_own, monkeypatch):
    """Where nbgrader's code is not what the speedup was written for, does nbgrader keep its
    own function (the executable runs, only slower)?"""
    speedup = private_api.SPEEDUPS[gradebook_version.SPEEDUP]
    monkeypatch.setitem(private_api.SPEEDUPS, gradebook_version.SPEEDUP,
                        speedup._replace(digests=("0" * 16,)))
    gradebook_version.read_in_process()
    assert nbgrader.api.get_alembic_version is nbgraders_own
    private_api.why_not.cache_clear()
    monkeypatch.setitem(private_api.SPEEDUPS, gradebook_version.SPEEDUP, speedup)
    gradebook_version.read_in_process()
    assert nbgrader.api.get_alembic_version is gradebook_version.head_of_scripts


def test_a_gradebook_nbgrader_left_without_its_version_gets_it(tmp_path, capsys):
    """A gradebook whose tables nbgrader made where it could not run alembic (from a
    virtualenv not activated) has no alembic_version, and every later open leaves it so: does
    open_gradebook write the version nbgrader would have written, and say so with the fix?"""
    from nbgrader.api import Base
    from sqlalchemy import create_engine

    (tmp_path / CONFIG).write_text(ROOT_CONFIG)
    engine = create_engine(f"sqlite:///{tmp_path / 'gradebook.db'}")
    Base.metadata.create_all(bind=engine)  # nbgrader's half: its tables, no version
    engine.dispose()
    with open_gradebook(tmp_path) as gradebook:
        version = gradebook.db.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert version == gradebook_version.head_of_scripts()
    said = capsys.readouterr().err
    assert "had no schema version" in said and "first on PATH" in said, said
    with open_gradebook(tmp_path):
        pass
    assert capsys.readouterr().err == ""  # written once: nothing more to say
