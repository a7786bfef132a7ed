"""Pieces the step declarations share: random inputs, calls, rules and properties."""

from __future__ import annotations

import ast
import inspect
import textwrap
from contextlib import contextmanager

import torch
import torch.nn.functional as F

from autograder.checks.model import Rule
from autograder.sandbox.agent import call_seeded
from autograder.sandbox.link import WATCH, Remote


def sizes(gen, count, low=2, high=9):
    """`count` distinct sizes in [low, high], so no two dimensions can be confused."""
    order = torch.randperm(high - low + 1, generator=gen)[:count]
    return [low + int(i) for i in order]


def randn(gen, *shape):
    return torch.randn(*shape, generator=gen)


def calling(*args, **kwargs):
    """A case's run: call the subject on fresh copies of the arguments (student code may
    change its inputs in place; the reference must not see that)."""

    def run(subject):
        copies = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
        return subject(*copies, **kwargs)

    return run


def calling_then(pick, *args):
    """A case's run: call the subject on fresh copies of args, then `pick` from the result."""

    def run(subject):
        return pick(subject(*[a.clone() for a in args]))

    return run


def whole(result):
    return result


def seeded(subject, seed, *args, burn=0):
    """subject(*args) under torch.manual_seed(seed), after `burn` other random draws, leaving
    the caller's random state as it was; in the student's kernel when the subject is there."""
    if isinstance(subject, Remote):
        return subject.seeded(seed, *args, burn=burn)
    return call_seeded(subject, seed, burn, *args)


def source_tree(subject):
    """The parsed source of a student's function or class (None when it has none)."""
    try:
        source = subject.source if isinstance(subject, Remote) else inspect.getsource(subject)
        return ast.parse(textwrap.dedent(source))
    except (OSError, TypeError, SyntaxError):
        return None


def attribute_names(tree):
    """Every name and attribute name a piece of code mentions."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Name):
            names.add(node.id)
    return names


def forbids_names(rule_name, forbidden, why):
    """A rule: the subject's code may not mention any of `forbidden`."""

    def violation(subject):
        tree = source_tree(subject)
        if tree is None:
            return None
        used = sorted(attribute_names(tree) & set(forbidden))
        return f"{rule_name}: uses {', '.join(used)} ({why})" if used else None

    return Rule(rule_name, violation)


LOOP_NODES = (ast.For, ast.While, ast.AsyncFor, ast.ListComp, ast.SetComp, ast.DictComp,
              ast.GeneratorExp)


def forbids_loops(rule_name):
    """A rule: the subject's code has no Python loop and no comprehension."""

    def violation(subject):
        tree = source_tree(subject)
        if tree is None:
            return None
        loops = [type(n).__name__ for n in ast.walk(tree) if isinstance(n, LOOP_NODES)]
        return f"{rule_name}: found a Python loop ({loops[0]})" if loops else None

    return Rule(rule_name, violation)


@contextmanager
def watching(owner, attribute, calls):
    """Count the calls of owner.attribute (e.g. torch.softmax) while the block runs."""
    original = getattr(owner, attribute)

    def counted(*args, **kwargs):
        calls.append(attribute)
        return original(*args, **kwargs)

    setattr(owner, attribute, counted)
    try:
        yield
    finally:
        setattr(owner, attribute, original)


SOFTMAX_ENTRY_POINTS = [
    (torch, "softmax"),
    (torch, "log_softmax"),
    (torch.Tensor, "softmax"),
    (torch.Tensor, "log_softmax"),
    (F, "softmax"),
    (F, "log_softmax"),
    (torch.special, "softmax"),
]


def dotted(owner, attribute):
    """(torch.Tensor, "softmax") -> "torch.Tensor.softmax"."""
    prefix = owner.__name__ if inspect.ismodule(owner) else \
        f"{owner.__module__}.{owner.__qualname__}"
    return f"{prefix}.{attribute}"


def calls_during(entry_points, run):
    """Which of the entry points `run()` calls (errors of the run itself are ignored). In the
    student's kernel the agent counts them and reports them with each reply."""
    calls = []
    token = WATCH.set(([dotted(*point) for point in entry_points], calls))
    try:
        _run_watched(entry_points, run, calls)
    finally:
        WATCH.reset(token)
    return calls


def _run_watched(entry_points, run, calls):
    with _watching_all(entry_points, calls):
        try:
            run()
        except Exception:  # noqa: BLE001 - only the calls matter here
            pass
    return calls


@contextmanager
def _watching_all(entry_points, calls):
    if not entry_points:
        yield
        return
    (owner, attribute), *rest = entry_points
    with watching(owner, attribute, calls), _watching_all(rest, calls):
        yield


def rows_sum_to_one(weights, dim=-1, what="weights"):
    sums = weights.sum(dim=dim)
    assert torch.allclose(sums, torch.ones_like(sums), atol=1e-4), (
        f"the {what} along dim {dim} should sum to 1"
    )
