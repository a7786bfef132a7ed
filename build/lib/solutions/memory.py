"""Attention that fits in memory: keys read a block at a time (the online softmax behind
FlashAttention), and decoding one position at a time with a key/value cache.

Both give exactly the result of ordinary attention; what changes is what is held at once.
online_attention never holds more than block_size columns of scores; cached_causal_attention
projects each position once and attends its query over the positions cached so far, which is
what makes a causal mask unnecessary.
"""

import math

import torch


def online_attention(queries, keys, values, block_size):
    """softmax(Q K^T / sqrt(d_k)) V, reading keys and values block_size rows at a time.

    queries (..., n_q, d_k), keys (..., n_k, d_k), values (..., n_k, d_v); returns
    (..., n_q, d_v). Each query keeps a running max m and a running sum l of exp(score - m);
    when a block raises m, the sum and the partial context so far are rescaled by
    exp(m_old - m_new). The last block may be shorter than block_size.
    """
    scale = 1.0 / math.sqrt(keys.shape[-1])
    running_max = torch.full_like(queries[..., :1], float("-inf"))  # (..., n_q, 1)
    running_sum = torch.zeros_like(queries[..., :1])  # (..., n_q, 1)
    context = torch.zeros(*queries.shape[:-1], values.shape[-1],
                          dtype=values.dtype)  # (..., n_q, d_v)
    for start in range(0, keys.shape[-2], block_size):
        block_keys = keys[..., start:start + block_size, :]  # (..., b, d_k), b <= block_size
        block_values = values[..., start:start + block_size, :]  # (..., b, d_v)
        scores = queries @ block_keys.transpose(-2, -1) * scale  # (..., n_q, b)
        new_max = torch.maximum(running_max, scores.amax(dim=-1, keepdim=True))  # (..., n_q, 1)
        rescale = torch.exp(running_max - new_max)  # (..., n_q, 1), 0 on the first block
        exps = torch.exp(scores - new_max)  # (..., n_q, b)
        running_sum = running_sum * rescale + exps.sum(dim=-1, keepdim=True)  # (..., n_q, 1)
        context = context * rescale + exps @ block_values  # (..., n_q, d_v)
        running_max = new_max
    return context / running_sum  # (..., n_q, d_v)


def cached_causal_attention(x, W_query, W_key, W_value):
    """Causal self-attention decoded one position at a time with a key/value cache.

    x (..., seq, d_in); W_query, W_key (d_in, d_k); W_value (d_in, d_v). Returns
    (..., seq, d_v). Position t is projected once: its key and value go into row t of the
    cache, and its query attends over rows 0..t of the cache, so no mask is needed.
    """
    seq, d_k = x.shape[-2], W_key.shape[-1]
    batch = x.shape[:-2]
    key_cache = torch.zeros(*batch, seq, d_k, dtype=x.dtype)  # (..., seq, d_k)
    value_cache = torch.zeros(*batch, seq, W_value.shape[-1], dtype=x.dtype)  # (..., seq, d_v)
    outputs = []
    for t in range(seq):
        token = x[..., t, :]  # (..., d_in)
        query = token @ W_query  # (..., d_k)
        key_cache[..., t, :] = token @ W_key  # row t of the cache
        value_cache[..., t, :] = token @ W_value
        keys = key_cache[..., :t + 1, :]  # (..., t + 1, d_k): the cache so far
        scores = keys @ query.unsqueeze(-1) / math.sqrt(d_k)  # (..., t + 1, 1)
        weights = torch.softmax(scores, dim=-2)  # (..., t + 1, 1)
        outputs.append((weights * value_cache[..., :t + 1, :]).sum(dim=-2))  # (..., d_v)
    return torch.stack(outputs, dim=-2)  # (..., seq, d_v)
