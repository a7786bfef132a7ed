"""Tests for solutions.self_attention: all queries at once (document 001)."""

import torch
import torch.nn.functional as F
from attention_course.documents import (
    DOC001_CONTEXT_3,
    DOC001_SELF_ATTENTION_OUTPUT,
)
from hypothesis import given
from torch.testing import assert_close

from autograder.checks.compare import TOLERANCE
from solutions import SelfAttention, self_attention
from tests.solutions.strategies import (
    NEAR,
    PROPERTIES,
    attention_sizes,
    generator,
    randn,
    seeds,
    weights_for,
)

# --- document 001 ----------------------------------------------------------------------------


def test_doc001_self_attention_module_output(doc001):
    """Does SelfAttention(3, 2, 4) under seed 123 give document 001's 6x4 output?"""
    torch.manual_seed(123)
    module = SelfAttention(3, 2, 4)
    assert_close(module(doc001.x), DOC001_SELF_ATTENTION_OUTPUT, **TOLERANCE)


def test_doc001_self_attention_function_output(doc001):
    """Does self_attention with document 001's weights give its 6x4 output, row 3 = context_3?"""
    context = self_attention(doc001.x, doc001.W_query, doc001.W_key, doc001.W_value)
    assert_close(context, DOC001_SELF_ATTENTION_OUTPUT, **TOLERANCE)
    assert_close(context[2], DOC001_CONTEXT_3, **TOLERANCE)


def test_doc001_module_draws_w_query_w_key_w_value_in_order(doc001):
    """Does SelfAttention draw W_query, W_key, W_value by torch.rand(d_in, d_out), in that order?"""
    torch.manual_seed(123)
    module = SelfAttention(3, 2, 4)
    names = [name for name, _ in module.named_parameters()]
    assert names == ["W_query", "W_key", "W_value"]
    assert torch.equal(module.W_query.detach(), doc001.W_query)
    assert torch.equal(module.W_key.detach(), doc001.W_key)
    assert torch.equal(module.W_value.detach(), doc001.W_value)


# --- properties ------------------------------------------------------------------------------


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_self_attention_equals_torch_sdpa(sizes, seed):
    """Is self_attention F.scaled_dot_product_attention of x @ W_query, x @ W_key, x @ W_value?

    Checked with a leading batch dim.
    """
    gen = generator(seed)
    x = randn(gen, sizes.batch, sizes.n_keys, sizes.d_in)
    W_query, W_key, W_value = weights_for(sizes, gen)
    context = self_attention(x, W_query, W_key, W_value)
    assert context.shape == (sizes.batch, sizes.n_keys, sizes.d_v)
    expected = F.scaled_dot_product_attention(x @ W_query, x @ W_key, x @ W_value)
    assert_close(context, expected, **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_self_attention_is_permutation_equivariant(sizes, seed):
    """Does permuting the rows of x permute the output rows the same way?"""
    gen = generator(seed)
    x = randn(gen, sizes.n_keys, sizes.d_in)
    W_query, W_key, W_value = weights_for(sizes, gen)
    perm = torch.randperm(sizes.n_keys, generator=gen)
    context = self_attention(x, W_query, W_key, W_value)
    assert_close(self_attention(x[perm], W_query, W_key, W_value), context[perm], **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_self_attention_module_forward_equals_function(sizes, seed):
    """Does SelfAttention.forward equal self_attention with the module's own parameters?"""
    gen = generator(seed)
    module = SelfAttention(sizes.d_in, sizes.d_k, sizes.d_v)
    assert module.W_query.shape == (sizes.d_in, sizes.d_k)
    assert module.W_key.shape == (sizes.d_in, sizes.d_k)
    assert module.W_value.shape == (sizes.d_in, sizes.d_v)
    x = randn(gen, sizes.n_keys, sizes.d_in)
    expected = self_attention(x, module.W_query, module.W_key, module.W_value)
    assert_close(module(x), expected, **NEAR)
