"""How to score a key against a query (document 003): four scoring functions.

k and q are single vectors here; each function returns a 0-dim tensor.
"""

import math

import torch


def dot_score(k, q):
    """s(k, q) = k . q. k, q: (d,)."""
    return torch.dot(k, q)


def scaled_dot_score(k, q):
    """s(k, q) = k . q / sqrt(d), d the vectors' length. k, q: (d,)."""
    return torch.dot(k, q) / math.sqrt(k.shape[0])


def additive_score(k, q, W, U, v):
    """s(k, q) = v . tanh(W k + U q).

    k: (d_k,); q: (d_q,); W: (d_a, d_k); U: (d_a, d_q); v: (d_a,).
    """
    hidden = torch.tanh(W @ k + U @ q)  # (d_a,)
    return torch.dot(v, hidden)


def bilinear_score(k, q, W):
    """s(k, q) = k . (W q). k: (d_k,); q: (d_q,); W: (d_k, d_q)."""
    return torch.dot(k, W @ q)
