# ruff: noqa: E501 - the students' code keeps the long lines students write
"""Held-out idioms (correct, numerically different from the reference) and fragile formulas
(plausible, numerically weak) for the steps of the course, for bench/draws.py: an idiom must
pass every draw of the hidden cases, a fragile formula must pass every draw or fail every
draw (decided by a fixed case, never by the draw).

Each entry is (label, code); the code defines the step's name, as a student's cell would, and
runs in the namespace mistakes run in (math, torch, nn, F, string and the reference of every
earlier step the step uses). Steps whose built-ins are forbidden (01 stable_softmax: no
softmax or logsumexp; 08 layer_norm: no layer_norm/var_mean/std_mean; 09 online_attention: no
softmax) get no idiom that calls them.

Some code is written as the reference's source with pieces replaced (MHA, TransformerBlock);
see `derived()`.
"""

from __future__ import annotations

import inspect


def fn(signature, body):
    lines = body.strip("\n").splitlines()
    indent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
    return signature + "\n" + "\n".join("    " + line[indent:] for line in lines) + "\n"


# ---------------------------------------------------------------------------------------------
# 01_attention_by_hand

PROJECT_QKV = "def project_qkv(x, W_query, W_key, W_value):"
ATTENTION_SCORES = "def attention_scores(queries, keys):"
STABLE_SOFTMAX = "def stable_softmax(scores, dim=-1):"
WEIGHTED_VALUES = "def weighted_values(weights, values):"
CONTEXT_VECTORS = "def context_vectors(weights, values):"

IDIOMS = {
    "project_qkv": [
        ("one product with the three weights side by side, then split", fn(PROJECT_QKV, """
            W = torch.cat([W_query, W_key, W_value], dim=1)
            both = x @ W
            d_k = W_query.shape[1]
            return both[:, :d_k], both[:, d_k:2 * d_k], both[:, 2 * d_k:]
        """)),
        ("einsum", fn(PROJECT_QKV, """
            return (torch.einsum('sd,dk->sk', x, W_query), torch.einsum('sd,dk->sk', x, W_key),
                    torch.einsum('sd,dk->sk', x, W_value))
        """)),
    ],
    "attention_scores": [
        ("keys @ queries^T, transposed back", fn(ATTENTION_SCORES, """
            if queries.dim() == 1:
                return keys @ queries
            return (keys @ queries.transpose(-2, -1)).transpose(-2, -1)
        """)),
        ("broadcast product summed over d_k", fn(ATTENTION_SCORES, """
            if queries.dim() == 1:
                return (keys * queries).sum(-1)
            return (queries.unsqueeze(-2) * keys.unsqueeze(-3)).sum(-1)
        """)),
    ],
    "stable_softmax": [
        ("max by .max().values, no inf guard", fn(STABLE_SOFTMAX, """
            m = scores.max(dim=dim, keepdim=True).values
            e = torch.exp(scores - m)
            return e / e.sum(dim=dim, keepdim=True)
        """)),
        ("log-sum-exp written out: exp(s - lse)", fn(STABLE_SOFTMAX, """
            m = scores.amax(dim=dim, keepdim=True)
            lse = m + torch.log(torch.exp(scores - m).sum(dim=dim, keepdim=True))
            return torch.exp(scores - lse)
        """)),
        ("times the reciprocal of the sum", fn(STABLE_SOFTMAX, """
            e = torch.exp(scores - scores.amax(dim=dim, keepdim=True))
            return e * e.sum(dim=dim, keepdim=True).reciprocal()
        """)),
        ("computed in float64, returned in the input's dtype", fn(STABLE_SOFTMAX, """
            s = scores.double()
            e = torch.exp(s - s.amax(dim=dim, keepdim=True))
            return (e / e.sum(dim=dim, keepdim=True)).to(scores.dtype)
        """)),
    ],
    "weighted_values": [
        ("einsum", fn(WEIGHTED_VALUES, """
            return torch.einsum('qk,kd->kqd', weights, values)
        """)),
    ],
    "context_vectors": [
        ("broadcast product summed over the keys", fn(CONTEXT_VECTORS, """
            return (weights.unsqueeze(-1) * values).sum(-2)
        """)),
        ("einsum", fn(CONTEXT_VECTORS, """
            return torch.einsum('...k,kd->...d', weights, values)
        """)),
    ],
}

FRAGILE = {
    "stable_softmax": [
        ("mean subtracted instead of the max", fn(STABLE_SOFTMAX, """
            e = torch.exp(scores - scores.mean(dim=dim, keepdim=True))
            return e / e.sum(dim=dim, keepdim=True)
        """)),
        ("max of the whole tensor subtracted", fn(STABLE_SOFTMAX, """
            e = torch.exp(scores - scores.max())
            return e / e.sum(dim=dim, keepdim=True)
        """)),
        ("scores clamped to [-80, 80] instead of shifted", fn(STABLE_SOFTMAX, """
            e = torch.exp(scores.clamp(-80.0, 80.0))
            return e / e.sum(dim=dim, keepdim=True)
        """)),
        ("float16 exponentials", fn(STABLE_SOFTMAX, """
            m = scores.amax(dim=dim, keepdim=True)
            e = torch.exp((scores - m).half())
            return (e / e.sum(dim=dim, keepdim=True)).to(scores.dtype)
        """)),
    ],
}

# ---------------------------------------------------------------------------------------------
# 03_scaled_dot_product

PROJECT = "def project(x, W):"
SCALED_SOFTMAX = "def scaled_softmax(scores, d_k):"
SDPA = "def scaled_dot_product_attention(queries, keys, values, mask=None):"

IDIOMS |= {
    "project": [
        ("einsum", fn(PROJECT, "return torch.einsum('...i,io->...o', x, W)")),
        ("W^T x, transposed back", fn(PROJECT, """
            if x.dim() == 1:
                return W.T @ x
            return (W.T @ x.transpose(-2, -1)).transpose(-2, -1)
        """)),
    ],
    "scaled_softmax": [
        ("softmax written out with the max", fn(SCALED_SOFTMAX, """
            s = scores / math.sqrt(d_k)
            e = torch.exp(s - s.amax(dim=-1, keepdim=True))
            return e / e.sum(dim=-1, keepdim=True)
        """)),
        ("times d_k ** -0.5, F.softmax", fn(SCALED_SOFTMAX, """
            return F.softmax(scores * d_k ** -0.5, dim=-1)
        """)),
        ("exp(s - logsumexp(s))", fn(SCALED_SOFTMAX, """
            s = scores / math.sqrt(d_k)
            return torch.exp(s - torch.logsumexp(s, dim=-1, keepdim=True))
        """)),
    ],
    "scaled_dot_product_attention": [
        ("-1e9 filled in, masked weights zeroed", fn(SDPA, """
            scores = queries @ keys.transpose(-2, -1)
            if mask is not None:
                scores = scores.masked_fill(mask, -1e9)
            weights = scaled_softmax(scores, keys.shape[-1])
            if mask is not None:
                weights = weights.masked_fill(mask, 0.0)
            return weights @ values, weights
        """)),
        ("-inf filled in, nan_to_num afterwards", fn(SDPA, """
            scores = queries @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
            if mask is not None:
                scores = scores.masked_fill(mask, float('-inf'))
            weights = torch.softmax(scores, dim=-1).nan_to_num(0.0)
            return weights @ values, weights
        """)),
        ("queries scaled before the product, torch.where", fn(SDPA, """
            q = queries / math.sqrt(keys.shape[-1])
            scores = q @ keys.transpose(-2, -1)
            if mask is None:
                weights = torch.softmax(scores, dim=-1)
            else:
                scores = torch.where(mask, float('-inf'), scores)
                weights = torch.softmax(scores, dim=-1)
                weights = torch.where(mask, 0.0, weights)
            return weights @ values, weights
        """)),
        ("einsum and an additive -inf bias", fn(SDPA, """
            q = queries.unsqueeze(-2) if queries.dim() == 1 else queries
            scores = torch.einsum('...qd,...kd->...qk', q, keys)
            if mask is not None:
                bias = torch.zeros(scores.shape).masked_fill(mask, float('-inf'))
                scores = scores + bias
            weights = scaled_softmax(scores, keys.shape[-1])
            if mask is not None:
                weights = weights.masked_fill(mask, 0.0)
            context = torch.einsum('...qk,...kd->...qd', weights, values)
            if queries.dim() == 1:
                return context.squeeze(-2), weights.squeeze(-2)
            return context, weights
        """)),
    ],
}

FRAGILE |= {
    "scaled_softmax": [
        ("softmax written out without the max", fn(SCALED_SOFTMAX, """
            e = torch.exp(scores / math.sqrt(d_k))
            return e / e.sum(dim=-1, keepdim=True)
        """)),
        ("float16 softmax", fn(SCALED_SOFTMAX, """
            return torch.softmax((scores / math.sqrt(d_k)).half(), dim=-1).float()
        """)),
    ],
    "scaled_dot_product_attention": [
        ("-1e9 filled in, masked weights not zeroed", fn(SDPA, """
            scores = queries @ keys.transpose(-2, -1)
            if mask is not None:
                scores = scores.masked_fill(mask, -1e9)
            weights = scaled_softmax(scores, keys.shape[-1])
            return weights @ values, weights
        """)),
    ],
}

# ---------------------------------------------------------------------------------------------
# 04_self_attention, 05_multi_head

SELF_ATTENTION = "def self_attention(x, W_query, W_key, W_value):"
MH_PROJECT = "def multihead_project(x, W):"
MH_ATTENTION = "def multihead_attention(x, W_query, W_key, W_value):"
CONCAT = "def concat_heads(context):"

IDIOMS |= {
    "self_attention": [
        ("einsum", fn(SELF_ATTENTION, """
            q, k, v = x @ W_query, x @ W_key, x @ W_value
            scores = torch.einsum('...id,...jd->...ij', q, k) / math.sqrt(k.shape[-1])
            return torch.einsum('...ij,...jd->...id', torch.softmax(scores, dim=-1), v)
        """)),
        ("softmax written out, queries scaled first", fn(SELF_ATTENTION, """
            q = x @ W_query / math.sqrt(W_key.shape[-1])
            scores = q @ (x @ W_key).transpose(-2, -1)
            e = torch.exp(scores - scores.amax(dim=-1, keepdim=True))
            return (e / e.sum(dim=-1, keepdim=True)) @ (x @ W_value)
        """)),
        ("F.scaled_dot_product_attention", fn(SELF_ATTENTION, """
            return F.scaled_dot_product_attention(x @ W_query, x @ W_key, x @ W_value)
        """)),
    ],
    "multihead_project": [
        ("x expanded per head, bmm with W^T", fn(MH_PROJECT, """
            h = W.shape[0]
            return torch.bmm(x.expand(h, -1, -1), W.transpose(1, 2))
        """)),
    ],
    "multihead_attention": [
        ("einsum scores, softmax written out", fn(MH_ATTENTION, """
            q = multihead_project(x, W_query)
            k = multihead_project(x, W_key)
            v = multihead_project(x, W_value)
            scores = torch.einsum('hid,hjd->hij', q, k) / math.sqrt(k.shape[-1])
            e = torch.exp(scores - scores.amax(dim=-1, keepdim=True))
            return torch.bmm(e / e.sum(dim=-1, keepdim=True), v)
        """)),
        ("F.scaled_dot_product_attention on the heads", fn(MH_ATTENTION, """
            return F.scaled_dot_product_attention(multihead_project(x, W_query),
                                                  multihead_project(x, W_key),
                                                  multihead_project(x, W_value))
        """)),
    ],
    "concat_heads": [
        ("permute then reshape", fn(CONCAT, """
            h, seq, d_v = context.shape
            return context.permute(1, 0, 2).reshape(seq, h * d_v)
        """)),
        ("torch.cat of the unbound heads", fn(CONCAT, """
            return torch.cat(context.unbind(0), dim=-1)
        """)),
    ],
}

FRAGILE |= {
    "self_attention": [
        ("softmax written out without the max", fn(SELF_ATTENTION, """
            q, k, v = x @ W_query, x @ W_key, x @ W_value
            e = torch.exp(q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1]))
            return e / e.sum(dim=-1, keepdim=True) @ v
        """)),
    ],
}

# ---------------------------------------------------------------------------------------------
# 06_scoring_functions

IDIOMS |= {
    "dot_score": [("product summed", fn("def dot_score(k, q):", "return (k * q).sum()"))],
    "scaled_dot_score": [
        ("product summed, times d ** -0.5", fn("def scaled_dot_score(k, q):",
                                               "return (k * q).sum() * k.numel() ** -0.5")),
        ("k scaled first, @", fn("def scaled_dot_score(k, q):",
                                 "return (k / math.sqrt(len(k))) @ q")),
    ],
    "additive_score": [
        ("v @ tanh(...)", fn("def additive_score(k, q, W, U, v):",
                             "return v @ torch.tanh(W @ k + U @ q)")),
    ],
    "bilinear_score": [
        ("(k @ W) @ q", fn("def bilinear_score(k, q, W):", "return (k @ W) @ q")),
        ("einsum", fn("def bilinear_score(k, q, W):", "return torch.einsum('i,ij,j->', k, W, q)")),
    ],
    "loop_attention": [
        ("softmax written out in the loop, V @ weights", fn(
            "def loop_attention(X, W_Q, W_K, W_V):", """
            Q, K, V = W_Q @ X, W_K @ X, W_V @ X
            N = X.shape[1]
            H = torch.zeros(V.shape[0], N)
            for i in range(N):
                s = torch.stack([scaled_dot_score(K[:, j], Q[:, i]) for j in range(N)])
                e = torch.exp(s - s.max())
                H[:, i] = V @ (e / e.sum())
            return H
        """)),
    ],
    "vectorized_attention": [
        ("queries as rows, softmax along dim -1, transposed back", fn(
            "def vectorized_attention(X, W_Q, W_K, W_V):", """
            Q, K, V = (W_Q @ X).T, (W_K @ X).T, (W_V @ X).T
            weights = torch.softmax(Q @ K.T / math.sqrt(Q.shape[-1]), dim=-1)
            return (weights @ V).T
        """)),
        ("einsum", fn("def vectorized_attention(X, W_Q, W_K, W_V):", """
            Q, K, V = W_Q @ X, W_K @ X, W_V @ X
            scores = torch.einsum('dj,di->ji', K, Q) / math.sqrt(K.shape[0])
            return torch.einsum('vj,ji->vi', V, torch.softmax(scores, dim=0))
        """)),
    ],
}

FRAGILE |= {
    "loop_attention": [
        ("softmax written out without the max", fn("def loop_attention(X, W_Q, W_K, W_V):", """
            Q, K, V = W_Q @ X, W_K @ X, W_V @ X
            N = X.shape[1]
            H = torch.zeros(V.shape[0], N)
            for i in range(N):
                s = torch.stack([scaled_dot_score(K[:, j], Q[:, i]) for j in range(N)])
                e = torch.exp(s)
                H[:, i] = V @ (e / e.sum())
            return H
        """)),
    ],
}

# ---------------------------------------------------------------------------------------------
# 07_cross_attention_and_masks

CROSS = "def cross_attention(x_query, x_context, W_query, W_key, W_value):"
MASKED = "def masked_scaled_softmax(scores, mask, d_k):"

IDIOMS |= {
    "cross_attention": [
        ("einsum", fn(CROSS, """
            q, k, v = x_query @ W_query, x_context @ W_key, x_context @ W_value
            s = torch.einsum('id,jd->ij', q, k) / math.sqrt(k.shape[-1])
            return torch.einsum('ij,jd->id', torch.softmax(s, dim=-1), v)
        """)),
        ("F.scaled_dot_product_attention", fn(CROSS, """
            return F.scaled_dot_product_attention(x_query @ W_query, x_context @ W_key,
                                                  x_context @ W_value)
        """)),
    ],
    "causal_mask": [
        ("index comparison", fn("def causal_mask(n):", """
            i = torch.arange(n)
            return i[None, :] > i[:, None]
        """)),
    ],
    "masked_scaled_softmax": [
        ("-inf filled in, nan_to_num afterwards", fn(MASKED, """
            hidden = (scores / math.sqrt(d_k)).masked_fill(mask, float('-inf'))
            return torch.nan_to_num(torch.softmax(hidden, dim=-1), nan=0.0)
        """)),
        ("-1e9 filled in before scaling, masked weights zeroed", fn(MASKED, """
            hidden = scores.masked_fill(mask, -1e9) / math.sqrt(d_k)
            return torch.softmax(hidden, dim=-1).masked_fill(mask, 0.0)
        """)),
        ("additive -1e9 bias, weights times ~mask", fn(MASKED, """
            hidden = scores / math.sqrt(d_k) + mask.float() * -1e9
            return torch.softmax(hidden, dim=-1) * (~mask)
        """)),
        ("softmax written out, max over the open keys", fn(MASKED, """
            s = (scores / math.sqrt(d_k)).masked_fill(mask, float('-inf'))
            m = s.amax(dim=-1, keepdim=True)
            m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
            e = torch.exp(s - m)
            total = e.sum(dim=-1, keepdim=True)
            return e / torch.where(total > 0, total, torch.ones_like(total))
        """)),
    ],
}

FRAGILE |= {
    "masked_scaled_softmax": [
        ("-1e9 filled in, masked weights not zeroed", fn(MASKED, """
            hidden = (scores / math.sqrt(d_k)).masked_fill(mask, -1e9)
            return torch.softmax(hidden, dim=-1)
        """)),
        ("softmax written out without the max", fn(MASKED, """
            e = torch.exp(scores / math.sqrt(d_k)).masked_fill(mask, 0.0)
            total = e.sum(dim=-1, keepdim=True)
            return e / torch.where(total > 0, total, torch.ones_like(total))
        """)),
    ],
}

# ---------------------------------------------------------------------------------------------
# 08_transformer_block

POSITIONS = "def sinusoidal_positions(seq_len, d_model):"
LAYER_NORM = "def layer_norm(x, gamma, beta, eps=1e-5):"
FFN = "def feed_forward(x, W1, b1, W2, b2):"

IDIOMS |= {
    "sinusoidal_positions": [
        ("div_term = exp(-log(10000) 2i / d) (the Annotated Transformer's)", fn(POSITIONS, """
            if d_model % 2:
                raise ValueError(f'odd d_model {d_model}')
            position = torch.arange(seq_len).unsqueeze(1).float()
            div_term = torch.exp(torch.arange(0, d_model, 2).float()
                                 * -(math.log(10000.0) / d_model))
            pe = torch.zeros(seq_len, d_model)
            pe[:, 0::2] = torch.sin(position * div_term)
            pe[:, 1::2] = torch.cos(position * div_term)
            return pe
        """)),
        ("computed in float64, made float32", fn(POSITIONS, """
            if d_model % 2:
                raise ValueError(f'odd d_model {d_model}')
            p = torch.arange(seq_len, dtype=torch.float64)[:, None]
            i = torch.arange(d_model // 2, dtype=torch.float64)
            angles = p / 10000 ** (2 * i / d_model)
            return torch.stack([angles.sin(), angles.cos()], dim=-1).reshape(seq_len, d_model).float()
        """)),
    ],
    "layer_norm": [
        ("torch.var(correction=0)", fn(LAYER_NORM, """
            mean = x.mean(dim=-1, keepdim=True)
            var = torch.var(x, dim=-1, keepdim=True, correction=0)
            return (x - mean) / torch.sqrt(var + eps) * gamma + beta
        """)),
        ("x.std(unbiased=False), sqrt(std**2 + eps)", fn(LAYER_NORM, """
            mean = x.mean(-1, keepdim=True)
            std = x.std(-1, keepdim=True, unbiased=False)
            return gamma * (x - mean) / torch.sqrt(std ** 2 + eps) + beta
        """)),
        ("(var + eps) ** -0.5, centred sum of squares / d", fn(LAYER_NORM, """
            centred = x - x.sum(-1, keepdim=True) / x.shape[-1]
            var = (centred * centred).sum(-1, keepdim=True) / x.shape[-1]
            return centred * (var + eps) ** -0.5 * gamma + beta
        """)),
        ("einsum of the centred row with itself", fn(LAYER_NORM, """
            c = x - x.mean(-1, keepdim=True)
            var = torch.einsum('...i,...i->...', c, c).unsqueeze(-1) / x.shape[-1]
            return c / (var + eps).sqrt() * gamma + beta
        """)),
        ("vector_norm of the centred row", fn(LAYER_NORM, """
            c = x - x.mean(-1, keepdim=True)
            var = torch.linalg.vector_norm(c, dim=-1, keepdim=True) ** 2 / x.shape[-1]
            return c / torch.sqrt(var + eps) * gamma + beta
        """)),
        ("E[x^2] - E[x]^2 in float64, back to float32", fn(LAYER_NORM, """
            x64 = x.double()
            mean = x64.mean(-1, keepdim=True)
            var = (x64 ** 2).mean(-1, keepdim=True) - mean ** 2
            return ((x64 - mean) / torch.sqrt(var + eps)).to(x.dtype) * gamma + beta
        """)),
    ],
    "feed_forward": [
        ("F.linear with the transposed weights", fn(FFN, """
            return F.linear(F.relu(F.linear(x, W1.T, b1)), W2.T, b2)
        """)),
        ("einsum, clamp", fn(FFN, """
            h = (torch.einsum('...i,ij->...j', x, W1) + b1).clamp(min=0)
            return torch.einsum('...j,jk->...k', h, W2) + b2
        """)),
    ],
}

FRAGILE |= {
    "layer_norm": [
        ("E[x^2] - E[x]^2 (float32)", fn(LAYER_NORM, """
            mean = x.mean(dim=-1, keepdim=True)
            var = (x ** 2).mean(dim=-1, keepdim=True) - mean ** 2
            return (x - mean) / torch.sqrt(var + eps) * gamma + beta
        """)),
        ("torch.mean(x * x) - mean * mean", fn(LAYER_NORM, """
            mean = torch.mean(x, dim=-1, keepdim=True)
            var = torch.mean(x * x, dim=-1, keepdim=True) - mean * mean
            return gamma * (x - mean) / torch.sqrt(var + eps) + beta
        """)),
        ("sum of squares / d - (sum / d)^2", fn(LAYER_NORM, """
            d = x.shape[-1]
            s1 = x.sum(-1, keepdim=True)
            s2 = (x * x).sum(-1, keepdim=True)
            var = s2 / d - (s1 / d) ** 2
            return (x - s1 / d) / torch.sqrt(var + eps) * gamma + beta
        """)),
        ("E[x^2] - E[x]^2 clamped at 0", fn(LAYER_NORM, """
            mean = x.mean(-1, keepdim=True)
            var = (x.pow(2).mean(-1, keepdim=True) - mean.pow(2)).clamp(min=0.0)
            return (x - mean) * torch.rsqrt(var + eps) * gamma + beta
        """)),
        ("statistics in float16", fn(LAYER_NORM, """
            h = x.half()
            mean = h.mean(-1, keepdim=True)
            var = ((h - mean) ** 2).mean(-1, keepdim=True)
            return ((x - mean.float()) / torch.sqrt(var.float() + eps)) * gamma + beta
        """)),
    ],
}

# ---------------------------------------------------------------------------------------------
# 09_gradients_and_memory

SOFTMAX_BACKWARD = "def softmax_backward(weights, grad_weights, dim=-1):"
ATTENTION_BACKWARD = "def attention_backward(queries, keys, values, grad_context):"
ONLINE = "def online_attention(queries, keys, values, block_size):"
CACHED = "def cached_causal_attention(x, W_query, W_key, W_value):"

ONLINE_TEMPLATE = """
    scale = 1 / math.sqrt(keys.shape[-1])
    m = torch.full_like(queries[..., :1], {start})
    l = torch.zeros_like(queries[..., :1])
    acc = torch.zeros(*queries.shape[:-1], values.shape[-1], dtype=values.dtype)
    for s in range(0, keys.shape[-2], block_size):
        k = keys[..., s:s + block_size, :]
        v = values[..., s:s + block_size, :]
        scores = queries @ k.transpose(-2, -1) * scale
        new_m = torch.maximum(m, scores.amax(dim=-1, keepdim=True))
        alpha = torch.exp(m - new_m)
        p = torch.exp(scores - new_m)
        l = l * alpha + p.sum(dim=-1, keepdim=True)
        acc = acc * alpha + p @ v
        m = new_m
    return acc / l
"""

IDIOMS |= {
    "softmax_backward": [
        ("expanded: w*g - w*sum(w*g)", fn(SOFTMAX_BACKWARD, """
            return weights * grad_weights - weights * (weights * grad_weights).sum(dim, keepdim=True)
        """)),
        # (the Jacobian itself, diag(w) - w w^T batched, breaks the step's rule on work: it
        # holds a row for each entry)
        ("the Jacobian diag(w) - w w^T applied without building it, by einsum",
         fn(SOFTMAX_BACKWARD, """
            w = weights.movedim(dim, -1)
            g = grad_weights.movedim(dim, -1)
            dot = torch.einsum("...i,...i->...", w, g).unsqueeze(-1)
            return (w * g - w * dot).movedim(-1, dim)
        """)),
    ],
    "attention_backward": [
        ("inline softmax gradient, softmax written out", fn(ATTENTION_BACKWARD, """
            d_k = keys.shape[-1]
            s = queries @ keys.transpose(-2, -1) / math.sqrt(d_k)
            e = torch.exp(s - s.amax(-1, keepdim=True))
            w = e / e.sum(-1, keepdim=True)
            dv = w.transpose(-2, -1) @ grad_context
            dw = grad_context @ values.transpose(-2, -1)
            ds = w * (dw - (dw * w).sum(-1, keepdim=True)) / math.sqrt(d_k)
            return ds @ keys, ds.transpose(-2, -1) @ queries, dv
        """)),
        ("einsum, softmax_backward of the notebook", fn(ATTENTION_BACKWARD, """
            scale = keys.shape[-1] ** -0.5
            w = torch.softmax(torch.einsum('...qd,...kd->...qk', queries, keys) * scale, dim=-1)
            dv = torch.einsum('...qk,...qv->...kv', w, grad_context)
            dw = torch.einsum('...qv,...kv->...qk', grad_context, values)
            ds = softmax_backward(w, dw) * scale
            return (torch.einsum('...qk,...kd->...qd', ds, keys),
                    torch.einsum('...qk,...qd->...kd', ds, queries), dv)
        """)),
    ],
    "online_attention": [
        ("running max from -1e30", fn(ONLINE, ONLINE_TEMPLATE.format(start="-1e30"))),
        ("running max from the dtype's lowest number", fn(
            ONLINE, ONLINE_TEMPLATE.format(start="torch.finfo(queries.dtype).min"))),
        ("running log-sum-exp", fn(ONLINE, """
            scale = 1 / math.sqrt(keys.shape[-1])
            lse = torch.full_like(queries[..., :1], float('-inf'))
            out = torch.zeros(*queries.shape[:-1], values.shape[-1], dtype=values.dtype)
            for s in range(0, keys.shape[-2], block_size):
                scores = queries @ keys[..., s:s + block_size, :].transpose(-2, -1) * scale
                m = scores.amax(dim=-1, keepdim=True)
                block_lse = m + torch.log(torch.exp(scores - m).sum(dim=-1, keepdim=True))
                new_lse = torch.maximum(lse, block_lse) + torch.log1p(
                    torch.exp(-(lse - block_lse).abs()))
                out = out * torch.exp(lse - new_lse) + \\
                    torch.exp(scores - new_lse) @ values[..., s:s + block_size, :]
                lse = new_lse
            return out
        """)),
        ("context kept normalised at every block", fn(ONLINE, """
            scale = 1 / math.sqrt(keys.shape[-1])
            m = torch.full_like(queries[..., :1], float('-inf'))
            l = torch.zeros_like(queries[..., :1])
            out = torch.zeros(*queries.shape[:-1], values.shape[-1], dtype=values.dtype)
            for s in range(0, keys.shape[-2], block_size):
                scores = queries @ keys[..., s:s + block_size, :].transpose(-2, -1) * scale
                new_m = torch.maximum(m, scores.amax(dim=-1, keepdim=True))
                p = torch.exp(scores - new_m)
                new_l = l * torch.exp(m - new_m) + p.sum(dim=-1, keepdim=True)
                out = out * (l * torch.exp(m - new_m) / new_l) + \\
                    (p @ values[..., s:s + block_size, :]) / new_l
                m, l = new_m, new_l
            return out
        """)),
    ],
    "cached_causal_attention": [
        ("cache grown by torch.cat, softmax written out", fn(CACHED, """
            d_k = W_key.shape[-1]
            keys = values = None
            outputs = []
            for t in range(x.shape[-2]):
                token = x[..., t:t + 1, :]
                k, v = token @ W_key, token @ W_value
                keys = k if keys is None else torch.cat([keys, k], dim=-2)
                values = v if values is None else torch.cat([values, v], dim=-2)
                s = (token @ W_query) @ keys.transpose(-2, -1) / math.sqrt(d_k)
                e = torch.exp(s - s.amax(-1, keepdim=True))
                outputs.append((e / e.sum(-1, keepdim=True)) @ values)
            return torch.cat(outputs, dim=-2)
        """)),
        ("einsum over the cache", fn(CACHED, """
            d_k = W_key.shape[-1]
            K, V, Q = x @ W_key, x @ W_value, x @ W_query
            outputs = []
            for t in range(x.shape[-2]):
                s = torch.einsum('...d,...kd->...k', Q[..., t, :], K[..., :t + 1, :]) / math.sqrt(d_k)
                w = torch.softmax(s, dim=-1)
                outputs.append(torch.einsum('...k,...kv->...v', w, V[..., :t + 1, :]))
            return torch.stack(outputs, dim=-2)
        """)),
    ],
}

FRAGILE |= {
    "softmax_backward": [
        ("computed in float32, cast back to the input's dtype", fn(SOFTMAX_BACKWARD, """
            w, g = weights.float(), grad_weights.float()
            return (w * (g - (g * w).sum(dim, keepdim=True))).to(weights.dtype)
        """)),
    ],
    "attention_backward": [
        ("computed in float32, cast back to the input's dtype", fn(ATTENTION_BACKWARD, """
            q, k, v, g = (t.float() for t in (queries, keys, values, grad_context))
            scale = 1.0 / math.sqrt(k.shape[-1])
            w = torch.softmax(q @ k.transpose(-2, -1) * scale, dim=-1)
            dv = w.transpose(-2, -1) @ g
            dw = g @ v.transpose(-2, -1)
            ds = w * (dw - (dw * w).sum(-1, keepdim=True)) * scale
            return tuple(t.to(queries.dtype) for t in (ds @ k, ds.transpose(-2, -1) @ q, dv))
        """)),
        ("weights by exp(scores) / sum, no max", fn(ATTENTION_BACKWARD, """
            scale = 1.0 / math.sqrt(keys.shape[-1])
            e = torch.exp(queries @ keys.transpose(-2, -1) * scale)
            w = e / e.sum(-1, keepdim=True)
            dv = w.transpose(-2, -1) @ grad_context
            dw = grad_context @ values.transpose(-2, -1)
            ds = w * (dw - (dw * w).sum(-1, keepdim=True)) * scale
            return ds @ keys, ds.transpose(-2, -1) @ queries, dv
        """)),
    ],
    "online_attention": [
        ("running max starts at -1e4", fn(ONLINE, ONLINE_TEMPLATE.format(start="-1e4"))),
    ],
}


def derived(step, reference_source):
    """Idioms and fragile formulas written as the reference class with pieces replaced:
    {"idioms": [(label, code)], "fragile": [...]}, for MultiHeadAttention and TransformerBlock."""
    out = {"idioms": [], "fragile": []}

    def variant(*pairs):
        code = reference_source
        for old, new in pairs:
            if old not in code:
                raise ValueError(f"{step}: the reference no longer holds {old!r}")
            code = code.replace(old, new)
        return code

    if step == "MultiHeadAttention":
        out["idioms"] += [
            ("bool masks as -1e9 instead of -inf", variant(
                ('torch.zeros(mask.shape).masked_fill(mask, float("-inf"))',
                 "torch.zeros(mask.shape).masked_fill(mask, -1e9)"))),
            ("bool masks as finfo(float32).min", variant(
                ('torch.zeros(mask.shape).masked_fill(mask, float("-inf"))',
                 "torch.zeros(mask.shape).masked_fill(mask, torch.finfo(torch.float32).min)"))),
            ("softmax written out with the max", variant(
                ("weights = torch.softmax(scores, dim=-1)",
                 "e = torch.exp(scores - scores.amax(dim=-1, keepdim=True))\n"
                 "        weights = e / e.sum(dim=-1, keepdim=True)"))),
        ]
    if step == "TransformerBlock":
        out["idioms"] += [
            ("additive float mask of -inf", variant(
                ("allowed = None if attn_mask is None else ~attn_mask",
                 "allowed = None if attn_mask is None else torch.zeros(attn_mask.shape)"
                 ".masked_fill(attn_mask, float('-inf'))"))),
            ("additive float mask of -1e9", variant(
                ("allowed = None if attn_mask is None else ~attn_mask",
                 "allowed = None if attn_mask is None else torch.zeros(attn_mask.shape)"
                 ".masked_fill(attn_mask, -1e9)"))),
            ("q, k, v projected by three products", variant(
                ("q, k, v = (x @ self.W_qkv + self.b_qkv).chunk(3, dim=-1)",
                 "W_q, W_k, W_v = self.W_qkv.chunk(3, dim=-1)\n"
                 "        b_q, b_k, b_v = self.b_qkv.chunk(3)\n"
                 "        q, k, v = x @ W_q + b_q, x @ W_k + b_k, x @ W_v + b_v"))),
        ]
    return out


def reference_source(step):
    """The text a derived variant starts from: the reference class (and, for MHA, as_additive)."""
    source = inspect.getsource(step.reference)
    if step.name == "MultiHeadAttention":
        module = inspect.getmodule(step.reference)
        source += "\n\n" + inspect.getsource(module.as_additive)
    return source
