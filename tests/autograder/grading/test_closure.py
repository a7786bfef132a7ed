"""Are a step's rules decided on all the code it runs, as the grader reads it from the
notebook, so that no helper, alias, rebinding or dynamic call hides a forbidden shortcut, and
honest code around it costs nothing?

No kernel: the cells are strings, the closure is computed as grading computes it, and the
step's real rules judge it."""

from __future__ import annotations

import pytest

from autograder.checks.subject import LocalSubject
from autograder.grading.closure import closure
from tests.course import STEPS

SETUP = "import math\nimport torch\nimport torch.nn.functional as F\nfrom torch import nn"


def broken_rules(step_name, *cells):
    """The violations of the step's rules on the notebook made of these student cells."""
    step = STEPS[step_name]
    code = closure([SETUP, *cells], step_name) or ""  # "": no code found (not the reference's)
    subject = LocalSubject(step.reference, source=code)
    return [v for rule in step.rules if (v := rule.violation(subject))]


HONEST_SOFTMAX = """
def stable_softmax(scores, dim=-1):
    shifted = scores - scores.max(dim=dim, keepdim=True).values
    e = torch.exp(shifted)
    return e / e.sum(dim=dim, keepdim=True)
"""

SOFTMAX_SHORTCUTS = {
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
        HONEST_SOFTMAX, "def stable_softmax(scores, dim=-1):\n    return scores.softmax(dim)"),
    "a distribution": (
        "def stable_softmax(scores, dim=-1):\n"
        "    return torch.distributions.Categorical(logits=scores).probs",),
    "a module": ("def stable_softmax(scores, dim=-1):\n    return nn.Softmax(dim)(scores)",),
}


@pytest.mark.parametrize("cells", SOFTMAX_SHORTCUTS.values(), ids=SOFTMAX_SHORTCUTS.keys())
def test_a_hidden_builtin_softmax_breaks_the_rule(cells):
    """Is torch's softmax found wherever the step's code reaches it?"""
    broken = broken_rules("stable_softmax", *cells)
    assert broken and "no built-in softmax" in broken[0], broken


DYNAMIC = {
    "getattr with a computed name": "def stable_softmax(scores, dim=-1):\n"
                                    "    return getattr(torch, 'soft' + 'max')(scores, dim)",
    "eval": "def stable_softmax(scores, dim=-1):\n"
            "    return eval('torch.soft' + 'max')(scores, dim)",
    "globals": "def stable_softmax(scores, dim=-1):\n"
               "    return globals()['tor' + 'ch'].softmax(scores, dim)",
}


@pytest.mark.parametrize("cell", DYNAMIC.values(), ids=DYNAMIC.keys())
def test_code_the_grader_cannot_follow_loses_the_rule(cell):
    """When the code decides at run time what it calls, does the step lose the rule, with a
    message that says the grader could not verify it?"""
    broken = broken_rules("stable_softmax", cell)
    assert broken and "cannot verify" in broken[0], broken


def test_honest_code_around_the_step_costs_nothing():
    """Do a softmax written by hand, a plotting cell that uses torch.softmax, and a scratch
    loop elsewhere in the notebook break no rule?"""
    scratch = "weights = torch.softmax(torch.randn(3, 3), dim=-1)\nfor i in range(3):\n" \
              "    print(weights[i])"
    assert broken_rules("stable_softmax", scratch, HONEST_SOFTMAX, scratch) == []


def test_a_step_defined_by_no_readable_code_loses_its_rules():
    """Is a step the grader finds no definition of (made by exec, say) judged unverifiable?"""
    broken = broken_rules("stable_softmax", "exec(open('answer.py').read())")
    assert broken and "cannot find the code" in broken[0]


LOOPS = {
    "a helper with a loop": (
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
}


@pytest.mark.parametrize("cells", LOOPS.values(), ids=LOOPS.keys())
def test_a_hidden_python_loop_breaks_the_rule(cells):
    """Is a loop over queries found in a helper, or in map, of a step that forbids loops?"""
    broken = broken_rules("self_attention", *cells)
    assert broken and "Python loop" in broken[0], broken


def test_one_batched_product_is_required_where_the_code_is():
    """Does multihead_project's torch.bmm count when a helper calls it, and is its absence
    a broken rule?"""
    helper = "def batched(a, b):\n    return torch.bmm(a, b)"
    uses_helper = ("def multihead_project(x, W):\n"
                   "    return batched(W, x.T.repeat(W.shape[0], 1, 1)).transpose(1, 2)")
    assert broken_rules("multihead_project", helper, uses_helper) == []
    no_bmm = "def multihead_project(x, W):\n    return (W @ x.T).transpose(1, 2)"
    assert any("torch.bmm" in v or "bmm" in v for v in broken_rules("multihead_project", no_bmm))


def test_builtin_multihead_attention_is_found_in_a_helper():
    """Is PyTorch's multi-head attention found when a helper builds and calls it?"""
    helper = ("def theirs(E, h):\n    return torch.nn.MultiheadAttention(E, h)")
    module = ("class MultiHeadAttention(nn.Module):\n"
              "    def __init__(self, embed_dim, num_heads):\n"
              "        super().__init__()\n"
              "        self.inner = theirs(embed_dim, num_heads)\n"
              "    def forward(self, query, key, value, key_padding_mask=None, attn_mask=None):\n"
              "        return self.inner(query, key, value)")
    broken = broken_rules("MultiHeadAttention", helper, module)
    assert broken and "no built-in multi-head attention" in broken[0], broken
