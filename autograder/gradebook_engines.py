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
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict

import nbgrader.api
from sqlalchemy import create_engine, make_url

KEPT = 8  # databases whose engines a process keeps (feedback makes one per student)
_engines = OrderedDict()  # (database, options) -> engine, the most recently used last
_lock = threading.Lock()


def shared_engine(url, **options):
    """The engine made for `url` (with these options) before, else a new one. An SQLite file
    named by a relative path is the file of the current folder (SQLAlchemy makes the path
    absolute when it makes the engine), and an in-memory database is never shared."""
    target = where(url)
    if target is None:
        return create_engine(url, **options)
    key = (target, tuple(sorted(options.items())))
    with _lock:
        engine = _engines.pop(key, None)
        if engine is None:
            engine = create_engine(url, **options)
        _engines[key] = engine
        while len(_engines) > KEPT:
            _engines.popitem(last=False)[1].dispose()
    return engine


def where(url):
    """What an engine of `url` connects to: the URL, with an SQLite file's absolute path;
    None for an in-memory SQLite database (each engine has its own)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return parsed.render_as_string(hide_password=False)
    if not parsed.database or parsed.database == ":memory:" or "mode=memory" in str(parsed):
        return None
    return parsed.set(database=os.path.abspath(parsed.database)).render_as_string()


def install():
    """nbgrader's Gradebook takes its engines from shared_engine (once per process)."""
    nbgrader.api.create_engine = shared_engine
