"""Tests for solutions.by_hand: document 004's worked example, step by step."""

import math

import torch
from attention_course.documents import (
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
)
from hypothesis import given
from hypothesis import strategies as st
from torch.testing import assert_close

from autograder.checks.compare import TOLERANCE
from solutions import (
    attention_scores,
    context_vectors,
    project_qkv,
    stable_softmax,
    weighted_values,
)
from tests.solutions.strategies import (
    NEAR,
    PROPERTIES,
    attention_sizes,
    distinct_sizes,
    generator,
    randn,
    seeds,
)


def doc004_qkv():
    return project_qkv(DOC004_INPUTS, DOC004_W_QUERY, DOC004_W_KEY, DOC004_W_VALUE)


# --- document 004 ----------------------------------------------------------------------------


def test_doc004_keys_queries_values():
    """Does project_qkv give document 004's keys, queries and values (step 3)?"""
    queries, keys, values = doc004_qkv()
    assert_close(keys, DOC004_KEYS, **TOLERANCE)
    assert_close(queries, DOC004_QUERIES, **TOLERANCE)
    assert_close(values, DOC004_VALUES, **TOLERANCE)


def test_doc004_scores():
    """Does attention_scores give document 004's unscaled scores (step 4)?"""
    queries, keys, _ = doc004_qkv()
    assert_close(attention_scores(queries, keys), DOC004_SCORES, **TOLERANCE)


def test_doc004_scores_of_one_query():
    """Does one query (1-D) give document 004's scores of query 1, [2, 4, 4] (step 4)?"""
    queries, keys, _ = doc004_qkv()
    assert_close(attention_scores(queries[0], keys), DOC004_SCORES[0], **TOLERANCE)


def test_doc004_exact_softmax():
    """Does stable_softmax of document 004's scores give its exact softmax (step 5)?"""
    assert_close(stable_softmax(DOC004_SCORES, dim=-1), DOC004_SOFTMAX, **TOLERANCE)


def test_doc004_weighted_values():
    """Does weighted_values with document 004's rounded weights give its 3x3x3 step 6 tensor?"""
    got = weighted_values(DOC004_ROUNDED_WEIGHTS, DOC004_VALUES)
    assert_close(got, DOC004_WEIGHTED_VALUES, **TOLERANCE)


def test_doc004_outputs():
    """Do context_vectors and the step 6 tensor summed give document 004's outputs (step 7)?"""
    assert_close(
        context_vectors(DOC004_ROUNDED_WEIGHTS, DOC004_VALUES), DOC004_OUTPUTS, **TOLERANCE
    )
    summed = weighted_values(DOC004_ROUNDED_WEIGHTS, DOC004_VALUES).sum(dim=0)
    assert_close(summed, DOC004_OUTPUTS, **TOLERANCE)


# --- properties ------------------------------------------------------------------------------


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_project_qkv_is_three_products(sizes, seed):
    """Is project_qkv (x @ W_query, x @ W_key, x @ W_value) on non-square weights?"""
    gen = generator(seed)
    x = randn(gen, sizes.n_keys, sizes.d_in)
    W_query = randn(gen, sizes.d_in, sizes.d_k)
    W_key = randn(gen, sizes.d_in, sizes.d_k)
    W_value = randn(gen, sizes.d_in, sizes.d_v)
    queries, keys, values = project_qkv(x, W_query, W_key, W_value)
    assert_close(queries, x @ W_query, **NEAR)
    assert_close(keys, x @ W_key, **NEAR)
    assert_close(values, x @ W_value, **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_attention_scores_formula(sizes, seed):
    """Is attention_scores[..., i, j] = queries[..., i] . keys[..., j], batched, unscaled?"""
    gen = generator(seed)
    queries = randn(gen, sizes.batch, sizes.heads, sizes.n_queries, sizes.d_k)
    keys = randn(gen, sizes.batch, sizes.heads, sizes.n_keys, sizes.d_k)
    expected = torch.einsum("bhid,bhjd->bhij", queries, keys)
    assert_close(attention_scores(queries, keys), expected, **NEAR)
    assert_close(attention_scores(queries[0, 0, 0], keys[0, 0]), expected[0, 0, 0], **NEAR)


def test_stable_softmax_finite_for_scores_of_1e4():
    """Does stable_softmax stay finite (no nan, no inf) for scores of 1e4?"""
    scores = torch.tensor(
        [
            [1e4, 0.0, -1e4],
            [1e4, 1e4, 1e4],
            [-1e4, -1e4, -1e4],
            [1e4, 1e4 - 1.0, 1e4 - 2.0],
        ]
    )
    weights = stable_softmax(scores, dim=-1)
    assert torch.isfinite(weights).all()
    e = math.exp(1.0)
    expected = torch.tensor(
        [
            [1.0, 0.0, 0.0],
            [1 / 3, 1 / 3, 1 / 3],
            [1 / 3, 1 / 3, 1 / 3],
            [e * e / (e * e + e + 1), e / (e * e + e + 1), 1 / (e * e + e + 1)],
        ]
    )
    assert_close(weights, expected, **NEAR)


# a shape of 1 to 4 distinct sizes and a dim of it, positive or negative
shapes_and_dims = st.integers(1, 4).flatmap(
    lambda ndim: st.tuples(distinct_sizes(ndim, max_value=6), st.integers(-ndim, ndim - 1))
)


@PROPERTIES
@given(shape_and_dim=shapes_and_dims, scale=st.sampled_from([1.0, 10.0, 1e4]), seed=seeds)
def test_stable_softmax_equals_torch_softmax_along_any_dim(shape_and_dim, scale, seed):
    """Does stable_softmax equal torch.softmax along any dim, for ordinary and huge scores?"""
    shape, dim = shape_and_dim
    scores = scale * randn(generator(seed), *shape)
    weights = stable_softmax(scores, dim=dim)
    assert torch.isfinite(weights).all()
    assert_close(weights, torch.softmax(scores, dim=dim), **NEAR)
    sums = weights.sum(dim=dim)
    assert_close(sums, torch.ones_like(sums), **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_weighted_values_element_formula(sizes, seed):
    """Is weighted_values[j, i] = weights[i, j] * values[j] (keys first, then queries)?"""
    gen = generator(seed)
    weights = torch.softmax(randn(gen, sizes.n_queries, sizes.n_keys), dim=-1)
    values = randn(gen, sizes.n_keys, sizes.d_v)
    got = weighted_values(weights, values)
    assert got.shape == (sizes.n_keys, sizes.n_queries, sizes.d_v)
    for j in range(sizes.n_keys):
        for i in range(sizes.n_queries):
            assert_close(got[j, i], weights[i, j] * values[j], **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_weighted_values_sum_to_context_vectors(sizes, seed):
    """Does weighted_values summed over dim 0 equal context_vectors?"""
    gen = generator(seed)
    weights = torch.softmax(randn(gen, sizes.n_queries, sizes.n_keys), dim=-1)
    values = randn(gen, sizes.n_keys, sizes.d_v)
    assert_close(
        weighted_values(weights, values).sum(dim=0), context_vectors(weights, values), **NEAR
    )


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_context_vectors_formula(sizes, seed):
    """Is context_vectors[i] = sum_j weights[i, j] * values[j], 1-D weights giving 1-D?"""
    gen = generator(seed)
    weights = torch.softmax(randn(gen, sizes.n_queries, sizes.n_keys), dim=-1)
    values = randn(gen, sizes.n_keys, sizes.d_v)
    expected = (weights[:, :, None] * values[None, :, :]).sum(dim=1)
    assert_close(context_vectors(weights, values), expected, **NEAR)
    one = context_vectors(weights[0], values)
    assert one.shape == (sizes.d_v,)
    assert_close(one, expected[0], **NEAR)
