"""Tests for solutions.gradients: softmax and attention differentiated by hand, against
torch.autograd and against finite differences, in float64."""

import math

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given
from hypothesis import strategies as st
from torch.testing import assert_close

from solutions import attention_backward, softmax_backward
from tests.solutions.strategies import PROPERTIES, attention_sizes, generator, seeds

EXACT = {"rtol": 1e-10, "atol": 1e-12}  # float64 against float64: only rounding differs


def randn64(gen, *shape):
    return torch.randn(*shape, generator=gen, dtype=torch.float64)


def autograd_softmax(scores, grad_weights, dim):
    scores = scores.clone().requires_grad_()
    torch.softmax(scores, dim=dim).backward(grad_weights)
    return scores.grad


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds, dim=st.sampled_from([-1, -2, 0, 1]))
def test_softmax_backward_is_autograds(sizes, seed, dim):
    """Is softmax_backward the gradient torch.autograd gives, along any dim of a batch?"""
    gen = generator(seed)
    scores = randn64(gen, sizes.batch, sizes.n_queries, sizes.n_keys)
    grad_weights = randn64(gen, *scores.shape)
    got = softmax_backward(torch.softmax(scores, dim=dim), grad_weights, dim=dim)
    assert_close(got, autograd_softmax(scores, grad_weights, dim), **EXACT)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_softmax_backward_is_the_finite_difference(sizes, seed):
    """Does <grad_scores, direction> equal the central difference of sum(softmax * g)?"""
    gen = generator(seed)
    scores = randn64(gen, sizes.n_queries, sizes.n_keys)
    grad_weights, direction = randn64(gen, *scores.shape), randn64(gen, *scores.shape)
    eps = 1e-6

    def loss(s):
        return (torch.softmax(s, dim=-1) * grad_weights).sum()

    numeric = (loss(scores + eps * direction) - loss(scores - eps * direction)) / (2 * eps)
    got = softmax_backward(torch.softmax(scores, dim=-1), grad_weights)
    assert_close((got * direction).sum(), numeric, rtol=1e-6, atol=1e-8)


def test_softmax_backward_rows_sum_to_zero():
    """Does each row of the gradient sum to 0 (adding a constant to a row changes nothing)?"""
    gen = generator(3)
    weights = torch.softmax(randn64(gen, 4, 7), dim=-1)
    got = softmax_backward(weights, randn64(gen, 4, 7))
    assert_close(got.sum(dim=-1), torch.zeros(4, dtype=torch.float64), **EXACT)


def test_softmax_backward_small_example():
    """Is the written-out example weights * (g - sum(g * weights)) right?"""
    got = softmax_backward(torch.tensor([[0.5, 0.3, 0.2]]), torch.tensor([[1.0, 0.0, 2.0]]))
    assert_close(got, torch.tensor([[0.05, -0.27, 0.22]]))


def autograd_attention(queries, keys, values, grad_context):
    leaves = [t.clone().requires_grad_() for t in (queries, keys, values)]
    F.scaled_dot_product_attention(*leaves).backward(grad_context)
    return tuple(t.grad for t in leaves)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_attention_backward_is_autograds(sizes, seed):
    """Are the three gradients torch.autograd's through F.scaled_dot_product_attention, with a
    batch and a head dim and every size distinct?"""
    gen = generator(seed)
    lead = (sizes.batch, sizes.heads)
    queries = randn64(gen, *lead, sizes.n_queries, sizes.d_k)
    keys = randn64(gen, *lead, sizes.n_keys, sizes.d_k)
    values = randn64(gen, *lead, sizes.n_keys, sizes.d_v)
    grad_context = randn64(gen, *lead, sizes.n_queries, sizes.d_v)
    got = attention_backward(queries, keys, values, grad_context)
    want = autograd_attention(queries, keys, values, grad_context)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == torch.float64
        assert_close(g, w, **EXACT)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds, which=st.integers(0, 2))
def test_attention_backward_is_the_finite_difference(sizes, seed, which):
    """Does each gradient give the central difference of <context, grad_context> along a
    random direction of its input?"""
    gen = generator(seed)
    inputs = [randn64(gen, sizes.n_queries, sizes.d_k), randn64(gen, sizes.n_keys, sizes.d_k),
              randn64(gen, sizes.n_keys, sizes.d_v)]
    grad_context = randn64(gen, sizes.n_queries, sizes.d_v)
    direction = randn64(gen, *inputs[which].shape)
    eps = 1e-6

    def loss(shift):
        moved = list(inputs)
        moved[which] = inputs[which] + shift * direction
        weights = torch.softmax(moved[0] @ moved[1].T / math.sqrt(sizes.d_k), dim=-1)
        return ((weights @ moved[2]) * grad_context).sum()

    numeric = (loss(eps) - loss(-eps)) / (2 * eps)
    got = attention_backward(*inputs, grad_context)[which]
    assert_close((got * direction).sum(), numeric, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_attention_backward_keeps_the_dtype(dtype):
    """Do the gradients come back in the inputs' dtype and shapes?"""
    gen = generator(5)
    q, k, v = (torch.randn(*s, generator=gen).to(dtype) for s in ((3, 4), (6, 4), (6, 5)))
    grads = attention_backward(q, k, v, torch.ones(3, 5, dtype=dtype))
    assert [g.shape for g in grads] == [(3, 4), (6, 4), (6, 5)]
    assert {g.dtype for g in grads} == {dtype}
