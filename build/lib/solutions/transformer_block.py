"""From attention to a Transformer block: what document 004's outlook names after attention
(positional encoding, LayerNorm, stacking), as "Attention Is All You Need" builds it.

The block is pre-norm (x + attention(norm1(x)), then + feed_forward(norm2(.))) and equals
torch.nn.TransformerEncoderLayer(d_model, num_heads, d_ff, dropout=0.0, batch_first=True,
norm_first=True) in eval mode. Its parameters follow the row convention of the course
(a weight is (d_in, d_out), a projection is x @ W + b); from_torch transposes torch's
nn.Linear-style (d_out, d_in) weights once, when it copies them.
"""

import torch
import torch.nn.functional as F
from torch import nn


def sinusoidal_positions(seq_len, d_model):
    """The sinusoidal position encodings, (seq_len, d_model).

    PE[p, 2i] = sin(p / 10000^(2i / d_model)) and PE[p, 2i + 1] = cos of the same angle.
    An odd d_model raises ValueError.
    """
    if d_model % 2:
        raise ValueError(f"d_model must be even, got {d_model}")
    positions = torch.arange(seq_len, dtype=torch.float32).unsqueeze(1)  # (seq_len, 1)
    exponents = torch.arange(0, d_model, 2, dtype=torch.float32) / d_model  # (d_model / 2,)
    angles = positions / 10000.0**exponents  # (seq_len, d_model / 2)
    pairs = torch.stack((torch.sin(angles), torch.cos(angles)), dim=-1)  # (seq_len, d_model / 2, 2)
    return pairs.reshape(seq_len, d_model)  # (seq_len, d_model): sin, cos, sin, cos ...


def layer_norm(x, gamma, beta, eps=1e-5):
    """Layer normalisation over the last dim, by hand.

    x: (..., d); gamma, beta: (d,). (x - mean) / sqrt(var + eps) * gamma + beta, with the
    mean and the biased variance (divided by d) of each row. Returns (..., d).
    """
    mean = x.mean(dim=-1, keepdim=True)  # (..., 1)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)  # (..., 1), divided by d
    return (x - mean) / torch.sqrt(variance + eps) * gamma + beta  # (..., d)


def feed_forward(x, W1, b1, W2, b2):
    """The position-wise feed-forward network: relu(x @ W1 + b1) @ W2 + b2.

    x: (..., d_model); W1: (d_model, d_ff); b1: (d_ff,); W2: (d_ff, d_model); b2: (d_model,).
    Returns (..., d_model).
    """
    hidden = torch.relu(x @ W1 + b1)  # (..., d_ff)
    return hidden @ W2 + b2  # (..., d_model)


class TransformerBlock(nn.Module):
    """A pre-norm Transformer encoder block.

    forward(x (N, L, E), attn_mask (L, L) bool or None) -> (N, L, E):
    h = x + attention(layer_norm(x)), then h + feed_forward(layer_norm(h)). attn_mask is True
    where a query may not attend to a key. Equals torch.nn.TransformerEncoderLayer(E,
    num_heads, d_ff, dropout=0.0, batch_first=True, norm_first=True) in eval mode.
    """

    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        if d_model % num_heads:
            raise ValueError(f"d_model {d_model} is not divisible by num_heads {num_heads}")
        self.num_heads = num_heads
        self.W_qkv = nn.Parameter(torch.randn(d_model, 3 * d_model) / d_model**0.5)
        self.b_qkv = nn.Parameter(torch.zeros(3 * d_model))
        self.W_out = nn.Parameter(torch.randn(d_model, d_model) / d_model**0.5)
        self.b_out = nn.Parameter(torch.zeros(d_model))
        self.gamma1 = nn.Parameter(torch.ones(d_model))
        self.beta1 = nn.Parameter(torch.zeros(d_model))
        self.gamma2 = nn.Parameter(torch.ones(d_model))
        self.beta2 = nn.Parameter(torch.zeros(d_model))
        self.W1 = nn.Parameter(torch.randn(d_model, d_ff) / d_model**0.5)
        self.b1 = nn.Parameter(torch.zeros(d_ff))
        self.W2 = nn.Parameter(torch.randn(d_ff, d_model) / d_ff**0.5)
        self.b2 = nn.Parameter(torch.zeros(d_model))

    @classmethod
    def from_torch(cls, layer):
        """A block holding a copy of a torch.nn.TransformerEncoderLayer's weights."""
        attention = layer.self_attn
        block = cls(attention.embed_dim, attention.num_heads, layer.linear1.out_features)
        with torch.no_grad():
            block.W_qkv.copy_(attention.in_proj_weight.T)  # (E, 3E)
            block.b_qkv.copy_(attention.in_proj_bias)
            block.W_out.copy_(attention.out_proj.weight.T)  # (E, E)
            block.b_out.copy_(attention.out_proj.bias)
            block.gamma1.copy_(layer.norm1.weight)
            block.beta1.copy_(layer.norm1.bias)
            block.gamma2.copy_(layer.norm2.weight)
            block.beta2.copy_(layer.norm2.bias)
            block.W1.copy_(layer.linear1.weight.T)  # (E, d_ff)
            block.b1.copy_(layer.linear1.bias)
            block.W2.copy_(layer.linear2.weight.T)  # (d_ff, E)
            block.b2.copy_(layer.linear2.bias)
        return block

    def attention(self, x, attn_mask=None):
        """Multi-head self-attention of x (N, L, E) -> (N, L, E), heads run by
        F.scaled_dot_product_attention."""
        N, L, E = x.shape
        head_dim = E // self.num_heads
        q, k, v = (x @ self.W_qkv + self.b_qkv).chunk(3, dim=-1)  # 3 x (N, L, E)
        q = q.reshape(N, L, self.num_heads, head_dim).transpose(1, 2)  # (N, h, L, hd)
        k = k.reshape(N, L, self.num_heads, head_dim).transpose(1, 2)  # (N, h, L, hd)
        v = v.reshape(N, L, self.num_heads, head_dim).transpose(1, 2)  # (N, h, L, hd)
        allowed = None if attn_mask is None else ~attn_mask  # torch's sense: True = may attend
        heads = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)  # (N, h, L, hd)
        merged = heads.transpose(1, 2).reshape(N, L, E)  # (N, L, E), heads side by side
        return merged @ self.W_out + self.b_out  # (N, L, E)

    def forward(self, x, attn_mask=None):
        h = x + self.attention(layer_norm(x, self.gamma1, self.beta1), attn_mask)  # (N, L, E)
        ffn = feed_forward(layer_norm(h, self.gamma2, self.beta2), self.W1, self.b1, self.W2,
                           self.b2)  # (N, L, E)
        return h + ffn  # (N, L, E)
