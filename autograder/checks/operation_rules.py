"""How a step's rule on operations ("no built-in layer norm", "no autograd") is decided on
what the student's code computed: the records of its calls (autograder/checks/op_record.py). The
grader (on the hidden cases' calls) and expect_rule in your notebook (on the test cell's
calls) decide with the same function, `decided`.

In grading the records are made by the judging kernel's guard (autograder/sandbox/guard.py),
which the student's code cannot reach, and say what that code tried on them (`tampered`):
anything tried breaks the rule, named. What the guard cannot watch is read from the code's
text: a private part of a library reached through any alias of it (`lib = torch;
lib._refs.softmax`: torch's work done in Python, beside what the record names), a module's
loader, torch's compilers and its library of operations, and code that decides at run time
what it reaches (code_rules.unverifiable).

A rule may ask whether what a call computes is used (`probes`: a probe reruns one case with
the output of an operation or of an earlier step changed, checks/probes.py): "calls your
layer_norm" means that changing what layer_norm gives changes the block's output.
"""

import ast
import functools
import inspect
import math
import textwrap

import torch

from autograder.checks.code_rules import (
    NAMED_BY_STRING,
    after_every_cell,
    closure,
    import_bound,
    judged,
    notebook_sources,
    root_name,
    string_named,
    unverifiable,
)
from autograder.checks.op_record import NUMBERS_OUT, RAISED, SHAPED
from autograder.checks.probes import found, fresh, rerun_here, telling_call
from autograder.checks.recorder import Recorder, codes_of, namespace_of, watched
from autograder.i18n.standalone import _t

# Names that reach around what records the operations, whatever they are attributes of: a
# module's loader and spec (which make a module's functions anew), Python's import internals,
# torch's compilers (code that runs outside torch's dispatch), its library of operations
# (code of the student's registered as one of torch's operations), and its ways to share a
# tensor's memory with another library unrecorded (DLPack capsules, a tensor over a Python
# buffer, read through the buffer), its profiler (which imports torch's compiler, whose
# modules register their operations as torch's own: the guard lets those through), and its
# primitive operations (torch.ops.prims: kernels torch writes in Python, run unrecorded).
MACHINERY = frozenset({
    "__loader__", "__spec__", "_imp", "create_module", "exec_module", "_dynamo", "compiler",
    "jit", "library", "_library", "__closure__", "cell_contents", "dlpack", "to_dlpack",
    "from_dlpack", "frombuffer", "profiler", "prims"})
# Attributes that define an operation or register code as one's in a library torch already
# made (torch.export.custom_ops.lib, one of 134), read as attributes only (a variable of the
# student's may be called `impl`): the judging kernel's guard refuses them as they run too.
REGISTERING = frozenset({"custom_ops", "define", "impl", "fallback", "def_", "impl_t_t",
                         "custom_op", "triton_op", "register_kernel", "register_fake",
                         "register_autograd", "register_torch_dispatch", "register_vmap"})
# Modules a step may reach torch's private parts through (`torch._decomp`, `F._softmax`):
# private code of the library runs torch's work in Python, beside what the record names.
LIBRARY_ROOTS = frozenset({"torch", "F", "nn", "np", "numpy", "math", "functools", "sys"})
# What the judging kernel's guard notes in a record (guard.py): a key, and a detail after a
# colon where it names what was touched.
# Each key's words, as a literal _t call (the build translates those into the helper cell).
TAMPERING = {
    "subclass": lambda language, detail: _t(
        "a tensor of a class of its own ran its own code inside torch",
        language, detail=detail),
    "higher_order": lambda language, detail: _t(
        "it ran one of torch's higher-order operators (torch.cond and its kin), "
        "which run code out of the record's sight",
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
        "it ran an operation of torch's whose kernel is written in Python ({detail}: a tensor "
        "on the meta device, or an operation outside aten, such as torch.ops.prims), which "
        "runs out of the record's sight and calls what torch's modules name then",
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
        "a profile or trace function is set",
        language, detail=detail),
    "frame": lambda language, detail: _t(
        "it reached for a frame of the grader's",
        language, detail=detail),
    "class_changed": lambda language, detail: _t(
        "it changed {detail}",
        language, detail=detail),
    "function_changed": lambda language, detail: _t(
        "it changed a function's {detail}",
        language, detail=detail),
    "marshal": lambda language, detail: _t(
        "it made code from bytes (marshal)",
        language, detail=detail),
    "reimport": lambda language, detail: _t(
        "it imported {detail} anew",
        language, detail=detail),
    "memory_file": lambda language, detail: _t(
        "it opened the process's memory",
        language, detail=detail),
    "link": lambda language, detail: _t(
        "it made a link to a file",
        language, detail=detail),
    "pickle": lambda language, detail: _t(
        "it asked pickle for {detail}",
        language, detail=detail),
    "all_frames": lambda language, detail: _t(
        "it asked for every thread's frame",
        language, detail=detail),
    "set_profile": lambda language, detail: _t(
        "it set a profile or trace function",
        language, detail=detail),
    "audit_hook": lambda language, detail: _t(
        "it added an audit hook",
        language, detail=detail),
    "collector": lambda language, detail: _t(
        "it asked the garbage collector for objects",
        language, detail=detail),
    "code_object": lambda language, detail: _t(
        "it made a code object",
        language, detail=detail),
    "process": lambda language, detail: _t(
        "it started another process or program ({detail})",
        language, detail=detail),
    "ctypes": lambda language, detail: _t(
        "it used ctypes",
        language, detail=detail),
    "guard_failed": lambda language, detail: _t(
        "the grader's guard failed on {detail}",
        language, detail=detail),
    "reply_unverified": lambda language, detail: _t(
        "a reply to the grader was altered or not sealed",
        language, detail=detail),
    "reply_missing": lambda language, detail: _t(
        "a reply to the grader is missing, or one was added",
        language, detail=detail),
    "reply_other": lambda language, detail: _t(
        "a reply answers another request",
        language, detail=detail),
    "record_malformed": lambda language, detail: _t(
        "its record is not data",
        language, detail=detail),
}
# A fragment a rule forbids also forbids the operations that compute the same thing
# (`logsumexp` is the log of a softmax's denominator, `logcumsumexp`'s last entry is that
# log too: "no built-in softmax" forbids both), or compute it inside, where nothing is
# recorded: every attention operation takes a softmax, and torch's fused encoder and decoder
# layers (torch._transformer_encoder_layer_fwd) their softmax and their layer norms.
FUSED_LAYERS = ("_transformer_encoder", "_transformer_decoder")
OPERATION_KIN = {"softmax": ("logsumexp", "logcumsumexp", "attention", *FUSED_LAYERS),
                 "layer_norm": FUSED_LAYERS}


def tampering(text, language=None):
    """Why the records of this code cannot be trusted (None when they can): it names what
    reaches around the recording, reaches a library's private part through any alias, or
    decides at run time what it reaches. Kept for the last texts read when `language` is
    named, as the grader names it: every rule of a step asks it of the same text (08's block
    has four) and reading one walks its tree six times. (None: the course's language, which
    may change, so nothing is kept.)"""
    return read_tampering(text, language) if language is None else \
        kept_tampering(text, language)


def read_tampering(text, language=None):
    """tampering(text, language), read now."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _t("its code does not parse", language)
    roots = library_aliases(tree)
    for node in ast.walk(tree):
        name = machinery_named(node) or private_of_library(node, roots)
        if name:
            return _t("it uses {name}, which reaches around what records your code's "
                      "operations", language, name=name)
        changed = library_attribute_changed(node, roots)
        if changed:
            return _t("it changes {name}, a library's own, which torch's code may call as it "
                      "runs, where nothing is recorded", language, name=changed)
        if isinstance(node, ast.Call):
            passed = [*node.args, *(k.value for k in node.keywords)]
            given = next((a.id for a in passed if isinstance(a, ast.Name)
                          and a.id in NAMED_BY_STRING), None)
            if given:
                return _t("it passes {name} to another function, which then reaches "
                          "attributes by names made at run time", language, name=given)
    return unverifiable(tree, language)


kept_tampering = functools.lru_cache(maxsize=64)(read_tampering)


def machinery_named(node):
    """The name a node mentions (an attribute, a name, an import, a string given to getattr)
    that reaches around the recording, or None."""
    if isinstance(node, ast.alias | ast.ImportFrom):
        dotted = node.name if isinstance(node, ast.alias) else node.module or ""
        return dotted if set(dotted.split(".")) & (MACHINERY | REGISTERING) else None
    if isinstance(node, ast.Name):  # a variable of the student's may be called `impl`
        return node.id if node.id in MACHINERY else None
    name = node.attr if isinstance(node, ast.Attribute) else string_named(node)
    return name if name in MACHINERY or name in REGISTERING else None


def library_attribute_changed(node, roots):
    """The attribute of a library, or of a name standing for one, that a statement sets or
    deletes (`torch.true_divide = f`, `setattr(F, "softmax", f)`, `del np.add`), as written;
    None for another node. torch's Python kernels read such names as they run."""
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del) and \
            root_name(node) in roots:
        return ast.unparse(node)
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("setattr", "delattr") \
            and node.args and root_name(node.args[0]) in roots:
        return ast.unparse(node.args[0]) + (f".{string_named(node)}" if string_named(node)
                                            else "")
    return None


def library_aliases(tree):
    """The names that stand for a library or a part of one: the library roots, what imports
    bind, and every name assigned such a name or an attribute of one (`lib = torch`,
    `ops = torch.nn.functional`), followed transitively."""
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
    """The private name (one underscore: `_decomp`, `_softmax`) an attribute chain from a
    library, or from any name standing for one, reaches, or that an import names
    (`from torch._refs import ...`); `sys.modules` (a module by a name made at run time)."""
    if isinstance(node, ast.ImportFrom):
        parts = (node.module or "").split(".") + [alias.name for alias in node.names]
    elif isinstance(node, ast.Import):
        parts = [part for alias in node.names for part in alias.name.split(".")]
    elif isinstance(node, ast.Attribute) and root_name(node) in roots:
        if node.attr == "modules" and root_name(node) == "sys":
            return "sys.modules"
        parts = [node.attr]
    elif string_named(node) and root_name(node.args[0]) in roots:  # getattr(torch, "_C")
        parts = [string_named(node)]
    else:
        return None
    return next((part for part in parts if part.startswith("_")
                 and not part.startswith("__")), None)


def matched(ops, fragments):
    """The names of operations that hold one of the fragments, or of its kin (case
    ignored)."""
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
    """The records of calls of the subject (those whose arguments the grader sent)."""
    return [record for record in records if record["arguments"]]


def forbids_ops(records, params, probes, language):
    found = matched(all_ops(records), params)
    # torch's own name of what the student called: aten's private twin (_softmax beside
    # softmax) is the same call, said once
    said = sorted({op.lstrip("_") for op in found})
    return _t("it ran torch's {ops}", language, ops=", ".join(said)) if found else None


def requires_ops(records, params, probes, language):
    """Some call runs an operation holding one of the fragments, and (where a probe looked)
    what it gives is used: changing it changes the output."""
    if not matched(all_ops(records), params):
        return _t("it never ran {names}", language, names=_t(" or ", language).join(params))
    if probes is not None and probes.get("changed") is False:
        return _t("it ran {names}, but its output does not change what your code returns",
                  language, names=_t(" or ", language).join(params))
    return None


def forbids_autograd(records, params, probes, language):
    """No autograd graph walked, no dual numbers, no result that takes part in a graph, and
    none of torch's backward kernels."""
    if any(record["autograd"] for record in records):
        return _t("it used autograd (a gradient computed by torch's autograd engine, dual "
                  "numbers, or a tensor that requires grad)", language)
    return forbids_ops(records, ["backward"], probes, language)


def enters(records, params, probes, language):
    """params: {"name": the function, "per": [[argument, dim], ...] or None}: entered at
    least once in all, or, in every call, at least once for each index of those dims of
    those arguments together (the queries; or the queries and the keys: once a pair). Where
    a probe looked, what it gives is used: each of its calls the probe changed changed the
    output (and, per query, not every query's output at once)."""
    name, per = params["name"], params.get("per")
    if per is None:
        if not sum(record["entered"].get(name, 0) for record in records):
            return _t("it never called your {name}", language, name=name)
    else:
        for record in calls(records):
            needed, got = calls_needed(record["arguments"], per), record["entered"].get(name, 0)
            if needed is None or got >= needed:
                continue
            times = _t("once", language) if got == 1 else _t("{got} times", language, got=got)
            if len(per) == 1:
                return _t("it called your {name} {times} for {needed} queries", language,
                          name=name, times=times, needed=needed)
            return _t("it called your {name} {times} for {needed} pairs of a query and a "
                      "key", language, name=name, times=times, needed=needed)
    if probes is None:
        return None
    if probes.get("unused"):
        return _t("what your {name} gives does not change what your code returns (a call "
                  "whose result is not used does not count)", language, name=name)
    if probes.get("every_query"):
        return _t("one call of your {name} changed every query's output: each query's "
                  "scores must come from calls of their own", language, name=name)
    return None


def calls_needed(arguments, places):
    """The product of the sizes of those dims of those arguments ([argument, dim] each), as a
    record describes the arguments; None when one of them is not there."""
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
    return _t("it called {names}", language, names=", ".join(found)) if found else None


# What a loop may walk, in the words a student knows it by (literal _t calls: the build
# translates them into the helper cell).
WALKED = {
    "query": lambda language: _t("queries", language),
    "position": lambda language: _t("positions", language),
    "head": lambda language: _t("heads", language),
}


def same_work(records, params, probes, language):
    """params: [[argument, dim, what], ...], the sizes a loop could walk (`what`: a key of
    WALKED). Tensor operations do the whole at once: a call runs as many operations whatever
    those sizes. A loop, however it is written (a statement, or a library that calls code of
    the student's once per element), runs its body once per element: broken when calls alike
    but for those sizes (each argument of the same dims, the same of them of size 1: torch
    takes other paths through a dim of 1), of at least three sizes, ran at least one
    operation more for each element from each size to the next. Code that takes another path
    above some size, or for some numbers, grows at one step, not at every one."""
    for argument, dim, what in params:
        for counts in walked_counts(records, argument, dim).values():
            if growth(counts):
                return _t("calls on {sizes} {what} ran {counts} operations: at least one more "
                          "for each one more, from each size to the next, as a loop does, "
                          "however it is written", language,
                          sizes=", ".join(map(str, sorted(counts))),
                          what=WALKED[what](language),
                          counts=", ".join(str(min(counts[n])) for n in sorted(counts)))
    return None


def growth(counts):
    """Whether {size: [operations of each call of that size]} grows by at least one
    operation per element from each size to the next, over three sizes or more."""
    sizes = sorted(counts)
    return len(sizes) >= 3 and all(
        min(counts[large]) - max(counts[small]) >= large - small
        for small, large in zip(sizes, sizes[1:], strict=False))


def walked_counts(records, argument, dim):
    """{the calls' kind (each argument's dims, which of them are 1): {the size of dim `dim` of
    argument `argument`: [how many operations each such call ran]}}."""
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


# The memory Python's objects and numpy's arrays take is judged on calls whose whole score
# matrix has this many numbers or more (below it, what torch and the recording make on their
# own is not small beside it), at BYTES_PER_SCORE bytes a number (a float32 matrix).
MEMORY_FLOOR, BYTES_PER_SCORE = 1 << 15, 4


def score_sizes(arguments, params):
    """(batch, queries, keys, block, whole, room) of a call of a blocked attention, from its
    described arguments (params: [queries, keys, values, block_size] positions): the whole
    score matrix's size `whole` and `room`, the largest of every input, the output, and a
    block of scores times d_k; None when the arguments are not of that kind."""
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


# Operations that hand a tensor's numbers to Python or another library, where the work done on
# them is not recorded (a print of a tensor is one); one number at a time (item(), float(),
# any operation that gives Python a number: NUMBERS_OUT) is allowed for a quarter of the
# inputs' numbers, on the call the rule judges.
PRINTS = frozenset({"__repr__", "__format__"})
OUT_OF_TORCH = frozenset({"numpy", "__array__", "__dlpack__", "tolist", "untyped_storage",
                          "storage", "_typed_storage", "apply_", "map_", "map2_"}) | PRINTS
# Of those, the ways to hand another library a tensor's numbers to work on (a print's text is
# no place to compute in).
SHARED_OUT = OUT_OF_TORCH - PRINTS


def handed_out(records, names):
    """The operations of `names` any call ran, and those whose result's shape a tensor's
    numbers decided (op_record.py, `shaped`: NAME->shape), sorted."""
    return sorted({op for record in calls(records) for op in record["ops"]
                   if op in names or op.endswith(SHAPED)})


def scores_in_blocks(records, params, probes, language):
    """params: [queries, keys, values, block_size] argument positions. On a call where the
    whole score matrix is larger than every input, the output, and a block of scores times
    d_k: no operation of torch produces that many numbers, no normalisation spans more keys
    than a block; and where the matrix has MEMORY_FLOOR numbers or more (checks/common.py,
    memory_judged), Python's objects and numpy's arrays never take as many bytes as the
    matrix in float32 either. No call shares a tensor's numbers with another library
    (SHARED_OUT), where a buffer made before the call could hold the matrix unseen."""
    gone = handed_out(records, SHARED_OUT)
    if gone:
        return _t("it handed a tensor's numbers out of torch ({names}), where the scores made "
                  "from them cannot be seen (a result whose shape the numbers decide does too: "
                  "->shape)", language, names=", ".join(gone))
    for record in calls(records):
        sizes = score_sizes(record["arguments"], params)
        if sizes is None:
            continue
        batch, queries, keys, block, whole, room = sizes
        if whole <= room:
            continue
        if record["largest"] >= whole:
            return _t("one operation produced or read {count} numbers at once, as many as the "
                      "whole score matrix ({batch} x {queries} queries x {keys} keys)", language,
                      count=record["largest"], batch=batch, queries=queries[-2],
                      keys=keys[-2])
        if whole >= MEMORY_FLOOR and record["python_peak"] >= BYTES_PER_SCORE * whole:
            return _t("Python's objects or numpy's arrays took {count} bytes at once, as much "
                      "as the whole score matrix in float32 ({batch} x {queries} queries x "
                      "{keys} keys): the rule counts what any library holds", language,
                      count=record["python_peak"], batch=batch, queries=queries[-2],
                      keys=keys[-2])
        # more entries than a block of keys (all of them, a key of zero weight beside them,
        # or a row's sum in two halves), but for the products that add up each score's d_k
        # terms
        wide = [span for span in record["weights"] if span > block and span != queries[-1]]
        if keys[-2] > block and wide:
            return _t("a normalisation (a softmax, a sum or a product) spans {span} entries at "
                      "once, more than a block of {block} keys ({keys} keys in all)", language,
                      span=max(wide), block=block, keys=keys[-2])
    return None


def every_pair_at_once(records, position, language):
    """Why a call held every position's score against every other in one operation, as a
    mask's whole matrix does (None if none did): on a call whose batch x seq x seq numbers
    are more than every argument and than a row of d numbers for each position (the largest
    last dim of the arguments: the cache of keys or values, the output)."""
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
            return _t("one operation produced or read {count} numbers at once, as many as "
                      "every position's scores against every position ({batch} x {seq} x "
                      "{seq}): a mask's whole matrix, where the cache holds only the positions "
                      "decoded so far", language, count=record["largest"], batch=batch,
                      seq=seq)
    return None


def causal_weights(records, params, probes, language):
    """params: [the position of the sequence argument]. Step t attends over the t + 1
    positions decoded so far, so the normalisations of a call (softmaxes, sums) span nearly
    as many sizes as there are positions (1..seq; a first step done without one leaves
    2..seq); a mask, of -inf or of zeros, scores every position at every step: one span.
    Where a probe looked, on one call only the spans whose normalisations are used count
    (one added beside the real work changes nothing when it is changed), and those of all seq
    positions may change only the last position's output (a mask's change every one). And no
    operation holds every position's score against every other (every_pair_at_once)."""
    seen = [(sorted({span for span in record["weights"] if span <= sizes[-2]}), sizes[-2])
            for record in calls(records)
            if (sizes := shape(record["arguments"][params[0]])
                if len(record["arguments"]) > params[0] else None)
            and len(sizes) >= 2 and sizes[-2] >= 2]
    if probes is not None and probes.get("used_spans") is not None:
        seen.append((probes["used_spans"], probes["seq"]))
    for spans, seq in seen:
        if len(spans) < seq - 1:
            return _t("its normalisations (softmax, or a sum it divides by) span {spans} "
                      "positions, not 1, 2, ... {seq} as the positions are decoded: future "
                      "positions were scored", language,
                      spans=", ".join(map(str, spans)) or "0", seq=seq)
    rows = probes.get("whole_rows") if probes is not None else None
    if rows is not None and rows > 1:
        return _t("changing its normalisations of all {seq} positions (softmaxes, sums, "
                  "products) changed the outputs of {rows} positions, where only the last "
                  "position's attends over all {seq}: every position was scored against the "
                  "whole sequence, its future masked", language, seq=probes["seq"], rows=rows)
    return every_pair_at_once(records, params[0], language)


# A gradient from the chain rule reads and makes a few times the numbers of its forward pass;
# one from differences of the loss does the forward pass again for each entry moved (each
# column of a softmax's, each entry of the keys), and a softmax's whole Jacobian holds a row
# for each of its entries: on the call the rule judges (its `at` shape), far more than this.
ONE_PASS_FACTOR = 32


def input_shapes(arguments, positions):
    """The shape of the tensor argument at each position, as a record describes the
    arguments (None where there is none)."""
    return [shape(arguments[i]) if len(arguments) > i else None for i in positions]


def shaped_like(shapes, positions):
    """Arguments as a record describes them, with these shapes at these positions."""
    arguments = [None] * (max(positions) + 1)
    for position, sizes in zip(positions, shapes, strict=True):
        arguments[position] = list(sizes)
    return arguments


def forward_numbers(arguments, params):
    """The numbers one forward pass of a call reads and makes at least: every tensor argument
    at `params["inputs"]`, and with `params["scores"]` ([queries, keys, values] positions)
    the products behind the scores and the output (batch x queries x keys x (d_k + d_v));
    None when the arguments are not of that kind."""
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


# Names by which code shares a tensor's memory with numpy (or a file), so that numbers copied
# into that tensor by one recorded operation are then worked on where nothing is recorded:
# read from the text, for the rule on work, wherever the sharing is set up (at the top of a
# cell, before any call is recorded).
SHARING = frozenset({"numpy", "from_numpy", "as_tensor", "asarray", "__array__",
                     "__array_interface__", "from_file"})


def shares_memory(text, language):
    """Why what this code does cannot be seen: it names a way to share a tensor's memory
    with numpy (SHARING); None otherwise."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _t("its code does not parse", language)
    for node in ast.walk(tree):
        name = node.attr if isinstance(node, ast.Attribute) else string_named(node)
        if name in SHARING:
            return _t("it uses {name}, which shares a tensor's memory with numpy, where what "
                      "is done with its numbers cannot be seen", language, name=name)
    return None


def costs_one_pass(records, params, probes, language):
    """params: {"inputs": tensor argument positions, "scores": [queries, keys, values]
    positions or None, "at": the shapes of those inputs in the call judged}. No call hands a
    tensor's numbers out of torch (OUT_OF_TORCH, a shape its numbers decided: NAME->shape, or
    an operation's error: RAISED);
    and on each call at least as large as one whose inputs have the shapes `at` (that call
    the same for every student, in grading and in the notebook; larger ones of shapes drawn
    for each, so that no code can tell the calls judged by their shapes), torch's operations
    read and make at most ONE_PASS_FACTOR
    times the numbers of its forward pass (forward_numbers), and no more than a quarter of
    the numbers of its inputs leave torch one at a time (in 32-bit words: a float64 viewed
    from two float32 numbers carries both)."""
    gone = handed_out(records, OUT_OF_TORCH)
    if gone:
        return _t("it handed a tensor's numbers out of torch ({names}), where the work done on "
                  "them cannot be counted (a print of a tensor does too, and a result whose "
                  "shape the numbers decide: ->shape)", language, names=", ".join(gone))
    raised = sum(record["ops"].get(RAISED, 0) for record in calls(records))
    if raised:
        return _t("{count} of its torch operations raised an error inside the call, whose "
                  "message can carry the numbers they read out of torch (an index out of "
                  "range says which)", language, count=raised)
    least = forward_numbers(shaped_like(params["at"], params["inputs"]), params)
    for record in calls(records):
        forward = forward_numbers(record["arguments"], params)
        if not forward or forward < least:
            continue
        shapes = input_shapes(record["arguments"], params["inputs"])
        given = sum(math.prod(sizes) for sizes in shapes)
        one_by_one = record["ops"].get(NUMBERS_OUT, 0)
        if one_by_one > given // 4:
            return _t("it took {count} numbers out of torch one at a time (item(), float(), "
                      "torch.equal, a Python loop over a tensor: each operation that answers "
                      "with a number; a float counts as two 32-bit numbers, a complex as "
                      "four), more than a quarter of the {given} it was given", language,
                      count=one_by_one, given=given)
        if record["work"] > ONE_PASS_FACTOR * forward:
            return _t("on inputs of shapes {shapes}, its operations read and made {work} "
                      "numbers, {times:.0f} times the {forward} of the forward pass (at most "
                      "{factor} times)", language,
                      shapes=", ".join(str(tuple(sizes)) for sizes in shapes),
                      work=record["work"], times=record["work"] / forward, forward=forward,
                      factor=ONE_PASS_FACTOR)
    return None


# The decisions that read the code's text too (what the records cannot show).
TEXT_READ = {"costs_one_pass": shares_memory, "scores_in_blocks": shares_memory}
DECISIONS = {"forbids_ops": forbids_ops, "requires_ops": requires_ops,
             "forbids_autograd": forbids_autograd, "enters": enters,
             "forbids_entering": forbids_entering, "scores_in_blocks": scores_in_blocks,
             "causal_weights": causal_weights, "costs_one_pass": costs_one_pass,
             "same_work": same_work}


def tampered_with(records, language=None):
    """What the records say the code did to what records it, in words (None: nothing)."""
    said = []
    for record in records:
        for entry in record.get("tampered", ()):
            key, _, detail = entry.partition(":")
            text = TAMPERING[key](language, detail) if key in TAMPERING else entry
            if text not in said:
                said.append(text)
    return "; ".join(said) if said else None


def decided(kind, params, records, text, language=None, probes=None):
    """The one decision of a rule on operations: why the records (of the calls of the step,
    and of everything its text ran) break it, or None. `probes`: what a probe found of the
    use of what the rule names (None where no probe looked, as in the notebook)."""
    if not text:
        return _t("no code defines it in the notebook (define it with def or class, in a "
                  "cell of yours)", language)
    reason = tampering(text, language)
    if reason:
        return _t("no rule can be verified because {reason}; call what you need by name",
                  language, reason=reason)
    touched = tampered_with(records, language)
    if touched:
        return _t("it reached into what records its operations: {what}", language,
                  what=touched)
    if not records:
        return _t("none of your code's calls was recorded", language)
    read = TEXT_READ.get(kind)
    return (read and read(text, language)) or DECISIONS[kind](records, params, probes,
                                                               language)


# In your notebook ---------------------------------------------------------------------------
# A test cell whose step has rules on operations begins with record_calls(step, ...): from
# there to the end of the cell, every call of your step is recorded, as grading records the
# calls of its hidden cases, and the cell's expect_rule lines decide on those records.

TEST_CELL = {"recorder": None, "records": []}


def record_calls(subject, uses=(), counted=(), measure=False):
    """Record every call of `subject` (your function, or your class's methods) until the
    cell ends; the earlier steps it `uses` are left out (each is judged in its own step), the
    calls of the functions in `counted` are counted and, with `measure`, the memory Python's
    objects take is measured."""
    stop_recording()
    recorder = Recorder(codes_of(subject), *watched(namespace_of(subject), uses, counted),
                        measure=measure)
    TEST_CELL["recorder"], TEST_CELL["records"] = recorder, recorder.records
    recorder.start()
    after_every_cell(stop_recording)  # however the cell ends, a failed assertion included


def probed_here(probe, subject):
    """What a rule's probe finds on a call of `subject` the test cell made (of a class, a call
    of an instance the cell made, as grading calls one: instance_calls): the first, or for
    the spans of a sequence the one grading would pick (probes.telling_call); None where it
    cannot look."""
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
    except Exception:  # noqa: BLE001 - the cell's own checks say what is wrong with the call
        return None
    finally:
        recorder.paused = False


def instance_calls(cls, calls, codes):
    """(the method grading calls on an instance of the class, the cell's calls of it): a torch
    module's forward, else __call__; each call's first argument is the instance the cell
    made, so that the probe reruns it as grading reruns its own block."""
    method = getattr(cls, "forward", None) or next(
        (vars(base)["__call__"] for base in cls.__mro__ if "__call__" in vars(base)), None)
    code = getattr(getattr(method, "__func__", method), "__code__", None)
    return method, [call for call, ran in zip(calls, codes, strict=False)
                    if ran is code and call[0] and isinstance(call[0][0], cls)]


def unused(params, probes, language=None):
    """Why a rule on the code's names breaks when its probe found what it names unused (a
    call of torch.bmm whose result changes nothing), or None."""
    if probes and probes.get("changed") is False:
        return _t("its {names} does not change what it returns (a call whose result is not "
                  "used does not count)", language, names=_t(" or ", language).join(
                      sorted(params)))
    return None


def stop_recording(*_):
    """End the test cell's recording (its records stay for expect_rule)."""
    recorder, TEST_CELL["recorder"] = TEST_CELL["recorder"], None
    if recorder is not None:
        recorder.stop()


def expect_rule(subject, kind, params, rule, why, uses=(), probe=None, name=None):
    """Assert that your `subject` (and the code of yours it uses) keeps a rule of its step,
    decided as grading decides it, by the same function: a rule on the code on the text
    closure reads from the cells you ran for the step's `name` (grading's name for it: a
    lambda's or a decorator's wrapper's own name is another), without the earlier steps it
    `uses`; a rule on operations on what the calls of this test cell computed
    (record_calls); with a `probe`, on whether what the rule names is used too
    (checks/probes.py: a call of your function this cell made, made again with it
    changed)."""
    sources = notebook_sources()
    name = name or getattr(subject, "__name__", "")
    if sources is None:  # not in a notebook: the code of the function itself
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
