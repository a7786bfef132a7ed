"""Tests for solutions.transformer_block: sinusoidal positions, layer norm by hand, the
feed-forward network and a pre-norm block equal to torch's TransformerEncoderLayer."""

import ast
import inspect
import math
import textwrap

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given
from hypothesis import strategies as st
from torch import nn
from torch.testing import assert_close

from solutions import TransformerBlock, feed_forward, layer_norm, sinusoidal_positions
from tests.solutions.strategies import NEAR, PROPERTIES, distinct_sizes, generator, randn, seeds

# Sums of a few dozen products rounded in another order (ours against torch's fused kernels).
BLOCK_NEAR = {"rtol": 1e-4, "atol": 1e-4}

# --- sinusoidal_positions --------------------------------------------------------------------


@PROPERTIES
@given(seq_len=st.integers(1, 100), half=st.integers(1, 16))
def test_positions_follow_the_formula(seq_len, half):
    """Is PE[p, 2i] = sin(p / 10000^(2i/d)) and PE[p, 2i+1] = cos of it, computed in float64?"""
    d_model = 2 * half
    got = sinusoidal_positions(seq_len, d_model)
    assert got.shape == (seq_len, d_model) and got.dtype == torch.float32
    for p in {0, seq_len - 1, seq_len // 2}:
        for i in range(half):
            angle = p / 10000 ** (2 * i / d_model)
            assert got[p, 2 * i].item() == pytest.approx(math.sin(angle), abs=1e-4)
            assert got[p, 2 * i + 1].item() == pytest.approx(math.cos(angle), abs=1e-4)


def test_positions_small_table():
    """Do three positions of width 4 give the values computed by hand?"""
    expected = torch.tensor([[0.0, 1.0, 0.0, 1.0],
                             [0.8415, 0.5403, 0.0100, 0.99995],
                             [0.9093, -0.4161, 0.0200, 0.9998]])
    assert_close(sinusoidal_positions(3, 4), expected, rtol=0, atol=1e-4)


@pytest.mark.parametrize("d_model", [1, 5, 17])
def test_odd_width_is_refused_naming_it(d_model):
    """Does an odd d_model raise ValueError whose message names the value?"""
    with pytest.raises(ValueError, match=str(d_model)):
        sinusoidal_positions(4, d_model)


# --- layer_norm ------------------------------------------------------------------------------


@PROPERTIES
@given(dims=distinct_sizes(3, 1, 6), d=st.integers(2, 12), seed=seeds,
       scale=st.sampled_from([1e-3, 1.0, 50.0]))
def test_layer_norm_equals_torch_on_any_leading_dims(dims, d, seed, scale):
    """Does layer_norm equal F.layer_norm for x (..., d) with 0 to 3 leading dims?"""
    gen = generator(seed)
    gamma, beta = randn(gen, d), randn(gen, d)
    for leading in (dims[:0], dims[:1], dims[:2], dims):
        x = scale * randn(gen, *leading, d)
        assert_close(layer_norm(x, gamma, beta), F.layer_norm(x, (d,), gamma, beta), **NEAR)


@PROPERTIES
@given(d=st.integers(2, 12), seed=seeds, eps=st.sampled_from([1e-5, 1e-2, 0.5]))
def test_layer_norm_passes_eps_inside_the_root(d, seed, eps):
    """Is eps added to the variance under the square root, as F.layer_norm does?"""
    gen = generator(seed)
    x, gamma, beta = 0.01 * randn(gen, 3, d), randn(gen, d), randn(gen, d)
    assert_close(layer_norm(x, gamma, beta, eps=eps),
                 F.layer_norm(x, (d,), gamma, beta, eps=eps), **NEAR)


def test_layer_norm_of_a_constant_row_is_beta():
    """Does a row with no spread give beta (no division by zero)?"""
    gamma, beta = torch.tensor([2.0, 3.0, 4.0]), torch.tensor([0.5, -1.0, 0.0])
    assert_close(layer_norm(torch.full((2, 3), 7.0), gamma, beta), beta.expand(2, 3))


# --- feed_forward ----------------------------------------------------------------------------


@PROPERTIES
@given(sizes=distinct_sizes(4), seed=seeds)
def test_feed_forward_equals_two_linears(sizes, seed):
    """Does feed_forward equal linear2(relu(linear1(x))) with torch's (out, in) weights?"""
    batch, seq, d_model, d_ff = sizes
    gen = generator(seed)
    x = randn(gen, batch, seq, d_model)
    W1, b1 = randn(gen, d_model, d_ff), randn(gen, d_ff)
    W2, b2 = randn(gen, d_ff, d_model), randn(gen, d_model)
    want = F.linear(F.relu(F.linear(x, W1.T, b1)), W2.T, b2)
    assert_close(feed_forward(x, W1, b1, W2, b2), want, **NEAR)


# --- TransformerBlock ------------------------------------------------------------------------


def torch_layer(seed, d_model, num_heads, d_ff):
    """torch's pre-norm encoder layer in eval mode, every parameter drawn at random so that the
    norms' gamma and beta and all biases count."""
    torch.manual_seed(seed)
    layer = nn.TransformerEncoderLayer(d_model, num_heads, d_ff, dropout=0.0, batch_first=True,
                                       norm_first=True).eval()
    with torch.no_grad():
        for parameter in layer.parameters():
            parameter.normal_(0.0, 0.5)
    return layer


def block_sizes():
    """heads, head_dim, d_ff, N, L: distinct, so E = heads * head_dim is none of the others
    by luck."""
    return distinct_sizes(5, min_value=2, max_value=7)


@PROPERTIES
@given(sizes=block_sizes(), seed=seeds, masked=st.booleans())
def test_block_equals_torch_encoder_layer(sizes, seed, masked):
    """Does from_torch(layer) give layer's output in eval mode, with and without a bool
    attn_mask (no query masked whole)?"""
    heads, head_dim, d_ff, N, L = sizes
    E = heads * head_dim
    layer = torch_layer(seed % 2**31, E, heads, d_ff)
    block = TransformerBlock.from_torch(layer)
    gen = generator(seed)
    x = randn(gen, N, L, E)
    mask = None
    if masked:
        mask = torch.rand(L, L, generator=gen) < 0.5
        mask[torch.arange(L), torch.randint(L, (L,), generator=gen)] = False
    got = block(x, attn_mask=mask)
    assert got.shape == (N, L, E)
    assert_close(got, layer(x, src_mask=mask), **BLOCK_NEAR)


@PROPERTIES
@given(sizes=block_sizes(), seed=seeds)
def test_causal_block_ignores_the_future(sizes, seed):
    """Under a causal mask, does changing position j leave every output before j alone?"""
    heads, head_dim, d_ff, N, L = sizes
    block = TransformerBlock.from_torch(torch_layer(seed % 2**31, heads * head_dim, heads, d_ff))
    gen = generator(seed)
    x = randn(gen, N, L, heads * head_dim)
    changed = x.clone()
    changed[:, -1] = randn(gen, N, heads * head_dim)
    causal = torch.ones(L, L, dtype=torch.bool).triu(diagonal=1)
    assert_close(block(changed, causal)[:, :-1], block(x, causal)[:, :-1], **BLOCK_NEAR)


def test_from_torch_copies_and_does_not_share():
    """Does from_torch copy the layer's tensors, so changing the layer leaves the copy alone?"""
    layer = torch_layer(3, 6, 2, 5)
    block = TransformerBlock.from_torch(layer)
    x = torch.randn(2, 4, 6)
    before = block(x).detach()
    with torch.no_grad():
        layer.linear1.weight.add_(1.0)
    assert_close(block(x).detach(), before)


def test_d_model_not_divisible_by_heads_is_refused():
    """Is a d_model that num_heads does not divide refused?"""
    with pytest.raises(ValueError, match="10"):
        TransformerBlock(10, 3, 8)


# --- the source rules ------------------------------------------------------------------------


def mentioned(obj):
    """Every name and attribute the source of obj mentions (docstrings aside)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(obj)))
    return {node.attr if isinstance(node, ast.Attribute) else node.id
            for node in ast.walk(tree) if isinstance(node, ast.Attribute | ast.Name)}


def test_layer_norm_is_written_by_hand():
    """Does layer_norm use no F.layer_norm, nn.LayerNorm or torch.var_mean?"""
    assert not mentioned(layer_norm) & {"layer_norm", "LayerNorm", "var_mean",
                                        "native_layer_norm"}


def test_block_uses_its_own_pieces_around_torchs_attention_kernel():
    """Does TransformerBlock call layer_norm, feed_forward and F.scaled_dot_product_attention,
    and neither nn.MultiheadAttention, nn.TransformerEncoderLayer nor nn.LayerNorm?"""
    names = mentioned(TransformerBlock)
    assert {"layer_norm", "feed_forward", "scaled_dot_product_attention"} <= names
    assert not names & {"MultiheadAttention", "TransformerEncoderLayer", "LayerNorm"}
