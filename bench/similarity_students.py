# ruff: noqa: E501 - the students' code keeps the long lines students write
"""Honest students for the similarity calibration (bench/similarity_calibration.py): for
each of the nine assignments, five correct solutions each,
written independently of solutions/ and of one another, in the styles different students write
(names, helpers or not, other torch calls, comments, order). Each is {grade id: the solution
cell as handed in}. `keep(stub, *bodies)` is a student who leaves the release's signature and
docstring and writes the body under them; the others rewrote the cell.

INLINED holds, for the student whose work the copier takes (bruno, who writes helpers), the
copy with every helper of his inlined by hand (a kind no mechanical rewrite gives)."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass


@dataclass(frozen=True)
class Methods:
    """An INLINED class cell made from bruno's: the methods of `code` (written as in the class
    body) in place of his of the same names, and his methods and functions `drop` gone."""

    code: str
    drop: tuple[str, ...]


STUB = "# YOUR CODE HERE\n{indent}raise NotImplementedError()"


def keep(stub, *bodies):
    """The release's stub with its NotImplementedError bodies replaced, in order."""
    out = stub
    for body in bodies:
        at = out.index("# YOUR CODE HERE")
        indent = out[out.rindex("\n", 0, at) + 1:at]
        end = out.index("raise NotImplementedError()", at) + len("raise NotImplementedError()")
        out = out[:at] + textwrap.indent(textwrap.dedent(body).strip("\n"), indent)[len(indent):] \
            + out[end:]
    return out


def students(stubs):
    """{assignment id: {student: {grade id: cell}}}; `stubs`: {grade id: release cell}."""
    s = stubs
    a01 = {
        "alice": {
            "project_qkv": keep(s["project_qkv"], """
                q = x @ W_query
                k = x @ W_key
                v = x @ W_value
                return q, k, v
            """),
            "attention_scores": keep(s["attention_scores"], """
                return queries @ keys.transpose(-1, -2)
            """),
            "stable_softmax": keep(s["stable_softmax"], """
                m = scores.max(dim=dim, keepdim=True).values
                m = torch.where(torch.isinf(m), torch.zeros_like(m), m)
                e = torch.exp(scores - m)
                return e / e.sum(dim=dim, keepdim=True)
            """),
            "weighted_values": keep(s["weighted_values"], """
                return weights.T.unsqueeze(2) * values.unsqueeze(1)
            """),
            "context_vectors": keep(s["context_vectors"], """
                return weights @ values
            """),
        },
        "bruno": {
            "project_qkv": '''def _project(x, W):
    return torch.matmul(x, W)


def project_qkv(x, W_query, W_key, W_value):
    # one projection per matrix
    return _project(x, W_query), _project(x, W_key), _project(x, W_value)
''',
            "attention_scores": '''def attention_scores(queries, keys):
    keys_t = torch.transpose(keys, -2, -1)
    return torch.matmul(queries, keys_t)
''',
            "stable_softmax": '''def _safe_max(t, dim):
    biggest = torch.amax(t, dim=dim, keepdim=True)
    return biggest.masked_fill(~torch.isfinite(biggest), 0.0)


def stable_softmax(scores, dim=-1):
    shifted = scores - _safe_max(scores, dim)
    ex = shifted.exp()
    total = ex.sum(dim=dim, keepdim=True)
    return ex / total
''',
            "weighted_values": '''def weighted_values(weights, values):
    n_keys = values.shape[0]
    # (n_keys, n_queries, 1) times (n_keys, 1, d_v)
    w = weights.permute(1, 0).reshape(n_keys, -1, 1)
    return w * values.reshape(n_keys, 1, -1)
''',
            "context_vectors": '''def context_vectors(weights, values):
    return torch.matmul(weights, values)
''',
        },
        "chen": {
            "project_qkv": keep(s["project_qkv"], """
                queries = torch.mm(x, W_query)
                keys = torch.mm(x, W_key)
                values = torch.mm(x, W_value)
                return queries, keys, values
            """),
            "attention_scores": keep(s["attention_scores"], """
                if queries.dim() == 1:
                    # a single query: one score per key
                    return keys @ queries
                return torch.einsum("...nd,...sd->...ns", queries, keys)
            """),
            "stable_softmax": keep(s["stable_softmax"], """
                big = torch.max(scores, dim, keepdim=True)[0]
                big[~torch.isfinite(big)] = 0
                num = torch.exp(scores - big)
                den = torch.sum(num, dim, keepdim=True)
                return num / den
            """),
            "weighted_values": keep(s["weighted_values"], """
                rows = []
                for j in range(values.shape[0]):
                    # value j scaled by each query's weight for key j
                    rows.append(weights[:, j].unsqueeze(1) * values[j])
                return torch.stack(rows)
            """),
            "context_vectors": keep(s["context_vectors"], """
                return torch.tensordot(weights, values, dims=1)
            """),
        },
        "dana": {
            "project_qkv": '''def project_qkv(x, W_query, W_key, W_value):
    return x @ W_query, x @ W_key, x @ W_value
''',
            "attention_scores": '''def attention_scores(queries, keys):
    return queries @ keys.mT  # mT: last two dims swapped
''',
            "stable_softmax": '''def stable_softmax(scores, dim=-1):
    shift = torch.nan_to_num(scores.amax(dim, keepdim=True))
    z = (scores - shift).exp()
    return z / z.sum(dim, keepdim=True)
''',
            "weighted_values": '''def weighted_values(weights, values):
    return torch.einsum("ij,jd->jid", weights, values)
''',
            "context_vectors": '''def context_vectors(weights, values):
    return torch.einsum("...k,kd->...d", weights, values)
''',
        },
        "emre": {
            "project_qkv": '''def project_qkv(x: torch.Tensor, W_query: torch.Tensor, W_key: torch.Tensor,
                W_value: torch.Tensor):
    values = x.matmul(W_value)
    keys = x.matmul(W_key)
    queries = x.matmul(W_query)
    return queries, keys, values
''',
            "attention_scores": '''def attention_scores(queries: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
    flipped = keys.swapaxes(-1, -2)
    scores = queries.matmul(flipped)
    return scores
''',
            "stable_softmax": '''def stable_softmax(scores: torch.Tensor, dim: int = -1) -> torch.Tensor:
    top, _ = scores.max(dim=dim, keepdim=True)
    top = top.masked_fill(top.isinf(), 0.0)
    weights = (scores - top).exp()
    weights = weights / weights.sum(dim=dim, keepdim=True)
    return weights
''',
            "weighted_values": '''def weighted_values(weights: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    per_query = weights.t()  # (n_keys, n_queries)
    return per_query[:, :, None] * values[:, None, :]
''',
            "context_vectors": '''def context_vectors(weights: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    return (weights[..., None] * values).sum(-2)
''',
        },
    }
    a03 = {
        "alice": {
            "project": keep(s["project"], "return x @ W"),
            "scaled_softmax": keep(s["scaled_softmax"], """
                scaled = scores / d_k ** 0.5
                return torch.softmax(scaled, dim=-1)
            """),
            "scaled_dot_product_attention": keep(s["scaled_dot_product_attention"], """
                d_k = queries.shape[-1]
                scores = queries @ keys.transpose(-2, -1)
                if mask is not None:
                    scores = scores.masked_fill(mask, float("-inf"))
                weights = scaled_softmax(scores, d_k)
                if mask is not None:
                    weights = weights.masked_fill(mask, 0.0)
                context = weights @ values
                return context, weights
            """),
        },
        "bruno": {
            "project": '''def project(x, W):
    return torch.matmul(x, W)
''',
            "scaled_softmax": '''def scaled_softmax(scores, d_k):
    return F.softmax(scores * (1.0 / math.sqrt(d_k)), dim=-1)
''',
            "scaled_dot_product_attention": '''def _raw_scores(q, k):
    return torch.matmul(q, k.transpose(-1, -2))


def _apply_mask(weights, mask):
    return weights if mask is None else weights.masked_fill(mask, 0.0)


def scaled_dot_product_attention(queries, keys, values, mask=None):
    scores = _raw_scores(queries, keys)
    if mask is not None:
        scores = scores.masked_fill(mask, -torch.inf)
    weights = _apply_mask(scaled_softmax(scores, keys.size(-1)), mask)
    return torch.matmul(weights, values), weights
''',
        },
        "chen": {
            "project": keep(s["project"], """
                out = torch.matmul(x, W)
                return out
            """),
            "scaled_softmax": keep(s["scaled_softmax"], """
                s = scores / torch.sqrt(torch.tensor(float(d_k)))
                s = s - s.max(dim=-1, keepdim=True).values
                e = torch.exp(s)
                return e / e.sum(dim=-1, keepdim=True)
            """),
            "scaled_dot_product_attention": keep(s["scaled_dot_product_attention"], """
                dk = keys.shape[-1]
                raw = torch.matmul(queries, keys.transpose(-2, -1))
                raw = raw / math.sqrt(dk)
                if mask is None:
                    w = torch.softmax(raw, dim=-1)
                else:
                    # hidden keys get -inf before the softmax and exactly 0 after it
                    raw = torch.where(mask, torch.full_like(raw, float("-inf")), raw)
                    w = torch.softmax(raw, dim=-1)
                    w = torch.where(mask, torch.zeros_like(w), w)
                return w @ values, w
            """),
        },
        "dana": {
            "project": '''def project(x, W):
    return torch.einsum("...i,io->...o", x, W)
''',
            "scaled_softmax": '''def scaled_softmax(scores, d_k):
    return (scores / math.sqrt(d_k)).softmax(dim=-1)
''',
            "scaled_dot_product_attention": '''def scaled_dot_product_attention(queries, keys, values, mask=None):
    logits = (queries @ keys.mT) / math.sqrt(keys.shape[-1])
    if mask is not None:
        logits = logits.masked_fill(mask, float("-inf"))
    w = torch.nan_to_num(logits.softmax(-1), nan=0.0)  # fully masked rows: nan -> 0
    return w @ values, w
''',
        },
        "emre": {
            "project": '''def project(x: torch.Tensor, W: torch.Tensor) -> torch.Tensor:
    return x.matmul(W)
''',
            "scaled_softmax": '''def scaled_softmax(scores: torch.Tensor, d_k: int) -> torch.Tensor:
    scale = 1 / math.sqrt(d_k)
    return torch.softmax(scale * scores, -1)
''',
            "scaled_dot_product_attention": '''def scaled_dot_product_attention(queries, keys, values, mask=None):
    scale = math.sqrt(keys.size(-1))
    if mask is None:
        bias = 0.0
    else:
        bias = torch.zeros(mask.shape, dtype=queries.dtype).masked_fill(mask, float("-inf"))
    scores = queries.matmul(keys.transpose(-1, -2)) / scale + bias
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = torch.where(mask, 0.0, weights)
    return weights.matmul(values), weights
''',
        },
    }
    a05 = {
        "alice": {
            "multihead_project": keep(s["multihead_project"], """
                return torch.bmm(x.expand(W.shape[0], -1, -1), W.transpose(1, 2))
            """),
            "multihead_attention": keep(s["multihead_attention"], """
                q = multihead_project(x, W_query)
                k = multihead_project(x, W_key)
                v = multihead_project(x, W_value)
                d_k = q.shape[-1]
                att = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_k), dim=-1)
                return att @ v
            """),
            "concat_heads": keep(s["concat_heads"], """
                return context.permute(1, 0, 2).reshape(context.shape[1], -1)
            """),
            "MultiHeadAttention": keep(s["MultiHeadAttention"], """
                super().__init__()
                assert embed_dim % num_heads == 0
                self.embed_dim = embed_dim
                self.num_heads = num_heads
                self.head_dim = embed_dim // num_heads
                self.in_proj_weight = nn.Parameter(torch.empty(3 * embed_dim, embed_dim))
                self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
                self.out_proj = nn.Linear(embed_dim, embed_dim)
                nn.init.xavier_uniform_(self.in_proj_weight)
            """, """
                m = cls(mha.embed_dim, mha.num_heads)
                m.load_state_dict(mha.state_dict())
                return m
            """, """
                T, N, E = x.shape
                x = x.reshape(T, N * self.num_heads, self.head_dim)
                return x.transpose(0, 1)
            """, """
                total = None
                if attn_mask is not None:
                    total = as_additive(attn_mask)
                    if total.dim() == 2:
                        total = total.unsqueeze(0)
                if key_padding_mask is not None:
                    pad = as_additive(key_padding_mask).view(N, 1, 1, S)
                    pad = pad.expand(N, self.num_heads, 1, S).reshape(N * self.num_heads, 1, S)
                    total = pad if total is None else total + pad
                return total
            """, """
                L, N, E = query.shape
                S = key.shape[0]
                w_q, w_k, w_v = self.in_proj_weight.split(E)
                b_q, b_k, b_v = self.in_proj_bias.split(E)
                q = self.split_heads(F.linear(query, w_q, b_q))
                k = self.split_heads(F.linear(key, w_k, b_k))
                v = self.split_heads(F.linear(value, w_v, b_v))
                scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
                bias = self.score_bias(key_padding_mask, attn_mask, N, L, S)
                if bias is not None:
                    scores = scores + bias
                attn = scores.softmax(dim=-1)
                out = (attn @ v).transpose(0, 1).reshape(L, N, E)
                out = self.out_proj(out)
                return out, attn.view(N, self.num_heads, L, S).mean(1)
            """, """
                if mask.dtype == torch.bool:
                    return torch.zeros_like(mask, dtype=torch.float).masked_fill(mask, -math.inf)
                return mask
            """),
        },
        "bruno": {
            "multihead_project": '''def multihead_project(x, W):
    heads = W.size(0)
    xs = x.unsqueeze(0).repeat(heads, 1, 1)  # (h, seq, d_in)
    Wt = W.permute(0, 2, 1)  # (h, d_in, d_out)
    return torch.bmm(xs, Wt)
''',
            "multihead_attention": '''def _attend(q, k, v):
    w = F.softmax(torch.bmm(q, k.permute(0, 2, 1)) / k.size(-1) ** 0.5, dim=2)
    return torch.bmm(w, v)


def multihead_attention(x, W_query, W_key, W_value):
    return _attend(*(multihead_project(x, W) for W in (W_query, W_key, W_value)))
''',
            "concat_heads": '''def concat_heads(context):
    return torch.cat(context.unbind(0), dim=1)
''',
            "MultiHeadAttention": '''class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.embed_dim = embed_dim
        w = torch.empty(3 * embed_dim, embed_dim)
        nn.init.xavier_uniform_(w)
        self.in_proj_weight = nn.Parameter(w)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=True)

    @classmethod
    def from_torch(cls, mha):
        new = cls(mha.embed_dim, mha.num_heads)
        theirs = dict(mha.named_parameters())
        with torch.no_grad():
            for name, p in new.named_parameters():
                p.copy_(theirs[name])
        return new

    def _in_proj(self, t, i):
        e = self.embed_dim
        return F.linear(t, self.in_proj_weight[i * e:(i + 1) * e],
                        self.in_proj_bias[i * e:(i + 1) * e])

    def split_heads(self, x):
        T, N, E = x.shape
        return x.view(T, N, self.num_heads, self.head_dim).permute(1, 2, 0, 3).reshape(
            N * self.num_heads, T, self.head_dim)

    def score_bias(self, key_padding_mask, attn_mask, N, L, S):
        h = self.num_heads
        bias = torch.zeros(N * h, L, S)
        if attn_mask is not None:
            bias = bias + as_additive(attn_mask)
        if key_padding_mask is not None:
            bias = bias + as_additive(key_padding_mask).repeat_interleave(h, dim=0)[:, None, :]
        return bias

    def forward(self, query, key, value, key_padding_mask=None, attn_mask=None):
        tgt_len, bsz, embed = query.shape
        src_len = key.shape[0]
        q, k, v = (self.split_heads(self._in_proj(t, i)) for i, t in enumerate((query, key, value)))
        logits = torch.einsum("bld,bsd->bls", q, k) / self.head_dim ** 0.5
        logits = logits + self.score_bias(key_padding_mask, attn_mask, bsz, tgt_len, src_len)
        probs = F.softmax(logits, dim=-1)
        ctx = torch.einsum("bls,bsd->bld", probs, v)
        ctx = ctx.view(bsz, self.num_heads, tgt_len, self.head_dim).permute(2, 0, 1, 3)
        ctx = ctx.reshape(tgt_len, bsz, embed)
        return self.out_proj(ctx), probs.view(bsz, self.num_heads, tgt_len, src_len).mean(dim=1)


def as_additive(mask):
    if mask.dtype is torch.bool:
        return torch.where(mask, float("-inf"), 0.0)
    return mask
''',
        },
        "chen": {
            "multihead_project": keep(s["multihead_project"], """
                stacked = x.t().unsqueeze(0).expand(len(W), -1, -1)  # (h, d_in, seq)
                return torch.bmm(W, stacked).transpose(-1, -2)
            """),
            "multihead_attention": keep(s["multihead_attention"], """
                Q = multihead_project(x, W_query)
                K = multihead_project(x, W_key)
                V = multihead_project(x, W_value)
                # PyTorch's own kernel does the scaling and the softmax
                return F.scaled_dot_product_attention(Q, K, V)
            """),
            "concat_heads": keep(s["concat_heads"], """
                h, seq, d = context.shape
                return context.transpose(0, 1).contiguous().view(seq, h * d)
            """),
            "MultiHeadAttention": keep(s["MultiHeadAttention"], """
                nn.Module.__init__(self)
                self.embed_dim = embed_dim
                self.num_heads = num_heads
                self.head_dim = embed_dim // num_heads
                self.in_proj_weight = nn.Parameter(torch.randn(3 * embed_dim, embed_dim)
                                                   / math.sqrt(embed_dim))
                self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
                self.out_proj = nn.Linear(embed_dim, embed_dim)
            """, """
                result = cls(mha.embed_dim, mha.num_heads)
                result.in_proj_weight.data = mha.in_proj_weight.detach().clone()
                result.in_proj_bias.data = mha.in_proj_bias.detach().clone()
                result.out_proj.weight.data = mha.out_proj.weight.detach().clone()
                result.out_proj.bias.data = mha.out_proj.bias.detach().clone()
                return result
            """, """
                seq_len, batch = x.shape[0], x.shape[1]
                out = x.contiguous().view(seq_len, batch * self.num_heads, self.head_dim)
                out = out.permute(1, 0, 2)
                return out
            """, """
                if attn_mask is None and key_padding_mask is None:
                    return None
                result = torch.zeros(1, L, S)
                if attn_mask is not None:
                    m = as_additive(attn_mask)
                    if m.dim() == 2:
                        m = m.unsqueeze(0)
                    result = result + m
                if key_padding_mask is not None:
                    p = as_additive(key_padding_mask)  # (N, S)
                    p = p.unsqueeze(1).repeat(1, self.num_heads, 1)  # (N, h, S)
                    p = p.view(N * self.num_heads, 1, S)
                    result = result + p
                return result
            """, """
                L = query.shape[0]
                N = query.shape[1]
                E = query.shape[2]
                S = key.shape[0]
                Wq = self.in_proj_weight[:E]
                Wk = self.in_proj_weight[E:2 * E]
                Wv = self.in_proj_weight[2 * E:]
                bq = self.in_proj_bias[:E]
                bk = self.in_proj_bias[E:2 * E]
                bv = self.in_proj_bias[2 * E:]
                Q = torch.matmul(query, Wq.t()) + bq
                K = torch.matmul(key, Wk.t()) + bk
                V = torch.matmul(value, Wv.t()) + bv
                Q = self.split_heads(Q)
                K = self.split_heads(K)
                V = self.split_heads(V)
                att = torch.matmul(Q, K.transpose(1, 2))
                att = att / math.sqrt(self.head_dim)
                bias = self.score_bias(key_padding_mask, attn_mask, N, L, S)
                if bias is not None:
                    att = att + bias
                att = torch.softmax(att, dim=2)
                out = torch.matmul(att, V)  # (N * h, L, head_dim)
                out = out.permute(1, 0, 2).contiguous().view(L, N, E)
                out = torch.matmul(out, self.out_proj.weight.t()) + self.out_proj.bias
                avg = att.view(N, self.num_heads, L, S).sum(dim=1) / self.num_heads
                return out, avg
            """, """
                if mask.dtype != torch.bool:
                    return mask
                out = torch.zeros(mask.shape)
                out[mask] = float("-inf")
                return out
            """),
        },
        "dana": {
            "multihead_project": '''def multihead_project(x, W):
    xb = torch.stack([x] * W.shape[0])  # the sequence once per head
    return xb.bmm(W.mT)
''',
            "multihead_attention": '''def multihead_attention(x, W_query, W_key, W_value):
    Q, K, V = (multihead_project(x, M) for M in [W_query, W_key, W_value])
    logits = torch.einsum("hqd,hkd->hqk", Q, K) * K.shape[-1] ** -0.5
    return torch.einsum("hqk,hkd->hqd", logits.softmax(-1), V)
''',
            "concat_heads": '''def concat_heads(context):
    return torch.einsum("hsd->shd", context).flatten(1)
''',
            "MultiHeadAttention": '''class MultiHeadAttention(nn.Module):
    """Sequence-first multi-head attention, parameters laid out as torch's."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if embed_dim % num_heads != 0:
            raise ValueError("embed_dim must be divisible by num_heads")
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.head_dim = embed_dim // num_heads
        self.in_proj_weight = nn.Parameter(
            nn.init.xavier_uniform_(torch.empty(3 * embed_dim, embed_dim)))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    @classmethod
    def from_torch(cls, mha):
        copy = cls(mha.embed_dim, mha.num_heads)
        copy.load_state_dict({k: v.clone() for k, v in mha.state_dict().items()})
        return copy

    def split_heads(self, x):
        # (T, N, E) -> (T, N, h, hd) -> (T, N * h, hd) -> (N * h, T, hd)
        return x.unflatten(-1, (self.num_heads, self.head_dim)).flatten(1, 2).transpose(0, 1)

    def score_bias(self, key_padding_mask, attn_mask, N, L, S):
        terms = []
        if attn_mask is not None:
            terms.append(as_additive(attn_mask).view(-1, L, S))
        if key_padding_mask is not None:
            terms.append(as_additive(key_padding_mask).repeat_interleave(self.num_heads, 0)
                         .unsqueeze(1))
        return sum(terms) if terms else None

    def forward(self, query, key, value, key_padding_mask=None, attn_mask=None):
        L, N, E = query.shape
        S = len(key)
        weights_q, weights_k, weights_v = self.in_proj_weight.chunk(3, dim=0)
        bias_q, bias_k, bias_v = self.in_proj_bias.chunk(3)
        q = self.split_heads(F.linear(query, weights_q, bias_q)) * self.head_dim ** -0.5
        k = self.split_heads(F.linear(key, weights_k, bias_k))
        v = self.split_heads(F.linear(value, weights_v, bias_v))
        extra = self.score_bias(key_padding_mask, attn_mask, N, L, S)
        if extra is None:
            logits = torch.bmm(q, k.mT)
        else:
            logits = torch.baddbmm(extra.expand(N * self.num_heads, L, S), q, k.mT)
        attn = logits.softmax(-1)
        heads = torch.bmm(attn, v).transpose(0, 1).reshape(L, N, E)
        return self.out_proj(heads), attn.unflatten(0, (N, self.num_heads)).mean(1)


def as_additive(mask):
    return mask.float().masked_fill(mask, float("-inf")) if mask.dtype == torch.bool else mask
''',
        },
        "emre": {
            "multihead_project": '''def multihead_project(x: torch.Tensor, W: torch.Tensor) -> torch.Tensor:
    h, d_out, d_in = W.shape
    batch = x[None].expand(h, x.shape[0], d_in)
    out = torch.bmm(batch, W.transpose(-1, -2))
    return out
''',
            "multihead_attention": '''def multihead_attention(x, W_query, W_key, W_value):
    values = multihead_project(x, W_value)
    keys = multihead_project(x, W_key)
    queries = multihead_project(x, W_query)
    scores = queries.bmm(keys.transpose(1, 2)).div(math.sqrt(keys.shape[2]))
    return scores.softmax(dim=-1).bmm(values)
''',
            "concat_heads": '''def concat_heads(context: torch.Tensor) -> torch.Tensor:
    return torch.hstack(tuple(context))
''',
            "MultiHeadAttention": '''class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        self.num_heads = num_heads
        self.embed_dim = embed_dim
        self.head_dim, rest = divmod(embed_dim, num_heads)
        if rest:
            raise ValueError(f"{embed_dim} heads do not divide {num_heads}")
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        self.in_proj_weight = nn.Parameter(torch.empty(3 * embed_dim, embed_dim))
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.xavier_uniform_(self.in_proj_weight)
        nn.init.constant_(self.in_proj_bias, 0.0)
        nn.init.constant_(self.out_proj.bias, 0.0)

    @classmethod
    def from_torch(cls, mha):
        target = cls(mha.embed_dim, mha.num_heads)
        source = dict(mha.named_parameters())
        with torch.no_grad():
            for name in ("in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"):
                target.get_parameter(name).copy_(source[name])
        return target

    def split_heads(self, x):
        length, batch, _ = x.shape
        heads = x.reshape(length, batch, self.num_heads, self.head_dim)
        heads = heads.permute(1, 2, 0, 3)  # (N, h, T, hd)
        return heads.reshape(batch * self.num_heads, length, self.head_dim)

    def score_bias(self, key_padding_mask, attn_mask, N, L, S):
        out = None
        if key_padding_mask is not None:
            out = as_additive(key_padding_mask)[:, None, :].repeat_interleave(self.num_heads,
                                                                              dim=0)
        if attn_mask is not None:
            extra = as_additive(attn_mask)
            extra = extra.unsqueeze(0) if extra.ndim == 2 else extra
            out = extra if out is None else out + extra
        return out

    def forward(self, query, key, value, key_padding_mask=None, attn_mask=None):
        S = key.size(0)
        L, N, E = query.size()
        q_w, k_w, v_w = torch.split(self.in_proj_weight, E, dim=0)
        q_b, k_b, v_b = torch.split(self.in_proj_bias, E)
        v = self.split_heads(torch.addmm(v_b, value.reshape(-1, E), v_w.T).view(S, N, E))
        k = self.split_heads(torch.addmm(k_b, key.reshape(-1, E), k_w.T).view(S, N, E))
        q = self.split_heads(torch.addmm(q_b, query.reshape(-1, E), q_w.T).view(L, N, E))
        scores = q.bmm(k.transpose(-2, -1)).div(math.sqrt(self.head_dim))
        mask_bias = self.score_bias(key_padding_mask, attn_mask, N, L, S)
        scores = scores if mask_bias is None else scores + mask_bias
        probs = torch.softmax(scores, dim=-1)
        merged = probs.bmm(v).view(N, self.num_heads, L, self.head_dim)
        merged = merged.permute(2, 0, 1, 3).reshape(L, N, E)
        avg_probs = probs.view(N, self.num_heads, L, S).mean(dim=1)
        return self.out_proj(merged), avg_probs


def as_additive(mask):
    if mask.dtype == torch.bool:
        return torch.full(mask.shape, float("-inf")).where(mask, torch.tensor(0.0))
    return mask
''',
        },
    }
    return {"01_attention_by_hand": a01, "03_scaled_dot_product": a03, "05_multi_head": a05,
            **later_students(s)}


def later_students(s):
    """The students of 02, 04, 06, 07, 08 and 09 (as students() gives them)."""
    a02 = {
        "alice": {
            "build_vocab": keep(s["build_vocab"], """
                words = split_words(sentence)
                vocab = {}
                for i, w in enumerate(sorted(set(words))):
                    vocab[w] = i
                return vocab
            """),
            "encode": keep(s["encode"], """
                ids = [vocab[w] for w in split_words(sentence)]  # KeyError names the word
                return torch.tensor(ids, dtype=torch.long)
            """),
            "embed": keep(s["embed"], """
                torch.manual_seed(seed)
                emb = nn.Embedding(vocab_size, dim)
                with torch.no_grad():
                    out = emb(token_ids)
                return out
            """),
        },
        "bruno": {
            "build_vocab": '''def _distinct_sorted(words):
    return sorted(set(words))


def build_vocab(sentence):
    return {w: n for n, w in enumerate(_distinct_sorted(split_words(sentence)))}
''',
            "encode": '''def _lookup(vocab, word):
    if word in vocab:
        return vocab[word]
    raise KeyError(f"unknown word: {word}")


def encode(sentence, vocab):
    return torch.LongTensor([_lookup(vocab, w) for w in split_words(sentence)])
''',
            "embed": '''def _seeded_table(n, d, seed):
    torch.manual_seed(seed)  # before the table is drawn
    return nn.Embedding(n, d)


def embed(token_ids, vocab_size, dim, seed=123):
    return _seeded_table(vocab_size, dim, seed)(token_ids).detach()
''',
        },
        "chen": {
            "build_vocab": keep(s["build_vocab"], """
                unique = []
                for word in split_words(sentence):
                    if word not in unique:
                        unique.append(word)
                unique.sort()
                result = {}
                idx = 0
                for word in unique:
                    result[word] = idx
                    idx += 1
                return result
            """),
            "encode": keep(s["encode"], """
                tokens = split_words(sentence)
                ids = torch.zeros(len(tokens), dtype=torch.long)
                for pos, tok in enumerate(tokens):
                    try:
                        ids[pos] = vocab[tok]
                    except KeyError:
                        raise KeyError(tok) from None
                return ids
            """),
            "embed": keep(s["embed"], """
                torch.manual_seed(seed)
                layer = nn.Embedding(num_embeddings=vocab_size, embedding_dim=dim)
                vectors = layer.weight.detach()[token_ids]
                return vectors
            """),
        },
        "dana": {
            "build_vocab": '''def build_vocab(sentence):
    words = sorted(set(split_words(sentence)))
    return dict(zip(words, range(len(words))))
''',
            "encode": '''def encode(sentence, vocab):
    words = split_words(sentence)
    missing = [w for w in words if w not in vocab]
    if missing:
        raise KeyError(missing[0])
    return torch.tensor([vocab[w] for w in words], dtype=torch.int64)
''',
            "embed": '''def embed(token_ids, vocab_size, dim, seed=123):
    torch.manual_seed(seed)
    table = nn.Embedding(vocab_size, dim).weight.detach()
    return table.index_select(0, token_ids)
''',
        },
        "emre": {
            "build_vocab": '''def build_vocab(sentence: str) -> dict:
    distinct = set()
    for w in split_words(sentence):
        distinct.add(w)
    return {word: index for index, word in enumerate(sorted(distinct))}
''',
            "encode": '''def encode(sentence: str, vocab: dict) -> torch.Tensor:
    words = split_words(sentence)
    unknown = set(words) - vocab.keys()
    if unknown:
        raise KeyError(f"not in the vocabulary: {sorted(unknown)}")
    return torch.tensor(list(map(vocab.get, words)), dtype=torch.long).reshape(len(words))
''',
            "embed": '''def embed(token_ids: torch.Tensor, vocab_size: int, dim: int, seed: int = 123) -> torch.Tensor:
    torch.random.manual_seed(seed)
    embedding = nn.Embedding(vocab_size, dim)
    embedding.requires_grad_(False)
    return embedding(token_ids)
''',
        },
    }
    a04 = {
        "alice": {
            "self_attention": keep(s["self_attention"], """
                q = x @ W_query
                k = x @ W_key
                v = x @ W_value
                d_k = k.shape[-1]
                att = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_k), dim=-1)
                return att @ v
            """),
            "SelfAttention": keep(s["SelfAttention"], """
                super().__init__()
                self.W_query = nn.Parameter(torch.rand(d_in, d_out_kq))
                self.W_key = nn.Parameter(torch.rand(d_in, d_out_kq))
                self.W_value = nn.Parameter(torch.rand(d_in, d_out_v))
            """, """
                return self_attention(x, self.W_query, self.W_key, self.W_value)
            """),
        },
        "bruno": {
            "self_attention": '''def _scores(q, k):
    return torch.matmul(q, k.transpose(-1, -2)) / k.size(-1) ** 0.5


def self_attention(x, W_query, W_key, W_value):
    q, k, v = torch.matmul(x, W_query), torch.matmul(x, W_key), torch.matmul(x, W_value)
    weights = _scores(q, k).softmax(dim=-1)
    return torch.matmul(weights, v)
''',
            "SelfAttention": '''def _weight(rows, cols):
    return nn.Parameter(torch.rand(rows, cols))


class SelfAttention(nn.Module):
    def __init__(self, d_in, d_out_kq, d_out_v):
        super().__init__()
        self.W_query = _weight(d_in, d_out_kq)
        self.W_key = _weight(d_in, d_out_kq)
        self.W_value = _weight(d_in, d_out_v)

    def forward(self, x):
        return self_attention(x, self.W_query, self.W_key, self.W_value)
''',
        },
        "chen": {
            "self_attention": keep(s["self_attention"], """
                Q = torch.einsum("...si,ik->...sk", x, W_query)
                K = torch.einsum("...si,ik->...sk", x, W_key)
                V = torch.einsum("...si,iv->...sv", x, W_value)
                S = torch.einsum("...qk,...tk->...qt", Q, K) / math.sqrt(W_key.shape[1])
                A = S.softmax(dim=-1)  # each query's weights over the positions
                return torch.einsum("...qt,...tv->...qv", A, V)
            """),
            "SelfAttention": keep(s["SelfAttention"], """
                nn.Module.__init__(self)
                self.d_in, self.d_out_kq, self.d_out_v = d_in, d_out_kq, d_out_v
                self.W_query = nn.Parameter(torch.rand(d_in, d_out_kq))
                self.W_key = nn.Parameter(torch.rand(d_in, d_out_kq))
                self.W_value = nn.Parameter(torch.rand(d_in, d_out_v))
            """, """
                out = self_attention(x, W_query=self.W_query, W_key=self.W_key,
                                     W_value=self.W_value)
                return out
            """),
        },
        "dana": {
            "self_attention": '''def self_attention(x, W_query, W_key, W_value):
    q, k, v = x @ W_query, x @ W_key, x @ W_value
    return torch.softmax(q @ k.mT * k.shape[-1] ** -0.5, -1) @ v
''',
            "SelfAttention": '''class SelfAttention(nn.Module):
    def __init__(self, d_in, d_out_kq, d_out_v):
        super().__init__()
        for name, width in (("W_query", d_out_kq), ("W_key", d_out_kq), ("W_value", d_out_v)):
            self.register_parameter(name, nn.Parameter(torch.rand(d_in, width)))

    def forward(self, x):
        return self_attention(x, self.W_query, self.W_key, self.W_value)
''',
        },
        "emre": {
            "self_attention": '''def self_attention(x: torch.Tensor, W_query: torch.Tensor, W_key: torch.Tensor,
                   W_value: torch.Tensor) -> torch.Tensor:
    d_k = W_query.shape[-1]
    queries = x.matmul(W_query) / math.sqrt(d_k)  # scaled before the product
    keys = x.matmul(W_key)
    values = x.matmul(W_value)
    logits = queries.matmul(keys.transpose(-1, -2))
    weights = logits.softmax(dim=-1)
    return weights.matmul(values)
''',
            "SelfAttention": '''class SelfAttention(nn.Module):
    """Learnable W_query, W_key, W_value, uniform in [0, 1)."""

    def __init__(self, d_in: int, d_out_kq: int, d_out_v: int):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand((d_in, d_out_kq)))
        self.W_key = nn.Parameter(torch.rand((d_in, d_out_kq)))
        self.W_value = nn.Parameter(torch.rand((d_in, d_out_v)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        context = self_attention(x, self.W_query, self.W_key, self.W_value)
        return context
''',
        },
    }
    a06 = {
        "alice": {
            "dot_score": keep(s["dot_score"], "return (k * q).sum()"),
            "scaled_dot_score": keep(s["scaled_dot_score"], "return (k * q).sum() / math.sqrt(len(k))"),
            "additive_score": keep(s["additive_score"], "return v @ torch.tanh(W @ k + U @ q)"),
            "bilinear_score": keep(s["bilinear_score"], "return k @ W @ q"),
            "loop_attention": keep(s["loop_attention"], """
                Q = W_Q @ X
                K = W_K @ X
                V = W_V @ X
                N = X.shape[1]
                H = torch.zeros(V.shape[0], N, dtype=V.dtype)
                for i in range(N):
                    s = torch.zeros(N, dtype=Q.dtype)
                    for j in range(N):
                        s[j] = scaled_dot_score(K[:, j], Q[:, i])
                    a = torch.softmax(s, dim=0)
                    H[:, i] = V @ a
                return H
            """),
            "vectorized_attention": keep(s["vectorized_attention"], """
                Q = W_Q @ X
                K = W_K @ X
                V = W_V @ X
                A = torch.softmax(K.T @ Q / math.sqrt(Q.shape[0]), dim=0)
                return V @ A
            """),
        },
        "bruno": {
            "dot_score": '''def dot_score(k, q):
    return torch.sum(torch.mul(k, q))
''',
            "scaled_dot_score": '''def _inv_sqrt(n):
    return 1.0 / math.sqrt(n)


def scaled_dot_score(k, q):
    return torch.sum(torch.mul(k, q)) * _inv_sqrt(k.numel())
''',
            "additive_score": '''def _hidden(k, q, W, U):
    return torch.tanh(torch.mv(W, k) + torch.mv(U, q))


def additive_score(k, q, W, U, v):
    return torch.dot(v, _hidden(k, q, W, U))
''',
            "bilinear_score": '''def bilinear_score(k, q, W):
    return torch.dot(k, torch.mv(W, q))
''',
            "loop_attention": '''def _project_all(X, W_Q, W_K, W_V):
    return torch.mm(W_Q, X), torch.mm(W_K, X), torch.mm(W_V, X)


def _attend_one(i, Q, K, V):
    n = K.size(1)
    scores = torch.stack([scaled_dot_score(K[:, j], Q[:, i]) for j in range(n)])
    return torch.mv(V, torch.softmax(scores, dim=0))


def loop_attention(X, W_Q, W_K, W_V):
    Q, K, V = _project_all(X, W_Q, W_K, W_V)
    return torch.stack([_attend_one(i, Q, K, V) for i in range(X.size(1))], dim=1)
''',
            "vectorized_attention": '''def vectorized_attention(X, W_Q, W_K, W_V):
    Q, K, V = _project_all(X, W_Q, W_K, W_V)
    weights = torch.softmax(torch.mm(K.t(), Q) * _inv_sqrt(K.size(0)), dim=0)
    return torch.mm(V, weights)
''',
        },
        "chen": {
            "dot_score": keep(s["dot_score"], """
                total = 0.0
                for a, b in zip(k, q):
                    total = total + a * b
                return total
            """),
            "scaled_dot_score": keep(s["scaled_dot_score"], """
                d = k.shape[0]
                total = 0.0
                for a, b in zip(k, q):
                    total = total + a * b
                return total / d ** 0.5
            """),
            "additive_score": keep(s["additive_score"], """
                wk = W @ k
                uq = U @ q
                h = torch.tanh(wk + uq)
                return torch.sum(v * h)
            """),
            "bilinear_score": keep(s["bilinear_score"], """
                Wq = torch.matmul(W, q)
                return torch.sum(k * Wq)
            """),
            "loop_attention": keep(s["loop_attention"], """
                Q = torch.matmul(W_Q, X)
                K = torch.matmul(W_K, X)
                V = torch.matmul(W_V, X)
                n = X.shape[1]
                columns = []
                for i in range(n):
                    q_i = Q[:, i]
                    scores = []
                    for j in range(n):
                        scores.append(scaled_dot_score(K[:, j], q_i))
                    scores = torch.stack(scores)
                    e = torch.exp(scores - scores.max())
                    w = e / e.sum()
                    h = torch.zeros_like(V[:, 0])
                    for j in range(n):
                        h = h + w[j] * V[:, j]
                    columns.append(h)
                return torch.stack(columns, dim=1)
            """),
            "vectorized_attention": keep(s["vectorized_attention"], """
                Q = torch.matmul(W_Q, X)
                K = torch.matmul(W_K, X)
                V = torch.matmul(W_V, X)
                d3 = Q.shape[0]
                scores = torch.matmul(K.transpose(0, 1), Q) / math.sqrt(d3)
                e = torch.exp(scores - scores.max(dim=0, keepdim=True).values)
                weights = e / e.sum(dim=0, keepdim=True)
                return torch.matmul(V, weights)
            """),
        },
        "dana": {
            "dot_score": '''def dot_score(k, q):
    return torch.einsum("i,i->", k, q)
''',
            "scaled_dot_score": '''def scaled_dot_score(k, q):
    return torch.inner(k, q) / math.sqrt(k.numel())
''',
            "additive_score": '''def additive_score(k, q, W, U, v):
    return torch.tanh(W @ k + U @ q) @ v
''',
            "bilinear_score": '''def bilinear_score(k, q, W):
    return torch.einsum("i,ij,j->", k, W, q)
''',
            "loop_attention": '''def loop_attention(X, W_Q, W_K, W_V):
    Q, K, V = W_Q @ X, W_K @ X, W_V @ X
    N = X.shape[-1]
    H = []
    for i in range(N):
        s = torch.stack([scaled_dot_score(K[:, j], Q[:, i]) for j in range(N)])
        H.append(V @ s.softmax(0))
    return torch.stack(H, 1)
''',
            "vectorized_attention": '''def vectorized_attention(X, W_Q, W_K, W_V):
    Q, K, V = W_Q @ X, W_K @ X, W_V @ X
    return V @ torch.softmax(torch.einsum("dj,di->ji", K, Q) / math.sqrt(len(Q)), 0)
''',
        },
        "emre": {
            "dot_score": '''def dot_score(k: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    return k.dot(q)
''',
            "scaled_dot_score": '''def scaled_dot_score(k: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    d = q.size(0)
    score = k.dot(q)
    return score / math.sqrt(d)
''',
            "additive_score": '''def additive_score(k, q, W, U, v):
    projected = torch.addmv(U @ q, W, k)  # U q + W k
    return v.dot(projected.tanh())
''',
            "bilinear_score": '''def bilinear_score(k, q, W):
    return (W * torch.outer(k, q)).sum()
''',
            "loop_attention": '''def loop_attention(X: torch.Tensor, W_Q: torch.Tensor, W_K: torch.Tensor,
                   W_V: torch.Tensor) -> torch.Tensor:
    # rows are easier to iterate over: one query, key, value per row
    queries = (W_Q @ X).T
    keys = (W_K @ X).T
    values = (W_V @ X).T
    outputs = []
    for query in queries:
        scores = torch.stack([scaled_dot_score(key, query) for key in keys])
        weights = torch.softmax(scores, dim=-1)
        outputs.append(weights @ values)
    return torch.stack(outputs).T
''',
            "vectorized_attention": '''def vectorized_attention(X: torch.Tensor, W_Q: torch.Tensor, W_K: torch.Tensor,
                         W_V: torch.Tensor) -> torch.Tensor:
    queries = (W_Q @ X).T
    keys = (W_K @ X).T
    values = (W_V @ X).T
    d3 = queries.shape[-1]
    weights = torch.softmax(queries @ keys.T / math.sqrt(d3), dim=-1)  # (N queries, N keys)
    return (weights @ values).T
''',
        },
    }
    a07 = {
        "alice": {
            "cross_attention": keep(s["cross_attention"], """
                q = x_query @ W_query
                k = x_context @ W_key
                v = x_context @ W_value
                att = torch.softmax(q @ k.T / math.sqrt(k.shape[1]), dim=1)
                return att @ v
            """),
            "causal_mask": keep(s["causal_mask"], """
                return torch.triu(torch.ones(n, n), diagonal=1).bool()
            """),
            "masked_scaled_softmax": keep(s["masked_scaled_softmax"], """
                s = scores / math.sqrt(d_k)
                s = s.masked_fill(mask, float("-inf"))
                w = torch.softmax(s, dim=-1)
                w = torch.nan_to_num(w, nan=0.0)  # rows with every key masked
                return w
            """),
        },
        "bruno": {
            "cross_attention": '''def _project(x, W):
    return torch.matmul(x, W)


def cross_attention(x_query, x_context, W_query, W_key, W_value):
    q = _project(x_query, W_query)
    k, v = _project(x_context, W_key), _project(x_context, W_value)
    scores = torch.matmul(q, k.transpose(0, 1)) / math.sqrt(k.size(-1))
    return torch.matmul(F.softmax(scores, dim=-1), v)
''',
            "causal_mask": '''def causal_mask(n):
    idx = torch.arange(n)
    return idx.unsqueeze(0) > idx.unsqueeze(1)  # key index j > query index i
''',
            "masked_scaled_softmax": '''def _neg_inf_where(t, mask):
    return t.masked_fill(mask, -math.inf)


def masked_scaled_softmax(scores, mask, d_k):
    w = F.softmax(_neg_inf_where(scores / math.sqrt(d_k), mask), dim=-1)
    return w.masked_fill(mask, 0.0)
''',
        },
        "chen": {
            "cross_attention": keep(s["cross_attention"], """
                Q = torch.matmul(x_query, W_query)
                K = torch.matmul(x_context, W_key)
                V = torch.matmul(x_context, W_value)
                d_k = Q.shape[-1]
                scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)
                weights = F.softmax(scores, dim=-1)
                output = torch.matmul(weights, V)
                return output
            """),
            "causal_mask": keep(s["causal_mask"], """
                mask = torch.zeros(n, n, dtype=torch.bool)
                for i in range(n):
                    for j in range(i + 1, n):
                        mask[i, j] = True
                return mask
            """),
            "masked_scaled_softmax": keep(s["masked_scaled_softmax"], """
                scaled = scores / math.sqrt(d_k)
                scaled = torch.where(mask, torch.tensor(float("-inf")), scaled)
                row_max = scaled.max(dim=-1, keepdim=True).values
                row_max = torch.where(torch.isinf(row_max), torch.zeros_like(row_max), row_max)
                e = torch.exp(scaled - row_max)
                total = e.sum(dim=-1, keepdim=True)
                total = torch.where(total == 0, torch.ones_like(total), total)
                return e / total
            """),
        },
        "dana": {
            "cross_attention": '''def cross_attention(x_query, x_context, W_query, W_key, W_value):
    k, v = x_context @ W_key, x_context @ W_value
    w = ((x_query @ W_query) @ k.mT / k.shape[-1] ** 0.5).softmax(-1)
    return w @ v
''',
            "causal_mask": '''def causal_mask(n):
    return torch.ones(n, n).tril().logical_not()
''',
            "masked_scaled_softmax": '''def masked_scaled_softmax(scores, mask, d_k):
    w = (scores / math.sqrt(d_k)).masked_fill(mask, -torch.inf).softmax(-1)
    return w.nan_to_num(0.0)
''',
        },
        "emre": {
            "cross_attention": '''def cross_attention(x_query: torch.Tensor, x_context: torch.Tensor, W_query: torch.Tensor,
                    W_key: torch.Tensor, W_value: torch.Tensor) -> torch.Tensor:
    d_k = W_key.shape[1]
    queries = x_query.matmul(W_query) / math.sqrt(d_k)
    keys = x_context.matmul(W_key)
    values = x_context.matmul(W_value)
    return torch.softmax(queries.matmul(keys.t()), dim=-1).matmul(values)
''',
            "causal_mask": '''def causal_mask(n: int) -> torch.Tensor:
    return torch.full((n, n), True).triu(diagonal=1)
''',
            "masked_scaled_softmax": '''def masked_scaled_softmax(scores: torch.Tensor, mask: torch.Tensor, d_k: int) -> torch.Tensor:
    keep = ~mask
    logits = scores / math.sqrt(d_k)
    top = logits.masked_fill(mask, -math.inf).amax(dim=-1, keepdim=True)
    top = torch.where(top.isfinite(), top, torch.zeros_like(top))
    exps = torch.where(keep, torch.exp(logits - top), torch.zeros_like(logits))
    sums = exps.sum(dim=-1, keepdim=True)
    return exps / sums.clamp_min(torch.finfo(exps.dtype).tiny)  # 0 / tiny = 0 for masked rows
''',
        },
    }
    a08 = {
        "alice": {
            "sinusoidal_positions": keep(s["sinusoidal_positions"], """
                if d_model % 2 != 0:
                    raise ValueError(f"d_model={d_model} is odd")
                pe = torch.zeros(seq_len, d_model)
                pos = torch.arange(seq_len).float().unsqueeze(1)
                div = 10000 ** (torch.arange(0, d_model, 2).float() / d_model)
                pe[:, 0::2] = torch.sin(pos / div)
                pe[:, 1::2] = torch.cos(pos / div)
                return pe
            """),
            "layer_norm": keep(s["layer_norm"], """
                mu = x.mean(-1, keepdim=True)
                var = x.var(-1, keepdim=True, unbiased=False)
                return gamma * (x - mu) / torch.sqrt(var + eps) + beta
            """),
            "feed_forward": keep(s["feed_forward"], """
                h = x @ W1 + b1
                h = torch.clamp(h, min=0)
                return h @ W2 + b2
            """),
            "TransformerBlock": keep(s["TransformerBlock"], """
                super().__init__()
                assert d_model % num_heads == 0
                self.d_model = d_model
                self.num_heads = num_heads
                self.qkv = nn.Linear(d_model, 3 * d_model)
                self.out = nn.Linear(d_model, d_model)
                self.ln1_g = nn.Parameter(torch.ones(d_model))
                self.ln1_b = nn.Parameter(torch.zeros(d_model))
                self.ln2_g = nn.Parameter(torch.ones(d_model))
                self.ln2_b = nn.Parameter(torch.zeros(d_model))
                self.fc1 = nn.Linear(d_model, d_ff)
                self.fc2 = nn.Linear(d_ff, d_model)
            """, """
                sa = layer.self_attn
                blk = cls(sa.embed_dim, sa.num_heads, layer.linear1.out_features)
                blk.qkv.weight.data.copy_(sa.in_proj_weight.data)
                blk.qkv.bias.data.copy_(sa.in_proj_bias.data)
                blk.out.weight.data.copy_(sa.out_proj.weight.data)
                blk.out.bias.data.copy_(sa.out_proj.bias.data)
                blk.ln1_g.data.copy_(layer.norm1.weight.data)
                blk.ln1_b.data.copy_(layer.norm1.bias.data)
                blk.ln2_g.data.copy_(layer.norm2.weight.data)
                blk.ln2_b.data.copy_(layer.norm2.bias.data)
                blk.fc1.weight.data.copy_(layer.linear1.weight.data)
                blk.fc1.bias.data.copy_(layer.linear1.bias.data)
                blk.fc2.weight.data.copy_(layer.linear2.weight.data)
                blk.fc2.bias.data.copy_(layer.linear2.bias.data)
                return blk
            """, """
                B, T, C = x.shape
                hd = C // self.num_heads
                qkv = self.qkv(x).view(B, T, 3, self.num_heads, hd).permute(2, 0, 3, 1, 4)
                q, k, v = qkv[0], qkv[1], qkv[2]
                mask = None
                if attn_mask is not None:
                    mask = attn_mask.logical_not()  # SDPA: True = may attend
                y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
                y = y.transpose(1, 2).reshape(B, T, C)
                return self.out(y)
            """, """
                x = x + self.attention(layer_norm(x, self.ln1_g, self.ln1_b), attn_mask)
                x = x + feed_forward(layer_norm(x, self.ln2_g, self.ln2_b), self.fc1.weight.T,
                                     self.fc1.bias, self.fc2.weight.T, self.fc2.bias)
                return x
            """),
        },
        "bruno": {
            "sinusoidal_positions": '''def _angles(seq_len, d_model):
    pos = torch.arange(seq_len, dtype=torch.float32)
    freqs = torch.pow(10000.0, -torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    return torch.outer(pos, freqs)


def sinusoidal_positions(seq_len, d_model):
    if d_model % 2 == 1:
        raise ValueError("d_model must be even: " + str(d_model))
    a = _angles(seq_len, d_model)
    return torch.cat([torch.sin(a).unsqueeze(-1), torch.cos(a).unsqueeze(-1)], dim=-1).flatten(1)
''',
            "layer_norm": '''def _centre(x):
    return x - torch.mean(x, dim=-1, keepdim=True)


def layer_norm(x, gamma, beta, eps=1e-5):
    c = _centre(x)
    var = torch.mean(c * c, dim=-1, keepdim=True)
    return c * torch.rsqrt(var + eps) * gamma + beta
''',
            "feed_forward": '''def feed_forward(x, W1, b1, W2, b2):
    return torch.matmul(F.relu(torch.matmul(x, W1) + b1), W2) + b2
''',
            "TransformerBlock": '''def _param(*shape, scale=1.0):
    return nn.Parameter(torch.randn(*shape) * scale)


class TransformerBlock(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        if d_model % num_heads != 0:
            raise ValueError("num_heads must divide d_model")
        self.h = num_heads
        self.d = d_model
        self.in_w = _param(3 * d_model, d_model, scale=d_model ** -0.5)
        self.in_b = _param(3 * d_model, scale=0.0)
        self.out_w = _param(d_model, d_model, scale=d_model ** -0.5)
        self.out_b = _param(d_model, scale=0.0)
        self.norm_w = nn.Parameter(torch.ones(2, d_model))
        self.norm_b = nn.Parameter(torch.zeros(2, d_model))
        self.ff_w1 = _param(d_ff, d_model, scale=d_model ** -0.5)
        self.ff_b1 = _param(d_ff, scale=0.0)
        self.ff_w2 = _param(d_model, d_ff, scale=d_ff ** -0.5)
        self.ff_b2 = _param(d_model, scale=0.0)

    @classmethod
    def from_torch(cls, layer):
        att = layer.self_attn
        new = cls(att.embed_dim, att.num_heads, layer.linear1.out_features)
        pairs = [(new.in_w, att.in_proj_weight), (new.in_b, att.in_proj_bias),
                 (new.out_w, att.out_proj.weight), (new.out_b, att.out_proj.bias),
                 (new.ff_w1, layer.linear1.weight), (new.ff_b1, layer.linear1.bias),
                 (new.ff_w2, layer.linear2.weight), (new.ff_b2, layer.linear2.bias)]
        with torch.no_grad():
            for mine, theirs in pairs:
                mine.copy_(theirs)
            new.norm_w.copy_(torch.stack([layer.norm1.weight, layer.norm2.weight]))
            new.norm_b.copy_(torch.stack([layer.norm1.bias, layer.norm2.bias]))
        return new

    def _split(self, t):
        n, l, _ = t.shape
        return t.view(n, l, self.h, -1).permute(0, 2, 1, 3)

    def _merge(self, t):
        n, _, l, _ = t.shape
        return t.permute(0, 2, 1, 3).reshape(n, l, self.d)

    def attention(self, x, attn_mask=None):
        q, k, v = F.linear(x, self.in_w, self.in_b).split(self.d, dim=-1)
        keep = None if attn_mask is None else ~attn_mask
        y = F.scaled_dot_product_attention(self._split(q), self._split(k), self._split(v),
                                           attn_mask=keep)
        return F.linear(self._merge(y), self.out_w, self.out_b)

    def forward(self, x, attn_mask=None):
        h = x + self.attention(layer_norm(x, self.norm_w[0], self.norm_b[0]), attn_mask)
        y = layer_norm(h, self.norm_w[1], self.norm_b[1])
        return h + feed_forward(y, self.ff_w1.t(), self.ff_b1, self.ff_w2.t(), self.ff_b2)
''',
        },
        "chen": {
            "sinusoidal_positions": keep(s["sinusoidal_positions"], """
                if d_model % 2 == 1:
                    raise ValueError("d_model has to be even, got " + str(d_model))
                table = torch.empty(seq_len, d_model)
                for p in range(seq_len):
                    for i in range(0, d_model, 2):
                        angle = p / (10000 ** (i / d_model))
                        table[p, i] = math.sin(angle)
                        table[p, i + 1] = math.cos(angle)
                return table
            """),
            "layer_norm": keep(s["layer_norm"], """
                d = x.shape[-1]
                mean = x.sum(dim=-1, keepdim=True) / d
                diff = x - mean
                var = (diff ** 2).sum(dim=-1, keepdim=True) / d
                normed = diff / (var + eps).sqrt()
                return normed * gamma + beta
            """),
            "feed_forward": keep(s["feed_forward"], """
                hidden = torch.matmul(x, W1) + b1
                hidden = torch.where(hidden > 0, hidden, torch.zeros_like(hidden))
                out = torch.matmul(hidden, W2) + b2
                return out
            """),
            "TransformerBlock": keep(s["TransformerBlock"], """
                nn.Module.__init__(self)
                self.d_model = d_model
                self.num_heads = num_heads
                self.head_dim = d_model // num_heads
                if self.head_dim * num_heads != d_model:
                    raise ValueError("num_heads must divide d_model")
                self.Wq = nn.Parameter(torch.randn(d_model, d_model) * 0.02)
                self.Wk = nn.Parameter(torch.randn(d_model, d_model) * 0.02)
                self.Wv = nn.Parameter(torch.randn(d_model, d_model) * 0.02)
                self.bq = nn.Parameter(torch.zeros(d_model))
                self.bk = nn.Parameter(torch.zeros(d_model))
                self.bv = nn.Parameter(torch.zeros(d_model))
                self.Wo = nn.Parameter(torch.randn(d_model, d_model) * 0.02)
                self.bo = nn.Parameter(torch.zeros(d_model))
                self.norm1_weight = nn.Parameter(torch.ones(d_model))
                self.norm1_bias = nn.Parameter(torch.zeros(d_model))
                self.norm2_weight = nn.Parameter(torch.ones(d_model))
                self.norm2_bias = nn.Parameter(torch.zeros(d_model))
                self.W1 = nn.Parameter(torch.randn(d_model, d_ff) * 0.02)
                self.b1 = nn.Parameter(torch.zeros(d_ff))
                self.W2 = nn.Parameter(torch.randn(d_ff, d_model) * 0.02)
                self.b2 = nn.Parameter(torch.zeros(d_model))
            """, """
                E = layer.self_attn.embed_dim
                block = cls(E, layer.self_attn.num_heads, layer.linear1.out_features)
                w = layer.self_attn.in_proj_weight.detach()
                b = layer.self_attn.in_proj_bias.detach()
                block.Wq.data = w[:E].t().clone()
                block.Wk.data = w[E:2 * E].t().clone()
                block.Wv.data = w[2 * E:].t().clone()
                block.bq.data = b[:E].clone()
                block.bk.data = b[E:2 * E].clone()
                block.bv.data = b[2 * E:].clone()
                block.Wo.data = layer.self_attn.out_proj.weight.detach().t().clone()
                block.bo.data = layer.self_attn.out_proj.bias.detach().clone()
                block.norm1_weight.data = layer.norm1.weight.detach().clone()
                block.norm1_bias.data = layer.norm1.bias.detach().clone()
                block.norm2_weight.data = layer.norm2.weight.detach().clone()
                block.norm2_bias.data = layer.norm2.bias.detach().clone()
                block.W1.data = layer.linear1.weight.detach().t().clone()
                block.b1.data = layer.linear1.bias.detach().clone()
                block.W2.data = layer.linear2.weight.detach().t().clone()
                block.b2.data = layer.linear2.bias.detach().clone()
                return block
            """, """
                batch, length, _ = x.shape
                Q = torch.matmul(x, self.Wq) + self.bq
                K = torch.matmul(x, self.Wk) + self.bk
                V = torch.matmul(x, self.Wv) + self.bv
                Q = Q.view(batch, length, self.num_heads, self.head_dim).transpose(1, 2)
                K = K.view(batch, length, self.num_heads, self.head_dim).transpose(1, 2)
                V = V.view(batch, length, self.num_heads, self.head_dim).transpose(1, 2)
                if attn_mask is None:
                    out = F.scaled_dot_product_attention(Q, K, V)
                else:
                    # torch wants True where attending is allowed, so flip it
                    out = F.scaled_dot_product_attention(Q, K, V, attn_mask=~attn_mask)
                out = out.transpose(1, 2).contiguous().view(batch, length, self.d_model)
                out = torch.matmul(out, self.Wo) + self.bo
                return out
            """, """
                normed = layer_norm(x, self.norm1_weight, self.norm1_bias)
                x = x + self.attention(normed, attn_mask=attn_mask)
                normed = layer_norm(x, self.norm2_weight, self.norm2_bias)
                x = x + feed_forward(normed, self.W1, self.b1, self.W2, self.b2)
                return x
            """),
        },
        "dana": {
            "sinusoidal_positions": '''def sinusoidal_positions(seq_len, d_model):
    if d_model % 2:
        raise ValueError(f"odd d_model {d_model}")
    p = torch.arange(seq_len, dtype=torch.float64)[:, None]
    i2 = torch.arange(d_model)[None, :] // 2 * 2  # 0, 0, 2, 2, ...
    angle = p * torch.exp(-math.log(10000.0) * i2 / d_model)
    return torch.where(torch.arange(d_model) % 2 == 0, angle.sin(), angle.cos()).float()
''',
            "layer_norm": '''def layer_norm(x, gamma, beta, eps=1e-5):
    z = x - x.mean(-1, keepdim=True)
    return gamma * z / (z.square().mean(-1, keepdim=True) + eps).sqrt() + beta
''',
            "feed_forward": '''def feed_forward(x, W1, b1, W2, b2):
    return (x @ W1 + b1).relu() @ W2 + b2
''',
            "TransformerBlock": '''class TransformerBlock(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        assert d_model % num_heads == 0, "heads must divide d_model"
        self.heads = num_heads
        self.in_proj = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.norms = nn.ParameterList([torch.ones(d_model), torch.zeros(d_model),
                                       torch.ones(d_model), torch.zeros(d_model)])
        self.ffn = nn.ParameterList([torch.randn(d_model, d_ff) / math.sqrt(d_model),
                                     torch.zeros(d_ff),
                                     torch.randn(d_ff, d_model) / math.sqrt(d_ff),
                                     torch.zeros(d_model)])

    @classmethod
    def from_torch(cls, layer):
        sa = layer.self_attn
        block = cls(sa.embed_dim, sa.num_heads, layer.linear1.out_features)
        block.in_proj.load_state_dict({"weight": sa.in_proj_weight, "bias": sa.in_proj_bias})
        block.out_proj.load_state_dict(sa.out_proj.state_dict())
        norms = [layer.norm1.weight, layer.norm1.bias, layer.norm2.weight, layer.norm2.bias]
        ffn = [layer.linear1.weight.T, layer.linear1.bias, layer.linear2.weight.T,
               layer.linear2.bias]
        with torch.no_grad():
            for p, src in zip([*block.norms, *block.ffn], norms + ffn):
                p.copy_(src)
        return block

    def attention(self, x, attn_mask=None):
        # (N, L, 3E) -> (3, N, heads, L, head_dim)
        q, k, v = self.in_proj(x).unflatten(-1, (3, self.heads, -1)).permute(2, 0, 3, 1, 4)
        bias = None
        if attn_mask is not None:
            bias = torch.zeros(attn_mask.shape, dtype=x.dtype).masked_fill(attn_mask, -math.inf)
        ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        return self.out_proj(ctx.transpose(1, 2).flatten(2))

    def forward(self, x, attn_mask=None):
        g1, b1, g2, b2 = self.norms
        x = x + self.attention(layer_norm(x, g1, b1), attn_mask)
        return x + feed_forward(layer_norm(x, g2, b2), *self.ffn)
''',
        },
        "emre": {
            "sinusoidal_positions": '''def sinusoidal_positions(seq_len: int, d_model: int) -> torch.Tensor:
    if d_model % 2 != 0:
        raise ValueError(f"sinusoidal encodings need an even d_model, not {d_model}")
    half = d_model // 2
    position = torch.arange(seq_len, dtype=torch.float64).view(-1, 1)
    inv_freq = 1.0 / (10000.0 ** (torch.arange(half, dtype=torch.float64) * 2 / d_model))
    angle = position * inv_freq.view(1, -1)
    encodings = torch.empty(seq_len, d_model)
    encodings[:, ::2] = angle.sin()
    encodings[:, 1::2] = angle.cos()
    return encodings
''',
            "layer_norm": '''def layer_norm(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor,
               eps: float = 1e-5) -> torch.Tensor:
    centred = x - x.mean(dim=-1, keepdim=True)
    std = torch.sqrt(centred.pow(2).mean(dim=-1, keepdim=True) + eps)
    return beta + gamma * (centred / std)
''',
            "feed_forward": '''def feed_forward(x: torch.Tensor, W1: torch.Tensor, b1: torch.Tensor, W2: torch.Tensor,
                 b2: torch.Tensor) -> torch.Tensor:
    hidden = F.relu(x.matmul(W1).add(b1))
    return hidden.matmul(W2).add(b2)
''',
            "TransformerBlock": '''class TransformerBlock(nn.Module):
    """Pre-norm encoder block: h = x + MHA(LN(x)), out = h + FFN(LN(h))."""

    def __init__(self, d_model: int, num_heads: int, d_ff: int):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim, remainder = divmod(d_model, num_heads)
        if remainder:
            raise ValueError(f"{num_heads} heads do not divide d_model = {d_model}")
        self.query = nn.Linear(d_model, d_model)
        self.key = nn.Linear(d_model, d_model)
        self.value = nn.Linear(d_model, d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.ln1 = nn.ParameterDict({"gamma": nn.Parameter(torch.ones(d_model)),
                                     "beta": nn.Parameter(torch.zeros(d_model))})
        self.ln2 = nn.ParameterDict({"gamma": nn.Parameter(torch.ones(d_model)),
                                     "beta": nn.Parameter(torch.zeros(d_model))})
        self.hidden = nn.Linear(d_model, d_ff)
        self.output = nn.Linear(d_ff, d_model)

    @classmethod
    def from_torch(cls, layer: nn.TransformerEncoderLayer) -> "TransformerBlock":
        mha = layer.self_attn
        block = cls(mha.embed_dim, mha.num_heads, layer.linear1.out_features)
        weights = mha.in_proj_weight.chunk(3)
        biases = mha.in_proj_bias.chunk(3)
        with torch.no_grad():
            for linear, w, b in zip((block.query, block.key, block.value), weights, biases):
                linear.weight.copy_(w)
                linear.bias.copy_(b)
            block.proj.weight.copy_(mha.out_proj.weight)
            block.proj.bias.copy_(mha.out_proj.bias)
            for mine, norm in ((block.ln1, layer.norm1), (block.ln2, layer.norm2)):
                mine["gamma"].copy_(norm.weight)
                mine["beta"].copy_(norm.bias)
        block.hidden.load_state_dict(layer.linear1.state_dict())
        block.output.load_state_dict(layer.linear2.state_dict())
        return block

    def attention(self, x: torch.Tensor, attn_mask=None) -> torch.Tensor:
        n, length, e = x.shape
        shape = (n, length, self.num_heads, self.head_dim)
        q = self.query(x).reshape(shape).permute(0, 2, 1, 3)
        k = self.key(x).reshape(shape).permute(0, 2, 1, 3)
        v = self.value(x).reshape(shape).permute(0, 2, 1, 3)
        allowed = attn_mask.logical_not() if attn_mask is not None else None
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
        return self.proj(out.permute(0, 2, 1, 3).reshape(n, length, e))

    def forward(self, x: torch.Tensor, attn_mask=None) -> torch.Tensor:
        attended = x + self.attention(layer_norm(x, self.ln1["gamma"], self.ln1["beta"]),
                                      attn_mask)
        hidden = layer_norm(attended, self.ln2["gamma"], self.ln2["beta"])
        return attended + feed_forward(hidden, self.hidden.weight.T, self.hidden.bias,
                                       self.output.weight.T, self.output.bias)
''',
        },
    }
    a09 = {
        "alice": {
            "softmax_backward": keep(s["softmax_backward"], """
                s = (weights * grad_weights).sum(dim, keepdim=True)
                return weights * grad_weights - weights * s
            """),
            "attention_backward": keep(s["attention_backward"], """
                d_k = queries.shape[-1]
                S = queries @ keys.transpose(-2, -1) / math.sqrt(d_k)
                P = torch.softmax(S, dim=-1)
                dV = P.transpose(-2, -1) @ grad_context
                dP = grad_context @ values.transpose(-2, -1)
                dS = softmax_backward(P, dP)
                dQ = dS @ keys / math.sqrt(d_k)
                dK = dS.transpose(-2, -1) @ queries / math.sqrt(d_k)
                return dQ, dK, dV
            """),
            "online_attention": keep(s["online_attention"], """
                n_k = keys.shape[-2]
                d_k = keys.shape[-1]
                m = torch.full(queries.shape[:-1] + (1,), -math.inf, dtype=queries.dtype)
                l = torch.zeros(queries.shape[:-1] + (1,), dtype=queries.dtype)
                acc = torch.zeros(queries.shape[:-1] + (values.shape[-1],), dtype=queries.dtype)
                start = 0
                while start < n_k:
                    stop = min(start + block_size, n_k)
                    s = queries @ keys[..., start:stop, :].transpose(-2, -1) / math.sqrt(d_k)
                    m_new = torch.maximum(m, s.max(dim=-1, keepdim=True).values)
                    alpha = torch.exp(m - m_new)
                    p = torch.exp(s - m_new)
                    l = alpha * l + p.sum(dim=-1, keepdim=True)
                    acc = alpha * acc + p @ values[..., start:stop, :]
                    m = m_new
                    start = stop
                return acc / l
            """),
            "cached_causal_attention": keep(s["cached_causal_attention"], """
                seq = x.shape[-2]
                ks, vs, outs = [], [], []
                for t in range(seq):
                    xt = x[..., t, :]
                    q = xt @ W_query
                    ks.append(xt @ W_key)
                    vs.append(xt @ W_value)
                    K = torch.stack(ks, dim=-2)
                    V = torch.stack(vs, dim=-2)
                    s = (K @ q.unsqueeze(-1)).squeeze(-1) / math.sqrt(W_key.shape[-1])
                    w = torch.softmax(s, dim=-1)
                    outs.append((w.unsqueeze(-2) @ V).squeeze(-2))
                return torch.stack(outs, dim=-2)
            """),
        },
        "bruno": {
            "softmax_backward": '''def _inner(a, b, dim):
    return torch.sum(a * b, dim=dim, keepdim=True)


def softmax_backward(weights, grad_weights, dim=-1):
    return weights * (grad_weights - _inner(grad_weights, weights, dim))
''',
            "attention_backward": '''def _t(m):
    return m.transpose(-1, -2)


def attention_backward(queries, keys, values, grad_context):
    scale = keys.size(-1) ** -0.5
    probs = F.softmax(torch.matmul(queries, _t(keys)) * scale, dim=-1)
    d_probs = torch.matmul(grad_context, _t(values))
    d_scores = softmax_backward(probs, d_probs) * scale
    return (torch.matmul(d_scores, keys), torch.matmul(_t(d_scores), queries),
            torch.matmul(_t(probs), grad_context))
''',
            "online_attention": '''def _blocks(n, size):
    return [(i, min(i + size, n)) for i in range(0, n, size)]


def online_attention(queries, keys, values, block_size):
    scale = keys.size(-1) ** -0.5
    lead = queries.shape[:-1]
    best = queries.new_full((*lead, 1), -math.inf)
    denom = queries.new_zeros((*lead, 1))
    out = queries.new_zeros((*lead, values.size(-1)))
    for lo, hi in _blocks(keys.size(-2), block_size):
        s = torch.matmul(queries, _t(keys[..., lo:hi, :])) * scale
        top = torch.maximum(best, torch.amax(s, dim=-1, keepdim=True))
        fix = torch.exp(best - top)
        e = torch.exp(s - top)
        denom = denom * fix + torch.sum(e, dim=-1, keepdim=True)
        out = out * fix + torch.matmul(e, values[..., lo:hi, :])
        best = top
    return out / denom
''',
            "cached_causal_attention": '''def _attend(q, K, V):
    w = F.softmax(torch.matmul(K, q.unsqueeze(-1)) * K.size(-1) ** -0.5, dim=-2)
    return torch.sum(w * V, dim=-2)


def cached_causal_attention(x, W_query, W_key, W_value):
    n = x.size(-2)
    K = x.new_zeros((*x.shape[:-2], n, W_key.size(-1)))
    V = x.new_zeros((*x.shape[:-2], n, W_value.size(-1)))
    outs = []
    for t in range(n):
        row = x[..., t, :]
        K[..., t, :] = torch.matmul(row, W_key)
        V[..., t, :] = torch.matmul(row, W_value)
        outs.append(_attend(torch.matmul(row, W_query), K[..., :t + 1, :], V[..., :t + 1, :]))
    return torch.stack(outs, dim=-2)
''',
        },
        "chen": {
            "softmax_backward": keep(s["softmax_backward"], """
                # the softmax Jacobian diag(w) - w w^T applied to g without building it:
                # diag(w) g is w * g, and w w^T g is w times the dot product <w, g>
                w = weights.movedim(dim, -1)
                g = grad_weights.movedim(dim, -1)
                dot = torch.einsum("...i,...i->...", w, g).unsqueeze(-1)
                grad = w * g - w * dot
                return grad.movedim(-1, dim)
            """),
            "attention_backward": keep(s["attention_backward"], """
                d_k = queries.shape[-1]
                scale = math.sqrt(d_k)
                scores = torch.matmul(queries, keys.transpose(-2, -1)) / scale
                weights = torch.softmax(scores, dim=-1)
                # context = weights @ values
                grad_values = torch.matmul(weights.transpose(-2, -1), grad_context)
                grad_weights = torch.matmul(grad_context, values.transpose(-2, -1))
                grad_scores = softmax_backward(weights, grad_weights)
                grad_scores = grad_scores / scale
                grad_queries = torch.matmul(grad_scores, keys)
                grad_keys = torch.matmul(grad_scores.transpose(-2, -1), queries)
                return grad_queries, grad_keys, grad_values
            """),
            "online_attention": keep(s["online_attention"], """
                n_k = keys.shape[-2]
                scale = 1 / math.sqrt(queries.shape[-1])
                m = None
                l = None
                o = None
                for s in range(0, n_k, block_size):
                    k_blk = keys[..., s:s + block_size, :]
                    v_blk = values[..., s:s + block_size, :]
                    sc = torch.matmul(queries, k_blk.transpose(-2, -1)) * scale
                    blk_max = sc.max(dim=-1, keepdim=True).values
                    if m is None:
                        m = blk_max
                        p = torch.exp(sc - m)
                        l = p.sum(dim=-1, keepdim=True)
                        o = torch.matmul(p, v_blk)
                    else:
                        m_new = torch.max(m, blk_max)
                        correction = torch.exp(m - m_new)
                        p = torch.exp(sc - m_new)
                        l = l * correction + p.sum(dim=-1, keepdim=True)
                        o = o * correction + torch.matmul(p, v_blk)
                        m = m_new
                return o / l
            """),
            "cached_causal_attention": keep(s["cached_causal_attention"], """
                *batch, seq, d_in = x.shape
                d_k = W_key.shape[1]
                d_v = W_value.shape[1]
                K_cache = torch.zeros(*batch, seq, d_k, dtype=x.dtype)
                V_cache = torch.zeros(*batch, seq, d_v, dtype=x.dtype)
                result = torch.zeros(*batch, seq, d_v, dtype=x.dtype)
                for t in range(seq):
                    x_t = x[..., t:t + 1, :]  # (..., 1, d_in)
                    q_t = torch.matmul(x_t, W_query)  # (..., 1, d_k)
                    K_cache[..., t:t + 1, :] = torch.matmul(x_t, W_key)
                    V_cache[..., t:t + 1, :] = torch.matmul(x_t, W_value)
                    scores = torch.matmul(q_t, K_cache[..., :t + 1, :].transpose(-2, -1)) / math.sqrt(d_k)
                    weights = torch.softmax(scores, dim=-1)  # (..., 1, t + 1)
                    result[..., t:t + 1, :] = torch.matmul(weights, V_cache[..., :t + 1, :])
                return result
            """),
        },
        "dana": {
            "softmax_backward": '''def softmax_backward(weights, grad_weights, dim=-1):
    return weights * (grad_weights - (weights * grad_weights).sum(dim).unsqueeze(dim))
''',
            "attention_backward": '''def attention_backward(queries, keys, values, grad_context):
    s = 1 / math.sqrt(queries.shape[-1])
    P = torch.einsum("...qd,...kd->...qk", queries, keys).mul(s).softmax(-1)
    dP = torch.einsum("...qv,...kv->...qk", grad_context, values)
    dS = P * (dP - (P * dP).sum(-1, keepdim=True)) * s  # softmax backward, inline
    return (torch.einsum("...qk,...kd->...qd", dS, keys),
            torch.einsum("...qk,...qd->...kd", dS, queries),
            torch.einsum("...qk,...qv->...kv", P, grad_context))
''',
            "online_attention": '''def online_attention(queries, keys, values, block_size):
    q = queries / math.sqrt(queries.shape[-1])
    m = q.new_full(q.shape[:-1] + (1,), -torch.inf)
    l = torch.zeros_like(m)
    acc = q.new_zeros(q.shape[:-1] + (values.shape[-1],))
    for kb, vb in zip(keys.split(block_size, -2), values.split(block_size, -2)):
        s = q @ kb.mT
        m_new = m.maximum(s.amax(-1, keepdim=True))
        p = (s - m_new).exp()
        c = (m - m_new).exp()
        l = l * c + p.sum(-1, keepdim=True)
        acc = acc * c + p @ vb
        m = m_new
    return acc / l
''',
            "cached_causal_attention": '''def cached_causal_attention(x, W_query, W_key, W_value):
    Ks, Vs, out = [], [], []
    for xt in x.unbind(-2):
        Ks.append(xt @ W_key)
        Vs.append(xt @ W_value)
        K, V = torch.stack(Ks, -2), torch.stack(Vs, -2)
        w = torch.softmax(torch.einsum("...d,...td->...t", xt @ W_query, K)
                          / math.sqrt(K.shape[-1]), -1)
        out.append(torch.einsum("...t,...tv->...v", w, V))
    return torch.stack(out, -2)
''',
        },
        "emre": {
            "softmax_backward": '''def softmax_backward(weights: torch.Tensor, grad_weights: torch.Tensor,
                     dim: int = -1) -> torch.Tensor:
    y_dot_g = torch.linalg.vecdot(weights, grad_weights, dim=dim).unsqueeze(dim)
    return weights * grad_weights - weights * y_dot_g
''',
            "attention_backward": '''def attention_backward(queries, keys, values, grad_context):
    d_k = keys.size(-1)
    logits = queries.matmul(keys.mT).div(math.sqrt(d_k))
    probs = logits.softmax(dim=-1)
    grad_probs = grad_context.matmul(values.mT)
    grad_logits = softmax_backward(probs, grad_probs, dim=-1).div(math.sqrt(d_k))
    grad_values = probs.mT.matmul(grad_context)
    grad_keys = grad_logits.mT.matmul(queries)
    grad_queries = grad_logits.matmul(keys)
    return grad_queries, grad_keys, grad_values
''',
            "online_attention": '''def online_attention(queries: torch.Tensor, keys: torch.Tensor, values: torch.Tensor,
                     block_size: int) -> torch.Tensor:
    n_keys = keys.shape[-2]
    num_blocks = math.ceil(n_keys / block_size)
    scale = math.sqrt(keys.shape[-1])
    stats_shape = (*queries.shape[:-1], 1)
    max_so_far = torch.full(stats_shape, float("-inf"), dtype=queries.dtype)
    sum_so_far = torch.zeros(stats_shape, dtype=queries.dtype)
    numerator = torch.zeros((*queries.shape[:-1], values.shape[-1]), dtype=queries.dtype)
    for b in range(num_blocks):
        lo, hi = b * block_size, min((b + 1) * block_size, n_keys)
        block_scores = queries.matmul(keys[..., lo:hi, :].transpose(-1, -2)) / scale
        new_max = torch.maximum(max_so_far, block_scores.amax(dim=-1, keepdim=True))
        old_factor = (max_so_far - new_max).exp()
        block_exp = (block_scores - new_max).exp()
        sum_so_far = old_factor * sum_so_far + block_exp.sum(dim=-1, keepdim=True)
        numerator = old_factor * numerator + block_exp.matmul(values[..., lo:hi, :])
        max_so_far = new_max
    return numerator / sum_so_far
''',
            "cached_causal_attention": '''def cached_causal_attention(x: torch.Tensor, W_query: torch.Tensor, W_key: torch.Tensor,
                            W_value: torch.Tensor) -> torch.Tensor:
    seq_len = x.size(-2)
    scale = 1.0 / math.sqrt(W_query.size(-1))
    cache_k = None
    cache_v = None
    outputs = []
    for position in range(seq_len):
        token = x[..., position:position + 1, :]  # (..., 1, d_in)
        new_k = token.matmul(W_key)
        new_v = token.matmul(W_value)
        cache_k = new_k if cache_k is None else torch.cat([cache_k, new_k], dim=-2)
        cache_v = new_v if cache_v is None else torch.cat([cache_v, new_v], dim=-2)
        attn = torch.softmax(token.matmul(W_query).matmul(cache_k.transpose(-1, -2)) * scale,
                             dim=-1)
        outputs.append(attn.matmul(cache_v))
    return torch.cat(outputs, dim=-2)
''',
        },
    }
    return {"02_embeddings": a02, "04_self_attention": a04, "06_scoring_functions": a06,
            "07_cross_attention_and_masks": a07, "08_transformer_block": a08,
            "09_gradients_and_memory": a09}


# 05's forward with _in_proj, split_heads and score_bias inlined.
INLINED_MHA_FORWARD = '''    def forward(self, query, key, value, key_padding_mask=None, attn_mask=None):
        tgt_len, bsz, embed = query.shape
        src_len = key.shape[0]
        h = self.num_heads
        q = F.linear(query, self.in_proj_weight[0:embed], self.in_proj_bias[0:embed])
        k = F.linear(key, self.in_proj_weight[embed:2 * embed], self.in_proj_bias[embed:2 * embed])
        v = F.linear(value, self.in_proj_weight[2 * embed:], self.in_proj_bias[2 * embed:])
        q = q.view(tgt_len, bsz, h, self.head_dim).permute(1, 2, 0, 3).reshape(bsz * h, tgt_len, self.head_dim)
        k = k.view(src_len, bsz, h, self.head_dim).permute(1, 2, 0, 3).reshape(bsz * h, src_len, self.head_dim)
        v = v.view(src_len, bsz, h, self.head_dim).permute(1, 2, 0, 3).reshape(bsz * h, src_len, self.head_dim)
        logits = torch.einsum("bld,bsd->bls", q, k) / self.head_dim ** 0.5
        bias = torch.zeros(bsz * h, tgt_len, src_len)
        if attn_mask is not None:
            bias = bias + as_additive(attn_mask)
        if key_padding_mask is not None:
            bias = bias + as_additive(key_padding_mask).repeat_interleave(h, dim=0)[:, None, :]
        probs = F.softmax(logits + bias, dim=-1)
        ctx = torch.einsum("bls,bsd->bld", probs, v)
        ctx = ctx.view(bsz, self.num_heads, tgt_len, self.head_dim).permute(2, 0, 1, 3)
        ctx = ctx.reshape(tgt_len, bsz, embed)
        return self.out_proj(ctx), probs.view(bsz, self.num_heads, tgt_len, src_len).mean(dim=1)
'''

# bruno's work with his helpers inlined by the copier (by hand): the cells that change.
INLINED = {
    "01_attention_by_hand": {
        "project_qkv": '''def project_qkv(x, W_query, W_key, W_value):
    return torch.matmul(x, W_query), torch.matmul(x, W_key), torch.matmul(x, W_value)
''',
        "stable_softmax": '''def stable_softmax(scores, dim=-1):
    biggest = torch.amax(scores, dim=dim, keepdim=True)
    biggest = biggest.masked_fill(~torch.isfinite(biggest), 0.0)
    shifted = scores - biggest
    ex = shifted.exp()
    total = ex.sum(dim=dim, keepdim=True)
    return ex / total
''',
    },
    "03_scaled_dot_product": {
        "scaled_dot_product_attention": '''def scaled_dot_product_attention(queries, keys, values, mask=None):
    scores = torch.matmul(queries, keys.transpose(-1, -2))
    if mask is not None:
        scores = scores.masked_fill(mask, -torch.inf)
    weights = F.softmax(scores * (1.0 / math.sqrt(keys.size(-1))), dim=-1)
    weights = weights if mask is None else weights.masked_fill(mask, 0.0)
    return torch.matmul(weights, values), weights
''',
    },
    "05_multi_head": {
        "multihead_attention": '''def multihead_attention(x, W_query, W_key, W_value):
    q = torch.bmm(x.unsqueeze(0).repeat(W_query.size(0), 1, 1), W_query.permute(0, 2, 1))
    k = torch.bmm(x.unsqueeze(0).repeat(W_key.size(0), 1, 1), W_key.permute(0, 2, 1))
    v = torch.bmm(x.unsqueeze(0).repeat(W_value.size(0), 1, 1), W_value.permute(0, 2, 1))
    w = F.softmax(torch.bmm(q, k.permute(0, 2, 1)) / k.size(-1) ** 0.5, dim=2)
    return torch.bmm(w, v)
''',
        "MultiHeadAttention": Methods(INLINED_MHA_FORWARD, ("_in_proj", "split_heads",
                                                           "score_bias")),
    },
    "02_embeddings": {
        "build_vocab": '''def build_vocab(sentence):
    return {w: n for n, w in enumerate(sorted(set(split_words(sentence))))}
''',
        "encode": '''def encode(sentence, vocab):
    ids = []
    for w in split_words(sentence):
        if w not in vocab:
            raise KeyError(f"unknown word: {w}")
        ids.append(vocab[w])
    return torch.LongTensor(ids)
''',
        "embed": '''def embed(token_ids, vocab_size, dim, seed=123):
    torch.manual_seed(seed)  # before the table is drawn
    return nn.Embedding(vocab_size, dim)(token_ids).detach()
''',
    },
    "04_self_attention": {
        "self_attention": '''def self_attention(x, W_query, W_key, W_value):
    q, k, v = torch.matmul(x, W_query), torch.matmul(x, W_key), torch.matmul(x, W_value)
    weights = (torch.matmul(q, k.transpose(-1, -2)) / k.size(-1) ** 0.5).softmax(dim=-1)
    return torch.matmul(weights, v)
''',
        "SelfAttention": '''class SelfAttention(nn.Module):
    def __init__(self, d_in, d_out_kq, d_out_v):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out_kq))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out_kq))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out_v))

    def forward(self, x):
        return self_attention(x, self.W_query, self.W_key, self.W_value)
''',
    },
    "06_scoring_functions": {
        "scaled_dot_score": '''def scaled_dot_score(k, q):
    return torch.sum(torch.mul(k, q)) * (1.0 / math.sqrt(k.numel()))
''',
        "additive_score": '''def additive_score(k, q, W, U, v):
    return torch.dot(v, torch.tanh(torch.mv(W, k) + torch.mv(U, q)))
''',
        "loop_attention": '''def loop_attention(X, W_Q, W_K, W_V):
    Q, K, V = torch.mm(W_Q, X), torch.mm(W_K, X), torch.mm(W_V, X)
    n = K.size(1)
    columns = []
    for i in range(X.size(1)):
        scores = torch.stack([scaled_dot_score(K[:, j], Q[:, i]) for j in range(n)])
        columns.append(torch.mv(V, torch.softmax(scores, dim=0)))
    return torch.stack(columns, dim=1)
''',
        "vectorized_attention": '''def vectorized_attention(X, W_Q, W_K, W_V):
    Q, K, V = torch.mm(W_Q, X), torch.mm(W_K, X), torch.mm(W_V, X)
    weights = torch.softmax(torch.mm(K.t(), Q) * (1.0 / math.sqrt(K.size(0))), dim=0)
    return torch.mm(V, weights)
''',
    },
    "07_cross_attention_and_masks": {
        "cross_attention": '''def cross_attention(x_query, x_context, W_query, W_key, W_value):
    q = torch.matmul(x_query, W_query)
    k, v = torch.matmul(x_context, W_key), torch.matmul(x_context, W_value)
    scores = torch.matmul(q, k.transpose(0, 1)) / math.sqrt(k.size(-1))
    return torch.matmul(F.softmax(scores, dim=-1), v)
''',
        "masked_scaled_softmax": '''def masked_scaled_softmax(scores, mask, d_k):
    w = F.softmax((scores / math.sqrt(d_k)).masked_fill(mask, -math.inf), dim=-1)
    return w.masked_fill(mask, 0.0)
''',
    },
    "08_transformer_block": {
        "sinusoidal_positions": '''def sinusoidal_positions(seq_len, d_model):
    if d_model % 2 == 1:
        raise ValueError("d_model must be even: " + str(d_model))
    pos = torch.arange(seq_len, dtype=torch.float32)
    freqs = torch.pow(10000.0, -torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    a = torch.outer(pos, freqs)
    return torch.cat([torch.sin(a).unsqueeze(-1), torch.cos(a).unsqueeze(-1)], dim=-1).flatten(1)
''',
        "layer_norm": '''def layer_norm(x, gamma, beta, eps=1e-5):
    c = x - torch.mean(x, dim=-1, keepdim=True)
    var = torch.mean(c * c, dim=-1, keepdim=True)
    return c * torch.rsqrt(var + eps) * gamma + beta
''',
        "TransformerBlock": Methods('''    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        if d_model % num_heads != 0:
            raise ValueError("num_heads must divide d_model")
        self.h = num_heads
        self.d = d_model
        self.in_w = nn.Parameter(torch.randn(3 * d_model, d_model) * d_model ** -0.5)
        self.in_b = nn.Parameter(torch.zeros(3 * d_model))
        self.out_w = nn.Parameter(torch.randn(d_model, d_model) * d_model ** -0.5)
        self.out_b = nn.Parameter(torch.zeros(d_model))
        self.norm_w = nn.Parameter(torch.ones(2, d_model))
        self.norm_b = nn.Parameter(torch.zeros(2, d_model))
        self.ff_w1 = nn.Parameter(torch.randn(d_ff, d_model) * d_model ** -0.5)
        self.ff_b1 = nn.Parameter(torch.zeros(d_ff))
        self.ff_w2 = nn.Parameter(torch.randn(d_model, d_ff) * d_ff ** -0.5)
        self.ff_b2 = nn.Parameter(torch.zeros(d_model))

    def attention(self, x, attn_mask=None):
        n, l, _ = x.shape
        q, k, v = F.linear(x, self.in_w, self.in_b).split(self.d, dim=-1)
        keep = None if attn_mask is None else ~attn_mask
        y = F.scaled_dot_product_attention(q.view(n, l, self.h, -1).permute(0, 2, 1, 3),
                                           k.view(n, l, self.h, -1).permute(0, 2, 1, 3),
                                           v.view(n, l, self.h, -1).permute(0, 2, 1, 3),
                                           attn_mask=keep)
        return F.linear(y.permute(0, 2, 1, 3).reshape(n, l, self.d), self.out_w, self.out_b)
''', ("_param", "_split", "_merge")),
    },
    "09_gradients_and_memory": {
        "softmax_backward": '''def softmax_backward(weights, grad_weights, dim=-1):
    return weights * (grad_weights - torch.sum(grad_weights * weights, dim=dim, keepdim=True))
''',
        "attention_backward": '''def attention_backward(queries, keys, values, grad_context):
    scale = keys.size(-1) ** -0.5
    probs = F.softmax(torch.matmul(queries, keys.transpose(-1, -2)) * scale, dim=-1)
    d_probs = torch.matmul(grad_context, values.transpose(-1, -2))
    d_scores = softmax_backward(probs, d_probs) * scale
    return (torch.matmul(d_scores, keys), torch.matmul(d_scores.transpose(-1, -2), queries),
            torch.matmul(probs.transpose(-1, -2), grad_context))
''',
        "online_attention": '''def online_attention(queries, keys, values, block_size):
    scale = keys.size(-1) ** -0.5
    lead = queries.shape[:-1]
    best = queries.new_full((*lead, 1), -math.inf)
    denom = queries.new_zeros((*lead, 1))
    out = queries.new_zeros((*lead, values.size(-1)))
    n = keys.size(-2)
    for lo in range(0, n, block_size):
        hi = min(lo + block_size, n)
        s = torch.matmul(queries, keys[..., lo:hi, :].transpose(-1, -2)) * scale
        top = torch.maximum(best, torch.amax(s, dim=-1, keepdim=True))
        fix = torch.exp(best - top)
        e = torch.exp(s - top)
        denom = denom * fix + torch.sum(e, dim=-1, keepdim=True)
        out = out * fix + torch.matmul(e, values[..., lo:hi, :])
        best = top
    return out / denom
''',
        "cached_causal_attention": '''def cached_causal_attention(x, W_query, W_key, W_value):
    n = x.size(-2)
    K = x.new_zeros((*x.shape[:-2], n, W_key.size(-1)))
    V = x.new_zeros((*x.shape[:-2], n, W_value.size(-1)))
    outs = []
    for t in range(n):
        row = x[..., t, :]
        K[..., t, :] = torch.matmul(row, W_key)
        V[..., t, :] = torch.matmul(row, W_value)
        q = torch.matmul(row, W_query)
        w = F.softmax(torch.matmul(K[..., :t + 1, :], q.unsqueeze(-1)) * W_key.size(-1) ** -0.5,
                      dim=-2)
        outs.append(torch.sum(w * V[..., :t + 1, :], dim=-2))
    return torch.stack(outs, dim=-2)
''',
    },
}
