"""How a step's rule on operations ("no built-in layer norm", "no autograd") is decided on
what the student's code computed: the records autograder/recorder.py made of its calls. The
grader (on the hidden cases' calls) and expect_rule in your notebook (on the test cell's
calls) decide with the same function, `decided`.

The records are made in the student's kernel, so code that reaches for the recording
machinery (torch._C, dispatch modes, frames, sys) is refused by reading its text, as
code_rules.py refuses code that decides at run time what it calls; and a record that cannot
be right (calls that computed nothing) breaks the rule.
"""

import ast
import inspect
import math
import textwrap

from autograder.checks.code_rules import (
    NAMED_BY_STRING,
    after_every_cell,
    closure,
    judged,
    notebook_sources,
    root_name,
    string_named,
    unverifiable,
)
from autograder.i18n.standalone import _t
from autograder.recorder import Recorder, codes_of, namespace_of, watched

# Names that reach what records the operations: torch's C module and its dispatch and
# function modes, the Python frames and profiler, the garbage collector.
MACHINERY = frozenset({
    "_C", "_python_dispatch", "overrides", "TorchDispatchMode", "TorchFunctionMode",
    "__torch_dispatch__", "__torch_function__", "_disable_current_modes", "_pop_mode",
    "_push_mode", "sys", "setprofile", "settrace", "getprofile", "_getframe", "f_back",
    "f_globals", "f_locals", "f_code", "gc", "get_referrers", "get_objects", "__subclasses__",
    "__mro__", "__bases__", "_dynamo", "compiler", "library", "_library", "__kit__",
    "threading", "_thread", "multiprocessing", "concurrent", "asyncio", "Thread",
    "no_dispatch", "as_subclass", "grad_fn", "next_functions", "jit"})
# Modules a step may reach torch's private parts through (`torch._decomp`, `F._softmax`):
# private code of the library runs torch's work in Python, beside what the record names.
LIBRARY_ROOTS = frozenset({"torch", "F", "nn", "np", "numpy", "math", "functools"})


def tampering(text, language=None):
    """Why the records of this code cannot be trusted (None when they can): it names the
    recording machinery, or decides at run time what it reaches."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _t("its code does not parse", language)
    roots = LIBRARY_ROOTS | imported_names(tree)
    for node in ast.walk(tree):
        name = machinery_named(node) or private_of_library(node, roots)
        if name:
            return _t("it uses {name}, which reaches what records your code's operations",
                      language, name=name)
        if isinstance(node, ast.ClassDef) and any(
                getattr(base, "attr", getattr(base, "id", "")) == "Tensor"
                for base in node.bases):
            return _t("it uses {name}, which reaches what records your code's operations",
                      language, name="Tensor")
        if isinstance(node, ast.Call):
            passed = [*node.args, *(k.value for k in node.keywords)]
            given = next((a.id for a in passed if isinstance(a, ast.Name)
                          and a.id in NAMED_BY_STRING), None)
            if given:
                return _t("it passes {name} to another function, which then reaches "
                          "attributes by names made at run time", language, name=given)
    return unverifiable(tree, language)


def machinery_named(node):
    """The name of the recording machinery a node mentions (an attribute, a name, an import,
    a method it defines, a string given to getattr), or None."""
    if isinstance(node, ast.alias | ast.ImportFrom):
        dotted = node.name if isinstance(node, ast.alias) else node.module or ""
        return dotted if set(dotted.split(".")) & MACHINERY else None
    name = node.attr if isinstance(node, ast.Attribute) else \
        node.id if isinstance(node, ast.Name) else \
        node.name if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else \
        string_named(node)
    return name if name in MACHINERY else None


def imported_names(tree):
    """The names the code's imports bind."""
    return {(alias.asname or alias.name).split(".")[0] for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom) for alias in node.names}


def private_of_library(node, roots):
    """The private name (one underscore: `_decomp`, `_softmax`) an attribute chain from a
    library's module reaches, or that an import names (`from torch._refs import ...`)."""
    if isinstance(node, ast.ImportFrom):
        parts = (node.module or "").split(".") + [alias.name for alias in node.names]
    elif isinstance(node, ast.Import):
        parts = [part for alias in node.names for part in alias.name.split(".")]
    elif isinstance(node, ast.Attribute) and root_name(node) in roots:
        parts = [node.attr]
    else:
        return None
    return next((part for part in parts if part.startswith("_")
                 and not part.startswith("__")), None)


def matched(ops, fragments):
    """The names of operations that hold one of the fragments (case ignored)."""
    return sorted(op for op in ops if any(f in op.lower() for f in fragments))


def all_ops(records):
    ops = set()
    for record in records:
        ops.update(record["ops"])
    return ops


def shape(value):
    return value if isinstance(value, list) and all(type(n) is int for n in value) else None


def forbids_ops(records, params, language):
    found = matched(all_ops(records), params)
    return _t("it ran torch's {ops}", language, ops=", ".join(found)) if found else None


def requires_ops(records, params, language):
    if matched(all_ops(records), params):
        return None
    return _t("it never ran {names}", language, names=_t(" or ", language).join(params))


def forbids_autograd(records, params, language):
    """No autograd graph walked, no dual numbers, and none of torch's backward kernels."""
    if any(record["autograd"] for record in records):
        return _t("it used autograd (a gradient computed by torch's autograd engine or "
                  "dual numbers)", language)
    return forbids_ops(records, ["backward"], language)


def enters(records, params, language):
    """params: {"name": the function, "per": [argument, dim] or None}: entered at least once
    in all, or, in every call, at least once per query: per index of that dim of that
    argument."""
    name, per = params["name"], params.get("per")
    if per is None:
        if sum(record["entered"].get(name, 0) for record in records):
            return None
        return _t("it never called your {name}", language, name=name)
    for record in records:
        arguments = record["arguments"]
        sizes = shape(arguments[per[0]]) if len(arguments) > per[0] else None
        if sizes is None or len(sizes) <= per[1]:
            continue
        needed, got = sizes[per[1]], record["entered"].get(name, 0)
        if got < needed:
            return _t("it called your {name} {got} times for {needed} queries", language,
                      name=name, got=got, needed=needed)
    return None


def forbids_entering(records, params, language):
    found = sorted({name for record in records for name in record["entered"]
                    if name in params})
    return _t("it called {names}", language, names=", ".join(found)) if found else None


def scores_in_blocks(records, params, language):
    """params: [queries, keys, values, block_size] argument positions. On a call where the
    whole score matrix is larger than every input, the output, and a block of scores times
    d_k, no operation may produce that many numbers."""
    for record in records:
        arguments = record["arguments"]
        if len(arguments) <= max(params):
            continue
        queries, keys, values = (shape(arguments[i]) for i in params[:3])
        block = arguments[params[3]]
        if not (queries and keys and values and len(queries) >= 2 and len(keys) >= 2
                and type(block) is int):
            continue
        batch = math.prod(queries[:-2])
        whole = batch * queries[-2] * keys[-2]
        room = max(math.prod(queries), math.prod(keys), math.prod(values),
                   batch * queries[-2] * values[-1], batch * queries[-2] * block * queries[-1])
        if whole > room and record["largest"] >= whole:
            return _t("one operation produced {count} numbers, as many as the whole score "
                      "matrix ({queries} queries x {keys} keys)", language,
                      count=record["largest"], queries=queries[-2], keys=keys[-2])
    return None


def causal_weights(records, params, language):
    """params: [the position of the sequence argument]. Step t attends over the t + 1
    positions decoded so far, so the softmaxes (and exponentials) of a call span nearly as
    many sizes as there are positions (1..seq; a first step done without one leaves 2..seq);
    a mask, of -inf or of zeros, scores every position at every step: one span."""
    for record in records:
        arguments = record["arguments"]
        sizes = shape(arguments[params[0]]) if len(arguments) > params[0] else None
        if not sizes or len(sizes) < 2 or sizes[-2] < 2 or not record["weights"]:
            continue
        spans = {span for span in record["weights"] if span <= sizes[-2]}
        if len(spans) < sizes[-2] - 1:
            return _t("its softmaxes span {spans} positions, not 1, 2, ... {seq} as the "
                      "positions are decoded: future positions were scored", language,
                      spans=", ".join(map(str, sorted(spans))) or "0", seq=sizes[-2])
    return None


DECISIONS = {"forbids_ops": forbids_ops, "requires_ops": requires_ops,
             "forbids_autograd": forbids_autograd, "enters": enters,
             "forbids_entering": forbids_entering, "scores_in_blocks": scores_in_blocks,
             "causal_weights": causal_weights}


def decided(kind, params, records, text, language=None):
    """The one decision of a rule on operations: why the records (of the calls of the step,
    made while its text ran) break it, or None."""
    if not text:
        return _t("no code defines it in the notebook (define it with def or class, in a "
                  "cell of yours)", language)
    reason = tampering(text, language)
    if reason:
        return _t("no rule can be verified because {reason}; call what you need by name",
                  language, reason=reason)
    if not records:
        return _t("none of your code's calls was recorded", language)
    if not any(record["count"] for record in records):
        return _t("no operation of torch was recorded while your code ran", language)
    return DECISIONS[kind](records, params, language)


# In your notebook ---------------------------------------------------------------------------
# A test cell whose step has rules on operations begins with record_calls(step, ...): from
# there to the end of the cell, every call of your step is recorded, as grading records the
# calls of its hidden cases, and the cell's expect_rule lines decide on those records.

TEST_CELL = {"recorder": None, "records": []}


def record_calls(subject, uses=(), counted=()):
    """Record every call of `subject` (your function, or your class's methods) until the
    cell ends; the earlier steps it `uses` are left out (each is judged in its own step), and
    the calls of the functions in `counted` are counted."""
    stop_recording()
    recorder = Recorder(codes_of(subject), *watched(namespace_of(subject), uses, counted))
    TEST_CELL["recorder"], TEST_CELL["records"] = recorder, recorder.records
    recorder.start()
    after_every_cell(stop_recording)  # however the cell ends, a failed assertion included


def stop_recording(*_):
    """End the test cell's recording (its records stay for expect_rule)."""
    recorder, TEST_CELL["recorder"] = TEST_CELL["recorder"], None
    if recorder is not None:
        recorder.stop()


def expect_rule(subject, kind, params, rule, why, uses=()):
    """Assert that your `subject` (and the code of yours it uses) keeps a rule of its step,
    decided as grading decides it, by the same function: a rule on the code on the text
    closure reads from the cells you ran, without the earlier steps it `uses`; a rule on
    operations on what the calls of this test cell computed (record_calls)."""
    sources = notebook_sources()
    name = getattr(subject, "__name__", "")
    if sources is None:  # not in a notebook: the code of the function itself
        try:
            sources = [textwrap.dedent(inspect.getsource(subject))]
        except (OSError, TypeError):
            sources = []
    text = closure(sources, name, apart=uses)
    if kind in DECISIONS:
        broken = decided(kind, params, TEST_CELL["records"], text)
    else:
        broken = judged(kind, params, text, None)
    assert broken is None, _t("rule '{rule}': {broken} ({why})", rule=rule, broken=broken,
                              why=why)
