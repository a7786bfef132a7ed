"""Looking elsewhere: queries from one sequence, keys and values from another."""

import math

import torch


def cross_attention(x_query, x_context, W_query, W_key, W_value):
    """Each position of x_query attends over the positions of x_context.

    x_query: (n_query, d_in); x_context: (n_context, d_in); W_query, W_key: (d_in, d_k);
    W_value: (d_in, d_v). Returns (n_query, d_v).
    """
    queries = x_query @ W_query  # (n_query, d_k)
    keys = x_context @ W_key  # (n_context, d_k)
    values = x_context @ W_value  # (n_context, d_v)
    scores = queries @ keys.transpose(-2, -1)  # (n_query, n_context)
    weights = torch.softmax(scores / math.sqrt(keys.shape[-1]), dim=-1)
    return weights @ values  # (n_query, d_v)
