"""The code a step really runs, read by the grader from the notebook: the step's definition and
every top-level statement of the student's cells that binds a name it uses, followed
transitively (helpers, aliases such as `sm = torch.softmax`, a later cell that rebinds the
name). The rules of a step are decided on this text, in the grader, never from a count made
in the student's kernel.

Locked cells (the course's setup and given helpers) are not part of it: their names are the
course's, as imports are.
"""

from __future__ import annotations

import ast
import symtable

from autograder.grading.integrity import without_magics


def statements(sources):
    """(node, text) of every top-level statement of the cells, in order (a cell that does not
    parse contributes nothing: it did not run either)."""
    found = []
    for source in sources:
        text = without_magics(source)
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        found += [(node, ast.get_source_segment(text, node) or "") for node in tree.body]
    return found


def bound_names(node):
    """The names a top-level statement binds."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    if isinstance(node, ast.Import | ast.ImportFrom):
        return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store)}


def used_names(text):
    """The global names a statement's code reads: at top level, and inside its functions and
    classes those that are not their own (parameters and locals are left out)."""
    try:
        table = symtable.symtable(text, "<cell>", "exec")
    except (SyntaxError, ValueError, RecursionError):
        return set()
    names = set()
    tables = [table]
    while tables:
        current = tables.pop()
        for symbol in current.get_symbols():
            if symbol.is_referenced() and (current.get_type() == "module"
                                           or symbol.is_global()):
                names.add(symbol.get_name())
        tables += current.get_children()
    return names


def closure(sources, name):
    """The source of every statement `name` depends on, in notebook order (None when the
    cells never bind `name`)."""
    program = statements(sources)
    wanted, taken = {name}, set()
    changed = True
    while changed:
        changed = False
        for index, (node, text) in enumerate(program):
            if index not in taken and bound_names(node) & wanted:
                taken.add(index)
                wanted |= used_names(text)
                changed = True
    if not taken:
        return None
    return "\n\n".join(text for index, (_, text) in enumerate(program) if index in taken)
