"""The cells grading need not run: those that only show or measure something, and, in a
notebook whose cells only define, every cell.

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

When every cell left to run only defines (`defines_only`: imports of the libraries, functions
and classes whose definition runs nothing of the student's, as most solution cells are) or is
one of the course's locked cells, the first kernel shows nothing worth its start: none is
started (Session's `first_kernel`), and each step's definitions run where it is judged. A
definition that fails (a default value that raises) fails its step, with the error. A
statement that may raise before a later definition of its cell (an import of a module this
process has not loaded, a default read from an attribute) keeps the first kernel: the student's
notebook leaves that later definition unrun, and so does grading (raised_cells.py). The
course's locked cells then show nothing on the page: they run before each step is judged.
"""

from __future__ import annotations

import ast
import builtins
import functools
import sys

from autograder.checks.code_rules import (
    ALLOWED_MODULES,
    DYNAMIC_CALLS,
    DYNAMIC_NAMES,
    bound_names,
    changed_names,
    course_key,
    used_names,
    without_magics,
)

ANY = "*"  # any name: what a cell may read, or bind, when its code cannot tell


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
def parsed(text):
    """The tree of a cell's text, or None when it does not parse: parsed once for binds and
    defines_only both (the tree is shared: read it, never change it)."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


@functools.lru_cache(maxsize=256)
def binds(source):
    """The names a cell may bind or change in place ({ANY} when it does not parse)."""
    tree = parsed(without_magics(source))
    if tree is None:
        return frozenset({ANY})
    names = set()
    for node in tree.body:
        names |= bound_names(node) | changed_names(node)
    return frozenset(names)


# Decorators a class's methods may have without running the student's code as they are defined.
PLAIN_DECORATORS = frozenset({"staticmethod", "classmethod", "property"})


def plain(node):
    """Is this expression a constant, a name or an attribute of one (nothing it runs)?"""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node is None or isinstance(node, ast.Constant | ast.Name) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant))


def plain_annotation(node):
    """An annotation that runs nothing: plain, or built of plain parts (tuple[int, str],
    Tensor | None)."""
    if isinstance(node, ast.Subscript):
        return plain_annotation(node.value) and plain_annotation(node.slice)
    if isinstance(node, ast.Tuple):
        return all(map(plain_annotation, node.elts))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return plain_annotation(node.left) and plain_annotation(node.right)
    return plain(node)


def defaults_and_annotations(node):
    """(defaults, annotations) a def reads where it is defined, those it has."""
    arguments = node.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
             *filter(None, [arguments.vararg, arguments.kwarg])]
    return ([d for d in [*arguments.defaults, *arguments.kw_defaults] if d is not None],
            [a for a in [node.returns, *(x.annotation for x in every)] if a is not None])


def quiet_function(node, decorators=frozenset()):
    """A def whose definition runs nothing: its defaults, annotations and decorators plain."""
    defaults, annotations = defaults_and_annotations(node)
    return all(isinstance(d, ast.Name) and d.id in decorators for d in node.decorator_list) \
        and all(map(plain, defaults)) and all(map(plain_annotation, annotations))


def quiet_statement(node, in_class=False):
    if isinstance(node, ast.Expr):
        return isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    if isinstance(node, ast.Pass):
        return True
    if isinstance(node, ast.Import | ast.ImportFrom):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if not node.level else [""]
        return all(name.split(".")[0] in ALLOWED_MODULES for name in names)
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return quiet_function(node, PLAIN_DECORATORS if in_class else frozenset())
    if isinstance(node, ast.ClassDef):
        return not node.decorator_list and not node.keywords and all(
            map(plain, node.bases)) and all(quiet_statement(n, True) for n in node.body)
    if in_class and isinstance(node, ast.Assign | ast.AnnAssign):
        return plain(node.value)
    return False


BUILTINS = frozenset(dir(builtins))


def resolves(node):
    """Is this import of modules this process has loaded, and of names they hold? In a kernel
    of the same libraries it cannot fail; another may (`import torch.nn.functionl`)."""
    if isinstance(node, ast.Import):
        return all(alias.name in sys.modules for alias in node.names)
    module = None if node.level else sys.modules.get(node.module or "")
    return module is not None and all(
        alias.name == "*" or alias.name in vars(module)
        or f"{node.module}.{alias.name}" in sys.modules for alias in node.names)


def simple_value(node, known):
    """A value that cannot raise where it is read: a constant, a number's sign, or a name
    bound before it (`known`)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        return isinstance(node.operand, ast.Constant) and type(node.operand.value) in (int,
                                                                                       float)
    return isinstance(node, ast.Constant) or (isinstance(node, ast.Name) and node.id in known)


def quiet_definition(node, known, in_class=False):
    """A def that cannot raise as it is defined: no decorator (a method's staticmethod,
    classmethod or property apart), defaults and annotations simple_value's."""
    defaults, annotations = defaults_and_annotations(node)
    return all(in_class and isinstance(d, ast.Name) and d.id in PLAIN_DECORATORS
               for d in node.decorator_list) \
        and all(simple_value(value, known) for value in [*defaults, *annotations])


def cannot_raise(node, bound):
    """Can this statement of a cell that only defines not raise, its cell's names bound
    before it being `bound`? An import that resolves; a def whose defaults and annotations
    are constants or names bound before; a class with no base, keyword or decorator whose
    body holds only such defs and constants. One that may raise (a base's __init_subclass__,
    an inconsistent order of bases, `-"2"`), before a later definition of the same cell,
    would leave that definition unrun in the student's notebook (raised_cells.py): its cell
    runs in the first kernel, which says where it stopped."""
    known = BUILTINS | bound
    if isinstance(node, ast.Import | ast.ImportFrom):
        return resolves(node)
    if isinstance(node, ast.Expr | ast.Pass):
        return True
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return quiet_definition(node, known)
    if isinstance(node, ast.ClassDef):
        return not (node.bases or node.keywords or node.decorator_list) and all(
            isinstance(item, ast.Expr | ast.Pass)
            or (isinstance(item, ast.Assign | ast.AnnAssign) and item.value is not None
                and simple_value(item.value, set())
                and simple_value(getattr(item, "annotation", None) or ast.Constant(0), known))
            or (isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                and quiet_definition(item, known, in_class=True))
            for item in node.body)
    return False


@functools.lru_cache(maxsize=256)
def defines_only(source):
    """Does the cell only define: imports of the libraries graded code may use, functions and
    classes whose definition runs nothing (plain defaults, no decorator but staticmethod,
    classmethod and property on a method), a docstring? And can none of its statements but
    the last raise (`cannot_raise`)? Not a cell with magic, nor one that does not parse (its
    SyntaxError is for the student to see)."""
    tree = None if has_magic(source) else parsed(source)
    if tree is None or not all(quiet_statement(node) for node in tree.body):
        return False
    bound = frozenset()
    for node in tree.body[:-1]:
        if not cannot_raise(node, bound):
            return False
        bound |= bound_names(node)
    return True


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
