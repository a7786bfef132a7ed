"""Attention by hand (document 004): the five steps from inputs to outputs, one function each."""

import torch


def project_qkv(x, W_query, W_key, W_value):
    """Project every input row into a query, a key and a value.

    queries = x @ W_query, keys = x @ W_key, values = x @ W_value.
    x: (seq, d_in); W_query, W_key: (d_in, d_k); W_value: (d_in, d_v).
    Returns queries (seq, d_k), keys (seq, d_k), values (seq, d_v).
    """
    queries = x @ W_query  # (seq, d_k)
    keys = x @ W_key  # (seq, d_k)
    values = x @ W_value  # (seq, d_v)
    return queries, keys, values


def attention_scores(queries, keys):
    """Unscaled scores: how well each query matches each key.

    scores[i, j] = queries[i] . keys[j], that is scores = queries @ keys^T.
    queries: (d_k,) or (..., n, d_k); keys: (..., seq, d_k).
    Returns (seq,) for one query, (..., n, seq) for many.
    """
    return queries @ keys.transpose(-2, -1)  # (..., n, seq)


def stable_softmax(scores, dim=-1):
    """Softmax written out, safe for large scores.

    softmax(s)_j = exp(s_j - m) / sum_k exp(s_k - m), with m = max_k s_k.
    Subtracting the maximum changes nothing mathematically, but keeps every exponent
    <= 0, so exp never overflows (scores of 1e4 give no inf and no nan).
    scores: any shape; the weights have the same shape and sum to 1 along ``dim``.
    """
    peak = scores.amax(dim=dim, keepdim=True)  # same rank as scores, size 1 on dim
    peak = torch.where(torch.isfinite(peak), peak, torch.zeros_like(peak))
    exps = torch.exp(scores - peak)
    return exps / exps.sum(dim=dim, keepdim=True)


def weighted_values(weights, values):
    """Every value scaled by every query's attention weight for it.

    element [j, i] = weights[i, j] * values[j].
    weights: (n_queries, n_keys); values: (n_keys, d_v).
    Returns (n_keys, n_queries, d_v); summing over dim 0 gives the outputs.
    """
    per_key = values[:, None, :]  # (n_keys, 1, d_v)
    per_pair = weights.transpose(0, 1)[:, :, None]  # (n_keys, n_queries, 1)
    return per_key * per_pair  # (n_keys, n_queries, d_v)


def context_vectors(weights, values):
    """Each query's output: the weighted sum of the values.

    context[i] = sum_j weights[i, j] * values[j], that is weights @ values.
    weights: (n_keys,) or (n_queries, n_keys); values: (n_keys, d_v).
    Returns (d_v,) or (n_queries, d_v).
    """
    return weights @ values  # (n_queries, d_v)
