"""The mutation harness: how many wrong versions of each step's reference do its hidden checks
catch? `python -m autograder mutate [ID ...]` runs it on a course's assignments.

Every step's reference (the function or class of the assignment's reference.py, with the
helpers its probes.py lists in HELPERS) is parsed, and mutation operators each make one small
change to one place of it: operands or arguments swapped, a transpose added, dropped or moved,
another dim, another scale, a term or a call dropped, a mask inverted or shifted, another
dtype, shape, name, range or string operation. A mutant that gives the reference's outputs on
the step's document cases, its random cases drawn under several seeds and the inputs of the
assignment's probes.py (PROBES: the step's whole stated domain: batch dims, every documented
mask, non-square sizes ...) is equivalent and dropped. Every other mutant runs through the
step's hidden checks in-process (`step_findings`, no kernel); it is killed when they find
anything. A step without probes is judged on its random cases alone (more seeds), which says
less: the summary line says so.

Prints per step: mutants made, equivalent ones dropped, killed, survived, kill rate; the
overall kill rate; then every survivor with the line it changed. bench/mutations.py runs it on
the repository's course; tests/autograder/checks/test_mutations.py holds its kill rate to a
floor on a capped, seeded sample.
"""

from __future__ import annotations

import ast
import copy
import inspect
import random
import re
import resource
import signal
import textwrap
import time
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import torch

from autograder.checks.compare import compare
from autograder.checks.draws import CASES, Draws
from autograder.checks.hidden import references
from autograder.checks.judge import namespace, recording_of, rule_violation, step_findings
from autograder.checks.loader import load_assignment
from autograder.checks.model import Case
from autograder.checks.subject import LocalSubject
from autograder.i18n import counted, t
from autograder.plumbing.errors import KitError
from autograder.plumbing.terminal_width import display_width

MODULE_NAMES = {"torch", "F", "nn", "math", "string", "re"}
SECONDS_PER_MUTANT = 20
MEMORY_PER_MUTANT = 2 * 2**30  # bytes of address space a mutant may add (Embedding(5e4, 5e4) ...)
EXTRA_SEEDS = 5  # more seeds of random cases decide equivalence for a step without probes


@dataclass(frozen=True, eq=False)
class Target:
    """One step to mutate: the step, its assignment's steps (for the references of the
    earlier steps it uses), the helpers mutated with it and its probes (None: it has none)."""

    step: object
    steps: dict
    helpers: tuple = ()
    probes: object = None
    root: Path = Path(".")

    @property
    def name(self):
        return self.step.name


class ProbeError(KitError, ValueError):
    """An assignment's probes.py the harness cannot use: the message names the file, the step
    and the fix."""


def probe_format():
    """What probes.py holds, as a refusal ends (in the course's language)."""
    return t("PROBES maps a step's name to a function of a torch.Generator returning a list of "
             "runs, each calling(*arguments, **keywords) of autograder.checks.common (or a "
             "function of the step's callable): PROBES = {'STEP': lambda gen: "
             "[calling(randn(gen, 3, 4)), ...]}")


def checked_probes(assignment, probes):
    """`probes` (the assignment's probes.py module, or None) if its PROBES and HELPERS are what
    the harness reads, else ProbeError in one line. Each probe is drawn once and its runs
    called on the reference: a run that is no function, or that the reference refuses with a
    TypeError (a call the step's signature does not take), would make every mutant agree
    with the reference on it, silently."""
    if probes is None:
        return None
    path = assignment.folder / "probes.py"
    own = path.is_file()  # else the course's shared assignments/probes.py
    path = path if own else assignment.folder.parent / "probes.py"
    steps = assignment.steps
    if not hasattr(probes, "PROBES"):
        raise ProbeError(t("{path} defines no PROBES; {format}", path=path,
                           format=probe_format()))
    table, helpers = probes.PROBES, getattr(probes, "HELPERS", {})
    for name, value in (("PROBES", table), ("HELPERS", helpers)):
        if not isinstance(value, dict):
            raise ProbeError(t("{path}: {name} is a {kind}, not a dict keyed by step name; "
                               "{format}", path=path, name=name, kind=type(value).__name__,
                               format=probe_format()))
        unknown = [key for key in value if key not in steps]
        if unknown and own:
            raise ProbeError(t("{path}: {name}[{key!r}]: {id} has no step {key!r} (its "
                               "steps: {steps}); key it by the name of a Step of checks.py",
                               path=path, name=name, key=unknown[0], id=assignment.id,
                               steps=t(", ").join(steps)))
    table = {step: probe for step, probe in table.items() if step in steps}
    for step, value in helpers.items():
        if step in steps and not isinstance(value, list | tuple) or not all(
                inspect.isfunction(h) or inspect.isclass(h) for h in value):
            raise ProbeError(t("{path}: HELPERS[{step!r}] must be a tuple of functions of "
                               "reference.py mutated with the step, such as "
                               "(reference.split_words,)", path=path, step=step))
    for step, probe in table.items():
        problem = probe_problem(steps[step], probe)
        if problem:
            raise ProbeError(t("{path}: PROBES[{step!r}]{problem}; {format}", path=path,
                               step=step, problem=problem, format=probe_format()))
    return probes


def probe_problem(step, probe):
    """What is wrong with one step's probe (a text after `PROBES['step']`), or None."""
    if not callable(probe):
        return t(" is a {kind}, not a function of gen", kind=type(probe).__name__)
    try:
        runs = probe(torch.Generator().manual_seed(0))
    except Exception as error:  # noqa: BLE001 - the instructor's code, reported
        return t("(gen) raised {kind}: {error}", kind=type(error).__name__, error=error)
    if not isinstance(runs, list | tuple) or not runs:
        kind = type(runs).__name__ if runs is not None else "None"
        return (t("(gen) returned {kind} (empty), not a list of runs", kind=kind)
                if isinstance(runs, list | tuple) else
                t("(gen) returned {kind}, not a list of runs", kind=kind))
    reference = LocalSubject(step.reference)
    for index, run in enumerate(runs):
        if not callable(run):
            return t("(gen)[{index}] is a {kind}, not a run: wrap each input in calling(...)",
                     index=index, kind=type(run).__name__)
        got = outcome(run, reference)
        if got[0] == "raised" and got[1] == "TypeError":
            return t("(gen)[{index}]: the reference {step} raised TypeError on it (a call its "
                     "signature does not take: check the arguments, or a run that is not a "
                     "function of the step's callable)", index=index, step=step.name)
        if got[0] == "value" and inspect.isfunction(got[1]):
            return t("(gen)[{index}] gave a function, not the step's output: write "
                     "calling(arguments), not calling itself", index=index)
    return None


def targets(root: Path, ids, names=None):
    """The steps of the course's assignments `ids` (only those named, when `names` is given)."""
    found = []
    for assignment_id in ids:
        assignment = load_assignment(root, assignment_id)
        probes = checked_probes(assignment, assignment.module("probes"))
        for step in assignment.steps.values():
            if names and step.name not in names:
                continue
            found.append(Target(step, assignment.steps,
                                tuple(getattr(probes, "HELPERS", {}).get(step.name, ())),
                                getattr(probes, "PROBES", {}).get(step.name), Path(root)))
    return found


# Mutation operators ------------------------------------------------------------------------
# Each takes a node of the reference's tree and its parent, and returns [(operator, new
# node)]; new nodes are built from copies, so the original tree is never changed.


def c(node):
    return copy.deepcopy(node)


def method(receiver, name, *args, **keywords):
    return ast.Call(ast.Attribute(c(receiver), name, ast.Load()), [*args],
                    [ast.keyword(k, v) for k, v in keywords.items()])


def call(dotted, *args):
    value = None
    for part in dotted.split("."):
        value = ast.Name(part, ast.Load()) if value is None else ast.Attribute(value, part,
                                                                               ast.Load())
    return ast.Call(value, [*args], [])


def num(value):
    return ast.UnaryOp(ast.USub(), ast.Constant(-value)) if value < 0 else ast.Constant(value)


def int_value(node):
    """The int a node spells (1, -1), or None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = int_value(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def float_value(node):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = float_value(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) is float:
        return node.value
    return None


def callee(node):
    """'softmax' for torch.softmax(...) or x.softmax(...), '' when not a call."""
    if not isinstance(node, ast.Call):
        return ""
    return getattr(node.func, "attr", None) or getattr(node.func, "id", "")


def on_module(node):
    """Is this a call of a module's function (torch.exp, math.sqrt), not a method?"""
    return (isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
            and node.func.value.id in MODULE_NAMES)


SWAPPED_OPS = (ast.MatMult, ast.Sub, ast.Div, ast.Pow)


def swap_operands(node, parent):
    if isinstance(node, ast.BinOp) and isinstance(node.op, SWAPPED_OPS):
        return [("swap operands", ast.BinOp(c(node.right), node.op, c(node.left)))]
    return []


def swap_arguments(node, parent):
    if not isinstance(node, ast.Call):
        return []
    out = []
    for i in range(len(node.args) - 1):
        if any(isinstance(a, ast.Starred) for a in node.args[i:i + 2]):
            continue
        new = c(node)
        new.args[i], new.args[i + 1] = new.args[i + 1], new.args[i]
        out.append((f"swap arguments of {callee(node)}", new))
    return out


def swap_items(node, parent):
    if not isinstance(node, ast.Tuple):
        return []
    out = []
    for i in range(len(node.elts) - 1):
        new = c(node)
        new.elts[i], new.elts[i + 1] = new.elts[i + 1], new.elts[i]
        out.append(("swap tuple items", new))
    return out


TRANSPOSES = {"transpose", "swapaxes", "permute", "t"}


def drop_transpose(node, parent):
    if isinstance(node, ast.Attribute) and node.attr in {"T", "mT"}:
        return [(f"drop .{node.attr}", c(node.value)),
                (f".{node.attr} -> .transpose(0, 1)", method(node.value, "transpose", num(0),
                                                             num(1))),
                *([(".T -> .transpose(-2, -1)",
                    method(node.value, "transpose", num(-2), num(-1)))] if node.attr == "T"
                  else [])]
    if callee(node) in TRANSPOSES and isinstance(node.func, ast.Attribute) and not on_module(node):
        return [(f"drop .{node.func.attr}()", c(node.func.value)),
                (f".{node.func.attr}(...) -> .T", ast.Attribute(c(node.func.value), "T",
                                                                ast.Load()))]
    return []


def add_transpose(node, parent):
    """A transpose on an operand of a matrix product."""
    operands = []
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        operands = [("left", "left"), ("right", "right")]
    elif callee(node) in {"bmm", "matmul", "mm", "mv", "dot"}:
        operands = [(i, f"argument {i + 1}") for i in range(len(node.args))]
    out = []
    for where, what in operands:
        for kind in ("T", "transpose"):
            new = c(node)
            target = getattr(new, where) if isinstance(where, str) else new.args[where]
            wrapped = (ast.Attribute(target, "T", ast.Load()) if kind == "T"
                       else method(target, "transpose", num(-2), num(-1)))
            if isinstance(where, str):
                setattr(new, where, wrapped)
            else:
                new.args[where] = wrapped
            out.append((f"add .{kind} to {what} of a product", new))
    return out


DIM_CALLS = {"softmax", "log_softmax", "sum", "mean", "amax", "amin", "max", "min", "stack",
             "cat", "transpose", "swapaxes", "chunk", "unsqueeze", "squeeze", "size", "expand",
             "repeat", "reshape", "view", "diagonal", "triu", "tril", "argmax", "flatten"}


def int_role(node, parent):
    if isinstance(parent, ast.keyword):
        return "dim" if parent.arg == "dim" else f"{parent.arg}="
    if isinstance(parent, ast.arguments):
        return "default argument"
    if isinstance(parent, ast.Call) and callee(parent) in DIM_CALLS:
        return f"dim/size of {callee(parent)}"
    if isinstance(parent, ast.Subscript | ast.Slice | ast.Tuple):
        return "index"
    return "constant"


def other_int(node, parent):
    value = int_value(node)
    if value is None or (isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.USub)):
        return []
    others = sorted({0, 1, -1, -2, 2, value + 1, value - 1, 2 * value} - {value})
    role = int_role(node, parent)
    return [(f"{role} {value} -> {other}", num(other)) for other in others]


def other_float(node, parent):
    value = float_value(node)
    if value is None or (isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.USub)):
        return []
    others = sorted({0.0, 1.0, 2 * value, value + 1} - {value})
    return [(f"constant {value} -> {other}", num(other)) for other in others]


def other_infinity(node, parent):
    """float('-inf') -> 0.0, -1e9, float('inf')."""
    if callee(node) == "float" and node.args and isinstance(node.args[0], ast.Constant):
        text = str(node.args[0].value)
        if "inf" in text:
            flipped = text[1:] if text.startswith("-") else "-" + text
            return [(f"float({text!r}) -> 0.0", ast.Constant(0.0)),
                    (f"float({text!r}) -> -1e9", num(-1e9)),
                    (f"float({text!r}) -> float({flipped!r})",
                     ast.Call(ast.Name("float", ast.Load()), [ast.Constant(flipped)], []))]
    return []


def other_scale(node, parent):
    if callee(node) == "sqrt" and len(node.args) == 1:
        return [("math.sqrt(d) -> d", c(node.args[0])),
                ("math.sqrt(d) -> d ** 0.25", ast.BinOp(c(node.args[0]), ast.Pow(),
                                                        ast.Constant(0.25)))]
    return []


FLIPPED_OPS = {ast.Div: ast.Mult, ast.Mult: ast.Div, ast.Add: ast.Sub, ast.Sub: ast.Add}


def other_operator(node, parent):
    if isinstance(node, ast.BinOp) and type(node.op) in FLIPPED_OPS:
        new = c(node)
        new.op = FLIPPED_OPS[type(node.op)]()
        return [(f"{type(node.op).__name__} -> {type(new.op).__name__}", new)]
    return []


def drop_term(node, parent):
    if not isinstance(node, ast.BinOp) or isinstance(node.op, ast.MatMult):
        return []
    out = [(f"a {type(node.op).__name__} b -> a", c(node.left))]
    if isinstance(node.op, ast.Add | ast.Mult):
        out.append((f"a {type(node.op).__name__} b -> b", c(node.right)))
    return out


def drop_call(node, parent):
    """f(x, ...) -> x, and x.m(...) -> x."""
    if not isinstance(node, ast.Call):
        return []
    out = []
    name = callee(node)
    own = isinstance(node.func, ast.Name) or on_module(node) or (
        isinstance(node.func.value, ast.Name) and node.func.value.id == "self")
    if own and node.args and not isinstance(node.args[0], ast.Starred):
        out.append((f"drop call {name}(...) -> its first argument", c(node.args[0])))
    if isinstance(node.func, ast.Attribute) and not on_module(node):
        receiver = node.func.value
        if not (isinstance(receiver, ast.Call) and callee(receiver) == "super"):
            out.append((f"drop method .{name}()", c(receiver)))
    return out


def negate_mask(node, parent):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        return [("~mask -> mask", c(node.operand))]
    if callee(node) in {"masked_fill", "masked_fill_", "masked_select", "where"} and node.args:
        new = c(node)
        new.args[0] = ast.UnaryOp(ast.Invert(), new.args[0])
        return [(f"{callee(node)}(m, ...) -> {callee(node)}(~m, ...)", new)]
    if callee(node) in {"isfinite", "isnan", "isinf"}:
        return [(f"{callee(node)}(x) -> ~{callee(node)}(x)", ast.UnaryOp(ast.Invert(), c(node)))]
    return []


COMPARISONS = {ast.Lt: (ast.LtE, ast.Gt), ast.LtE: (ast.Lt,), ast.Gt: (ast.GtE, ast.Lt),
               ast.GtE: (ast.Gt,), ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,),
               ast.Is: (ast.IsNot,), ast.IsNot: (ast.Is,), ast.In: (ast.NotIn,),
               ast.NotIn: (ast.In,)}


def other_comparison(node, parent):
    if not isinstance(node, ast.Compare):
        return []
    out = []
    for i, op in enumerate(node.ops):
        for other in COMPARISONS.get(type(op), ()):
            new = c(node)
            new.ops[i] = other()
            out.append((f"{type(op).__name__} -> {other.__name__}", new))
    return out


OTHER_FUNCTIONS = {
    "sum": ("mean",), "mean": ("sum",), "max": ("min",), "min": ("max",), "amax": ("amin",),
    "amin": ("amax",), "triu": ("tril",), "tril": ("triu",), "rand": ("randn",),
    "randn": ("rand",), "zeros": ("ones",), "ones": ("zeros",), "zeros_like": ("ones_like",),
    "ones_like": ("zeros_like",), "tanh": ("sigmoid",), "softmax": ("log_softmax",),
    "exp": ("exp2",), "xavier_uniform_": ("xavier_normal_",), "zeros_": ("ones_",),
    "lower": ("upper",), "reshape": ("view",), "expand": ("repeat",), "bmm": ("matmul",),
}


def other_function(node, parent):
    if not isinstance(node, ast.Call):
        return []
    name = callee(node)
    out = []
    for other in OTHER_FUNCTIONS.get(name, ()):
        new = c(node)
        if isinstance(new.func, ast.Attribute):
            new.func.attr = other
        else:
            new.func.id = other
        out.append((f"{name} -> {other}", new))
    return out


OTHER_DTYPES = {"float32": ("float64", "float16"), "float": ("double",), "long": ("int32",
                "float32"), "int64": ("int32",), "bool": ("uint8", "float32")}


def other_dtype(node, parent):
    out = []
    if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == "torch" and node.attr in OTHER_DTYPES):
        for other in OTHER_DTYPES[node.attr]:
            out.append((f"torch.{node.attr} -> torch.{other}",
                        ast.Attribute(ast.Name("torch", ast.Load()), other, ast.Load())))
    return out


def drop_keyword(node, parent):
    if not isinstance(node, ast.Call):
        return []
    out = []
    for i, keyword in enumerate(node.keywords):
        if keyword.arg is None:
            continue
        new = c(node)
        del new.keywords[i]
        out.append((f"drop {keyword.arg}= of {callee(node)}", new))
    return out


def flip_bool(node, parent):
    if isinstance(node, ast.Constant) and type(node.value) is bool:
        return [(f"{node.value} -> {not node.value}", ast.Constant(not node.value))]
    return []


def other_range(node, parent):
    if callee(node) != "range" or len(node.args) != 1:
        return []
    n = node.args[0]
    return [("range(n) -> range(n - 1)", call("range", ast.BinOp(c(n), ast.Sub(), num(1)))),
            ("range(n) -> range(n + 1)", call("range", ast.BinOp(c(n), ast.Add(), num(1)))),
            ("range(n) -> range(1, n)", call("range", num(1), c(n)))]


def other_slice(node, parent):
    if not isinstance(node, ast.Slice):
        return []
    out = []
    for bound in ("lower", "upper"):
        value = getattr(node, bound)
        if value is None:
            continue
        for op, sign in ((ast.Add(), "+"), (ast.Sub(), "-")):
            new = c(node)
            setattr(new, bound, ast.BinOp(c(value), op, num(1)))
            out.append((f"slice {bound} bound {sign} 1", new))
    return out


def string_ops(node, parent):
    """Other ways of splitting a sentence into words and of removing punctuation."""
    out = []
    if callee(node) == "split" and not node.args and isinstance(node.func, ast.Attribute):
        text = node.func.value
        out += [
            ("split() -> split(' ')", method(text, "split", ast.Constant(" "))),
            ("split() -> lower().split()", method(method(text, "lower"), "split")),
            ("split() -> re.findall(r'\\w+', ...)", call("re.findall", ast.Constant(r"\w+"),
                                                          c(text))),
            ("split() -> re.split(r'\\W+', ...)", call("re.split", ast.Constant(r"\W+"),
                                                        c(text))),
            ("split() -> re.findall(r'[A-Za-z]+', ...)",
             call("re.findall", ast.Constant(r"[A-Za-z]+"), c(text))),
        ]
    if (callee(node) == "join" and node.args and isinstance(node.args[0], ast.GeneratorExp)
            and node.args[0].generators):
        text = node.args[0].generators[0].iter
        out += [("punctuation removed by re.sub(r'[^\\w\\s]', '', ...)",
                 call("re.sub", ast.Constant(r"[^\w\s]"), ast.Constant(""), c(text))),
                ("punctuation replaced by spaces", call("re.sub", ast.Constant(r"[^\w\s]"),
                                                        ast.Constant(" "), c(text)))]
    if (isinstance(node, ast.Attribute) and node.attr == "punctuation"
            and isinstance(node.value, ast.Name)):
        out += [("string.punctuation -> ','", ast.Constant(",")),
                ("string.punctuation -> ',.!?;:'", ast.Constant(",.!?;:")),
                ("string.punctuation without the apostrophe",
                 method(node, "replace", ast.Constant("'"), ast.Constant("")))]
    if callee(node) == "sorted" and not node.keywords:
        new = c(node)
        new.keywords = [ast.keyword("key", ast.Attribute(ast.Name("str", ast.Load()), "lower",
                                                         ast.Load()))]
        out.append(("sorted(...) -> sorted(..., key=str.lower)", new))
    return out


def shift_index(node, parent):
    """x[j] -> x[j - 1] and x[j + 1], for a variable index j (x[:, j] too)."""
    if not isinstance(node, ast.Subscript):
        return []
    items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, ast.Name):
            continue
        for op, sign in ((ast.Sub(), "-"), (ast.Add(), "+")):
            new = c(node)
            shifted = ast.BinOp(ast.Name(item.id, ast.Load()), op, num(1))
            if isinstance(new.slice, ast.Tuple):
                new.slice.elts[i] = shifted
            else:
                new.slice = shifted
            out.append((f"index {item.id} -> {item.id} {sign} 1", new))
    return out


SIZE_CALLS = {"Embedding", "Linear", "ones", "zeros", "rand", "randn", "empty", "full", "eye",
              "arange", "reshape", "view", "expand", "repeat"}


def size_off_by_one(node, parent):
    """A size given by a variable, one too large or too small: nn.Embedding(vocab_size + 1,
    dim), torch.ones(n - 1, n) ..."""
    if callee(node) not in SIZE_CALLS:
        return []
    out = []
    for i, arg in enumerate(node.args):
        if not isinstance(arg, ast.Name):
            continue
        for op, sign in ((ast.Add(), "+"), (ast.Sub(), "-")):
            new = c(node)
            new.args[i] = ast.BinOp(c(arg), op, num(1))
            out.append((f"size {arg.id} -> {arg.id} {sign} 1 in {callee(node)}", new))
    return out


def transpose_mask(node, parent):
    """The mask of masked_fill / where transposed."""
    if callee(node) not in {"masked_fill", "masked_fill_", "where"} or not node.args:
        return []
    out = []
    for kind in ("T", "transpose"):
        new = c(node)
        new.args[0] = (ast.Attribute(new.args[0], "T", ast.Load()) if kind == "T"
                       else method(new.args[0], "transpose", num(-2), num(-1)))
        out.append((f"mask of {callee(node)} -> mask.{kind}", new))
    return out


def drop_statement(node, parent):
    """A line forgotten: an assignment or a call statement -> pass."""
    if isinstance(node, ast.Assign | ast.AugAssign) or (
            isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
        return [("drop statement", ast.Pass())]
    return []


OPERATORS = (swap_operands, swap_arguments, swap_items, drop_transpose, add_transpose,
             other_int, other_float, other_infinity, other_scale, other_operator, drop_term,
             drop_call, negate_mask, other_comparison, other_function, other_dtype,
             drop_keyword, flip_bool, other_range, other_slice, string_ops, shift_index,
             drop_statement, size_off_by_one, transpose_mask)


def other_names(node, parent, siblings):
    """A variable read -> a sibling variable of the same function (queries -> keys ...)."""
    if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load):
        return []
    return [(f"name {node.id} -> {other}", ast.Name(other, ast.Load()))
            for other in sorted(siblings.get(node.id, ()))]


def value_kind(value):
    """What a name is assigned from, for telling sibling names: 'BinOp MatMult', 'Call bmm'."""
    if isinstance(value, ast.BinOp):
        return f"BinOp {type(value.op).__name__}"
    return f"{type(value).__name__} {callee(value)}"


def sibling_names(function):
    """name -> the other names of the function a student could confuse it with: parameters
    with parameters, loop variables with loop variables, names assigned the same way
    (queries, keys and values from x @ W), and one-letter names with each other."""
    kinds = {a.arg: {"parameter"} for a in function.args.args if a.arg not in {"self", "cls"}}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            targets, kind = node.targets, value_kind(node.value)
        elif isinstance(node, ast.For | ast.comprehension):
            targets, kind = [node.target], "loop"
        else:
            continue
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    kinds.setdefault(name.id, set()).add(kind)
    for name in kinds:
        if len(name) == 1:
            kinds[name].add("one letter")
    return {name: {other for other in kinds if other != name and kinds[other] & kinds[name]}
            for name in kinds}


def siblings_by_node(tree):
    """id(node) -> sibling_names of the function the node is in."""
    scopes = {}
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef):
            siblings = sibling_names(function)
            for node in ast.walk(function):
                scopes[id(node)] = siblings
    return scopes


# Mutants -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    step: str
    label: str  # operator and the line it changed, e.g. "swap operands (solutions/masks.py:19)"
    change: str  # the piece of code before -> after
    line: str  # the reference's line it changed, as written
    code: str


def reference_source(target):
    """The code a step's mutants are made from: the reference and its given helpers."""
    objects = (target.step.reference, *target.helpers)
    return "\n".join(textwrap.dedent(inspect.getsource(obj)) for obj in objects)


def shown(path: Path, root: Path):
    """A source file's path as the harness prints it: from the course or the current folder
    when it is inside one, else whole."""
    for base in (root.resolve(), Path.cwd()):
        if base in path.parents:
            return path.relative_to(base)
    return path


def source_lines(target):
    """For each line of reference_source(target): 'solutions/x.py:N' and the line's text."""
    located = []
    for obj in (target.step.reference, *target.helpers):
        lines, first = inspect.getsourcelines(obj)
        path = shown(Path(inspect.getsourcefile(obj)).resolve(), target.root)
        located += [(f"{path}:{first + i}", text.strip()) for i, text in enumerate(lines)]
        located += [("", "")]  # the blank line between objects
    return located


def sites(tree):
    """Every (node, parent, holder, slot) of a tree, in a fixed order: `holder[slot]` or
    `getattr(holder, slot)` is the node."""
    found = [(tree, None, None, None)]
    for parent in ast.walk(tree):
        for name, value in ast.iter_fields(parent):
            if isinstance(value, ast.AST):
                found.append((value, parent, parent, name))
            elif isinstance(value, list):
                found += [(v, parent, value, i) for i, v in enumerate(value)
                          if isinstance(v, ast.AST)]
    return found


def is_docstring(node, parent):
    return isinstance(parent, ast.Expr) and isinstance(node, ast.Constant) and isinstance(
        node.value, str)


def mutants_of(target):
    """Every distinct mutant of the step's reference, one change each, in source order."""
    name = target.name
    tree = ast.parse(reference_source(target))
    original = ast.unparse(tree)
    lines = source_lines(target)
    scopes = siblings_by_node(tree)
    seen, made = {original}, []
    for node, parent, holder, slot in sites(tree):
        if parent is None or is_docstring(node, parent):
            continue
        variants = [v for op in OPERATORS for v in op(node, parent)]
        variants += other_names(node, parent, scopes.get(id(node), {}))
        for operator, new in variants:
            code = replaced(tree, holder, slot, node, new)
            if code is None or code in seen:
                continue
            seen.add(code)
            where, text = lines[node.lineno - 1] if hasattr(node, "lineno") else ("", "")
            change = f"{ast.unparse(node)} -> {ast.unparse(new)}"
            made.append(Mutant(name, f"{operator} ({where})", change, text, code))
    return tuple(made)


def replaced(tree, holder, slot, node, new):
    """The code of `tree` with `node` (at holder[slot]) replaced by `new`, or None when that
    does not compile; the tree is left as it was."""
    put = holder.__setitem__ if isinstance(holder, list) else partial(setattr, holder)
    put(slot, ast.fix_missing_locations(new))
    try:
        code = ast.unparse(tree)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(code, "<mutant>", "exec")
    except (SyntaxError, ValueError, TypeError, AttributeError):
        return None
    finally:
        put(slot, node)
    return code


def subject_of(mutant, helpers):
    """The mutant as a subject whose source is the mutant's own code (rules read it)."""
    names = namespace(helpers)
    names["re"] = re
    exec(compile(mutant.code, f"<mutant: {mutant.label}>", "exec"), names)  # noqa: S102
    return LocalSubject(names[mutant.step], source=mutant.code)


# Running mutants ---------------------------------------------------------------------------


class TimedOut(BaseException):
    """A mutant ran longer than SECONDS_PER_MUTANT (grading's time limit would stop it). Not
    an Exception, so that no `except Exception` of the checks swallows it."""


@contextmanager
def time_limit(seconds):
    def stop(signum, frame):
        raise TimedOut(f"more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def memory_limit(extra):
    """Cap this process's address space at its present size plus `extra` bytes, so that a
    mutant asking for a huge tensor fails (as the grading sandbox's limit would make it)."""
    with open("/proc/self/statm") as statm:
        size = int(statm.read().split()[0]) * resource.getpagesize()
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = size + extra if hard == resource.RLIM_INFINITY else min(size + extra, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def outcome(run, subject):
    """What a run gives: ("value", output) or ("raised", the error's class name)."""
    try:
        return "value", run(subject)
    except Exception as error:  # noqa: BLE001 - a mutant may raise anything
        return "raised", type(error).__name__


def agree(got, want):
    if got[0] != want[0]:
        return False
    if got[0] == "raised":
        return got[1] == want[1]
    try:
        compare(got[1], want[1])
    except Exception:  # noqa: BLE001 - Mismatch, or an output of another kind
        return False
    return True


class Oracle:
    """The reference's outcomes on everything that decides equivalence, computed once per
    step: document cases, random cases under `seeds` seeds, and the step's probes; and the
    step's rules (what the notebook states it forbids or requires), which a mutant that
    agrees on every input may still break."""

    def __init__(self, target, seed, seeds):
        step = target.step
        self.rules = step.rules
        runs = [case.run for case in [*step.document_cases(), *step.fixed_cases()]]
        if target.probes is None:
            seeds += EXTRA_SEEDS
        for i in range(seeds):
            runs += [case.run for case in step.random_cases(
                Draws.seeded(seed + 1000 * (i + 1)).of(step.name, CASES))]
        if target.probes is not None:
            runs += target.probes(torch.Generator().manual_seed(seed))
        reference = LocalSubject(step.reference)
        self.runs = [(run, outcome(run, reference)) for run in runs]
        self.step = step

    def equivalent(self, subject):
        """Whether the subject agrees with the reference on every run and keeps every rule
        (those on operations decided on the records of these runs)."""
        with recording_of(subject, self.step):
            agreed = all(agree(outcome(run, subject), want) for run, want in self.runs)
        return agreed and not any(rule_violation(rule, subject) for rule in self.rules)


def hidden_check(step, seed):
    """The step's hidden check with its cases drawn once (from Draws.seeded(seed)) and their
    expected outputs computed once: every mutant then meets the very checks step_findings
    would run with Draws.seeded(seed), without running the reference again. The mistakes
    are left out: they only name what failed, and killing needs just a finding."""
    reference = LocalSubject(step.reference)

    def settled(case):
        want = case.expected if case.expected is not None else case.run(reference)
        return Case(case.label, case.run, want)

    documents = [settled(case) for case in step.document_cases()]
    fixed = [settled(case) for case in step.fixed_cases()]
    drawn = [settled(case) for case in step.random_cases(Draws.seeded(seed).of(step.name,
                                                                               CASES))]
    return replace(step, document_cases=lambda: documents, fixed_cases=lambda: fixed,
                   random_cases=lambda generator: drawn, mistakes=())


@dataclass
class StepResult:
    name: str
    made: int = 0
    killed: int = 0
    equivalents: list = field(default_factory=list)
    survivors: list = field(default_factory=list)
    equivalent_killed: list = field(default_factory=list)  # probes miss what the checks test
    seconds: float = 0.0
    probed: bool = True  # equivalence decided on the step's probes (else random cases only)

    @property
    def equivalent(self):
        return len(self.equivalents)

    @property
    def judged(self):
        return self.killed + len(self.survivors)

    @property
    def kill_rate(self):
        return self.killed / self.judged if self.judged else 1.0


def judge_step(target, limit=None, seed=0, seeds=5, draws=3):
    """Make the step's mutants, drop the equivalent ones, run the rest through its checks
    drawn under `draws` seeds: a mutant is killed only when every draw finds it (grading
    draws anew each time, and a wrong version must fail every time)."""
    start = time.monotonic()
    name = target.name
    mutants = mutants_of(target)
    result = StepResult(name, made=len(mutants), probed=target.probes is not None)
    if limit is not None and len(mutants) > limit:
        mutants = random.Random(f"{seed} {name}").sample(mutants, limit)
        result.made = limit
    helpers = references(target.step, target.steps)
    oracle = Oracle(target, seed, seeds)
    checks = [(hidden_check(target.step, seed + i), seed + i) for i in range(draws)]
    for mutant in mutants:
        verdict = verdict_of(mutant, helpers, oracle, checks)
        if verdict.startswith("equivalent"):
            result.equivalents.append(mutant)
            if verdict == "equivalent, killed":
                result.equivalent_killed.append(mutant)
        elif verdict == "killed":
            result.killed += 1
        else:
            result.survivors.append(mutant)
    result.seconds = time.monotonic() - start
    return result


def verdict_of(mutant, helpers, oracle, checks):
    """'equivalent', 'equivalent, killed', 'killed' or 'survived'."""
    try:
        with time_limit(SECONDS_PER_MUTANT), memory_limit(MEMORY_PER_MUTANT):
            try:
                subject = subject_of(mutant, helpers)
            except Exception:  # noqa: BLE001 - e.g. a class body that fails to run
                return "killed"
            same = oracle.equivalent(subject)
            found = all(step_findings(checked, subject, helpers, Draws.seeded(seed))
                        for checked, seed in checks)
    except TimedOut:
        return "killed"
    if same:
        return "equivalent, killed" if found else "equivalent"
    return "killed" if found else "survived"


def run(chosen, limit=None, seed=0, seeds=5, draws=3, log=print):
    """Judge the steps of the targets `chosen`; log one line per step as it finishes."""
    results = []
    for target in chosen:
        result = judge_step(target, limit, seed, seeds, draws)
        results.append(result)
        log(row(result))
    return results


WIDTHS = (30, 7, 6, 6, 8, 9, 7)  # the table's columns: the first left-aligned, the rest right


def table_line(cells):
    """One line of the table, each cell padded to its column by the columns it takes in a
    terminal (a Chinese character takes two)."""
    padded = []
    for index, (cell, width) in enumerate(zip(cells, WIDTHS, strict=True)):
        space = " " * max(0, width - display_width(cell))
        padded.append(cell + space if index == 0 else space + cell)
    return " ".join(padded)


def header():
    return table_line((t("step"), t("mutants"), t("equiv"), t("killed"), t("survived"),
                       t("kill rate"), t("seconds")))


def figures(name, made, equivalent, killed, survived, rate, seconds):
    return table_line((name, f"{made:d}", f"{equivalent:d}", f"{killed:d}", f"{survived:d}",
                       f"{100 * rate:.1f}%", f"{seconds:.1f}"))


def row(result):
    return (figures(result.name, result.made, result.equivalent, result.killed,
                    len(result.survivors), result.kill_rate, result.seconds)
            + ("" if result.probed else t("  (no probes: equivalence on random cases only)")))


def overall(results):
    killed = sum(r.killed for r in results)
    judged = sum(r.judged for r in results)
    return killed / judged if judged else 1.0


def main(root: Path, ids, steps=None, limit=None, seed=0, show_equivalent=False, seeds=5,
         draws=3):
    """Run the harness on the course's assignments `ids` and print its figures; exit status 0
    (the figures are for the instructor to read: no floor is imposed here)."""
    warnings.simplefilter("ignore")
    torch.set_num_threads(1)
    start = time.monotonic()
    chosen = targets(root, ids, steps)
    print(counted(len(chosen), "mutants of {count} step; seed {seed}; equivalence on {seeds} "
                  "seeds of random cases and the probes; killed = found by all {draws} draws "
                  "of the checks", "mutants of {count} steps; seed {seed}; equivalence on "
                  "{seeds} seeds of random cases and the probes; killed = found by all {draws} "
                  "draws of the checks", seed=seed, seeds=seeds, draws=draws))
    print(header())
    results = run(chosen, limit, seed, seeds, draws)
    equivalent = sum(r.equivalent for r in results)
    survived = sum(len(r.survivors) for r in results)
    print(figures(t("overall"), sum(r.made for r in results), equivalent,
                  sum(r.killed for r in results), survived, overall(results),
                  time.monotonic() - start))
    if not results:
        print(t("no step to mutate"))
        return 0
    worst = min(results, key=lambda r: r.kill_rate)
    print(t("lowest step kill rate: {step} {rate:.1f}%", step=worst.name,
            rate=100 * worst.kill_rate))
    odd = sum(len(r.equivalent_killed) for r in results)
    if odd:
        print(t("equivalent on the cases and probes yet failing the checks: {count} (a probe is "
                "missing, or a check asks more than the reference does; --show-equivalent "
                "lists them)",
                count=odd))
    if show_equivalent:
        print("\n" + t("equivalent, dropped ({count}):", count=equivalent))
        show(results, "equivalents")
        print("\n" + t("equivalent on the cases and probes yet failing the checks ({count}):",
                        count=odd))
        show(results, "equivalent_killed")
    print("\n" + t("survivors ({count}):", count=survived))
    show(results, "survivors")
    return 0


def show(results, which):
    for result in results:
        for mutant in getattr(result, which):
            print(f"  {result.name}: {mutant.label}\n      {mutant.line}\n      {mutant.change}")

