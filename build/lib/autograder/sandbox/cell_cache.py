"""IPython's work on a cell's text, done once per text for all the kernels of a template.

Before a kernel runs a cell, ipykernel transforms its text (IPython's TransformerManager,
which tokenizes all of it to find magics) to ask whether it needs an event loop, compiles it
whole to answer that, then IPython transforms it again and parses it to run it; and ipykernel
names the cell's file by a murmur2 hash that it computes in pure Python, a byte at a time. The
course's cells are the same text in every notebook (the helper cell alone is 27 KB), and each
ran twice a notebook (once in the student's kernel, once in the judging one): the helper cell
alone cost about 0.05 CPU s a run in tokenizing, compiling and parsing the same text again.

Here, imported by the template (zygote.py) before it forks:
  - a transformed text is kept (at most MAX_CHARS of texts, the oldest go first), so a
    kernel transforms each text once, and the texts the template was given (`warm`: the
    course's cells, the grader's agent) not at all: a kernel inherits them with its memory;
  - for those warmed texts, the template also keeps their syntax tree (as IPython's compiler
    parses them, before any cell changes its `__future__` flags) and whether they need an
    event loop (at most MAX_PARSED_CHARS of texts): a kernel parses and compiles them once,
    to run them, instead of three times;
  - for those warmed texts, the template also compiles each top-level statement as
    IPython's compiler will in a kernel (one at a time, in the modes and with the flags a
    kernel uses): a kernel renames the kept code after its cell's file instead of compiling
    the statement again (the helper cell's compile was about 6 ms a run, two runs a
    notebook). A statement that imports from `__future__` is compiled every time, so that
    the compiler learns the import as it does;
  - the cell's file is named by a hash computed in C (blake2b, 32 bits as murmur2's);
  - a warmed cell that packs code (the course's helper cell: `PACKED, NAME = "...", "..."`,
    as build/standalone.py writes it) has that code unpacked and compiled here, under its
    NAME, in `kept_helpers`, which the cell reads: its compile was about 14 ms and its
    unpacking 4 ms a run, two runs a notebook. The cell unpacks and compiles it itself
    wherever this module is not (a student's own Jupyter) or the text differs.
What a kernel gets is IPython's own work, unchanged: a text is looked up only by a manager with
IPython's default transforms and a shell with no AST transformers (a kernel that adds its own
gets them, every time), and a kept tree is handed out in a new module each time (IPython may
add a statement to a cell's list; it never changes the statements), and kept code is handed
out only for a kept statement, asked for in a mode and with flags it was compiled with.
Nothing of the grader's is kept here: the texts are the course's, as the notebooks hold them.
"""

import ast
import base64
import hashlib
import types
import zlib

import ipykernel.compiler
from IPython.core import interactiveshell
from IPython.core.async_helpers import _should_be_async
from IPython.core.compilerop import CachingCompiler
from IPython.core.getipython import get_ipython
from IPython.core.inputtransformer2 import TransformerManager

MAX_CHARS = 8 << 20  # characters of transformed texts a process keeps
MAX_PARSED_CHARS = 1 << 20  # characters of texts whose trees the template keeps (~55 B each)
_transform = TransformerManager.transform_cell  # IPython's own
_parse = CachingCompiler.ast_parse
_compile = CachingCompiler.__call__
FLAGS = CachingCompiler().flags  # a kernel's, before a cell imports from __future__
UNNAMED = "<a course cell, compiled by the template>"  # a kept code's file, until renamed


class Kept:
    """What was worked out of texts, for at most `limit` characters of them (by `chars`):
    the oldest go first."""

    def __init__(self, limit: int):
        self.limit, self.size, self.items = limit, 0, {}

    def get(self, text):
        kept = self.items.get(text)
        return None if kept is None else kept[0]

    def put(self, text, value, chars):
        self.items[text] = (value, chars)
        self.size += chars
        while self.size > self.limit and len(self.items) > 1:
            self.size -= self.items.pop(next(iter(self.items)))[1]


_transformed = Kept(MAX_CHARS)  # text -> transformed text
_parsed = Kept(MAX_PARSED_CHARS)  # transformed text -> (its tree, needs a loop)
_codes = {}  # id(a kept tree's statement) -> (the statement, {(mode, flags): its code})
kept_helpers = {}  # (a packed text, its file's name) -> (the code's text, its code)


def _transforms(manager):
    return (*manager.cleanup_transforms, None, *manager.line_transforms, None,
            *manager.token_transformers)


DEFAULT = _transforms(TransformerManager())


def transform_cell(manager, cell):
    """IPython's TransformerManager.transform_cell, once per text."""
    if _transforms(manager) != DEFAULT:
        return _transform(manager, cell)
    done = _transformed.get(cell)
    if done is None:
        done = _transform(manager, cell)  # a text IPython refuses raises, and is not kept
        _transformed.put(cell, done, len(cell) + len(done))
    return done


def should_be_async(cell):
    """IPython's answer to whether a (transformed) text needs an event loop, kept for the
    warmed texts."""
    kept = _parsed.get(cell)
    return _should_be_async(cell) if kept is None else kept[1]


def ast_parse(compiler, source, filename="<unknown>", symbol="exec"):
    """IPython's CachingCompiler.ast_parse; a warmed text is not parsed again while the
    compiler has its first flags and the shell no AST transformers (which change a tree)."""
    kept = _parsed.get(source) if symbol == "exec" and compiler.flags == FLAGS else None
    shell = get_ipython()
    if kept is None or shell is None or shell.ast_transformers:
        return _parse(compiler, source, filename, symbol)
    return ast.Module(body=list(kept[0].body), type_ignores=list(kept[0].type_ignores))


def compile_statement(compiler, source, filename, symbol, **options):
    """IPython's compiler (codeop.Compile.__call__, which it runs on one statement at a time);
    a statement of a warmed text, in a mode and with flags the template compiled it with,
    gets the template's code, named after this cell's file."""
    body = getattr(source, "body", None)
    kept = _codes.get(id(body[0])) if (
        not options and isinstance(source, ast.Module | ast.Interactive) and len(body) == 1
    ) else None
    code = kept[1].get((symbol, compiler.flags)) if kept and kept[0] is body[0] else None
    if code is None:
        return _compile(compiler, source, filename, symbol, **options)
    return renamed(code, filename)


def renamed(code, filename):
    """The code, and the code of every function, class and comprehension in it, with
    `filename` as its file (what a traceback shows the lines of)."""
    consts = tuple(renamed(c, filename) if isinstance(c, types.CodeType) else c
                   for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def keep_codes(tree):
    """Compile each statement of a warmed tree in the modes a kernel may ask for (the last
    expression also as IPython's interactive one) and with a kernel's flags, with and
    without top-level await; a statement that imports from `__future__`, or that does not
    compile (a kernel raises it), is left to the kernel."""
    for index, statement in enumerate(tree.body):
        if isinstance(statement, ast.ImportFrom) and statement.module == "__future__":
            continue
        modes = [("exec", ast.Module([statement], []))]
        if index == len(tree.body) - 1 and isinstance(statement, ast.Expr):
            modes.append(("single", ast.Interactive([statement])))
        codes = {}
        for flags in (FLAGS, FLAGS | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT):
            for symbol, module in modes:
                try:
                    codes[symbol, flags] = compile(module, UNNAMED, symbol, flags, True)
                except (SyntaxError, ValueError):
                    continue
        _codes[id(statement)] = (statement, codes)


def keep_helpers(tree):
    """The code a warmed cell packs, unpacked and compiled as the cell would (base85 of its
    zlib-compressed text, compiled whole under NAME, with no `__future__` flag of the cell's),
    in `kept_helpers`. A text that does not unpack or compile is left to the cell."""
    for statement in tree.body:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Tuple)
                and [getattr(name, "id", None) for name in statement.targets[0].elts]
                == ["PACKED", "NAME"] and isinstance(statement.value, ast.Tuple)):
            continue
        values = [getattr(value, "value", None) for value in statement.value.elts]
        if len(values) != 2 or not all(isinstance(value, str) for value in values):
            continue
        try:
            text = zlib.decompress(base64.b85decode(values[0])).decode("utf-8")
            kept_helpers[tuple(values)] = (text, compile(text, values[1], "exec",
                                                         dont_inherit=True))
        except (ValueError, zlib.error, SyntaxError):
            continue


def cell_hash(data, seed):
    """A 32-bit number naming a cell's file, as ipykernel's murmur2_x86 gives one, in C."""
    digest = hashlib.blake2b(data.encode("utf-8", "surrogatepass"), digest_size=4,
                             key=seed.to_bytes(4, "little")).digest()
    return int.from_bytes(digest, "little")


def install():
    TransformerManager.transform_cell = transform_cell
    CachingCompiler.ast_parse = ast_parse
    CachingCompiler.__call__ = compile_statement
    interactiveshell._should_be_async = should_be_async
    ipykernel.compiler.murmur2_x86 = cell_hash


def warm(texts):
    """Transform and parse `texts` now, in the template: every kernel forked after finds
    them done. The number of texts IPython could transform (the others are left to the
    kernels, which raise what IPython raises)."""
    manager, compiler, done = TransformerManager(), CachingCompiler(), 0
    for text in texts:
        try:
            transformed = manager.transform_cell(text)
        except Exception:  # noqa: BLE001,S112 - a kernel raises it to the student, as IPython does
            continue
        done += 1
        try:
            tree = _parse(compiler, transformed)
        except (SyntaxError, ValueError, MemoryError):  # a kernel reports it, as IPython does
            continue
        _parsed.put(transformed, (tree, _should_be_async(transformed)), len(transformed))
        keep_codes(tree)
        keep_helpers(tree)
    kept = {id(statement) for (tree, _), _ in _parsed.items.values() for statement in tree.body}
    for key in [key for key in _codes if key not in kept]:  # of trees no longer kept
        del _codes[key]
    return done
