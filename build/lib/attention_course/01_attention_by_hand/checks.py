"""Hidden checks of 01_attention_by_hand: document 004's integer example, step by step."""

from __future__ import annotations

import torch

from autograder.checks.common import calling, forbids_ops, randn, rows_sum_to_one, sizes
from autograder.checks.model import Case, Mistake, Similar, Step
from autograder.i18n import t

from ..documents import (
    DOC004_INPUTS,
    DOC004_KEYS,
    DOC004_OUTPUTS,
    DOC004_QUERIES,
    DOC004_ROUNDED_WEIGHTS,
    DOC004_SCORES,
    DOC004_SOFTMAX,
    DOC004_VALUES,
    DOC004_W_KEY,
    DOC004_W_QUERY,
    DOC004_W_VALUE,
    DOC004_WEIGHTED_VALUES,
    example,
)
from . import reference


def random_inputs(gen):
    """x (seq, d_in) and weights with distinct sizes: seq, d_in, d_k, d_v."""
    seq, d_in, d_k, d_v = sizes(gen, 4)
    x = randn(gen, seq, d_in)
    return x, randn(gen, d_in, d_k), randn(gen, d_in, d_k), randn(gen, d_in, d_v)


def random_weights(gen, n_queries, n_keys):
    return torch.softmax(randn(gen, n_queries, n_keys), dim=-1)


# project_qkv -----------------------------------------------------------------------------


def project_qkv_documents():
    run = calling(DOC004_INPUTS, DOC004_W_QUERY, DOC004_W_KEY, DOC004_W_VALUE)
    expected = (DOC004_QUERIES, DOC004_KEYS, DOC004_VALUES)
    return [Case(t("{example}: queries, keys and values", example=example("004")), run, expected)]


def project_qkv_random(gen):
    return [Case(t("random case {number}", number=i + 1), calling(*random_inputs(gen)))
            for i in range(3)]


PROJECT_QKV = Step(
    name="project_qkv",
    reference=reference.project_qkv,
    document_cases=project_qkv_documents,
    random_cases=project_qkv_random,
    mistakes=(
        Mistake(
            "weights applied from the left",
            "in the row convention each input is a row, so multiply x @ W, not W @ x",
            "def project_qkv(x, W_query, W_key, W_value):\n"
            "    return (W_query.T @ x.T).T.T, (W_key.T @ x.T).T.T, (W_value.T @ x.T).T.T\n",
        ),
        Mistake(
            "query and key weight matrices swapped",
            "queries come from W_query and keys from W_key; check the order you return",
            "def project_qkv(x, W_query, W_key, W_value):\n"
            "    return x @ W_key, x @ W_query, x @ W_value\n",
        ),
    ),
)

# attention_scores ------------------------------------------------------------------------


def attention_scores_documents():
    return [
        Case(t("{example}: scores of all three queries", example=example("004")),
             calling(DOC004_QUERIES, DOC004_KEYS),
             DOC004_SCORES),
        Case(t("{example}: scores of query {query}", example=example("004"), query=1),
             calling(DOC004_QUERIES[0], DOC004_KEYS), DOC004_SCORES[0]),
    ]


def attention_scores_random(gen):
    cases = []
    for i in range(3):
        n, seq, d_k = sizes(gen, 3)
        queries, keys = randn(gen, n, d_k), randn(gen, seq, d_k)
        label = t("random case {number} ({n} queries, {seq} keys)", number=i + 1, n=n, seq=seq)
        cases.append(Case(label, calling(queries, keys)))
    batch, n, seq, d_k = sizes(gen, 4)
    queries, keys = randn(gen, batch, n, d_k), randn(gen, batch, seq, d_k)
    cases.append(Case(t("random batched case"), calling(queries, keys)))
    return cases


ATTENTION_SCORES = Step(
    name="attention_scores",
    reference=reference.attention_scores,
    document_cases=attention_scores_documents,
    random_cases=attention_scores_random,
    mistakes=(
        Mistake(
            "queries and keys swapped",
            "row i belongs to query i: compute queries @ keys^T, not keys @ queries^T",
            "def attention_scores(queries, keys):\n"
            "    return keys @ queries.transpose(-2, -1)\n",
        ),
        Mistake(
            "scores scaled too early",
            "this step returns the raw dot products; the 1/sqrt(d_k) comes later",
            "def attention_scores(queries, keys):\n"
            "    return queries @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])\n",
        ),
        Mistake(
            "keys.T on a batch",
            "on a batch of keys .T reverses every dimension, not just the last two; write "
            "keys.transpose(-2, -1), which swaps only the key and feature dimensions",
            "def attention_scores(queries, keys):\n"
            "    # keys.T as PyTorch reads it (every dimension reversed), without its warning\n"
            "    return queries @ keys.permute(*reversed(range(keys.dim())))\n",
        ),
    ),
)

# stable_softmax --------------------------------------------------------------------------


def stable_softmax_documents():
    return [Case(t("{example}: softmax of the scores", example=example("004")),
                 calling(DOC004_SCORES), DOC004_SOFTMAX)]


def stable_softmax_random(gen):
    cases = []
    for i, dim in enumerate((-1, 0, 1)):
        rows, cols, depth = sizes(gen, 3)
        scores = 3 * randn(gen, rows, cols, depth)
        cases.append(Case(t("random case {number} (dim={dim})", number=i + 1, dim=dim),
                          calling(scores, dim=dim)))
    large = 1e4 * randn(gen, *sizes(gen, 2))
    cases.append(Case(t("scores of size 1e4"), calling(large)))
    rows, cols, depth = sizes(gen, 3)
    cases.append(Case(t("random case {number} (dim left out)", number=4),
                      calling(3 * randn(gen, rows, cols, depth))))
    return cases


def stable_softmax_fixed():
    """Rows in the thousands: two large positive scores (a clamp to a "safe" range ties them),
    every score far below zero (a clamp makes them equal; the max of the whole tensor, from
    another row, underflows every exp to 0), and an ordinary row. For a correct softmax the
    first two rows are one-hot (gaps of hundreds: exp(-500) is 0 in float32). A clamp to
    [-80, 80] passed the random "scores of size 1e4" case on about 1 draw in 50."""
    scores = torch.tensor([[1000.0, 2000.0, -500.0, 1500.0],
                           [-1000.0, -2000.0, -3000.0, -1500.0],
                           [0.5, -0.25, 1.0, 0.0]])  # (3, 4)
    return [Case(t("scores far from zero: two rows in the thousands, one positive, one "
                   "negative (3 rows, 4 columns)"), calling(scores))]


def softmax_rows_sum_to_one(subject, gen):
    """With dim=0, every column of weights sums to 1."""
    rows, cols = sizes(gen, 2)
    rows_sum_to_one(subject(randn(gen, rows, cols), dim=0), dim=0)


def softmax_finite_for_large_scores(subject, gen):
    """Very large scores still give finite weights."""
    weights = subject(1e4 * randn(gen, *sizes(gen, 2)))
    assert torch.isfinite(weights).all(), t(
        "scores of 1e4 must give finite weights (no nan, no inf)")


STABLE_SOFTMAX = Step(
    name="stable_softmax",
    reference=reference.stable_softmax,
    document_cases=stable_softmax_documents,
    random_cases=stable_softmax_random,
    fixed_cases=stable_softmax_fixed,
    properties=(softmax_rows_sum_to_one, softmax_finite_for_large_scores),
    rules=(
        forbids_ops(
            "no built-in softmax",
            {"softmax", "scaled_dot_product", "multi_head_attention"},
            "this step is about writing softmax yourself, with torch.exp and a sum "
            "(torch.logsumexp counts as a built-in softmax: it is the log of softmax's "
            "denominator, computed stably for you)",
        ),
    ),
    mistakes=(
        Mistake(
            "softmax without max-subtraction",
            "exp of a large score overflows to inf and inf/inf is nan; subtract the maximum "
            "along dim first",
            "def stable_softmax(scores, dim=-1):\n"
            "    e = torch.exp(scores)\n"
            "    return e / e.sum(dim=dim, keepdim=True)\n",
        ),
        Mistake(
            "softmax over the wrong dim",
            "take the maximum and the sum along `dim`, the dimension the caller names, not "
            "always the last one",
            "def stable_softmax(scores, dim=-1):\n"
            "    e = torch.exp(scores - scores.amax(dim=-1, keepdim=True))\n"
            "    return e / e.sum(dim=-1, keepdim=True)\n",
        ),
        Mistake(
            "softmax over dim 0",
            "over dim 0, a row of one query's scores is normalised one number at a time, and "
            "every weight is 1: take the maximum and the sum along `dim` (-1, the last, when "
            "the caller names none)",
            "def stable_softmax(scores, dim=-1):\n"
            "    e = torch.exp(scores - scores.amax(dim=0, keepdim=True))\n"
            "    return e / e.sum(dim=0, keepdim=True)\n",
        ),
        Mistake(
            "normalised over the whole tensor",
            "each slice along dim sums to 1 on its own; sum with keepdim=True along dim only",
            "def stable_softmax(scores, dim=-1):\n"
            "    e = torch.exp(scores - scores.max())\n"
            "    return e / e.sum()\n",
        ),
        Mistake(
            "scores clamped instead of shifted",
            "clamping the scores to a safe range changes the weights whenever two scores pass "
            "the bound (they tie); subtract the maximum along dim instead, which changes "
            "nothing mathematically",
            "def stable_softmax(scores, dim=-1):\n"
            "    e = torch.exp(scores.clamp(-80.0, 80.0))\n"
            "    return e / e.sum(dim=dim, keepdim=True)\n",
        ),
    ),
)

# weighted_values -------------------------------------------------------------------------


def weighted_values_documents():
    run = calling(DOC004_ROUNDED_WEIGHTS, DOC004_VALUES)
    return [Case(t("{example}: weighted values (approximated attention weights)",
                   example=example("004")), run, DOC004_WEIGHTED_VALUES)]


def weights_and_values_random(gen):
    """Three random (weights, values) pairs of distinct sizes: the cases of steps 4 and 5."""
    cases = []
    for i in range(3):
        n_queries, n_keys, d_v = sizes(gen, 3)
        weights, values = random_weights(gen, n_queries, n_keys), randn(gen, n_keys, d_v)
        cases.append(Case(t("random case {number}", number=i + 1), calling(weights, values)))
    return cases


WEIGHTED_VALUES_STEP = Step(
    name="weighted_values",
    reference=reference.weighted_values,
    document_cases=weighted_values_documents,
    random_cases=weights_and_values_random,
    mistakes=(
        Mistake(
            "weights not transposed",
            "element [j, i] uses weights[i, j]: key j's value times query i's weight for it",
            "def weighted_values(weights, values):\n"
            "    return values[:, None, :] * weights[:, :, None]\n",
        ),
    ),
)

# context_vectors -------------------------------------------------------------------------


def context_vectors_documents():
    return [
        Case(t("{example}: outputs (approximated attention weights)", example=example("004")),
             calling(DOC004_ROUNDED_WEIGHTS, DOC004_VALUES), DOC004_OUTPUTS),
        Case(t("{example}: output {number}", example=example("004"), number=1),
             calling(DOC004_ROUNDED_WEIGHTS[0], DOC004_VALUES), DOC004_OUTPUTS[0]),
    ]


CONTEXT_VECTORS = Step(
    name="context_vectors",
    reference=reference.context_vectors,
    document_cases=context_vectors_documents,
    random_cases=weights_and_values_random,
    mistakes=(
        Mistake(
            "weights transposed when weighting the values",
            "row i of the weights belongs to query i: compute weights @ values",
            "def context_vectors(weights, values):\n"
            "    return weights.transpose(-2, -1) @ values if weights.dim() > 1 "
            "else weights @ values\n",
        ),
    ),
)

STEPS = (PROJECT_QKV, ATTENTION_SCORES, STABLE_SOFTMAX, WEIGHTED_VALUES_STEP, CONTEXT_VECTORS)

# When the similarity report flags a pair (bench/similarity_calibration.py 01_attention_by_hand):
# honest pairs reach a share of 0.503 (61 characters) and 111 characters (0.434); every
# copy of one disguise has 0.499 or more and 162 characters or more. The share alone cannot
# tell: this code is short, and every student writes much of it alike.
SIMILARITY = Similar(share=0.45, characters=135)
