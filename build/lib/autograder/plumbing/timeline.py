"""Where a command's time goes. With KIT_TIMELINE=FILE in its environment, each process of a
grading run (the command, a worker, the kernel template) appends one line per moment it marks
to FILE: the time (seconds since the epoch), its pid and what happened. bench/single.py reads
the lines back as a timeline. Without the variable a mark costs one dictionary lookup.

A leaf: only the standard library, so the template (zygote.py) may import it too."""

from __future__ import annotations

import atexit
import os
import time

VARIABLE = "KIT_TIMELINE"


def mark(what):
    """Append `what` to the timeline, when one is asked for."""
    path = os.environ.get(VARIABLE)
    if path:
        with open(path, "a", encoding="utf-8") as timeline:
            timeline.write(f"{time.time():.4f} {os.getpid()} {what}\n")


@atexit.register  # registered first of all: the last exit handler to run
def _exit_handlers_done():
    mark("process: exit handlers done")
