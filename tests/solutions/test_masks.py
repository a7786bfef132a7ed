"""Tests for solutions.masks: the causal mask and a softmax that leaves masked keys out."""

import math

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from torch.testing import assert_close

from solutions import causal_mask, masked_scaled_softmax
from tests.solutions.strategies import (
    NEAR,
    PROPERTIES,
    attention_sizes,
    generator,
    randn,
    random_mask,
    seeds,
)


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_causal_mask_is_true_exactly_above_the_diagonal(n):
    """Is causal_mask(n)[i, j] True exactly where j > i (the future), as a bool (n, n)?"""
    mask = causal_mask(n)
    assert mask.dtype == torch.bool
    assert mask.shape == (n, n)
    for i in range(n):
        for j in range(n):
            assert bool(mask[i, j]) == (j > i), (i, j)


def test_causal_mask_of_three():
    """Is causal_mask(3) the upper triangle above the diagonal, written out?"""
    expected = torch.tensor(
        [
            [False, True, True],
            [False, False, True],
            [False, False, False],
        ]
    )
    assert torch.equal(causal_mask(3), expected)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_masked_weights_are_exactly_zero_and_rows_sum_to_one(sizes, seed):
    """Are masked weights exactly 0, and do the others sum to 1 in every row?"""
    gen = generator(seed)
    scores = randn(gen, sizes.batch, sizes.n_queries, sizes.n_keys)
    mask = random_mask(gen, sizes.n_queries, sizes.n_keys)  # broadcast over the batch
    weights = masked_scaled_softmax(scores, mask, sizes.d_k)
    assert weights.shape == scores.shape
    assert torch.all(weights[:, mask] == 0)
    assert_close(weights.sum(dim=-1), torch.ones(sizes.batch, sizes.n_queries), **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_masked_scaled_softmax_formula(sizes, seed):
    """Is the weight of an unmasked key exp(s / sqrt(d_k)) over the unmasked keys' sum?"""
    gen = generator(seed)
    scores = 4.0 * randn(gen, sizes.n_queries, sizes.n_keys)
    mask = random_mask(gen, sizes.n_queries, sizes.n_keys)
    exps = torch.exp(scores / math.sqrt(sizes.d_k)) * (~mask)
    expected = exps / exps.sum(dim=-1, keepdim=True)
    assert_close(masked_scaled_softmax(scores, mask, sizes.d_k), expected, **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_nothing_masked_is_the_scaled_softmax(sizes, seed):
    """With nothing masked, is it softmax(scores / sqrt(d_k))?"""
    scores = randn(generator(seed), sizes.n_queries, sizes.n_keys)
    nothing = torch.zeros(sizes.n_queries, sizes.n_keys, dtype=torch.bool)
    expected = torch.softmax(scores / math.sqrt(sizes.d_k), dim=-1)
    assert_close(masked_scaled_softmax(scores, nothing, sizes.d_k), expected, **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds, row=st.integers(0, 1))
def test_all_masked_row_gives_zeros_not_nan(sizes, seed, row):
    """Does a row with every position masked give zeros, never nan, leaving other rows alone?"""
    gen = generator(seed)
    scores = randn(gen, sizes.n_queries, sizes.n_keys)
    mask = random_mask(gen, sizes.n_queries, sizes.n_keys)
    mask[row] = True
    weights = masked_scaled_softmax(scores, mask, sizes.d_k)
    assert not torch.isnan(weights).any()
    assert torch.all(weights[row] == 0)
    others = [i for i in range(sizes.n_queries) if i != row]
    assert_close(weights[others].sum(dim=-1), torch.ones(len(others)), **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_causal_weights_are_lower_triangular(sizes, seed):
    """With causal_mask, is every weight above the diagonal 0 and the first query all on key 0?"""
    n = sizes.n_keys
    scores = randn(generator(seed), sizes.batch, n, n)
    weights = masked_scaled_softmax(scores, causal_mask(n), sizes.d_k)
    assert torch.equal(weights, weights.tril())
    assert torch.all(weights[:, 0, 0] == 1)
    assert_close(weights.sum(dim=-1), torch.ones(sizes.batch, n), **NEAR)
