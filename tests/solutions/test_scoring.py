"""Tests for solutions.scoring: document 003's four ways to score a key against a query."""

import math

import torch
from hypothesis import given
from torch.testing import assert_close

from solutions import additive_score, bilinear_score, dot_score, scaled_dot_score
from tests.solutions.strategies import (
    NEAR,
    PROPERTIES,
    distinct_sizes,
    generator,
    randn,
    seeds,
)


@PROPERTIES
@given(sizes=distinct_sizes(1, max_value=12), seed=seeds)
def test_dot_score_formula(sizes, seed):
    """Is dot_score(k, q) = sum_i k_i q_i, a 0-dim tensor?"""
    (d,) = sizes
    gen = generator(seed)
    k, q = randn(gen, d), randn(gen, d)
    score = dot_score(k, q)
    assert score.shape == ()
    assert_close(score, (k * q).sum(), **NEAR)


@PROPERTIES
@given(sizes=distinct_sizes(1, max_value=12), seed=seeds)
def test_scaled_dot_score_formula(sizes, seed):
    """Is scaled_dot_score(k, q) = (k . q) / sqrt(d), d the vectors' length?"""
    (d,) = sizes
    gen = generator(seed)
    k, q = randn(gen, d), randn(gen, d)
    score = scaled_dot_score(k, q)
    assert score.shape == ()
    assert_close(score, (k * q).sum() / math.sqrt(d), **NEAR)


@PROPERTIES
@given(sizes=distinct_sizes(3), seed=seeds)
def test_additive_score_formula(sizes, seed):
    """Is additive_score(k, q, W, U, v) = v . tanh(W k + U q), with d_k, d_q, d_a distinct?"""
    d_k, d_q, d_a = sizes
    gen = generator(seed)
    k, q = randn(gen, d_k), randn(gen, d_q)
    W, U, v = randn(gen, d_a, d_k), randn(gen, d_a, d_q), randn(gen, d_a)
    hidden = torch.tanh((W * k).sum(dim=1) + (U * q).sum(dim=1))  # (d_a,)
    score = additive_score(k, q, W, U, v)
    assert score.shape == ()
    assert_close(score, (v * hidden).sum(), **NEAR)


@PROPERTIES
@given(sizes=distinct_sizes(2), seed=seeds)
def test_bilinear_score_formula(sizes, seed):
    """Is bilinear_score(k, q, W) = sum_ij k_i W_ij q_j, with W (d_k, d_q) non-square?"""
    d_k, d_q = sizes
    gen = generator(seed)
    k, q, W = randn(gen, d_k), randn(gen, d_q), randn(gen, d_k, d_q)
    score = bilinear_score(k, q, W)
    assert score.shape == ()
    assert_close(score, (k[:, None] * W * q[None, :]).sum(), **NEAR)


@PROPERTIES
@given(sizes=distinct_sizes(1, max_value=12), seed=seeds)
def test_bilinear_with_identity_is_dot_and_scaled_dot_is_dot_over_sqrt_d(sizes, seed):
    """Does bilinear with W = I give the dot score, and the scaled score dot / sqrt(d)?"""
    (d,) = sizes
    gen = generator(seed)
    k, q = randn(gen, d), randn(gen, d)
    assert_close(bilinear_score(k, q, torch.eye(d)), dot_score(k, q), **NEAR)
    assert_close(scaled_dot_score(k, q), dot_score(k, q) / math.sqrt(d), **NEAR)
