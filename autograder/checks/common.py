"""Pieces the step declarations share: random inputs, calls, rules and properties.

Rules on the code's form (a loop, a call of torch.bmm) are decided on the code the grader
reads (`subject.source`: in grading, the step's text as code_rules.closure reads it from the
notebook, the only code that has run where the step is called). Rules on what is computed
(no built-in softmax, no autograd) are decided on the records of the subject's calls
(`subject.records`, autograder/checks/recorder.py), whatever the Python path to an operation.

Texts a student reads are composed at grading time in the course's language (`t`); a rule's
name and reason stay English in its declaration and are translated where they are shown."""

from __future__ import annotations

from contextlib import contextmanager

import torch

from autograder.checks.code_rules import judged
from autograder.checks.compare import TOLERANCE
from autograder.checks.model import Rule
from autograder.checks.op_record import described
from autograder.checks.operation_rules import MEMORY_FLOOR, decided, score_sizes, unused
from autograder.i18n import current, t


def sizes(gen, count, low=2, high=9):
    """`count` distinct sizes in [low, high] (both included), so no two dimensions can be
    confused. `low` is 2 by default: a dimension of 1 broadcasts, and hides a transpose or a
    wrong dim; pass low=1 only for a size whose 1 the step must handle (a batch of one)."""
    if not 1 <= count <= high - low + 1:
        raise ValueError(f"sizes(gen, {count}, low={low}, high={high}): {count} distinct sizes "
                         f"do not fit in [{low}, {high}]; raise high or draw fewer")
    order = torch.randperm(high - low + 1, generator=gen)[:count]
    return [low + int(i) for i in order]


def randn(gen, *shape, scale=1.0):
    """Normal numbers of this shape from `gen`, times `scale`."""
    return scale * torch.randn(*shape, generator=gen)


def calling(*args, **kwargs):
    """A case's run: call the subject on fresh copies of the arguments (student code may
    change its inputs in place; the reference must not see that). Its `arguments()` are
    those copies and keywords, for a judge that makes several cases' calls at once
    (autograder/checks/batched.py)."""

    def arguments():
        return [a.clone() if isinstance(a, torch.Tensor) else a for a in args], kwargs

    def run(subject):
        copies, named = arguments()
        return subject(*copies, **named)

    run.arguments = arguments
    return run


def calling_then(pick, *args):
    """A case's run: call the subject on fresh copies of args, then `pick` from the result."""

    def run(subject):
        return pick(subject(*[a.clone() for a in args]))

    return run


def whole(result):
    return result


def stream(seed):
    """A private generator: the same numbers as the documents' torch.manual_seed(seed), with
    the global random state left alone."""
    return torch.Generator().manual_seed(seed)


@contextmanager
def seeded_as(seed):
    """Inside the block, the random state torch.manual_seed(seed) gives on a CPU; after it, the
    caller's again. Only the CPU's generator is seeded: torch.manual_seed also queues a seed
    for each accelerator torch has not started and formats the stack for each, about 1 ms a
    call in a grader (08 builds a seeded torch layer ten times a notebook)."""
    with torch.random.fork_rng(devices=[]):
        torch.default_generator.manual_seed(seed)
        yield


def random_seed(gen):
    """A seed drawn from `gen`, for a case that builds a module under torch.manual_seed."""
    return int(torch.randint(2**31 - 1, (1,), generator=gen))


def future(n):
    """The causal mask written out here (True above the diagonal), so that no check trusts the
    student's."""
    return torch.ones(n, n, dtype=torch.bool).triu(diagonal=1)


def code_rule(kind, rule_name, params, why, probe=None):
    """A rule decided on the subject's text by code_rules.judged, the function the notebook's
    expect_rule calls too: the step loses it when the code breaks it, when there is no code
    to read, or when the code decides at run time what it calls. With a `probe` on what the
    rule names (checks/probes.py), also when changing its output changes nothing."""

    def violation(subject):
        broken = judged(kind, params, subject.source, current()) or \
            unused(params, probed(subject, rule_name) if probe else None, current())
        return t("{rule}: {broken} ({why})", rule=t(rule_name), broken=broken,
                 why=t(why)) if broken else None

    return Rule(rule_name, violation, (kind, sorted(params), why), probe=probe, reads_text=True)


def probed(subject, rule_name):
    """What the probe of a rule found on the subject (checks/probes.py), {} where none ran."""
    return (getattr(subject, "probes", None) or {}).get(rule_name) or {}


def memory_judged(params):
    """Whether scores_in_blocks judges the memory Python's objects take on a call with these
    positional arguments (described as records keep them): the calls whose memory grading
    measures, for measuring slows every allocation of the kernel while it is on."""

    def measured(arguments):
        sizes = score_sizes([described(value) for value in arguments], params)
        return sizes is not None and sizes[5] < sizes[4] and sizes[4] >= MEMORY_FLOOR

    return measured


# The kinds of rule on operations that judge the memory Python's objects take: which calls
# they judge it on.
MEASURED = {"scores_in_blocks": memory_judged}


def operation_rule(kind, rule_name, params, why, counted=(), probe=None, measures=False):
    """A rule decided on the records of the subject's calls by operation_rules.decided, the
    function the notebook's expect_rule calls too (on the test cell's calls); with a `probe`
    (checks/probes.py), on what it found of the use of what the rule names too; with
    `measures`, on the memory Python's objects took in the calls the kind judges it on
    (operation_rules.MEASURED)."""

    def violation(subject):
        found = probed(subject, rule_name) if probe else None
        broken = decided(kind, params, subject.records, subject.source, current(),
                         probes=found or None)
        return t("{rule}: {broken} ({why})", rule=t(rule_name), broken=broken,
                 why=t(why)) if broken else None

    return Rule(rule_name, violation, (kind, params, why), recorded=True,
                counted=tuple(counted), probe=probe,
                measures=MEASURED[kind](params) if measures else None)


def forbids_ops(rule_name, fragments, why):
    """A rule: no operation torch runs for the subject, at the level of its functions or of
    ATen's, has a name holding one of `fragments` (case ignored: "softmax" catches
    torch.softmax, F.log_softmax, nn.Softmax, softmin and cross entropy, which all run
    _softmax or _log_softmax)."""
    return operation_rule("forbids_ops", rule_name, sorted(fragments), why)


def requires_ops(rule_name, fragments, why):
    """A rule: some call of the subject runs an operation holding one of `fragments`, and
    what it gives is used (changed, it changes the subject's output)."""
    return operation_rule("requires_ops", rule_name, sorted(fragments), why,
                          probe={"kind": "ops", "names": sorted(fragments)})


def forbids_autograd(rule_name, why):
    """A rule: no call of the subject walks an autograd graph or makes dual numbers."""
    return operation_rule("forbids_autograd", rule_name, [], why)


def costs_one_pass(rule_name, why, inputs, at, scores=None):
    """A rule: on the calls whose `inputs` have the shapes `at` (give the step a case of those
    shapes, and its public test a call of them), torch's operations read and make at most
    32 times the numbers of the forward pass (the tensors at the positions `inputs`, and with
    `scores`, the [queries, keys, values] positions, the products behind the scores and the
    output), and no call hands numbers out of torch (numpy, tolist, a print, item() for more
    than a quarter of them): a gradient from the chain rule, not from differences of the
    loss or a whole Jacobian."""
    return operation_rule("costs_one_pass", rule_name, {
        "inputs": list(inputs), "scores": list(scores) if scores else None,
        "at": [list(sizes) for sizes in at]},
        why)


def enters(rule_name, name, why, per=None):
    """A rule: the subject enters `name` (an earlier step, or a function of the notebook):
    once in all, or, with `per`, in every call at least once for each query (`per`: the
    (argument, dim) where the queries are), or for each pair of a query and a key (`per`:
    the queries' place, then the keys'), each call's result used."""
    if per and isinstance(per[0], int):
        per = (per,)
    params = {"name": name, "per": [list(place) for place in per] if per else None}
    return operation_rule("enters", rule_name, params, why, counted=(name,),
                          probe={"kind": "stand_in", "name": name, "per": params["per"]})


def forbids_entering(rule_name, names, why):
    """A rule: the subject never enters any of `names` (functions of the notebook)."""
    return operation_rule("forbids_entering", rule_name, sorted(names), why,
                          counted=tuple(sorted(names)))


def rewritten(code, *replacements, what="the reference"):
    """`code` (a reference's source) with each (old, new) piece replaced: a mistake written as
    the reference with some pieces wrong. A piece the code no longer holds stops the checks'
    import, naming it, instead of leaving a mistake that is the reference itself."""
    for old, new in replacements:
        if old not in code:
            raise ValueError(f"{what} no longer contains {old!r}")
        code = code.replace(old, new)
    return code


def forbids_names(rule_name, forbidden, why):
    """A rule: the code may not mention any of `forbidden` (names, attributes, imports)."""
    return code_rule("forbids_names", rule_name, forbidden, why)


def forbids_builtins(rule_name, fragments, why):
    """A rule: the code may not mention a name of the libraries that contains any of
    `fragments` (case ignored: `softmax` catches torch.softmax, F.log_softmax, nn.Softmax,
    torch._softmax ...); names the student's code defines itself are its own, but not an
    attribute of a library (`torch.softmax` beside the student's own `softmax`). A fragment
    with a dot (`.layer_norm`) is looked for in a library's dotted names only (F.layer_norm,
    torch.layer_norm), so that it never catches the course's or the student's `layer_norm`."""
    return code_rule("forbids_builtins", rule_name, fragments, why)


def requires_names(rule_name, needed, why):
    """A rule: the code must call one of `needed` (torch.bmm ...), and what that torch
    function gives is used (changed, it changes the subject's output)."""
    return code_rule("requires_names", rule_name, needed, why,
                     probe={"kind": "ops", "names": sorted(needed), "level": "fn"})


def forbids_loops(rule_name):
    """A rule: the code has no Python loop (code_rules.python_loop says which count), its
    text saying each."""
    return code_rule("forbids_loops", rule_name, (), (
        "write it with tensor operations: no for or while loop, comprehension, map, filter, "
        "reduce, key= function or iter(function, sentinel), no function or lambda that calls "
        "itself, and no class of your own whose objects a loop walks (__iter__, __next__, "
        "__getitem__)"))


def same_work(rule_name, walked):
    """A rule: a call runs as many of torch's operations whatever the sizes in `walked`
    ([argument, dim, what] each, `what` a key of operation_rules.WALKED: "query", "position",
    "head"), as tensor operations do. It catches the loops a text hides (a
    library that calls the student's code once per element) by what they run; give the
    step's public test calls of three such sizes, so that the notebook decides it too."""
    return operation_rule("same_work", rule_name, [list(place) for place in walked], (
        "a loop, however it is written (for, while, a library that calls your code once per "
        "element), runs its operations once for each element; tensor operations do the whole "
        "at once"))


def requires_loop(rule_name, why):
    """A rule: the code has a Python loop (the step is the loop)."""
    return code_rule("requires_loop", rule_name, (), why)


def rows_sum_to_one(weights, dim=-1, what=None):
    """Assert that `weights` sum to 1 along `dim`; `what` names them (in the course's
    language), "weights" when None."""
    sums = weights.sum(dim=dim)
    assert torch.allclose(sums, torch.ones_like(sums), atol=TOLERANCE["atol"]), (
        t("the {what} along dim {dim} should sum to 1", what=t("weights") if what is None
          else what, dim=dim)
    )
