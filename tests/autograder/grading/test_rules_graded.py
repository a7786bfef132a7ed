"""Graded end to end (real nbgrader, the kit's grade, real kernels): does a trick that
replaces a judged step with other code earn nothing, and does honest code arranged in ways
the old grader refused keep full marks?

The kernel-free catalogue (tests/autograder/checks/test_code_rules.py) holds many more of
each; these are the ones whose effect only shows where the student's kernel really runs:
code bound after the judged definition, a module shipped beside the notebook.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from autograder.course.directory import Course
from autograder.grading.parallel import grade, submission_scores
from autograder.tools import simulate
from tests.autograder.checks.test_operation_rules import EVASIONS, HONEST

ROOT = Path(__file__).resolve().parents[3]
BY_HAND, SELF = "01_attention_by_hand", "04_self_attention"
HEADS, SCORING = "05_multi_head", "06_scoring_functions"
BLOCK, GRADIENTS = "08_transformer_block", "09_gradients_and_memory"
IDS = (BY_HAND, SELF, HEADS, SCORING, BLOCK, GRADIENTS)
BUILTIN = "lambda scores, dim=-1: torch.softmax(scores, dim)"
WRONG_SOFTMAX = {"stable_softmax": "def stable_softmax(scores, dim=-1):\n    return scores\n"}
SHIPPED = ("import torch\n\ndef stable_softmax(scores, dim=-1):\n"
           "    return torch.softmax(scores, dim)\n")


def rebound(release, source):
    """stable_softmax wrong as judged, then rebound to the built-in through globals()."""
    notebook = simulate.fill(simulate.correct(release, source), WRONG_SOFTMAX)
    return simulate.after_cell(notebook, "stable_softmax",
                               f"globals()['stable_softmax'] = {BUILTIN}")


def shipped(release, source):
    """stable_softmax imported from a module handed in beside the notebook."""
    return simulate.fill(simulate.correct(release, source),
                         {"stable_softmax": "from mysoftmax import stable_softmax\n"})


def scratch_first(release, source):
    """A try-out with the built-in softmax before the answer written by hand."""
    notebook = simulate.correct(release, source)
    index = next(i for i, c in enumerate(notebook.cells)
                 if c.metadata.get("nbgrader", {}).get("grade_id") == "stable_softmax")
    cell = nbformat.v4.new_code_cell(f"stable_softmax = {BUILTIN}\nprint(stable_softmax("
                                     "torch.ones(3)))")
    cell.pop("id", None)
    notebook.cells.insert(index, cell)
    return notebook


def table_at_module_level(release, source):
    """self_attention reading a table a dict comprehension built once, at module level."""
    notebook = simulate.correct(release, source)
    return simulate.after_cell(notebook, "self_attention", (
        "ROOTS = {d: math.sqrt(d) for d in range(1, 257)}\n"
        "def self_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    return torch.softmax(q @ k.transpose(-2, -1) / ROOTS[k.shape[-1]], -1) @ v\n"))


def norm_built_in(release, source):
    """layer_norm by F.layer_norm (its rule broken); the block, which calls it, correct."""
    return simulate.fill(simulate.correct(release, source), {"layer_norm": (
        "def layer_norm(x, gamma, beta, eps=1e-5):\n"
        "    return F.layer_norm(x, x.shape[-1:], gamma, beta, eps)\n")})


def backward_by_importlib(release, source):
    """softmax_backward through importlib (no rule can read it); attention_backward, which
    calls it, correct."""
    return simulate.fill(simulate.correct(release, source), {"softmax_backward": (
        "import importlib\n\n"
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    ops = importlib.import_module('torch')\n"
        "    return weights * (grad_weights - ops.sum(grad_weights * weights, dim=dim, "
        "keepdim=True))\n")})


def kernel_in_torchs_library(release, source):
    """softmax_backward as an operation of its own, defined in a library torch made as it
    imported (export's) and run there, where nothing of its kernel is recorded (a helper's 7
    of 7 with differences inside); attention_backward, which calls it, correct, but the text
    it is judged with holds softmax_backward's and the registration it needs, which the
    guard refuses and notes there too (docs/not-done.md)."""
    return simulate.fill(simulate.correct(release, source), {"softmax_backward": (
        "LIBRARY = torch.export.custom_ops.lib\n\n"
        "def kernel(w, g, dim):\n"
        "    return w * (g - (w * g).sum(dim, keepdim=True))\n\n"
        "REFUSED = None\n"
        "try:\n"
        "    LIBRARY.define('kit_sbw(Tensor w, Tensor g, int dim) -> Tensor')\n"
        "    LIBRARY.impl('kit_sbw', kernel, 'CompositeExplicitAutograd')\n"
        "except Exception as error:\n"
        "    REFUSED = error\n\n"
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    if REFUSED is not None:\n"
        "        raise REFUSED\n"
        "    return torch.ops.export.kit_sbw(weights, grad_weights, dim)\n")})


SELF_ATTENTION = ("def self_attention(x, W_query, W_key, W_value):\n"
                  "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
                  "    scores = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])\n"
                  "    return torch.softmax(scores, dim=-1) @ v\n")


def decorated_doubling(release, source):
    """self_attention right by itself, under a decorator of the student's that doubles what
    it returns (the notebook's values are wrong)."""
    return simulate.fill(simulate.correct(release, source), {"self_attention": (
        "def doubled(f):\n    return lambda *args: 2 * f(*args)\n\n@doubled\n"
        + SELF_ATTENTION)})


def decorated_cache(release, source):
    """self_attention right, under functools.lru_cache."""
    return simulate.fill(simulate.correct(release, source), {"self_attention": (
        "import functools\n\n@functools.lru_cache(maxsize=None)\n" + SELF_ATTENTION)})


def half_the_queries(release, source):
    """loop_attention right by the matrix product, scaled_dot_score called for only half the
    queries (the rule asks one call per query; a call was once counted twice)."""
    return simulate.fill(simulate.correct(release, source), {"loop_attention": (
        "def loop_attention(X, W_Q, W_K, W_V):\n"
        "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
        "    scores = K.transpose(0, 1) @ Q / math.sqrt(K.shape[0])\n"
        "    for i in range((X.shape[1] + 1) // 2):\n"
        "        scores[i, i] = scaled_dot_score(K[:, i], Q[:, i])\n"
        "    return V @ torch.softmax(scores, dim=0)\n")})


def filled_with(name, label, table):
    """A correct notebook whose step `name` is the code of `label` in `table` (a student of
    tests/autograder/checks/test_operation_rules.py)."""
    def build(release, source):
        _, code, *_ = table[label]
        return simulate.fill(simulate.correct(release, source), {name: code})
    build.__doc__ = f"{name}: {label}"
    return build


def earlier_step_runs_the_autograd(release, source):
    """attention_backward running torch.autograd inside the student's own softmax_backward,
    reached through an alias (the grader's stand-in replaces only the name)."""
    return simulate.fill(simulate.correct(release, source), {
        "softmax_backward": (
            "def softmax_backward(weights, grad_weights, dim=-1, job=None):\n"
            "    if job is not None:\n"
            "        return job()\n"
            "    return weights * (grad_weights - (grad_weights * weights).sum(dim=dim, "
            "keepdim=True))\n"),
        "attention_backward": (
            "mine = softmax_backward\n\n"
            "def attention_backward(queries, keys, values, grad_context):\n"
            "    def job():\n"
            "        q, k, v = (t.detach().requires_grad_() for t in (queries, keys, values))\n"
            "        scores = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])\n"
            "        out = torch.softmax(scores, dim=-1) @ v\n"
            "        return torch.autograd.grad(out, (q, k, v), grad_context)\n"
            "    return tuple(g.detach() for g in mine(None, None, job=job))\n")})


def edited(name, *changes):
    """A correct notebook whose step `name` has each (old, new) of `changes` made in its
    solution."""
    def build(release, source):
        notebook = simulate.correct(release, source)
        text = simulate.solution_cells(source)[name]
        for old, new in changes:
            assert old in text, (name, old)
            text = text.replace(old, new)
        return simulate.fill(notebook, {name: text})
    build.__doc__ = f"{name}: {changes}"
    return build


# An earlier step taken in as a default value, where the definition runs (before grading
# binds its counted and stand-in functions): each call through it is still the step's.
SCORE_BY_DEFAULT = edited("loop_attention", ("def loop_attention(X, W_Q, W_K, W_V)",
                                             "def loop_attention(X, W_Q, W_K, W_V, "
                                             "score=scaled_dot_score)"),
                          ("scaled_dot_score(", "score("))
NORM_BY_DEFAULT = edited("TransformerBlock", ("def forward(self, x, attn_mask=None)",
                                              "def forward(self, x, attn_mask=None, *, "
                                              "norm=layer_norm, ff=feed_forward)"),
                         ("layer_norm(", "norm("), ("feed_forward(", "ff("))


SCORE_IN_A_TABLE = edited("loop_attention", ("def loop_attention(", "SCORES = {'scaled': "
                                             "scaled_dot_score}\n\ndef loop_attention("),
                          ("scaled_dot_score(", "SCORES['scaled']("))


def score_call_by_default(release, source):
    """vectorized_attention by matrix products, one score of which comes from a call of
    scaled_dot_score (forbidden), taken in as a default."""
    return simulate.fill(simulate.correct(release, source), {"vectorized_attention": (
        "def vectorized_attention(X, W_Q, W_K, W_V, s=scaled_dot_score):\n"
        "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
        "    scores = K.transpose(0, 1) @ Q / math.sqrt(K.shape[0])\n"
        "    scores[0, 0] = s(K[:, 0], Q[:, 0])\n"
        "    return V @ torch.softmax(scores, dim=0)\n")})


# An earlier step held deeper than a name: a closure's cell, a function's attribute, a tuple
# inside a table. Grading puts its counted function there too, as the notebook counts.
LOOP_BODY = ("        Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
             "        outputs = []\n"
             "        for i in range(X.shape[1]):\n"
             "            scores = torch.stack([SCORE(K[:, j], Q[:, i])\n"
             "                                  for j in range(X.shape[1])])\n"
             "            outputs.append(V @ torch.softmax(scores, dim=0))\n"
             "        return torch.stack(outputs, dim=1)\n")


def held_loop(text):
    """loop_attention by a loop, calling scaled_dot_score as `text` holds it."""
    def build(release, source):
        return simulate.fill(simulate.correct(release, source), {"loop_attention": text})
    build.__doc__ = text
    return build


SCORE_IN_A_CLOSURE = held_loop(
    "def attention_with(score):\n    def attend(X, W_Q, W_K, W_V):\n"
    + LOOP_BODY.replace("SCORE(", "score(") + "    return attend\n\n"
    "loop_attention = attention_with(scaled_dot_score)\n")
SCORE_AS_AN_ATTRIBUTE = held_loop(
    "def loop_attention(X, W_Q, W_K, W_V):\n"
    + LOOP_BODY.replace("SCORE(", "loop_attention.score(").replace("\n    ", "\n")[4:]
    + "\nloop_attention.score = scaled_dot_score\n")
SCORE_IN_A_NESTED_TUPLE = held_loop(
    "SCORES = {'scaled': (scaled_dot_score, 'k . q / sqrt(d)')}\n\n"
    "def loop_attention(X, W_Q, W_K, W_V):\n"
    + LOOP_BODY.replace("SCORE(", "SCORES['scaled'][0](").replace("\n    ", "\n")[4:])


def score_call_in_a_closure(release, source):
    """vectorized_attention by matrix products, one score of which comes from a call of
    scaled_dot_score (forbidden), held in a closure's cell."""
    return simulate.fill(simulate.correct(release, source), {"vectorized_attention": (
        "def made(s):\n"
        "    def attend(X, W_Q, W_K, W_V):\n"
        "        Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
        "        scores = K.transpose(0, 1) @ Q / math.sqrt(K.shape[0])\n"
        "        scores[0, 0] = s(K[:, 0], Q[:, 0])\n"
        "        return V @ torch.softmax(scores, dim=0)\n"
        "    return attend\n\n"
        "vectorized_attention = made(scaled_dot_score)\n")})


def softmax_from_a_table(release, source):
    """stable_softmax by hand, its exponential filed in a table by a decorator of the
    student's (the table is filled when the decorated definition runs)."""
    return simulate.fill(simulate.correct(release, source), {"stable_softmax": (
        "PARTS = {}\n\ndef part(f):\n    PARTS[f.__name__] = f\n    return f\n\n"
        "@part\ndef shifted_exp(scores, dim):\n"
        "    return torch.exp(scores - scores.amax(dim=dim, keepdim=True))\n\n"
        "def stable_softmax(scores, dim=-1):\n"
        "    e = PARTS['shifted_exp'](scores, dim)\n"
        "    return e / e.sum(dim=dim, keepdim=True)\n")})


def heads_by_a_class(release, source):
    """multihead_project looping over the heads through a class's __class_getitem__ and a
    class attribute: a probe's change of the guard was still unsent when its rule broke, and
    (2026-12-05) the next step's new judging kernel read it as forged."""
    return simulate.fill(simulate.correct(release, source), {"multihead_project": (
        "class Heads:\n    def __class_getitem__(cls, w):\n        return cls.x @ w.T\n\n"
        "def multihead_project(x, W):\n    Heads.x = x\n"
        "    return torch.stack(list(map(Heads.__class_getitem__, W)))\n")})


# student -> (assignment, build, steps that must score 0 (all others full))
CASES = {
    "rebound": (BY_HAND, rebound, {"stable_softmax"}),
    "shipped": (BY_HAND, shipped, {"stable_softmax"}),
    "scratch": (BY_HAND, scratch_first, set()),
    "table": (SELF, table_at_module_level, set()),
    # a step's decorators run when it is graded, as they ran in the notebook
    "doubled": (SELF, decorated_doubling, {"self_attention"}),
    "cached": (SELF, decorated_cache, set()),
    "table_of_parts": (BY_HAND, softmax_from_a_table, set()),
    # an earlier step a rule counts is counted once a call, its stand-in answering
    "half": (SCORING, half_the_queries, {"loop_attention"}),
    "score_default": (SCORING, SCORE_BY_DEFAULT, set()),
    "call_default": (SCORING, score_call_by_default, {"vectorized_attention"}),
    "score_table": (SCORING, SCORE_IN_A_TABLE, set()),
    "norm_default": (BLOCK, NORM_BY_DEFAULT, set()),
    "score_closure": (SCORING, SCORE_IN_A_CLOSURE, set()),
    "score_attribute": (SCORING, SCORE_AS_AN_ATTRIBUTE, set()),
    "score_nested": (SCORING, SCORE_IN_A_NESTED_TUPLE, set()),
    "call_closure": (SCORING, score_call_in_a_closure, {"vectorized_attention"}),
    # a rule broken in an earlier step costs that step, not the later one that uses it
    "norm": (BLOCK, norm_built_in, {"layer_norm"}),
    "heads_class": (HEADS, heads_by_a_class, {"multihead_project"}),
    "backward": (GRADIENTS, backward_by_importlib, {"softmax_backward"}),
    # rules decided on what the code computes in the kernel, not on the names it mentions
    "instance_norm": (BLOCK, filled_with("layer_norm", "layer_norm through F.instance_norm",
                                         EVASIONS), {"layer_norm"}),
    "kept_attention": (BLOCK, filled_with("TransformerBlock", "a block keeping torch's "
                                          "MultiheadAttention", EVASIONS), {"TransformerBlock"}),
    "quantizable_attention": (BLOCK, filled_with("TransformerBlock", "a block running "
                                                 "torch.ao's quantizable attention", EVASIONS),
                              {"TransformerBlock"}),
    "layernorm1": (BLOCK, filled_with("TransformerBlock", "a block whose norm parameters are "
                                      "named layernorm1 and layernorm2", HONEST), set()),
    "functorch": (GRADIENTS, filled_with("softmax_backward", "softmax_backward through "
                                         "torch._functorch.apis.grad", EVASIONS),
                  {"softmax_backward"}),
    "jacobian": (GRADIENTS, filled_with("softmax_backward", "a gradient by the chain rule kept "
                                        "in a variable named jacobian", HONEST), set()),
    "assert_close": (GRADIENTS, filled_with("softmax_backward", "softmax_backward checking its "
                                            "weights with torch.testing.assert_close", HONEST),
                     set()),
    # the numbers the kernel's operations made, counted by its guard
    "differences": (GRADIENTS, filled_with("softmax_backward", "softmax_backward by central "
                                           "differences, a column at a time", EVASIONS),
                    {"softmax_backward"}),
    "attention_differences": (GRADIENTS, filled_with("attention_backward", "attention_backward by "
                                                 "central differences, every entry at once",
                                                 EVASIONS), {"attention_backward"}),
    "whole_scores": (GRADIENTS, filled_with("online_attention", "online_attention scoring "
                                            "every key at once, then looping over value "
                                            "blocks", EVASIONS), {"online_attention"}),
    "alias_job": (GRADIENTS, earlier_step_runs_the_autograd, {"attention_backward"}),
    "own_kernel": (GRADIENTS, kernel_in_torchs_library,
                   {"softmax_backward", "attention_backward"}),
    "row_mask": (GRADIENTS, filled_with("cached_causal_attention", "cached attention masking "
                                        "each row in a loop", EVASIONS),
                 {"cached_causal_attention"}),
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    course = Course.create(tmp_path_factory.mktemp("rules"), ROOT, list(IDS))
    for assignment_id in IDS:
        course.generate(assignment_id)
    for student, (assignment_id, build, _) in CASES.items():
        release = nbformat.read(course.root / "release" / assignment_id /
                                f"{assignment_id}.ipynb", 4)
        source = nbformat.read(ROOT / "source" / assignment_id / f"{assignment_id}.ipynb", 4)
        course.submit(student, assignment_id, build(release, source))
    (course.root / "submitted" / "shipped" / BY_HAND / "mysoftmax.py").write_text(SHIPPED)
    run = grade(course.root, list(IDS), workers=2, log=lambda _: None)
    return course, run


@pytest.mark.parametrize("student", CASES)
def test_each_step_scores_what_its_judged_code_earns(graded, student):
    """Is the step whose judged code differs from the trick's at 0, and every other step
    (and every honest arrangement) at full marks?"""
    course, run = graded
    assignment_id, _, lost = CASES[student]
    assert not run.failed, run.failed
    scores = submission_scores(course.root, assignment_id, student)
    assert scores, f"{student} was not graded"
    for grade_id, (score, most) in scores.items():
        step = grade_id.removeprefix("test_")
        assert score == (0 if step in lost else most), (student, grade_id, score, most)


def test_the_student_reads_why(graded):
    """Does the shipped module's student read, under the step's test, that its code is not
    judged and what to do?"""
    course, _ = graded
    notebook = nbformat.read(course.root / "autograded" / "shipped" / BY_HAND /
                             f"{BY_HAND}.ipynb", 4)
    cell = next(c for c in notebook.cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == "test_stable_softmax")
    text = " ".join(str(o.get("evalue", "")) + str(o.get("text", "")) for o in cell.outputs)
    assert "imports mysoftmax" in text and "put that code in the notebook" in text, text
