"""Does a process open every gradebook on the one engine made for its URL, reusing the
statements it compiled, while each open still connects afresh and sees the file as it is
then; and does it keep at most KEPT engines? Within one_transaction, do the gradebooks opened share
one transaction that commits once, whole, or not at all? Does an open find nbgrader's tables in
one query where they are all there, and make a missing one as nbgrader's own open does?"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from collections import OrderedDict

import nbgrader.api
import pytest
from nbgrader.api import Gradebook

from autograder.course.directory import (
    gradebook_engines,
    nbgrader_env,  # importing the course installs the shared engines
)


@pytest.fixture(autouse=True)
def alembic_on_the_path(monkeypatch):
    """A new gradebook runs the `alembic` executable, as open_gradebook arranges."""
    monkeypatch.setenv("PATH", nbgrader_env()["PATH"])


def names(url):
    with Gradebook(url) as gradebook:
        return sorted(a.name for a in gradebook.assignments), gradebook.engine


def test_gradebooks_share_the_engine_and_its_compiled_statements(tmp_path):
    assert nbgrader.api.create_engine is gradebook_engines.shared_engine
    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(url) as gradebook:
        gradebook.add_assignment("a1")
    first, engine = names(url)
    compiled = len(engine._compiled_cache)
    second, again = names(url)
    assert first == second == ["a1"]
    assert again is engine
    assert len(engine._compiled_cache) == compiled  # nothing compiled anew


def test_each_open_sees_the_file_as_it_is_then(tmp_path):
    """A gradebook file replaced between two opens (as a worker copies its clean gradebook
    back for each notebook, or another process rewrites it) is read anew."""
    path, other = tmp_path / "gradebook.db", tmp_path / "other.db"
    url = f"sqlite:///{path}"
    with Gradebook(url) as gradebook:
        gradebook.add_assignment("a1")
    assert names(url)[0] == ["a1"]
    shutil.copyfile(path, other)
    with Gradebook(f"sqlite:///{other}") as gradebook:
        gradebook.remove_assignment("a1")
        gradebook.add_assignment("b1")
    os.replace(other, path)
    assert names(url)[0] == ["b1"]
    shutil.copyfile(path, other)
    with Gradebook(f"sqlite:///{other}") as gradebook:
        gradebook.add_assignment("c1")
    shutil.copyfile(other, path)  # over the same file, as the worker does
    assert names(url)[0] == ["b1", "c1"]


def test_at_most_kept_engines_and_the_dropped_ones_disposed(tmp_path, monkeypatch):
    """The engine used least recently goes first, its connections closed."""
    monkeypatch.setattr(gradebook_engines, "_engines", OrderedDict())
    url = [f"sqlite:///{tmp_path / f'g{n}.db'}" for n in range(gradebook_engines.KEPT + 2)]
    made = [gradebook_engines.shared_engine(u) for u in url[:gradebook_engines.KEPT]]
    disposed = []
    for engine in made:
        monkeypatch.setattr(engine, "dispose", lambda engine=engine: disposed.append(engine))
    assert gradebook_engines.shared_engine(url[0]) is made[0]  # used again: kept longer
    made += [gradebook_engines.shared_engine(u) for u in url[gradebook_engines.KEPT:]]
    assert disposed == [made[1], made[2]]
    assert list(gradebook_engines._engines.values()) == [*made[3:gradebook_engines.KEPT],
                                                        made[0], *made[-2:]]
    assert gradebook_engines.shared_engine(url[1]) is not made[1]  # made anew


def test_a_relative_sqlite_path_is_the_file_of_the_current_folder(tmp_path, monkeypatch):
    """The same relative URL opened from two course folders (as nbgrader's own API does, from
    inside each course) reaches each folder's own gradebook."""
    url = "sqlite:///gradebook.db"
    for course, assignment in (("one", "a1"), ("two", "b1")):
        (tmp_path / course).mkdir()
        monkeypatch.chdir(tmp_path / course)
        with Gradebook(url) as gradebook:
            gradebook.add_assignment(assignment)
    for course, assignment in (("one", "a1"), ("two", "b1")):
        monkeypatch.chdir(tmp_path / course)
        assert names(url)[0] == [assignment]


def test_an_in_memory_database_is_never_shared():
    first = gradebook_engines.shared_engine("sqlite://")
    assert gradebook_engines.shared_engine("sqlite://") is not first
    assert gradebook_engines.shared_engine("sqlite:///:memory:") is not first
    assert gradebook_engines.where("sqlite:///:memory:") is None


def rows(path, table):
    """The names of a table's rows as another process sees them (its own connection)."""
    column = "id" if table == "student" else "name"
    with contextlib.closing(sqlite3.connect(path)) as connection:
        return connection.execute(f"select {column} from {table} order by 1").fetchall()


def test_one_transaction_shares_a_connection_and_commits_once_at_the_end(tmp_path):
    """Is every gradebook opened within the block on one connection: what one writes the next
    reads, nothing seen from outside before the block ends, all of it after, a gradebook's
    own commits and closes within the block not ending it?"""
    path = tmp_path / "gradebook.db"
    url = f"sqlite:///{path}"
    with Gradebook(url) as gradebook:
        gradebook.add_assignment("a1")
    with gradebook_engines.one_transaction(url):
        with Gradebook(url) as first:
            first.add_assignment("b1")  # nbgrader commits here
            connection = first.engine
        with Gradebook(url) as second:
            second.add_student("ada")
            assert sorted(a.name for a in second.assignments) == ["a1", "b1"]
            assert second.engine is connection
        assert rows(path, "assignment") == [("a1",)]
        assert rows(path, "student") == []
    assert rows(path, "assignment") == [("a1",), ("b1",)]
    assert rows(path, "student") == [("ada",)]
    with Gradebook(url) as after:  # outside the block: an engine again
        assert after.engine is not connection


def test_one_transaction_that_raises_leaves_the_database_as_it_was(tmp_path):
    """Does a block that raises leave the file as it was before it, and the next block start
    clean?"""
    path = tmp_path / "gradebook.db"
    url = f"sqlite:///{path}"
    with Gradebook(url) as gradebook:
        gradebook.add_assignment("a1")
    with pytest.raises(RuntimeError, match="midway"):
        with gradebook_engines.one_transaction(url):
            with Gradebook(url) as gradebook:
                gradebook.add_assignment("b1")
                gradebook.add_student("ada")
            raise RuntimeError("midway")
    assert rows(path, "assignment") == [("a1",)]
    assert rows(path, "student") == []
    with gradebook_engines.one_transaction(url):  # the next block starts clean
        with Gradebook(url) as gradebook:
            gradebook.add_student("bob")
    assert rows(path, "student") == [("bob",)]


def test_each_block_connects_afresh_and_sees_the_file_as_it_is_then(tmp_path):
    """Is a gradebook file replaced between two blocks (a backup put back) read anew, no
    block's connection kept for the next?"""
    path, other = tmp_path / "gradebook.db", tmp_path / "other.db"
    url = f"sqlite:///{path}"
    with Gradebook(url) as gradebook:
        gradebook.add_assignment("a1")
    shutil.copyfile(path, other)
    with gradebook_engines.one_transaction(url):
        with Gradebook(url) as gradebook:
            gradebook.add_student("ada")
            connection = gradebook.engine
    assert connection.closed
    os.replace(other, path)
    with gradebook_engines.one_transaction(url):
        with Gradebook(url) as gradebook:
            assert gradebook.students == []
            gradebook.add_student("bob")
    assert rows(path, "student") == [("bob",)]


def test_one_transaction_within_one_is_the_outer_ones(tmp_path):
    """Does a block within a block for the same database commit nothing of its own?"""
    path = tmp_path / "gradebook.db"
    url = f"sqlite:///{path}"
    with Gradebook(url):
        pass
    with gradebook_engines.one_transaction(url):
        with gradebook_engines.one_transaction(url):
            with Gradebook(url) as gradebook:
                gradebook.add_student("ada")
        assert rows(path, "student") == []
    assert rows(path, "student") == [("ada",)]


@pytest.fixture
def tables_asked(monkeypatch):
    """The names of the tables SQLAlchemy asks the database about, one by one, to make the
    missing ones (MetaData.create_all), as they are asked."""
    from sqlalchemy.sql.ddl import SchemaGenerator

    asked = []
    can_create = SchemaGenerator._can_create_table
    monkeypatch.setattr(SchemaGenerator, "_can_create_table",
                        lambda self, table: asked.append(table.name) or can_create(self, table))
    return asked


def test_tables_are_asked_about_one_by_one_only_to_make_them(tmp_path, tables_asked):
    """Does a block ask the database about each of nbgrader's tables for its first gradebook
    on a new database only (and make them), while every later open, in a block or not, finds
    them all in one query (each open asked about all 13)?"""
    path = tmp_path / "gradebook.db"
    url = f"sqlite:///{path}"
    tables = len(nbgrader.api.Base.metadata.tables)
    for asked_in_the_block in (tables, 0):
        with gradebook_engines.one_transaction(url):
            for name in ("a1", "a2", "a3"):
                with Gradebook(url) as gradebook:
                    gradebook.update_or_create_assignment(name)
        assert len(tables_asked) == asked_in_the_block
        tables_asked.clear()
    with Gradebook(url):
        assert tables_asked == []
    assert rows(path, "assignment") == [("a1",), ("a2",), ("a3",)]


def test_a_table_gone_is_made_again_as_the_gradebook_opens(tmp_path, tables_asked):
    """Where one of nbgrader's tables is missing from a gradebook, does its next open ask
    about every table and make the missing one again, as nbgrader's own open does?"""
    path = tmp_path / "gradebook.db"
    url = f"sqlite:///{path}"
    with Gradebook(url) as gradebook:
        gradebook.add_student("ada")
    with contextlib.closing(sqlite3.connect(path)) as database, database:
        database.execute("DROP TABLE comment")
    tables_asked.clear()
    with Gradebook(url) as gradebook:
        assert [s.id for s in gradebook.students] == ["ada"]
    assert len(tables_asked) == len(nbgrader.api.Base.metadata.tables)
    with contextlib.closing(sqlite3.connect(path)) as database:
        assert database.execute("SELECT count(*) FROM comment").fetchone() == (0,)  # again


def test_finding_the_tables_at_once_steps_aside_where_the_code_differs(monkeypatch):
    """Where nbgrader's Gradebook.__init__ or SQLAlchemy's creation of tables is not the code
    the speedup was written for, does nbgrader's metadata keep its own create_all?"""
    from autograder.plumbing import private_api

    metadata = nbgrader.api.Base.metadata
    monkeypatch.delattr(metadata, "create_all")  # as before install(), put back after the test
    speedup = private_api.SPEEDUPS["tables found at once"]
    monkeypatch.setitem(private_api.SPEEDUPS, "tables found at once",
                        speedup._replace(digests=("0" * 16,)))
    private_api.why_not.cache_clear()
    try:
        gradebook_engines.install()
        assert "create_all" not in vars(metadata)
        monkeypatch.setitem(private_api.SPEEDUPS, "tables found at once", speedup)
        private_api.why_not.cache_clear()
        gradebook_engines.install()
        assert "create_all" in vars(metadata)
    finally:
        private_api.why_not.cache_clear()
