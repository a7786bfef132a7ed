"""Tests for solutions.memory: attention read a block of keys at a time (the online softmax)
and decoding with a key/value cache, each equal to PyTorch's fused attention."""

import torch
import torch.nn.functional as F
from hypothesis import given
from hypothesis import strategies as st
from torch.testing import assert_close

from solutions import cached_causal_attention, online_attention
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
@given(sizes=attention_sizes(), seed=seeds, block_size=st.integers(1, 12))
def test_online_attention_is_sdpa_for_every_block_size(sizes, seed, block_size):
    """Is online_attention F.scaled_dot_product_attention for every block size, one that does
    not divide n_keys and one larger than n_keys included, with a batch and a head dim?"""
    gen = generator(seed)
    lead = (sizes.batch, sizes.heads)
    queries = randn(gen, *lead, sizes.n_queries, sizes.d_k)
    keys = randn(gen, *lead, sizes.n_keys, sizes.d_k)
    values = randn(gen, *lead, sizes.n_keys, sizes.d_v)
    got = online_attention(queries, keys, values, block_size)
    assert_close(got, F.scaled_dot_product_attention(queries, keys, values), **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds, block_size=st.integers(1, 4))
def test_online_attention_survives_large_scores(sizes, seed, block_size):
    """With scores in the hundreds, does the running max keep every exp finite and the result
    SDPA's (within float32's rounding of such scores)?"""
    gen = generator(seed)
    queries = 15 * randn(gen, sizes.n_queries, sizes.d_k)
    keys = 15 * randn(gen, sizes.n_keys, sizes.d_k)
    values = randn(gen, sizes.n_keys, sizes.d_v)
    got = online_attention(queries, keys, values, block_size)
    assert torch.isfinite(got).all()
    assert_close(got, F.scaled_dot_product_attention(queries, keys, values), rtol=1e-3, atol=1e-4)


def test_online_attention_float64_and_one_key():
    """Does it keep float64 and give the value of a single key to every query?"""
    gen = generator(2)
    queries = torch.randn(3, 4, generator=gen, dtype=torch.float64)
    keys = torch.randn(1, 4, generator=gen, dtype=torch.float64)
    values = torch.randn(1, 5, generator=gen, dtype=torch.float64)
    got = online_attention(queries, keys, values, 2)
    assert got.dtype == torch.float64
    assert_close(got, values.expand(3, 5))


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_cached_causal_attention_is_causal_sdpa(sizes, seed):
    """Is decoding with the cache causal self-attention of the whole sequence, with leading
    batch dims?"""
    gen = generator(seed)
    x = randn(gen, sizes.batch, sizes.heads, sizes.n_keys, sizes.d_in)
    W_query, W_key, W_value = weights_for(sizes, gen)
    got = cached_causal_attention(x, W_query, W_key, W_value)
    want = F.scaled_dot_product_attention(x @ W_query, x @ W_key, x @ W_value, is_causal=True)
    assert_close(got, want, **NEAR)


@PROPERTIES
@given(sizes=attention_sizes(), seed=seeds)
def test_cached_causal_attention_prefix_does_not_see_the_future(sizes, seed):
    """Are the first outputs the same whatever follows them (a prefix decodes alone)?"""
    gen = generator(seed)
    x = randn(gen, sizes.n_keys, sizes.d_in)
    weights = weights_for(sizes, gen)
    whole = cached_causal_attention(x, *weights)
    prefix = cached_causal_attention(x[:2], *weights)
    assert whole.shape == (sizes.n_keys, sizes.d_v)
    assert_close(whole[:2], prefix, **NEAR)
    assert_close(whole[0], x[0] @ weights[2], **NEAR)  # the first position sees only itself
