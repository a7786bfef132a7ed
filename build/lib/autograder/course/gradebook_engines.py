"""One SQLAlchemy engine per gradebook URL in a process, as SQLAlchemy means an engine to be
used: made once, its statements compiled once.

nbgrader's Gradebook makes a new engine each time it is opened, and an engine compiles every
statement the first time it runs it, for that engine only. Grading opens the gradebook about
four times a notebook in the worker (the master cells, nbgrader's OverwriteCells ...) and four
times in the client that writes the scores (SaveAutoGrades ...), and each open compiled the
same queries again: about 0.035 CPU s a notebook in the worker, 0.02 in the client.

Here nbgrader's `create_engine` hands out the engine it made for the same database before (for
at most KEPT databases; the one used least recently goes, its connections closed). The same
URL is the same database, but for an SQLite file named by a relative path, which is the file
of the folder the process is in when it opens it (SQLAlchemy makes the path absolute as it
makes the engine), and an in-memory database, which is each engine's own and never shared.
Connections are not kept: Gradebook.close disposes of its engine's pool, as it always did, so
each open connects afresh and sees the file or the server as it is then (a copied or replaced
SQLite file included); only the compiled statements outlive it.

Within `one_transaction(url)`, every gradebook this thread opens on that database shares one
connection and one transaction, committed when the block ends and rolled back when it raises.
The client writes a graded notebook so (autograder/grading/write_back.py): nbgrader's
SaveAutoGrades commits after every graded cell, 17 commits for 01 and 21 with the others, and
a client that stopped between two of them left a notebook half scored; in one transaction it
is scored whole or not at all, in two thirds of the time (136 -> 89 ms a notebook; the CPU
64 -> 59 ms: what the commits cost was mostly waiting for the disk).

And each open of a gradebook, having listed the database's tables, has MetaData.create_all
ask the database about each of nbgrader's 13 tables in turn, to create those missing. Where
the list already holds them all, there is nothing to create (`create_missing_tables`): one
query instead of thirteen, an open and close of a course's gradebook 2.6 -> 1.7 ms, and a
served grade opens it a dozen times.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from contextlib import contextmanager

import nbgrader.api
from sqlalchemy import create_engine, inspect, make_url
from sqlalchemy.engine import Connection
from sqlalchemy.sql.ddl import SchemaGenerator

from autograder.plumbing import private_api

KEPT = 8  # databases whose engines a process keeps (feedback makes one per student)
_engines = OrderedDict()  # (database, options) -> engine, the most recently used last
_lock = threading.Lock()
_joined = threading.local()  # .connections: database -> this thread's JoinedConnection


def shared_engine(url, **options):
    """The engine made for `url` (with these options) before, else a new one. An SQLite file
    named by a relative path is the file of the current folder (SQLAlchemy makes the path
    absolute when it makes the engine), and an in-memory database is never shared."""
    target = where(url)
    if target is None:
        return create_engine(url, **options)
    joined = getattr(_joined, "connections", {}).get(target)
    if joined is not None:
        return joined
    key = (target, tuple(sorted(options.items())))
    with _lock:
        engine = _engines.pop(key, None)
        if engine is None:
            engine = create_engine(url, **options)
        _engines[key] = engine
        while len(_engines) > KEPT:
            _engines.popitem(last=False)[1].dispose()
    return engine


class JoinedConnection(Connection):
    """The connection every gradebook opened within `one_transaction` gets as its engine (and
    that the block closes: like a gradebook's own, it is not kept for the next block).
    nbgrader's Gradebook binds its session to it, so the session joins the block's transaction
    (SQLAlchemy's 'rollback_only': the session's commits flush and commit nothing, its
    rollback rolls the block back); closing the gradebook disposes of its engine, which here
    leaves the block's connection open."""

    tables_made = False  # nbgrader's tables made or found in this block (_run_ddl_visitor)

    def dispose(self, close=True):
        pass

    def _run_ddl_visitor(self, visitorcallable, element, **kwargs):
        """nbgrader's Gradebook creates its tables if they are missing each time it is opened
        (MetaData.create_all, which asks the database about each of its 13 tables, four
        opens a notebook); in one block, only the first open asks: the block holds its
        transaction from then on, and the tables are there."""
        tables = visitorcallable is SchemaGenerator and element is nbgrader.api.Base.metadata
        if tables and self.tables_made and private_api.applies("one transaction"):
            return
        super()._run_ddl_visitor(visitorcallable, element, **kwargs)
        self.tables_made = self.tables_made or tables


@contextmanager
def one_transaction(url):
    """Every nbgrader gradebook this thread opens on `url`'s database within the block: one
    connection, one transaction, committed when the block ends, rolled back when it raises.
    An in-memory SQLite database (each engine its own) is left as it is."""
    target = where(url)
    if target is None:
        yield
        return
    connections = _joined.__dict__.setdefault("connections", {})
    if target in connections:  # already within a block for this database: it commits
        yield
        return
    connection = JoinedConnection(shared_engine(url))
    connection.detach()  # closed, not pooled, at the end: the next block connects afresh
    connections[target] = connection
    try:
        with connection.begin():
            yield
    finally:
        del connections[target]
        connection.close()


def where(url):
    """What an engine of `url` connects to: the URL, with an SQLite file's absolute path;
    None for an in-memory SQLite database (each engine has its own)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return parsed.render_as_string(hide_password=False)
    if not parsed.database or parsed.database == ":memory:" or "mode=memory" in str(parsed):
        return None
    return parsed.set(database=os.path.abspath(parsed.database)).render_as_string()


def every_table_there(bind) -> bool:
    """Whether the database `bind` reaches holds every table of nbgrader's gradebook, in one
    query (within one_transaction, none after the first open found them)."""
    if getattr(bind, "tables_made", False):
        return True
    there = set(nbgrader.api.Base.metadata.tables) <= set(inspect(bind).get_table_names())
    if there and isinstance(bind, JoinedConnection):
        bind.tables_made = True
    return there


def create_missing_tables(create_all):
    """nbgrader's MetaData.create_all, called by Gradebook.__init__ as the database's tables
    are listed: nothing to do where they are all there (SchemaGenerator.visit_metadata would
    create none, and nbgrader listens to no DDL event); else `create_all`, as before."""
    def create_missing(bind=None, tables=None, checkfirst=True):
        if tables is None and checkfirst and bind is not None and every_table_there(bind):
            return
        create_all(bind=bind, tables=tables, checkfirst=checkfirst)

    return create_missing


def install():
    """nbgrader's Gradebook takes its engines from shared_engine, and finds its tables in one
    query where they are there (once per process)."""
    nbgrader.api.create_engine = shared_engine
    metadata = nbgrader.api.Base.metadata
    if "create_all" not in vars(metadata) and private_api.applies("tables found at once"):
        metadata.create_all = create_missing_tables(metadata.create_all)
