"""Tests for solutions.cross_attention: queries from one sequence, keys and values from another."""

import torch
import torch.nn.functional as F
from hypothesis import given
from torch.testing import assert_close

from solutions import cross_attention, self_attention
from tests.solutions.strategies import (
    NEAR,
    PROPERTIES,
    attention_sizes,
    generator,
    randn,
    seeds,
    weights_for,
)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_cross_attention_of_a_sequence_with_itself_is_self_attention(sizes, seed):
    """Does cross_attention equal self_attention when both sequences are the same?"""
    gen = generator(seed)
    x = randn(gen, sizes.n_keys, sizes.d_in)
    W = weights_for(sizes, gen)
    assert_close(cross_attention(x, x, *W), self_attention(x, *W), **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_cross_attention_equals_torch_sdpa(sizes, seed):
    """Is it F.scaled_dot_product_attention of x_query W_q, x_context W_k, x_context W_v?"""
    gen = generator(seed)
    x_query = randn(gen, sizes.n_queries, sizes.d_in)
    x_context = randn(gen, sizes.n_keys, sizes.d_in)
    W_query, W_key, W_value = weights_for(sizes, gen)
    got = cross_attention(x_query, x_context, W_query, W_key, W_value)
    assert got.shape == (sizes.n_queries, sizes.d_v)
    expected = F.scaled_dot_product_attention(
        x_query @ W_query, x_context @ W_key, x_context @ W_value
    )
    assert_close(got, expected, **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_permuting_the_context_changes_nothing(sizes, seed):
    """Does permuting the context's rows (the keys) leave every output unchanged?"""
    gen = generator(seed)
    x_query = randn(gen, sizes.n_queries, sizes.d_in)
    x_context = randn(gen, sizes.n_keys, sizes.d_in)
    W = weights_for(sizes, gen)
    perm = torch.randperm(sizes.n_keys, generator=gen)
    assert_close(
        cross_attention(x_query, x_context[perm], *W),
        cross_attention(x_query, x_context, *W),
        **NEAR,
    )


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_permuting_the_queries_permutes_the_output(sizes, seed):
    """Does permuting x_query's rows permute the output rows the same way?"""
    gen = generator(seed)
    x_query = randn(gen, sizes.n_queries, sizes.d_in)
    x_context = randn(gen, sizes.n_keys, sizes.d_in)
    W = weights_for(sizes, gen)
    perm = torch.randperm(sizes.n_queries, generator=gen)
    assert_close(
        cross_attention(x_query[perm], x_context, *W),
        cross_attention(x_query, x_context, *W)[perm],
        **NEAR,
    )
