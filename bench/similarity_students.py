# ruff: noqa: E501 - the students' code keeps the long lines students write
"""Honest students for the similarity calibration (bench/similarity_calibration.py): for
01_attention_by_hand, 03_scaled_dot_product and 05_multi_head, five correct solutions each,
written independently of solutions/ and of one another, in the styles different students write
(names, helpers or not, other torch calls, comments, order). Each is {grade id: the solution
cell as handed in}. `keep(stub, *bodies)` is a student who leaves the release's signature and
docstring and writes the body under them; the others rewrote the cell.

INLINED holds, for the student whose work the copier takes (bruno, who writes helpers), the
copy with every helper of his inlined by hand (a kind no mechanical rewrite gives)."""

from __future__ import annotations

import textwrap

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
    return {"01_attention_by_hand": a01, "03_scaled_dot_product": a03, "05_multi_head": a05}


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
        "MultiHeadAttention": None,  # filled in by calibration: forward with _in_proj,
        # split_heads and score_bias inlined (see INLINED_MHA)
    },
}

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
