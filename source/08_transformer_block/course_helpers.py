"""Helpers the test cells use: expect_tensor, expect_close and expect_equal check a result,
expect_rule checks that your code keeps a step's rule, decided by the same functions, on the
same code, as grading decides it. A failing check says what is wrong: the first wrong entry
and the largest difference, or the known mistake your numbers match. Under a failed test cell
you also see the arguments your function had when it raised, and the earlier step to fix
first when this step calls one whose test fails. use_course_font, called by the cells that
plot, sets the fonts their labels are drawn in.

You do not need to read or change this cell: run it, then go on to the steps below. Its
code is packed on one line, so the notebook runs on its own; to read it, open
course_helpers.py beside the notebook, the same code.
"""
import torch

LANGUAGE = "en"
ZH = {}

ZH_OS_ERRORS = {}
ZH_OS_ERROR = ""
ZH_OS_ERROR_FILES = ""

def _os_reason(error, language=None):
    if (language or LANGUAGE) != "zh" or error.errno is None:
        return error.strerror or str(error)
    import errno

    return ZH_OS_ERRORS.get(errno.errorcode.get(error.errno, ""), error.strerror or str(error))

def _os_error(error, language=None):
    if (language or LANGUAGE) != "zh" or error.errno is None:
        return str(error)
    files = [repr(name) for name in (error.filename, error.filename2) if name is not None]
    return ZH_OS_ERROR.format(reason=_os_reason(error, language), number=error.errno, files=(
        ZH_OS_ERROR_FILES.format(files=" -> ".join(files)) if files else ""))

def _os_errors_in(fields, language=None):
    return {name: _os_error(value, language) if isinstance(value, OSError) else value
            for name, value in fields.items()}

def _t(text, language=None, **fields):
    template = ZH.get(text, text) if (language or LANGUAGE) == "zh" else text
    fields = _os_errors_in(fields, language)
    return template.format(**fields) if fields else template

TOLERANCE = {"rtol": 1e-3, "atol": 1e-4}
COURSE_FONT = "Noto Sans CJK SC"
OTHER_CJK_FONTS = ("Noto Sans CJK", "Source Han Sans", "WenQuanYi", "Microsoft YaHei",
                   "PingFang", "Heiti", "SimHei", "Droid Sans Fallback")

def expect_tensor(got, shape, what=None, dtype=torch.float32):
    what = _t('the result') if what is None else what
    assert isinstance(got, torch.Tensor), _t(
        '{what} should be a torch.Tensor, but got a {kind}', what=what,
        kind=type(got).__name__)
    assert tuple(got.shape) == tuple(shape), _t(
        '{what} should have shape {shape}, but got shape {got}', what=what,
        shape=tuple(shape), got=tuple(got.shape))
    assert got.dtype == dtype, _t(
        '{what} should have dtype {dtype}, but got dtype {got}', what=what, dtype=dtype,
        got=got.dtype)

def where_wrong(got, expected):
    if got.numel() == 1:
        return _t('expected {expected:.4g}, got {got:.4g}', expected=expected.item(),
                  got=got.item())
    if not expected.is_floating_point():
        wrong = got != expected
        first = [int(i) for i in wrong.nonzero()[0]]
        if int(wrong.sum()) == 1:
            return _t('1 of {total} entries differs, at index {index}: expected {expected}, got {got}', total=wrong.numel(), index=first,
                      expected=expected[tuple(first)].item(), got=got[tuple(first)].item())
        return _t('{count} of {total} entries differ; the first at index {index}: expected {expected}, got {got}', count=int(wrong.sum()), total=wrong.numel(),
                  index=first, expected=expected[tuple(first)].item(),
                  got=got[tuple(first)].item())
    wrong = ~torch.isclose(got, expected, **TOLERANCE)
    first = [int(i) for i in wrong.nonzero()[0]]
    gap = (got - expected).abs().nan_to_num(float("inf"))
    largest = [int(i) for i in (gap == gap.max()).nonzero()[0]]
    if int(wrong.sum()) == 1:
        return _t('1 of {total} entries differs, at index {index}: expected {expected:.4g}, got {got:.4g}', total=wrong.numel(), index=first,
                  expected=expected[tuple(first)].item(), got=got[tuple(first)].item())
    return _t('{count} of {total} entries differ; the first at index {index}: expected {expected:.4g}, got {got:.4g}; the largest difference is {gap:.4g}, at index {largest}', count=int(wrong.sum()), total=wrong.numel(), index=first,
              expected=expected[tuple(first)].item(), got=got[tuple(first)].item(),
              gap=gap[tuple(largest)].item(), largest=largest)

def expect_close(got, expected, what=None, mistakes=()):
    what = _t('the result') if what is None else what
    expected = torch.as_tensor(expected, dtype=torch.float32)
    if isinstance(got, torch.Tensor) and got.dtype == expected.dtype:
        got = got.detach()
        if got.shape == expected.shape and torch.allclose(got, expected, **TOLERANCE):
            return
        for name, wrong in mistakes:
            wrong = torch.as_tensor(wrong, dtype=torch.float32)
            if wrong.shape == got.shape and torch.allclose(got, wrong, **TOLERANCE):
                raise AssertionError(known_mistake(what, name, numbers=True))
    expect_tensor(got, expected.shape, what, expected.dtype)
    raise AssertionError(_t('{what}: not the expected numbers. {where}', what=what,
                            where=where_wrong(got, expected)))

def known_mistake(what, name, numbers):
    hint = MISTAKE_HINTS.get(name)
    if numbers:
        return (_t("{what}: these are the numbers of the known mistake '{name}': {hint}",
                   what=what, name=name, hint=hint) if hint else
                _t('{what}: these are the numbers of a known mistake: {name}', what=what,
                   name=name))
    return (_t("{what}: these are the entries of the known mistake '{name}': {hint}",
               what=what, name=name, hint=hint) if hint else
            _t('{what}: these are the entries of a known mistake: {name}', what=what,
               name=name))

def expect_equal(got, expected, what=None, mistakes=()):
    what = _t('the result') if what is None else what
    if isinstance(got, torch.Tensor) and got.dtype == expected.dtype:
        if torch.equal(got, expected):
            return
        for name, wrong in mistakes:
            if torch.equal(got, wrong):
                raise AssertionError(known_mistake(what, name, numbers=False))
    expect_tensor(got, expected.shape, what, expected.dtype)
    raise AssertionError(_t('{what}: not the expected entries. {where}', what=what,
                            where=where_wrong(got, expected)))

def use_course_font():
    from matplotlib import font_manager, pyplot

    manager = font_manager.fontManager
    try:
        from noto_cjk_sans_otc import FONT_PATH
        if not any(font.fname == str(FONT_PATH) for font in manager.ttflist):
            manager.addfont(str(FONT_PATH))
    except (ImportError, OSError, RuntimeError):
        pass
    names = {font.name for font in manager.ttflist}
    found = next((name for name in (COURSE_FONT, *sorted(names)) if name in names and (
        name == COURSE_FONT or name.startswith(OTHER_CJK_FONTS))), None)
    if found is None:
        print(_t("no font of this machine draws Chinese, so the plot's Chinese labels show as boxes: install one with pip install noto-cjk-sans-otc, then restart the kernel"))
        return None
    pyplot.rcParams["font.family"] = ["DejaVu Sans", found]
    return found


import re

import torch

SHAPE_KINDS = frozenset({"RuntimeError", "IndexError", "ValueError"})
SHAPE_WORDS = re.compile(r"shape|size|dimension|\bdim\b|mat1|mat2|broadcast|expand", re.I)
LISTED_ARGUMENTS = 6
SHORT_TEXT = 40

def about_shapes(kind, message):
    return kind in SHAPE_KINDS and bool(SHAPE_WORDS.search(str(message)))

def shape_of(value, language=None):
    if isinstance(value, torch.Tensor):
        return _t('a {shape} {dtype} tensor', language, shape=tuple(value.shape),
                  dtype=str(value.dtype).removeprefix("torch."))
    if isinstance(value, bool | int | float):
        return repr(value)
    if isinstance(value, str):
        return repr(value if len(value) <= SHORT_TEXT else value[:SHORT_TEXT - 3] + "...")
    if isinstance(value, list | tuple):
        return _t('a {kind} of {count}', language, kind=type(value).__name__,
                  count=len(value))
    return _t('a {kind}', language, kind=type(value).__name__)

def called_with(named, language=None):
    shown = [shape_of(value, language) if name is None
             else f"{name}={shape_of(value, language)}" for name, value in named]
    if len(shown) > LISTED_ARGUMENTS:
        shown = shown[:LISTED_ARGUMENTS] + ["..."]
    return _t(', ', language).join(shown)

def raised(kind, message, arguments=None, language=None, shapes=None):
    text = _t('raised {kind}: {message}', language, kind=kind, message=message)
    if arguments is not None:
        text += _t(' (called with {arguments})', language, arguments=arguments)
    if about_shapes(kind, message) if shapes is None else shapes:
        text += _t("; compare each operation's shapes with the step's docstring", language)
    return text


import ast
import bisect
import copy
import functools
import hashlib
import re
import string
import symtable

HIDDEN_TESTS = tuple(f"### {edge} HIDDEN TESTS" for edge in ("BEGIN", "END"))

ALLOWED_MODULES = frozenset({
    "torch", "math", "cmath", "numpy", "string", "unicodedata", "re", "typing", "functools",
    "itertools", "collections", "dataclasses", "operator", "__future__", "matplotlib", "sys",
    "time", "copy", "warnings", "statistics", "fractions", "decimal", "numbers", "heapq",
    "bisect"})
DYNAMIC_CALLS = frozenset({"exec", "eval", "compile", "__import__", "globals", "locals",
                           "vars", "get_ipython", "attrgetter", "methodcaller",
                           "import_module"})
DYNAMIC_NAMES = frozenset({"__dict__", "__builtins__", "builtins", "importlib",
                           "__getattribute__", "__globals__", "__code__", "__setattr__",
                           "__delattr__", "__closure__", "__self__", "modules"})
NAMED_BY_STRING = frozenset({"getattr", "setattr", "delattr", "hasattr"})
DYNAMIC_ATTRIBUTES = frozenset({"displayhook", "excepthook", "__displayhook__",
                                "__excepthook__", "shell", "ev", "ex", "run_cell", "user_ns",
                                "user_global_ns", "f_globals", "f_locals", "f_builtins",
                                "f_back", "__subclasses__"})
SETS_OR_GETS_BY_STRING = NAMED_BY_STRING - {"hasattr"}
REACHING_ANYTHING = DYNAMIC_NAMES | DYNAMIC_ATTRIBUTES

LOOP_NODES = (ast.For, ast.While, ast.AsyncFor, ast.ListComp, ast.SetComp, ast.DictComp,
              ast.GeneratorExp)
LOOP_WORDS = {
    ast.For: lambda language: _t('a for loop', language),
    ast.While: lambda language: _t('a while loop', language),
    ast.AsyncFor: lambda language: _t('an async for loop', language),
    ast.ListComp: lambda language: _t('a list comprehension', language),
    ast.SetComp: lambda language: _t('a set comprehension', language),
    ast.DictComp: lambda language: _t('a dict comprehension', language),
    ast.GeneratorExp: lambda language: _t('a generator expression', language),
}
LOOP_CALLS = frozenset({"map", "filter", "reduce", "starmap", "accumulate", "apply_", "map_",
                        "map2_", "groupby", "filterfalse", "takewhile", "dropwhile",
                        "apply_along_axis", "apply_over_axes", "vectorize", "frompyfunc",
                        "piecewise",
                        "Scanner",
                        "tree_map", "tree_map_", "tree_map_only", "tree_map_only_"})
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
KIN = {"softmax": ("softmin", "cross_entropy", "crossentropy", "scaled_dot_product_attention",
                   "multi_head_attention", "multiheadattention")}
COMPREHENSIONS = frozenset({"listcomp", "setcomp", "dictcomp", "genexpr"})
SCOPES = (*FUNCTIONS, ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)

def without_magics(source):
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                     for line in source.splitlines())

def course_key(source):
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
    lines = LINES.findall(text)
    encoded = [line.encode("utf-8") for line in lines]

    def at(line, column):
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
    while "@" not in lines[line][:column]:
        line, column = line - 1, len(lines[line - 1])
    return line, lines[line].rindex("@", 0, column)

def import_bound(alias):
    return (alias.asname or alias.name).split(".")[0]

def bound_names(node):
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
            child_scope = inner and not (isinstance(item, DEFINITIONS) and
                                         child in (*item.decorator_list,))
            visit(child, child_scope)

    visit(node, False)
    return names

def surely_bound(node):
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
    found = {}
    for (node, _, mine), changed in zip(program, changes, strict=True):
        if mine and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.setdefault(node.name, set()).update(changed)
    return found

def decorators_changes(node, functions):
    own = {decorator.id for decorator in getattr(node, "decorator_list", ())
           for decorator in [getattr(decorator, "func", decorator)]
           if isinstance(decorator, ast.Name)}
    return set().union(*(functions.get(name, ()) for name in own))

def used_names(text):
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
    return tuple(statements([source], texts=texts))

@functools.lru_cache(maxsize=4)
def program_of(sources, course):
    program = []
    for source in sources:
        own = course_key(source) not in course
        program += [(node, text, own) for node, text in cell_statements(source, own)]
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

    def __init__(self, indices):
        self.indices = indices
        self.next = list(range(len(indices) + 1))

    def free_from(self, place):
        root = place
        while self.next[root] != root:
            root = self.next[root]
        while self.next[place] != root:
            self.next[place], place = root, self.next[place]
        return root

    def take_within(self, start, end):
        place = self.free_from(bisect.bisect_left(self.indices, start))
        while place < len(self.indices) and self.indices[place] < end:
            yield self.indices[place]
            self.next[place] = place + 1
            place = self.free_from(place + 1)

def within(indices, start, end):
    return indices[bisect.bisect_left(indices, start):bisect.bisect_left(indices, end)]

def closure(sources, name, course=COURSE_CELLS, apart=()):
    program, binds, reads, by_name = program_of(tuple(sources), frozenset(course))
    end, nothing = len(program), ([], [])
    stars = Untaken(by_name.get("*", nothing)[0])
    wanted, taken, reached = [(name, end)], set(), {}

    def take(index):
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
        start = sure[before - 1] if before else 0
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

def literal_names(tree):
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.For | ast.comprehension) and isinstance(node.target, ast.Name) \
                and isinstance(node.iter, ast.Tuple | ast.List | ast.Set) and all(
                    isinstance(e, ast.Constant) and isinstance(e.value, str)
                    for e in node.iter.elts):
            names.setdefault(node.target.id, set()).update(e.value for e in node.iter.elts)
    return names

def attribute_names(tree):
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
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) in NAMED_BY_STRING and \
            len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and \
            isinstance(node.args[1].value, str):
        return node.args[1].value
    return None

def own_names(tree):
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
    return ("." in fragment) == ("." in name) and fragment in name.lower()

def root_name(node):
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None

def library_method(call):
    func, given = call.func, len(call.args) + len(call.keywords)
    if not isinstance(func, ast.Attribute):
        return False
    return (func.attr in ("eval", "modules") and given == 0) or \
        (func.attr == "compile" and root_name(func) == "re" and given <= 2)

def unverifiable(tree, language=None):
    loops = literal_names(tree)
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    methods = {id(node.func) for node in calls if library_method(node)}
    called = {id(node.func) for node in calls}
    for node in ast.walk(tree):
        if id(node) in methods:
            continue
        if isinstance(node, ast.Name) and node.id in SETS_OR_GETS_BY_STRING and \
                id(node) not in called:
            return _t('it uses {name} without calling it, so the names it reaches are decided at run time', language, name=node.id)
        if isinstance(node, ast.Call):
            name = called_name(node)
            if name in DYNAMIC_CALLS and id(node.func) not in methods:
                return _t('it calls {name}()', language, name=name)
            if name in SETS_OR_GETS_BY_STRING and not (len(node.args) >= 2 and (
                    isinstance(node.args[1], ast.Constant) or
                    getattr(node.args[1], "id", None) in loops or
                    getattr(node.args[0], "id", None) == "self")):
                return _t('it calls {name}() with a name computed at run time', language,
                          name=name)
            named = string_named(node)
            if named in REACHING_ANYTHING:
                return _t('it uses {name}', language, name=named)
        elif isinstance(node, ast.Attribute) and node.attr in REACHING_ANYTHING:
            return _t('it uses {name}', language, name=node.attr)
        elif isinstance(node, ast.Name) and node.id in DYNAMIC_NAMES:
            return _t('it uses {name}', language, name=node.id)
        elif isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return _t('it imports * from a module', language)
    return outside_import(tree, language)

def outside_import(tree, language=None):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [("." * node.level) + (node.module or "")]
            for module in modules:
                if module.split(".")[0] not in ALLOWED_MODULES:
                    return _t('it imports {module}, whose code is not judged (graded code may import {allowed}); put that code in the notebook', language,
                              module=module, allowed=", ".join(sorted(ALLOWED_MODULES - {
                                  "__future__"})))
    return None

def helpers_read(tree, helpers, language=None):
    read = sorted({node.id for node in ast.walk(tree) if isinstance(node, ast.Name)
                   and isinstance(node.ctx, ast.Load) and node.id in helpers}
                  - own_names(tree) - other_bindings(tree))
    return _t("it uses {names}, which the course's helper cell defines for the test cells: grading removes them before your step's code runs, so write what you need yourself", language, names=_t(', ', language).join(read)) if read else None

def other_bindings(tree):
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
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda):
            yield node.body
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from node.body

TORCH_BASES = frozenset({"torch", "nn", "Module", "object"})
ONCE_SPECIAL = frozenset({"__init__", "__new__", "__del__", "__init_subclass__",
                          "__set_name__", "__post_init__", "__enter__", "__exit__",
                          "__call__"})
PER_ELEMENT_KEYWORDS = frozenset({"key", "default", "object_hook", "object_pairs_hook",
                                  "parse_float", "parse_int", "parse_constant",
                                  "dict_factory", "tuple_factory"})

def recursion(tree):
    calls = {}
    functions = {node.name for node in ast.walk(tree) if isinstance(node, DEFINITIONS)}
    properties = property_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            calls.setdefault(node.name, set()).update(
                called_names(node) | {n.attr for n in ast.walk(node) if isinstance(
                    n, ast.Attribute) and isinstance(n.ctx, ast.Load) and isinstance(
                    n.value, ast.Name) and n.attr in properties})
        elif isinstance(node, ast.Assign):
            if isinstance(node.value, ast.Lambda):
                callees = called_names(node.value)
            elif isinstance(node.value, ast.Name):
                callees = {node.value.id}
            else:
                callees = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)
                           and n.id in functions} | (
                    set().union(*(called_names(n) for n in ast.walk(node.value)
                                  if isinstance(n, ast.Lambda))))
            for target in node.targets:
                name = target.id if isinstance(target, ast.Name) else subscripted(target)
                if name:
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
    names = set()
    for call in ast.walk(node):
        if isinstance(call, ast.Call) and not parents_method(call):
            names |= callee_names(call.func)
    return names

CALLED_AS = {"self": "__call__"}

def callee_names(func) -> set:
    if isinstance(func, ast.Name):
        return {CALLED_AS.get(func.id, func.id)}
    if isinstance(func, ast.Attribute):
        return {"__init__" if func.attr == "__class__" else func.attr}
    if isinstance(func, ast.Call) and getattr(func.func, "id", None) == "type":
        return {"__init__"}
    table = subscripted(func)
    if table:
        return {table}
    return {n.id for n in ast.walk(func) if isinstance(n, ast.Name)}

def subscripted(func):
    while isinstance(func, ast.Subscript):
        func = func.value
    return func.id if isinstance(func, ast.Name) else None

def parents_method(call):
    func = call.func
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and \
        isinstance(func.value.func, ast.Name) and func.value.func.id == "super"

def self_applied(function):
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
    for label, methods in made_classes(tree):
        if methods is None:
            return f"{label}(...)"
        for name in methods:
            if per_element_special(name):
                return f"{label}.{name}"
    return None

def per_element_special(name) -> bool:
    return name.startswith("__") and name.endswith("__") and name not in ONCE_SPECIAL

PLAIN_TYPES = frozenset({"list", "dict", "set", "int", "float", "str", "tuple", "bool",
                         "bytes", "object", "frozenset", "Counter", "OrderedDict", "deque"})

def plain_type(node) -> bool:
    return isinstance(node, ast.Constant) and node.value is None or \
        (getattr(node, "id", None) or getattr(node, "attr", None)) in PLAIN_TYPES

def made_classes(tree):
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
    if not isinstance(statement, ast.Assign | ast.AnnAssign) or not isinstance(
            statement.value, ast.Lambda | ast.Name | ast.Attribute):
        return []
    targets = getattr(statement, "targets", None) or [statement.target]
    return [target.id for target in targets if isinstance(target, ast.Name)]

def python_loop(tree, language=None):
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
                if string_named(node) in LOOP_CALLS | {"iter"}:
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
        return "defaultdict(function)"
    name = recursion(tree)
    if name:
        return _t('{name} calls itself', language, name=name)
    iterated = iterating_class(tree)
    return _t('{name}, which a loop walks', language, name=iterated) if iterated else None

def loop_made_by(call):
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
        return "vmap(chunk_size=...)"
    return None

def called_name(call):
    return getattr(call.func, "id", None) or getattr(call.func, "attr", None)

def modules_written_out(args):
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
    names = {node.id for node in ast.walk(tree)
             if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del)}
    names |= {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)}
    names |= {node.name for node in ast.walk(tree) if isinstance(node, DEFINITIONS)}
    return names

def replaces_by_function(call):
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in ("sub", "subn")) or \
            isinstance(func.value, ast.Name) and func.value.id == "torch":
        return False
    by_module = isinstance(func.value, ast.Name) and func.value.id == "re"
    given = len(call.args) + sum(k.arg in ("repl", "string") for k in call.keywords)
    if given < (3 if by_module else 2):
        return False
    where = 1 if by_module else 0
    replacement = call.args[where] if len(call.args) > where else next(
        (k.value for k in call.keywords if k.arg == "repl"), None)
    if replacement is None:
        return False
    return not isinstance(replacement, ast.Constant | ast.JoinedStr | ast.BinOp)

def live(body):
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
    aliases = {}
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
    return _t('uses {names}', language, names=_t(', ', language).join(names)) if names else None

def rule_broken(kind, params, tree, language=None):
    names = attribute_names(tree)
    if kind == "forbids_names":
        return uses(sorted(names & set(params)), language)
    if kind == "forbids_builtins":
        fragments = {*params, *(kin for fragment in params for kin in KIN.get(fragment, ()))}
        return uses(sorted(n for n in library_names(tree)
                           if any(matches(fragment, n) for fragment in fragments)), language)
    if kind == "requires_names":
        return None if live_calls(tree) & set(params) else _t(
            'never calls {names} (a call that cannot run does not count)', language,
            names=_t(' or ', language).join(sorted(params)))
    if kind == "forbids_loops":
        loop = python_loop(tree, language)
        return _t('found a Python loop: {loop}', language, loop=loop) if loop else None
    if kind == "requires_loop":
        return None if python_loop(tree, language) else _t('has no Python loop', language)
    raise ValueError(f"no rule of kind {kind!r}")

def judged(kind, params, text, language=None, helpers=COURSE_HELPERS):
    if not text:
        return _t('no code defines it in the notebook (define it with def or class, in a cell of yours)', language)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _t('its code does not parse', language)
    if kind == "runs_alone":
        return outside_import(tree, language) or helpers_read(tree, helpers, language)
    dynamic = unverifiable(tree, language)
    if dynamic:
        return _t('no rule can be verified because {reason}; call what you need by name',
                  language, reason=dynamic)
    return rule_broken(kind, params, tree, language)

def after_every_cell(callback):
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
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    if shell is None:
        return None
    return [source for source in shell.history_manager.input_hist_raw[1:] if source]


import types

import torch

Tensor = torch.Tensor
Parameter = torch.nn.Parameter
TensorBase = torch._C.TensorBase
NUMEL = TensorBase.numel
DIM = TensorBase.dim
IS_COMPLEX = TensorBase.is_complex
SIZE = TensorBase.size
REQUIRES_GRAD = TensorBase.requires_grad.__get__
IS_FLOATING = TensorBase.is_floating_point
DTYPE = TensorBase.dtype.__get__
RANDN, RAND, ADD, MUL = (torch._C._VariableFunctions.randn, torch._C._VariableFunctions.rand,
                         torch._C._VariableFunctions.add, torch._C._VariableFunctions.mul)
SOFTMAX_OPS = frozenset({"_softmax", "_safe_softmax", "softmax", "_log_softmax", "log_softmax",
                         "_masked_softmax"})
SUM_OPS = frozenset({"sum", "logsumexp", "nansum", "cumsum", "logcumsumexp", "mean", "nanmean"})
NORM_OPS = frozenset({"linalg_vector_norm", "norm"})
PRODUCT_OPS = frozenset({"mm", "bmm", "mv", "dot", "vdot"})
BIASED_PRODUCT_OPS = frozenset({"addmm", "addmv", "baddbmm", "addbmm"})
DUAL_FUNCTIONS = frozenset({"_make_dual", "make_dual"})
VIEW_OPS = frozenset({
    "view", "_unsafe_view", "view_as", "reshape", "_reshape_alias", "expand", "expand_as",
    "transpose", "t", "permute", "movedim", "unsqueeze", "squeeze", "select", "slice",
    "narrow", "as_strided", "diagonal", "unbind", "split", "split_with_sizes", "chunk",
    "unflatten", "flatten", "alias", "detach", "lift_fresh", "view_as_real",
    "view_as_complex", "unfold", "real", "imag", "conj", "_conj", "_neg_view", "T", "mT",
    "mH", "H", "adjoint", "swapaxes", "swapdims", "tensor_split", "hsplit", "vsplit",
    "dsplit"})
SHAPED_OPS = frozenset({"nonzero", "masked_select", "_unique", "_unique2", "unique_dim",
                        "unique_consecutive", "unique_dim_consecutive", "repeat_interleave",
                        "bincount"})
LAYOUT = TensorBase.layout.__get__
STRIDED = torch.strided
SHAPED_BY_A_TENSOR = frozenset({"tensor_split", "repeat_interleave"})

NUMBERS_OUT = "!numbers"

SHAPED = "->shape"

def shaped(name):
    return name + SHAPED

IS_META = TensorBase.is_meta.__get__
DEVICE = torch.device

def namespace_kernel(qualified):
    if type(qualified) is not str or not qualified.startswith("aten::"):
        return str(qualified).split("::", 1)[0][:40]
    return None

def meta_asked(kwargs):
    device = kwargs.get("device") if type(kwargs) is dict else None
    return "meta" if type(device) is DEVICE and device.type == "meta" else None

def kernel_noted(record, why):
    if why is not None and f"python_kernel:{why}" not in record["tampered"]:
        record["tampered"].append(f"python_kernel:{why}")

FRAME_CODE = types.FrameType.f_code.__get__
GRAPH_TASK = getattr(torch._C, "_current_graph_task_id", None)
BACKWARD_FUNCTIONS = frozenset({"backward", "grad"})

HELD_DEPTH = 3
HELD_TABLE = 4096
HELD_ENTRIES = 32768
WRAPPERS = 20
IPYTHON_NAMES = frozenset({"In", "Out", "_ih", "_oh", "_dh", "_", "__", "___", "_i", "_ii",
                           "_iii"})

def ipython_history(name):
    if type(name) is not str:
        return False
    return name in IPYTHON_NAMES or name[:1] == "_" and (
        name[1:].isdigit() or name[1:2] == "i" and name[2:].isdigit())

HELD_KINDS = (dict, list, tuple, type, type(ipython_history))
HELD_KIND_IDS = frozenset(id(kind) for kind in (*HELD_KINDS, staticmethod, classmethod))

def plain_keys(table):
    for key in table:
        if type(key) is not str and type(key) is not int:
            return False
    return True

def new_record(arguments):
    return {"ops": {}, "count": 0, "autograd": False, "entered": {}, "arguments": arguments,
            "largest": 0, "work": 0, "weights": [], "tampered": [], "python_peak": 0}

def is_plain(value):
    return type(value) is Tensor or type(value) is Parameter

def described(value):
    if is_plain(value):
        return [int(n) for n in SIZE(value)]
    if type(value) in (bool, int, float):
        return value
    return None

def tensors_in(value):
    if is_plain(value):
        return [value]
    if type(value) in (tuple, list):
        return [item for item in value if is_plain(item)]
    return []

def numbers_of(tensor):
    return int(NUMEL(tensor)) * (2 if IS_COMPLEX(tensor) else 1)

def span_of(name, args):
    if name in BIASED_PRODUCT_OPS and type(args) is tuple:
        name, args = "mm", args[1:]
    elif name in NORM_OPS and type(args) is tuple:
        name, args = "sum", args[:1] + args[2:]
    elif name not in SOFTMAX_OPS and name not in SUM_OPS and name not in PRODUCT_OPS:
        return None
    if type(args) is not tuple or not args or not is_plain(args[0]) or DIM(args[0]) == 0:
        return None
    shape = SIZE(args[0])
    if name in PRODUCT_OPS:
        return int(shape[-1])
    if name in SOFTMAX_OPS:
        dim = args[1] if len(args) > 1 and type(args[1]) is int else -1
        return int(shape[dim]) if -len(shape) <= dim < len(shape) else None
    dims = args[1] if len(args) > 1 else None
    if type(dims) is int:
        dims = [dims]
    if type(dims) not in (list, tuple) or not dims:
        return int(NUMEL(args[0]))
    span = 1
    for dim in dims:
        if type(dim) is not int or not -len(shape) <= dim < len(shape):
            return None
        span *= int(shape[dim])
    return span

def note(record, name, count=1):
    record["ops"][name] = record["ops"].get(name, 0) + count

def words_of(number):
    kind = type(number)
    if kind is float or kind is int:
        return 2
    if kind is complex:
        return 4
    return 1 if kind is bool else 0

def numbers_handed(result):
    kind = type(result)
    if kind is tuple or kind is list:
        return sum(words_of(item) for item in result)
    return words_of(result)

def noted_operation(record, name, result, args=()):
    note(record, name)
    record["count"] += 1
    if GRAPH_TASK is not None and GRAPH_TASK() != -1:
        record["autograd"] = True
    if type(result) is not Tensor:
        handed = numbers_handed(result)
        if handed:
            note(record, NUMBERS_OUT, handed)
    made, other_layout, meta = 0, False, False
    for output in tensors_in(result):
        size = numbers_of(output)
        made += size
        if size > record["largest"]:
            record["largest"] = size
        other_layout = other_layout or LAYOUT(output) is not STRIDED
        meta = meta or IS_META(output)
    if name in SHAPED_OPS or other_layout:
        note(record, shaped(name))
    if meta:
        kernel_noted(record, "meta")
    if name not in VIEW_OPS:
        record["work"] += made
        for value in args:
            for tensor in tensors_in(value):
                size = numbers_of(tensor)
                record["work"] += size
                if size > record["largest"]:
                    record["largest"] = size
    span = span_of(name, args)
    if span is not None and span not in record["weights"]:
        record["weights"].append(span)

def torch_attention_codes():
    owners = [("nn.MultiheadAttention", ("forward",)),
              ("ao.nn.quantizable.MultiheadAttention", ("forward", "_forward_impl")),
              ("nn.functional", ("multi_head_attention_forward",))]
    codes = {}
    for path, names in owners:
        owner = torch
        for part in path.split("."):
            owner = getattr(owner, part, None)
        for name in names:
            code = getattr(vars(owner).get(name) if owner is not None else None, "__code__",
                           None)
            if code is not None:
                codes[id(code)] = code
    return codes

ATTENTION_CODES = torch_attention_codes()
ATTENTION_NOTE = "multi_head_attention_module"

def in_torch_attention(frame):
    code = FRAME_CODE(frame)
    return ATTENTION_CODES.get(id(code)) is code

RAISED = "!raised"

def operation_started(record):
    note(record, RAISED)

def operation_returned(record):
    left = record["ops"].get(RAISED, 0) - 1
    if left > 0:
        record["ops"][RAISED] = left
    else:
        record["ops"].pop(RAISED, None)

def shaped_by_a_tensor(name, args, kwargs):
    if name not in SHAPED_BY_A_TENSOR or type(args) is not tuple:
        return False
    if name == "repeat_interleave" and len(args) == 1 and not kwargs:
        return True
    given = [*args[1:], *(kwargs.values() if type(kwargs) is dict else ())]
    return any(is_plain(value) for value in given)

def noted_function(record, name, outputs=(), caller=None, args=(), kwargs=None):
    note(record, name)
    if shaped_by_a_tensor(name, args, kwargs):
        note(record, shaped(name))
    if caller is not None and in_torch_attention(caller):
        note(record, ATTENTION_NOTE)
    if name in DUAL_FUNCTIONS or (GRAPH_TASK is None and name in BACKWARD_FUNCTIONS):
        record["autograd"] = True
    for output in outputs:
        if REQUIRES_GRAD(output):
            record["autograd"] = True

def perturbs(spec, name, op_args):
    if spec.get("level") not in (None, "op" if op_args is not None else "fn"):
        return False
    if any(fragment in name.lower() for fragment in spec["names"]):
        return True
    return bool(spec["spans"]) and op_args is not None and \
        span_of(name, op_args) in spec["spans"]

def perturbed_output(value, generator, large=False, zero=False):
    outputs = tensors_in(value)
    if not outputs or not IS_FLOATING(outputs[0]):
        return None
    first = outputs[0]
    if zero:
        noise = MUL(first, -1.0)
    elif large:
        noise = ADD(MUL(RAND(SIZE(first), generator=generator, dtype=DTYPE(first)), 1000.0),
                    1000.0)
        if large < 0:
            noise = MUL(noise, -1.0)
    else:
        noise = MUL(RANDN(SIZE(first), generator=generator, dtype=DTYPE(first)), 0.5)
    changed = ADD(first, noise)
    if value is first:
        return changed
    return type(value)([changed if item is first else item for item in value])

def checked_record(data):

    def counts(value):
        if not (isinstance(value, dict) and all(isinstance(k, str) and type(n) is int
                                                for k, n in value.items())):
            raise ValueError("malformed record")
        return dict(value)

    def argument(value):
        if value is None or type(value) in (bool, int, float):
            return value
        if isinstance(value, list) and all(type(n) is int for n in value):
            return list(value)
        raise ValueError("malformed record")

    if not isinstance(data, dict) or set(data) != set(new_record([])):
        raise ValueError("malformed record")
    if not (type(data["count"]) is int and type(data["largest"]) is int
            and type(data["work"]) is int
            and type(data["autograd"]) is bool and type(data["python_peak"]) is int
            and isinstance(data["arguments"], list) and isinstance(data["weights"], list)
            and all(type(n) is int for n in data["weights"])
            and isinstance(data["tampered"], list)
            and all(type(s) is str for s in data["tampered"])):
        raise ValueError("malformed record")
    return {**data, "ops": counts(data["ops"]), "entered": counts(data["entered"]),
            "arguments": [argument(value) for value in data["arguments"]],
            "weights": list(data["weights"]), "tampered": list(data["tampered"])}


import sys
import tracemalloc
from types import FunctionType

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

KEPT_CALLS = 8

def operation_name(func):
    return func.overloadpacket.__name__

def function_name(func):
    return getattr(func, "__name__", "") or type(func).__name__

def codes_of(target, depth=0):
    codes = set()
    if isinstance(target, type):
        for cls in target.__mro__:
            if cls is object or str(cls.__module__).split(".")[0] in ("torch", "typing"):
                continue
            for value in vars(cls).values():
                value = getattr(value, "__func__", value)
                code = getattr(value, "__code__", None)
                if code is not None:
                    codes.add(code)
        return codes
    target = getattr(target, "__func__", target)
    code = getattr(target, "__code__", None)
    if code is not None:
        codes.add(code)
    elif callable(target):
        codes |= codes_of(type(target))
    inner = wrapped_by(target)
    if inner is not None and depth < WRAPPERS:
        codes |= codes_of(inner, depth + 1)
    return codes

def wrapped_by(target):
    inner = getattr(target, "__wrapped__", None)
    if inner is None and type(target).__module__ == "functools":
        inner = getattr(target, "func", None)
    return inner

def namespace_of(target):
    for _ in range(WRAPPERS):
        inner = wrapped_by(target)
        if inner is None:
            break
        target = inner
    target = getattr(target, "__func__", target)
    if hasattr(target, "__globals__"):
        return target.__globals__
    if not isinstance(target, type) and callable(target) and \
            type(target).__module__ != "builtins":
        target = type(target)
    for value in vars(target).values() if isinstance(target, type) else ():
        if hasattr(getattr(value, "__func__", value), "__globals__"):
            return getattr(value, "__func__", value).__globals__
    module = sys.modules.get(getattr(target, "__module__", None) or "")
    return vars(module) if module is not None else {}

def watched(names, apart, counted):
    return tuple({name: codes_of(names[name]) for name in group if name in names}
                 for group in (apart, counted))

class Recorder:

    def __init__(self, subject=None, apart=None, counted=None, arguments=(), measure=False):
        self.watched = {}
        for names, is_apart in ((counted or {}, False), (apart or {}, True)):
            for name, codes in names.items():
                for code in codes:
                    self.watched[code] = (name, is_apart)
        if subject is not None:
            shared = set(subject) & set(self.watched)
            subject = set(subject) - shared
            for code in shared:
                del self.watched[code]
        self.subject = subject
        self.records = []
        self.depth = 0 if subject is not None else 1
        self.away = 0
        self.modes = (Operations(self), Functions(self))
        self.profiling = bool(self.watched) or subject is not None
        self.previous_profile = None
        self.measure, self.tracing_before, self.baseline = measure, False, 0
        self.calls = []
        self.call_codes = []
        self.paused = False
        if subject is None:
            self.records.append(new_record([described(value) for value in arguments]))

    def start(self):
        if self.measure:
            self.tracing_before = tracemalloc.is_tracing()
            if not self.tracing_before:
                tracemalloc.start()
            self.measured()
        if self.profiling:
            self.previous_profile = sys.getprofile()
            sys.setprofile(self.profile)
        for mode in self.modes:
            mode.__enter__()
        return self

    def stop(self):
        for mode in reversed(self.modes):
            try:
                mode.__exit__(None, None, None)
            except (AssertionError, RuntimeError, IndexError):
                if self.records:
                    self.records[-1]["tampered"].append("mode_gone")
        if self.profiling:
            sys.setprofile(self.previous_profile)
            self.profiling = False
        if self.measure:
            if self.subject is None and self.records:
                self.records[-1]["python_peak"] = self.measured()
            if not self.tracing_before:
                tracemalloc.stop()
            self.measure = False

    def measured(self):
        current, peak = tracemalloc.get_traced_memory()
        taken = max(peak - self.baseline, 0)
        tracemalloc.reset_peak()
        self.baseline = tracemalloc.get_traced_memory()[0]
        return taken

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def recording(self):
        return self.depth > 0 and self.away == 0 and bool(self.records) and not self.paused

    def profile(self, frame, event, arg):
        if event == "call":
            code = frame.f_code
            if self.subject is not None and code in self.subject:
                if self.paused:
                    return
                if self.depth == 0:
                    self.records.append(new_record(call_arguments(frame)))
                    if len(self.calls) < KEPT_CALLS:
                        self.calls.append(call_of(frame))
                        self.call_codes.append(code)
                    if self.measure:
                        self.measured()
                self.depth += 1
            elif code in self.watched and self.depth > 0:
                name, is_apart = self.watched[code]
                if self.away == 0:
                    entered = self.records[-1]["entered"]
                    entered[name] = entered.get(name, 0) + 1
                self.away += is_apart
        elif event == "return":
            code = frame.f_code
            if self.subject is not None and code in self.subject and self.depth > 0 \
                    and not self.paused:
                self.depth -= 1
                if self.depth == 0 and self.measure:
                    self.records[-1]["python_peak"] = self.measured()
            elif code in self.watched and self.depth > 0 and self.watched[code][1]:
                self.away = max(self.away - 1, 0)

def call_of(frame):
    code = frame.f_code
    values = frame.f_locals
    names = code.co_varnames
    args = [values[name] for name in names[:code.co_argcount]]
    at = code.co_argcount + code.co_kwonlyargcount
    kwargs = {name: values[name] for name in names[code.co_argcount:at]}
    if code.co_flags & 0x04:
        args += list(values[names[at]])
        at += 1
    if code.co_flags & 0x08:
        kwargs.update(values[names[at]])
    return args, kwargs

def call_arguments(frame):
    code = frame.f_code
    names = code.co_varnames[:code.co_argcount]
    values = [frame.f_locals.get(name) for name in names]
    if names and names[0] in ("self", "cls"):
        values = values[1:]
    if code.co_flags & 0x04:
        values += list(frame.f_locals.get(code.co_varnames[
            code.co_argcount + code.co_kwonlyargcount]) or ())
    return [described(value) for value in values]

class Operations(TorchDispatchMode):

    def __init__(self, recorder):
        super().__init__()
        self.recorder = recorder

    @classmethod
    def _should_skip_dynamo(cls):
        return False

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        recorder = self.recorder
        record = recorder.records[-1] if recorder.recording() else None
        if record is not None:
            operation_started(record)
            if kwargs or not func._name.startswith("aten::"):
                kernel_noted(record, namespace_kernel(func._name) or meta_asked(kwargs))
        out = func(*args, **(kwargs or {}))
        if record is not None and recorder.recording() and record is recorder.records[-1]:
            operation_returned(record)
            if any(kind is not Tensor and kind is not Parameter for kind in types):
                record["tampered"].append("subclass")
            noted_operation(record, operation_name(func), out, args)
        return out

class Functions(TorchFunctionMode):

    def __init__(self, recorder):
        super().__init__()
        self.recorder = recorder

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        recorder = self.recorder
        if recorder.recording():
            record = recorder.records[-1]
            if any(kind is not Tensor and kind is not Parameter for kind in types):
                record["tampered"].append("subclass")
            noted_function(record, function_name(func), tensors_in(out), sys._getframe(1),
                           args, kwargs)
        return out

def swapped_where_held(namespace, original, replacement):
    swapped, done, left = [], {id(namespace): namespace}, [HELD_ENTRIES]
    name = namespace.get("__name__")

    def changes_in(pairs, depth):
        changes = []
        for place, item in pairs:
            left[0] -= 1
            if left[0] < 0:
                break
            if type(place) is not str and type(place) is not int:
                continue
            if item is original:
                changes.append((place, item, replacement))
            elif id(type(item)) in HELD_KIND_IDS:
                new = held(item, depth + 1)
                if new is not item:
                    changes.append((place, item, new))
        return changes

    def put(holder, changes):
        for place, before, after in changes:
            swapped.append((holder, place, before))
            placed(holder, place, after)

    def looked_into(value):
        kind = type(value)
        if kind is dict:
            return len(value) <= HELD_TABLE and plain_keys(value)
        if kind is list or kind is tuple or kind is type:
            return len(value if kind is not type else vars(value)) <= HELD_TABLE
        return kind is FunctionType

    def own(value):
        if type(value) is type:
            module = vars(value).get("__module__")
            return type(module) is str and module == name
        return value.__globals__ is namespace

    def held(value, depth, wrappers=0):
        if value is original:
            return replacement
        if type(value) is staticmethod or type(value) is classmethod:
            value = value.__func__
        kind = type(value)
        if id(kind) not in HELD_KIND_IDS or depth > HELD_DEPTH or not looked_into(value):
            return value
        if id(value) in done:
            return done[id(value)]
        done[id(value)] = value
        if kind is dict:
            put(value, changes_in(value.items(), depth))
        elif kind is list:
            put(value, changes_in(enumerate(value), depth))
        elif kind is tuple:
            changes = changes_in(enumerate(value), depth)
            if changes:
                items = list(value)
                for place, _, after in changes:
                    items[place] = after
                done[id(value)] = tuple(items)
        elif kind is type:
            if own(value):
                changes_in(vars(value).items(), depth)
        else:
            attributes = value.__dict__
            if not looked_into(attributes):
                attributes = {}
            if own(value):
                put(value, changes_in((("__defaults__", value.__defaults__),
                                       ("__kwdefaults__", value.__kwdefaults__)), depth - 1))
                for cell in value.__closure__ or ():
                    try:
                        contents = cell.cell_contents
                    except ValueError:
                        continue
                    put(cell, changes_in((("cell_contents", contents),), depth))
                put(attributes, changes_in(((key, item) for key, item in attributes.items()
                                            if not (type(key) is str and key == "__wrapped__")),
                                           depth))
            if wrappers < WRAPPERS:
                held(attributes.get("__wrapped__"), depth, wrappers + 1)
        return done[id(value)]

    put(namespace, changes_in(((key, value) for key, value in namespace.items()
                               if value is not original and not ipython_history(key)), -1))
    return swapped

def placed(holder, place, value):
    if isinstance(holder, (dict, list)):
        holder[place] = value
    else:
        setattr(holder, place, value)

def restored(swapped):
    for holder, place, before in reversed(swapped):
        placed(holder, place, before)

class perturbing_here:

    def __init__(self, change, subject):
        self.change, self.subject, self.done = change, subject, {"seen": 0}

    def __enter__(self):
        change = self.change
        if "stand_in" not in change:
            self.perturbing = Perturbing(change).__enter__()
            return self.done
        self.perturbing = None
        self.namespace = namespace_of(self.subject)
        original = self.namespace.get(change["stand_in"])
        generator = torch.Generator().manual_seed(int(change["seed"]))
        done = self.done

        def answered(*args, **kwargs):
            value = original(*args, **kwargs)
            index = done["seen"]
            done["seen"] += 1
            changed = perturbed_output(value, generator, change.get("large", False),
                                       change.get("zero", False)) \
                if change["which"] in (None, index) else None
            return value if changed is None else changed

        self.bound = [(name, value) for name, value in self.namespace.items()
                      if original is not None and value is original]
        self.swapped = [] if original is None else swapped_where_held(self.namespace,
                                                                      original, answered)
        for name, _ in self.bound:
            self.namespace[name] = answered
        return done

    def __exit__(self, *exc):
        if self.perturbing is not None:
            self.perturbing.__exit__(None, None, None)
            self.done["seen"] = self.perturbing.seen
            return
        for name, value in self.bound:
            self.namespace[name] = value
        restored(self.swapped)

class Perturbing:

    def __init__(self, spec):
        self.spec, self.seen = spec, 0
        self.generator = torch.Generator().manual_seed(int(spec["seed"]))
        self.modes = (PerturbedOperations(self), PerturbedFunctions(self))

    def __enter__(self):
        for mode in self.modes:
            mode.__enter__()
        return self

    def __exit__(self, *exc):
        for mode in reversed(self.modes):
            mode.__exit__(None, None, None)

    def changed(self, name, op_args, value):
        if not perturbs(self.spec, name, op_args):
            return value
        index, self.seen = self.seen, self.seen + 1
        if self.spec["which"] is not None and self.spec["which"] != index:
            return value
        changed = perturbed_output(value, self.generator, zero=self.spec.get("zero", False))
        return value if changed is None else changed

class PerturbedOperations(TorchDispatchMode):
    def __init__(self, perturbing):
        super().__init__()
        self.perturbing = perturbing

    @classmethod
    def _should_skip_dynamo(cls):
        return False

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        return self.perturbing.changed(operation_name(func), args, out)

class PerturbedFunctions(TorchFunctionMode):
    def __init__(self, perturbing):
        super().__init__()
        self.perturbing = perturbing

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        return self.perturbing.changed(function_name(func), None, out)


import inspect
import math
from types import FunctionType

import torch

MAX_SINGLE = 3
MIN_SEQ = 4

def found(probe, rerun, base, call, gen):
    return PROBES[probe["kind"]](probe, rerun, base, call, gen)

def seed(gen):
    return int(torch.randint(2**31 - 1, (1,), generator=gen))

def differs(output, base):
    if isinstance(output, torch.Tensor) and isinstance(base, torch.Tensor):
        return output.shape != base.shape or output.dtype != base.dtype or not torch.allclose(
            output, base, rtol=1e-4, atol=1e-5, equal_nan=True)
    if isinstance(output, tuple | list) and isinstance(base, tuple | list):
        return len(output) != len(base) or any(differs(a, b) for a, b in zip(output, base,
                                                                             strict=True))
    return output != base

def stand_in_probe(probe, rerun, base, call, gen):
    name, per = probe["name"], probe.get("per")
    if per is None:
        change = {"stand_in": name, "which": None, "seed": seed(gen)}
        output, seen = rerun(change)
        if seen == 0 or (output is not None and not differs(output, base)):
            return {"unused": True}
        return {"unused": not carries(rerun, {**change, "seed": seed(gen)}, base)}
    _, seen = rerun({"stand_in": name, "which": -1, "seed": seed(gen)})
    if seen == 0:
        return {"unused": True}
    picks = torch.randperm(seen, generator=gen)[:MAX_SINGLE].tolist()
    queries = argument_size(call, per[0])
    unused, every_query = False, False
    for which in picks:
        for direction in (1, -1):
            output, _ = rerun({"stand_in": name, "which": which, "seed": seed(gen),
                               "large": direction})
            if output is None or differs(output, base):
                break
        else:
            unused = True
        if queries and queries > 1 and output is not None and \
                queries_changed(output, base, queries) == queries:
            every_query = True
    return {"unused": unused, "every_query": every_query}

def argument_size(call, where):
    args = call[0] if call else ()
    value = args[where[0]] if len(args) > where[0] else None
    return value.shape[where[1]] if isinstance(value, torch.Tensor) and \
        value.dim() > where[1] else None

def queries_changed(output, base, queries):
    if not (isinstance(output, torch.Tensor) and isinstance(base, torch.Tensor)
            and output.shape == base.shape):
        return None
    dims = [d for d, size in enumerate(output.shape) if size == queries]
    if len(dims) != 1:
        return None
    moved = (~torch.isclose(output, base, rtol=1e-4, atol=1e-5)).movedim(dims[0], 0)
    return int(moved.reshape(queries, -1).any(dim=1).sum())

def carries(rerun, change, base):
    output, _ = rerun({**change, "zero": True})
    return output is None or differs(output, base)

def ops_probe(probe, rerun, base, call, gen):
    change = {"names": list(probe["names"]), "spans": [], "level": probe.get("level"),
              "which": None, "seed": seed(gen)}
    output, seen = rerun(change)
    return {"changed": seen > 0 and (output is None or differs(output, base))
            and carries(rerun, {**change, "seed": seed(gen)}, base)}

def spans_probe(probe, rerun, base, call, gen):
    seq = argument_size(call, (probe["arg"], -2))
    if not seq:
        return {}
    used, whole_rows = [], None
    for span in range(1, seq + 1):
        output, seen = rerun({"names": [], "spans": [span], "level": "op", "which": None,
                              "seed": seed(gen)})
        if seen and (output is None or differs(output, base)):
            used.append(span)
            if span == seq and seq not in other_sizes(call, probe["arg"]):
                whole_rows = positions_changed(output, base, seq)
    return {"used_spans": used, "seq": seq, "whole_rows": whole_rows}

def other_sizes(call, where):
    args = call[0] if call else ()
    found = set()
    for index, value in enumerate(args):
        if isinstance(value, torch.Tensor):
            found.update(value.shape[-1:] if index == where else value.shape)
    return found

def positions_changed(output, base, seq):
    if not (isinstance(output, torch.Tensor) and isinstance(base, torch.Tensor)
            and output.shape == base.shape and output.dim() >= 2 and output.shape[-2] == seq):
        return None
    changed = ~torch.isclose(output, base, rtol=1e-4, atol=1e-5, equal_nan=True)
    return int(changed.movedim(-2, 0).reshape(seq, -1).any(dim=1).sum())

PROBES = {"stand_in": stand_in_probe, "ops": ops_probe, "spans": spans_probe}

def rerun_here(subject, call):
    def rerun(change):
        args, kwargs = fresh(defaults_left_out(subject, call))
        with perturbing_here(change, subject) as done:
            try:
                output = subject(*args, **kwargs)
            except Exception:
                output = None
        return output, done["seen"]

    return rerun

def defaults_left_out(subject, call):
    try:
        function = inspect.unwrap(subject)
    except ValueError:
        return call
    if not isinstance(function, FunctionType):
        return call
    args, kwargs = list(call[0]), dict(call[1])
    defaults = function.__defaults__ or ()
    first = function.__code__.co_argcount - len(defaults)
    while len(args) > first and len(args) <= function.__code__.co_argcount and \
            args[-1] is defaults[len(args) - 1 - first]:
        args.pop()
    for name, value in (function.__kwdefaults__ or {}).items():
        if name in kwargs and kwargs[name] is value:
            del kwargs[name]
    return args, kwargs

def fresh(call):
    def new(value):
        if isinstance(value, torch.Tensor):
            return value.detach().clone().requires_grad_(value.requires_grad)
        return value
    args, kwargs = call
    return [new(a) for a in args], {k: new(v) for k, v in kwargs.items()}

def probed(step, subject, right, gen):
    rules = [rule for rule in step.rules if rule.probe]
    valued = [(case, output) for case, output in right if numbers(output)]
    if not rules or not valued:
        return {}
    return {rule.name: probed_on(rule.probe, subject, *case_for(rule.probe, valued), gen)
            for rule in rules}

def case_for(probe, valued):
    if probe["kind"] != "spans":
        return min(valued, key=lambda pair: size_of(pair[0]))
    return valued[telling_call(probe, [case_call(case) for case, _ in valued])]

def telling_call(probe, calls):
    seqs = [(argument_size(call, (probe["arg"], -2)) or 0, call_size(call), index)
            for index, call in enumerate(calls)]
    long_enough = [entry for entry in seqs if entry[0] >= MIN_SEQ]
    told = [entry for entry in long_enough if telling(calls[entry[2]], probe)]
    return min(told or long_enough)[2] if long_enough else max(seqs)[2]

def telling(call, probe) -> bool:
    seq = argument_size(call, (probe["arg"], -2)) or 0
    return seq >= MIN_SEQ and seq not in other_sizes(call, probe["arg"])

def call_size(call):
    args, kwargs = call
    return sum(value.numel() for value in (*args, *kwargs.values())
               if isinstance(value, torch.Tensor))

def probed_on(probe, subject, case, base, gen):
    call = case_call(case)

    def rerun(change):
        with subject.perturbed(change) as done:
            try:
                output = case.run(subject)
            except Exception:
                output = None
        return output, done.get("seen", 0)

    return found(probe, rerun, base, call, gen)

def case_call(case):
    arguments = getattr(case.run, "arguments", None)
    return arguments() if arguments else ((), {})

def numbers(output):
    if isinstance(output, torch.Tensor):
        return output.is_floating_point() and output.numel() > 0
    return isinstance(output, tuple | list) and any(numbers(item) for item in output)

def size_of(case):
    arguments = getattr(case.run, "arguments", None)
    return math.inf if arguments is None else call_size(arguments())


import ast
import functools
import inspect
import math
import textwrap

import torch

MACHINERY = frozenset({
    "__loader__", "__spec__", "_imp", "create_module", "exec_module", "_dynamo", "compiler",
    "jit", "library", "_library", "__closure__", "cell_contents", "dlpack", "to_dlpack",
    "from_dlpack", "frombuffer", "profiler", "prims"})
REGISTERING = frozenset({"custom_ops", "define", "impl", "fallback", "def_", "impl_t_t",
                         "custom_op", "triton_op", "register_kernel", "register_fake",
                         "register_autograd", "register_torch_dispatch", "register_vmap"})
LIBRARY_ROOTS = frozenset({"torch", "F", "nn", "np", "numpy", "math", "functools", "sys"})
TAMPERING = {
    "subclass": lambda language, detail: _t(
        'a tensor of a class of its own ran its own code inside torch',
        language, detail=detail),
    "higher_order": lambda language, detail: _t(
        "it ran one of torch's higher-order operators (torch.cond and its kin), which run code out of the record's sight",
        language, detail=detail),
    "own_override": lambda language, detail: _t(
        "it handed a function of its own to torch's override machinery",
        language, detail=detail),
    "mode_popped": lambda language, detail: _t(
        "it took the recording's mode off torch's stack",
        language, detail=detail),
    "mode_pushed": lambda language, detail: _t(
        "it put the recording's mode on torch's stack by hand",
        language, detail=detail),
    "functions_off": lambda language, detail: _t(
        "it switched off what records torch's functions",
        language, detail=detail),
    "dispatch_off": lambda language, detail: _t(
        "it switched torch's Python dispatch off",
        language, detail=detail),
    "modes_restored": lambda language, detail: _t(
        "it restored another state of torch's modes",
        language, detail=detail),
    "infra_mode": lambda language, detail: _t(
        "it set or unset one of torch's own dispatch modes",
        language, detail=detail),
    "python_kernel": lambda language, detail: _t(
        "it ran an operation of torch's whose kernel is written in Python ({detail}: a tensor on the meta device, or an operation outside aten, such as torch.ops.prims), which runs out of the record's sight and calls what torch's modules name then",
        language, detail=detail),
    "library": lambda language, detail: _t(
        "it registered code of its own as torch's operations",
        language, detail=detail),
    "memory_measure": lambda language, detail: _t(
        "it stopped or reset the measure of the memory Python's objects take",
        language, detail=detail),
    "setting_forged": lambda language, detail: _t(
        "a setting of the grader's did not verify",
        language, detail=detail),
    "namespace_key": lambda language, detail: _t(
        "it put a key that is not a name into the notebook's namespace",
        language, detail=detail),
    "mode_gone": lambda language, detail: _t(
        "the recording's mode is no longer on torch's stack",
        language, detail=detail),
    "mode_left": lambda language, detail: _t(
        "it left a mode of its own on torch's stack",
        language, detail=detail),
    "profile": lambda language, detail: _t(
        'a profile or trace function is set',
        language, detail=detail),
    "frame": lambda language, detail: _t(
        "it reached for a frame of the grader's",
        language, detail=detail),
    "class_changed": lambda language, detail: _t(
        'it changed {detail}',
        language, detail=detail),
    "function_changed": lambda language, detail: _t(
        "it changed a function's {detail}",
        language, detail=detail),
    "marshal": lambda language, detail: _t(
        'it made code from bytes (marshal)',
        language, detail=detail),
    "reimport": lambda language, detail: _t(
        'it imported {detail} anew',
        language, detail=detail),
    "memory_file": lambda language, detail: _t(
        "it opened the process's memory",
        language, detail=detail),
    "link": lambda language, detail: _t(
        'it made a link to a file',
        language, detail=detail),
    "pickle": lambda language, detail: _t(
        'it asked pickle for {detail}',
        language, detail=detail),
    "all_frames": lambda language, detail: _t(
        "it asked for every thread's frame",
        language, detail=detail),
    "set_profile": lambda language, detail: _t(
        'it set a profile or trace function',
        language, detail=detail),
    "audit_hook": lambda language, detail: _t(
        'it added an audit hook',
        language, detail=detail),
    "collector": lambda language, detail: _t(
        'it asked the garbage collector for objects',
        language, detail=detail),
    "code_object": lambda language, detail: _t(
        'it made a code object',
        language, detail=detail),
    "process": lambda language, detail: _t(
        'it started another process or program ({detail})',
        language, detail=detail),
    "ctypes": lambda language, detail: _t(
        'it used ctypes',
        language, detail=detail),
    "guard_failed": lambda language, detail: _t(
        "the grader's guard failed on {detail}",
        language, detail=detail),
    "reply_unverified": lambda language, detail: _t(
        'a reply to the grader was altered or not sealed',
        language, detail=detail),
    "reply_missing": lambda language, detail: _t(
        'a reply to the grader is missing, or one was added',
        language, detail=detail),
    "reply_other": lambda language, detail: _t(
        'a reply answers another request',
        language, detail=detail),
    "record_malformed": lambda language, detail: _t(
        'its record is not data',
        language, detail=detail),
}
FUSED_LAYERS = ("_transformer_encoder", "_transformer_decoder")
OPERATION_KIN = {"softmax": ("logsumexp", "logcumsumexp", "attention", *FUSED_LAYERS),
                 "layer_norm": FUSED_LAYERS}

def tampering(text, language=None):
    return read_tampering(text, language) if language is None else \
        kept_tampering(text, language)

def read_tampering(text, language=None):
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _t('its code does not parse', language)
    roots = library_aliases(tree)
    for node in ast.walk(tree):
        name = machinery_named(node) or private_of_library(node, roots)
        if name:
            return _t("it uses {name}, which reaches around what records your code's operations", language, name=name)
        changed = library_attribute_changed(node, roots)
        if changed:
            return _t("it changes {name}, a library's own, which torch's code may call as it runs, where nothing is recorded", language, name=changed)
        if isinstance(node, ast.Call):
            passed = [*node.args, *(k.value for k in node.keywords)]
            given = next((a.id for a in passed if isinstance(a, ast.Name)
                          and a.id in NAMED_BY_STRING), None)
            if given:
                return _t('it passes {name} to another function, which then reaches attributes by names made at run time', language, name=given)
    return unverifiable(tree, language)

kept_tampering = functools.lru_cache(maxsize=64)(read_tampering)

def machinery_named(node):
    if isinstance(node, ast.alias | ast.ImportFrom):
        dotted = node.name if isinstance(node, ast.alias) else node.module or ""
        return dotted if set(dotted.split(".")) & (MACHINERY | REGISTERING) else None
    if isinstance(node, ast.Name):
        return node.id if node.id in MACHINERY else None
    name = node.attr if isinstance(node, ast.Attribute) else string_named(node)
    return name if name in MACHINERY or name in REGISTERING else None

def library_attribute_changed(node, roots):
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del) and \
            root_name(node) in roots:
        return ast.unparse(node)
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("setattr", "delattr") \
            and node.args and root_name(node.args[0]) in roots:
        return ast.unparse(node.args[0]) + (f".{string_named(node)}" if string_named(node)
                                            else "")
    return None

def library_aliases(tree):
    roots = set(LIBRARY_ROOTS)
    roots |= {import_bound(alias) for node in ast.walk(tree)
              if isinstance(node, ast.Import | ast.ImportFrom) for alias in node.names}
    assigned = [(node.targets if isinstance(node, ast.Assign) else [node.target], node.value)
                for node in ast.walk(tree)
                if isinstance(node, ast.Assign | ast.AnnAssign | ast.NamedExpr)
                and getattr(node, "value", None) is not None]
    grew = True
    while grew:
        grew = False
        for targets, value in assigned:
            if root_name(value) not in roots:
                continue
            for target in targets:
                for element in (target.elts if isinstance(target, ast.Tuple | ast.List)
                                else [target]):
                    if isinstance(element, ast.Name) and element.id not in roots:
                        roots.add(element.id)
                        grew = True
    return roots

def private_of_library(node, roots):
    if isinstance(node, ast.ImportFrom):
        parts = (node.module or "").split(".") + [alias.name for alias in node.names]
    elif isinstance(node, ast.Import):
        parts = [part for alias in node.names for part in alias.name.split(".")]
    elif isinstance(node, ast.Attribute) and root_name(node) in roots:
        if node.attr == "modules" and root_name(node) == "sys":
            return "sys.modules"
        parts = [node.attr]
    elif string_named(node) and root_name(node.args[0]) in roots:
        parts = [string_named(node)]
    else:
        return None
    return next((part for part in parts if part.startswith("_")
                 and not part.startswith("__")), None)

def matched(ops, fragments):
    fragments = {*fragments, *(kin for fragment in fragments
                               for kin in OPERATION_KIN.get(fragment, ()))}
    return sorted(op for op in ops if any(f in op.lower() for f in fragments))

def all_ops(records):
    ops = set()
    for record in records:
        ops.update(record["ops"])
    return ops

def shape(value):
    return value if isinstance(value, list) and all(type(n) is int for n in value) else None

def calls(records):
    return [record for record in records if record["arguments"]]

def forbids_ops(records, params, probes, language):
    found = matched(all_ops(records), params)
    said = sorted({op.lstrip("_") for op in found})
    return _t("it ran torch's {ops}", language, ops=", ".join(said)) if found else None

def requires_ops(records, params, probes, language):
    if not matched(all_ops(records), params):
        return _t('it never ran {names}', language, names=_t(' or ', language).join(params))
    if probes is not None and probes.get("changed") is False:
        return _t('it ran {names}, but its output does not change what your code returns',
                  language, names=_t(' or ', language).join(params))
    return None

def forbids_autograd(records, params, probes, language):
    if any(record["autograd"] for record in records):
        return _t("it used autograd (a gradient computed by torch's autograd engine, dual numbers, or a tensor that requires grad)", language)
    return forbids_ops(records, ["backward"], probes, language)

def enters(records, params, probes, language):
    name, per = params["name"], params.get("per")
    if per is None:
        if not sum(record["entered"].get(name, 0) for record in records):
            return _t('it never called your {name}', language, name=name)
    else:
        for record in calls(records):
            needed, got = calls_needed(record["arguments"], per), record["entered"].get(name, 0)
            if needed is None or got >= needed:
                continue
            times = _t('once', language) if got == 1 else _t('{got} times', language, got=got)
            if len(per) == 1:
                return _t('it called your {name} {times} for {needed} queries', language,
                          name=name, times=times, needed=needed)
            return _t('it called your {name} {times} for {needed} pairs of a query and a key', language, name=name, times=times, needed=needed)
    if probes is None:
        return None
    if probes.get("unused"):
        return _t('what your {name} gives does not change what your code returns (a call whose result is not used does not count)', language, name=name)
    if probes.get("every_query"):
        return _t("one call of your {name} changed every query's output: each query's scores must come from calls of their own", language, name=name)
    return None

def calls_needed(arguments, places):
    needed = 1
    for argument, dim in places:
        sizes = shape(arguments[argument]) if len(arguments) > argument else None
        if sizes is None or len(sizes) <= dim:
            return None
        needed *= sizes[dim]
    return needed

def forbids_entering(records, params, probes, language):
    found = sorted({name for record in records for name in record["entered"]
                    if name in params})
    return _t('it called {names}', language, names=", ".join(found)) if found else None

WALKED = {
    "query": lambda language: _t('queries', language),
    "position": lambda language: _t('positions', language),
    "head": lambda language: _t('heads', language),
}

def same_work(records, params, probes, language):
    for argument, dim, what in params:
        for counts in walked_counts(records, argument, dim).values():
            if growth(counts):
                return _t('calls on {sizes} {what} ran {counts} operations: at least one more for each one more, from each size to the next, as a loop does, however it is written', language,
                          sizes=", ".join(map(str, sorted(counts))),
                          what=WALKED[what](language),
                          counts=", ".join(str(min(counts[n])) for n in sorted(counts)))
    return None

def growth(counts):
    sizes = sorted(counts)
    return len(sizes) >= 3 and all(
        min(counts[large]) - max(counts[small]) >= large - small
        for small, large in zip(sizes, sizes[1:], strict=False))

def walked_counts(records, argument, dim):
    found = {}
    for record in calls(records):
        arguments = record["arguments"]
        sizes = shape(arguments[argument]) if len(arguments) > argument else None
        if sizes is None or not -len(sizes) <= dim < len(sizes):
            continue
        kind = tuple(None if (dims := shape(value)) is None else tuple(n == 1 for n in dims)
                     for value in arguments)
        found.setdefault(kind, {}).setdefault(sizes[dim], []).append(record["count"])
    return found

MEMORY_FLOOR, BYTES_PER_SCORE = 1 << 15, 4

def score_sizes(arguments, params):
    if len(arguments) <= max(params):
        return None
    queries, keys, values = (shape(arguments[i]) for i in params[:3])
    block = arguments[params[3]]
    if not (queries and keys and values and len(queries) >= 2 and len(keys) >= 2
            and type(block) is int):
        return None
    batch = math.prod(queries[:-2])
    whole = batch * queries[-2] * keys[-2]
    room = max(math.prod(queries), math.prod(keys), math.prod(values),
               batch * queries[-2] * values[-1], batch * queries[-2] * block * queries[-1])
    return batch, queries, keys, block, whole, room

PRINTS = frozenset({"__repr__", "__format__"})
OUT_OF_TORCH = frozenset({"numpy", "__array__", "__dlpack__", "tolist", "untyped_storage",
                          "storage", "_typed_storage", "apply_", "map_", "map2_"}) | PRINTS
SHARED_OUT = OUT_OF_TORCH - PRINTS

def handed_out(records, names):
    return sorted({op for record in calls(records) for op in record["ops"]
                   if op in names or op.endswith(SHAPED)})

def scores_in_blocks(records, params, probes, language):
    gone = handed_out(records, SHARED_OUT)
    if gone:
        return _t("it handed a tensor's numbers out of torch ({names}), where the scores made from them cannot be seen (a result whose shape the numbers decide does too: ->shape)", language, names=", ".join(gone))
    for record in calls(records):
        sizes = score_sizes(record["arguments"], params)
        if sizes is None:
            continue
        batch, queries, keys, block, whole, room = sizes
        if whole <= room:
            continue
        if record["largest"] >= whole:
            return _t('one operation produced or read {count} numbers at once, as many as the whole score matrix ({batch} x {queries} queries x {keys} keys)', language,
                      count=record["largest"], batch=batch, queries=queries[-2],
                      keys=keys[-2])
        if whole >= MEMORY_FLOOR and record["python_peak"] >= BYTES_PER_SCORE * whole:
            return _t("Python's objects or numpy's arrays took {count} bytes at once, as much as the whole score matrix in float32 ({batch} x {queries} queries x {keys} keys): the rule counts what any library holds", language,
                      count=record["python_peak"], batch=batch, queries=queries[-2],
                      keys=keys[-2])
        wide = [span for span in record["weights"] if span > block and span != queries[-1]]
        if keys[-2] > block and wide:
            return _t('a normalisation (a softmax, a sum or a product) spans {span} entries at once, more than a block of {block} keys ({keys} keys in all)', language,
                      span=max(wide), block=block, keys=keys[-2])
    return None

def every_pair_at_once(records, position, language):
    for record in calls(records):
        arguments = record["arguments"]
        sizes = shape(arguments[position]) if len(arguments) > position else None
        if not sizes or len(sizes) < 2:
            continue
        tensors = [dims for dims in map(shape, arguments) if dims]
        batch, seq = math.prod(sizes[:-2]), sizes[-2]
        room = max([math.prod(dims) for dims in tensors]
                   + [batch * seq * dims[-1] for dims in tensors])
        whole = batch * seq * seq
        if whole > room and record["largest"] >= whole:
            return _t("one operation produced or read {count} numbers at once, as many as every position's scores against every position ({batch} x {seq} x {seq}): a mask's whole matrix, where the cache holds only the positions decoded so far", language, count=record["largest"], batch=batch,
                      seq=seq)
    return None

def causal_weights(records, params, probes, language):
    seen = [(sorted({span for span in record["weights"] if span <= sizes[-2]}), sizes[-2])
            for record in calls(records)
            if (sizes := shape(record["arguments"][params[0]])
                if len(record["arguments"]) > params[0] else None)
            and len(sizes) >= 2 and sizes[-2] >= 2]
    if probes is not None and probes.get("used_spans") is not None:
        seen.append((probes["used_spans"], probes["seq"]))
    for spans, seq in seen:
        if len(spans) < seq - 1:
            return _t('its normalisations (softmax, or a sum it divides by) span {spans} positions, not 1, 2, ... {seq} as the positions are decoded: future positions were scored', language,
                      spans=", ".join(map(str, spans)) or "0", seq=seq)
    rows = probes.get("whole_rows") if probes is not None else None
    if rows is not None and rows > 1:
        return _t("changing its normalisations of all {seq} positions (softmaxes, sums, products) changed the outputs of {rows} positions, where only the last position's attends over all {seq}: every position was scored against the whole sequence, its future masked", language, seq=probes["seq"], rows=rows)
    return every_pair_at_once(records, params[0], language)

ONE_PASS_FACTOR = 32

def input_shapes(arguments, positions):
    return [shape(arguments[i]) if len(arguments) > i else None for i in positions]

def shaped_like(shapes, positions):
    arguments = [None] * (max(positions) + 1)
    for position, sizes in zip(positions, shapes, strict=True):
        arguments[position] = list(sizes)
    return arguments

def forward_numbers(arguments, params):
    shapes = input_shapes(arguments, params["inputs"])
    if any(sizes is None for sizes in shapes):
        return None
    numbers = sum(math.prod(sizes) for sizes in shapes)
    if params.get("scores"):
        queries, keys, values = input_shapes(arguments, params["scores"])
        if not (queries and keys and values and min(map(len, (queries, keys, values))) >= 2):
            return None
        numbers += math.prod(queries[:-2]) * queries[-2] * keys[-2] * (keys[-1] + values[-1])
    return numbers

SHARING = frozenset({"numpy", "from_numpy", "as_tensor", "asarray", "__array__",
                     "__array_interface__", "from_file"})

def shares_memory(text, language):
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _t('its code does not parse', language)
    for node in ast.walk(tree):
        name = node.attr if isinstance(node, ast.Attribute) else string_named(node)
        if name in SHARING:
            return _t("it uses {name}, which shares a tensor's memory with numpy, where what is done with its numbers cannot be seen", language, name=name)
    return None

def costs_one_pass(records, params, probes, language):
    gone = handed_out(records, OUT_OF_TORCH)
    if gone:
        return _t("it handed a tensor's numbers out of torch ({names}), where the work done on them cannot be counted (a print of a tensor does too, and a result whose shape the numbers decide: ->shape)", language, names=", ".join(gone))
    raised = sum(record["ops"].get(RAISED, 0) for record in calls(records))
    if raised:
        return _t('{count} of its torch operations raised an error inside the call, whose message can carry the numbers they read out of torch (an index out of range says which)', language, count=raised)
    least = forward_numbers(shaped_like(params["at"], params["inputs"]), params)
    for record in calls(records):
        forward = forward_numbers(record["arguments"], params)
        if not forward or forward < least:
            continue
        shapes = input_shapes(record["arguments"], params["inputs"])
        given = sum(math.prod(sizes) for sizes in shapes)
        one_by_one = record["ops"].get(NUMBERS_OUT, 0)
        if one_by_one > given // 4:
            return _t('it took {count} numbers out of torch one at a time (item(), float(), torch.equal, a Python loop over a tensor: each operation that answers with a number; a float counts as two 32-bit numbers, a complex as four), more than a quarter of the {given} it was given', language,
                      count=one_by_one, given=given)
        if record["work"] > ONE_PASS_FACTOR * forward:
            return _t('on inputs of shapes {shapes}, its operations read and made {work} numbers, {times:.0f} times the {forward} of the forward pass (at most {factor} times)', language,
                      shapes=", ".join(str(tuple(sizes)) for sizes in shapes),
                      work=record["work"], times=record["work"] / forward, forward=forward,
                      factor=ONE_PASS_FACTOR)
    return None

TEXT_READ = {"costs_one_pass": shares_memory, "scores_in_blocks": shares_memory}
DECISIONS = {"forbids_ops": forbids_ops, "requires_ops": requires_ops,
             "forbids_autograd": forbids_autograd, "enters": enters,
             "forbids_entering": forbids_entering, "scores_in_blocks": scores_in_blocks,
             "causal_weights": causal_weights, "costs_one_pass": costs_one_pass,
             "same_work": same_work}

def tampered_with(records, language=None):
    said = []
    for record in records:
        for entry in record.get("tampered", ()):
            key, _, detail = entry.partition(":")
            text = TAMPERING[key](language, detail) if key in TAMPERING else entry
            if text not in said:
                said.append(text)
    return "; ".join(said) if said else None

def decided(kind, params, records, text, language=None, probes=None):
    if not text:
        return _t('no code defines it in the notebook (define it with def or class, in a cell of yours)', language)
    reason = tampering(text, language)
    if reason:
        return _t('no rule can be verified because {reason}; call what you need by name',
                  language, reason=reason)
    touched = tampered_with(records, language)
    if touched:
        return _t('it reached into what records its operations: {what}', language,
                  what=touched)
    if not records:
        return _t("none of your code's calls was recorded", language)
    read = TEXT_READ.get(kind)
    return (read and read(text, language)) or DECISIONS[kind](records, params, probes,
                                                               language)

TEST_CELL = {"recorder": None, "records": []}

def record_calls(subject, uses=(), counted=(), measure=False):
    stop_recording()
    recorder = Recorder(codes_of(subject), *watched(namespace_of(subject), uses, counted),
                        measure=measure)
    TEST_CELL["recorder"], TEST_CELL["records"] = recorder, recorder.records
    recorder.start()
    after_every_cell(stop_recording)

def probed_here(probe, subject):
    recorder = TEST_CELL["recorder"]
    calls = getattr(recorder, "calls", None)
    if probe is None or not calls:
        return None
    if isinstance(subject, type):
        subject, calls = instance_calls(subject, calls, getattr(recorder, "call_codes", ()))
        if not calls:
            return None
    call = calls[telling_call(probe, calls) if probe["kind"] == "spans" else 0]
    recorder.paused = True
    try:
        args, kwargs = fresh(call)
        base = subject(*args, **kwargs)
        return found(probe, rerun_here(subject, call), base, call,
                     torch.Generator().manual_seed(0))
    except Exception:
        return None
    finally:
        recorder.paused = False

def instance_calls(cls, calls, codes):
    method = getattr(cls, "forward", None) or next(
        (vars(base)["__call__"] for base in cls.__mro__ if "__call__" in vars(base)), None)
    code = getattr(getattr(method, "__func__", method), "__code__", None)
    return method, [call for call, ran in zip(calls, codes, strict=False)
                    if ran is code and call[0] and isinstance(call[0][0], cls)]

def unused(params, probes, language=None):
    if probes and probes.get("changed") is False:
        return _t('its {names} does not change what it returns (a call whose result is not used does not count)', language, names=_t(' or ', language).join(
                      sorted(params)))
    return None

def stop_recording(*_):
    recorder, TEST_CELL["recorder"] = TEST_CELL["recorder"], None
    if recorder is not None:
        recorder.stop()

def expect_rule(subject, kind, params, rule, why, uses=(), probe=None, name=None):
    sources = notebook_sources()
    name = name or getattr(subject, "__name__", "")
    if sources is None:
        try:
            sources = [textwrap.dedent(inspect.getsource(subject))]
        except (OSError, TypeError):
            sources = []
    text = closure(sources, name, apart=uses)
    probes = probed_here(probe, subject)
    if kind in DECISIONS:
        broken = decided(kind, params, TEST_CELL["records"], text, probes=probes)
    else:
        broken = judged(kind, params, text, None) or unused(params, probes)
    assert broken is None, _t("rule '{rule}': {broken} ({why})", rule=rule, broken=broken,
                              why=why)


import re

TEST_HEADER = re.compile(r"#\s*(\w+)\s*[:：]")
step_passed = {}

def step_of(cell_text):
    match = TEST_HEADER.match(cell_text.lstrip())
    return match.group(1) if match else None

def failing_frame(error, namespace):
    helpers = expect_close.__code__.co_filename
    found, trace = None, error.__traceback__
    while trace is not None:
        frame = trace.tb_frame
        code = frame.f_code
        if frame.f_globals is namespace and code.co_name != "<module>" and \
                code.co_filename != helpers:
            found = frame
        trace = trace.tb_next
    return found

def arguments_of(frame):
    code = frame.f_code
    count = code.co_argcount + code.co_kwonlyargcount
    names = [name for name in code.co_varnames[:count] if name != "self"]
    return called_with([(name, frame.f_locals.get(name)) for name in names])

def notes(step, error, namespace):
    if isinstance(error, NotImplementedError):
        return []
    lines = []
    frame = failing_frame(error, namespace) if error is not None else None
    if frame is not None:
        kind, message = type(error).__name__, str(error)
        lines.append(_t('{function} raised {kind} with {arguments}', function=frame.f_code.co_name,
                        kind=kind, arguments=arguments_of(frame)))
        if about_shapes(kind, message):
            lines.append(_t("compare each operation's shapes with the docstring of {function}",
                            function=frame.f_code.co_name))
    failing = [used for used in STEP_USES.get(step, ()) if step_passed.get(used) is False]
    if failing:
        lines.append(_t('{step} calls {earlier}, whose test above fails: fix {earlier} first (this test may then pass as it is)', step=step,
                        earlier=_t(', ').join(failing)))
    return lines

def after_cell(result):
    try:
        from IPython import get_ipython

        step = step_of(getattr(result.info, "raw_cell", "") or "")
        if step is not None:
            step_passed[step] = bool(result.success)
        lines = [] if result.success else notes(step, result.error_in_exec,
                                                get_ipython().user_ns)
    except KeyboardInterrupt:
        raise
    except BaseException:
        return
    for line in lines:
        print(line)

def listen():
    after_every_cell(after_cell)

listen()