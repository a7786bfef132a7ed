"""Tests for autograder.sandbox.link: what the grader can send into the student's kernel."""

import pytest
import torch
from torch import nn

from autograder.sandbox.agent import Agent
from autograder.sandbox.link import module_recipe


def rebuilt(module):
    """The module as the agent in the kernel rebuilds it from the grader's recipe."""
    return Agent({}).module_from(module_recipe(module)["module"])


def test_a_transformer_encoder_layer_arrives_with_its_options_and_weights():
    """Does a pre-norm, batch-first TransformerEncoderLayer with dropout 0 come back with the
    same sizes, options and tensors, so that it computes the same output?"""
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(6, 2, 5, dropout=0.0, batch_first=True,
                                       norm_first=True).eval()
    copy = rebuilt(layer).eval()
    assert (copy.self_attn.embed_dim, copy.self_attn.num_heads, copy.linear1.out_features) == (
        6, 2, 5)
    assert copy.norm_first and copy.self_attn.batch_first and copy.dropout.p == 0.0
    for (name, theirs), (_, ours) in zip(layer.state_dict().items(),
                                         copy.state_dict().items(), strict=True):
        assert torch.equal(theirs, ours), name
    x = torch.randn(3, 4, 6)
    assert torch.allclose(copy(x), layer(x))


def test_a_multihead_attention_module_still_arrives():
    """Does an nn.MultiheadAttention still come back with its weights?"""
    mha = nn.MultiheadAttention(4, 2)
    assert torch.equal(rebuilt(mha).in_proj_weight, mha.in_proj_weight)


def test_other_modules_are_refused():
    """Is a module the agent could not rebuild (an encoder layer with gelu, a Linear) refused
    with the module's class named?"""
    with pytest.raises(TypeError, match="TransformerEncoderLayer"):
        module_recipe(nn.TransformerEncoderLayer(4, 2, 8, activation="gelu"))
    with pytest.raises(TypeError, match="Linear"):
        module_recipe(nn.Linear(2, 3))
