"""Hidden checks of 03_scaled_dot_product: one query of documents 000, 001 and 002, traced
through projection, scaled softmax and the weighted sum of the values."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from autograder.checks.common import calling, future, randn, rows_sum_to_one, sizes
from autograder.checks.compare import TOLERANCE, close
from autograder.checks.model import Case, Mistake, Similar, Step
from autograder.i18n import t

from .. import recipes
from ..documents import (
    DOC000_CONTEXT_2,
    DOC000_WEIGHTS_2,
    DOC001_CONTEXT_3,
    DOC001_OMEGA_3,
    DOC001_WEIGHTS_3,
    DOC002_ATTENTION_2,
    DOC002_CONTEXT_2,
    DOC002_OMEGA_2,
    DOC002_OMEGA_24,
    example,
)
from . import reference


def document_001():
    """query 3, keys and values of document 001, in the row convention."""
    d = recipes.document_001()
    return d.x[2] @ d.W_query, d.x @ d.W_key, d.x @ d.W_value  # (2,), (6, 2), (6, 4)


def document_000():
    """query 2, keys and values of document 000; the document computes W @ x, which is
    x @ W.T."""
    d = recipes.document_000()
    return d.x[1] @ d.W_query.T, d.x @ d.W_key.T, d.x @ d.W_value.T  # (24,), (6, 24), (6, 28)


def document_002():
    """query 2, keys and values of document 002 (weights drawn right after the embedding)."""
    d = recipes.document_002()
    return d.x[1] @ d.W_query.T, d.x @ d.W_key.T, d.x @ d.W_value.T  # (24,), (6, 24), (6, 28)


# project ---------------------------------------------------------------------------------


def project_documents():
    query_3, keys_001, _ = document_001()
    query_2, keys_002, _ = document_002()
    return [
        Case(
            t("{example}: query 3's scores, project(query_3, keys.T)", example=example("001")),
            calling(query_3, keys_001.T),
            DOC001_OMEGA_3,
        ),
        Case(
            t("{example}: query 2's score against word 5, project(q_2, keys[4:5].T)",
              example=example("002")),
            calling(query_2, keys_002[4:5].T),
            DOC002_OMEGA_24.reshape(1),
        ),
        Case(
            t("{example}: query 2's scores, project(q_2, keys.T)", example=example("002")),
            calling(query_2, keys_002.T),
            DOC002_OMEGA_2,
        ),
    ]


def project_random(gen):
    cases = []
    for i in range(2):
        seq, d_in, d_out = sizes(gen, 3)
        label = t("random case {number} ({seq}x{d_in} @ {d_in}x{d_out})", number=i + 1,
                  seq=seq, d_in=d_in, d_out=d_out)
        cases.append(Case(label, calling(randn(gen, seq, d_in), randn(gen, d_in, d_out))))
    seq, d = sizes(gen, 2)
    cases.append(Case(t("a square weight"), calling(randn(gen, seq, d), randn(gen, d, d))))
    batch, seq, d_in, d_out = sizes(gen, 4)
    cases.append(Case(t("a batch of sequences"),
                      calling(randn(gen, batch, seq, d_in), randn(gen, d_in, d_out))))
    d_in, d_out = sizes(gen, 2)
    cases.append(Case(t("a single row"), calling(randn(gen, d_in), randn(gen, d_in, d_out))))
    return cases


def project_row_by_row(subject, gen):
    """Projecting all rows at once gives each row's own projection."""
    seq, d_in, d_out = sizes(gen, 3)
    x, W = randn(gen, seq, d_in), randn(gen, d_in, d_out)
    all_rows = subject(x.clone(), W.clone())
    one_row = subject(x[1].clone(), W.clone())
    assert torch.allclose(all_rows[1], one_row, **TOLERANCE), t(
        "projecting all rows at once should give, in row i, the projection of row i alone"
    )


PROJECT = Step(
    name="project",
    reference=reference.project,
    document_cases=project_documents,
    random_cases=project_random,
    properties=(project_row_by_row,),
    mistakes=(
        Mistake(
            "weight applied from the left",
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
        Case(t("{example}: query {query}'s weights (d_k = {d_k})", example=example("001"),
               query=3, d_k=2), calling(DOC001_OMEGA_3, 2), DOC001_WEIGHTS_3),
        Case(t("{example}: query {query}'s weights (d_k = {d_k})", example=example("000"),
               query=2, d_k=24), calling(query_2 @ keys_000.T, 24), DOC000_WEIGHTS_2),
        Case(t("{example}: query {query}'s weights, a saturated softmax (d_k = {d_k})",
               example=example("002"), query=2, d_k=24),
             calling(DOC002_OMEGA_2, 24), DOC002_ATTENTION_2),
    ]


def scaled_softmax_random(gen):
    cases = []
    for i in range(2):
        n, seq, d_k = sizes(gen, 3)
        scores = 3 * randn(gen, n, seq)
        cases.append(Case(t("random case {number} ({n} queries, {seq} keys, d_k = {d_k})",
                            number=i + 1, n=n, seq=seq, d_k=d_k), calling(scores, d_k)))
    batch, n, seq, d_k = sizes(gen, 4)
    cases.append(Case(t("random batched case (d_k = {d_k})", d_k=d_k),
                      calling(3 * randn(gen, batch, n, seq), d_k)))
    seq, d_k = sizes(gen, 2)
    cases.append(Case(t("one query's scores (d_k = {d_k})", d_k=d_k),
                      calling(3 * randn(gen, seq), d_k)))
    return cases


def scaled_weights_sum_to_one(subject, gen):
    """Each query's weights sum to 1."""
    n, seq, d_k = sizes(gen, 3)
    rows_sum_to_one(subject(randn(gen, n, seq), d_k), dim=-1, what=t("weights of each query"))


def shift_invariant(subject, gen):
    """Adding one number to all of a query's scores leaves its weights unchanged."""
    n, seq, d_k = sizes(gen, 3)
    scores = randn(gen, n, seq)
    shifted = scores + 10 * randn(gen, n, 1)
    assert torch.allclose(subject(scores, d_k), subject(shifted, d_k), atol=1e-5), t(
        "adding the same number to all of one query's scores should not change its weights"
    )


def finite_for_large_scores(subject, gen):
    """Scores in the thousands still give finite weights."""
    # a softmax by hand takes each query's largest score off first: the notebook's rule says so
    n, seq, d_k = sizes(gen, 3)
    scores = 1e4 * randn(gen, n, seq)
    weights = subject(scores.clone(), d_k)
    assert torch.isfinite(weights).all(), t(
        "scores in the thousands must give finite weights (no nan, no inf): subtract each "
        "query's largest score before torch.exp, as in assignment 1")
    close(weights, torch.softmax(scores / math.sqrt(d_k), dim=-1), t(
        "scores in the thousands must still give the softmax's weights (clamping the scores "
        "changes them): subtract each query's largest score instead"))


SCALED_SOFTMAX = Step(
    name="scaled_softmax",
    reference=reference.scaled_softmax,
    document_cases=scaled_softmax_documents,
    random_cases=scaled_softmax_random,
    properties=(scaled_weights_sum_to_one, shift_invariant, finite_for_large_scores),
    mistakes=(
        Mistake(
            "no 1/sqrt(d_k)",
            "divide the scores by sqrt(d_k) before the softmax",
            "def scaled_softmax(scores, d_k):\n"
            "    return torch.softmax(scores, dim=-1)\n",
        ),
        Mistake(
            "d_k instead of sqrt(d_k)",
            "the scores are divided by the square root of d_k, not by d_k itself",
            "def scaled_softmax(scores, d_k):\n"
            "    return torch.softmax(scores / d_k, dim=-1)\n",
        ),
        Mistake(
            "softmax over the wrong dim",
            "each query's scores lie along the last dim: normalise along dim=-1",
            "def scaled_softmax(scores, d_k):\n"
            "    return torch.softmax(scores / math.sqrt(d_k), dim=0)\n",
        ),
        Mistake(
            "multiplied by sqrt(d_k)",
            "the scaling makes the scores smaller: divide by sqrt(d_k), do not multiply",
            "def scaled_softmax(scores, d_k):\n"
            "    return torch.softmax(scores * math.sqrt(d_k), dim=-1)\n",
        ),
    ),
)

# scaled_dot_product_attention ------------------------------------------------------------


def sdpa_documents():
    return [
        Case(t("{example}: query {query}'s context and weights", example=example("001"),
               query=3), calling(*document_001()), (DOC001_CONTEXT_3, DOC001_WEIGHTS_3)),
        Case(t("{example}: query {query}'s context and weights", example=example("000"),
               query=2), calling(*document_000()), (DOC000_CONTEXT_2, DOC000_WEIGHTS_2)),
        Case(t("{example}: query {query}'s context and weights", example=example("002"),
               query=2), calling(*document_002()), (DOC002_CONTEXT_2, DOC002_ATTENTION_2)),
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
    cases = [Case(t("random case {number}", number=i + 1), calling(*random_qkv(gen)))
             for i in range(2)]
    queries, keys, values = random_qkv(gen)
    cases.append(Case(t("one query (1-d)"), calling(queries[0], keys, values)))
    (batch,) = sizes(gen, 1)
    cases.append(Case(t("a batch of {batch}", batch=batch), calling(*random_qkv(gen, batch))))
    queries, keys, values = random_qkv(gen)
    mask = random_mask(gen, queries.shape[0], keys.shape[0])
    cases.append(Case(t("a mask with one row fully masked"),
                      calling(queries, keys, values, mask=mask)))
    (batch,) = sizes(gen, 1)
    queries, keys, values = random_qkv(gen, batch)
    masks = [random_mask(gen, queries.shape[-2], keys.shape[-2]) for _ in range(batch)]
    cases.append(Case(t("a batch of {batch} with a mask per sequence", batch=batch),
                      calling(queries, keys, values, mask=torch.stack(masks))))
    queries, keys, values = random_qkv(gen)
    padding = random_mask(gen, 2, keys.shape[0])[1]  # (seq,): one row with a key left open
    cases.append(Case(t("a padding mask of shape (seq,), the same for every query"),
                      calling(queries, keys, values, mask=padding)))
    return cases


def equals_torch_sdpa(subject, gen):
    """The context matches torch's scaled_dot_product_attention on fresh random inputs."""
    (batch,) = sizes(gen, 1)
    queries, keys, values = random_qkv(gen, batch)
    context, _ = subject(queries.clone(), keys.clone(), values.clone())
    want = F.scaled_dot_product_attention(queries, keys, values)
    assert torch.allclose(context, want, **TOLERANCE), t(
        "the context should equal torch.nn.functional.scaled_dot_product_attention's output"
    )


def equals_torch_sdpa_causal(subject, gen):
    """With a causal mask, the context matches torch's scaled_dot_product_attention."""
    (seq,) = sizes(gen, 1)
    queries, keys, values = random_qkv(gen, n=seq, seq=seq)
    mask = future(seq)
    context, _ = subject(queries.clone(), keys.clone(), values.clone(), mask=mask)
    want = F.scaled_dot_product_attention(queries, keys, values, attn_mask=~mask)
    assert torch.allclose(context, want, **TOLERANCE), t(
        "with a causal mask the context should equal torch.nn.functional."
        "scaled_dot_product_attention's output (whose bool mask is True where allowed)"
    )


def weights_sum_to_one(subject, gen):
    """Each query's weights sum to 1, with and without a causal mask."""
    queries, keys, values = random_qkv(gen)
    _, weights = subject(queries, keys, values)
    rows_sum_to_one(weights, dim=-1, what=t("weights of each query"))
    (seq,) = sizes(gen, 1)
    queries, keys, values = random_qkv(gen, n=seq, seq=seq)
    _, weights = subject(queries, keys, values, mask=future(seq))
    rows_sum_to_one(weights, dim=-1, what=t("weights of each query under a causal mask"))


def masked_weights_exactly_zero(subject, gen):
    """Every masked weight is exactly 0."""
    queries, keys, values = random_qkv(gen)
    mask = random_mask(gen, queries.shape[0], keys.shape[0])
    _, weights = subject(queries, keys, values, mask=mask)
    assert bool((weights[mask] == 0).all()), t("every masked weight should be exactly 0")


def fully_masked_row_gives_zeros(subject, gen):
    """A query with every key masked gets zero weights and a zero context."""
    queries, keys, values = random_qkv(gen)
    mask = random_mask(gen, queries.shape[0], keys.shape[0])
    context, weights = subject(queries, keys, values, mask=mask)
    assert torch.isfinite(context).all() and torch.isfinite(weights).all(), t(
        "a query with every key masked should give zeros, not nan"
    )
    assert bool((context[0] == 0).all()) and bool((weights[0] == 0).all()), t(
        "a query with every key masked should get all-zero weights and a zero context"
    )


SCALED_DOT_PRODUCT_ATTENTION = Step(
    name="scaled_dot_product_attention",
    reference=reference.scaled_dot_product_attention,
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

# When the similarity report flags a pair (bench/similarity_calibration.py 03_scaled_dot_product):
# honest pairs reach 0.380 and 73 characters; every copy of one disguise has 0.484 or
# more and 105 characters or more.
SIMILARITY = Similar(share=0.43, characters=90)
