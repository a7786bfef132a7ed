"""Hidden checks of 05_multi_head: many heads by one batched product (documents 000 and 002)
and torch.nn.MultiheadAttention written out (document 003)."""

from __future__ import annotations

import inspect
import math

import torch
import torch.nn.functional as F
from torch import nn

from autograder.checks.common import (
    calling_then,
    forbids_loops,
    forbids_ops,
    randn,
    random_seed,
    requires_names,
    rewritten,
    same_work,
    seeded_as,
    sizes,
    stream,
    whole,
)
from autograder.checks.compare import TOLERANCE
from autograder.checks.model import Case, Mistake, Similar, Step
from autograder.i18n import t

from .. import recipes
from ..documents import (
    DOC000_MULTIHEAD_KEYS_SHAPE,
    DOC000_MULTIHEAD_QUERY_2_SHAPE,
    DOC000_MULTIHEAD_VALUES_SHAPE,
    DOC002_MULTIHEAD_CONTEXT_2_SHAPE,
    DOC002_MULTIHEAD_OMEGA_2_SHAPE,
    DOC002_MULTIHEAD_QUERY_2_SHAPE,
    DOC002_MULTIHEAD_WEIGHT_SHAPES,
    DOC003_MHA_OUTPUT_SHAPE,
    DOC003_MHA_SIZES,
    DOC003_MHA_WEIGHTS_SHAPE,
    example,
)
from . import reference


def document_000():
    """x (6, 16) and the multi-head weights (h, d_out, d) of document 000."""
    d = recipes.document_000()
    return d.x, d.multihead_W_query, d.multihead_W_key, d.multihead_W_value


def document_002():
    """x (6, 16) and the multi-head weights (h, d_out, d) of document 002."""
    d = recipes.document_002()
    assert tuple(tuple(w.shape) for w in (d.multihead_W_query, d.multihead_W_key,
                                          d.multihead_W_value)) == DOC002_MULTIHEAD_WEIGHT_SHAPES
    return d.x, d.multihead_W_query, d.multihead_W_key, d.multihead_W_value


def per_head(x, W):
    """The single-head projection x @ W[head].T, head by head: the loop the step replaces."""
    return torch.stack([x @ W[head].T for head in range(W.shape[0])])  # (h, seq, d_out)


def attention_per_head(x, W_query, W_key, W_value):
    """Single-head scaled dot-product self-attention, head by head."""
    contexts = []
    for head in range(W_query.shape[0]):
        queries, keys = x @ W_query[head].T, x @ W_key[head].T  # (seq, d_k)
        values = x @ W_value[head].T  # (seq, d_v)
        weights = torch.softmax(queries @ keys.T / math.sqrt(keys.shape[-1]), dim=-1)
        contexts.append(weights @ values)  # (seq, d_v)
    return torch.stack(contexts)  # (h, seq, d_v)


def with_shape(tensor, shape):
    assert tuple(tensor.shape) == shape, f"expected {shape}, computed {tuple(tensor.shape)}"
    return tensor


def query_2(result):
    """Every head's row of query 2 (index 1): result[:, 1]."""
    return result[:, 1]


# multihead_project -----------------------------------------------------------------------


def multihead_project_documents():
    x, W_query, W_key, W_value = document_000()
    x2, W_q, W_k, _ = document_002()
    keys_002 = torch.bmm(W_k, x2.T.repeat(3, 1, 1)).transpose(1, 2)  # 002, In [18]
    return [
        Case(t("{example}: multi-head keys", example=example("000")),
             calling_then(whole, x, W_key),
             with_shape(per_head(x, W_key), DOC000_MULTIHEAD_KEYS_SHAPE)),
        Case(t("{example}: multi-head values", example=example("000")),
             calling_then(whole, x, W_value),
             with_shape(per_head(x, W_value), DOC000_MULTIHEAD_VALUES_SHAPE)),
        Case(t("{example}: query 2 in every head", example=example("000")),
             calling_then(query_2, x, W_query),
             with_shape(W_query.matmul(x[1]), DOC000_MULTIHEAD_QUERY_2_SHAPE)),  # 000, In [10]
        Case(t("{example}: query 2 in every head", example=example("002")),
             calling_then(query_2, x2, W_q),
             with_shape(W_q.matmul(x2[1]), DOC002_MULTIHEAD_QUERY_2_SHAPE)),  # 002, In [16]
        Case(t("{example}: multi-head keys", example=example("002")),
             calling_then(whole, x2, W_k), keys_002),
    ]


def random_heads(gen):
    """x (seq, d_in) and a stack W (h, d_out, d_in) with distinct sizes."""
    h, seq, d_in, d_out = sizes(gen, 4)
    return randn(gen, seq, d_in), randn(gen, h, d_out, d_in)


def multihead_project_random(gen):
    return [Case(t("random case {number}", number=i + 1), calling_then(whole, *random_heads(gen)))
            for i in range(3)]


def project_equals_per_head_loop(subject, gen):
    """Projecting every head at once matches projecting head by head."""
    x, W = random_heads(gen)
    got = subject(x.clone(), W)
    assert tuple(got.shape) == (W.shape[0], x.shape[0], W.shape[1]), t(
        "the result should be (h, seq, d_out)"
    )
    assert torch.allclose(got, per_head(x, W), **TOLERANCE), t(
        "head i of the result should be x @ W[i].T, the single-head projection"
    )


MULTIHEAD_PROJECT = Step(
    name="multihead_project",
    reference=reference.multihead_project,
    document_cases=multihead_project_documents,
    random_cases=multihead_project_random,
    properties=(project_equals_per_head_loop,),
    rules=(forbids_loops("no Python loop"),
           same_work("no work repeated per head or position",
                     [(1, 0, "head"), (0, -2, "position")]),
           requires_names("calls torch.bmm", {"bmm"},
                          "every head is projected by one batched product")),
    mistakes=(
        Mistake(
            "result left as (h, d_out, seq)",
            "torch.bmm(W, x^T) gives (h, d_out, seq); swap its last two dims to get one row "
            "per position",
            "def multihead_project(x, W):\n"
            "    stacked = x.T.repeat(W.shape[0], 1, 1)\n"
            "    return torch.bmm(W, stacked)\n",
        ),
        Mistake(
            "reshape instead of transpose",
            "reshape keeps the memory order and mixes positions with features; swap the last "
            "two dims with transpose (or permute)",
            "def multihead_project(x, W):\n"
            "    h, d_out, _ = W.shape\n"
            "    stacked = x.T.repeat(h, 1, 1)\n"
            "    return torch.bmm(W, stacked).reshape(h, x.shape[0], d_out)\n",
        ),
    ),
)

# multihead_attention ---------------------------------------------------------------------


def multihead_attention_documents():
    x, W_query, W_key, W_value = document_000()
    x2, W_q, W_k, W_v = document_002()
    # Document 002's own recipe for query 2 (In [16] to In [22]).
    q_2 = W_q.matmul(x2[1]).unsqueeze(-1).swapaxes(-1, -2)  # (3, 1, 24)
    stacked = x2.T.repeat(3, 1, 1)  # (3, 16, 6)
    keys, values = torch.bmm(W_k, stacked), torch.bmm(W_v, stacked)  # (3, 24, 6), (3, 28, 6)
    omega_2 = with_shape(torch.bmm(q_2, keys).squeeze(), DOC002_MULTIHEAD_OMEGA_2_SHAPE)
    attention_2 = torch.softmax(omega_2 / 24**0.5, dim=1)  # (3, 6)
    context_2 = torch.bmm(values, attention_2.unsqueeze(-1)).squeeze()  # (3, 28)
    contexts_000 = attention_per_head(x, W_query, W_key, W_value)  # (3, 6, 28)
    return [
        Case(t("{example}: every head's contexts", example=example("000")),
             calling_then(whole, x, W_query, W_key, W_value),
             contexts_000),
        Case(t("{example}: context of query 2 in every head", example=example("000")),
             calling_then(query_2, x, W_query, W_key, W_value),
             with_shape(contexts_000[:, 1], (3, 28))),
        Case(t("{example}: context of query 2 in every head", example=example("002")),
             calling_then(query_2, x2, W_q, W_k, W_v),
             with_shape(context_2, DOC002_MULTIHEAD_CONTEXT_2_SHAPE)),
    ]


def random_multihead(gen):
    """x (seq, d_in) and stacks W_query, W_key (h, d_k, d_in), W_value (h, d_v, d_in)."""
    h, seq, d_in, d_k, d_v = sizes(gen, 5)
    x = randn(gen, seq, d_in)
    return x, randn(gen, h, d_k, d_in), randn(gen, h, d_k, d_in), randn(gen, h, d_v, d_in)


def multihead_attention_random(gen):
    return [
        Case(t("random case {number}", number=i + 1), calling_then(whole, *random_multihead(gen)))
        for i in range(3)
    ]


def attention_equals_per_head_loop(subject, gen):
    """Each head matches single-head scaled dot-product attention."""
    x, W_query, W_key, W_value = random_multihead(gen)
    got = subject(x.clone(), W_query, W_key, W_value)
    want = torch.stack([
        F.scaled_dot_product_attention(x @ W_query[i].T, x @ W_key[i].T, x @ W_value[i].T)
        for i in range(W_query.shape[0])
    ])
    assert tuple(got.shape) == tuple(want.shape), t("the result should be (h, seq, d_v)")
    assert torch.allclose(got, want, **TOLERANCE), t(
        "head i should be single-head scaled dot-product attention with W_query[i].T, "
        "W_key[i].T and W_value[i].T"
    )


MULTIHEAD_ATTENTION = Step(
    name="multihead_attention",
    reference=reference.multihead_attention,
    document_cases=multihead_attention_documents,
    random_cases=multihead_attention_random,
    properties=(attention_equals_per_head_loop,),
    uses=("multihead_project",),
    mistakes=(
        Mistake(
            "no 1/sqrt(d_k)",
            "divide every head's scores by the square root of the key size before the softmax",
            "def multihead_attention(x, W_query, W_key, W_value):\n"
            "    queries = multihead_project(x, W_query)\n"
            "    keys = multihead_project(x, W_key)\n"
            "    values = multihead_project(x, W_value)\n"
            "    weights = torch.softmax(torch.bmm(queries, keys.transpose(1, 2)), dim=-1)\n"
            "    return torch.bmm(weights, values)\n",
        ),
        Mistake(
            "sqrt(d_v) instead of sqrt(d_k)",
            "the scale is the square root of the size of the keys, not of the values",
            "def multihead_attention(x, W_query, W_key, W_value):\n"
            "    queries = multihead_project(x, W_query)\n"
            "    keys = multihead_project(x, W_key)\n"
            "    values = multihead_project(x, W_value)\n"
            "    scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(values.shape[-1])\n"
            "    return torch.bmm(torch.softmax(scores, dim=-1), values)\n",
        ),
        Mistake(
            "softmax over the wrong dim",
            "the scores are (h, seq_q, seq_k): normalise each query's row over the keys, the "
            "last dim",
            "def multihead_attention(x, W_query, W_key, W_value):\n"
            "    queries = multihead_project(x, W_query)\n"
            "    keys = multihead_project(x, W_key)\n"
            "    values = multihead_project(x, W_value)\n"
            "    scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(keys.shape[-1])\n"
            "    return torch.bmm(torch.softmax(scores, dim=1), values)\n",
        ),
    ),
)

# concat_heads ----------------------------------------------------------------------------


def concat_heads_documents():
    contexts_000 = attention_per_head(*document_000())  # (3, 6, 28)
    contexts_002 = attention_per_head(*document_002())  # (3, 6, 28)
    return [
        Case(t("{example}: the three heads side by side", example=example("000")),
             calling_then(whole, contexts_000),
             with_shape(torch.cat(list(contexts_000), dim=-1), (6, 84))),
        Case(t("{example}: the three heads side by side", example=example("002")),
             calling_then(whole, contexts_002),
             with_shape(torch.cat(list(contexts_002), dim=-1), (6, 84))),
    ]


def concat_heads_random(gen):
    cases = []
    for i in range(3):
        h, seq, d_v = sizes(gen, 3)
        cases.append(Case(t("random case {number}", number=i + 1),
                          calling_then(whole, randn(gen, h, seq, d_v))))
    return cases


def head_0_comes_first(subject, gen):
    """The heads' contexts stand side by side, head 0 first."""
    h, seq, d_v = sizes(gen, 3)
    context = randn(gen, h, seq, d_v)
    got = subject(context.clone())
    assert tuple(got.shape) == (seq, h * d_v), t("the result should be (seq, h * d_v)")
    for head in range(h):
        assert torch.equal(got[:, head * d_v : (head + 1) * d_v], context[head]), t(
            "columns head * d_v to (head + 1) * d_v should hold head `head`'s context, "
            "head 0 first"
        )


CONCAT_HEADS = Step(
    name="concat_heads",
    reference=reference.concat_heads,
    document_cases=concat_heads_documents,
    random_cases=concat_heads_random,
    properties=(head_0_comes_first,),
    mistakes=(
        Mistake(
            "heads merged by reshape without transposing",
            "a plain reshape of (h, seq, d_v) mixes positions of one head into a row; bring "
            "the position axis first (transpose), then reshape",
            "def concat_heads(context):\n"
            "    h, seq, d_v = context.shape\n"
            "    return context.reshape(seq, h * d_v)\n",
        ),
        Mistake(
            "heads stacked one below the other",
            "the heads go side by side, along the feature axis: one row per position",
            "def concat_heads(context):\n"
            "    return torch.cat(list(context), dim=0)\n",
        ),
    ),
)

# MultiHeadAttention ----------------------------------------------------------------------


def torch_module(seed, E, h):
    """torch.nn.MultiheadAttention(E, h) under torch.manual_seed(seed), its (zero by default)
    biases drawn at random so that they count; the global random state is restored."""
    with seeded_as(seed):
        module = nn.MultiheadAttention(E, h)
        with torch.no_grad():
            module.in_proj_bias.normal_()
            module.out_proj.bias.normal_()
    return module


def copied(seed, E, h, inputs, **masks):
    """A case's run: copy a seeded torch module with cls.from_torch, return (output, weights)."""

    def run(cls):
        module = cls.from_torch(torch_module(seed, E, h))
        output, weights = module(*[t.clone() for t in inputs], **masks)
        return output, weights

    return run


def document_003_shapes(cls):
    L, N, E, S = (DOC003_MHA_SIZES[k] for k in "LNES")
    module = cls.seeded(3, E, DOC003_MHA_SIZES["num_heads"])
    gen = stream(3)
    query, key, value = (torch.rand(n, N, E, generator=gen) for n in (L, S, S))
    output, weights = module(query, key, value, key_padding_mask=None, attn_mask=None)
    return tuple(output.shape), tuple(weights.shape)


def document_003_inputs():
    L, N, E, S = (DOC003_MHA_SIZES[k] for k in "LNES")
    gen = stream(3)
    return torch.rand(L, N, E, generator=gen), torch.rand(S, N, E, generator=gen), torch.rand(
        S, N, E, generator=gen
    )


def multihead_module_documents():
    E, h = DOC003_MHA_SIZES["E"], DOC003_MHA_SIZES["num_heads"]
    return [
        Case(t("the third source's example, MultiHeadAttention(10, 10) on 3 x 4 x 10 queries: the "
               "shapes of output and weights"),
             document_003_shapes, (DOC003_MHA_OUTPUT_SHAPE, DOC003_MHA_WEIGHTS_SHAPE)),
        Case(t("the third source's example: a copy of nn.MultiheadAttention(10, 10)"),
             copied(3, E, h, document_003_inputs())),
    ]


def mha_sizes(gen):
    """L, N, S (distinct, so L != S), h >= 2 heads of head_dim each, E = h * head_dim."""
    L, N, S = sizes(gen, 3, low=2, high=6)
    h, head_dim = (2 + int(i) for i in torch.randint(3, (2,), generator=gen))
    return L, N, S, h * head_dim, h


def random_mask(gen, rows, cols, free=None):
    """A bool mask (True = hidden) with at least one True and no row hidden whole: column
    `free` (or one random column per row) stays visible."""
    mask = torch.rand(rows, cols, generator=gen) < 0.4
    keep = torch.randint(cols, (rows,), generator=gen) if free is None else torch.full(
        (rows,), free
    )
    mask[0, (keep[0] + 1) % cols] = True
    mask[torch.arange(rows), keep] = False
    return mask


def float_mask(gen, rows, cols):
    """A float attn_mask, added to the scores: random finite values, and -inf where
    random_mask hides a key (no row all -inf)."""
    return torch.randn(rows, cols, generator=gen).masked_fill(random_mask(gen, rows, cols),
                                                              float("-inf"))


def mha_inputs(gen, L, N, S, E):
    return randn(gen, L, N, E), randn(gen, S, N, E), randn(gen, S, N, E)


def multihead_module_random(gen):
    cases = []
    for label, masks_named in (("no mask", t("no mask")),
                               ("key_padding_mask", "key_padding_mask"),
                               ("attn_mask", "attn_mask"),
                               ("both masks", t("both masks"))):
        L, N, S, E, h = mha_sizes(gen)
        inputs = mha_inputs(gen, L, N, S, E)
        free = int(torch.randint(S, (1,), generator=gen))
        shared = free if label == "both masks" else None
        masks = {}
        if label in ("key_padding_mask", "both masks"):
            masks["key_padding_mask"] = random_mask(gen, N, S, shared)
        if label in ("attn_mask", "both masks"):
            masks["attn_mask"] = random_mask(gen, L, S, shared)
        name = t("random case, {masks} (E={E}, {h} heads, L={L}, N={N}, S={S})",
                 masks=masks_named, E=E, h=h, L=L, N=N, S=S)
        cases.append(Case(name, copied(random_seed(gen), E, h, inputs, **masks)))
    L, N, S, E, h = mha_sizes(gen)
    inputs = mha_inputs(gen, L, N, S, E)
    per_head = random_mask(gen, N * h * L, S).reshape(N * h, L, S)  # (N * num_heads, L, S)
    name = t("random case, an attn_mask per head (E={E}, {h} heads, L={L}, N={N}, S={S})",
             E=E, h=h, L=L, N=N, S=S)
    cases.append(Case(name, copied(random_seed(gen), E, h, inputs, attn_mask=per_head)))
    L, N, S, E, h = mha_sizes(gen)
    inputs = mha_inputs(gen, L, N, S, E)
    name = t("random case, a float attn_mask of finite values and -inf (E={E}, {h} heads, "
             "L={L}, N={N}, S={S})", E=E, h=h, L=L, N=N, S=S)
    cases.append(Case(name, copied(random_seed(gen), E, h, inputs,
                                   attn_mask=float_mask(gen, L, S))))
    return cases


def equals_torch(subject, gen):
    """A copy of torch's nn.MultiheadAttention gives torch's output and weights.

    The copy against torch's own module, with a bool attn_mask. (torch's key_padding_mask
    path imports sympy on first use, seconds of grading time; the random cases compare that
    mask with the reference, which equals torch, see tests/reference.)"""
    L, N, S, E, h = mha_sizes(gen)
    query, key, value = mha_inputs(gen, L, N, S, E)
    attn_mask = random_mask(gen, L, S)
    theirs = torch_module(random_seed(gen), E, h)
    ours = subject.from_torch(theirs)
    want = theirs(query, key, value, attn_mask=attn_mask)
    got = ours(query.clone(), key.clone(), value.clone(), attn_mask=attn_mask)
    agree = [torch.allclose(g, w, **TOLERANCE) for g, w in zip(got, want, strict=True)]
    assert all(agree), t(
        "a copy made by from_torch(m) should give m's output and head-averaged weights "
        "(with an attn_mask)"
    )


def masked_weights_are_zero(subject, gen):
    """Masked positions get a weight of exactly 0."""
    L, N, S, E, h = mha_sizes(gen)
    query, key, value = mha_inputs(gen, L, N, S, E)
    free = int(torch.randint(S, (1,), generator=gen))
    padding, attn_mask = random_mask(gen, N, S, free), random_mask(gen, L, S, free)
    module = subject.from_torch(torch_module(random_seed(gen), E, h))
    _, weights = module(query, key, value, key_padding_mask=padding, attn_mask=attn_mask)
    assert torch.all(weights.masked_select(padding[:, None, :] | attn_mask[None]) == 0), t(
        "positions hidden by key_padding_mask or attn_mask should get a weight of exactly 0"
    )
    sums = weights.sum(dim=-1)
    assert torch.allclose(sums, torch.ones_like(sums), atol=TOLERANCE["atol"]), t(
        "every query's weights should sum to 1 over the keys"
    )


def same_parameters_as_torch(subject, gen):
    """The module holds exactly the parameters of torch's nn.MultiheadAttention."""
    _, _, _, E, h = mha_sizes(gen)
    # parameters, not the state dict: a buffer of the student's own (a scale kept beside
    # them) is no parameter, and a tensor held as a buffer under a parameter's name is none
    layout = {name: tuple(p.shape) for name, p in nn.MultiheadAttention(E, h).named_parameters()}
    got = {name: tuple(p.shape) for name, p in subject(E, h).named_parameters()}
    assert got == layout, t(
        "MultiHeadAttention({E}, {h}) should hold exactly nn.MultiheadAttention's parameters "
        "{layout}, found {got}", E=E, h=h, layout=layout, got=got
    )


MHA_SOURCE = "\n\n\n".join(
    inspect.getsource(obj) for obj in (reference.MultiHeadAttention, reference.as_additive)
)


def mha_variant(*replacements):
    """The reference module's code with some lines written wrongly: a whole student class."""
    return rewritten(MHA_SOURCE, *replacements, what="the reference MultiHeadAttention")


MULTIHEAD_MODULE = Step(
    name="MultiHeadAttention",
    reference=reference.MultiHeadAttention,
    document_cases=multihead_module_documents,
    random_cases=multihead_module_random,
    properties=(equals_torch, masked_weights_are_zero, same_parameters_as_torch),
    rules=(
        forbids_ops(
            "no built-in multi-head attention",
            {"multi_head_attention", "_transformer_encoder"},
            "this step is about writing multi-head attention yourself",
        ),
    ),
    mistakes=(
        Mistake(
            "heads merged by reshape without transposing",
            "the heads' outputs are (N * h, L, head_dim): bring L first (transpose) before "
            "reshaping to (L, N, E)",
            mha_variant(("heads.transpose(0, 1).reshape(L, N, E)", "heads.reshape(L, N, E)")),
        ),
        Mistake(
            "weights not averaged over heads",
            "return the weights averaged over the heads, (N, L, S), as nn.MultiheadAttention does",
            mha_variant(("reshape(N, self.num_heads, L, S).mean(dim=1)",
                         "reshape(N, self.num_heads, L, S)")),
        ),
        Mistake(
            "scaled by sqrt(embed_dim) instead of sqrt(head_dim)",
            "each head works in head_dim = embed_dim / num_heads dimensions; scale by the square "
            "root of that",
            mha_variant(("math.sqrt(self.head_dim)", "math.sqrt(self.embed_dim)")),
        ),
        Mistake(
            "projection weights not transposed",
            "in_proj_weight holds (out, in) rows like nn.Linear: project with x @ W.T + b",
            mha_variant(("@ W_q.T", "@ W_q"), ("@ W_k.T", "@ W_k"), ("@ W_v.T", "@ W_v")),
        ),
        Mistake(
            "key_padding_mask ignored",
            "keys that key_padding_mask marks True must get no weight from any query",
            mha_variant(("self.score_bias(key_padding_mask, attn_mask, N, L, S)",
                         "self.score_bias(None, attn_mask, N, L, S)")),
        ),
        Mistake(
            "float attn_mask ignored",
            "a float attn_mask is added to the scores as it is (its -inf hide keys, its finite "
            "values shift the scores); only a bool mask becomes 0 / -inf",
            mha_variant(("\n    return mask", "\n    return torch.zeros(mask.shape)")),
        ),
    ),
)

STEPS = (MULTIHEAD_PROJECT, MULTIHEAD_ATTENTION, CONCAT_HEADS, MULTIHEAD_MODULE)

# When the similarity report flags a pair (bench/similarity_calibration.py 05_multi_head):
# honest pairs reach 0.534 and 731 characters; every copy of one disguise has 0.716 or
# more and 1,059 characters or more.
SIMILARITY = Similar(share=0.62, characters=900)
