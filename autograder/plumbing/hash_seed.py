"""Strings hash alike in every process that grades: the kernels and the grader that judges them.

A kernel is forked from a template started with PYTHONHASHSEED=0 (sandbox/template_start.py),
so a student's code that iterates a set of words runs in one order on every regrade. The
grader runs each catalogued mistake's code itself (checks/judge.py) to name the mistake whose
output is the student's. A mistake that iterates a set (`sorted(set(words), key=str.lower)`:
'The' and 'the' tie) gave the student's numbers in a grader hashing at random on one regrade,
and other numbers on the next: the mistake was named, then not. So every process that judges
hashes as the kernels do: the command runs itself again with the kernels' seed
(`hash_as_kernels`), and the embedded cluster's workers are forked from a server started
with it (engine/fork_server.py). The workers of an existing cluster hash as they were
started: those of dask's nannies with the nannies' seed, the same in each (a mistake is named
alike on every regrade there, though not always as the kernels' order would name it); a
worker hashing at random, or with another seed than the others, is named on the console
(engine/cluster.py).

A leaf: the standard library only."""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
from pathlib import Path

VARIABLE = "PYTHONHASHSEED"
KERNEL_SEED = "0"  # the kernels' (template_start.template_env): Python's "no randomization"


def hashes_as_kernels():
    """Whether this process hashes strings as the kernels do (PYTHONHASHSEED=0 at its start)."""
    return not sys.flags.hash_randomization


def hash_as_kernels():
    """Run this command again, the same, in a process whose strings hash as the kernels' do
    (the same pid, standard streams and arguments; it costs an interpreter's start), unless
    this one does already, or cannot (`python -E` ignores the variable: said by the cluster
    as for any worker hashing otherwise). The new process starts with SIGINT blocked (a
    thread's mask outlives exec), so that a Ctrl-C while its interpreter starts and imports
    waits to be raised here, where the caller says it (autograder/__main__.py), not as
    Python's traceback of the import it stopped."""
    if hashes_as_kernels() or sys.flags.ignore_environment or not sys.executable \
            or os.environ.get(VARIABLE) == KERNEL_SEED:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # one held raises now
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]],
                  {**os.environ, VARIABLE: KERNEL_SEED})
    finally:  # reached only where exec failed
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


@functools.cache
def seed_of_this_process():
    """The hash seed this process was started with, as PYTHONHASHSEED writes it ("0": the
    kernels'), or None where its strings hash at random (no seed, or "random"). A worker
    that dask's nanny starts has the nanny's seed, 6640, whatever the nanny's environment
    says (distributed/nanny.py)."""
    if hashes_as_kernels():
        return KERNEL_SEED
    given = (environment_at_start() or {}).get(VARIABLE)
    return given if given and given.isdecimal() else None


def environment_at_start():
    """The environment this process was started with, as every process forked from it shows
    it (/proc/<pid>/environ), whatever it set since; None where it cannot be read."""
    try:
        data = Path("/proc/self/environ").read_bytes()
    except OSError:
        return None
    pairs = (item.split(b"=", 1) for item in data.split(b"\0") if b"=" in item)
    return {key.decode(errors="replace"): value.decode(errors="replace") for key, value in pairs}


@contextlib.contextmanager
def kernels_seed_in_environment():
    """While the block runs, a process started from this one (its environment inherited)
    hashes as the kernels do."""
    before = os.environ.get(VARIABLE)
    os.environ[VARIABLE] = KERNEL_SEED
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(VARIABLE, None)
        else:
            os.environ[VARIABLE] = before
