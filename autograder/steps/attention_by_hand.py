"""Hidden checks of 01_attention_by_hand: document 004's integer example, step by step."""

from __future__ import annotations

import torch

import solutions
from autograder.checking import Case, Mistake, Rule, Step
from autograder.steps.common import (
    SOFTMAX_ENTRY_POINTS,
    calling,
    calls_during,
    forbids_names,
    randn,
    rows_sum_to_one,
    sizes,
)

# Document 004: three 4-d inputs and the given key, query and value weights.
X = torch.tensor([[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]], dtype=torch.float32)
W_KEY = torch.tensor([[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]], dtype=torch.float32)
W_QUERY = torch.tensor([[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]], dtype=torch.float32)
W_VALUE = torch.tensor([[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]], dtype=torch.float32)
# ... and what it prints.
KEYS = torch.tensor([[0.0, 1.0, 1.0], [4.0, 4.0, 0.0], [2.0, 3.0, 1.0]])
QUERIES = torch.tensor([[1.0, 0.0, 2.0], [2.0, 2.0, 2.0], [2.0, 1.0, 3.0]])
VALUES = torch.tensor([[1.0, 2.0, 3.0], [2.0, 8.0, 0.0], [2.0, 6.0, 3.0]])
SCORES = torch.tensor([[2.0, 4.0, 4.0], [4.0, 16.0, 12.0], [4.0, 12.0, 10.0]])
SOFTMAX = torch.tensor(
    [
        [6.3379e-02, 4.6831e-01, 4.6831e-01],
        [6.0337e-06, 9.8201e-01, 1.7986e-02],
        [2.9539e-04, 8.8054e-01, 1.1917e-01],
    ]
)
ROUNDED_WEIGHTS = torch.tensor([[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]])
WEIGHTED_VALUES = torch.tensor(
    [
        [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
        [[1.0, 4.0, 0.0], [2.0, 8.0, 0.0], [1.8, 7.2, 0.0]],
        [[1.0, 3.0, 1.5], [0.0, 0.0, 0.0], [0.2, 0.6, 0.3]],
    ]
)
OUTPUTS = torch.tensor([[2.0, 7.0, 1.5], [2.0, 8.0, 0.0], [2.0, 7.8, 0.3]])


def random_inputs(gen):
    """x (seq, d_in) and weights with distinct sizes: seq, d_in, d_k, d_v."""
    seq, d_in, d_k, d_v = sizes(gen, 4)
    x = randn(gen, seq, d_in)
    return x, randn(gen, d_in, d_k), randn(gen, d_in, d_k), randn(gen, d_in, d_v)


def random_weights(gen, n_queries, n_keys):
    return torch.softmax(randn(gen, n_queries, n_keys), dim=-1)


# project_qkv -----------------------------------------------------------------------------


def project_qkv_documents():
    run = calling(X, W_QUERY, W_KEY, W_VALUE)
    return [Case("document 004: queries, keys and values", run, (QUERIES, KEYS, VALUES))]


def project_qkv_random(gen):
    return [Case(f"random case {i + 1}", calling(*random_inputs(gen))) for i in range(3)]


PROJECT_QKV = Step(
    name="project_qkv",
    reference=solutions.project_qkv,
    document_cases=project_qkv_documents,
    random_cases=project_qkv_random,
    mistakes=(
        Mistake(
            "weights applied from the left",
            "project_qkv",
            "in the row convention each input is a row, so multiply x @ W, not W @ x",
            "def project_qkv(x, W_query, W_key, W_value):\n"
            "    return (W_query.T @ x.T).T.T, (W_key.T @ x.T).T.T, (W_value.T @ x.T).T.T\n",
        ),
        Mistake(
            "query and key weights swapped",
            "project_qkv",
            "queries come from W_query and keys from W_key; check the order you return",
            "def project_qkv(x, W_query, W_key, W_value):\n"
            "    return x @ W_key, x @ W_query, x @ W_value\n",
        ),
    ),
)

# attention_scores ------------------------------------------------------------------------


def attention_scores_documents():
    return [
        Case("document 004: scores of all three queries", calling(QUERIES, KEYS), SCORES),
        Case("document 004: scores of query 1", calling(QUERIES[0], KEYS), SCORES[0]),
    ]


def attention_scores_random(gen):
    cases = []
    for i in range(3):
        n, seq, d_k = sizes(gen, 3)
        queries, keys = randn(gen, n, d_k), randn(gen, seq, d_k)
        cases.append(Case(f"random case {i + 1} ({n} queries, {seq} keys)", calling(queries, keys)))
    batch, n, seq, d_k = sizes(gen, 4)
    queries, keys = randn(gen, batch, n, d_k), randn(gen, batch, seq, d_k)
    cases.append(Case("random batched case", calling(queries, keys)))
    return cases


ATTENTION_SCORES = Step(
    name="attention_scores",
    reference=solutions.attention_scores,
    document_cases=attention_scores_documents,
    random_cases=attention_scores_random,
    mistakes=(
        Mistake(
            "queries and keys swapped",
            "attention_scores",
            "row i belongs to query i: compute queries @ keys^T, not keys @ queries^T",
            "def attention_scores(queries, keys):\n"
            "    return keys @ queries.transpose(-2, -1)\n",
        ),
        Mistake(
            "scores scaled too early",
            "attention_scores",
            "this step returns the raw dot products; the 1/sqrt(d_k) comes later",
            "def attention_scores(queries, keys):\n"
            "    return queries @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])\n",
        ),
    ),
)

# stable_softmax --------------------------------------------------------------------------


def stable_softmax_documents():
    return [Case("document 004: softmax of the scores", calling(SCORES), SOFTMAX)]


def stable_softmax_random(gen):
    cases = []
    for i, dim in enumerate((-1, 0, 1)):
        rows, cols, depth = sizes(gen, 3)
        scores = 3 * randn(gen, rows, cols, depth)
        cases.append(Case(f"random case {i + 1} (dim={dim})", calling(scores, dim=dim)))
    large = 1e4 * randn(gen, *sizes(gen, 2))
    cases.append(Case("scores of size 1e4", calling(large)))
    return cases


def softmax_rows_sum_to_one(subject, gen):
    rows, cols = sizes(gen, 2)
    rows_sum_to_one(subject(randn(gen, rows, cols), dim=0), dim=0)


def softmax_finite_for_large_scores(subject, gen):
    weights = subject(1e4 * randn(gen, *sizes(gen, 2)))
    assert torch.isfinite(weights).all(), "scores of 1e4 must give finite weights (no nan, no inf)"


def no_builtin_softmax(subject):
    calls = calls_during(SOFTMAX_ENTRY_POINTS, lambda: subject(torch.randn(3, 5)))
    if calls:
        return f"stable_softmax calls PyTorch's {calls[0]}: write it with torch.exp and a sum"
    return None


STABLE_SOFTMAX = Step(
    name="stable_softmax",
    reference=solutions.stable_softmax,
    document_cases=stable_softmax_documents,
    random_cases=stable_softmax_random,
    properties=(softmax_rows_sum_to_one, softmax_finite_for_large_scores),
    rules=(
        forbids_names(
            "no built-in softmax",
            {"softmax", "log_softmax", "Softmax", "LogSoftmax"},
            "this step is about writing softmax yourself",
        ),
        Rule("no built-in softmax at run time", no_builtin_softmax),
    ),
    mistakes=(
        Mistake(
            "softmax without max-subtraction",
            "stable_softmax",
            "exp of a large score overflows to inf and inf/inf is nan; subtract the maximum "
            "along dim first",
            "def stable_softmax(scores, dim=-1):\n"
            "    e = torch.exp(scores)\n"
            "    return e / e.sum(dim=dim, keepdim=True)\n",
        ),
        Mistake(
            "softmax over the wrong dim",
            "stable_softmax",
            "take the maximum and the sum along `dim`, the dimension the caller names",
            "def stable_softmax(scores, dim=-1):\n"
            "    other = 0 if dim in (-1, scores.dim() - 1) else -1\n"
            "    e = torch.exp(scores - scores.amax(dim=other, keepdim=True))\n"
            "    return e / e.sum(dim=other, keepdim=True)\n",
        ),
        Mistake(
            "normalised over the whole tensor",
            "stable_softmax",
            "each slice along dim sums to 1 on its own; sum with keepdim=True along dim only",
            "def stable_softmax(scores, dim=-1):\n"
            "    e = torch.exp(scores - scores.max())\n"
            "    return e / e.sum()\n",
        ),
    ),
)

# weighted_values -------------------------------------------------------------------------


def weighted_values_documents():
    run = calling(ROUNDED_WEIGHTS, VALUES)
    return [Case("document 004: weighted values (rounded weights)", run, WEIGHTED_VALUES)]


def weighted_values_random(gen):
    cases = []
    for i in range(3):
        n_queries, n_keys, d_v = sizes(gen, 3)
        weights, values = random_weights(gen, n_queries, n_keys), randn(gen, n_keys, d_v)
        cases.append(Case(f"random case {i + 1}", calling(weights, values)))
    return cases


WEIGHTED_VALUES_STEP = Step(
    name="weighted_values",
    reference=solutions.weighted_values,
    document_cases=weighted_values_documents,
    random_cases=weighted_values_random,
    mistakes=(
        Mistake(
            "weights not transposed",
            "weighted_values",
            "element [j, i] uses weights[i, j]: key j's value times query i's weight for it",
            "def weighted_values(weights, values):\n"
            "    return values[:, None, :] * weights[:, :, None]\n",
        ),
    ),
)

# context_vectors -------------------------------------------------------------------------


def context_vectors_documents():
    return [
        Case("document 004: outputs (rounded weights)", calling(ROUNDED_WEIGHTS, VALUES), OUTPUTS),
        Case("document 004: output 1", calling(ROUNDED_WEIGHTS[0], VALUES), OUTPUTS[0]),
    ]


def context_vectors_random(gen):
    cases = []
    for i in range(3):
        n_queries, n_keys, d_v = sizes(gen, 3)
        weights, values = random_weights(gen, n_queries, n_keys), randn(gen, n_keys, d_v)
        cases.append(Case(f"random case {i + 1}", calling(weights, values)))
    return cases


CONTEXT_VECTORS = Step(
    name="context_vectors",
    reference=solutions.context_vectors,
    document_cases=context_vectors_documents,
    random_cases=context_vectors_random,
    mistakes=(
        Mistake(
            "weights transposed when weighting the values",
            "context_vectors",
            "row i of the weights belongs to query i: compute weights @ values",
            "def context_vectors(weights, values):\n"
            "    return weights.transpose(-2, -1) @ values if weights.dim() > 1 "
            "else weights @ values\n",
        ),
    ),
)

STEPS = (PROJECT_QKV, ATTENTION_SCORES, STABLE_SOFTMAX, WEIGHTED_VALUES_STEP, CONTEXT_VECTORS)
