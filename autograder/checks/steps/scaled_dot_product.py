"""Hidden checks of 03_scaled_dot_product: one query of documents 000, 001 and 002, traced
through projection, scaled softmax and the weighted sum of the values."""

from __future__ import annotations

import functools

import torch
import torch.nn.functional as F

import solutions
from autograder.checks.common import calling, randn, rows_sum_to_one, sizes
from autograder.checks.documents import (
    DOC000_CONTEXT_2,
    DOC000_IDS,
    DOC000_WEIGHTS_2,
    DOC001_CONTEXT_3,
    DOC001_IDS,
    DOC001_OMEGA_3,
    DOC001_VOCAB_SIZE,
    DOC001_WEIGHTS_3,
    DOC002_ATTENTION_2,
    DOC002_CONTEXT_2,
    DOC002_IDS,
    DOC002_OMEGA_2,
    DOC002_OMEGA_24,
)
from autograder.checks.model import Case, Mistake, Step


def seeded(seed=123):
    """The documents' torch.manual_seed(seed), as a private generator (the global random
    state of the student's kernel is left alone); CPU draws are the same numbers."""
    return torch.Generator().manual_seed(seed)


@functools.cache
def document_001():
    """query 3, keys and values: nn.Embedding(50000, 3) and then torch.rand(d, d_out) weights,
    each under seed 123, in the row convention."""
    x = torch.randn(DOC001_VOCAB_SIZE, 3, generator=seeded())[DOC001_IDS]
    gen = seeded()
    W_query, W_key, W_value = (torch.rand(3, n, generator=gen) for n in (2, 2, 4))
    return x[2] @ W_query, x @ W_key, x @ W_value


@functools.cache
def document_000():
    """query 2, keys and values: nn.Embedding(6, 16), then torch.rand(d_out, d) weights, each
    under seed 123; the document computes W @ x, which is x @ W.T."""
    x = torch.randn(6, 16, generator=seeded())[DOC000_IDS]
    gen = seeded()
    W_query, W_key, W_value = (torch.rand(n, 16, generator=gen) for n in (24, 24, 28))
    return x[1] @ W_query.T, x @ W_key.T, x @ W_value.T


@functools.cache
def document_002():
    """query 2, keys and values: the torch.randn(d_out, d) weights are drawn right after
    nn.Embedding(6, 16) under seed 123, with no new seed."""
    gen = seeded()
    table = torch.randn(6, 16, generator=gen)
    W_query, W_key, W_value = (torch.randn(n, 16, generator=gen) for n in (24, 24, 28))
    x = table[DOC002_IDS]
    return x[1] @ W_query.T, x @ W_key.T, x @ W_value.T


# project ---------------------------------------------------------------------------------


def project_documents():
    query_3, keys_001, _ = document_001()
    query_2, keys_002, _ = document_002()
    return [
        Case(
            "document 001: query 3's scores, project(query_3, keys.T)",
            calling(query_3, keys_001.T),
            DOC001_OMEGA_3,
        ),
        Case(
            "document 002: omega_24, project(q_2, keys[4:5].T)",
            calling(query_2, keys_002[4:5].T),
            DOC002_OMEGA_24.reshape(1),
        ),
        Case(
            "document 002: omega_2, project(q_2, keys.T)",
            calling(query_2, keys_002.T),
            DOC002_OMEGA_2,
        ),
    ]


def project_random(gen):
    cases = []
    for i in range(2):
        seq, d_in, d_out = sizes(gen, 3)
        case = Case(f"random case {i + 1} ({seq}x{d_in} @ {d_in}x{d_out})",
                    calling(randn(gen, seq, d_in), randn(gen, d_in, d_out)))
        cases.append(case)
    seq, d = sizes(gen, 2)
    cases.append(Case("a square weight", calling(randn(gen, seq, d), randn(gen, d, d))))
    batch, seq, d_in, d_out = sizes(gen, 4)
    cases.append(Case("a batch of sequences",
                      calling(randn(gen, batch, seq, d_in), randn(gen, d_in, d_out))))
    d_in, d_out = sizes(gen, 2)
    cases.append(Case("a single row", calling(randn(gen, d_in), randn(gen, d_in, d_out))))
    return cases


def project_row_by_row(subject, gen):
    seq, d_in, d_out = sizes(gen, 3)
    x, W = randn(gen, seq, d_in), randn(gen, d_in, d_out)
    all_rows = subject(x.clone(), W.clone())
    one_row = subject(x[1].clone(), W.clone())
    assert torch.allclose(all_rows[1], one_row, rtol=1e-4, atol=1e-5), (
        "projecting all rows at once should give, in row i, the projection of row i alone"
    )


PROJECT = Step(
    name="project",
    reference=solutions.project,
    document_cases=project_documents,
    random_cases=project_random,
    properties=(project_row_by_row,),
    mistakes=(
        Mistake(
            "weight applied from the left",
            "project",
            "in the row convention the input comes first and W is (d_in, d_out): multiply "
            "x by W in that order, with W as it is",
            "def project(x, W):\n"
            "    return (W @ x.transpose(-2, -1)).transpose(-2, -1) if x.dim() > 1 else W @ x\n",
        ),
    ),
)

# scaled_softmax --------------------------------------------------------------------------


def scaled_softmax_documents():
    query_2, keys_000, _ = document_000()
    return [
        Case("document 001: query 3's weights (d_k = 2)", calling(DOC001_OMEGA_3, 2),
             DOC001_WEIGHTS_3),
        Case("document 000: query 2's weights (d_k = 24)", calling(query_2 @ keys_000.T, 24),
             DOC000_WEIGHTS_2),
        Case("document 002: attention_2, a saturated softmax (d_k = 24)",
             calling(DOC002_OMEGA_2, 24), DOC002_ATTENTION_2),
    ]


def scaled_softmax_random(gen):
    cases = []
    for i in range(2):
        n, seq, d_k = sizes(gen, 3)
        scores = 3 * randn(gen, n, seq)
        cases.append(Case(f"random case {i + 1} ({n} queries, {seq} keys, d_k = {d_k})",
                          calling(scores, d_k)))
    batch, n, seq, d_k = sizes(gen, 4)
    cases.append(Case(f"random batched case (d_k = {d_k})",
                      calling(3 * randn(gen, batch, n, seq), d_k)))
    seq, d_k = sizes(gen, 2)
    cases.append(Case(f"one query's scores (d_k = {d_k})", calling(3 * randn(gen, seq), d_k)))
    return cases


def scaled_weights_sum_to_one(subject, gen):
    n, seq, d_k = sizes(gen, 3)
    rows_sum_to_one(subject(randn(gen, n, seq), d_k), dim=-1, what="weights of each query")


def shift_invariant(subject, gen):
    n, seq, d_k = sizes(gen, 3)
    scores = randn(gen, n, seq)
    shifted = scores + 10 * randn(gen, n, 1)
    assert torch.allclose(subject(scores, d_k), subject(shifted, d_k), atol=1e-5), (
        "adding the same number to all of one query's scores should not change its weights"
    )


SCALED_SOFTMAX = Step(
    name="scaled_softmax",
    reference=solutions.scaled_softmax,
    document_cases=scaled_softmax_documents,
    random_cases=scaled_softmax_random,
    properties=(scaled_weights_sum_to_one, shift_invariant),
    mistakes=(
        Mistake(
            "no 1/sqrt(d_k)",
            "scaled_softmax",
            "divide the scores by sqrt(d_k) before the softmax",
            "def scaled_softmax(scores, d_k):\n"
            "    return torch.softmax(scores, dim=-1)\n",
        ),
        Mistake(
            "d_k instead of sqrt(d_k)",
            "scaled_softmax",
            "the scores are divided by the square root of d_k, not by d_k itself",
            "def scaled_softmax(scores, d_k):\n"
            "    return torch.softmax(scores / d_k, dim=-1)\n",
        ),
        Mistake(
            "softmax over the wrong dim",
            "scaled_softmax",
            "each query's scores lie along the last dim: normalise along dim=-1",
            "def scaled_softmax(scores, d_k):\n"
            "    return torch.softmax(scores / math.sqrt(d_k), dim=0)\n",
        ),
        Mistake(
            "multiplied by sqrt(d_k)",
            "scaled_softmax",
            "the scaling makes the scores smaller: divide by sqrt(d_k), do not multiply",
            "def scaled_softmax(scores, d_k):\n"
            "    return torch.softmax(scores * math.sqrt(d_k), dim=-1)\n",
        ),
    ),
)

# scaled_dot_product_attention ------------------------------------------------------------


def sdpa_documents():
    return [
        Case("document 001: query 3's context and weights", calling(*document_001()),
             (DOC001_CONTEXT_3, DOC001_WEIGHTS_3)),
        Case("document 000: query 2's context and weights", calling(*document_000()),
             (DOC000_CONTEXT_2, DOC000_WEIGHTS_2)),
        Case("document 002: query 2's context and weights", calling(*document_002()),
             (DOC002_CONTEXT_2, DOC002_ATTENTION_2)),
    ]


def random_qkv(gen, *lead, n=None, seq=None):
    """queries (*lead, n, d_k), keys (*lead, seq, d_k), values (*lead, seq, d_v), with
    d_k != d_v and n != seq unless given."""
    a, b, d_k, d_v = sizes(gen, 4)
    n, seq = n or a, seq or b
    return randn(gen, *lead, n, d_k), randn(gen, *lead, seq, d_k), randn(gen, *lead, seq, d_v)


def random_mask(gen, n, seq):
    """A mask with a fully masked first row and at least one open key in every other row."""
    mask = torch.rand(n, seq, generator=gen) < 0.5
    mask[1:, int(torch.randint(seq, (1,), generator=gen))] = False
    mask[0] = True
    return mask


def sdpa_random(gen):
    cases = [Case(f"random case {i + 1}", calling(*random_qkv(gen))) for i in range(2)]
    queries, keys, values = random_qkv(gen)
    cases.append(Case("one query (1-d)", calling(queries[0], keys, values)))
    (batch,) = sizes(gen, 1)
    cases.append(Case(f"a batch of {batch}", calling(*random_qkv(gen, batch))))
    queries, keys, values = random_qkv(gen)
    mask = random_mask(gen, queries.shape[0], keys.shape[0])
    cases.append(Case("a mask with one row fully masked",
                      calling(queries, keys, values, mask=mask)))
    return cases


def causal(n):
    return torch.ones(n, n, dtype=torch.bool).triu(diagonal=1)


def equals_torch_sdpa(subject, gen):
    (batch,) = sizes(gen, 1)
    queries, keys, values = random_qkv(gen, batch)
    context, _ = subject(queries.clone(), keys.clone(), values.clone())
    want = F.scaled_dot_product_attention(queries, keys, values)
    assert torch.allclose(context, want, rtol=1e-4, atol=1e-5), (
        "the context should equal torch.nn.functional.scaled_dot_product_attention's output"
    )


def equals_torch_sdpa_causal(subject, gen):
    (seq,) = sizes(gen, 1)
    queries, keys, values = random_qkv(gen, n=seq, seq=seq)
    mask = causal(seq)
    context, _ = subject(queries.clone(), keys.clone(), values.clone(), mask=mask)
    want = F.scaled_dot_product_attention(queries, keys, values, attn_mask=~mask)
    assert torch.allclose(context, want, rtol=1e-4, atol=1e-5), (
        "with a causal mask the context should equal torch.nn.functional."
        "scaled_dot_product_attention's output (whose bool mask is True where allowed)"
    )


def weights_sum_to_one(subject, gen):
    queries, keys, values = random_qkv(gen)
    _, weights = subject(queries, keys, values)
    rows_sum_to_one(weights, dim=-1, what="weights of each query")
    (seq,) = sizes(gen, 1)
    queries, keys, values = random_qkv(gen, n=seq, seq=seq)
    _, weights = subject(queries, keys, values, mask=causal(seq))
    rows_sum_to_one(weights, dim=-1, what="weights of each query under a causal mask")


def masked_weights_exactly_zero(subject, gen):
    queries, keys, values = random_qkv(gen)
    mask = random_mask(gen, queries.shape[0], keys.shape[0])
    _, weights = subject(queries, keys, values, mask=mask)
    assert bool((weights[mask] == 0).all()), "every masked weight should be exactly 0"


def fully_masked_row_gives_zeros(subject, gen):
    queries, keys, values = random_qkv(gen)
    mask = random_mask(gen, queries.shape[0], keys.shape[0])
    context, weights = subject(queries, keys, values, mask=mask)
    assert torch.isfinite(context).all() and torch.isfinite(weights).all(), (
        "a query with every key masked should give zeros, not nan"
    )
    assert bool((context[0] == 0).all()) and bool((weights[0] == 0).all()), (
        "a query with every key masked should get all-zero weights and a zero context"
    )


SCALED_DOT_PRODUCT_ATTENTION = Step(
    name="scaled_dot_product_attention",
    reference=solutions.scaled_dot_product_attention,
    document_cases=sdpa_documents,
    random_cases=sdpa_random,
    properties=(
        equals_torch_sdpa,
        equals_torch_sdpa_causal,
        weights_sum_to_one,
        masked_weights_exactly_zero,
        fully_masked_row_gives_zeros,
    ),
    uses=("scaled_softmax",),
    mistakes=(
        Mistake(
            "sqrt(d_v) instead of sqrt(d_k)",
            "scaled_dot_product_attention",
            "the scale comes from the size of the keys (and queries), keys.shape[-1], "
            "not from the values",
            "def scaled_dot_product_attention(queries, keys, values, mask=None):\n"
            "    scores = queries @ keys.transpose(-2, -1)\n"
            "    if mask is not None:\n"
            "        scores = scores.masked_fill(mask, float('-inf'))\n"
            "    weights = scaled_softmax(scores, values.shape[-1])\n"
            "    if mask is not None:\n"
            "        weights = weights.masked_fill(mask, 0.0)\n"
            "    return weights @ values, weights\n",
        ),
        Mistake(
            "no 1/sqrt(d_k)",
            "scaled_dot_product_attention",
            "divide the scores by sqrt(d_k) before the softmax (scaled_softmax does it)",
            "def scaled_dot_product_attention(queries, keys, values, mask=None):\n"
            "    scores = queries @ keys.transpose(-2, -1)\n"
            "    if mask is not None:\n"
            "        scores = scores.masked_fill(mask, float('-inf'))\n"
            "    weights = torch.softmax(scores, dim=-1)\n"
            "    if mask is not None:\n"
            "        weights = weights.masked_fill(mask, 0.0)\n"
            "    return weights @ values, weights\n",
        ),
        Mistake(
            "mask applied after the softmax",
            "scaled_dot_product_attention",
            "hide the masked scores before the softmax (set them to -inf), so the weights "
            "that remain still sum to 1",
            "def scaled_dot_product_attention(queries, keys, values, mask=None):\n"
            "    weights = scaled_softmax(queries @ keys.transpose(-2, -1), keys.shape[-1])\n"
            "    if mask is not None:\n"
            "        weights = weights.masked_fill(mask, 0.0)\n"
            "    return weights @ values, weights\n",
        ),
        Mistake(
            "fully masked row gives nan",
            "scaled_dot_product_attention",
            "a query whose keys are all masked has softmax(-inf, ..., -inf) = nan; set its "
            "masked weights to exactly 0 after the softmax",
            "def scaled_dot_product_attention(queries, keys, values, mask=None):\n"
            "    scores = queries @ keys.transpose(-2, -1)\n"
            "    if mask is not None:\n"
            "        scores = scores.masked_fill(mask, float('-inf'))\n"
            "    weights = scaled_softmax(scores, keys.shape[-1])\n"
            "    return weights @ values, weights\n",
        ),
    ),
)

STEPS = (PROJECT, SCALED_SOFTMAX, SCALED_DOT_PRODUCT_ATTENTION)
