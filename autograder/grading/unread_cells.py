"""The release's cells grading need not run: those that only show or measure something.

A step's verdict is decided in the judging kernel, on the step's own text after the course's
locked cells (grading/session.py); the first kernel, where the notebook's cells run in order,
only gives each cell the output its feedback page shows. A cell of the release that is neither
locked nor a solution (a plot, a printed example, a measurement) and that the student left as
it is reaches no verdict, and often costs more than all the rest (a heatmap is about 80 ms
of a kernel's 200, 09's measurement 110). Such a cell is not run, unless a later cell that
runs reads a name it binds or changes: a cell of the student's that prints `scores` needs the
cell that made `scores`, and that cell then runs, with what it reads in turn.

What a skipped cell changes without naming it (the random generator's seed, an object it
calls a method of) is not seen by the outputs of the cells after it; no verdict reads those.
A cell with IPython magic or code that names what it reads only at run time (`eval`,
`globals()`) may read anything: every skipped cell before it that binds a name runs.
"""

from __future__ import annotations

import ast
import functools

from autograder.checks.code_rules import (
    DYNAMIC_CALLS,
    DYNAMIC_NAMES,
    bound_names,
    changed_names,
    course_key,
    used_names,
    without_magics,
)

ANY = "*"  # any name: what a cell may read, or bind, when its code cannot tell


def shown_only_keys(release):
    """The keys (code_rules.course_key) of the release's code cells that only show: neither
    locked, a solution nor a test."""
    return frozenset(course_key(cell.source) for cell in release.cells
                     if cell.cell_type == "code" and not any(
                         cell.metadata.get("nbgrader", {}).get(kind)
                         for kind in ("locked", "solution", "grade")))


def has_magic(source):
    return any(line.lstrip().startswith(("%", "!")) for line in source.splitlines())


@functools.lru_cache(maxsize=256)  # the course's cells are the same text in every notebook
def reads(source):
    """The global names a cell may read, now or when a function it defines is called
    ({ANY} when it cannot tell)."""
    if has_magic(source):
        return frozenset({ANY})
    now, later = used_names(source)
    names = now | later
    return frozenset({ANY} if names & (DYNAMIC_CALLS | DYNAMIC_NAMES) else names)


@functools.lru_cache(maxsize=256)
def binds(source):
    """The names a cell may bind or change in place ({ANY} when it does not parse)."""
    try:
        tree = ast.parse(without_magics(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset({ANY})
    names = set()
    for node in tree.body:
        names |= bound_names(node) | changed_names(node)
    return frozenset(names)


def unread(sources, shown_only):
    """The indices of `sources` (a notebook's code cells that run, in order) not to run: each
    cell whose key is in `shown_only` and that binds nothing a later cell that runs reads."""
    wanted, skipped = set(), set()
    for index in reversed(range(len(sources))):
        source = sources[index]
        if course_key(source) in shown_only:
            made = binds(source)
            if not (made & wanted or (made and ANY in wanted) or (ANY in made and wanted)):
                skipped.add(index)
                continue
        wanted |= reads(source)
    return skipped
