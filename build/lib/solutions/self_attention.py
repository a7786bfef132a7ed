"""All queries at once (document 001): self-attention as a function and as a module."""

import math

import torch
from torch import nn


def self_attention(x, W_query, W_key, W_value):
    """Every position attends to every position of the same sequence, with no loop.

    context = softmax((x W_q)(x W_k)^T / sqrt(d_k)) (x W_v).
    x: (..., seq, d_in); W_query, W_key: (d_in, d_k); W_value: (d_in, d_v).
    Returns (..., seq, d_v).
    """
    queries = x @ W_query  # (..., seq, d_k)
    keys = x @ W_key  # (..., seq, d_k)
    values = x @ W_value  # (..., seq, d_v)
    scores = queries @ keys.transpose(-2, -1)  # (..., seq, seq)
    weights = torch.softmax(scores / math.sqrt(keys.shape[-1]), dim=-1)
    return weights @ values  # (..., seq, d_v)


class SelfAttention(nn.Module):
    """Self-attention with learnable projections, drawn by torch.rand in the order
    W_query, W_key, W_value (so that a seed reproduces the worked example's output).

    forward(x): x (seq, d_in) -> (seq, d_out_v).
    """

    def __init__(self, d_in, d_out_kq, d_out_v):
        super().__init__()
        self.d_out_kq = d_out_kq
        self.W_query = nn.Parameter(torch.rand(d_in, d_out_kq))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out_kq))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out_v))

    def forward(self, x):
        return self_attention(x, self.W_query, self.W_key, self.W_value)
