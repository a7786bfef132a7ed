"""What a cell that raised defined: the statements before the one that raised, as in the
student's own notebook, where a `def` below a failing `import` of the same cell never runs.

Grading judges each step on the text the cells define (checks/code_rules.py, `closure`), and
that text once took every statement of a cell that raised, so the step scored while the
student's notebook, and their own `check_notebook.py`, had it undefined. The first kernel's
error says where its cell stopped (IPython's `Cell In[N], line L`, the cell's own frame first
in the part of a chained error drawn last); only the statements wholly before that line count
as having run, or, when the statement that raised is compound (a `try`, `with`, loop or `if`,
which may have bound names before it raised inside), that statement too. A cell that only
showed an error (`showtraceback()`, its status ok) ran whole. A cell whose error names no line
of its own (a syntax error, which closure cannot read anyway, `SystemExit`, or a traceback the
student's code changed) counts whole, as before: the student's code can make this lenient,
never make another cell's text count.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from autograder.checks.code_rules import without_magics
from autograder.grading.unread_cells import parsed

COLOUR = re.compile(r"\x1b\[[0-9;]*m")
CELL_LINE = re.compile(r"Cell In\[\d+\], line (\d+)")
UNREAD = ("SyntaxError", "IndentationError", "TabError")  # the cell did not run at all


@dataclass(frozen=True)
class Raised:
    """A cell that stopped at `line` with the error `kind`."""

    source: str
    line: int
    kind: str


# IPython draws a chained exception's causes first: the error that stopped the cell is the
# last part, after the last of these lines
CHAINED = ("The above exception was the direct cause of the following exception",
           "During handling of the above exception, another exception occurred")


def raised(source, outputs, status="error"):
    """The Raised of a cell that ran with these outputs and this status, or None when it did
    not raise (an error it only showed, `showtraceback()`, leaves the status "ok"), or
    raised where no line of its own is named."""
    errors = [o for o in outputs if o.get("output_type") == "error"]
    if status != "error" or not errors or errors[-1].get("ename") in UNREAD:
        return None
    lines = [COLOUR.sub("", entry) for entry in errors[-1].get("traceback") or ()
             if isinstance(entry, str)]
    last = max((index for index, line in enumerate(lines)
                if any(chained in line for chained in CHAINED)), default=-1)
    for line in lines[last + 1:]:  # the cell's own frame comes first in its part
        if found := CELL_LINE.search(line):
            return Raised(source, int(found.group(1)), str(errors[-1].get("ename", "")))
    return None


def first_unrun(stop):
    """The first line of the statement that stopped the cell (its decorators included), or
    None when the cell does not parse, the line is past its statements, or that statement
    is compound (a `try`, `with`, `for` or `if` may have bound names before it raised
    inside: it counts whole, and what follows it not)."""
    tree = parsed(without_magics(stop.source))  # shared, read only
    if tree is None:
        return None
    index, failed = next(((i, node) for i, node in enumerate(tree.body)
                          if node.end_lineno >= stop.line), (None, None))
    if failed is None:
        return None
    if isinstance(failed, COMPOUND):
        return tree.body[index + 1].lineno if index + 1 < len(tree.body) else None
    return min([failed.lineno, *(d.lineno for d in getattr(failed, "decorator_list", ()))])


COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.TryStar, ast.With,
            ast.AsyncWith, ast.Match)


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
