"""Is a step's rule decided on the code that runs, so that no trick elsewhere in the notebook
earns points and no honest way of writing the step loses them?

No kernel: the cells are strings. A notebook *earns* a step when the step's real rules pass
on the text code_rules.closure reads, and the function that text defines, run on its own
after the course's cells (as grading runs it), gives the reference's numbers. Every evasion
below must not earn its step; every correct rewrite must.
"""

from __future__ import annotations

import ast
import inspect
import math
import textwrap
from contextlib import contextmanager

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

import solutions
from autograder.checks.code_rules import closure, course_key, judged, python_loop, segments
from autograder.checks.judge import recording_of
from autograder.checks.subject import LocalSubject
from tests.course import STEPS

SETUP = "import math\nimport torch\nimport torch.nn.functional as F\nfrom torch import nn"
COURSE = {course_key(SETUP)}


def inputs(step_name):
    """Fixed, non-square inputs of each step these tests use."""
    gen = torch.Generator().manual_seed(7)
    if step_name == "stable_softmax":
        return (torch.randn(3, 5, generator=gen),)
    if step_name == "self_attention":
        return (torch.randn(4, 3, generator=gen), torch.randn(3, 2, generator=gen),
                torch.randn(3, 2, generator=gen), torch.randn(3, 5, generator=gen))
    if step_name == "multihead_project":
        return torch.randn(4, 3, generator=gen), torch.randn(2, 5, 3, generator=gen)
    if step_name in ("loop_attention", "vectorized_attention"):
        return (torch.randn(3, 4, generator=gen), torch.randn(2, 3, generator=gen),
                torch.randn(2, 3, generator=gen), torch.randn(5, 3, generator=gen))
    if step_name == "layer_norm":
        return torch.randn(2, 3, 5, generator=gen), torch.randn(5, generator=gen), \
            torch.randn(5, generator=gen)
    if step_name == "softmax_backward":
        return torch.softmax(torch.randn(3, 4, generator=gen), -1), \
            torch.randn(3, 4, generator=gen)
    if step_name == "attention_backward":
        return (torch.randn(3, 4, generator=gen), torch.randn(5, 4, generator=gen),
                torch.randn(5, 2, generator=gen), torch.randn(3, 2, generator=gen))
    raise KeyError(step_name)


def called(step_name, target):
    """One call of the step's function (of a new block's forward, for TransformerBlock) on
    fixed inputs."""
    if step_name == "TransformerBlock":
        torch.manual_seed(0)
        return target(8, 2, 16)(torch.randn(2, 5, 8))
    return target(*inputs(step_name))


@contextmanager
def libraries_kept():
    """Run student code that may change torch, F or math in place (`torch.exp = ...`), and
    put every name of theirs back afterwards."""
    modules = (torch, F, math, torch.Tensor)
    saved = [dict(vars(module)) for module in modules]
    try:
        yield
    finally:
        for module, names in zip(modules, saved, strict=True):
            for name in set(vars(module)) - set(names):
                delattr(module, name)
            for name, value in names.items():
                if vars(module).get(name) is not value:
                    setattr(module, name, value)


def broken_rules(step_name, *cells, course=()):
    """The violations of the step's rules on the notebook made of these student cells, as
    grading decides them: rules on the code read its text without the earlier steps the step
    uses; rules on operations, the record of one call of the function the text defines, run
    alone after the course's cells (the earlier steps the references, as the stand-ins)."""
    step = STEPS[step_name]
    code = closure([SETUP, *course, *cells], step_name,
                   COURSE | {course_key(c) for c in course}, apart=step.uses) or ""
    subject = LocalSubject(step.reference, source=code)
    with libraries_kept():
        target = defined(step_name, *cells, course=course)
        if target is not None:
            subject = LocalSubject(target, source=code)
            with recording_of(subject, step):
                try:
                    called(step_name, target)
                except Exception:  # noqa: BLE001 - wrong code may raise anything
                    pass
    return [v for rule in step.rules if (v := rule.violation(subject))]


def defined(step_name, *cells, course=()):
    """The function the step's text defines when it runs alone after the course's cells,
    the earlier steps it uses the references (None when it does not run)."""
    text = closure([SETUP, *course, *cells], step_name,
                   COURSE | {course_key(c) for c in course})
    if not text:
        return None
    references = {name: getattr(solutions, name) for name in STEPS[step_name].uses}
    space = {"__name__": "__main__", **references}
    try:
        for code in (SETUP, *course, text):
            exec(compile(code, "<cell>", "exec"), space)  # noqa: S102 - the test's own strings
    except Exception:  # noqa: BLE001 - wrong code may raise anything
        return None
    space.update(references)  # the stand-ins grading puts in the kernel
    return space.get(step_name)


def runs_right(step_name, *cells, course=()):
    """Whether the step's text, run alone after the course's cells, gives the reference's
    numbers (helpers of earlier steps are the reference's, as the grader's stand-ins)."""
    text = closure([SETUP, *course, *cells], step_name,
                   COURSE | {course_key(c) for c in course})
    if not text:
        return False
    space = {"scaled_dot_score": solutions.scaled_dot_score}
    args = inputs(step_name)
    want = getattr(solutions, step_name)(*args)
    with libraries_kept():
        for code in (SETUP, *course, text):
            exec(compile(code, "<cell>", "exec"), space)  # noqa: S102 - the test's own strings
        try:
            got = space[step_name](*args)
        except Exception:  # noqa: BLE001 - wrong code may raise anything
            return False
    return torch.allclose(got, want, atol=1e-5)


def earns(step_name, *cells, course=()):
    return not broken_rules(step_name, *cells, course=course) and \
        runs_right(step_name, *cells, course=course)


def source_of(name):
    return textwrap.dedent(inspect.getsource(getattr(solutions, name)))


HONEST_SOFTMAX = """
def stable_softmax(scores, dim=-1):
    shifted = scores - scores.max(dim=dim, keepdim=True).values
    e = torch.exp(shifted)
    return e / e.sum(dim=dim, keepdim=True)
"""
WRONG_SOFTMAX = "def stable_softmax(scores, dim=-1):\n    return scores\n"
BUILTIN = "lambda s, dim=-1: torch.softmax(s, dim)"
HONEST_SELF_ATTENTION = source_of("self_attention")
LOOPED_ROWS = """
def self_attention(x, W_query, W_key, W_value):
    k, v = x @ W_key, x @ W_value
    rows = [torch.softmax(k @ (r @ W_query) / math.sqrt(k.shape[-1]), -1) @ v for r in x]
    return torch.stack(rows)
"""

# The body of a self_attention that attends one row at a time with `one`.
# A module that attends one row a call, the row's index and the rows so far in its state.
ONE_ROW_MODULE = ("class OneRow(nn.Module):\n"
                  "    def forward(self, state):\n"
                  "        i, x, W_query, W_key, W_value, rows = state\n"
                  "        k, v = x @ W_key, x @ W_value\n"
                  "        row = torch.softmax(k @ (x[i] @ W_query) / math.sqrt(k.shape[-1]),"
                  " -1) @ v\n"
                  "        return i + 1, x, W_query, W_key, W_value, rows + (row,)")
# One row of self-attention, i its index (a number or numpy's): what a loop made elsewhere calls.
ONE_ROW = ("def one_row(i, x, W_query, W_key, W_value):\n"
           "    k, v = x @ W_key, x @ W_value\n"
           "    return torch.softmax(k @ (x[int(i)] @ W_query) / math.sqrt(k.shape[-1]), -1) @ v")
ROW_BY_ROW = ("    k, v = x @ W_key, x @ W_value\n"
              "    one = lambda r: torch.softmax(k @ (r @ W_query) / math.sqrt(k.shape[-1]), -1)"
              " @ v\n")

# A class whose __getattr__ attends one more row each time an attribute it lacks is read,
# then reads another (the return line is each case's).
GETATTR_ROWS = ("class Rows:\n"
                "    def __init__(self, x, one):\n"
                "        self.x, self.one, self.out = x, one, []\n"
                "    def __getattr__(self, name):\n"
                "        if len(self.out) == len(self.x):\n"
                "            return torch.stack(self.out)\n"
                "        self.out.append(self.one(self.x[len(self.out)]))\n")

# step -> {what: cells}: none of these may earn its step -----------------------------------
EVASIONS = {
    "stable_softmax": {
        "the built-in registered on a function by singledispatch": (
            "import functools",
            "@functools.singledispatch\n" + HONEST_SOFTMAX.lstrip(),
            "@stable_softmax.register\n"
            "def _(scores: torch.Tensor, dim=-1):\n    return torch.softmax(scores, dim)"),
        "a helper": ("def helper(s, d):\n    return torch.softmax(s, dim=d)",
                     "def stable_softmax(scores, dim=-1):\n    return helper(scores, dim)"),
        "an alias bound in an earlier cell": (
            "sm = F.softmax", "def stable_softmax(scores, dim=-1):\n    return sm(scores, dim)"),
        "an imported alias": (
            "from torch import softmax as normalise",
            "def stable_softmax(scores, dim=-1):\n    return normalise(scores, dim)"),
        "a private entry point": (
            "def stable_softmax(scores, dim=-1):\n"
            "    return torch.ops.aten._softmax(scores, dim, False)",),
        "a rebinding in a later cell": (
            HONEST_SOFTMAX,
            "def stable_softmax(scores, dim=-1):\n    return scores.softmax(dim)"),
        "a distribution": (
            "def stable_softmax(scores, dim=-1):\n"
            "    return torch.distributions.Categorical(logits=scores).probs",),
        "a module": ("def stable_softmax(scores, dim=-1):\n    return nn.Softmax(dim)(scores)",),
        "the built-in beside a function of its name": (
            "def softmax(s, dim=-1):\n    return s",
            "def stable_softmax(scores, dim=-1):\n    softmax(scores, dim)\n"
            "    return torch.softmax(scores, dim=dim)"),
        "getattr with a computed name": (
            "def stable_softmax(scores, dim=-1):\n"
            "    return getattr(torch, 'soft' + 'max')(scores, dim)",),
        "getattr with a joined name": (
            "def stable_softmax(scores, dim=-1):\n"
            "    return getattr(torch, ''.join(['soft', 'max']))(scores, dim)",),
        "eval": ("def stable_softmax(scores, dim=-1):\n"
                 "    return eval('torch.soft' + 'max')(scores, dim)",),
        "globals() in the body": (
            "def stable_softmax(scores, dim=-1):\n"
            "    return globals()['tor' + 'ch'].softmax(scores, dim)",),
        "globals() rebinding after the judged definition": (
            WRONG_SOFTMAX, f"globals()['stable_softmax'] = {BUILTIN}"),
        "setattr on __main__": (
            WRONG_SOFTMAX, f"import __main__\nsetattr(__main__, 'stable_softmax', {BUILTIN})"),
        "sys.modules rebinding": (
            WRONG_SOFTMAX, f"import sys\nsys.modules['__main__'].stable_softmax = {BUILTIN}"),
        "exec of a new definition": (
            WRONG_SOFTMAX, f"exec('stable_softmax = {BUILTIN}')"),
        "a decorator that swaps the function": (
            f"def fix(f):\n    return {BUILTIN}",
            "@fix\ndef stable_softmax(scores, dim=-1):\n    return scores"),
        "a decorator from a module shipped beside the notebook": (
            "from tricks import fix",
            "@fix\ndef stable_softmax(scores, dim=-1):\n    return scores"),
        "the step imported from a shipped module": ("from mysoftmax import stable_softmax",),
        "a shipped module imported whole": (
            "import mysoftmax", "stable_softmax = mysoftmax.stable_softmax"),
        "a star import from a shipped module": ("from mysoftmax import *",),
        "a conditional redefinition": (
            WRONG_SOFTMAX, f"if True:\n    stable_softmax = {BUILTIN}"),
        "a global rebinding from a function called at top level": (
            WRONG_SOFTMAX,
            f"def setup():\n    global stable_softmax\n    stable_softmax = {BUILTIN}\nsetup()"),
        "an instance whose __call__ is the built-in": (
            "class S:\n    __call__ = staticmethod(torch.softmax)", "stable_softmax = S()"),
        "torch.exp patched in another cell": (
            "torch.exp = lambda s: torch.softmax(s, -1) * s.shape[-1]",
            "def stable_softmax(scores, dim=-1):\n"
            "    return torch.exp(scores) / scores.shape[-1]"),
        "a walrus at top level": (WRONG_SOFTMAX, "(stable_softmax := F.softmax)"),
        "a for loop that binds the name": (
            WRONG_SOFTMAX, "for stable_softmax in [F.softmax]:\n    pass"),
        "a default argument that captures the built-in": (
            "def stable_softmax(scores, dim=-1, f=F.softmax):\n    return f(scores, dim)",),
        "getattr over a literal tuple": (
            "for n in ('softmax',):\n    f = getattr(torch, n)",
            "def stable_softmax(scores, dim=-1):\n    return f(scores, dim)"),
        "torch rebound to a fake module": (
            "class T:\n    exp = staticmethod(lambda s: torch.nn.functional.softmax(s, -1))",
            "torch = T",
            "def stable_softmax(scores, dim=-1):\n    return torch.exp(scores)"),
        "an import of contextlib": (
            "import contextlib",
            "with contextlib.nullcontext(F.softmax) as stable_softmax:\n    pass"),
        "object.__setattr__": (
            WRONG_SOFTMAX,
            f"import __main__\nobject.__setattr__(__main__, 'stable_softmax', {BUILTIN})"),
        "defined only by exec": ("exec(open('answer.py').read())",),
    },
    "self_attention": {
        # a helper's of 2026-12-05, late: dataclasses.asdict calls dict_factory once per
        # nested object, and IPython's shell runs any text (a loop hidden in a string)
        "a dict_factory asdict calls once per row": (
            "import dataclasses",
            "@dataclasses.dataclass\nclass Cell:\n    i: int = 0",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    rows = []\n"
            "    def one(pairs):\n"
            "        rows.append(torch.softmax((x @ W_key) @ (x[len(rows)] @ W_query), -1))\n"
            "        return {}\n"
            "    made = dataclasses.make_dataclass('Row', [('cells', list)])\n"
            "    dataclasses.asdict(made([Cell()] * x.shape[0]), dict_factory=one)\n"
            "    return torch.stack(rows) @ (x @ W_value)"),
        "a comprehension in a string the kernel's shell evaluates": (
            "import sys",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    shell = sys.displayhook.shell\n"
            "    rows = shell.ev('lambda q, k: [torch.softmax(k @ r, -1) for r in q]')\n"
            "    return torch.stack(rows(x @ W_query, x @ W_key)) @ (x @ W_value)"),
        "the shell reached by getattr with a literal": (
            "import sys",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    shell = getattr(sys.displayhook, 'shell')\n"
            "    return shell.ev('x')"),
        # a helper's attacks on 04 (2026-12-03): a loop with no loop statement nor a call
        # named as one
        "map under a second name": ("import math", "each = map",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    return torch.stack(list(each(one, x)))"),
        "reduce imported under another name": ("from functools import reduce as fold",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    return torch.stack(fold(lambda done, r: done + [one(r)], x, []))"),
        "itertools.groupby with its key by position": ("import itertools",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    out = []\n"
            "    list(itertools.groupby(x, lambda r: out.append(one(r))))\n"
            "    return torch.stack(out)"),
        "itertools.takewhile": ("import itertools",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    out = []\n"
            "    list(itertools.takewhile(lambda r: out.append(one(r)) is None, x))\n"
            "    return torch.stack(out)"),
        "re.sub calling a function for each match": ("import re",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    out = []\n"
            "    re.sub('.', lambda m: out.append(one(x[len(out)])) or '', 'a' * len(x))\n"
            "    return torch.stack(out)"),
        "recursion through a second name": (
            "def rows(x, Wq, Wk, Wv, i=0):\n"
            "    if i == len(x):\n"
            "        return []\n"
            "    k, v = x @ Wk, x @ Wv\n"
            "    row = torch.softmax(k @ (x[i] @ Wq) / math.sqrt(k.shape[-1]), -1) @ v\n"
            "    return [row] + again(x, Wq, Wk, Wv, i + 1)",
            "again = rows",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    return torch.stack(rows(x, W_query, W_key, W_value))"),
        "a class whose __init__ makes the next row's object": (
            "class Row:\n"
            "    def __init__(self, x, Wq, Wk, Wv, i, out):\n"
            "        if i < len(x):\n"
            "            k, v = x @ Wk, x @ Wv\n"
            "            out.append(torch.softmax(k @ (x[i] @ Wq) / math.sqrt(k.shape[-1]), -1)"
            " @ v)\n"
            "            Row(x, Wq, Wk, Wv, i + 1, out)",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    out = []\n"
            "    Row(x, W_query, W_key, W_value, 0, out)\n"
            "    return torch.stack(out)"),
        "sum() adding rows into an object of its own": (
            "class Rows:\n"
            "    def __init__(self, f):\n"
            "        self.f, self.out = f, []\n"
            "    def __add__(self, row):\n"
            "        self.out.append(self.f(row))\n"
            "        return self",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    rows = Rows(one)\n"
            "    sum(x.unbind(0), rows)\n"
            "    return torch.stack(rows.out)"),
        # a helper's attacks on 06 (2026-12-04, late): a built-in or numpy calling a function
        # of the student's once per row or element
        "numpy's apply_along_axis": ("import numpy as np",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    return torch.tensor(np.apply_along_axis(lambda r: one(torch.tensor(r)).numpy(),"
            " 1, x.numpy()))"),
        "numpy's vectorize": ("import numpy as np",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    each = np.vectorize(lambda i: one(x[i]), otypes=[object])\n"
            "    return torch.stack(list(each(np.arange(len(x)))))"),
        "list.count calling __eq__ once per entry": (
            "class Rows:\n"
            "    def __init__(self, f, x):\n"
            "        self.f, self.x, self.out = f, x, []\n"
            "    def __eq__(self, other):\n"
            "        self.out.append(self.f(self.x[len(self.out)]))\n"
            "        return False",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    rows = Rows(one, x)\n"
            "    ([rows] * len(x)).count(None)\n"
            "    return torch.stack(rows.out)"),
        # a second helper's attacks the same night
        "iter with its function and sentinel given starred": ("import itertools",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    rows, at = x.unbind(0), itertools.count()\n"
            "    def step():\n"
            "        i = next(at)\n"
            "        return one(rows[i]) if i < len(rows) else None\n"
            "    return torch.stack(list(iter(*(step, None))))"),
        "string.Formatter calling format_field once per field": ("import string",
            "class Rows(string.Formatter):\n"
            "    def __init__(self, f):\n"
            "        self.f, self.out = f, []\n"
            "    def format_field(self, value, spec):\n"
            "        self.out.append(self.f(value))\n"
            "        return ''",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    rows = Rows(one)\n"
            "    rows.format('{}' * len(x), *x.unbind(0))\n"
            "    return torch.stack(rows.out)"),
        "re.Scanner calling its action once per token": ("import re",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    rows = x.unbind(0)\n"
            "    found, _ = re.Scanner([('r', lambda s, tok: one(rows[s.match.start()]))])"
            ".scan('r' * len(rows))\n"
            "    return torch.stack(found)"),
        # a helper's attacks on 04 (2026-12-05)
        "a class whose __call__ calls self(...) for the next query": (
            "class OneAtATime:\n"
            "    def __init__(self, q, k, v):\n"
            "        self.q, self.k, self.v, self.rows = q, k, v, []\n"
            "    def __call__(self, i):\n"
            "        if i == self.q.shape[-2]:\n"
            "            return torch.cat(self.rows, dim=-2)\n"
            "        s = self.q[..., i:i + 1, :] @ self.k.transpose(-2, -1)\n"
            "        self.rows.append(torch.softmax(s / math.sqrt(self.k.shape[-1]), -1)"
            " @ self.v)\n"
            "        return self(i + 1)",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    return OneAtATime(x @ W_query, x @ W_key, x @ W_value)(0)"),
        "str.translate calling a defaultdict's factory once per character": (
            "import collections\nimport itertools",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    rows, at = [], itertools.count()\n"
            "    def step():\n"
            "        rows.append(one(x[next(at)]))\n"
            "    bytes(range(len(x))).decode('latin-1').translate("
            "collections.defaultdict(step))\n"
            "    return torch.stack(rows)"),
        "recursion through functools.partial": ("import functools",
            "def rows(x, Wq, Wk, Wv, i, acc):\n"
            "    if i == len(x):\n"
            "        return acc\n"
            "    k, v = x @ Wk, x @ Wv\n"
            "    row = torch.softmax(k @ (x[i] @ Wq) / math.sqrt(k.shape[-1]), -1) @ v\n"
            "    return again(x, Wq, Wk, Wv, i + 1, acc + [row])",
            "again = functools.partial(rows)",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    return torch.stack(rows(x, W_query, W_key, W_value, 0, []))"),
        "a class made by type() whose __getitem__ str.translate calls": (
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    rows = []\n"
            "    def step(table, code):\n"
            "        rows.append(one(x[code]))\n"
            "    Table = type('Table', (), {'__getitem__': step})\n"
            "    bytes(range(len(x))).decode('latin-1').translate(Table())\n"
            "    return torch.stack(rows)",),
        # a second helper's attacks on 04 the same day
        "functools.reduce named by getattr": ("import functools",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    rows = []\n"
            "    getattr(functools, 'reduce')(lambda _, i: rows.append(one(x[i])),"
            " range(len(x)), None)\n"
            "    return torch.stack(rows)",),
        "re.sub given its function by keyword": ("import re",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    rows = []\n"
            "    re.sub('.', repl=lambda m: rows.append(one(x[m.start()])) or '',"
            " string='a' * len(x), flags=re.S)\n"
            "    return torch.stack(rows)"),
        "a defaultdict's factory set after it is made": ("import collections\nimport itertools",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    rows, at = [], itertools.count()\n"
            "    table = collections.defaultdict(list)\n"
            "    table.default_factory = lambda: rows.append(one(x[next(at)]))\n"
            "    bytes(range(len(x))).decode('latin-1').translate(table)\n"
            "    return torch.stack(rows)"),
        "torch's pytree tree_map": ("import torch.utils._pytree as pytree",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    return torch.stack(pytree.tree_map(lambda i: one(x[i]), list(range(len(x)))))",),
        "__class_getitem__ that str.translate calls once per character": (
            "class Table:\n"
            "    rows, one, x = [], None, None\n"
            "    def __class_getitem__(cls, code):\n"
            "        cls.rows.append(cls.one(cls.x[code]))",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    Table.rows, Table.one, Table.x = [], one, x\n"
            "    bytes(range(len(x))).decode('latin-1').translate(Table)\n"
            "    return torch.stack(Table.rows)"),
        # 2026-12-05: docs/not-done.md's "not tried yet"
        "recursion through __getattr__, a missing attribute read inside it": (
            GETATTR_ROWS + "        return self.more",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    return Rows(x, one).more"),
        "recursion through __getattr__ by a name made at run time": (
            GETATTR_ROWS + "        return getattr(self, 'row_%d' % len(self.out))",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    return Rows(x, one).row_0"),
        "recursion through an entry of a tuple literal": (
            "def rows(x, Wq, Wk, Wv, i, acc):\n"
            "    if i == len(x):\n"
            "        return acc\n"
            "    k, v = x @ Wk, x @ Wv\n"
            "    row = torch.softmax(k @ (x[i] @ Wq) / math.sqrt(k.shape[-1]), -1) @ v\n"
            "    return (rows,)[0](x, Wq, Wk, Wv, i + 1, acc + [row])",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    return torch.stack(rows(x, W_query, W_key, W_value, 0, []))"),
        "recursion passing itself by keyword": (
            "def rows(x, Wq, Wk, Wv, i, acc, again=None):\n"
            "    if i == len(x):\n"
            "        return acc\n"
            "    k, v = x @ Wk, x @ Wv\n"
            "    row = torch.softmax(k @ (x[i] @ Wq) / math.sqrt(k.shape[-1]), -1) @ v\n"
            "    return again(x, Wq, Wk, Wv, i + 1, acc + [row], again=again)",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    return torch.stack(rows(x, W_query, W_key, W_value, 0, [], again=rows))"),
        "recursion through a table filled by item assignment": (
            "AGAIN = [None]",
            "def rows(x, Wq, Wk, Wv, i, acc):\n"
            "    if i == len(x):\n"
            "        return acc\n"
            "    k, v = x @ Wk, x @ Wv\n"
            "    row = torch.softmax(k @ (x[i] @ Wq) / math.sqrt(k.shape[-1]), -1) @ v\n"
            "    return AGAIN[0](x, Wq, Wk, Wv, i + 1, acc + [row])",
            "AGAIN[0] = rows",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    return torch.stack(rows(x, W_query, W_key, W_value, 0, []))"),
        "__init__ making type(self) for the next query": (
            "class Rows:\n"
            "    def __init__(self, x, Wq, Wk, Wv, i=0, out=None):\n"
            "        self.out = [] if out is None else out\n"
            "        if i < len(x):\n"
            "            k, v = x @ Wk, x @ Wv\n"
            "            self.out.append(torch.softmax(k @ (x[i] @ Wq) / math.sqrt(k.shape[-1]),"
            " -1) @ v)\n"
            "            type(self)(x, Wq, Wk, Wv, i + 1, self.out)",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    return torch.stack(Rows(x, W_query, W_key, W_value).out)"),
        "recursion through an entry of a list": (
            "def rows(x, Wq, Wk, Wv, i, acc):\n"
            "    if i == len(x):\n"
            "        return acc\n"
            "    k, v = x @ Wk, x @ Wv\n"
            "    row = torch.softmax(k @ (x[i] @ Wq) / math.sqrt(k.shape[-1]), -1) @ v\n"
            "    return ME[0](x, Wq, Wk, Wv, i + 1, acc + [row])",
            "ME = [rows]",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    return torch.stack(rows(x, W_query, W_key, W_value, 0, []))"),
        "json.dumps calling its default once per element": ("import json",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    out = []\n"
            "    json.dumps(list(range(len(x))), default=None)\n"
            "    json.dumps([object()] * len(x), default=lambda o: out.append(one(x[len(out)]))"
            " or 0)\n"
            "    return torch.stack(out)"),
        "sorted calling __lt__ given as a lambda in the class body": (
            "class Rows:\n"
            "    f = x = None\n"
            "    out = []\n"
            "    __lt__ = lambda self, other: Rows.out.append(Rows.f(Rows.x[len(Rows.out)]))"
            " or False",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    Rows.f, Rows.x, Rows.out = one, x, []\n"
            "    sorted([Rows()] * (len(x) + 1))\n"
            "    return torch.stack(Rows.out)"),
        "a loop whose code a decorator puts into the vectorised step": (
            "def same_as(target):\n"
            "    def deco(f):\n"
            "        target.__code__ = f.__code__\n"
            "        return f\n"
            "    return deco",
            HONEST_SELF_ATTENTION,
            "@same_as(self_attention)\n" + LOOPED_ROWS.strip().replace(
                "def self_attention", "def looped")),
        "a loop registered on the vectorised step by singledispatch": (
            "import functools",
            "@functools.singledispatch\n" + HONEST_SELF_ATTENTION,
            "@self_attention.register\n" + LOOPED_ROWS.strip().replace(
                "def self_attention(x,", "def _(x: torch.Tensor,")),
        "a helper with a comprehension": (
            "def one(x, Wq, Wk, Wv, i):\n"
            "    q, k, v = x[i] @ Wq, x @ Wk, x @ Wv\n"
            "    return torch.softmax(k @ q / math.sqrt(k.shape[-1]), dim=-1) @ v",
            "def rows(x, Wq, Wk, Wv):\n    return [one(x, Wq, Wk, Wv, i) for i in range(len(x))]",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    return torch.stack(rows(x, W_query, W_key, W_value))"),
        "map": (
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    k, v = x @ W_key, x @ W_value\n"
            "    scale = math.sqrt(k.shape[-1])\n"
            "    one = lambda row: torch.softmax(k @ (row @ W_query) / scale, -1) @ v\n"
            "    return torch.stack(list(map(one, x)))",),
        "recursion": (
            "def rows(x, Wq, Wk, Wv, i=0):\n"
            "    if i == len(x):\n        return []\n"
            "    k, v = x @ Wk, x @ Wv\n"
            "    row = torch.softmax(k @ (x[i] @ Wq) / math.sqrt(k.shape[-1]), -1) @ v\n"
            "    return [row] + rows(x, Wq, Wk, Wv, i + 1)",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    return torch.stack(rows(x, W_query, W_key, W_value))"),
        "iter with a sentinel": (
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    k, v, it = x @ W_key, x @ W_value, iter(x)\n"
            "    one = lambda: next(it, None)\n"
            "    rows = [torch.softmax(k @ (r @ W_query) / math.sqrt(k.shape[-1]), -1) @ v\n"
            "            for r in iter(one, None)]\n"
            "    return torch.stack(rows)",),
        "a key= function doing the work": (
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    k, v, out = x @ W_key, x @ W_value, []\n"
            "    sorted(range(len(x)), key=lambda i: out.append(\n"
            "        torch.softmax(k @ (x[i] @ W_query) / math.sqrt(k.shape[-1]), -1) @ v))\n"
            "    return torch.stack(out)",),
        "a looping decorator": (
            "def per_row(f):\n"
            "    def g(x, *w):\n        return torch.stack([f(r, x, *w) for r in x])\n"
            "    return g",
            "@per_row\ndef self_attention(r, x, W_query, W_key, W_value):\n"
            "    k, v = x @ W_key, x @ W_value\n"
            "    return torch.softmax(k @ (r @ W_query) / math.sqrt(k.shape[-1]), -1) @ v"),
        "a callable class with a loop": (
            "class Loop:\n"
            "    def __call__(self, x, W_query, W_key, W_value):\n"
            "        k, v, out = x @ W_key, x @ W_value, []\n"
            "        for r in x:\n"
            "            out.append(torch.softmax(k @ (r @ W_query) / math.sqrt(k.shape[-1]),"
            " -1) @ v)\n"
            "        return torch.stack(out)",
            "self_attention = Loop()"),
        "a loop rebound after the vectorised one": (HONEST_SELF_ATTENTION, LOOPED_ROWS),
        # a helper's attacks on 04 and 06 (2026-12-05): a loop made once where the functions
        # are defined, called in the step; torch's own loops over modules or chunks
        "numpy's vectorize made at module level": (
            "import numpy as np", ONE_ROW,
            "EACH = np.vectorize(one_row, otypes=[object], excluded={1, 2, 3, 4})",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    return torch.stack(list(EACH(np.arange(len(x)), x, W_query, W_key, W_value)))"),
        "numpy's vectorize as a decorator": (
            "import numpy as np", "@np.vectorize(otypes=[object], excluded={1, 2, 3, 4})\n" +
            ONE_ROW,
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    return torch.stack(list(one_row(np.arange(len(x)), x, W_query, W_key, "
            "W_value)))"),
        "numpy's vectorize as a default value": (
            "import numpy as np", ONE_ROW,
            "def self_attention(x, W_query, W_key, W_value, each=np.vectorize(\n"
            "        one_row, otypes=[object], excluded={1, 2, 3, 4})):\n"
            "    return torch.stack(list(each(np.arange(len(x)), x, W_query, W_key, W_value)))"),
        "a Sequential of one module, once a row": (
            "from torch import nn",
            "class OneRow(nn.Module):\n"
            "    def forward(self, state):\n"
            "        i, x, W_query, W_key, W_value, rows = state\n"
            "        k, v = x @ W_key, x @ W_value\n"
            "        row = torch.softmax(k @ (x[i] @ W_query) / math.sqrt(k.shape[-1]), -1) @ v\n"
            "        return i + 1, x, W_query, W_key, W_value, rows + (row,)",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    turns = nn.Sequential(*[OneRow()] * len(x))\n"
            "    return torch.stack(turns((0, x, W_query, W_key, W_value, ()))[-1])"),
        # the next round (2026-12-05): the same loops by other doors
        "a Sequential of one module, multiplied": (
            "from torch import nn", ONE_ROW_MODULE,
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    turns = nn.Sequential(OneRow()) * len(x)\n"
            "    return torch.stack(turns((0, x, W_query, W_key, W_value, ()))[-1])"),
        "numpy's exp of an array of one stepping object": (
            "import numpy as np",
            "class Stepper:\n"
            "    def __init__(self, x, W_query, W_key, W_value):\n"
            "        self.x, self.Wq, self.Wk, self.Wv, self.i = x, W_query, W_key, W_value, 0\n"
            "    def exp(self):\n"
            "        k, v = self.x @ self.Wk, self.x @ self.Wv\n"
            "        row = torch.softmax(k @ (self.x[self.i] @ self.Wq) / math.sqrt(k.shape[-1]),"
            " -1) @ v\n"
            "        self.i += 1\n"
            "        return row",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    rows = np.exp(np.full(len(x), Stepper(x, W_query, W_key, W_value), "
            "dtype=object))\n"
            "    return torch.stack(list(rows))"),
        "str.format reading a property once a field": (
            "class Stepper:\n"
            "    def __init__(self, x, W_query, W_key, W_value):\n"
            "        self.x, self.Wq, self.Wk, self.Wv = x, W_query, W_key, W_value\n"
            "        self.rows = []\n"
            "    @property\n"
            "    def row(self):\n"
            "        k, v = self.x @ self.Wk, self.x @ self.Wv\n"
            "        r = self.x[len(self.rows)] @ self.Wq\n"
            "        self.rows.append(torch.softmax(k @ r / math.sqrt(k.shape[-1]), -1) @ v)\n"
            "        return ''",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    s = Stepper(x, W_query, W_key, W_value)\n"
            "    ('{0.row}' * len(x)).format(s)\n"
            "    return torch.stack(s.rows)"),
        "vmap in chunks of one row, through partial": (
            "import functools",
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    return functools.partial(torch.vmap, chunk_size=1)(one)(x)"),
        "vmap in chunks of one row": (
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    return torch.vmap(one, chunk_size=1)(x)",),
    },
    "multihead_project": {
        "no bmm at all": ("def multihead_project(x, W):\n    return (W @ x.T).transpose(1, 2)",),
        "bmm after the return": (
            "def multihead_project(x, W):\n    return (W @ x.T).transpose(1, 2)\n"
            "    torch.bmm(W, W)",),
        "bmm in a dead branch": (
            "def multihead_project(x, W):\n    if False:\n        torch.bmm(W, W)\n"
            "    return (W @ x.T).transpose(1, 2)",),
        "bmm named, never called": (
            "def multihead_project(x, W):\n    torch.bmm\n    return (W @ x.T).transpose(1, 2)",),
        "bmm in a string": (
            "def multihead_project(x, W):\n    'torch.bmm(W, x)'\n"
            "    return (W @ x.T).transpose(1, 2)",),
        # a helper's attack (2026-12-05): each head by a property that reads itself, then a
        # bmm by the identity
        "a property that reads itself for the next head": (
            "class Heads:\n"
            "    def __init__(self, x, W):\n"
            "        self.x, self.W, self.left = x, W, W.shape[0]\n"
            "    @property\n"
            "    def done(self):\n"
            "        if self.left == 0:\n"
            "            return self.x.new_zeros(0, self.x.shape[0], self.W.shape[1])\n"
            "        self.left -= 1\n"
            "        head = (self.x @ self.W[self.left].T)[None]\n"
            "        return torch.cat([self.done, head])",
            "def multihead_project(x, W):\n"
            "    per_head = Heads(x, W).done\n"
            "    eye = torch.eye(W.shape[1], dtype=per_head.dtype).expand(W.shape[0], -1, -1)\n"
            "    return torch.bmm(per_head, eye)"),
        "a property made by property() that reads itself": (
            "class Heads:\n"
            "    def __init__(self, x, W):\n"
            "        self.x, self.W, self.left = x, W, W.shape[0]\n"
            "    def _next(self):\n"
            "        if self.left == 0:\n"
            "            return self.x.new_zeros(0, self.x.shape[0], self.W.shape[1])\n"
            "        self.left -= 1\n"
            "        return torch.cat([self.done, (self.x @ self.W[self.left].T)[None]])\n"
            "    done = property(_next)",
            "def multihead_project(x, W):\n"
            "    per_head = Heads(x, W).done\n"
            "    eye = torch.eye(W.shape[1], dtype=per_head.dtype).expand(W.shape[0], -1, -1)\n"
            "    return torch.bmm(per_head, eye)"),
        "a class whose __init__ makes the next head's by self.__class__": (
            "class Heads:\n"
            "    def __init__(self, x, W, i=0):\n"
            "        self.out = [] if i == W.shape[0] else \\\n"
            "            [(x @ W[i].T)[None]] + self.__class__(x, W, i + 1).out",
            "def multihead_project(x, W):\n"
            "    per_head = torch.cat(Heads(x, W).out)\n"
            "    eye = torch.eye(W.shape[1], dtype=per_head.dtype).expand(W.shape[0], -1, -1)\n"
            "    return torch.bmm(per_head, eye)"),
    },
    "loop_attention": {
        "scaled_dot_score only in a dead branch": (
            "def loop_attention(X, W_Q, W_K, W_V):\n"
            "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
            "    out = []\n"
            "    for i in range(X.shape[1]):\n"
            "        if False:\n            scaled_dot_score(K[:, 0], Q[:, i])\n"
            "        s = K.T @ Q[:, i] / math.sqrt(K.shape[0])\n"
            "        out.append(V @ torch.softmax(s, 0))\n"
            "    return torch.stack(out, 1)",),
    },
}

# step -> {what: cells}: each of these must earn its step ------------------------------------
CORRECT = {
    "stable_softmax": {
        "a softmax by hand whose parts a decorator of the student's files in a table": (
            "PARTS = {}\n\ndef part(f):\n    PARTS[f.__name__] = f\n    return f",
            "@part\ndef shifted_exp(scores, dim):\n"
            "    return torch.exp(scores - scores.amax(dim=dim, keepdim=True))",
            "def stable_softmax(scores, dim=-1):\n"
            "    e = PARTS['shifted_exp'](scores, dim)\n"
            "    return e / e.sum(dim=dim, keepdim=True)"),
        "a softmax by hand registered on a function by singledispatch": (
            "import functools",
            "@functools.singledispatch\n"
            "def stable_softmax(scores, dim=-1):\n    raise TypeError('give a tensor')",
            "@stable_softmax.register\n"
            "def _(scores: torch.Tensor, dim=-1):\n"
            "    e = torch.exp(scores - scores.amax(dim=dim, keepdim=True))\n"
            "    return e / e.sum(dim=dim, keepdim=True)"),
        "honest code around the step": (
            "weights = torch.softmax(torch.randn(3, 3), dim=-1)\nfor i in range(3):\n"
            "    print(weights[i])", HONEST_SOFTMAX,
            "for row in torch.softmax(torch.ones(2, 2), -1):\n    print(row)"),
        "a scratch definition with the built-in, redefined by hand": (
            f"stable_softmax = {BUILTIN}", HONEST_SOFTMAX),
        "an alias of torch.exp": (
            "e = torch.exp",
            "def stable_softmax(scores, dim=-1):\n"
            "    z = e(scores - scores.amax(dim, keepdim=True))\n"
            "    return z / z.sum(dim, keepdim=True)"),
        "getattr over a literal tuple of names": (
            "ops = {n: getattr(torch, n) for n in ('exp', 'amax')}",
            "def stable_softmax(scores, dim=-1):\n"
            "    z = ops['exp'](scores - ops['amax'](scores, dim, keepdim=True))\n"
            "    return z / z.sum(dim, keepdim=True)"),
        "getattr with a constant name": (
            "def stable_softmax(scores, dim=-1):\n"
            "    z = getattr(torch, 'exp')(scores - scores.amax(dim, keepdim=True))\n"
            "    return z / z.sum(dim, keepdim=True)",),
        "a decorator that returns the function unchanged": (
            "def keep(f):\n    return f", "@keep" + HONEST_SOFTMAX),
        "a helper defined after the step": (
            "def stable_softmax(scores, dim=-1):\n"
            "    z = shifted_exp(scores, dim)\n    return z / z.sum(dim, keepdim=True)",
            "def shifted_exp(s, dim):\n    return torch.exp(s - s.amax(dim, keepdim=True))"),
        "a conditional definition, both branches by hand": (
            "if torch.__version__:\n" + textwrap.indent(HONEST_SOFTMAX, "    ")
            + "else:\n" + textwrap.indent(HONEST_SOFTMAX, "    "),),
        "from torch import exp": (
            "from torch import exp",
            "def stable_softmax(scores, dim=-1):\n"
            "    z = exp(scores - scores.amax(dim, keepdim=True))\n"
            "    return z / z.sum(dim, keepdim=True)"),
        "a wrapper of its own earlier version": (
            HONEST_SOFTMAX, "_first = stable_softmax",
            "def stable_softmax(scores, dim=-1):\n    return _first(scores, dim)"),
        "a magic in the cell, annotations and a docstring": (
            "%time\nfrom __future__ import annotations\n"
            "def stable_softmax(scores: torch.Tensor, dim: int = -1) -> torch.Tensor:\n"
            "    '''By hand, not with a built-in softmax.'''\n"
            "    z = torch.exp(scores - scores.amax(dim, keepdim=True))\n"
            "    return z / z.sum(dim, keepdim=True)",),
    },
    "self_attention": {
        "its attention weights in a variable named map": (
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
            "    map = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1]), -1)\n"
            "    return map @ v",),
        "a module-level table made by map": (
            "ROOTS = dict(zip(range(1, 65), map(math.sqrt, range(1, 65))))",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
            "    return torch.softmax(q @ k.transpose(-2, -1) / ROOTS[k.shape[-1]], -1) @ v"),
        "a module-level dict comprehension it reads": (
            "ROOTS = {d: math.sqrt(d) for d in range(1, 65)}",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
            "    return torch.softmax(q @ k.transpose(-2, -1) / ROOTS[k.shape[-1]], -1) @ v"),
        "a course cell with a loop binding a name it uses": (
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
            "    return torch.softmax(q @ k.transpose(-2, -1) / scale(k), -1) @ v",
            "def scale(k):\n    return math.sqrt(k.shape[-1])"),
        "a callable instance": (
            "class _Attention:\n    def __call__(self, x, W_query, W_key, W_value):\n"
            "        q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
            "        return torch.softmax(q @ k.mT / math.sqrt(k.shape[-1]), -1) @ v",
            "self_attention = _Attention()"),
        "the looped try-out first, the vectorised answer last": (
            LOOPED_ROWS, HONEST_SELF_ATTENTION),
        "vmap over the rows": (
            "def self_attention(x, W_query, W_key, W_value):\n" + ROW_BY_ROW +
            "    return torch.vmap(one)(x)",),
        "a Sequential of two stages by name": (
            "from collections import OrderedDict\nfrom torch import nn",
            "class Scores(nn.Module):\n"
            "    def forward(self, qkv):\n"
            "        q, k, v = qkv\n"
            "        return torch.softmax(q @ k.mT / math.sqrt(k.shape[-1]), -1), v",
            "class Mix(nn.Module):\n"
            "    def forward(self, wv):\n"
            "        return wv[0] @ wv[1]",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    layers = nn.Sequential(OrderedDict([('scores', Scores()), ('mix', Mix())]))\n"
            "    staged = nn.Sequential(*[Scores(), Mix()])\n"
            "    qkv = (x @ W_query, x @ W_key, x @ W_value)\n"
            "    return (layers(qkv) + staged(qkv)) / 2\n"),
        "a format string written out, with a number's spec": (
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
            "    note = '{} rows, scale {:.3f}'.format(len(x), math.sqrt(k.shape[-1]))\n"
            "    return torch.softmax(q @ k.mT / math.sqrt(k.shape[-1]), -1) @ v",),
        "a Sequential of modules written out, made once": (
            "from torch import nn",
            "SCALE = nn.Sequential(nn.Identity(), nn.Identity())",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    q, k, v = x @ W_query, x @ W_key, SCALE(x @ W_value)\n"
            "    return torch.softmax(q @ k.mT / math.sqrt(k.shape[-1]), -1) @ v"),
    },
    "multihead_project": {
        "bmm through an alias": (
            "bmm = torch.bmm",
            "def multihead_project(x, W):\n"
            "    return bmm(W, x.T.expand(W.shape[0], -1, -1)).transpose(1, 2)"),
        "bmm through a helper": (
            "def batched(a, b):\n    return torch.bmm(a, b)",
            "def multihead_project(x, W):\n"
            "    return batched(W, x.T.repeat(W.shape[0], 1, 1)).transpose(1, 2)"),
        "properties, one handing on another object's of the same name": (
            "class Stack:\n"
            "    def __init__(self, W):\n"
            "        self.W = W\n"
            "    @property\n"
            "    def shape(self):\n"
            "        return self.W.shape",
            "class Heads:\n"
            "    def __init__(self, x, W):\n"
            "        self.x, self.stack = x, Stack(W)\n"
            "    @property\n"
            "    def shape(self):\n"
            "        return self.stack.shape\n"
            "    @property\n"
            "    def projected(self):\n"
            "        h = self.shape[0]\n"
            "        return torch.bmm(self.stack.W, self.x.T.expand(h, -1, -1)).transpose(1, 2)",
            "def multihead_project(x, W):\n"
            "    return Heads(x, W).projected"),
    },
    "loop_attention": {
        "scaled_dot_score through an alias": (
            "s = scaled_dot_score",
            "def loop_attention(X, W_Q, W_K, W_V):\n"
            "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
            "    out = []\n"
            "    for i in range(X.shape[1]):\n"
            "        scores = torch.stack([s(K[:, j], Q[:, i]) for j in range(X.shape[1])])\n"
            "        out.append(V @ torch.softmax(scores, 0))\n"
            "    return torch.stack(out, 1)"),
    },
}


def cases(table):
    return [pytest.param(step, cells, id=f"{step}: {what}")
            for step, entries in table.items() for what, cells in entries.items()]


@pytest.mark.parametrize(("step_name", "cells"), cases(EVASIONS))
def test_an_evasion_earns_nothing(step_name, cells):
    """Does the trick either break the step's rule (read on the text) or leave the grader
    calling code that gives wrong numbers?"""
    assert not earns(step_name, *cells)


@pytest.mark.parametrize(("step_name", "cells"), cases(CORRECT))
def test_a_correct_rewrite_earns_the_step(step_name, cells):
    """Does honest code, however it is arranged, keep every rule and run right alone?"""
    assert broken_rules(step_name, *cells) == []
    assert runs_right(step_name, *cells)


def test_the_course_display_cell_is_never_the_students():
    """06's display cell scores with a comprehension calling scaled_dot_score: is it left out
    of vectorized_attention's text when a student's function reads a name it binds?"""
    display = ("n_inputs, scores = 4, torch.tensor([[float(scaled_dot_score(K[:, j], Q[:, i]))"
               " for j in range(4)] for i in range(4)])")
    student = source_of("vectorized_attention").replace(
        "K.shape[0]", "K.shape[0] + 0 * n_inputs")
    course = COURSE | {course_key(display)}
    assert display not in closure([SETUP, display, student], "vectorized_attention", course)
    assert display in closure([SETUP, display, student], "vectorized_attention", COURSE), \
        "the same cell written by the student is the student's"


def test_messages_name_the_trick():
    """Does each refusal say what was found, so that the student can fix it?"""
    shipped = judged("forbids_builtins", ("softmax",), "from mysoftmax import stable_softmax")
    assert "imports mysoftmax" in shipped and "put that code in the notebook" in shipped
    loop = judged("forbids_loops", (), "def f(x, i=0):\n    return f(x, i + 1)")
    assert "f calls itself" in loop
    assert "never calls bmm" in judged("requires_names", ("bmm",),
                                         "def f(W):\n    torch.bmm\n    return W")
    assert "no code defines it" in judged("forbids_loops", (), None)


def test_a_library_function_is_the_librarys_whatever_the_student_names_theirs():
    """Does a block that calls F.layer_norm break "no built-in" although the student's code
    defines a layer_norm of its own, while the block calling that own layer_norm keeps it?"""
    block = "\n".join(source_of(name) for name in ("layer_norm", "feed_forward",
                                                     "TransformerBlock"))
    assert broken_rules("TransformerBlock", block) == []
    first_norm = "layer_norm(x, self.gamma1, self.beta1)"
    assert first_norm in block
    built_in = block.replace(first_norm, "F.layer_norm(x, x.shape[-1:], self.gamma1, self.beta1)")
    assert any("layer_norm" in v for v in broken_rules("TransformerBlock", built_in))


NORM_BUILT_IN = """
def layer_norm(x, gamma, beta, eps=1e-5):
    return F.layer_norm(x, x.shape[-1:], gamma, beta, eps)
"""
BACKWARD_BY_IMPORTLIB = """
import importlib

def softmax_backward(weights, grad_weights, dim=-1):
    ops = importlib.import_module("torch")
    return weights * (grad_weights - ops.sum(grad_weights * weights, dim=dim, keepdim=True))
"""


@pytest.mark.parametrize(("earlier", "broken_cell", "later", "others"), [
    ("layer_norm", NORM_BUILT_IN, "TransformerBlock", ("feed_forward",)),
    ("softmax_backward", BACKWARD_BY_IMPORTLIB, "attention_backward", ()),
])
def test_a_rule_broken_in_an_earlier_step_costs_only_that_step(earlier, broken_cell, later,
                                                                 others):
    """A layer_norm that calls F.layer_norm breaks its own rule, and so does a
    softmax_backward through importlib: does the block (or attention_backward), which calls
    it and is judged with the reference standing in for it, keep every rule of its own?"""
    cells = (broken_cell, *(source_of(name) for name in others), source_of(later))
    assert broken_rules(earlier, *cells)
    assert broken_rules(later, *cells) == []


def test_a_table_built_once_is_no_loop_of_the_step():
    """Is a loop that runs where a function is defined (module level, a default value, a
    decorator's argument) not counted as the function's own loop?"""
    code = ("TABLE = [i * i for i in range(4)]\n"
            "def f(x, t=[i for i in range(3)]):\n    return x + TABLE[1]")
    assert python_loop(__import__("ast").parse(code)) is None


# A property: rewrites of the reference that keep its meaning keep full marks -----------------

REWRITES = ("alias torch", "identity decorator", "inside if True", "scratch builtin first",
            "display cell after", "helper cell after", "docstring and magic")


def rewritten(step_name, chosen):
    """The reference's source of the step as cells, with the chosen rewrites applied."""
    code = source_of(step_name)
    cells = []
    if "alias torch" in chosen:
        cells.append("import torch as T")
        code = code.replace("torch.", "T.")
    if "identity decorator" in chosen:
        cells.append("def same(f):\n    return f")
        code = "@same\n" + code
    if "docstring and magic" in chosen:
        code = "%time\n" + code
    if "inside if True" in chosen:
        code = "if True:\n" + textwrap.indent(code, "    ")
    if "scratch builtin first" in chosen and "inside if True" not in chosen:
        cells.append(f"def {step_name}(*args):\n    return torch.softmax(args[0], -1)\n"
                     "for _ in range(2):\n    pass")
    cells.append(code)
    if "display cell after" in chosen:
        cells.append(f"print([float({step_name}(*EXAMPLE).sum()) for _ in range(2)])")
    if "helper cell after" in chosen:
        cells.append("def unused_helper(x):\n    return [torch.softmax(r, -1) for r in x]")
    return cells


@settings(max_examples=60, deadline=None)
@given(step_name=st.sampled_from(["stable_softmax", "self_attention", "multihead_project",
                                  "loop_attention", "vectorized_attention"]),
       chosen=st.sets(st.sampled_from(REWRITES)))
def test_equivalent_rewrites_of_the_reference_keep_full_marks(step_name, chosen):
    """Aliases, decorators that return the function, conditionals, dead scratch versions and
    cells around it: does the reference, so rewritten, keep every rule and run right?"""
    cells = rewritten(step_name, chosen)
    assert broken_rules(step_name, *cells) == [], cells
    assert runs_right(step_name, *cells), cells


def test_every_step_is_checked_to_run_alone_as_grading_runs_it():
    """A step with no rule at all: does the public check refuse a module handed in beside
    the notebook (grading could not import it), and accept everything else that runs?"""
    assert "imports helpers" in judged("runs_alone", [], "from helpers import project")
    assert judged("runs_alone", [], "def project(x, W):\n    return eval('x @ W')") is None
    assert judged("runs_alone", [], "import numpy as np\ndef f(x):\n    return x") is None


HELPERS = frozenset({"spans_probe", "expect_close", "PROBES", "where_wrong"})


@pytest.mark.parametrize("text, said", [
    ("def f(x):\n    return spans_probe({}, x, None, ((x,), {}), None)", "spans_probe"),
    ("def f(x):\n    run = PROBES['spans']\n    return run(x)", "PROBES"),
    ("def f(x):\n    expect_close(x, x)\n    return x", "expect_close"),
    ("check = spans_probe\ndef f(x):\n    return check(x)", "spans_probe"),
])
def test_a_step_that_reads_the_course_helpers_cannot_run_alone(text, said):
    """Grading removes the helper cell's own code before a step's text runs: does the public
    check every step has say so, naming what the text reads?"""
    broken = judged("runs_alone", [], text, helpers=HELPERS)
    assert broken and said in broken and "helper cell" in broken, broken


@pytest.mark.parametrize("text", [
    "def where_wrong(a, b):\n    return a - b\ndef f(x):\n    return where_wrong(x, x)",
    "def f(x, expect_close=None):\n    return x",
    "from torch import where as where_wrong\ndef f(x):\n    return where_wrong(x > 0, x, 0)",
    "def f(x):\n    try:\n        return x\n    except ValueError as PROBES:\n        raise PROBES",
    "def f(x):\n    return x.spans_probe",
])
def test_a_name_of_the_students_own_is_no_helper_of_the_course(text):
    """A text that binds a name the helper cell also defines (a function, a parameter, an
    import, an exception), or reads an attribute of that name: does it run alone?"""
    assert judged("runs_alone", [], text, helpers=HELPERS) is None


LINE_ENDINGS = st.sampled_from(["\n", "\r\n", "\r"])
STATEMENTS = st.sampled_from([
    "x = 'é中文'", "def f(a):\n    return a * 2", "y = '''a\nb'''", "class C:\n    z = 1",
    "if x:\n    y = 1\nelse:\n    y = 2", "print(x, 'é')  # a comment", "w = [1,\n     2]",
    "@keep\n@ wrap('é',\n  2)\ndef g(b):\n    return b", "@functools.cache\nclass D:\n    w = 2"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(STATEMENTS, LINE_ENDINGS), min_size=1, max_size=6))
def test_segments_are_the_source_segments_ast_gives(parts):
    """Is the text of each statement the one ast.get_source_segment gives, from a
    definition's first decorator on, whatever the line endings and however many bytes a
    character takes (closure reads it once per cell)?"""
    text = "".join(code.replace("\n", ending) + ending for code, ending in parts)
    tree = ast.parse(text)
    assert segments(text, tree.body) == [ast.get_source_segment(text, with_decorators(n))
                                         for n in tree.body]


def with_decorators(node):
    """A copy of the statement that starts at its first decorator's `@` (at the line's
    start in these statements)."""
    if not getattr(node, "decorator_list", None):
        return node
    return ast.FunctionDef(lineno=node.decorator_list[0].lineno, col_offset=0,
                           end_lineno=node.end_lineno, end_col_offset=node.end_col_offset)


def test_a_decorator_is_part_of_the_text_grading_runs():
    """Does a decorated step's text keep its decorator and what the decorator reads, so
    grading runs `@functools.lru_cache def f` as the notebook did, not a bare `def f`?"""
    student = "import functools\n\n@functools.lru_cache\n" + HONEST_SOFTMAX.lstrip()
    text = closure([SETUP, student], "stable_softmax")
    assert "@functools.lru_cache\ndef stable_softmax" in text
    assert "import functools" in text
