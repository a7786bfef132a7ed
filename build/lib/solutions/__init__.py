"""The reference implementation of every step the course teaches.

Each module holds one idea; this file re-exports the names of the course contract
(``../shared/CURRICULUM.md``) so that notebooks and tests can write
``from solutions import scaled_softmax``.

Conventions: row vectors, ``x`` is (seq, d_in), a weight ``W`` is (d_in, d_out) and a
projection is ``x @ W``; document 003's column convention appears only in
:mod:`solutions.loops`. Every function body uses nothing but ``math``, ``string``,
``torch``, ``nn`` and ``F`` and the other functions of its own assignment, so that the
notebook builder can show it to a student as it is written here.
"""

from solutions.by_hand import (
    attention_scores,
    context_vectors,
    project_qkv,
    stable_softmax,
    weighted_values,
)
from solutions.cross_attention import cross_attention
from solutions.gradients import attention_backward, softmax_backward
from solutions.loops import loop_attention, vectorized_attention
from solutions.masks import causal_mask, masked_scaled_softmax
from solutions.memory import cached_causal_attention, online_attention
from solutions.multi_head import concat_heads, multihead_attention, multihead_project
from solutions.multihead_module import MultiHeadAttention, as_additive
from solutions.scaled_dot_product import (
    project,
    scaled_dot_product_attention,
    scaled_softmax,
)
from solutions.scoring import additive_score, bilinear_score, dot_score, scaled_dot_score
from solutions.self_attention import SelfAttention, self_attention
from solutions.tokens import build_vocab, embed, encode, split_words
from solutions.transformer_block import (
    TransformerBlock,
    feed_forward,
    layer_norm,
    sinusoidal_positions,
)

__all__ = [
    "project_qkv",
    "attention_scores",
    "stable_softmax",
    "weighted_values",
    "context_vectors",
    "build_vocab",
    "encode",
    "embed",
    "split_words",
    "project",
    "scaled_softmax",
    "scaled_dot_product_attention",
    "self_attention",
    "SelfAttention",
    "multihead_project",
    "multihead_attention",
    "concat_heads",
    "MultiHeadAttention",
    "as_additive",
    "dot_score",
    "scaled_dot_score",
    "additive_score",
    "bilinear_score",
    "loop_attention",
    "vectorized_attention",
    "cross_attention",
    "causal_mask",
    "masked_scaled_softmax",
    "softmax_backward",
    "attention_backward",
    "online_attention",
    "cached_causal_attention",
    "sinusoidal_positions",
    "layer_norm",
    "feed_forward",
    "TransformerBlock",
]
