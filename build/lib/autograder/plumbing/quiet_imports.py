"""Heavy imports (torch, dask, nbgrader) with Python's cyclic garbage collector paused.

Importing torch, distributed and nbgrader makes a few hundred thousand objects that all stay;
the collections they set off on the way find next to no garbage (a few hundred objects) but
walk every object made so far: in a cold `grade` of one notebook, five full collections took
0.43 of its 2.9 s. While `paused` runs, nothing is collected; after it, the objects made so far
are set aside from later collections (gc.freeze: they stay as long as the process anyway), so
a later full collection walks only what grading itself makes. The kernel template (zygote.py)
does the same with its own imports.

A Ctrl-C while they import is held until they are done (`ctrl_c_held`): raised inside numpy's
extension module as it set itself up (torch imports numpy), it was lost, the command grading
on as if never interrupted, or it broke the import ("cannot load module more than once per
process"). The fork server's start holds one so too (engine/fork_server.py).

A leaf: the standard library alone."""

from __future__ import annotations

import contextlib
import gc
import signal
import threading


@contextlib.contextmanager
def paused():
    """Collect nothing while the block imports; then freeze what exists and collect again as
    before (unless collection was already off). A Ctrl-C meanwhile comes after the block."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        with ctrl_c_held():
            yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


@contextlib.contextmanager
def ctrl_c_held():
    """Hold a Ctrl-C (SIGINT) that comes while the block runs and raise it, KeyboardInterrupt,
    once the block is done; where Python's own handler is not the one in place (SIGINT
    ignored, as in the fork server, or a handler of the caller's), or in a thread that may not
    set handlers, the block runs as it would."""
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    held = []
    signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if held:
        raise KeyboardInterrupt
