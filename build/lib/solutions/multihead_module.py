"""nn.MultiheadAttention written out (document 003's shapes), head by head with torch.bmm.

The parameters have the layout of torch.nn.MultiheadAttention with its defaults (one packed
in_proj_weight (3E, E), in_proj_bias (3E,), an out_proj Linear(E, E)) and are initialised in
the same order, so under the same seed both modules start with equal weights.
"""

import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Multi-head attention over sequence-first inputs.

    forward(query (L, N, E), key (S, N, E), value (S, N, E), key_padding_mask (N, S) or None,
    attn_mask (L, S) or (N * num_heads, L, S) or None) -> (output (L, N, E),
    weights averaged over the heads (N, L, S)). A bool mask is True where attention is not
    allowed; a float mask is added to the scores.
    """

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if embed_dim % num_heads:
            raise ValueError(f"embed_dim {embed_dim} is not divisible by num_heads {num_heads}")
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.in_proj_weight = nn.Parameter(torch.empty(3 * embed_dim, embed_dim))
        self.in_proj_bias = nn.Parameter(torch.empty(3 * embed_dim))
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        nn.init.xavier_uniform_(self.in_proj_weight)
        nn.init.zeros_(self.in_proj_bias)
        nn.init.zeros_(self.out_proj.bias)

    @classmethod
    def from_torch(cls, mha):
        """A copy of a torch.nn.MultiheadAttention's weights in this module."""
        module = cls(mha.embed_dim, mha.num_heads)
        with torch.no_grad():
            module.in_proj_weight.copy_(mha.in_proj_weight)
            module.in_proj_bias.copy_(mha.in_proj_bias)
            module.out_proj.weight.copy_(mha.out_proj.weight)
            module.out_proj.bias.copy_(mha.out_proj.bias)
        return module

    def split_heads(self, x):
        """(T, N, E) -> (N * num_heads, T, head_dim), batch entry n's heads consecutive."""
        T, N, _ = x.shape
        per_head = x.reshape(T, N * self.num_heads, self.head_dim)  # (T, N * h, hd)
        return per_head.transpose(0, 1)  # (N * h, T, hd)

    def score_bias(self, key_padding_mask, attn_mask, N, L, S):
        """Both masks as one additive term broadcastable to (N * h, L, S), or None."""
        bias = None
        if attn_mask is not None:
            bias = as_additive(attn_mask).reshape(-1, L, S)  # (1 or N * h, L, S)
        if key_padding_mask is not None:
            padding = as_additive(key_padding_mask)  # (N, S)
            padding = padding[:, None, None, :].expand(N, self.num_heads, 1, S)  # (N, h, 1, S)
            padding = padding.reshape(N * self.num_heads, 1, S)  # (N * h, 1, S)
            bias = padding if bias is None else bias + padding
        return bias

    def forward(self, query, key, value, key_padding_mask=None, attn_mask=None):
        L, N, E = query.shape
        S = key.shape[0]
        W_q, W_k, W_v = self.in_proj_weight.chunk(3)  # 3 x (E, E)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)  # 3 x (E,)
        q = self.split_heads(query @ W_q.T + b_q)  # (N * h, L, hd)
        k = self.split_heads(key @ W_k.T + b_k)  # (N * h, S, hd)
        v = self.split_heads(value @ W_v.T + b_v)  # (N * h, S, hd)
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(self.head_dim)  # (N * h, L, S)
        bias = self.score_bias(key_padding_mask, attn_mask, N, L, S)
        if bias is not None:
            scores = scores + bias
        weights = torch.softmax(scores, dim=-1)  # (N * h, L, S)
        heads = torch.bmm(weights, v)  # (N * h, L, hd)
        merged = heads.transpose(0, 1).reshape(L, N, E)  # (L, N, E), heads side by side
        output = self.out_proj(merged)  # (L, N, E)
        mean_weights = weights.reshape(N, self.num_heads, L, S).mean(dim=1)  # (N, L, S)
        return output, mean_weights


def as_additive(mask):
    """A bool mask (True = hidden) as 0 / -inf floats; a float mask as it is."""
    if mask.dtype == torch.bool:
        return torch.zeros(mask.shape).masked_fill(mask, float("-inf"))
    return mask
