"""Tests for solutions.multihead_module: nn.MultiheadAttention written out (document 003)."""

import pytest
import torch
from attention_course.documents import (
    DOC003_MHA_OUTPUT_SHAPE,
    DOC003_MHA_SIZES,
    DOC003_MHA_WEIGHTS_SHAPE,
)
from hypothesis import given
from torch import nn
from torch.testing import assert_close

from solutions import MultiHeadAttention
from tests.solutions.strategies import (
    NEAR,
    PROPERTIES,
    generator,
    multihead_sizes,
    randn,
    random_mask,
    seeds,
)

# --- document 003 ----------------------------------------------------------------------------


def test_doc003_output_and_weights_shapes():
    """Does MultiHeadAttention(10, 10) give document 003's shapes (3, 4, 10) and (4, 3, 6)?"""
    L, N, E, S = (DOC003_MHA_SIZES[k] for k in ("L", "N", "E", "S"))
    module = MultiHeadAttention(E, DOC003_MHA_SIZES["num_heads"])
    query = torch.rand(L, N, E)
    key = torch.rand(S, N, E)
    value = torch.rand(S, N, E)
    output, weights = module(query, key, value, key_padding_mask=None, attn_mask=None)
    assert output.shape == DOC003_MHA_OUTPUT_SHAPE
    assert weights.shape == DOC003_MHA_WEIGHTS_SHAPE


# --- properties ------------------------------------------------------------------------------


def pair(sizes, seed):
    """A torch module with random (non-zero) biases and our copy of it."""
    torch.manual_seed(seed)
    reference = nn.MultiheadAttention(sizes.E, sizes.heads)
    with torch.no_grad():  # the defaults zero the biases; make them count
        reference.in_proj_bias.normal_()
        reference.out_proj.bias.normal_()
    return reference, MultiHeadAttention.from_torch(reference)


def inputs(sizes, gen):
    query = randn(gen, sizes.L, sizes.N, sizes.E)
    key = randn(gen, sizes.S, sizes.N, sizes.E)
    value = randn(gen, sizes.S, sizes.N, sizes.E)
    return query, key, value


@PROPERTIES
@given(sizes=multihead_sizes(), seed=seeds)
def test_from_torch_equals_torch(sizes, seed):
    """Does from_torch(m) give m's output and head-averaged weights, without masks?"""
    reference, module = pair(sizes, seed)
    query, key, value = inputs(sizes, generator(seed))
    output, weights = module(query, key, value)
    expected_output, expected_weights = reference(query, key, value)
    assert output.shape == (sizes.L, sizes.N, sizes.E)
    assert weights.shape == (sizes.N, sizes.L, sizes.S)
    assert_close(output, expected_output, **NEAR)
    assert_close(weights, expected_weights, **NEAR)


@PROPERTIES
@given(sizes=multihead_sizes(), seed=seeds)
def test_from_torch_equals_torch_with_key_padding_mask(sizes, seed):
    """Does from_torch(m) equal m with a bool key_padding_mask (N, S), no row masked whole?"""
    reference, module = pair(sizes, seed)
    gen = generator(seed)
    query, key, value = inputs(sizes, gen)
    padding = random_mask(gen, sizes.N, sizes.S)
    output, weights = module(query, key, value, key_padding_mask=padding)
    expected_output, expected_weights = reference(query, key, value, key_padding_mask=padding)
    assert_close(output, expected_output, **NEAR)
    assert_close(weights, expected_weights, **NEAR)
    assert torch.all(weights.masked_select(padding[:, None, :]) == 0)


@PROPERTIES
@given(sizes=multihead_sizes(), seed=seeds)
def test_from_torch_equals_torch_with_attn_mask(sizes, seed):
    """Does from_torch(m) equal m with a bool attn_mask (L, S), no row masked whole?"""
    reference, module = pair(sizes, seed)
    gen = generator(seed)
    query, key, value = inputs(sizes, gen)
    attn_mask = random_mask(gen, sizes.L, sizes.S)
    output, weights = module(query, key, value, attn_mask=attn_mask)
    expected_output, expected_weights = reference(query, key, value, attn_mask=attn_mask)
    assert_close(output, expected_output, **NEAR)
    assert_close(weights, expected_weights, **NEAR)
    assert torch.all(weights.masked_select(attn_mask[None]) == 0)


@PROPERTIES
@given(sizes=multihead_sizes(), seed=seeds)
def test_from_torch_equals_torch_with_both_masks(sizes, seed):
    """Does from_torch(m) equal m with both bool masks, and a 3-D attn_mask (N * h, L, S)?

    One key is left unmasked by both, so no query is left with nothing to look at.
    """
    reference, module = pair(sizes, seed)
    gen = generator(seed)
    query, key, value = inputs(sizes, gen)
    padding = random_mask(gen, sizes.N, sizes.S, keep_one=False)
    attn_mask = random_mask(gen, sizes.N * sizes.heads, sizes.L, sizes.S, keep_one=False)
    free = int(torch.randint(sizes.S, (1,), generator=gen))
    padding[:, free] = False
    attn_mask[..., free] = False
    output, weights = module(query, key, value, key_padding_mask=padding, attn_mask=attn_mask)
    expected_output, expected_weights = reference(
        query, key, value, key_padding_mask=padding, attn_mask=attn_mask
    )
    assert_close(output, expected_output, **NEAR)
    assert_close(weights, expected_weights, **NEAR)


@PROPERTIES
@given(sizes=multihead_sizes(), seed=seeds)
def test_from_torch_equals_torch_with_float_attn_mask(sizes, seed):
    """Does from_torch(m) equal m with a float attn_mask (L, S) added to the scores?"""
    reference, module = pair(sizes, seed)
    gen = generator(seed)
    query, key, value = inputs(sizes, gen)
    attn_mask = randn(gen, sizes.L, sizes.S)
    output, weights = module(query, key, value, attn_mask=attn_mask)
    expected_output, expected_weights = reference(query, key, value, attn_mask=attn_mask)
    assert_close(output, expected_output, **NEAR)
    assert_close(weights, expected_weights, **NEAR)


@PROPERTIES
@given(sizes=multihead_sizes(), seed=seeds)
def test_initial_parameters_equal_torch_under_the_same_seed(sizes, seed):
    """Does MultiHeadAttention(E, h) start with nn.MultiheadAttention(E, h)'s weights, same seed?"""
    torch.manual_seed(seed)
    reference = nn.MultiheadAttention(sizes.E, sizes.heads)
    next_after_reference = torch.rand(3)
    torch.manual_seed(seed)
    module = MultiHeadAttention(sizes.E, sizes.heads)
    next_after_module = torch.rand(3)
    ours, theirs = module.state_dict(), reference.state_dict()
    assert list(ours) == list(theirs)
    for name, tensor in theirs.items():
        assert torch.equal(ours[name], tensor), name
    # both draw as much from the generator, so what follows is drawn alike too
    assert torch.equal(next_after_module, next_after_reference)


@PROPERTIES
@given(sizes=multihead_sizes(), seed=seeds)
def test_weights_rows_sum_to_one(sizes, seed):
    """Do the head-averaged weights of every query sum to 1 over the keys?"""
    _, module = pair(sizes, seed)
    _, weights = module(*inputs(sizes, generator(seed)))
    assert_close(weights.sum(dim=-1), torch.ones(sizes.N, sizes.L), **NEAR)


def test_from_torch_copies_and_does_not_share():
    """Does from_torch copy m's tensors, so that changing m afterwards leaves the copy alone?"""
    torch.manual_seed(5)
    reference = nn.MultiheadAttention(6, 3)
    module = MultiHeadAttention.from_torch(reference)
    assert (module.embed_dim, module.num_heads) == (6, 3)
    with torch.no_grad():
        reference.in_proj_weight.add_(1.0)
    assert not torch.equal(module.in_proj_weight, reference.in_proj_weight)


@pytest.mark.parametrize(("embed_dim", "num_heads"), [(10, 3), (7, 2)])
def test_embed_dim_not_divisible_by_heads_is_refused(embed_dim, num_heads):
    """Is an embed_dim that num_heads does not divide refused, as torch refuses it?"""
    with pytest.raises((ValueError, AssertionError)):
        nn.MultiheadAttention(embed_dim, num_heads)
    with pytest.raises((ValueError, AssertionError)):
        MultiHeadAttention(embed_dim, num_heads)
