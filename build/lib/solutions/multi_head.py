"""Many heads (documents 000 and 002): one batched matrix product serves every head.

Weights here follow the documents' layout: a stack W of shape (h, d_out, d_in), one
(d_out, d_in) matrix per head, applied as W @ x^T.
"""

import math

import torch


def multihead_project(x, W):
    """Project the sequence through every head's matrix with one torch.bmm.

    x: (seq, d_in); W: (h, d_out, d_in). Returns (h, seq, d_out).
    """
    h = W.shape[0]
    stacked = x.transpose(0, 1).expand(h, -1, -1)  # (h, d_in, seq)
    projected = torch.bmm(W, stacked)  # (h, d_out, seq)
    return projected.transpose(1, 2)  # (h, seq, d_out)


def multihead_attention(x, W_query, W_key, W_value):
    """Scaled dot-product self-attention in every head at once.

    x: (seq, d_in); W_query, W_key: (h, d_k, d_in); W_value: (h, d_v, d_in).
    Returns every head's context, (h, seq, d_v).
    """
    queries = multihead_project(x, W_query)  # (h, seq, d_k)
    keys = multihead_project(x, W_key)  # (h, seq, d_k)
    values = multihead_project(x, W_value)  # (h, seq, d_v)
    scores = torch.bmm(queries, keys.transpose(1, 2))  # (h, seq, seq)
    weights = torch.softmax(scores / math.sqrt(keys.shape[-1]), dim=-1)
    return torch.bmm(weights, values)  # (h, seq, d_v)


def concat_heads(context):
    """Put the heads' outputs side by side, head 0 first.

    context: (h, seq, d_v). Returns (seq, h * d_v); row i is
    [context[0, i], context[1, i], ...].
    """
    h, seq, d_v = context.shape
    by_position = context.transpose(0, 1)  # (seq, h, d_v)
    return by_position.reshape(seq, h * d_v)  # (seq, h * d_v)
