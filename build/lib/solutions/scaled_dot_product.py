"""One query, step by step (documents 000, 001, 002): project, score, scale, weight."""

import math

import torch


def project(x, W):
    """A linear projection in the row convention: x @ W.

    x: (..., d_in); W: (d_in, d_out). Returns (..., d_out).
    """
    return x @ W  # (..., d_out)


def scaled_softmax(scores, d_k):
    """softmax(scores / sqrt(d_k)) over the last dim.

    Dividing by sqrt(d_k) keeps the scores' spread independent of the key size, so the
    size of the keys alone does not saturate the softmax. scores: (..., seq).
    """
    return torch.softmax(scores / math.sqrt(d_k), dim=-1)


def scaled_dot_product_attention(queries, keys, values, mask=None):
    """The whole step: scores, scaled softmax, weighted sum of the values.

    weights = softmax(queries @ keys^T / sqrt(d_k)), context = weights @ values, with d_k
    read from keys. ``mask`` (bool, broadcastable to the scores) is True where a query must
    not look: those weights are exactly 0, and a row with every key masked is all zeros.
    queries: (d_k,) or (..., n, d_k); keys: (..., seq, d_k); values: (..., seq, d_v).
    Returns context (..., n, d_v) and weights (..., n, seq).
    """
    d_k = keys.shape[-1]
    scores = queries @ keys.transpose(-2, -1)  # (..., n, seq)
    if mask is None:
        weights = scaled_softmax(scores, d_k)
    else:
        hidden = (scores / math.sqrt(d_k)).masked_fill(mask, float("-inf"))
        weights = torch.softmax(hidden, dim=-1).masked_fill(mask, 0.0)
    return weights @ values, weights  # (..., n, d_v), (..., n, seq)
