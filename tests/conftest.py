"""How the suite is ordered when its files run two at a time (scripts/kit test), and the
Ctrl-C its processes get."""

from __future__ import annotations

import signal


def pytest_configure(config):
    """A suite started in the background by a shell without job control (`bash .ci/run &` in
    a script) inherits SIGINT ignored, as POSIX has it, and so does every `grade` its tests
    start: each test of a Ctrl-C then failed (grade graded on, as it should where the shell
    asked for it). The suite gives itself, and so its processes, Python's own handler back."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(items):
    """The files marked long first, each in its place, then the rest: pytest-xdist hands out
    files in this order (--no-loadscope-reorder), so the run does not end on a long file
    while the other worker waits."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
