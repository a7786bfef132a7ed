"""Heavy imports (torch, dask, nbgrader) with Python's cyclic garbage collector paused.

Importing torch, distributed and nbgrader makes a few hundred thousand objects that all stay;
the collections they set off on the way find next to no garbage (a few hundred objects) but
walk every object made so far: in a cold `grade` of one notebook, five full collections took
0.43 of its 2.9 s. While `paused` runs, nothing is collected; after it, the objects made so far
are set aside from later collections (gc.freeze: they stay as long as the process anyway), so
a later full collection walks only what grading itself makes. The kernel template (zygote.py)
does the same with its own imports.

A leaf: the standard library alone."""

from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def paused():
    """Collect nothing while the block imports; then freeze what exists and collect again as
    before (unless collection was already off)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()
