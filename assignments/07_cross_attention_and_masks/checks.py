"""Hidden checks of 07_cross_attention_and_masks: queries from one sequence and keys and
values from another (document 000 ends at its 'cross-attention' heading), the causal mask,
and a softmax that leaves masked positions out.

Document 000 prints nothing after that heading, so these steps have no document cases:
they are checked against the reference on random inputs and by their invariants (masked
weights exactly 0, equality with torch.nn.functional.scaled_dot_product_attention ...).
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from autograder.checks.common import calling, future, randn, rows_sum_to_one, sizes
from autograder.checks.compare import close
from autograder.checks.model import Case, Mistake, Similar, Step
from autograder.i18n import t

from . import reference

# cross_attention -------------------------------------------------------------------------


def cross_inputs(gen):
    """x_query (n_query, d_in), x_context (n_context, d_in) and the three weights, with
    n_query, n_context, d_in, d_k and d_v all distinct."""
    n_query, n_context, d_in, d_k, d_v = sizes(gen, 5)
    return (
        randn(gen, n_query, d_in),
        randn(gen, n_context, d_in),
        randn(gen, d_in, d_k),
        randn(gen, d_in, d_k),
        randn(gen, d_in, d_v),
    )


def cross_attention_random(gen):
    cases = []
    for i in range(3):
        inputs = cross_inputs(gen)
        n_query, n_context = inputs[0].shape[0], inputs[1].shape[0]
        label = t("random case {number} ({n_query} queries, {n_context} context positions)",
                  number=i + 1, n_query=n_query, n_context=n_context)
        cases.append(Case(label, calling(*inputs)))
    return cases


def same_sequence_is_self_attention(subject, gen):
    """Cross-attention of a sequence with itself is self-attention."""
    x, _, W_query, W_key, W_value = cross_inputs(gen)
    queries, keys, values = x @ W_query, x @ W_key, x @ W_value
    weights = torch.softmax(queries @ keys.T / math.sqrt(keys.shape[-1]), dim=-1)
    got = subject(x.clone(), x.clone(), W_query.clone(), W_key.clone(), W_value.clone())
    close(got, weights @ values, t("with one sequence as both x_query and x_context, "
                                   "cross-attention should be self-attention"))


def context_order_does_not_matter(subject, gen):
    """Reordering the context rows changes nothing."""
    x_query, x_context, W_query, W_key, W_value = cross_inputs(gen)
    order = torch.randperm(x_context.shape[0], generator=gen)
    got = subject(x_query.clone(), x_context.clone(), W_query, W_key, W_value)
    shuffled = subject(x_query.clone(), x_context[order], W_query, W_key, W_value)
    close(shuffled, got, t("reordering the rows of x_context should change nothing in the output"))


def query_rows_permute(subject, gen):
    """Reordering the query rows reorders the output rows the same way."""
    x_query, x_context, W_query, W_key, W_value = cross_inputs(gen)
    order = torch.randperm(x_query.shape[0], generator=gen)
    got = subject(x_query.clone(), x_context.clone(), W_query, W_key, W_value)
    shuffled = subject(x_query[order], x_context.clone(), W_query, W_key, W_value)
    close(shuffled, got[order], t("reordering the rows of x_query should reorder the output rows "
                                  "in the same way"))


def cross_equals_torch(subject, gen):
    """The output matches torch's scaled_dot_product_attention on the projected inputs."""
    x_query, x_context, W_query, W_key, W_value = cross_inputs(gen)
    want = F.scaled_dot_product_attention(x_query @ W_query, x_context @ W_key, x_context @ W_value)
    got = subject(x_query.clone(), x_context.clone(), W_query, W_key, W_value)
    close(got, want, t("the output should equal torch.nn.functional.scaled_dot_product_attention "
                       "on the projected queries, keys and values"))


def cross_finite_for_large_queries(subject, gen):
    """Queries a hundred times larger (scores in the hundreds) still give torch's output."""
    x_query, x_context, W_query, W_key, W_value = cross_inputs(gen)
    x_query = 100 * x_query
    want = F.scaled_dot_product_attention(x_query @ W_query, x_context @ W_key, x_context @ W_value)
    got = subject(x_query.clone(), x_context.clone(), W_query, W_key, W_value)
    assert bool(torch.isfinite(got).all()), t(
        "queries 100 times larger (scores in the hundreds) gave nan or inf: use torch.softmax, "
        "which takes each row's largest score off first (a softmax written with torch.exp "
        "overflows)")
    close(got, want, t("queries 100 times larger should still give the output of "
                       "torch.nn.functional.scaled_dot_product_attention"))


CROSS_ATTENTION = Step(
    name="cross_attention",
    reference=reference.cross_attention,
    random_cases=cross_attention_random,
    properties=(
        same_sequence_is_self_attention,
        context_order_does_not_matter,
        query_rows_permute,
        cross_equals_torch,
        cross_finite_for_large_queries,
    ),
    mistakes=(
        Mistake(
            "queries taken from the context",
            "the queries come from x_query (one output row per query); keys and values come "
            "from x_context",
            "def cross_attention(x_query, x_context, W_query, W_key, W_value):\n"
            "    queries = x_context @ W_query\n"
            "    keys, values = x_query @ W_key, x_query @ W_value\n"
            "    scores = queries @ keys.T / math.sqrt(keys.shape[-1])\n"
            "    return torch.softmax(scores, dim=-1) @ values\n",
        ),
        Mistake(
            "no 1/sqrt(d_k)",
            "scale the scores by 1/sqrt(d_k), d_k the size of the keys, before the softmax",
            "def cross_attention(x_query, x_context, W_query, W_key, W_value):\n"
            "    queries = x_query @ W_query\n"
            "    keys, values = x_context @ W_key, x_context @ W_value\n"
            "    return torch.softmax(queries @ keys.T, dim=-1) @ values\n",
        ),
        Mistake(
            "softmax over the queries",
            "each query's weights over the context positions sum to 1: normalise along the "
            "context axis of the scores",
            "def cross_attention(x_query, x_context, W_query, W_key, W_value):\n"
            "    queries = x_query @ W_query\n"
            "    keys, values = x_context @ W_key, x_context @ W_value\n"
            "    scores = queries @ keys.T / math.sqrt(keys.shape[-1])\n"
            "    return torch.softmax(scores, dim=0) @ values\n",
        ),
    ),
)

# causal_mask -----------------------------------------------------------------------------


def causal_mask_worked():
    expected = torch.tensor(
        [
            [False, True, True, True],
            [False, False, True, True],
            [False, False, False, True],
            [False, False, False, False],
        ]
    )
    return [Case(t("four positions"), calling(4), expected)]


def causal_mask_random(gen):
    # n = 1 is left to the property: its one entry cannot tell the two wrong masks apart.
    return [Case(t("{n} positions", n=n), calling(n)) for n in sizes(gen, 3, low=2, high=12)]


def hides_exactly_the_future(subject, gen):
    """The mask is a bool tensor that hides exactly the future positions."""
    (n,) = sizes(gen, 1, low=3, high=12)
    single = subject(1)
    assert isinstance(single, torch.Tensor) and single.shape == (1, 1) and not bool(single.any()), (
        t("causal_mask(1) should be a (1, 1) mask hiding nothing")
    )
    mask = subject(n)
    assert isinstance(mask, torch.Tensor) and mask.dtype == torch.bool, (
        t("the mask should be a tensor of dtype torch.bool")
    )
    assert tuple(mask.shape) == (n, n), t("causal_mask({n}) should have shape ({n}, {n})", n=n)
    assert not bool(mask.diagonal().any()), t("a position may always look at itself")
    assert not bool(mask[-1].any()), t("the last position may look at every position")
    assert bool(mask[0, 1:].all()), t("the first position may look at nothing after it")
    for i in range(n):
        for j in range(n):
            assert bool(mask[i, j]) == (j > i), t(
                "the mask should be True exactly where key > query")


CAUSAL_MASK = Step(
    name="causal_mask",
    reference=reference.causal_mask,
    document_cases=causal_mask_worked,
    random_cases=causal_mask_random,
    properties=(hides_exactly_the_future,),
    mistakes=(
        Mistake(
            "causal mask inverted",
            "True marks what a query must NOT see: the positions after it",
            "def causal_mask(n):\n"
            "    return ~torch.ones(n, n, dtype=torch.bool).triu(diagonal=1)\n",
        ),
        Mistake(
            "causal mask hides the diagonal",
            "a position may look at itself; only the positions strictly after it are hidden",
            "def causal_mask(n):\n"
            "    return torch.ones(n, n, dtype=torch.bool).triu()\n",
        ),
        Mistake(
            "mask of 0/1 floats instead of booleans",
            "the mask must have dtype torch.bool so that it can select and fill positions",
            "def causal_mask(n):\n"
            "    return torch.ones(n, n).triu(diagonal=1)\n",
        ),
    ),
)

# masked_scaled_softmax -------------------------------------------------------------------


def random_mask(gen, *shape, p=0.35):
    return torch.rand(*shape, generator=gen) < p


def masked_softmax_random(gen):
    cases = []
    n_query, n_key, d_k = sizes(gen, 3, high=12)
    mask = random_mask(gen, n_query, n_key)
    mask[:, 0] = False  # every row keeps a position
    scores = 3 * randn(gen, n_query, n_key)
    cases.append(Case(t("random mask ({n_query} queries, {n_key} keys, d_k = {d_k})",
                        n_query=n_query, n_key=n_key, d_k=d_k), calling(scores, mask, d_k)))
    n, d_k = sizes(gen, 2, high=12)
    cases.append(Case(t("causal mask ({n} positions, d_k = {d_k})", n=n, d_k=d_k),
                      calling(3 * randn(gen, n, n), future(n), d_k)))
    batch, n, d_k = sizes(gen, 3)
    cases.append(Case(t("batch of {batch}, one causal mask for all ({n} positions, d_k = {d_k})",
                        batch=batch, n=n, d_k=d_k),
                      calling(3 * randn(gen, batch, n, n), future(n), d_k)))
    n_query, n_key, d_k = sizes(gen, 3, low=3, high=12)
    padding = torch.arange(n_key) >= n_key - 2  # the last two keys are padding
    cases.append(Case(t("padding mask of shape ({n_key},), broadcast over {n_query} queries",
                        n_key=n_key, n_query=n_query),
                      calling(3 * randn(gen, n_query, n_key), padding, d_k)))
    n_query, n_key, d_k = sizes(gen, 3, high=12)
    mask = random_mask(gen, n_query, n_key)
    mask[1] = True  # the second query may look nowhere
    mask[0] = False
    cases.append(Case(t("one query with every key masked ({n_query} queries, {n_key} keys)",
                        n_query=n_query, n_key=n_key),
                      calling(3 * randn(gen, n_query, n_key), mask, d_k)))
    return cases


def masked_weights_are_zero(subject, gen):
    """Masked weights are exactly 0 and each query's weights sum to 1."""
    n_query, n_key, d_k = sizes(gen, 3, high=12)
    mask = random_mask(gen, n_query, n_key, p=0.5)
    mask[:, -1] = False
    weights = subject(3 * randn(gen, n_query, n_key), mask.clone(), d_k)
    assert bool((weights.detach()[mask] == 0).all()), t("masked weights should be exactly 0")
    rows_sum_to_one(weights.detach(), what=t("weights of each query (masked ones left out)"))


def fully_masked_row_is_zero(subject, gen):
    """A query whose every key is masked gets a row of zeros."""
    n_query, n_key, d_k = sizes(gen, 3, high=12)
    mask = torch.zeros(n_query, n_key, dtype=torch.bool)
    mask[-1] = True
    weights = subject(randn(gen, n_query, n_key), mask.clone(), d_k).detach()
    assert not bool(torch.isnan(weights).any()), t(
        "a query whose every key is masked gives nan: it should give a row of zeros"
    )
    assert bool((weights[-1] == 0).all()), t(
        "a query whose every key is masked should get all zeros")


def equals_torch_causal(subject, gen):
    """Under a causal mask, the weights match torch's scaled_dot_product_attention."""
    n, d_k = sizes(gen, 2, low=3, high=12)
    queries, keys = randn(gen, n, d_k), randn(gen, n, d_k)
    mask = future(n)
    weights = subject(queries @ keys.T, mask.clone(), d_k)
    # torch's boolean attn_mask marks where a query MAY look; identity values give the weights.
    want = F.scaled_dot_product_attention(queries, keys, torch.eye(n), attn_mask=~mask)
    close(weights, want, t("under a causal mask, the weights should equal those of "
                           "torch.nn.functional.scaled_dot_product_attention"))


def finite_for_large_scores(subject, gen):
    """Scores in the thousands still give finite weights."""
    n_query, n_key, d_k = sizes(gen, 3, high=12)
    mask = random_mask(gen, n_query, n_key)
    mask[:, 0] = False  # every row keeps a position
    scores = 1e4 * randn(gen, n_query, n_key)
    weights = subject(scores.clone(), mask.clone(), d_k).detach()
    assert bool(torch.isfinite(weights).all()), t(
        "scores in the thousands gave nan or inf: use torch.softmax, which takes each row's "
        "largest score off first (a softmax written with torch.exp overflows)")
    want = torch.softmax((scores / math.sqrt(d_k)).masked_fill(mask, float("-inf")), dim=-1)
    close(weights, want, t("scores in the thousands should still give the softmax's weights "
                           "(clamping the scores changes them)"))


MASKED_SCALED_SOFTMAX = Step(
    name="masked_scaled_softmax",
    reference=reference.masked_scaled_softmax,
    random_cases=masked_softmax_random,
    properties=(masked_weights_are_zero, fully_masked_row_is_zero, equals_torch_causal,
                finite_for_large_scores),
    mistakes=(
        Mistake(
            "mask applied after the softmax",
            "masked positions must be left out before normalising, so that the weights left "
            "in each row still sum to 1",
            "def masked_scaled_softmax(scores, mask, d_k):\n"
            "    weights = torch.softmax(scores / math.sqrt(d_k), dim=-1)\n"
            "    return weights.masked_fill(mask, 0.0)\n",
        ),
        Mistake(
            "masked scores set to 0 instead of -inf",
            "a score of 0 still gets weight, since e^0 = 1; a masked score must give e^score = 0",
            "def masked_scaled_softmax(scores, mask, d_k):\n"
            "    hidden = (scores / math.sqrt(d_k)).masked_fill(mask, 0.0)\n"
            "    return torch.softmax(hidden, dim=-1)\n",
        ),
        Mistake(
            "no 1/sqrt(d_k)",
            "divide the scores by sqrt(d_k) before the softmax",
            "def masked_scaled_softmax(scores, mask, d_k):\n"
            "    hidden = scores.masked_fill(mask, float('-inf'))\n"
            "    return torch.softmax(hidden, dim=-1).masked_fill(mask, 0.0)\n",
        ),
        Mistake(
            "nan for a query with every key masked",
            "when every score of a row is -inf the softmax divides 0 by 0; make such rows 0",
            "def masked_scaled_softmax(scores, mask, d_k):\n"
            "    hidden = (scores / math.sqrt(d_k)).masked_fill(mask, float('-inf'))\n"
            "    return torch.softmax(hidden, dim=-1)\n",
        ),
    ),
)

STEPS = (CROSS_ATTENTION, CAUSAL_MASK, MASKED_SCALED_SOFTMAX)

# When the similarity report flags a pair (bench/similarity_calibration.py
# 07_cross_attention_and_masks):
# honest pairs reach a share of 0.302 (77 characters), and a copy of one disguise
# (swapped calls) scores 0.208 (55 characters).
SIMILARITY = Similar(tells=False)
