"""How a step's rule, such as "no Python loop" or "no built-in softmax", is decided on
your code. expect_rule in your notebook and the grader call the same functions on the
same text: the code of the step as the notebook last defines it, with every statement of
yours it needs (helpers, aliases, decorators, a later cell that rebinds a name it uses).
The course's own cells are never yours. When grading calls your step, only that text has
run (after the course's locked cells), so the code the rule read is the code called.
"""

import ast
import bisect
import copy
import functools
import hashlib
import re
import string
import symtable

from autograder.i18n.standalone import _t

COURSE_CELLS = frozenset()  # the build writes the keys of the course's cells here
# The build writes here the names the helper cell defines for the test cells and no other cell
# of the course binds: grading removes them before a step's code runs (the checks' own code,
# such as a probe that loops and calls back what it is given, is not the student's to call).
COURSE_HELPERS = frozenset()
HIDDEN_TESTS = tuple(f"### {edge} HIDDEN TESTS" for edge in ("BEGIN", "END"))  # nbgrader's

# Modules graded code may import: those of the course's environment whose code the rules need
# not read. A module shipped beside the notebook is not among them: its code is not judged.
ALLOWED_MODULES = frozenset({
    "torch", "math", "cmath", "numpy", "string", "unicodedata", "re", "typing", "functools",
    "itertools", "collections", "dataclasses", "operator", "__future__", "matplotlib", "sys",
    # the standard library's plain tools, which call no function of the student's once per
    # element (timeit's, random's methods and enum's hooks would): a student who timed a step
    # (`import time`) lost its points
    "time", "copy", "warnings", "statistics", "fractions", "decimal", "numbers", "heapq",
    "bisect"})
# Code whose target is decided at run time: the rules could not tell what it calls.
DYNAMIC_CALLS = frozenset({"exec", "eval", "compile", "__import__", "globals", "locals",
                           "vars", "get_ipython", "attrgetter", "methodcaller",
                           "import_module"})
DYNAMIC_NAMES = frozenset({"__dict__", "__builtins__", "builtins", "importlib",
                           "__getattribute__", "__globals__", "__code__", "__setattr__",
                           "__delattr__", "__closure__", "__self__", "modules"})
NAMED_BY_STRING = frozenset({"getattr", "setattr", "delattr", "hasattr"})
# Attributes that reach the kernel's IPython shell (which runs any text: `sys.displayhook.shell`
# and its `ev`, `ex`, `run_cell`), a frame's namespaces, or every class Python has loaded; read
# as attributes only (a variable of the student's may be called `ex`).
DYNAMIC_ATTRIBUTES = frozenset({"displayhook", "excepthook", "__displayhook__",
                                "__excepthook__", "shell", "ev", "ex", "run_cell", "user_ns",
                                "user_global_ns", "f_globals", "f_locals", "f_builtins",
                                "f_back", "__subclasses__"})
SETS_OR_GETS_BY_STRING = NAMED_BY_STRING - {"hasattr"}  # hasattr reads no value
REACHING_ANYTHING = DYNAMIC_NAMES | DYNAMIC_ATTRIBUTES  # read as attributes or by a string

LOOP_NODES = (ast.For, ast.While, ast.AsyncFor, ast.ListComp, ast.SetComp, ast.DictComp,
              ast.GeneratorExp)
# Each loop node in the words a student knows it by (literal _t calls: the build translates
# them into the helper cell).
LOOP_WORDS = {
    ast.For: lambda language: _t("a for loop", language),
    ast.While: lambda language: _t("a while loop", language),
    ast.AsyncFor: lambda language: _t("an async for loop", language),
    ast.ListComp: lambda language: _t("a list comprehension", language),
    ast.SetComp: lambda language: _t("a set comprehension", language),
    ast.DictComp: lambda language: _t("a dict comprehension", language),
    ast.GeneratorExp: lambda language: _t("a generator expression", language),
}
LOOP_CALLS = frozenset({"map", "filter", "reduce", "starmap", "accumulate", "apply_", "map_",
                        "map2_", "groupby", "filterfalse", "takewhile", "dropwhile",
                        # numpy's: each calls a Python function once per row or element
                        "apply_along_axis", "apply_over_axes", "vectorize", "frompyfunc",
                        "piecewise",
                        # re's Scanner calls its actions once per token
                        "Scanner",
                        # torch's pytree maps a function over every leaf of a structure
                        "tree_map", "tree_map_", "tree_map_only", "tree_map_only_"})
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
# The library's other names for what a fragment forbids: "no built-in softmax" forbids them
# too. softmin(-x) is softmax(x); cross entropy is minus a log-softmax; attention, fused or
# multi-head, takes a softmax inside.
KIN = {"softmax": ("softmin", "cross_entropy", "crossentropy", "scaled_dot_product_attention",
                   "multi_head_attention", "multiheadattention")}
COMPREHENSIONS = frozenset({"listcomp", "setcomp", "dictcomp", "genexpr"})
SCOPES = (*FUNCTIONS, ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


# The text a rule is decided on -------------------------------------------------------------


def without_magics(source):
    """A cell's code with IPython's `%magic` and `!shell` lines blanked (they are no Python)."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                     for line in source.splitlines())


def course_key(source):
    """A short key of a cell's code, the same for the course's cell in the release, in the
    master (hidden tests apart) and in your notebook (spaces at line ends apart)."""
    lines, hidden = [], False
    for line in source.splitlines():
        stripped = line.strip()
        if stripped == HIDDEN_TESTS[0]:
            hidden = True
        elif stripped == HIDDEN_TESTS[1]:
            hidden = False
        elif not hidden and not stripped.startswith("COURSE_CELLS = "):
            lines.append(line.rstrip())
    text = "\n".join(lines).strip()
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def statements(sources, texts=True):
    """(node, text) of every top-level statement of the cells, in order (a cell that does not
    parse contributes nothing: it did not run either); the texts are "" unless `texts`."""
    found = []
    for source in sources:
        text = without_magics(source)
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        found += zip(tree.body, segments(text, tree.body) if texts else [""] * len(tree.body),
                     strict=True)
    return found


LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def segments(text, nodes):
    """The source text of each node, as ast.get_source_segment gives it but with a
    definition's decorators (they run too: `@functools.lru_cache def f` is not `def f`), with
    the text split into lines once (get_source_segment splits it again for every node)."""
    lines = LINES.findall(text)  # split as ast splits: at \r\n, \r and \n only
    encoded = [line.encode("utf-8") for line in lines]

    def at(line, column):  # ast's columns count UTF-8 bytes
        return line - 1, len(encoded[line - 1][:column].decode("utf-8"))

    found = []
    for node in nodes:
        (first, start), (last, end) = at(node.lineno, node.col_offset), \
            at(node.end_lineno, node.end_col_offset)
        if getattr(node, "decorator_list", None):
            first, start = decorator_start(lines, *at(node.decorator_list[0].lineno,
                                                      node.decorator_list[0].col_offset))
        if first == last:
            found.append(lines[first][start:end])
        else:
            found.append(lines[first][start:] + "".join(lines[first + 1:last])
                         + lines[last][:end])
    return found


def decorator_start(lines, line, column):
    """(line, column) of the `@` before a decorator's expression at (line, column): only
    blanks and backslash line continuations may stand between them."""
    while "@" not in lines[line][:column]:
        line, column = line - 1, len(lines[line - 1])
    return line, lines[line].rindex("@", 0, column)


def import_bound(alias):
    """The name one name of an import binds: `import a.b` binds a, `import a.b as c` c."""
    return (alias.asname or alias.name).split(".")[0]


def bound_names(node):
    """The module-level names a top-level statement may bind: what it assigns, defines or
    imports outside any function (in a branch, a loop or a `with` too), and every name one of
    its functions declares `global`. A star import binds '*' (any name)."""
    names = set()

    def visit(item, in_scope):
        if isinstance(item, ast.Global):
            names.update(item.names)
        if not in_scope:
            if isinstance(item, DEFINITIONS):
                names.add(item.name)
            elif isinstance(item, ast.Name) and isinstance(item.ctx, ast.Store | ast.Del):
                names.add(item.id)
            elif isinstance(item, ast.Import | ast.ImportFrom):
                names.update(map(import_bound, item.names))
        inner = in_scope or isinstance(item, SCOPES)
        for child in ast.iter_child_nodes(item):
            # a definition's decorators and defaults run where it is defined
            child_scope = inner and not (isinstance(item, DEFINITIONS) and
                                         child in (*item.decorator_list,))
            visit(child, child_scope)

    visit(node, False)
    return names


def surely_bound(node):
    """The names a top-level statement binds whatever happens: a definition, a plain
    assignment, an import. An earlier binding of such a name is dead from here on."""
    if isinstance(node, DEFINITIONS):
        return {node.name}
    if isinstance(node, ast.Import | ast.ImportFrom):
        return {import_bound(a) for a in node.names if a.name != "*"}
    targets = node.targets if isinstance(node, ast.Assign) else \
        [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else []
    names = set()
    for target in targets:
        elements = target.elts if isinstance(target, ast.Tuple | ast.List) else [target]
        names.update(e.id for e in elements if isinstance(e, ast.Name))
    return names


def changed_names(node):
    """The names whose object a top-level statement changes in place: `torch.exp = f`,
    `table[0] = x`, `setattr(F, "softmax", g)`, `del m.attr`."""
    roots = set()
    for item in ast.walk(node):
        target = None
        if isinstance(item, ast.Attribute | ast.Subscript) and \
                isinstance(item.ctx, ast.Store | ast.Del):
            target = item
        elif isinstance(item, ast.Call) and getattr(item.func, "id", None) in \
                {"setattr", "delattr"} and item.args:
            target = item.args[0]
        while isinstance(target, ast.Attribute | ast.Subscript):
            target = target.value
        if isinstance(target, ast.Name):
            roots.add(target.id)
    return roots


def decorated_names(node):
    """The names a definition's decorators reach into: `f` of `@f.register` (functools'
    singledispatch registers the definition on f) and `g` of `@same_as(g)` (a decorator may
    store into what it is given). Running the definition may change those objects."""
    names = set()
    for decorator in getattr(node, "decorator_list", ()):
        if isinstance(decorator, ast.Call):
            for argument in [*decorator.args, *(k.value for k in decorator.keywords)]:
                names.update(n.id for n in ast.walk(argument) if isinstance(n, ast.Name))
            decorator = decorator.func
        while isinstance(decorator, ast.Attribute):
            decorator = decorator.value
            if isinstance(decorator, ast.Name):
                names.add(decorator.id)
    return names


def functions_changes(program, changes):
    """{name: what the student's definitions of a function by that name change in place}."""
    found = {}
    for (node, _, mine), changed in zip(program, changes, strict=True):
        if mine and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.setdefault(node.name, set()).update(changed)
    return found


def decorators_changes(node, functions):
    """What the student's own decorators of a definition change when they run on it: the
    names each one's definition changes in place (`@part` whose body stores the function in
    a table, `PARTS[f.__name__] = f`, fills the table the step reads); `functions`:
    functions_changes of the cells."""
    own = {decorator.id for decorator in getattr(node, "decorator_list", ())
           for decorator in [getattr(decorator, "func", decorator)]
           if isinstance(decorator, ast.Name)}
    return set().union(*(functions.get(name, ()) for name in own))


def used_names(text):
    """(names read when the statement runs, names read later, when a function it defines is
    called): the global names its code reads, parameters and locals left out."""
    try:
        table = symtable.symtable(text, "<cell>", "exec")
    except (SyntaxError, ValueError, RecursionError):
        return set(), set()
    now, later = set(), set()
    tables = [(table, False)]
    while tables:
        current, deferred = tables.pop()
        for symbol in current.get_symbols():
            if (symbol.is_referenced() or symbol.is_declared_global()) and (
                    current.get_type() == "module" or symbol.is_global()):
                (later if deferred else now).add(symbol.get_name())
        for child in current.get_children():
            runs_later = deferred or (child.get_type() == "function" and child.get_name()
                                      not in COMPREHENSIONS)
            tables.append((child, runs_later))
    return now, later


@functools.lru_cache(maxsize=64)
def cell_statements(source, texts):
    """statements([source], texts), kept for the last cells read: the course's cells (the
    helper cell is 600 lines) are the same text in every notebook a grader reads."""
    return tuple(statements([source], texts=texts))


@functools.lru_cache(maxsize=4)
def program_of(sources, course):
    """What closure reads of the cells, for every name at once: the top-level statements as
    (node, text, whether the student's), and per statement the names it binds, changes,
    surely binds and reads. Kept for the last few notebooks' cells, since grading asks a
    closure for each step of the same cells (the trees are only read, never changed)."""
    program = []
    for source in sources:
        own = course_key(source) not in course
        program += [(node, text, own) for node, text in cell_statements(source, own)]
    # What the course's statements bind, change or read never enters the text; only what
    # they surely bind counts (it ends a student's earlier binding).
    binds = [bound_names(node) if own else set() for node, _, own in program]
    imported = set().union(*(surely_bound(node) for node, _, _ in program
                             if isinstance(node, ast.Import | ast.ImportFrom)))
    changes = [changed_names(node) | (decorated_names(node) - imported) if own else set()
               for node, _, own in program]
    functions = functions_changes(program, changes)
    changes = [changed | decorators_changes(node, functions) if own else changed
               for (node, _, own), changed in zip(program, changes, strict=True)]
    surely = [surely_bound(node) for node, _, _ in program]
    reads = [used_names(text) if own else ((), ()) for _, text, own in program]
    return program, binds, reads, statements_by_name(program, binds, changes, surely)


def statements_by_name(program, binds, changes, surely) -> dict:
    """{name: (the student's statements that bind or change it, those that surely bind it)},
    each a list of indices in order; under "*", the student's statements that may bind any
    name (`from m import *`). closure looks a name up here, not over every statement: a
    notebook of tens of thousands of definitions costs in proportion to its size."""
    found = {}
    for index, (_, _, own) in enumerate(program):
        touched = (binds[index] | changes[index]) if own else set()
        for name in touched | surely[index]:
            entry = found.setdefault(name, ([], []))
            if name in touched:
                entry[0].append(index)
            if name in surely[index]:
                entry[1].append(index)
    return found


class Untaken:
    """A sorted list of statement indices, each handed out once: take_within(start, end)
    gives those from `start` to before `end` not given before, in time for what it gives
    (a next-untaken pointer per place, its paths shortened)."""

    def __init__(self, indices):
        self.indices = indices
        self.next = list(range(len(indices) + 1))

    def free_from(self, place):
        root = place
        while self.next[root] != root:
            root = self.next[root]
        while self.next[place] != root:  # shorten the path walked
            self.next[place], place = root, self.next[place]
        return root

    def take_within(self, start, end):
        place = self.free_from(bisect.bisect_left(self.indices, start))
        while place < len(self.indices) and self.indices[place] < end:
            yield self.indices[place]
            self.next[place] = place + 1
            place = self.free_from(place + 1)


def within(indices, start, end):
    """The indices of a sorted list from `start` to before `end`."""
    return indices[bisect.bisect_left(indices, start):bisect.bisect_left(indices, end)]


def closure(sources, name, course=COURSE_CELLS, apart=()):
    """The text of `name` as the cells define it: the student's statements that bind it
    from its last sure binding on (an earlier one is dead), followed transitively, in
    notebook order. A name read when a statement runs needs its bindings before that
    statement; a name read inside a function, those in force at the end. Cells whose key is
    in `course` are the course's: they run, but are never the student's text. Names in
    `apart` (the earlier steps a step uses: each is judged in its own step, and the
    reference stands in for it when this one is graded) are not followed. None when no
    student statement binds `name`."""
    program, binds, reads, by_name = program_of(tuple(sources), frozenset(course))
    end, nothing = len(program), ([], [])
    stars = Untaken(by_name.get("*", nothing)[0])  # may bind any name: each taken once
    wanted, taken, reached = [(name, end)], set(), {}

    def take(index):  # what a statement reads is wanted once, whichever name took it
        if index not in taken:
            taken.add(index)
            now, later = reads[index]
            wanted.extend([(n, index) for n in now] + [(n, end) for n in later])

    while wanted:
        needed, upto = wanted.pop()
        if needed in apart and needed != name:
            continue
        touching, sure = by_name.get(needed, nothing)
        before = bisect.bisect_left(sure, upto)
        start = sure[before - 1] if before else 0  # its last sure binding before `upto`
        # the statements from `start` up to what an earlier want of the name reached are
        # taken already: each statement is looked at once for each of its names' bindings
        low = max(start, reached.get((needed, start), start))
        if upto <= low:
            continue
        reached[(needed, start)] = upto
        for index in within(touching, low, upto):
            take(index)
        for index in stars.take_within(start, upto):
            take(index)
    if not any(name in binds[i] or "*" in binds[i] for i in taken):
        return None
    return "\n\n".join(text for index, (_, text, _) in enumerate(program) if index in taken)


# What the text does -----------------------------------------------------------------------


def literal_names(tree):
    """{variable: its strings} for loops over a literal list of names (`for n in ("a", "b")`):
    getattr(m, n) there names what it reaches as plainly as getattr(m, "a")."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.For | ast.comprehension) and isinstance(node.target, ast.Name) \
                and isinstance(node.iter, ast.Tuple | ast.List | ast.Set) and all(
                    isinstance(e, ast.Constant) and isinstance(e.value, str)
                    for e in node.iter.elts):
            names.setdefault(node.target.id, set()).update(e.value for e in node.iter.elts)
    return names


def attribute_names(tree):
    """Every name, attribute name, imported name and name given to getattr as a string that a
    piece of code mentions."""
    names = set()
    loops = literal_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Name):
            names.add(node.id)
            names.update(loops.get(node.id, ()))
        elif isinstance(node, ast.alias):
            names.update(node.name.split("."))
        elif string_named(node):
            names.add(string_named(node))
    return names


def string_named(node):
    """The attribute a call such as getattr(torch, "softmax") names by a literal string, or
    None."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) in NAMED_BY_STRING and \
            len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and \
            isinstance(node.args[1].value, str):
        return node.args[1].value
    return None


def own_names(tree):
    """The names the code itself defines: functions, classes, parameters, variables."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, DEFINITIONS):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def library_names(tree):
    """The names of libraries a piece of code mentions: those it does not define itself, and,
    whatever it defines, every imported name and every attribute read from a name it does not
    define (`F.layer_norm` beside the student's own `layer_norm` is the library's). Each
    attribute of a library also comes dotted as written (`F.layer_norm`,
    `torch.nn.functional.layer_norm`), for the rules that forbid it but not a name of the
    course's such as the student's own `layer_norm`."""
    own = own_names(tree)
    names = attribute_names(tree) - own
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and (root := root_name(node)) not in own:
            names.add(node.attr)
            if root:
                names.add(ast.unparse(node))
        elif isinstance(node, ast.ImportFrom):
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.alias):
            names.update(node.name.split("."))
        elif string_named(node) and root_name(node.args[0]) not in own:
            names.add(f"{ast.unparse(node.args[0])}.{string_named(node)}")
    return names


def matches(fragment, name):
    """Whether a library name holds a rule's fragment (case ignored): a fragment with a dot
    (`.layer_norm`) is looked for in the dotted names only, one without in the plain names."""
    return ("." in fragment) == ("." in name) and fragment in name.lower()


def root_name(node):
    """The name an attribute chain starts from (`torch` of `torch.nn.functional.softmax`), or
    None when it starts from an expression (`(x + 1).softmax`)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def library_method(call):
    """Whether a call is a method of the course's libraries that shares its name with a
    builtin that runs code it is given, called as the builtin cannot be: a module's eval()
    or modules() (the builtin eval needs its code; sys.modules is no function), re.compile
    of a pattern (the builtin compile needs a file name and a mode too)."""
    func, given = call.func, len(call.args) + len(call.keywords)
    if not isinstance(func, ast.Attribute):
        return False
    return (func.attr in ("eval", "modules") and given == 0) or \
        (func.attr == "compile" and root_name(func) == "re" and given <= 2)


def unverifiable(tree, language=None):
    """Why no rule can tell from this code what it calls (None when one can): code that
    decides at run time what it reaches, or imports code the rules do not read."""
    loops = literal_names(tree)
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    methods = {id(node.func) for node in calls if library_method(node)}
    called = {id(node.func) for node in calls}
    for node in ast.walk(tree):
        if id(node) in methods:
            continue
        if isinstance(node, ast.Name) and node.id in SETS_OR_GETS_BY_STRING and \
                id(node) not in called:  # `g = getattr`, then g(torch, "_C")
            return _t("it uses {name} without calling it, so the names it reaches are "
                      "decided at run time", language, name=node.id)
        if isinstance(node, ast.Call):
            name = called_name(node)
            if name in DYNAMIC_CALLS and id(node.func) not in methods:
                return _t("it calls {name}()", language, name=name)
            if name in SETS_OR_GETS_BY_STRING and not (len(node.args) >= 2 and (
                    isinstance(node.args[1], ast.Constant) or
                    getattr(node.args[1], "id", None) in loops or
                    getattr(node.args[0], "id", None) == "self")):  # its own attributes
                return _t("it calls {name}() with a name computed at run time", language,
                          name=name)
            named = string_named(node)
            if named in REACHING_ANYTHING:  # getattr(sys, "...")
                return _t("it uses {name}", language, name=named)
        elif isinstance(node, ast.Attribute) and node.attr in REACHING_ANYTHING:
            return _t("it uses {name}", language, name=node.attr)
        elif isinstance(node, ast.Name) and node.id in DYNAMIC_NAMES:
            return _t("it uses {name}", language, name=node.id)
        elif isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return _t("it imports * from a module", language)
    return outside_import(tree, language)


def outside_import(tree, language=None):
    """Why the code cannot run where grading calls it: it imports a module that is not one
    of the course's libraries (a file handed in beside the notebook), or None."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [("." * node.level) + (node.module or "")]
            for module in modules:
                if module.split(".")[0] not in ALLOWED_MODULES:
                    return _t("it imports {module}, whose code is not judged (graded code may "
                              "import {allowed}); put that code in the notebook", language,
                              module=module, allowed=", ".join(sorted(ALLOWED_MODULES - {
                                  "__future__"})))
    return None


def helpers_read(tree, helpers, language=None):
    """Why the code cannot run where grading calls it because it reads names of the course's
    helper cell (`helpers`) that it does not bind itself, or None."""
    read = sorted({node.id for node in ast.walk(tree) if isinstance(node, ast.Name)
                   and isinstance(node.ctx, ast.Load) and node.id in helpers}
                  - own_names(tree) - other_bindings(tree))
    return _t("it uses {names}, which the course's helper cell defines for the test cells: "
              "grading removes them before your step's code runs, so write what you need "
              "yourself", language, names=_t(", ", language).join(read)) if read else None


def other_bindings(tree):
    """The names the code binds that own_names leaves out: imports (anywhere), `except ... as`
    and the captures of `match`."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.alias):
            names.add(import_bound(node))
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar):
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping):
            names.add(node.rest)
    return names - {None}


def function_bodies(tree):
    """The code that runs when a function of the text is called: every function's and
    lambda's body (decorators and defaults run once, where it is defined)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda):
            yield node.body
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from node.body


# The roots of the bases a class of the student's may derive from: torch's modules.
TORCH_BASES = frozenset({"torch", "nn", "Module", "object"})
# The special methods a class may have that no built-in calls once per element: any other
# (__iter__, __getitem__, __add__ for sum(rows, start), __eq__ for list.count, __lt__ for
# sorted and max, __hash__ for set, __mul__ for math.prod, __repr__ for repr of a list ...)
# lets a built-in walk a list of its objects, a loop with no loop statement. __call__ is
# here since what calls it many times is a loop of its own (map, a key=, a json hook).
# (__class_getitem__ is not: str.translate given the class calls it once per character.)
ONCE_SPECIAL = frozenset({"__init__", "__new__", "__del__", "__init_subclass__",
                          "__set_name__", "__post_init__", "__enter__", "__exit__",
                          "__call__"})
# Keywords whose function a call runs once per element: sorted's and max's key, json's hooks.
PER_ELEMENT_KEYWORDS = frozenset({"key", "default", "object_hook", "object_pairs_hook",
                                  "parse_float", "parse_int", "parse_constant",
                                  # dataclasses' asdict and astuple: once per nested object
                                  "dict_factory", "tuple_factory"})


def recursion(tree):
    """The name of a function or lambda of the text that calls itself, directly or through
    others (a loop with no loop statement), or None. A lambda counts by the name it is bound
    to (`f = lambda n: ... f(n - 1)`), and one that calls a parameter with that parameter
    (`(lambda f, n: f(f, n))`) calls itself."""
    calls = {}
    functions = {node.name for node in ast.walk(tree) if isinstance(node, DEFINITIONS)}
    properties = property_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            # calling a class runs its __init__ (and what that calls); reading a property
            # of an object runs its function (`self.done` in the property `done`; not
            # `self.inner.done`, a property handing on another object's)
            calls.setdefault(node.name, set()).update(
                called_names(node) | {n.attr for n in ast.walk(node) if isinstance(
                    n, ast.Attribute) and isinstance(n.ctx, ast.Load) and isinstance(
                    n.value, ast.Name) and n.attr in properties})
        elif isinstance(node, ast.Assign):
            # a lambda bound to a name, a second name of a function (`again = rows`), a table
            # holding it (`ME = [rows]`, called as ME[0](...)), or anything made of it
            # (`again = functools.partial(rows)`): calling the name may call those
            if isinstance(node.value, ast.Lambda):
                callees = called_names(node.value)
            elif isinstance(node.value, ast.Name):
                callees = {node.value.id}
            else:  # the functions of the text it names (`dims = (dims,)` is data)
                callees = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)
                           and n.id in functions} | (
                    set().union(*(called_names(n) for n in ast.walk(node.value)
                                  if isinstance(n, ast.Lambda))))
            for target in node.targets:  # `AGAIN[0] = rows` files it in the table AGAIN
                name = target.id if isinstance(target, ast.Name) else subscripted(target)
                if name:  # `scores = scores(q, k)` rebinds a result
                    calls.setdefault(name, set()).update(
                        callees if isinstance(node.value, ast.Lambda) else callees - {name})
    for node in ast.walk(tree):
        if isinstance(node, FUNCTIONS) and self_applied(node):
            return getattr(node, "name", "lambda")
    for start in calls:
        seen, todo = set(), list(calls[start])
        while todo:
            callee = todo.pop()
            if callee == start:
                return start
            if callee in calls and callee not in seen:
                seen.add(callee)
                todo += calls[callee]
    return None


def property_names(tree):
    """The names of the text's properties: functions decorated with property,
    functools.cached_property or a property's getter, and class attributes bound to
    property(...) (reading one, `obj.name`, calls its function)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
                (getattr(d, "id", None) or getattr(d, "attr", None)) in PROPERTY_DECORATORS
                for d in node.decorator_list):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            for statement in node.body:
                if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call) \
                        and getattr(statement.value.func, "id", None) in PROPERTY_DECORATORS:
                    names |= {t.id for t in statement.targets if isinstance(t, ast.Name)}
    return names


PROPERTY_DECORATORS = frozenset({"property", "cached_property", "getter"})


def called_names(node):
    """The names the calls of a piece of code call, `super().name(...)` aside (a method
    calling its parent's of the same name, `super().__init__()`, does not call itself); an
    object called as `self(...)` runs its class's __call__."""
    names = set()
    for call in ast.walk(node):
        if isinstance(call, ast.Call) and not parents_method(call):
            names |= callee_names(call.func)
    return names


CALLED_AS = {"self": "__call__"}  # the method a call of the name runs


def callee_names(func) -> set:
    """The names a call of `func` may run: a name or an attribute's, the table it is taken
    from (`ME[0](...)`), every name inside another expression (`(rows,)[0](...)`), and
    `type(self)(...)` or `self.__class__(...)` runs the class's __init__."""
    if isinstance(func, ast.Name):
        return {CALLED_AS.get(func.id, func.id)}
    if isinstance(func, ast.Attribute):  # self.__class__(...) makes an object: __init__
        return {"__init__" if func.attr == "__class__" else func.attr}
    if isinstance(func, ast.Call) and getattr(func.func, "id", None) == "type":
        return {"__init__"}
    table = subscripted(func)
    if table:
        return {table}
    return {n.id for n in ast.walk(func) if isinstance(n, ast.Name)}


def subscripted(func):
    """The table a call's function is taken from (`ME` of `ME[0](...)`), or None."""
    while isinstance(func, ast.Subscript):
        func = func.value
    return func.id if isinstance(func, ast.Name) else None


def parents_method(call):
    func = call.func
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and \
        isinstance(func.value.func, ast.Name) and func.value.func.id == "super"


def self_applied(function):
    """Whether a function calls one of its parameters with that parameter among the
    arguments: the shape of a recursion written without a name (a fixed-point combinator)."""
    params = {a.arg for a in (*function.args.posonlyargs, *function.args.args,
                              *function.args.kwonlyargs)}
    for call in ast.walk(function):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and \
                call.func.id in params and any(
                    isinstance(a, ast.Name) and a.id == call.func.id
                    for a in (*call.args, *(k.value for k in call.keywords))):
            return True
    return False


def iterating_class(tree):
    """'Class.__getitem__' of a class of the text with a special method a built-in may call
    once per element of a list of its objects (list(obj), sum(objs), objs.count(x),
    sorted(objs): ONCE_SPECIAL), or 'Class(Base)' of one derived from a library's class other
    than torch's (string.Formatter calls format_field once per field, html.parser's
    HTMLParser a handler once per tag), or None."""
    own = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                root = root_name(base)
                if root not in own and root not in TORCH_BASES:
                    return f"{node.name}({ast.unparse(base)})"
            for item in node.body:
                names = [item.name] if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) \
                    else method_aliases(item)
                for name in names:
                    if per_element_special(name):
                        return f"{node.name}.{name}"
    for label, methods in made_classes(tree):  # type("Table", (), {"__getitem__": f})
        if methods is None:
            return f"{label}(...)"
        for name in methods:
            if per_element_special(name):
                return f"{label}.{name}"
    return None


def per_element_special(name) -> bool:
    """Whether a class's method `name` is a special method a built-in may call once per
    element (any but ONCE_SPECIAL)."""
    return name.startswith("__") and name.endswith("__") and name not in ONCE_SPECIAL


# The factories a defaultdict may be given that make an empty value and call nothing of the
# text: any other is called once for each key missing (str.translate looks every character up)
PLAIN_TYPES = frozenset({"list", "dict", "set", "int", "float", "str", "tuple", "bool",
                         "bytes", "object", "frozenset", "Counter", "OrderedDict", "deque"})


def plain_type(node) -> bool:
    return isinstance(node, ast.Constant) and node.value is None or \
        (getattr(node, "id", None) or getattr(node, "attr", None)) in PLAIN_TYPES


def made_classes(tree):
    """(name, the names of its methods or None where they cannot be read) of each class the
    text makes by calling type with three arguments, or types.new_class."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = called_name(node)
        if name == "new_class":
            yield "new_class", None
        elif name == "type" and len(node.args) == 3:
            body = node.args[2]
            label = node.args[0].value if isinstance(node.args[0], ast.Constant) else "type"
            keys = [k.value if isinstance(k, ast.Constant) else None
                    for k in body.keys] if isinstance(body, ast.Dict) else None
            yield str(label), None if keys is None or None in keys else keys


def method_aliases(statement):
    """The names a class body's statement binds to a function (`__eq__ = compare`, `__lt__ =
    lambda a, b: ...`); not data (`__slots__ = ("a",)`, `__hash__ = None`)."""
    if not isinstance(statement, ast.Assign | ast.AnnAssign) or not isinstance(
            statement.value, ast.Lambda | ast.Name | ast.Attribute):
        return []
    targets = getattr(statement, "targets", None) or [statement.target]
    return [target.id for target in targets if isinstance(target, ast.Name)]


def python_loop(tree, language=None):
    """The first Python loop that runs when the code's functions are called (a statement, a
    comprehension, map/filter/reduce, a key= function, iter(f, sentinel), recursion of a
    function or a lambda, a class whose objects are iterated), or None. Code that runs once
    where the functions are defined (a table built at module level) is no loop of theirs, but
    a second name given to map or its kin anywhere is (`each = map`, `from functools import
    reduce as fold`)."""
    sequentials = {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign)
                   and isinstance(node.value, ast.Call) and called_name(node.value) ==
                   "Sequential" for target in node.targets if isinstance(target, ast.Name)}
    for body in function_bodies(tree):
        for node in ast.walk(body):
            if isinstance(node, LOOP_NODES):
                return LOOP_WORDS[type(node)](language)
            repeated = repeats_modules(node, sequentials)
            if repeated:
                return repeated
            if isinstance(node, ast.Call):
                name = called_name(node)
                made = loop_made_by(node)
                if made:
                    return made
                if formats_by_reading(node):
                    return f"{name}() reading fields"
                if string_named(node) in LOOP_CALLS | {"iter"}:  # getattr(functools, "reduce")
                    return f"{string_named(node)}()"
                if name == "iter" and (len(node.args) == 2 or node.keywords or any(
                        isinstance(a, ast.Starred) for a in node.args)):
                    return "iter(function, sentinel)"
                given = next((k.arg for k in node.keywords if k.arg in PER_ELEMENT_KEYWORDS
                              and not isinstance(k.value, ast.Constant)), None)
                if given:
                    return f"{name}({given}=...)"
                if name == "defaultdict" and node.args and not plain_type(node.args[0]):
                    return "defaultdict(function)"
                if replaces_by_function(node):
                    return f"{name}(pattern, function, ...)"
    name = loop_call_renamed(tree)
    if name:
        return f"{name}()"
    made = loop_name_used(tree)
    if made:
        return made
    if any(object_array(node) for node in ast.walk(tree)):
        return _t("an array of Python objects (numpy calls each one's methods in turn)",
                  language)
    if any(isinstance(node, ast.Attribute) and node.attr == "default_factory"
           and isinstance(node.ctx, ast.Store) for node in ast.walk(tree)):
        return "defaultdict(function)"  # a factory set after it is made
    name = recursion(tree)
    if name:
        return _t("{name} calls itself", language, name=name)
    iterated = iterating_class(tree)
    return _t("{name}, which a loop walks", language, name=iterated) if iterated else None


def loop_made_by(call):
    """What a call makes that runs a Python loop when it is called or walked (its label), or
    None: map and its kin (LOOP_CALLS: `np.vectorize(f)` loops when called, `map(f, xs)` when
    walked), a Sequential given anything but modules made in its own call, whose number the
    text then need not write out (torch's own loop calls each module's forward:
    `Sequential(*[step] * n)`, `Sequential(table)`), and vmap given a chunk size (torch's own
    loop over the chunks)."""
    if not isinstance(call, ast.Call):
        return None
    name = called_name(call)
    if name in LOOP_CALLS:
        return f"{name}()"
    if name == "Sequential" and not modules_written_out(call.args):
        return "Sequential(...)"
    if any(k.arg == "chunk_size" and not (isinstance(k.value, ast.Constant) and k.value.value
                                          is None) for k in call.keywords) or (
            name == "vmap" and any(k.arg is None for k in call.keywords)):
        return "vmap(chunk_size=...)"  # also through partial(torch.vmap, chunk_size=1)
    return None


def called_name(call):
    """The name or attribute a call calls, or None."""
    return getattr(call.func, "id", None) or getattr(call.func, "attr", None)


def modules_written_out(args):
    """Whether a Sequential's arguments are modules made in its call, as many as written:
    `Sequential(A(), B())`, `Sequential(*[A(), B()])`, `Sequential(OrderedDict([("a",
    A()), ...]))`."""
    def made(node):
        return isinstance(node, ast.Call) and called_name(node) not in ("OrderedDict", "dict")

    for arg in args:
        if isinstance(arg, ast.Starred):
            arg = arg.value
            if not (isinstance(arg, ast.List | ast.Tuple) and all(map(made, arg.elts))):
                return False
        elif isinstance(arg, ast.Call) and called_name(arg) in ("OrderedDict", "dict"):
            pairs = arg.args[0] if len(arg.args) == 1 and not arg.keywords else None
            if not (isinstance(pairs, ast.List | ast.Tuple) and all(
                    isinstance(pair, ast.Tuple) and len(pair.elts) == 2 and made(pair.elts[1])
                    for pair in pairs.elts)):
                return False
        elif not made(arg):
            return False
    return True


def repeats_modules(node, sequentials):
    """'Sequential(...) * n' when a node repeats a Sequential's modules a number of times the
    text need not write out (`seq * n`, `seq *= n`, `seq.extend(more)`), else None; a name of
    `sequentials` is bound to one."""
    def is_sequential(value):
        return isinstance(value, ast.Call) and called_name(value) == "Sequential" or \
            isinstance(value, ast.Name) and value.id in sequentials

    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and (
            is_sequential(node.left) or is_sequential(node.right)) or isinstance(
            node, ast.AugAssign) and isinstance(node.op, ast.Mult) and is_sequential(
            node.target):
        return "Sequential(...) * n"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            is_sequential(node.func.value) and (node.func.attr in (
                "__mul__", "__rmul__", "__imul__") or node.func.attr == "extend" and not (
                    len(node.args) == 1 and modules_written_out([ast.Starred(node.args[0])]))):
        return f"Sequential.{node.func.attr}(...)"
    return None


def object_array(node):
    """Whether a call makes or converts to an array of Python objects, on which numpy's
    functions and operators call a method of each element's (np.exp calls each one's exp):
    dtype=object, otypes=[object], astype(object), 'O'."""
    def names_object(value):
        return any(isinstance(n, ast.Name) and n.id == "object" or isinstance(
            n, ast.Attribute) and n.attr == "object_" or isinstance(n, ast.Constant) and
            n.value in ("O", "object", "|O") for n in ast.walk(value))

    if not isinstance(node, ast.Call):
        return False
    if any(k.arg in ("dtype", "otypes") and names_object(k.value) for k in node.keywords):
        return True
    return called_name(node) == "astype" and any(names_object(a) for a in node.args) or any(
        isinstance(a, ast.Attribute) and a.attr == "object_" for a in node.args)


def formats_by_reading(call):
    """Whether a call is str.format or format_map with a format not written out, or one whose
    fields read an attribute or an item: each field read may run a property of the
    student's, once per field (`("{0.column}" * n).format(obj)`)."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr in ("format", "format_map")):
        return False
    text = call.func.value
    if not (isinstance(text, ast.Constant) and isinstance(text.value, str)):
        return True
    try:
        fields = [field for _, field, _, _ in string.Formatter().parse(text.value) if field]
    except ValueError:
        return True
    return any("." in field or "[" in field for field in fields)


def loop_name_used(tree):
    """'name (what made it)' of a name the functions of the text use that was bound where
    they are defined to what loops when called or walked (loop_made_by): a module's
    `each = np.vectorize(f)`, a default value, a decorator (`@np.vectorize`); or None. Made
    once, such a thing loops at each call all the same."""
    made = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.NamedExpr):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                pairs = zip(target.elts, node.value.elts, strict=False) if isinstance(
                    target, ast.Tuple | ast.List) and isinstance(
                    node.value, ast.Tuple | ast.List) else [(target, node.value)]
                for bound, value in pairs:
                    label = loop_made_by(value)
                    if label and isinstance(bound, ast.Name | ast.Attribute):
                        made[getattr(bound, "id", None) or bound.attr] = label
        elif isinstance(node, FUNCTIONS):
            arguments = node.args
            positional = [*arguments.posonlyargs, *arguments.args]
            defaults = [*zip(positional[len(positional) - len(arguments.defaults):],
                             arguments.defaults, strict=True),
                        *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)]
            for arg, value in defaults:
                label = loop_made_by(value)
                if label:
                    made[arg.arg] = label
            for decorator in getattr(node, "decorator_list", ()):
                name = getattr(decorator, "id", None) or getattr(decorator, "attr", None)
                label = f"{name}()" if name in LOOP_CALLS else loop_made_by(decorator)
                if label:
                    made[node.name] = label
    if not made:
        return None
    for body in function_bodies(tree):
        for node in ast.walk(body):
            name = node.id if isinstance(node, ast.Name) else \
                node.attr if isinstance(node, ast.Attribute) else None
            if name in made and isinstance(node.ctx, ast.Load):
                return f"{name} ({made[name]})"
    return None


def loop_call_renamed(tree):
    """The name of map or one of its kin (LOOP_CALLS, iter) that the text holds other than by
    calling it: bound to another name, passed on, or imported under another name; None. A
    name the text binds itself (`map = torch.softmax(...)`, an attention map) is not the
    built-in."""
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    own = names_of_its_own(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name in LOOP_CALLS and alias.asname not in (None, alias.name):
                    return alias.name
        elif id(node) not in called and (
                isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
                and node.id in LOOP_CALLS | {"iter"} and node.id not in own
                or isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id not in own and node.attr in LOOP_CALLS):
            return getattr(node, "id", None) or node.attr
    return None


def names_of_its_own(tree):
    """The names the text binds itself anywhere (an assignment, a loop's or a with's target,
    a parameter, a definition), its imports aside."""
    names = {node.id for node in ast.walk(tree)
             if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del)}
    names |= {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)}
    names |= {node.name for node in ast.walk(tree) if isinstance(node, DEFINITIONS)}
    return names


def replaces_by_function(call):
    """Whether a call is re.sub or re.subn (or a compiled pattern's) given a function to make
    each replacement: it calls it once a match."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in ("sub", "subn")) or \
            isinstance(func.value, ast.Name) and func.value.id == "torch":
        return False
    by_module = isinstance(func.value, ast.Name) and func.value.id == "re"
    given = len(call.args) + sum(k.arg in ("repl", "string") for k in call.keywords)
    if given < (3 if by_module else 2):  # re.sub(pattern, repl, string), p.sub(repl, string)
        return False
    where = 1 if by_module else 0  # repl's place, or its keyword
    replacement = call.args[where] if len(call.args) > where else next(
        (k.value for k in call.keywords if k.arg == "repl"), None)
    if replacement is None:
        return False
    return not isinstance(replacement, ast.Constant | ast.JoinedStr | ast.BinOp)


def live(body):
    """The statements of a block that can run: none after a return, raise, break or
    continue; an `if` or `while` on a constant keeps only the branch it takes."""
    kept = []
    for node in body:
        if isinstance(node, ast.If | ast.While) and isinstance(node.test, ast.Constant):
            kept += live(node.body if node.test.value else node.orelse)
            continue
        kept.append(node)
        if isinstance(node, ast.Return | ast.Raise | ast.Break | ast.Continue):
            break
    return kept


def pruned(node):
    """A copy of a function with every dead block of it left out (see live)."""

    class Prune(ast.NodeTransformer):
        def generic_visit(self, item):
            super().generic_visit(item)
            for field in ("body", "orelse", "finalbody"):
                block = getattr(item, field, None)
                if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                    setattr(item, field, live(block) or [ast.Pass()])
            return item

    return Prune().visit(copy.deepcopy(node))


def live_calls(tree):
    """The names called, or passed to a call, in code that can run when the text's functions
    are called: `torch.bmm(a, b)` and `reduce(torch.bmm, ...)` count; `torch.bmm` alone, a
    string, a dead branch or code after a return do not."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            code = pruned(node).body
        elif isinstance(node, ast.Lambda):
            code = [node.body]
        else:
            continue
        for call in (c for part in code for c in ast.walk(part) if isinstance(c, ast.Call)):
            for part in (call.func, *call.args, *(k.value for k in call.keywords)):
                if isinstance(part, ast.Attribute):
                    names.add(part.attr)
                elif isinstance(part, ast.Name):
                    names.add(part.id)
    aliases = {}  # `s = scaled_dot_score`: calling s calls scaled_dot_score
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name | ast.Attribute):
            real = getattr(node.value, "id", None) or node.value.attr
            for target in node.targets:
                if isinstance(target, ast.Name):
                    aliases.setdefault(target.id, set()).add(real)
    todo = list(names)
    while todo:
        for real in aliases.get(todo.pop(), ()):
            if real not in names:
                names.add(real)
                todo.append(real)
    return names


def uses(names, language=None):
    """'uses a, b' for the forbidden names the code uses, None when it uses none."""
    return _t("uses {names}", language, names=_t(", ", language).join(names)) if names else None


def rule_broken(kind, params, tree, language=None):
    """How code breaks a rule of this kind, or None. `language`: that of the message (None:
    the course's)."""
    names = attribute_names(tree)
    if kind == "forbids_names":
        return uses(sorted(names & set(params)), language)
    if kind == "forbids_builtins":
        fragments = {*params, *(kin for fragment in params for kin in KIN.get(fragment, ()))}
        return uses(sorted(n for n in library_names(tree)
                           if any(matches(fragment, n) for fragment in fragments)), language)
    if kind == "requires_names":
        return None if live_calls(tree) & set(params) else _t(
            "never calls {names} (a call that cannot run does not count)", language,
            names=_t(" or ", language).join(sorted(params)))
    if kind == "forbids_loops":
        loop = python_loop(tree, language)
        return _t("found a Python loop: {loop}", language, loop=loop) if loop else None
    if kind == "requires_loop":
        return None if python_loop(tree, language) else _t("has no Python loop", language)
    raise ValueError(f"no rule of kind {kind!r}")


def judged(kind, params, text, language=None, helpers=COURSE_HELPERS):
    """The one decision of a rule on a step's text (see closure): why it is broken, or None.
    No text, text that does not parse, and code no rule can follow break every rule.
    `helpers`: the names of the course's helper cell that grading removes (COURSE_HELPERS)."""
    if not text:
        return _t("no code defines it in the notebook (define it with def or class, in a "
                  "cell of yours)", language)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _t("its code does not parse", language)
    if kind == "runs_alone":  # every step: what grading runs can run there
        return outside_import(tree, language) or helpers_read(tree, helpers, language)
    dynamic = unverifiable(tree, language)
    if dynamic:
        return _t("no rule can be verified because {reason}; call what you need by name",
                  language, reason=dynamic)
    return rule_broken(kind, params, tree, language)


# In your notebook ---------------------------------------------------------------------------


def after_every_cell(callback):
    """Have IPython call `callback` after every cell from now on, however the cell ends;
    registered once, however often this runs (a callback of the same name goes first). Does
    nothing outside IPython."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None:
        return
    for registered in list(shell.events.callbacks.get("post_run_cell", [])):
        if getattr(registered, "__name__", "") == callback.__name__:
            shell.events.unregister("post_run_cell", registered)
    shell.events.register("post_run_cell", callback)


def notebook_sources():
    """The code of the cells run so far in this kernel, in the order they ran (the course's
    among them: closure leaves them out); None outside IPython."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    if shell is None:
        return None
    return [source for source in shell.history_manager.input_hist_raw[1:] if source]
