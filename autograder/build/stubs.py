"""The code of a solution cell, made from the assignment's reference code (reference.py).

Every function body (and every method body of a class) is fenced by nbgrader's
### BEGIN SOLUTION / ### END SOLUTION after its docstring, so that the release keeps the
signature and the docstring and replaces the body by `raise NotImplementedError()`.
"""

from __future__ import annotations

import ast
import inspect
import textwrap

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"


def named_at(spec, assignment):
    """Where notebook.py names a cell's names: its path and the marker's line."""
    return f"{assignment.notebook}:{spec.line}"


def solution_code(names, assignment, where=""):
    """The source of these names of the assignment's reference, bodies fenced for nbgrader
    (`where`: the line of notebook.py that names them, named_at)."""
    return "\n\n\n".join(fenced_source(assignment.reference(name, where))
                          for name in names)


def given_code(names, assignment, where=""):
    """The source of these names of the assignment's reference, as they are (read-only
    helpers)."""
    return "\n\n\n".join(
        textwrap.dedent(inspect.getsource(assignment.reference(n, where))).rstrip()
        for n in names)


def fenced_source(obj):
    lines = textwrap.dedent(inspect.getsource(obj)).rstrip().splitlines()
    functions = outer_functions(ast.parse("\n".join(lines)))
    # Fence from the last function up, so earlier line numbers stay valid.
    for function in sorted(functions, key=lambda f: f.lineno, reverse=True):
        first = body_start(function)
        if first is None:  # a docstring-only function has nothing to hide
            continue
        indent = " " * first.col_offset
        lines.insert(function.end_lineno, indent + END)
        lines.insert(first.lineno - 1 - leading_comments(lines, first.lineno - 1), indent + BEGIN)
    return "\n".join(lines)


def outer_functions(node) -> list[ast.FunctionDef]:
    """The functions and methods whose bodies are fenced: not one inside another function's
    body (its fence would nest in the outer one's, which nbgrader refuses)."""
    found = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef):
            found.append(child)
        elif isinstance(child, ast.ClassDef):
            found += outer_functions(child)
    return found


def body_start(function):
    """The first statement after the docstring, or None."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    return body[0] if body else None


def leading_comments(lines, index):
    """How many comment lines stand right above lines[index] (they belong to the body)."""
    count = 0
    while index - count - 1 >= 0 and lines[index - count - 1].strip().startswith("#"):
        count += 1
    return count
