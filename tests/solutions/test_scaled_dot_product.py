"""Tests for solutions.scaled_dot_product: one query step by step (documents 000, 001, 002)."""

import math

import torch
import torch.nn.functional as F
from attention_course.documents import (
    DOC000_CONTEXT_2,
    DOC000_WEIGHTS_2,
    DOC001_CONTEXT_3,
    DOC001_OMEGA_3,
    DOC001_WEIGHTS_3,
    DOC002_ATTENTION_2,
    DOC002_CONTEXT_2,
    DOC002_OMEGA_2,
    DOC002_OMEGA_24,
)
from hypothesis import given
from torch.testing import assert_close

from autograder.checks.compare import TOLERANCE
from solutions import (
    attention_scores,
    causal_mask,
    project,
    scaled_dot_product_attention,
    scaled_softmax,
)
from tests.solutions.strategies import (
    NEAR,
    PROPERTIES,
    attention_sizes,
    generator,
    randn,
    random_mask,
    seeds,
)

# --- document 001 (row convention, W is (d, d_out)) ------------------------------------------


def doc001_query_3(doc001):
    query_3 = project(doc001.x[2], doc001.W_query)  # (d_q,)
    keys = project(doc001.x, doc001.W_key)  # (6, d_k)
    values = project(doc001.x, doc001.W_value)  # (6, d_v)
    return query_3, keys, values


def test_doc001_omega_3(doc001):
    """Do project and the unscaled scores give document 001's omega_3?"""
    query_3, keys, _ = doc001_query_3(doc001)
    assert_close(attention_scores(query_3, keys), DOC001_OMEGA_3, **TOLERANCE)


def test_doc001_weights_3():
    """Does scaled_softmax(omega_3, d_k=2) give document 001's attention_weights_3?"""
    assert_close(scaled_softmax(DOC001_OMEGA_3, 2), DOC001_WEIGHTS_3, **TOLERANCE)


def test_doc001_context_3(doc001):
    """Does scaled_dot_product_attention give document 001's weights_3 and context_3?"""
    context, weights = scaled_dot_product_attention(*doc001_query_3(doc001))
    assert_close(weights, DOC001_WEIGHTS_3, **TOLERANCE)
    assert_close(context, DOC001_CONTEXT_3, **TOLERANCE)


# --- document 000 (weights rand(d_out, d), applied as x @ W.T) -------------------------------


def test_doc000_weights_and_context_of_query_2(doc000):
    """Does scaled_dot_product_attention give document 000's weights and context of query 2?"""
    query_2 = project(doc000.x[1], doc000.W_query.T)  # (24,)
    keys = project(doc000.x, doc000.W_key.T)  # (6, 24)
    values = project(doc000.x, doc000.W_value.T)  # (6, 28)
    context, weights = scaled_dot_product_attention(query_2, keys, values)
    assert_close(weights, DOC000_WEIGHTS_2, **TOLERANCE)
    assert_close(context, DOC000_CONTEXT_2, **TOLERANCE)


# --- document 002 (weights randn(d_out, d) drawn after the embedding) ------------------------


def doc002_query_2(doc002):
    query_2 = project(doc002.x[1], doc002.W_query.T)  # (24,)
    keys = project(doc002.x, doc002.W_key.T)  # (6, 24)
    values = project(doc002.x, doc002.W_value.T)  # (6, 28)
    return query_2, keys, values


def test_doc002_omega_24_and_omega_2(doc002):
    """Do the unscaled scores give document 002's omega_24 = 58.9875 and omega_2?"""
    query_2, keys, _ = doc002_query_2(doc002)
    omega_2 = attention_scores(query_2, keys)
    assert_close(omega_2[4], DOC002_OMEGA_24, **TOLERANCE)
    assert_close(omega_2, DOC002_OMEGA_2, **TOLERANCE)


def test_doc002_attention_2():
    """Does scaled_softmax(omega_2, d_k=24) give document 002's saturated attention_2?"""
    assert_close(scaled_softmax(DOC002_OMEGA_2, 24), DOC002_ATTENTION_2, **TOLERANCE)


def test_doc002_context_2(doc002):
    """Does scaled_dot_product_attention give document 002's attention_2 and context_2?"""
    context, weights = scaled_dot_product_attention(*doc002_query_2(doc002))
    assert_close(weights, DOC002_ATTENTION_2, **TOLERANCE)
    assert_close(context, DOC002_CONTEXT_2, **TOLERANCE)


# --- properties ------------------------------------------------------------------------------


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_project_is_x_at_W(sizes, seed):
    """Is project(x, W) = x @ W, also with leading batch dims?"""
    gen = generator(seed)
    x = randn(gen, sizes.batch, sizes.n_keys, sizes.d_in)
    W = randn(gen, sizes.d_in, sizes.d_k)
    expected = torch.einsum("bsi,io->bso", x, W)
    assert_close(project(x, W), expected, **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_scaled_softmax_divides_by_sqrt_d_k(sizes, seed):
    """Is scaled_softmax(scores, d_k) = softmax(scores / sqrt(d_k)) over the last dim?"""
    scores = 3.0 * randn(generator(seed), sizes.batch, sizes.n_queries, sizes.n_keys)
    weights = scaled_softmax(scores, sizes.d_k)
    exps = torch.exp(scores / math.sqrt(sizes.d_k))
    assert_close(weights, exps / exps.sum(dim=-1, keepdim=True), **NEAR)
    assert_close(weights.sum(dim=-1), torch.ones(sizes.batch, sizes.n_queries), **NEAR)


def qkv(sizes, gen):
    """Batched, per-head queries (b, h, n, d_k), keys (b, h, s, d_k), values (b, h, s, d_v)."""
    lead = (sizes.batch, sizes.heads)
    queries = randn(gen, *lead, sizes.n_queries, sizes.d_k)
    keys = randn(gen, *lead, sizes.n_keys, sizes.d_k)
    values = randn(gen, *lead, sizes.n_keys, sizes.d_v)
    return queries, keys, values


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_sdpa_equals_torch_without_mask(sizes, seed):
    """Does scaled_dot_product_attention equal F.scaled_dot_product_attention (no mask)?"""
    queries, keys, values = qkv(sizes, generator(seed))
    context, weights = scaled_dot_product_attention(queries, keys, values)
    assert context.shape == (sizes.batch, sizes.heads, sizes.n_queries, sizes.d_v)
    assert weights.shape == (sizes.batch, sizes.heads, sizes.n_queries, sizes.n_keys)
    assert_close(context, F.scaled_dot_product_attention(queries, keys, values), **NEAR)
    expected_weights = torch.softmax(queries @ keys.transpose(-2, -1) / sizes.d_k**0.5, dim=-1)
    assert_close(weights, expected_weights, **NEAR)
    assert_close(weights.sum(dim=-1), torch.ones(weights.shape[:-1]), **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_sdpa_with_causal_mask_equals_torch_is_causal(sizes, seed):
    """With mask=causal_mask(n), does it equal F.scaled_dot_product_attention(is_causal=True)?"""
    gen = generator(seed)
    n = sizes.n_keys  # a causal mask is square: as many queries as keys
    lead = (sizes.batch, sizes.heads)
    queries = randn(gen, *lead, n, sizes.d_k)
    keys = randn(gen, *lead, n, sizes.d_k)
    values = randn(gen, *lead, n, sizes.d_v)
    mask = causal_mask(n)
    context, weights = scaled_dot_product_attention(queries, keys, values, mask=mask)
    expected = F.scaled_dot_product_attention(queries, keys, values, is_causal=True)
    assert_close(context, expected, **NEAR)
    assert torch.all(weights[..., mask] == 0)
    assert_close(weights.sum(dim=-1), torch.ones(weights.shape[:-1]), **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_sdpa_with_bool_mask_equals_torch_attn_mask(sizes, seed):
    """With a bool mask (True = masked), does it equal torch's attn_mask=~mask (True = take part)?

    No row is masked whole; the mask is (n_queries, n_keys), broadcast over batch and heads.
    """
    gen = generator(seed)
    queries, keys, values = qkv(sizes, gen)
    mask = random_mask(gen, sizes.n_queries, sizes.n_keys)
    context, weights = scaled_dot_product_attention(queries, keys, values, mask=mask)
    expected = F.scaled_dot_product_attention(queries, keys, values, attn_mask=~mask)
    assert_close(context, expected, **NEAR)
    assert torch.all(weights[..., mask] == 0)
    assert_close(weights.sum(dim=-1), torch.ones(weights.shape[:-1]), **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_sdpa_all_masked_row_gives_zeros_not_nan(sizes, seed):
    """Does a query with every key masked get zero weights and a zero context, never nan?"""
    gen = generator(seed)
    queries, keys, values = qkv(sizes, gen)
    mask = random_mask(gen, sizes.n_queries, sizes.n_keys)
    mask[1] = True  # query 1 may look nowhere
    context, weights = scaled_dot_product_attention(queries, keys, values, mask=mask)
    assert not torch.isnan(context).any()
    assert not torch.isnan(weights).any()
    assert torch.all(weights[..., 1, :] == 0)
    assert torch.all(context[..., 1, :] == 0)
    others = [i for i in range(sizes.n_queries) if i != 1]
    expected = F.scaled_dot_product_attention(queries, keys, values, attn_mask=~mask)
    assert_close(context[..., others, :], expected[..., others, :], **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_sdpa_one_query_reads_d_k_from_keys(sizes, seed):
    """Does one 1-D query give a (d_v,) context and (seq,) weights, scaled by the keys' d_k?"""
    gen = generator(seed)
    query = randn(gen, sizes.d_k)
    keys = randn(gen, sizes.n_keys, sizes.d_k)
    values = randn(gen, sizes.n_keys, sizes.d_v)
    context, weights = scaled_dot_product_attention(query, keys, values)
    assert context.shape == (sizes.d_v,)
    assert weights.shape == (sizes.n_keys,)
    expected = F.scaled_dot_product_attention(query[None], keys, values)[0]
    assert_close(context, expected, **NEAR)
