"""The process the embedded cluster's workers are forked from, started ahead of need.

The workers of the embedded cluster are forked from one process, multiprocessing's fork
server, which imports WORKER_IMPORTS first (about 2 CPU s), so that the workers share them
instead of each importing them anew. Started with the cluster, its imports came after the
command's own (about 1.7 s) and after the course's checks: a `grade` of a class started its
first notebook about 4 s after its launch. Started first thing (`start_early`), its imports
run on one core while the command's run on another.

The server started early is the one the cluster uses (multiprocessing keeps one per process,
and dask asks for it by method, "forkserver"). Once the cluster is closed, or as the command
exits when no cluster used it, the server is stopped (`stop`). Light on purpose (the
standard library and the kit's private_api check): importing this module costs the command
nothing before the server is on its way."""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import multiprocessing.forkserver
import multiprocessing.resource_tracker
import os
import signal

from autograder.plumbing import private_api
from autograder.plumbing.hash_seed import kernels_seed_in_environment
from autograder.plumbing.quiet_imports import ctrl_c_held
from autograder.plumbing.timeline import mark

# What a grading worker imports before its first task (distributed, torch, the kit's worker),
# imported once by the fork server; a worker that writes pages alone needs no torch.
WORKER_IMPORTS = ["autograder.engine.worker_imports"]
PAGE_IMPORTS = ["autograder.engine.page_imports"]


def start_early(imports=WORKER_IMPORTS):
    """Start the fork server now, importing `imports`, for the embedded cluster this
    process is about to start. Where it cannot start now, the cluster starts it later, as it
    would have."""
    multiprocessing.get_context("forkserver").set_forkserver_preload(imports)
    try:
        ensure_running()
    except (OSError, ValueError):
        return
    atexit.register(stop)
    server = multiprocessing.forkserver._forkserver
    mark(f"fork server: started early, pid {getattr(server, '_forkserver_pid', None)}")


def ensure_running():
    """Start the fork server unless it runs, deaf to Ctrl-C: a terminal's Ctrl-C reaches
    every process of the command, and the server, importing, printed a traceback of its
    imports under the command's own words; the command stops it (stop) and the workers forked
    from it as it ends. It is born with SIGINT blocked (ctrl_c_blocked) and ignores it before
    anything else (deaf_to_ctrl_c), as do the workers forked from it: the cluster ends them.
    A Ctrl-C meanwhile reaches the command once the server is started (ctrl_c_held). It
    hashes strings as the kernels do, and so do the workers (plumbing/hash_seed.py)."""
    with ctrl_c_held(), ctrl_c_blocked(), kernels_seed_in_environment():
        multiprocessing.forkserver.ensure_running()


@contextlib.contextmanager
def ctrl_c_blocked():
    """SIGINT blocked in this thread while the block runs, then as before: a process started
    in it is born with SIGINT blocked (its mask is this thread's), and a Ctrl-C that comes
    meanwhile waits, then reaches this process as the block ends (where ignoring SIGINT for
    the block lost it: a `grade` interrupted then graded on to its end). The resource tracker,
    which the fork server's start starts first, is started before: its start unblocks SIGINT,
    whatever was blocked."""
    multiprocessing.resource_tracker.ensure_running()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # Python runs a waiting handler here


def deaf_to_ctrl_c():
    """The fork server's first step (the first of WORKER_IMPORTS and PAGE_IMPORTS): SIGINT
    ignored, then let through, so that one held back while the server started is dropped, and
    the workers forked from it start ignoring it. Nothing in a process not born so."""
    if signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, []):
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def stop():
    """End the fork server, once the workers forked from it are gone (it would otherwise stay,
    idle, as long as this process): the next cluster starts its own. `_stop` is how Python's
    own tests end it; the module has no public way. It is told to stop with SIGTERM first: it
    holds nothing to keep, and the teardown of its interpreter (torch's and distributed's
    modules), on the end `_stop` asks for, took 0.8 s of every command that grades or writes
    feedback."""
    if not private_api.applies("fork server stop"):
        return  # it ends with this process, as Python ends it
    server = multiprocessing.forkserver._forkserver
    with contextlib.suppress(Exception):
        if server._forkserver_pid is not None:
            os.kill(server._forkserver_pid, signal.SIGTERM)
        server._stop()
