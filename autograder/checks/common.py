"""Pieces the step declarations share: random inputs, calls, rules and properties."""

from __future__ import annotations

import ast
import textwrap

import torch
import torch.nn.functional as F

from autograder.checks.compare import TOLERANCE
from autograder.checks.model import Rule


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


def stream(seed):
    """A private generator: the same numbers as the documents' torch.manual_seed(seed), with
    the global random state left alone."""
    return torch.Generator().manual_seed(seed)


def random_seed(gen):
    """A seed drawn from `gen`, for a case that builds a module under torch.manual_seed."""
    return int(torch.randint(2**31 - 1, (1,), generator=gen))


def future(n):
    """The causal mask written out here (True above the diagonal), so that no check trusts the
    student's."""
    return torch.ones(n, n, dtype=torch.bool).triu(diagonal=1)


def source_tree(subject):
    """The parsed source of a student's function or class (None when it has none)."""
    try:
        return ast.parse(textwrap.dedent(subject.source)) if subject.source else None
    except SyntaxError:
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


SOFTMAX_ENTRY_POINTS = [
    (torch, "softmax"),
    (torch, "log_softmax"),
    (torch.Tensor, "softmax"),
    (torch.Tensor, "log_softmax"),
    (F, "softmax"),
    (F, "log_softmax"),
    (torch.special, "softmax"),
]


def calls_during(subject, entry_points, run):
    """Which of the entry points `run()` calls while it uses `subject` (errors of the run
    itself are ignored)."""
    with subject.counting(entry_points) as calls:
        try:
            run()
        except Exception:  # noqa: BLE001 - only the calls matter here
            pass
    return list(calls)


def rows_sum_to_one(weights, dim=-1, what="weights"):
    sums = weights.sum(dim=dim)
    assert torch.allclose(sums, torch.ones_like(sums), atol=TOLERANCE["atol"]), (
        f"the {what} along dim {dim} should sum to 1"
    )
