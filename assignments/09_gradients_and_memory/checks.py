"""Hidden checks of 09_gradients_and_memory: softmax and attention differentiated by hand,
attention read a block of keys at a time (the online softmax), and decoding with a key/value
cache.

No document prints these steps, so they have no document cases: the gradients are compared
with torch.autograd and with finite differences in float64, the two attentions with
torch.nn.functional.scaled_dot_product_attention (is_causal for the cache), all on fresh
random inputs with distinct sizes and leading batch dimensions.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from autograder.checks.common import (
    calling,
    costs_one_pass,
    forbids_autograd,
    forbids_ops,
    operation_rule,
    randn,
    sizes,
)
from autograder.checks.compare import close
from autograder.checks.model import Case, Mistake, Similar, Step
from autograder.checks.probes import MIN_SEQ
from autograder.i18n import t

from . import reference

# Decided on what runs: an autograd graph walked, dual numbers made, or one of torch's
# backward kernels (_softmax_backward_data) called (checks/operation_rules.py).
AUTOGRAD = ("no autograd", "write the gradient from the chain rule yourself; torch.autograd "
            "is what it is checked against")
# Decided on what runs: the numbers torch's operations made in each call, against those of
# its forward pass (differences of the loss make them again for every entry moved), and no
# numbers handed out of torch, where that work could not be counted.
ONE_PASS = ("about one forward pass, in torch",
            "the chain rule gives the gradient for a few times the work of the forward pass, "
            "with torch's operations on whole tensors; differences of the loss, one entry at a "
            "time, or a whole Jacobian cost many times more")
# The shapes of the inputs the rule judges its work on (weights and grad_weights; queries,
# keys, values, grad_context), in a hidden case and in the public test alike.
SOFTMAX_AT = (4, 256)
ATTENTION_AT = ((8, 4), (256, 4), (256, 6), (8, 6))
EPS = 1e-6  # the step of the central differences, in float64
# REFERENCE_GRADIENT: autograd's gradient of y given the upstream g is taken as that of
# sum(y * g), the same numbers (the product's gradient is 1 * g, exactly g): given a tensor,
# backward imports torch's symbolic shapes and sympy, about 1 CPU s in each grading worker.


def randn64(gen, *shape, scale=1.0):
    return scale * torch.randn(*shape, generator=gen, dtype=torch.float64)


def same_dtype(got, want, what):
    assert isinstance(got, torch.Tensor) and got.dtype == want.dtype, t(
        "{what}: the dtype should be {dtype}, that of the inputs", what=what, dtype=want.dtype)
    close(got, want, what)


# softmax_backward ------------------------------------------------------------------------


def softmax_inputs(gen, shape, dim, dtype=torch.float64):
    scores = 2 * torch.randn(*shape, generator=gen, dtype=dtype)
    return torch.softmax(scores, dim=dim), torch.randn(*shape, generator=gen, dtype=dtype)


def softmax_backward_random(gen):
    batch, n_query, n_key = sizes(gen, 3)
    cases = [Case(t("float64 weights of {batch} sequences ({n_query} queries, {n_key} keys), "
                    "dim = -1", batch=batch, n_query=n_query, n_key=n_key),
                  calling(*softmax_inputs(gen, (batch, n_query, n_key), -1), dim=-1))]
    n_query, n_key = sizes(gen, 2)
    cases.append(Case(t("float32 weights ({n_query}, {n_key}) normalised along dim = 0",
                        n_query=n_query, n_key=n_key),
                      calling(*softmax_inputs(gen, (n_query, n_key), 0, torch.float32), dim=0)))
    shape = tuple(sizes(gen, 3))
    cases.append(Case(t("float64 weights of shape {shape} normalised along dim = 1",
                        shape=shape), calling(*softmax_inputs(gen, shape, 1), dim=1)))
    (n_key,) = sizes(gen, 1)
    cases.append(Case(t("one query's weights over {n_key} keys (1-D)", n_key=n_key),
                      calling(*softmax_inputs(gen, (n_key,), -1, torch.float32))))
    # the shapes the rule on work is judged on, the same for every student: differences of the
    # loss, a column at a time, do the forward pass again for each of 256 columns
    cases.append(Case(t("float64 weights of {rows} queries over {n_key} keys (the rule's "
                        "shapes)", rows=SOFTMAX_AT[0], n_key=SOFTMAX_AT[1]),
                      calling(*softmax_inputs(gen, SOFTMAX_AT, -1), dim=-1)))
    # one larger, its shape and dim drawn for each student: the rule judges every call at
    # least as large, so that no code can tell the calls it is judged on by their shapes (the
    # dim normalised as long as the rule's, where differences of the loss cost the most)
    shape = sizes(gen, 2, high=3)  # (2, 3) or (3, 2): 6 rows, more than the rule's 4
    (n_key,) = sizes(gen, 1, low=SOFTMAX_AT[1] + 1, high=SOFTMAX_AT[1] + 32)
    dim = int(torch.randint(3, (1,), generator=gen))
    shape.insert(dim, n_key)
    cases.append(Case(t("float64 weights of shape {shape} normalised along dim = {dim} "
                        "(larger than the rule's shapes)", shape=tuple(shape), dim=dim),
                      calling(*softmax_inputs(gen, shape, dim), dim=dim)))
    return cases


def softmax_equals_autograd(subject, gen):
    """The gradient matches torch.autograd's."""
    shape = tuple(sizes(gen, 3))
    for dim in (-1, 0, -2):
        scores = randn64(gen, *shape, scale=2.0).requires_grad_()
        grad_weights = randn64(gen, *shape)
        weights = torch.softmax(scores, dim=dim)
        (weights * grad_weights).sum().backward()  # REFERENCE_GRADIENT
        got = subject(weights.detach().clone(), grad_weights.clone(), dim=dim)
        same_dtype(got, scores.grad, t("along dim = {dim}, the gradient should equal "
                                       "torch.autograd's", dim=dim))


def softmax_equals_finite_differences(subject, gen):
    """The gradient predicts how the loss changes when the scores move a little."""
    n_query, n_key = sizes(gen, 2)
    scores, grad_weights = randn64(gen, n_query, n_key), randn64(gen, n_query, n_key)
    direction = randn64(gen, n_query, n_key)

    def loss(shift):
        return (torch.softmax(scores + shift * direction, dim=-1) * grad_weights).sum()

    numeric = (loss(EPS) - loss(-EPS)) / (2 * EPS)
    got = subject(torch.softmax(scores, dim=-1), grad_weights.clone())
    assert isinstance(got, torch.Tensor) and got.shape == scores.shape, t(
        "the gradient should have the shape of the weights")
    assert torch.allclose((got.double() * direction).sum(), numeric, rtol=1e-5, atol=1e-7), t(
        "the gradient should predict how the loss changes when the scores move a little "
        "(a finite difference in float64)")


def softmax_gradient_sums_to_zero(subject, gen):
    """The gradient sums to 0 along the softmax's dimension."""
    shape = tuple(sizes(gen, 3))
    weights, grad_weights = softmax_inputs(gen, shape, 1)
    got = subject(weights, grad_weights, dim=1)
    assert isinstance(got, torch.Tensor) and got.shape == shape, t(
        "the gradient should have the shape of the weights")
    sums = got.sum(dim=1)
    assert torch.allclose(sums, torch.zeros_like(sums), atol=1e-9), t(
        "adding a constant to the scores changes no weight, so the gradient should sum to 0 "
        "along dim")


SOFTMAX_BACKWARD = Step(
    name="softmax_backward",
    reference=reference.softmax_backward,
    random_cases=softmax_backward_random,
    properties=(softmax_equals_autograd, softmax_equals_finite_differences,
                softmax_gradient_sums_to_zero),
    rules=(forbids_autograd(*AUTOGRAD),
           costs_one_pass(*ONE_PASS, inputs=(0, 1), at=(SOFTMAX_AT,) * 2)),
    mistakes=(
        Mistake(
            "weighted sum not subtracted",
            "every weight depends on every score: subtract sum(grad_weights * weights) "
            "along dim before multiplying by the weights",
            "def softmax_backward(weights, grad_weights, dim=-1):\n"
            "    return weights * grad_weights\n",
        ),
        Mistake(
            "weights not multiplied in front",
            "the Jacobian's row j carries the factor weights[j]: multiply the bracket by the "
            "weights",
            "def softmax_backward(weights, grad_weights, dim=-1):\n"
            "    return grad_weights - (grad_weights * weights).sum(dim=dim, keepdim=True)\n",
        ),
        Mistake(
            "grad_weights summed without the weights",
            "the term to subtract is the weighted sum sum(grad_weights * weights), not the "
            "plain sum of grad_weights",
            "def softmax_backward(weights, grad_weights, dim=-1):\n"
            "    return weights * (grad_weights - grad_weights.sum(dim=dim, keepdim=True))\n",
        ),
        Mistake(
            "sum over the last dim whatever dim says",
            "the softmax normalised along dim: sum along that same dim (keepdim=True)",
            "def softmax_backward(weights, grad_weights, dim=-1):\n"
            "    weighted = (grad_weights * weights).sum(dim=-1, keepdim=True)\n"
            "    return weights * (grad_weights - weighted)\n",
        ),
        Mistake(
            "sum over every entry",
            "each softmax (each slice along dim) has its own weighted sum: sum along dim "
            "only, with keepdim=True",
            "def softmax_backward(weights, grad_weights, dim=-1):\n"
            "    return weights * (grad_weights - (grad_weights * weights).sum())\n",
        ),
    ),
)

# attention_backward ----------------------------------------------------------------------


def attention_inputs(gen, lead=(), dtype=torch.float64):
    """queries (..., n_q, d_k), keys (..., n_k, d_k), values (..., n_k, d_v) and grad_context
    (..., n_q, d_v), the four sizes distinct."""
    n_query, n_key, d_k, d_v = sizes(gen, 4)
    return tuple(torch.randn(*lead, *shape, generator=gen, dtype=dtype)
                 for shape in ((n_query, d_k), (n_key, d_k), (n_key, d_v), (n_query, d_v)))


def attention_backward_random(gen):
    (batch,) = sizes(gen, 1, high=4)
    inputs = attention_inputs(gen, (batch,))
    cases = [Case(t("float64, a batch of {batch} ({n_query} queries, {n_key} keys)",
                    batch=batch, n_query=inputs[0].shape[-2], n_key=inputs[1].shape[-2]),
                  calling(*inputs))]
    inputs = attention_inputs(gen, dtype=torch.float32)
    cases.append(Case(t("float32, one sequence ({n_query} queries, {n_key} keys)",
                        n_query=inputs[0].shape[-2], n_key=inputs[1].shape[-2]),
                      calling(*inputs)))
    batch, heads = sizes(gen, 2, high=4)
    inputs = attention_inputs(gen, (batch, heads))
    cases.append(Case(t("float64, {batch} sequences of {heads} heads ({n_query} queries, "
                        "{n_key} keys)", batch=batch, heads=heads,
                        n_query=inputs[0].shape[-2], n_key=inputs[1].shape[-2]),
                      calling(*inputs)))
    # the shapes the rule on work is judged on, the same for every student: a Jacobian of each
    # query's softmax (n_key x n_key) reads and makes some 70 times the forward pass's numbers
    inputs = tuple(torch.randn(*sizes, generator=gen, dtype=torch.float64)
                   for sizes in ATTENTION_AT)
    cases.append(Case(t("float64, one sequence ({n_query} queries, {n_key} keys: the rule's "
                        "shapes)", n_query=ATTENTION_AT[0][0], n_key=ATTENTION_AT[1][0]),
                      calling(*inputs)))
    # one larger, its shapes drawn for each student (the rule judges every call at least as
    # large as the one of its shapes)
    (n_query, n_key), d_k = (ATTENTION_AT[0][0], ATTENTION_AT[1][0]), ATTENTION_AT[0][1]
    (n_query,), (n_key,) = sizes(gen, 1, low=n_query, high=n_query + 2), \
        sizes(gen, 1, low=n_key + 1, high=n_key + 16)
    (d_k,), (d_v,) = sizes(gen, 1, low=d_k, high=d_k + 2), sizes(gen, 1, low=6, high=8)
    inputs = tuple(torch.randn(*shape, generator=gen, dtype=torch.float64)
                   for shape in ((n_query, d_k), (n_key, d_k), (n_key, d_v), (n_query, d_v)))
    cases.append(Case(t("float64, one sequence ({n_query} queries, {n_key} keys: larger than "
                        "the rule's shapes)", n_query=n_query, n_key=n_key),
                      calling(*inputs)))
    return cases


GRADIENT_NAMES = ("grad_queries", "grad_keys", "grad_values")


def three_tensors(got):
    assert isinstance(got, tuple | list) and len(got) == 3, t(
        "attention_backward should return three tensors: (grad_queries, grad_keys, "
        "grad_values)")
    return got


def attention_equals_autograd(subject, gen):
    """Every gradient matches torch.autograd's."""
    (batch,) = sizes(gen, 1, high=4)
    queries, keys, values, grad_context = attention_inputs(gen, (batch,))
    leaves = [x.clone().requires_grad_() for x in (queries, keys, values)]
    (F.scaled_dot_product_attention(*leaves) * grad_context).sum().backward()  # REFERENCE_GRADIENT
    got = three_tensors(subject(queries.clone(), keys.clone(), values.clone(),
                                grad_context.clone()))
    for name, mine, leaf in zip(GRADIENT_NAMES, got, leaves, strict=True):
        same_dtype(mine, leaf.grad, t("{name} should equal torch.autograd's gradient through "
                                      "scaled_dot_product_attention", name=name))


def attention_equals_finite_differences(subject, gen):
    """Every gradient predicts how the loss changes when its input moves a little."""
    inputs = list(attention_inputs(gen))
    grad_context = inputs.pop()
    got = three_tensors(subject(*[x.clone() for x in inputs], grad_context.clone()))
    for which, name in enumerate(GRADIENT_NAMES):
        direction = randn64(gen, *inputs[which].shape)

        def loss(shift, which=which, direction=direction):
            moved = list(inputs)
            moved[which] = inputs[which] + shift * direction
            scores = moved[0] @ moved[1].T / math.sqrt(moved[1].shape[-1])
            return ((torch.softmax(scores, dim=-1) @ moved[2]) * grad_context).sum()

        numeric = (loss(EPS) - loss(-EPS)) / (2 * EPS)
        assert isinstance(got[which], torch.Tensor) and \
            got[which].shape == inputs[which].shape, t(
                "{name} should have the shape of its input", name=name)
        predicted = (got[which].double() * direction).sum()
        assert torch.allclose(predicted, numeric, rtol=1e-5, atol=1e-7), t(
            "{name} should predict how the loss changes when its input moves a little "
            "(a finite difference in float64)", name=name)


ATTENTION_BACKWARD = Step(
    name="attention_backward",
    reference=reference.attention_backward,
    random_cases=attention_backward_random,
    properties=(attention_equals_autograd, attention_equals_finite_differences),
    rules=(forbids_autograd(*AUTOGRAD),
           costs_one_pass(*ONE_PASS, inputs=(0, 1, 2, 3), at=ATTENTION_AT,
                          scores=(0, 1, 2))),
    uses=("softmax_backward",),
    mistakes=(
        Mistake(
            "no 1/sqrt(d_k) in the gradients",
            "the scores are Q K^T / sqrt(d_k): the gradients of Q and K carry the factor "
            "1/sqrt(d_k) too",
            "def attention_backward(queries, keys, values, grad_context):\n"
            "    scores = queries @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])\n"
            "    weights = torch.softmax(scores, dim=-1)\n"
            "    grad_values = weights.transpose(-2, -1) @ grad_context\n"
            "    grad_weights = grad_context @ values.transpose(-2, -1)\n"
            "    grad_scores = weights * (grad_weights - (grad_weights * weights).sum(-1, "
            "keepdim=True))\n"
            "    return grad_scores @ keys, grad_scores.transpose(-2, -1) @ queries, "
            "grad_values\n",
        ),
        Mistake(
            "sqrt(d_v) instead of sqrt(d_k)",
            "d_k is the size of the queries and keys, the last dim of keys; d_v is the "
            "values'",
            "def attention_backward(queries, keys, values, grad_context):\n"
            "    scale = 1 / math.sqrt(values.shape[-1])\n"
            "    weights = torch.softmax(queries @ keys.transpose(-2, -1) * scale, dim=-1)\n"
            "    grad_values = weights.transpose(-2, -1) @ grad_context\n"
            "    grad_weights = grad_context @ values.transpose(-2, -1)\n"
            "    grad_scores = weights * (grad_weights - (grad_weights * weights).sum(-1, "
            "keepdim=True)) * scale\n"
            "    return grad_scores @ keys, grad_scores.transpose(-2, -1) @ queries, "
            "grad_values\n",
        ),
        Mistake(
            "grad_values with unnormalised weights",
            "context = weights @ values, so grad_values = weights^T @ grad_context with the "
            "softmax weights, not exp(scores)",
            "def attention_backward(queries, keys, values, grad_context):\n"
            "    scale = 1 / math.sqrt(keys.shape[-1])\n"
            "    scores = queries @ keys.transpose(-2, -1) * scale\n"
            "    weights = torch.softmax(scores, dim=-1)\n"
            "    grad_values = torch.exp(scores).transpose(-2, -1) @ grad_context\n"
            "    grad_weights = grad_context @ values.transpose(-2, -1)\n"
            "    grad_scores = weights * (grad_weights - (grad_weights * weights).sum(-1, "
            "keepdim=True)) * scale\n"
            "    return grad_scores @ keys, grad_scores.transpose(-2, -1) @ queries, "
            "grad_values\n",
        ),
        Mistake(
            "softmax backward skipped",
            "between the weights and the scores lies the softmax: pass grad_weights through "
            "its gradient (softmax_backward) before going on to Q and K",
            "def attention_backward(queries, keys, values, grad_context):\n"
            "    scale = 1 / math.sqrt(keys.shape[-1])\n"
            "    weights = torch.softmax(queries @ keys.transpose(-2, -1) * scale, dim=-1)\n"
            "    grad_values = weights.transpose(-2, -1) @ grad_context\n"
            "    grad_scores = grad_context @ values.transpose(-2, -1) * scale\n"
            "    return grad_scores @ keys, grad_scores.transpose(-2, -1) @ queries, "
            "grad_values\n",
        ),
        Mistake(
            "grad_keys unscaled",
            "queries and keys enter the scores alike, through Q K^T / sqrt(d_k): grad_keys "
            "carries the factor 1/sqrt(d_k) as grad_queries does",
            "def attention_backward(queries, keys, values, grad_context):\n"
            "    scale = 1 / math.sqrt(keys.shape[-1])\n"
            "    weights = torch.softmax(queries @ keys.transpose(-2, -1) * scale, dim=-1)\n"
            "    grad_values = weights.transpose(-2, -1) @ grad_context\n"
            "    grad_weights = grad_context @ values.transpose(-2, -1)\n"
            "    grad_scores = weights * (grad_weights - (grad_weights * weights).sum(-1, "
            "keepdim=True))\n"
            "    return (grad_scores * scale) @ keys, grad_scores.transpose(-2, -1) @ queries, "
            "grad_values\n",
        ),
    ),
)

# online_attention ------------------------------------------------------------------------


def not_dividing(gen, n_key):
    """A block size in [2, n_key - 1] that does not divide n_key (n_key >= 5)."""
    candidates = [b for b in range(2, n_key) if n_key % b]
    return candidates[int(torch.randint(len(candidates), (1,), generator=gen))]


def online_inputs(gen, lead, n_key, scale=1.0):
    n_query, d_k, d_v = sizes(gen, 3, high=8)
    return (randn(gen, *lead, n_query, d_k, scale=scale), randn(gen, *lead, n_key, d_k),
            randn(gen, *lead, n_key, d_v))


def online_attention_random(gen):
    (n_key,) = sizes(gen, 1, low=9, high=14)
    (batch,) = sizes(gen, 1, high=4)
    block_size = not_dividing(gen, n_key)
    inputs = online_inputs(gen, (batch,), n_key)
    cases = [Case(t("a batch of {batch}, {n_query} queries, {n_key} keys, block_size = "
                    "{block_size} (does not divide n_keys)", batch=batch,
                    n_query=inputs[0].shape[-2], n_key=n_key, block_size=block_size),
                  calling(*inputs, block_size))]
    (half,) = sizes(gen, 1, low=3, high=6)
    inputs = online_inputs(gen, (), 2 * half)
    cases.append(Case(t("{n_query} queries, {n_key} keys, block_size = {block_size} (two full "
                        "blocks)", n_query=inputs[0].shape[-2], n_key=2 * half,
                        block_size=half), calling(*inputs, half)))
    (n_key,) = sizes(gen, 1, low=4, high=9)
    inputs = online_inputs(gen, (batch,), n_key)
    cases.append(Case(t("a batch of {batch}, {n_query} queries, {n_key} keys, block_size = 1",
                        batch=batch, n_query=inputs[0].shape[-2], n_key=n_key),
                      calling(*inputs, 1)))
    inputs = online_inputs(gen, (), n_key)
    cases.append(Case(t("{n_query} queries, {n_key} keys, block_size = {block_size} (larger "
                        "than n_keys)", n_query=inputs[0].shape[-2], n_key=n_key,
                        block_size=n_key + 3), calling(*inputs, n_key + 3)))
    (n_key,) = sizes(gen, 1, low=7, high=12)
    inputs = online_inputs(gen, (batch,), n_key, scale=40.0)
    cases.append(Case(t("scores in the hundreds: a batch of {batch}, {n_query} queries, {n_key} "
                        "keys, block_size = {block_size}", batch=batch,
                        n_query=inputs[0].shape[-2], n_key=n_key, block_size=3),
                      calling(*inputs, 3)))
    n_query, n_key, d_k, d_v = sizes(gen, 4, low=3, high=10)
    direction = randn(gen, d_k)
    keys = randn(gen, batch, n_key, d_k) + 3 * direction
    keys[:, : n_key // 2] -= 6 * direction  # the largest scores come in the later blocks
    queries = randn(gen, batch, n_query, d_k)
    queries[:, 0] = 30 * direction  # the first query's scores in the hundreds, the others' small
    cases.append(Case(t("one query's scores in the hundreds, the others' small: a batch of "
                        "{batch}, {n_query} queries, {n_key} keys, block_size = 2", batch=batch,
                        n_query=n_query, n_key=n_key),
                      calling(queries, keys, randn(gen, batch, n_key, d_v), 2)))
    # Every score of the first query between about -540 and -180, whatever the draw (a unit
    # direction; the keys 3 to 9 along it): exp of each is 0 in float32 unless the running
    # max was subtracted, so a running max that starts at 0 fails here on every draw (a
    # direction drawn short once left the scores near -20, where it passes).
    unit = direction / direction.norm()  # (d_k,)
    queries = randn(gen, n_query, d_k)
    queries[0] = -60 * math.sqrt(d_k) * unit
    cases.append(Case(t("every score of one query far below zero: {n_query} queries, {n_key} "
                        "keys, block_size = 3", n_query=n_query, n_key=n_key),
                      calling(queries, randn(gen, n_key, d_k) + 6 * unit,
                              randn(gen, n_key, d_v), 3)))
    cases.append(Case(t("every score of one query near -10000 (exp of each is 0): {n_query} "
                        "queries, {n_key} keys, block_size = 2", n_query=n_query, n_key=n_key),
                      calling(*scores_near(gen, -1e4, n_query, n_key, d_k, d_v), 2)))
    # Here every score at once is more numbers than every input, the output and a block's
    # scores times d_k: "no operation forms every score at once" can tell (at least 96 x 400
    # = 38,400 scores, against at most 112 x 64 x 4 = 28,672 numbers for a block's scores
    # times d_k and 480 x 4 = 1,920 in the keys). Blocks of 64, not fewer: each block is a
    # handful of recorded operations, and this case is the step's costliest to grade. And
    # the whole score matrix is past the floor from which the memory Python's objects and
    # numpy's arrays take is judged
    # (operation_rules.MEMORY_FLOOR): in float32, 150 KB or more, where a correct loop's own
    # objects take about 4 KB in grading, and the recording's first calls in a notebook some
    # 80 KB.
    n_query, = sizes(gen, 1, low=96, high=112)
    (n_key,) = sizes(gen, 1, low=400, high=480)
    d_k, d_v = sizes(gen, 2, low=2, high=4)
    cases.append(Case(t("many keys in blocks of 64: {n_query} queries, {n_key} keys",
                        n_query=n_query, n_key=n_key),
                      calling(randn(gen, n_query, d_k), randn(gen, n_key, d_k),
                              randn(gen, n_key, d_v), 64)))
    return cases


def scores_near(gen, score, n_query, n_key, d_k, d_v):
    """(queries, keys, values) where the last query's every score is `score` give or take a
    twelfth (a standard deviation; a quarter at three): the keys lean along one unit
    direction with a little noise, the query points along it, scaled."""
    direction = randn(gen, d_k)
    direction = direction / direction.norm()  # (d_k,), unit length
    keys = 0.25 * randn(gen, n_key, d_k) + 3 * direction  # (n_key, d_k)
    queries = randn(gen, n_query, d_k)
    queries[-1] = score * math.sqrt(d_k) / 3 * direction
    return queries, keys, randn(gen, n_key, d_v)


def online_attention_fixed():
    """One query whose every score lies in [-25000, -20000] (the keys' first coordinate 2 to
    2.5, the query -20000 along it, d_k = 4): its output is the value of its best key, for a
    running max that starts at -inf or anywhere below -25000. A finite start above that
    (0, -1e3, -1e4) makes every exp 0 and divides 0 by 0, for every student: the random case
    near -10000 decided a start of -1e4 on about 1 draw in 25."""
    keys = torch.tensor([[2.0, 0.5, -0.25, 0.0],
                         [2.25, -0.5, 0.0, 0.25],
                         [2.5, 0.0, 0.5, -0.5],
                         [2.125, 0.25, 0.25, 0.5],
                         [2.375, -0.25, -0.5, 0.25]])  # (5, 4)
    queries = torch.tensor([[0.5, -1.0, 0.25, 2.0],
                            [1.0, 0.5, -0.5, 0.0],
                            [-20000.0, 0.0, 0.0, 0.0]])  # (3, 4)
    values = torch.tensor([[1.0, -2.0, 0.5],
                           [0.25, 1.5, -1.0],
                           [-0.5, 0.75, 2.0],
                           [1.25, 0.0, -0.75],
                           [-1.5, 1.0, 0.25]])  # (5, 3)
    return [Case(t("every score of one query from -25000 to -20000 (exp of each is 0): 3 "
                   "queries, 5 keys, block_size = 2"), calling(queries, keys, values, 2))]


def online_equals_torch(subject, gen):
    """The output matches torch's scaled_dot_product_attention for any block size."""
    (n_key,) = sizes(gen, 1, low=5, high=13)
    batch, heads = sizes(gen, 2, high=4)
    queries, keys, values = online_inputs(gen, (batch, heads), n_key)
    want = F.scaled_dot_product_attention(queries, keys, values)
    # On two leading dims, the block sizes the cases do not draw: one that does not divide
    # n_keys, one that leaves a last block of a single key, one block of exactly n_keys.
    # Blocks of 1 and 2, and one larger than n_keys, are the cases' own.
    for block_size in sorted({not_dividing(gen, n_key), n_key - 1, n_key}):
        got = subject(queries.clone(), keys.clone(), values.clone(), block_size)
        close(got, want, t("with block_size = {block_size} and {n_key} keys, the output should "
                           "equal torch.nn.functional.scaled_dot_product_attention",
                           block_size=block_size, n_key=n_key))


def online_survives_large_scores(subject, gen):
    """Scores in the hundreds still give a finite, correct output."""
    (n_key,) = sizes(gen, 1, low=6, high=12)
    queries, keys, values = online_inputs(gen, (), n_key, scale=30.0)
    keys[: n_key // 2] -= 3.0 * keys[n_key // 2:].mean(dim=0)  # the blocks' maxima far apart
    got = subject(queries.clone(), keys.clone(), values.clone(), 2)
    assert isinstance(got, torch.Tensor) and bool(torch.isfinite(got).all()), t(
        "with scores in the hundreds the output should stay finite: subtract the running "
        "max before exp")
    close(got, F.scaled_dot_product_attention(queries, keys, values),
          t("with scores in the hundreds, the output should still equal "
            "torch.nn.functional.scaled_dot_product_attention"))


def online_keys_order_does_not_matter(subject, gen):
    """Reordering the keys and values together changes nothing."""
    (n_key,) = sizes(gen, 1, low=5, high=12)
    queries, keys, values = online_inputs(gen, (), n_key)
    order = torch.randperm(n_key, generator=gen)
    got = subject(queries.clone(), keys.clone(), values.clone(), 3)
    shuffled = subject(queries.clone(), keys[order], values[order], 3)
    close(shuffled, got, t("reordering the keys and values together should change nothing, "
                           "whichever block each lands in"))


ONLINE_HEAD = (
    "def online_attention(queries, keys, values, block_size):\n"
    "    scale = 1 / math.sqrt(keys.shape[-1])\n"
    "    running_max = torch.full_like(queries[..., :1], float('-inf'))\n"
    "    running_sum = torch.zeros_like(queries[..., :1])\n"
    "    context = torch.zeros(*queries.shape[:-1], values.shape[-1])\n"
)
ONLINE_BLOCK = (
    "        block_keys = keys[..., start:start + block_size, :]\n"
    "        block_values = values[..., start:start + block_size, :]\n"
    "        scores = queries @ block_keys.transpose(-2, -1) * scale\n"
    "        new_max = torch.maximum(running_max, scores.amax(dim=-1, keepdim=True))\n"
    "        rescale = torch.exp(running_max - new_max)\n"
    "        exps = torch.exp(scores - new_max)\n"
)
ONLINE_LOOP = "    for start in range(0, keys.shape[-2], block_size):\n"

ONLINE_ATTENTION = Step(
    name="online_attention",
    reference=reference.online_attention,
    random_cases=online_attention_random,
    fixed_cases=online_attention_fixed,
    properties=(online_equals_torch, online_survives_large_scores,
                online_keys_order_does_not_matter),
    rules=(
        operation_rule("scores_in_blocks", "no operation forms every score at once",
                       [0, 1, 2, 3],
                       "the step is the loop that reads the keys and values one block at a "
                       "time, in torch, so no operation makes every score at once (the numbers "
                       "Python's objects and numpy's arrays hold count too), no softmax, sum or "
                       "product spans more keys than a block, and no tensor's numbers go to "
                       "numpy, where a buffer made before the call could hold every score "
                       "unseen",
                       measures=True),
        forbids_ops("no built-in softmax or attention",
                    {"softmax", "scaled_dot_product", "multi_head_attention"},
                    "a built-in softmax or attention needs every score of a query at "
                    "once; keep a running max and a running sum instead (torch.logsumexp "
                    "counts as a built-in softmax)"),
    ),
    mistakes=(
        Mistake(
            "old sum and context not rescaled",
            "when a block raises the running max, what was summed so far was taken against "
            "the old max: multiply the running sum and the partial context by "
            "exp(old max - new max)",
            ONLINE_HEAD + ONLINE_LOOP + ONLINE_BLOCK +
            "        running_sum = running_sum + exps.sum(dim=-1, keepdim=True)\n"
            "        context = context + exps @ block_values\n"
            "        running_max = new_max\n"
            "    return context / running_sum\n",
        ),
        Mistake(
            "context rescaled but not the running sum",
            "the running sum is taken against the running max too: rescale it by the same "
            "factor as the partial context",
            ONLINE_HEAD + ONLINE_LOOP + ONLINE_BLOCK +
            "        running_sum = running_sum + exps.sum(dim=-1, keepdim=True)\n"
            "        context = context * rescale + exps @ block_values\n"
            "        running_max = new_max\n"
            "    return context / running_sum\n",
        ),
        Mistake(
            "last partial block dropped",
            "when block_size does not divide n_keys the last block is shorter; read it too "
            "(range(0, n_keys, block_size) and slices that stop at the end do that)",
            ONLINE_HEAD +
            "    for start in range(0, keys.shape[-2] - block_size + 1, block_size):\n" +
            ONLINE_BLOCK +
            "        running_sum = running_sum * rescale + exps.sum(dim=-1, keepdim=True)\n"
            "        context = context * rescale + exps @ block_values\n"
            "        running_max = new_max\n"
            "    return context / running_sum\n",
        ),
        # Before "starts at 0": both give nan where every score is far below zero; on a tie
        # the first is named, and a finite start's student is right where 0 is not.
        Mistake(
            "running max starts at a finite number",
            "start the running max at -inf: from a finite start such as -1e4, a query whose "
            "every score is below it subtracts the start, exp of each score is 0, and the "
            "output divides 0 by 0",
            ONLINE_HEAD.replace("float('-inf')", "-1e4") +
            ONLINE_LOOP + ONLINE_BLOCK +
            "        running_sum = running_sum * rescale + exps.sum(dim=-1, keepdim=True)\n"
            "        context = context * rescale + exps @ block_values\n"
            "        running_max = new_max\n"
            "    return context / running_sum\n",
        ),
        Mistake(
            "running max starts at 0",
            "start the running max at -inf: from 0, a query whose every score is far below "
            "zero subtracts 0, exp of each score is 0, and the output divides 0 by 0",
            ONLINE_HEAD.replace("torch.full_like(queries[..., :1], float('-inf'))",
                                "torch.zeros_like(queries[..., :1])") +
            ONLINE_LOOP + ONLINE_BLOCK +
            "        running_sum = running_sum * rescale + exps.sum(dim=-1, keepdim=True)\n"
            "        context = context * rescale + exps @ block_values\n"
            "        running_max = new_max\n"
            "    return context / running_sum\n",
        ),
        Mistake(
            "running max never updated",
            "after each block, the new max becomes the running max; otherwise every block "
            "rescales the earlier ones away",
            ONLINE_HEAD + ONLINE_LOOP + ONLINE_BLOCK +
            "        running_sum = running_sum * rescale + exps.sum(dim=-1, keepdim=True)\n"
            "        context = context * rescale + exps @ block_values\n"
            "    return context / running_sum\n",
        ),
        Mistake(
            "no division by the running sum",
            "the partial context is a sum of exp(score - max) * value; divide it by the "
            "running sum at the end to get the softmax's weighted mean",
            ONLINE_HEAD + ONLINE_LOOP + ONLINE_BLOCK +
            "        running_sum = running_sum * rescale + exps.sum(dim=-1, keepdim=True)\n"
            "        context = context * rescale + exps @ block_values\n"
            "        running_max = new_max\n"
            "    return context\n",
        ),
        Mistake(
            "no 1/sqrt(d_k)",
            "divide the scores by sqrt(d_k) before the softmax",
            ONLINE_HEAD.replace("1 / math.sqrt(keys.shape[-1])", "1.0") + ONLINE_LOOP +
            ONLINE_BLOCK +
            "        running_sum = running_sum * rescale + exps.sum(dim=-1, keepdim=True)\n"
            "        context = context * rescale + exps @ block_values\n"
            "        running_max = new_max\n"
            "    return context / running_sum\n",
        ),
    ),
)

# cached_causal_attention -----------------------------------------------------------------


LONG_SEQ = 8  # positions of the case whose every pair of positions outnumbers its inputs


def decoding_inputs(gen, lead, dtype=torch.float32, low=2):
    """x (*lead, seq, d_in) and the three weights, every size distinct, in [low, low + 8]."""
    seq, d_in, d_k, d_v = sizes(gen, 4, low=low, high=low + 8)
    return (torch.randn(*lead, seq, d_in, generator=gen, dtype=dtype),
            *(torch.randn(d_in, d, generator=gen, dtype=dtype) for d in (d_k, d_k, d_v)))


def cached_random(gen):
    # the one sequence is long enough for the rule's probe to tell a mask from a cache
    inputs = decoding_inputs(gen, (), low=MIN_SEQ)
    cases = [Case(t("one sequence of {seq} positions", seq=inputs[0].shape[-2]),
                  calling(*inputs))]
    (batch,) = sizes(gen, 1, high=4)
    inputs = decoding_inputs(gen, (batch,))
    cases.append(Case(t("a batch of {batch} sequences of {seq} positions", batch=batch,
                        seq=inputs[0].shape[-2]), calling(*inputs)))
    batch, heads = sizes(gen, 2, high=4)
    inputs = decoding_inputs(gen, (batch, heads))
    cases.append(Case(t("{batch} sequences of {heads} heads, {seq} positions each", batch=batch,
                        heads=heads, seq=inputs[0].shape[-2]), calling(*inputs)))
    # a sequence longer than every other size, whose score of every position against every
    # position outnumbers every input and a row of each size for each position: the rule
    # sees a mask's whole matrix there
    (seq,) = sizes(gen, 1, low=LONG_SEQ, high=LONG_SEQ + 2)
    d_in, d_k, d_v = sizes(gen, 3, high=4)
    x = torch.randn(seq, d_in, generator=gen)
    weights = [torch.randn(d_in, d, generator=gen) for d in (d_k, d_k, d_v)]
    cases.append(Case(t("a long sequence of {seq} positions, d_in = {d_in}", seq=seq, d_in=d_in),
                      calling(x, *weights)))
    return cases


def cached_equals_causal_torch(subject, gen):
    """The output matches torch's causal scaled_dot_product_attention."""
    (batch,) = sizes(gen, 1, high=4)
    x, W_query, W_key, W_value = decoding_inputs(gen, (batch,))
    want = F.scaled_dot_product_attention(x @ W_query, x @ W_key, x @ W_value, is_causal=True)
    got = subject(x.clone(), W_query.clone(), W_key.clone(), W_value.clone())
    close(got, want, t("the output should equal torch.nn.functional."
                       "scaled_dot_product_attention with is_causal=True"))


def cached_prefix_ignores_the_future(subject, gen):
    """No output depends on later positions."""
    x, W_query, W_key, W_value = decoding_inputs(gen, ())
    whole = subject(x.clone(), W_query, W_key, W_value)
    changed = x.clone()
    changed[-1] += 5.0  # only the last position changes
    other = subject(changed, W_query, W_key, W_value)
    close(other[:-1], whole[:-1], t("changing the last position should change no earlier "
                                    "output: a position sees only the cache so far"))
    close(whole[0], x[0] @ W_value, t("the first position sees only itself: its output is "
                                      "its own value"))


CACHED_HEAD = (
    "def cached_causal_attention(x, W_query, W_key, W_value):\n"
    "    seq, d_k = x.shape[-2], W_key.shape[-1]\n"
    "    keys, values = x @ W_key, x @ W_value\n"
    "    outputs = []\n"
    "    for t in range(seq):\n"
    "        query = x[..., t, :] @ W_query\n"
)
CACHED_TAIL = (
    "        weights = torch.softmax(scores, dim=-1)\n"
    "        outputs.append((weights.unsqueeze(-1) * cached_values).sum(dim=-2))\n"
    "    return torch.stack(outputs, dim=-2)\n"
)

CACHED_CAUSAL_ATTENTION = Step(
    name="cached_causal_attention",
    reference=reference.cached_causal_attention,
    random_cases=cached_random,
    properties=(cached_equals_causal_torch, cached_prefix_ignores_the_future),
    rules=(
        operation_rule("causal_weights", "no mask", [0],
                       "the cache holds only the positions decoded so far, so there is no "
                       "future to hide; attend over the cache with torch.softmax and @ (the "
                       "grader judges this from the torch softmaxes, or sums you divide by, "
                       "that your output depends on, and from the size of each operation: "
                       "none may hold every position's score against every position; a "
                       "normalisation computed outside torch is invisible to it)",
                       probe={"kind": "spans", "arg": 0}),
        forbids_ops("no built-in attention", {"scaled_dot_product", "multi_head_attention"},
                    "decoding is the loop over positions, each attending over the cache "
                    "so far"),
    ),
    mistakes=(
        Mistake(
            "whole sequence attended (no causality)",
            "position t attends over the cache as it stands after t is appended: rows 0..t, "
            "never the positions after it",
            CACHED_HEAD +
            "        cached_keys, cached_values = keys, values\n"
            "        scores = (cached_keys @ query.unsqueeze(-1)).squeeze(-1) / math.sqrt(d_k)\n"
            + CACHED_TAIL,
        ),
        Mistake(
            "cache read one row short",
            "append position t's key and value before attending: the query of t attends over "
            "rows 0..t, itself included (the first position sees only itself)",
            CACHED_HEAD +
            "        cached_keys, cached_values = keys[..., :t, :], values[..., :t, :]\n"
            "        scores = (cached_keys @ query.unsqueeze(-1)).squeeze(-1) / math.sqrt(d_k)\n"
            + CACHED_TAIL,
        ),
        Mistake(
            "sqrt(d_v) instead of sqrt(d_k)",
            "d_k is the size of the queries and keys, the last dim of keys; d_v is the "
            "values'",
            CACHED_HEAD +
            "        cached_keys, cached_values = keys[..., :t + 1, :], values[..., :t + 1, :]\n"
            "        scores = (cached_keys @ query.unsqueeze(-1)).squeeze(-1) / "
            "math.sqrt(W_value.shape[-1])\n" + CACHED_TAIL,
        ),
        Mistake(
            "only the newest value read",
            "the output of position t is the weighted mean of every cached value, rows 0..t, "
            "not of the newest one",
            CACHED_HEAD +
            "        cached_keys, cached_values = keys[..., :t + 1, :], values[..., t:t + 1, :]\n"
            "        scores = (cached_keys @ query.unsqueeze(-1)).squeeze(-1) / math.sqrt(d_k)\n"
            "        weights = torch.softmax(scores, dim=-1)\n"
            "        outputs.append(weights.sum(-1, keepdim=True) * cached_values[..., 0, :])\n"
            "    return torch.stack(outputs, dim=-2)\n",
        ),
    ),
)

STEPS = (SOFTMAX_BACKWARD, ATTENTION_BACKWARD, ONLINE_ATTENTION, CACHED_CAUSAL_ATTENTION)

# When the similarity report flags a pair (bench/similarity_calibration.py 09_gradients_and_memory):
# honest pairs reach 0.365 and 337 characters; every copy of one disguise has 0.737 or
# more and 720 characters or more.
SIMILARITY = Similar(share=0.55, characters=530)
