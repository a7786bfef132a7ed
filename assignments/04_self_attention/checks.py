"""Hidden checks of 04_self_attention: every query at once, as a function and as a module
(document 001, 'The sun rises in the east')."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from autograder.checks.common import (
    calling_then,
    forbids_loops,
    randn,
    random_seed,
    same_work,
    sizes,
    whole,
)
from autograder.checks.compare import TOLERANCE
from autograder.checks.model import Case, Mistake, Similar, Step
from autograder.i18n import t

from .. import recipes
from ..documents import (
    DOC001_CONTEXT_3,
    DOC001_SELF_ATTENTION_OUTPUT,
    example,
)
from . import reference


def document_001():
    """x (6, 3), W_query (3, 2), W_key (3, 2), W_value (3, 4) as document 001 draws them."""
    d = recipes.document_001()
    return d.x, d.W_query, d.W_key, d.W_value


def random_inputs(gen, *batch):
    """x (*batch, seq, d_in) and weights with distinct sizes: seq, d_in, d_k, d_v (so d_v !=
    d_k and no dimension can be confused with another)."""
    seq, d_in, d_k, d_v = sizes(gen, 4)
    x = randn(gen, *batch, seq, d_in)
    return x, randn(gen, d_in, d_k), randn(gen, d_in, d_k), randn(gen, d_in, d_v)


def row_2(result):
    return result[2]


# self_attention --------------------------------------------------------------------------


def self_attention_documents():
    args = document_001()
    return [
        Case(t("{example}: the contexts of all six words", example=example("001")),
             calling_then(whole, *args), DOC001_SELF_ATTENTION_OUTPUT),
        Case(t("{example}: context_3 (row index 2)", example=example("001")),
             calling_then(row_2, *args), DOC001_CONTEXT_3),
    ]


def self_attention_random(gen):
    cases = [
        Case(t("random case {number}", number=i + 1), calling_then(whole, *random_inputs(gen)))
        for i in range(3)
    ]
    batch = sizes(gen, 1, low=2, high=4)[0]
    cases.append(Case(t("random batched case"), calling_then(whole, *random_inputs(gen, batch))))
    return cases


def self_attention_permutation_equivariant(subject, gen):
    """Reordering the input rows reorders the output rows the same way."""
    x, W_query, W_key, W_value = random_inputs(gen)
    perm = torch.randperm(x.shape[0], generator=gen)
    context = subject(x.clone(), W_query, W_key, W_value)
    permuted = subject(x[perm], W_query, W_key, W_value)
    assert torch.allclose(permuted, context[perm], **TOLERANCE), t(
        "permuting the input rows should permute the output rows the same way "
        "(self-attention has no notion of position)"
    )


def self_attention_batch_dims(subject, gen):
    """With a batch dimension, each sequence is attended to on its own."""
    batch = sizes(gen, 1, low=2, high=4)[0]
    x, W_query, W_key, W_value = random_inputs(gen, batch)
    context = subject(x.clone(), W_query, W_key, W_value)
    one_by_one = torch.stack([subject(x[b].clone(), W_query, W_key, W_value) for b in range(batch)])
    assert context.shape == one_by_one.shape and torch.allclose(
        context, one_by_one, **TOLERANCE
    ), t("with a leading batch dim each sequence should be attended to on its own")


def self_attention_weights_sum_to_one(subject, gen):
    """Each query's weights sum to 1 over the keys.

    With every value equal to the same vector c, each context must be c exactly when the
    weights of every query sum to 1 over the keys."""
    x, W_query, W_key, W_value = random_inputs(gen)
    seq, d_in = x.shape
    x = torch.cat([x, torch.ones(seq, 1)], dim=-1)  # a constant last feature
    W_query = torch.cat([W_query, randn(gen, 1, W_query.shape[1])])
    W_key = torch.cat([W_key, randn(gen, 1, W_key.shape[1])])
    c = randn(gen, W_value.shape[1])
    W_value = torch.cat([torch.zeros_like(W_value), c[None]])  # x @ W_value = c in every row
    context = subject(x, W_query, W_key, W_value)
    assert torch.allclose(context, c.expand(seq, -1), **TOLERANCE), t(
        "when every value is the same vector, every context should be that vector: "
        "each query's weights must sum to 1 over the keys"
    )


def self_attention_equals_torch(subject, gen):
    """The result matches torch's scaled_dot_product_attention on the projected inputs."""
    x, W_query, W_key, W_value = random_inputs(gen)
    want = F.scaled_dot_product_attention(x @ W_query, x @ W_key, x @ W_value)
    got = subject(x.clone(), W_query, W_key, W_value)
    assert torch.allclose(got, want, **TOLERANCE), t(
        "the result should equal torch.nn.functional.scaled_dot_product_attention of the "
        "projected queries, keys and values"
    )


def self_attention_finite_for_large_inputs(subject, gen):
    """Inputs a hundred times larger (scores in the thousands) still give torch's result."""
    x, W_query, W_key, W_value = random_inputs(gen)
    x = 100 * x
    want = F.scaled_dot_product_attention(x @ W_query, x @ W_key, x @ W_value)
    got = subject(x.clone(), W_query, W_key, W_value)
    assert bool(torch.isfinite(got).all()) and torch.allclose(got, want, **TOLERANCE), t(
        "inputs 100 times larger (scores in the thousands) should still give torch's result, "
        "with no nan or inf: torch.softmax takes each row's largest score off first, a "
        "softmax written with torch.exp overflows")


SELF_ATTENTION = Step(
    name="self_attention",
    reference=reference.self_attention,
    document_cases=self_attention_documents,
    random_cases=self_attention_random,
    properties=(
        self_attention_permutation_equivariant,
        self_attention_batch_dims,
        self_attention_weights_sum_to_one,
        self_attention_equals_torch,
        self_attention_finite_for_large_inputs,
    ),
    rules=(forbids_loops("no Python loop"),
           same_work("no work repeated per position", [(0, -2, "position")])),
    mistakes=(
        Mistake(
            "no 1/sqrt(d_k)",
            "divide the scores by the square root of the key size before the softmax",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    queries, keys, values = x @ W_query, x @ W_key, x @ W_value\n"
            "    weights = torch.softmax(queries @ keys.transpose(-2, -1), dim=-1)\n"
            "    return weights @ values\n",
        ),
        Mistake(
            "sqrt(d_v) instead of sqrt(d_k)",
            "the scale is the square root of the size of the keys (and queries), not of the "
            "values",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    queries, keys, values = x @ W_query, x @ W_key, x @ W_value\n"
            "    scores = queries @ keys.transpose(-2, -1) / math.sqrt(values.shape[-1])\n"
            "    return torch.softmax(scores, dim=-1) @ values\n",
        ),
        Mistake(
            "queries and keys swapped",
            "row i of the scores belongs to query i: compute queries @ keys^T, with queries "
            "from W_query and keys from W_key",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    queries, keys, values = x @ W_query, x @ W_key, x @ W_value\n"
            "    scores = keys @ queries.transpose(-2, -1) / math.sqrt(keys.shape[-1])\n"
            "    return torch.softmax(scores, dim=-1) @ values\n",
        ),
        Mistake(
            "weights transposed when weighting the values",
            "row i of the weights belongs to query i: multiply weights @ values as they are",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    queries, keys, values = x @ W_query, x @ W_key, x @ W_value\n"
            "    scores = queries @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])\n"
            "    weights = torch.softmax(scores, dim=-1)\n"
            "    return weights.transpose(-2, -1) @ values\n",
        ),
        Mistake(
            "softmax over the wrong dim",
            "each query's weights are normalised over the keys: the last dim of the scores",
            "def self_attention(x, W_query, W_key, W_value):\n"
            "    queries, keys, values = x @ W_query, x @ W_key, x @ W_value\n"
            "    scores = queries @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])\n"
            "    return torch.softmax(scores, dim=-2) @ values\n",
        ),
    ),
)

# SelfAttention ---------------------------------------------------------------------------


def built(seed, sizes_in, x=None):
    """A case's run: construct the module under torch.manual_seed(seed), then return its
    output on x, or (when x is None) its three weight matrices. The caller's global random
    state is restored afterwards."""

    def run(cls):
        module = cls.seeded(seed, *sizes_in)
        if x is None:
            return tuple(getattr(module, n).detach() for n in ("W_query", "W_key", "W_value"))
        return module(x.clone())

    return run


def self_attention_module_documents():
    x = document_001()[0]
    return [
        Case(t("{example}: SelfAttention(3, 2, 4) under seed 123", example=example("001")),
             built(123, (3, 2, 4), x), DOC001_SELF_ATTENTION_OUTPUT),
        Case(t("{example}: the weights SelfAttention(3, 2, 4) draws under seed 123",
               example=example("001")), built(123, (3, 2, 4))),
    ]


def self_attention_module_random(gen):
    cases = []
    for i in range(3):
        seq, d_in, d_kq, d_v = sizes(gen, 4)
        x = randn(gen, seq, d_in)
        label = t("random case {number} (SelfAttention({d_in}, {d_kq}, {d_v}))", number=i + 1,
                  d_in=d_in, d_kq=d_kq, d_v=d_v)
        cases.append(Case(label, built(random_seed(gen), (d_in, d_kq, d_v), x)))
    return cases


def module_has_three_parameters(subject, gen):
    """The module holds W_query, W_key and W_value as parameters of the right shapes."""
    seq, d_in, d_kq, d_v = sizes(gen, 4)
    module = subject(d_in, d_kq, d_v)
    names = [name for name, _ in module.named_parameters()]
    assert names == ["W_query", "W_key", "W_value"], t(
        "the module's parameters should be nn.Parameter attributes W_query, W_key, W_value, "
        "made in that order (found {names})", names=names
    )
    shapes = [tuple(p.shape) for _, p in module.named_parameters()]
    assert shapes == [(d_in, d_kq), (d_in, d_kq), (d_in, d_v)], t(
        "SelfAttention({d_in}, {d_kq}, {d_v}) should have weights of shapes (d_in, d_out_kq), "
        "(d_in, d_out_kq), (d_in, d_out_v), found {shapes}", d_in=d_in, d_kq=d_kq, d_v=d_v,
        shapes=shapes
    )


def module_forward_is_self_attention(subject, gen):
    """The module's forward(x) is self-attention with its own weights."""
    seq, d_in, d_kq, d_v = sizes(gen, 4)
    module = subject(d_in, d_kq, d_v)
    x = randn(gen, seq, d_in)
    want = reference.self_attention(x, module.W_query, module.W_key, module.W_value)
    assert torch.allclose(module(x.clone()), want, **TOLERANCE), t(
        "forward(x) should be self-attention of x with the module's own W_query, W_key, W_value"
    )


SELF_ATTENTION_MODULE = Step(
    name="SelfAttention",
    reference=reference.SelfAttention,
    document_cases=self_attention_module_documents,
    random_cases=self_attention_module_random,
    properties=(module_has_three_parameters, module_forward_is_self_attention),
    uses=("self_attention",),
    mistakes=(
        Mistake(
            "weights drawn in another order",
            "draw W_query first, then W_key, then W_value, so that a seed gives the same weights",
            "class SelfAttention(nn.Module):\n"
            "    def __init__(self, d_in, d_out_kq, d_out_v):\n"
            "        super().__init__()\n"
            "        self.W_key = nn.Parameter(torch.rand(d_in, d_out_kq))\n"
            "        self.W_query = nn.Parameter(torch.rand(d_in, d_out_kq))\n"
            "        self.W_value = nn.Parameter(torch.rand(d_in, d_out_v))\n"
            "\n"
            "    def forward(self, x):\n"
            "        return self_attention(x, self.W_query, self.W_key, self.W_value)\n",
        ),
        Mistake(
            "weights drawn by randn instead of rand",
            "draw the weights uniformly in [0, 1) with torch.rand, as the step asks",
            "class SelfAttention(nn.Module):\n"
            "    def __init__(self, d_in, d_out_kq, d_out_v):\n"
            "        super().__init__()\n"
            "        self.W_query = nn.Parameter(torch.randn(d_in, d_out_kq))\n"
            "        self.W_key = nn.Parameter(torch.randn(d_in, d_out_kq))\n"
            "        self.W_value = nn.Parameter(torch.randn(d_in, d_out_v))\n"
            "\n"
            "    def forward(self, x):\n"
            "        return self_attention(x, self.W_query, self.W_key, self.W_value)\n",
        ),
        Mistake(
            "weights drawn as (d_out, d_in)",
            "in the row convention a weight is (d_in, d_out) and is used as x @ W",
            "class SelfAttention(nn.Module):\n"
            "    def __init__(self, d_in, d_out_kq, d_out_v):\n"
            "        super().__init__()\n"
            "        self.W_query = nn.Parameter(torch.rand(d_out_kq, d_in))\n"
            "        self.W_key = nn.Parameter(torch.rand(d_out_kq, d_in))\n"
            "        self.W_value = nn.Parameter(torch.rand(d_out_v, d_in))\n"
            "\n"
            "    def forward(self, x):\n"
            "        return self_attention(x, self.W_query.T, self.W_key.T, self.W_value.T)\n",
        ),
    ),
)

STEPS = (SELF_ATTENTION, SELF_ATTENTION_MODULE)

# When the similarity report flags a pair (bench/similarity_calibration.py 04_self_attention):
# an honest pair reaches a share of 0.762 (232 characters), and copies of one disguise
# start at 0.617 and 210 characters: the class is nearly dictated by the step.
SIMILARITY = Similar(tells=False)
