"""Pieces the step declarations share: random inputs, calls, rules and properties.

Rules are decided on the code the grader reads (`subject.source`: in grading, the step's
definition with every helper it uses, autograder/grading/closure.py), never from a count made
while the code runs."""

from __future__ import annotations

import ast
import textwrap

import torch

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
    """Every name, attribute name and imported name a piece of code mentions."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.alias):
            names.update(node.name.split("."))
    return names


def own_names(tree):
    """The names the code itself defines: functions, classes, parameters, variables."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


# Code the grader cannot follow: what it calls is decided at run time.
DYNAMIC_CALLS = {"exec", "eval", "compile", "__import__", "globals", "locals", "vars",
                 "get_ipython", "attrgetter", "methodcaller", "import_module"}
DYNAMIC_NAMES = {"__dict__", "__builtins__", "builtins", "importlib", "__getattribute__",
                 "modules", "__class__", "__globals__", "__code__"}


def unverifiable(tree):
    """Why the grader cannot tell from this code what it calls (None when it can)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in DYNAMIC_CALLS:
                return f"it calls {name}()"
            if name in {"getattr", "setattr", "delattr"} and not (
                    len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)):
                return f"it calls {name}() with a name computed at run time"
        elif isinstance(node, ast.Attribute) and node.attr in DYNAMIC_NAMES:
            return f"it uses {node.attr}"
        elif isinstance(node, ast.Name) and node.id in DYNAMIC_NAMES:
            return f"it uses {node.id}"
        elif isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return "it imports * from a module"
    return None


def rule(rule_name, why, judge):
    """A rule decided on the subject's code (its definition and every helper it uses): the
    step loses it when the code breaks it, when there is no code to read, or when the code
    decides at run time what it calls (the grader could not verify it)."""

    def violation(subject):
        tree = source_tree(subject)
        if tree is None:
            return (f"{rule_name}: the grader cannot find the code that defines it, so it "
                    f"cannot verify this rule ({why}); define it with def or class")
        dynamic = unverifiable(tree)
        if dynamic:
            return (f"{rule_name}: the grader cannot verify this rule because {dynamic} "
                    f"({why}); call what you need by name")
        broken = judge(tree)
        return f"{rule_name}: {broken} ({why})" if broken else None

    return Rule(rule_name, violation)


def forbids_names(rule_name, forbidden, why):
    """A rule: the code may not mention any of `forbidden` (names, attributes, imports)."""

    def judge(tree):
        used = sorted(attribute_names(tree) & set(forbidden))
        return f"uses {', '.join(used)}" if used else None

    return rule(rule_name, why, judge)


def forbids_builtins(rule_name, fragments, why):
    """A rule: the code may not mention a name of the libraries that contains any of
    `fragments` (case ignored: `softmax` catches torch.softmax, F.log_softmax, nn.Softmax,
    torch._softmax ...); names the student's code defines itself are its own."""

    def judge(tree):
        theirs = own_names(tree)
        used = sorted(n for n in attribute_names(tree) - theirs
                      if any(f in n.lower() for f in fragments))
        return f"uses {', '.join(used)}" if used else None

    return rule(rule_name, why, judge)


def requires_names(rule_name, needed, why):
    """A rule: the code must use one of `needed` (torch.bmm ...)."""

    def judge(tree):
        if attribute_names(tree) & set(needed):
            return None
        return f"does not use {' or '.join(sorted(needed))}"

    return rule(rule_name, why, judge)


LOOP_NODES = (ast.For, ast.While, ast.AsyncFor, ast.ListComp, ast.SetComp, ast.DictComp,
              ast.GeneratorExp)
LOOP_CALLS = {"map", "filter", "reduce", "starmap", "accumulate"}


def python_loop(tree):
    """The first Python loop of the code (a statement, a comprehension or map/filter/reduce),
    or None."""
    for node in ast.walk(tree):
        if isinstance(node, LOOP_NODES):
            return type(node).__name__
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in LOOP_CALLS:
                return f"{name}()"
    return None


def forbids_loops(rule_name):
    """A rule: the code has no Python loop, no comprehension and no map/filter/reduce."""

    def judge(tree):
        loop = python_loop(tree)
        return f"found a Python loop ({loop})" if loop else None

    return rule(rule_name, "write it with tensor operations", judge)


def rows_sum_to_one(weights, dim=-1, what="weights"):
    sums = weights.sum(dim=dim)
    assert torch.allclose(sums, torch.ones_like(sums), atol=TOLERANCE["atol"]), (
        f"the {what} along dim {dim} should sum to 1"
    )
