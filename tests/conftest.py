"""How the suite is ordered when its files run two at a time (scripts/kit test), the Ctrl-C
its processes get, and how a gradebook a test makes in its own process finds its version."""

from __future__ import annotations

import signal


def pytest_configure(config):
    """A suite started in the background by a shell without job control (`bash .ci/run &` in
    a script) inherits SIGINT ignored, as POSIX has it, and so does every `grade` its tests
    start: each test of a Ctrl-C then failed (grade graded on, as it should where the shell
    asked for it). The suite gives itself, and so its processes, Python's own handler back."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # A gradebook nbgrader's Gradebook makes in a test's own process finds its schema's
    # version as the kit's processes find it (autograder/course/gradebook_version.py), not by
    # nbgrader's `alembic` command, which no PATH of a virtualenv not activated holds (CI's):
    # such tests passed only after an earlier test of their process had opened a gradebook
    # through the kit. (test_gradebook_version puts nbgrader's own function back where it
    # asks for it.)
    from autograder.course import gradebook_version

    gradebook_version.read_in_process()


def pytest_collection_modifyitems(items):
    """The files marked long first, each in its place, then the rest: pytest-xdist hands out
    files in this order (--no-loadscope-reorder), so the run does not end on a long file
    while the other worker waits."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
