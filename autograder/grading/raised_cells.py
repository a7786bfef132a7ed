"""What a cell that raised defined: the statements before the one that raised, as in the
student's own notebook, where a `def` below a failing `import` of the same cell never runs.

Grading judges each step on the text the cells define (checks/code_rules.py, `closure`), and
that text once took every statement of a cell that raised, so the step scored while the
student's notebook, and their own `check_notebook.py`, had it undefined. The first kernel's
error says where its cell stopped (IPython's `Cell In[N], line L`, the cell's own frame first);
only the statements wholly before that line count as having run. A cell whose error names no
line of its own (a syntax error, which closure cannot read anyway, or a traceback the
student's code changed) counts whole, as before: the student's code can make this lenient,
never make another cell's text count.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from autograder.checks.code_rules import without_magics

COLOUR = re.compile(r"\x1b\[[0-9;]*m")
CELL_LINE = re.compile(r"Cell In\[\d+\], line (\d+)")
UNREAD = ("SyntaxError", "IndentationError", "TabError")  # the cell did not run at all


@dataclass(frozen=True)
class Raised:
    """A cell that stopped at `line` with the error `kind`."""

    source: str
    line: int
    kind: str


def raised(source, outputs):
    """The Raised of a cell that ran with these outputs, or None when it did not raise, or
    raised where no line of its own is named."""
    error = next((o for o in outputs if o.get("output_type") == "error"), None)
    if error is None or error.get("ename") in UNREAD:
        return None
    for entry in error.get("traceback") or ():
        if isinstance(entry, str) and (found := CELL_LINE.search(COLOUR.sub("", entry))):
            return Raised(source, int(found.group(1)), str(error.get("ename", "")))
    return None


def first_unrun(stop):
    """The first line of the statement that raised (its decorators included), or None when
    the cell does not parse or the line is past its statements."""
    try:
        tree = ast.parse(without_magics(stop.source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    failed = next((node for node in tree.body if node.end_lineno >= stop.line), None)
    if failed is None:
        return None
    return min([failed.lineno, *(d.lineno for d in getattr(failed, "decorator_list", ()))])


def ran_part(stop):
    """The text of the cell before the statement that raised (its lines before that
    statement's first line, magics kept), or the whole cell when that is not known."""
    first = first_unrun(stop)
    return stop.source if first is None else "\n".join(stop.source.splitlines()[:first - 1])


def defines_unrun(stop, defines):
    """Does the cell define the name (`defines`: a pattern of a line that defines it) in the
    statement that raised or after it?"""
    first = first_unrun(stop)
    return first is not None and any(
        defines.match(line) for line in stop.source.splitlines()[first - 1:])
