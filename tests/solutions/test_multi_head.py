"""Tests for solutions.multi_head: many heads by one torch.bmm (documents 000 and 002)."""

import torch
from attention_course.documents import (
    DOC000_MULTIHEAD_KEYS_SHAPE,
    DOC000_MULTIHEAD_VALUES_SHAPE,
    DOC002_MULTIHEAD_CONTEXT_2_SHAPE,
    DOC002_MULTIHEAD_OMEGA_2_SHAPE,
    DOC002_MULTIHEAD_WEIGHT_SHAPES,
)
from hypothesis import given
from torch.testing import assert_close

from solutions import concat_heads, multihead_attention, multihead_project, self_attention
from tests.solutions.strategies import (
    NEAR,
    PROPERTIES,
    attention_sizes,
    generator,
    randn,
    seeds,
)

# --- documents 000 and 002 -------------------------------------------------------------------


def test_doc000_multihead_keys_and_values_shapes(doc000):
    """Does multihead_project give document 000's multi-head keys (3, 6, 24), values (3, 6, 28)?"""
    keys = multihead_project(doc000.x, doc000.multihead_W_key)
    values = multihead_project(doc000.x, doc000.multihead_W_value)
    assert keys.shape == DOC000_MULTIHEAD_KEYS_SHAPE
    assert values.shape == DOC000_MULTIHEAD_VALUES_SHAPE


def test_doc000_multihead_project_equals_the_documents_bmm(doc000):
    """Does multihead_project equal document 000's bmm(W, stacked inputs).permute(0, 2, 1)?"""
    stacked_inputs = doc000.x.T.repeat(3, 1, 1)  # In [11], (3, 16, 6)
    expected = torch.bmm(doc000.multihead_W_key, stacked_inputs).permute(0, 2, 1)  # In [15]
    assert_close(multihead_project(doc000.x, doc000.multihead_W_key), expected, **NEAR)


def test_doc002_multihead_context_of_query_2(doc002):
    """Does multihead_attention give, at query 2, document 002's per-head context (3, 28)?

    Document 002 prints only the shapes of omega_2 (3, 6) and context_vector_2 (3, 28); the
    values are those of its own recipe (In [16] to In [22]), repeated here.
    """
    assert (
        tuple(w.shape for w in (doc002.multihead_W_query, doc002.multihead_W_key,
                                doc002.multihead_W_value))
        == DOC002_MULTIHEAD_WEIGHT_SHAPES
    )
    x_2 = doc002.x[1]
    q_2 = doc002.multihead_W_query.matmul(x_2).unsqueeze(-1).swapaxes(-1, -2)  # (3, 1, 24)
    input_stack = doc002.x.T.repeat(3, 1, 1)  # (3, 16, 6)
    keys = torch.bmm(doc002.multihead_W_key, input_stack)  # (3, 24, 6)
    values = torch.bmm(doc002.multihead_W_value, input_stack)  # (3, 28, 6)
    omega_2 = torch.bmm(q_2, keys).squeeze()  # (3, 6)
    assert omega_2.shape == DOC002_MULTIHEAD_OMEGA_2_SHAPE
    attention_2 = torch.softmax(omega_2 / 24**0.5, dim=1)
    expected = torch.bmm(values, attention_2.unsqueeze(-1)).squeeze()  # (3, 28)
    context = multihead_attention(
        doc002.x, doc002.multihead_W_query, doc002.multihead_W_key, doc002.multihead_W_value
    )
    assert context.shape == (3, 6, 28)
    assert context[:, 1].shape == DOC002_MULTIHEAD_CONTEXT_2_SHAPE
    assert_close(context[:, 1], expected, **NEAR)


# --- properties ------------------------------------------------------------------------------


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_multihead_project_equals_a_per_head_loop(sizes, seed):
    """Does multihead_project equal projecting through each head's (d_out, d_in) matrix in turn?"""
    gen = generator(seed)
    x = randn(gen, sizes.n_keys, sizes.d_in)
    W = randn(gen, sizes.heads, sizes.d_k, sizes.d_in)
    expected = torch.stack([x @ W[head].T for head in range(sizes.heads)])
    got = multihead_project(x, W)
    assert got.shape == (sizes.heads, sizes.n_keys, sizes.d_k)
    assert_close(got, expected, **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_multihead_attention_equals_self_attention_per_head(sizes, seed):
    """Is head h of multihead_attention self_attention with head h's weights (transposed)?"""
    gen = generator(seed)
    x = randn(gen, sizes.n_keys, sizes.d_in)
    W_query = randn(gen, sizes.heads, sizes.d_k, sizes.d_in)
    W_key = randn(gen, sizes.heads, sizes.d_k, sizes.d_in)
    W_value = randn(gen, sizes.heads, sizes.d_v, sizes.d_in)
    got = multihead_attention(x, W_query, W_key, W_value)
    assert got.shape == (sizes.heads, sizes.n_keys, sizes.d_v)
    for head in range(sizes.heads):
        expected = self_attention(x, W_query[head].T, W_key[head].T, W_value[head].T)
        assert_close(got[head], expected, **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_concat_heads_puts_head_0_first(sizes, seed):
    """Does concat_heads put the heads side by side, head 0 in the first d_v columns?"""
    context = randn(generator(seed), sizes.heads, sizes.n_keys, sizes.d_v)
    got = concat_heads(context)
    assert got.shape == (sizes.n_keys, sizes.heads * sizes.d_v)
    for head in range(sizes.heads):
        assert torch.equal(got[:, head * sizes.d_v : (head + 1) * sizes.d_v], context[head])
    assert torch.equal(got, torch.cat(list(context), dim=-1))
