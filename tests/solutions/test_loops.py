"""Tests for solutions.loops: document 003's double loop against its vectorized twin."""

from attention_course.documents import DOC003_INPUT, DOC003_LOOP_OUTPUT
from hypothesis import given
from torch.testing import assert_close

from autograder.checks.compare import TOLERANCE
from solutions import loop_attention, self_attention, vectorized_attention
from tests.solutions.strategies import (
    NEAR,
    PROPERTIES,
    distinct_sizes,
    generator,
    randn,
    seeds,
)

# --- document 003 ----------------------------------------------------------------------------


def test_doc003_seed_0_input(doc003):
    """Does torch.manual_seed(0); randn(4, 4) give document 003's printed input?"""
    assert_close(doc003.X, DOC003_INPUT, **TOLERANCE)


def test_doc003_loop_output(doc003):
    """Does loop_attention give document 003's 10x4 output of the loop module?"""
    got = loop_attention(doc003.X, doc003.W_Q, doc003.W_K, doc003.W_V)
    assert_close(got, DOC003_LOOP_OUTPUT, **TOLERANCE)


def test_doc003_vectorized_output(doc003):
    """Does vectorized_attention give document 003's 10x4 output too?"""
    got = vectorized_attention(doc003.X, doc003.W_Q, doc003.W_K, doc003.W_V)
    assert_close(got, DOC003_LOOP_OUTPUT, **TOLERANCE)


# --- properties ------------------------------------------------------------------------------


def column_inputs(sizes, seed):
    """X (d1, N), W_Q and W_K (d3, d1), W_V (d2, d1): document 003's column convention."""
    d1, d2, d3, N = sizes
    gen = generator(seed)
    return randn(gen, d1, N), randn(gen, d3, d1), randn(gen, d3, d1), randn(gen, d2, d1)


@PROPERTIES
@given(sizes=distinct_sizes(4), seed=seeds)
def test_loop_equals_vectorized(sizes, seed):
    """Does loop_attention equal vectorized_attention, with d1, d2, d3, N all distinct?"""
    d1, d2, d3, N = sizes
    X, W_Q, W_K, W_V = column_inputs(sizes, seed)
    loop = loop_attention(X, W_Q, W_K, W_V)
    assert loop.shape == (d2, N)
    assert_close(loop, vectorized_attention(X, W_Q, W_K, W_V), **NEAR)


@PROPERTIES
@given(sizes=distinct_sizes(4), seed=seeds)
def test_vectorized_is_row_self_attention_transposed(sizes, seed):
    """Is the column convention the row convention transposed: H = self_attention(X^T, W^T...)^T?"""
    X, W_Q, W_K, W_V = column_inputs(sizes, seed)
    expected = self_attention(X.T, W_Q.T, W_K.T, W_V.T).T
    assert_close(vectorized_attention(X, W_Q, W_K, W_V), expected, **NEAR)
