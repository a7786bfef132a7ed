"""Whether what a rule names is used: a probe runs one call of the step again with the output
of what the rule names changed (noise added), and looks at the step's output.

"Calls your layer_norm" is decided so, not by counting calls: a call whose result the block
does not use changes nothing when its result changes. Then the same results made zeros: a
call whose result is used but adds nothing to the output (made with zeroed weights and added
to the same work done inline) changes nothing either. A probe is data on the rule
(`Rule.probe`):

- {"kind": "stand_in", "name": an earlier step, "per": [[argument, dim], ...] or None}: the
  earlier step's answers changed. Every call, at once; with `per` (a call for each query, or
  for each pair of a query and a key; the queries' place first), a few calls one at a time,
  each made the largest of all, else the smallest: each must change the output, and none
  every query's output at once;
- {"kind": "ops", "names": fragments, "level": "fn" or None}: the output of each operation
  whose name holds a fragment (at the level of torch's functions only, with "fn");
- {"kind": "spans", "arg": the sequence argument's position}: the normalisations of one span
  (a softmax over, or a sum of, that many entries) at a time, for each span 1..seq: which
  spans are used (checks/operation_rules.py, `causal_weights`).

`found(probe, rerun, base, call, gen)` is the one decision of what a probe finds, given
`rerun(change)` (the call made again with a change, as (output, how many calls or operations
the change named)): grading reruns a hidden case through the subject (`probed`, with
`subject.perturbed`: the grader changes its own stand-in's answers, the judging kernel's
guard an operation's output on the grader's sealed word); the notebook's expect_rule reruns
a call of the step the test cell made, in the notebook (`rerun_here`; for spans the call
grading would pick, `telling_call`). The changes are drawn
from `gen`: the same notebook gets the same probes on every regrade.

This module imports only the standard library, torch and the recorder: the build copies it
into the notebook's helper cell.
"""

import inspect
import math
from types import FunctionType

import torch

from autograder.checks.recorder import perturbing_here

MAX_SINGLE = 3  # calls changed one at a time, for a rule "for each query"
MIN_SEQ = 4  # positions a case has for the spans of its normalisations to tell a mask


def found(probe, rerun, base, call, gen):
    """What the probe of a rule finds (a dict the rule's decision reads)."""
    return PROBES[probe["kind"]](probe, rerun, base, call, gen)


def seed(gen):
    return int(torch.randint(2**31 - 1, (1,), generator=gen))


def differs(output, base):
    """Whether a rerun's output differs from the call's (beyond rounding)."""
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
        # A score made the largest of its query's changes the output unless its weight was
        # next to 1 already; made the smallest, unless it was next to 0: one of the two
        # changes what a used call gives, whatever the weights.
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
    """The size of dim where[1] of the call's argument where[0], or None."""
    args = call[0] if call else ()
    value = args[where[0]] if len(args) > where[0] else None
    return value.shape[where[1]] if isinstance(value, torch.Tensor) and \
        value.dim() > where[1] else None


def queries_changed(output, base, queries):
    """How many queries' outputs differ: along the output's one dim of that size (None when
    no dim, or more than one, has it)."""
    if not (isinstance(output, torch.Tensor) and isinstance(base, torch.Tensor)
            and output.shape == base.shape):
        return None
    dims = [d for d, size in enumerate(output.shape) if size == queries]
    if len(dims) != 1:
        return None
    moved = (~torch.isclose(output, base, rtol=1e-4, atol=1e-5)).movedim(dims[0], 0)
    return int(moved.reshape(queries, -1).any(dim=1).sum())


def carries(rerun, change, base):
    """Whether the output moves when what the change names gives zeros: a call whose result
    is used but adds nothing (`x + layer_norm(x, 0 * gamma, 0 * beta)` beside a norm written
    inline, or a result added and taken away again) carries none of the output."""
    output, _ = rerun({**change, "zero": True})
    return output is None or differs(output, base)


def ops_probe(probe, rerun, base, call, gen):
    change = {"names": list(probe["names"]), "spans": [], "level": probe.get("level"),
              "which": None, "seed": seed(gen)}
    output, seen = rerun(change)
    return {"changed": seen > 0 and (output is None or differs(output, base))
            and carries(rerun, {**change, "seed": seed(gen)}, base)}


def spans_probe(probe, rerun, base, call, gen):
    """The spans 1..seq whose normalisations are used: each changed alone; and how many
    positions' outputs change when those of the whole sequence do (`whole_rows`): only the
    last position attends over all seq positions, where under a mask every one does. None
    when seq is the size of another dim of the arguments (d_in, d_k: the products that make
    the queries or the scores add up that many terms, for every position)."""
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
    """The sizes of the dims of the call's tensor arguments but the sequence's (argument
    `where`, its dim -2) and the lead dims before it."""
    args = call[0] if call else ()
    found = set()
    for index, value in enumerate(args):
        if isinstance(value, torch.Tensor):
            found.update(value.shape[-1:] if index == where else value.shape)
    return found


def positions_changed(output, base, seq):
    """How many of the seq positions (dim -2) of the output differ from the call's; None when
    the outputs are not such tensors."""
    if not (isinstance(output, torch.Tensor) and isinstance(base, torch.Tensor)
            and output.shape == base.shape and output.dim() >= 2 and output.shape[-2] == seq):
        return None
    changed = ~torch.isclose(output, base, rtol=1e-4, atol=1e-5, equal_nan=True)
    return int(changed.movedim(-2, 0).reshape(seq, -1).any(dim=1).sum())  # (seq, rest)


PROBES = {"stand_in": stand_in_probe, "ops": ops_probe, "spans": spans_probe}


def rerun_here(subject, call):
    """The rerun of a call of `subject` made in this process (the notebook's): the call again
    under a change (recorder.perturbing_here), as (output, how many the change named); an
    output of None when it raised."""
    def rerun(change):
        # new tensors: a cache of the student's (lru_cache) cannot answer it
        args, kwargs = fresh(defaults_left_out(subject, call))
        with perturbing_here(change, subject) as done:
            try:
                output = subject(*args, **kwargs)
            except Exception:  # noqa: BLE001 - a rerun that raises changed something
                output = None
        return output, done["seen"]

    return rerun


def defaults_left_out(subject, call):
    """`call` (the arguments its frame held) without those that are the function's own
    default values, the same objects: the rerun takes them from the function as they are then
    (a probe changes an earlier step's answers where a default holds it, as grading does)."""
    try:
        function = inspect.unwrap(subject)  # what wrappers wrap, their cycles refused
    except ValueError:
        return call
    if not isinstance(function, FunctionType):
        return call
    args, kwargs = list(call[0]), dict(call[1])
    defaults = function.__defaults__ or ()
    first = function.__code__.co_argcount - len(defaults)  # the first with a default
    while len(args) > first and len(args) <= function.__code__.co_argcount and \
            args[-1] is defaults[len(args) - 1 - first]:
        args.pop()
    for name, value in (function.__kwdefaults__ or {}).items():
        if name in kwargs and kwargs[name] is value:
            del kwargs[name]
    return args, kwargs


def fresh(call):
    """(args, kwargs) of `call` with each tensor a new one of the same values."""
    def new(value):
        if isinstance(value, torch.Tensor):
            return value.detach().clone().requires_grad_(value.requires_grad)
        return value
    args, kwargs = call
    return [new(a) for a in args], {k: new(v) for k, v in kwargs.items()}


# In grading --------------------------------------------------------------------------------


def probed(step, subject, right, gen):
    """{rule name: what its probe found} for the step's rules that have a probe, on the
    passing case with the smallest arguments among those whose output is numbers (not a
    shape) (`right`: (case, output) of each passing case); empty when none passed (the step
    fails on its values anyway)."""
    rules = [rule for rule in step.rules if rule.probe]
    valued = [(case, output) for case, output in right if numbers(output)]
    if not rules or not valued:
        return {}
    return {rule.name: probed_on(rule.probe, subject, *case_for(rule.probe, valued), gen)
            for rule in rules}


def case_for(probe, valued):
    """The passing case a probe reruns: the one with the smallest arguments; for the spans of
    a sequence, the one `telling_call` picks."""
    if probe["kind"] != "spans":
        return min(valued, key=lambda pair: size_of(pair[0]))
    return valued[telling_call(probe, [case_call(case) for case, _ in valued])]


def telling_call(probe, calls):
    """The index among `calls` ((args, kwargs) each) of the one a spans probe reruns, in
    grading and in the notebook alike: a sequence of at least MIN_SEQ positions (fewer cannot
    tell a mask: the rule allows one span fewer than the positions), of a length no other dim
    of the call has (telling: see spans_probe), the shortest such (the smallest arguments
    among those); else the shortest of MIN_SEQ positions or more; else the longest."""
    seqs = [(argument_size(call, (probe["arg"], -2)) or 0, call_size(call), index)
            for index, call in enumerate(calls)]
    long_enough = [entry for entry in seqs if entry[0] >= MIN_SEQ]
    told = [entry for entry in long_enough if telling(calls[entry[2]], probe)]
    return min(told or long_enough)[2] if long_enough else max(seqs)[2]


def telling(call, probe) -> bool:
    """Whether a spans probe tells a mask on this call: a sequence of MIN_SEQ positions or
    more, of a length no other dim of the call has."""
    seq = argument_size(call, (probe["arg"], -2)) or 0
    return seq >= MIN_SEQ and seq not in other_sizes(call, probe["arg"])


def call_size(call):
    """How many numbers the tensors of a call's arguments hold."""
    args, kwargs = call
    return sum(value.numel() for value in (*args, *kwargs.values())
               if isinstance(value, torch.Tensor))


def probed_on(probe, subject, case, base, gen):
    call = case_call(case)

    def rerun(change):
        with subject.perturbed(change) as done:
            try:
                output = case.run(subject)
            except Exception:  # noqa: BLE001 - a rerun that raises changed something
                output = None
        return output, done.get("seen", 0)

    return found(probe, rerun, base, call, gen)


def case_call(case):
    arguments = getattr(case.run, "arguments", None)
    return arguments() if arguments else ((), {})


def numbers(output):
    """Whether an output holds floating-point numbers that could change."""
    if isinstance(output, torch.Tensor):
        return output.is_floating_point() and output.numel() > 0
    return isinstance(output, tuple | list) and any(numbers(item) for item in output)


def size_of(case):
    arguments = getattr(case.run, "arguments", None)
    return math.inf if arguments is None else call_size(arguments())
