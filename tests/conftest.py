"""How the suite is ordered when its files run two at a time (scripts/kit test)."""

from __future__ import annotations


def pytest_collection_modifyitems(items):
    """The files marked long first, each in its place, then the rest: pytest-xdist hands out
    files in this order (--no-loadscope-reorder), so the run does not end on a long file
    while the other worker waits."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
