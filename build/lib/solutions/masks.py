"""Not looking ahead: the causal mask and a softmax that respects a mask."""

import math

import torch


def causal_mask(n):
    """(n, n) bool, True where query i must not look at key j: the future, j > i."""
    return torch.ones(n, n, dtype=torch.bool).triu(diagonal=1)  # (n, n)


def masked_scaled_softmax(scores, mask, d_k):
    """softmax(scores / sqrt(d_k)) over the last dim with masked positions left out.

    mask (bool, broadcastable to scores) is True where a query must not look. Masked
    weights are exactly 0; a row with every position masked gives zeros, never nan.
    """
    hidden = (scores / math.sqrt(d_k)).masked_fill(mask, float("-inf"))
    weights = torch.softmax(hidden, dim=-1)  # a fully masked row is nan here
    return weights.masked_fill(mask, 0.0)  # ... and exactly 0 here
