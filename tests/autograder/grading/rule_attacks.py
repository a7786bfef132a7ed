"""Students who try to keep a step's points while breaking its rule from where the record of
their operations is made, and honest students once refused: graded end to end by
tests/autograder/grading/test_rules_out_of_reach.py.

Each entry: student -> (assignment, {step: its code}, {step whose points it must lose},
a fragment of what that step's feedback must say). Every step not named in the third field
must keep its points.
"""

BY_HAND, SELF, MULTI = "01_attention_by_hand", "04_self_attention", "05_multi_head"
SCORING, BLOCK, GRADIENTS = "06_scoring_functions", "08_transformer_block", \
    "09_gradients_and_memory"

SOFTMAX_HEAD = "def stable_softmax(scores, dim=-1):\n"

# The head of a TransformerBlock class that keeps torch's MultiheadAttention: its parameters,
# and a from_torch copying a layer's weights (the attacks below differ after it).
BLOCK_INIT = (
        "class TransformerBlock(nn.Module):\n"
        "    def __init__(self, d_model, num_heads, d_ff):\n"
        "        super().__init__()\n"
        "        self.attn = nn.MultiheadAttention(d_model, num_heads, batch_first=True)\n"
        "        self.gamma1, self.beta1 = nn.Parameter(torch.ones(d_model)), "
        "nn.Parameter(torch.zeros(d_model))\n"
        "        self.gamma2, self.beta2 = nn.Parameter(torch.ones(d_model)), "
        "nn.Parameter(torch.zeros(d_model))\n"
        "        self.W1, self.b1 = nn.Parameter(torch.randn(d_model, d_ff)), "
        "nn.Parameter(torch.zeros(d_ff))\n"
        "        self.W2, self.b2 = nn.Parameter(torch.randn(d_ff, d_model)), "
        "nn.Parameter(torch.zeros(d_model))\n"
)
BLOCK_COPIED = (
        "    @classmethod\n"
        "    def from_torch(cls, layer):\n"
        "        a = layer.self_attn\n"
        "        block = cls(a.embed_dim, a.num_heads, layer.linear1.out_features)\n"
        "        block.attn = a\n"
        "        with torch.no_grad():\n"
        "            block.gamma1.copy_(layer.norm1.weight); block.beta1.copy_(layer.norm1.bias)\n"
        "            block.gamma2.copy_(layer.norm2.weight); block.beta2.copy_(layer.norm2.bias)\n"
        "            block.W1.copy_(layer.linear1.weight.T); block.b1.copy_(layer.linear1.bias)\n"
        "            block.W2.copy_(layer.linear2.weight.T); block.b2.copy_(layer.linear2.bias)\n"
        "        return block\n"
)

# A block laid out by hand, its norms' parameters named layernorm1 and layernorm2: its head,
# before its forward.
NAMED_NORMS_HEAD = (
    "class TransformerBlock(nn.Module):\n"
    "    def __init__(self, d_model, num_heads, d_ff):\n"
    "        super().__init__()\n"
    "        self.h = num_heads\n"
    "        self.layernorm1 = nn.ParameterList([nn.Parameter(torch.ones(d_model)),\n"
    "                                            nn.Parameter(torch.zeros(d_model))])\n"
    "        self.layernorm2 = nn.ParameterList([nn.Parameter(torch.ones(d_model)),\n"
    "                                            nn.Parameter(torch.zeros(d_model))])\n"
    "        self.W_in = nn.Parameter(torch.randn(3 * d_model, d_model) / d_model)\n"
    "        self.b_in = nn.Parameter(torch.zeros(3 * d_model))\n"
    "        self.W_out = nn.Parameter(torch.randn(d_model, d_model) / d_model)\n"
    "        self.b_out = nn.Parameter(torch.zeros(d_model))\n"
    "        self.W1 = nn.Parameter(torch.randn(d_model, d_ff) / d_model)\n"
    "        self.b1 = nn.Parameter(torch.zeros(d_ff))\n"
    "        self.W2 = nn.Parameter(torch.randn(d_ff, d_model) / d_ff)\n"
    "        self.b2 = nn.Parameter(torch.zeros(d_model))\n"
    "    @classmethod\n"
    "    def from_torch(cls, layer):\n"
    "        a = layer.self_attn\n"
    "        block = cls(a.embed_dim, a.num_heads, layer.linear1.out_features)\n"
    "        pairs = [(block.layernorm1[0], layer.norm1.weight),\n"
    "                 (block.layernorm1[1], layer.norm1.bias),\n"
    "                 (block.layernorm2[0], layer.norm2.weight),\n"
    "                 (block.layernorm2[1], layer.norm2.bias),\n"
    "                 (block.W_in, a.in_proj_weight), (block.b_in, a.in_proj_bias),\n"
    "                 (block.W_out, a.out_proj.weight), (block.b_out, a.out_proj.bias),\n"
    "                 (block.W1, layer.linear1.weight.T), (block.b1, layer.linear1.bias),\n"
    "                 (block.W2, layer.linear2.weight.T), (block.b2, layer.linear2.bias)]\n"
    "        with torch.no_grad():\n"
    "            for mine, theirs in pairs:\n"
    "                mine.copy_(theirs)\n"
    "        return block\n")
# A helper's attack on 08 (2026-12-04, late): the block computes its norms, its attention and
# its network inline, and calls layer_norm, feed_forward and F.scaled_dot_product_attention
# with zeroed weights, adding what they give (zeros) to the inline results: a change of what
# they give reached the output, so each call counted as used.
DUMMY_CALLS = NAMED_NORMS_HEAD + (
    "    def forward(self, x, attn_mask=None):\n"
    "        n, L, d = x.shape\n"
    "        def norm(t, g, b):\n"
    "            mean = t.mean(-1, keepdim=True)\n"
    "            var = ((t - mean) ** 2).mean(-1, keepdim=True)\n"
    "            return (t - mean) / torch.sqrt(var + 1e-5) * g + b\n"
    "        g1, b1 = self.layernorm1[0], self.layernorm1[1]\n"
    "        h = norm(x, g1, b1) + layer_norm(x, g1 * 0, b1 * 0)\n"
    "        q, k, v = (h @ self.W_in.T + self.b_in).chunk(3, dim=-1)\n"
    "        split = lambda t: t.reshape(n, L, self.h, d // self.h).transpose(1, 2)\n"
    "        q, k, v = split(q), split(k), split(v)\n"
    "        s = q @ k.transpose(-2, -1) / math.sqrt(d // self.h)\n"
    "        if attn_mask is not None:\n"
    "            s = s.masked_fill(attn_mask, float('-inf'))\n"
    "        e = torch.exp(s - s.amax(-1, keepdim=True))\n"
    "        o = (e / e.sum(-1, keepdim=True)) @ v\n"
    "        o = o + F.scaled_dot_product_attention(q * 0, k * 0, v * 0)\n"
    "        x = x + o.transpose(1, 2).reshape(n, L, d) @ self.W_out.T + self.b_out\n"
    "        g2, b2 = self.layernorm2[0], self.layernorm2[1]\n"
    "        h = norm(x, g2, b2) + layer_norm(x, g2 * 0, b2 * 0)\n"
    "        f = torch.relu(h @ self.W1 + self.b1) @ self.W2 + self.b2\n"
    "        f = f + feed_forward(h, self.W1 * 0, self.b1 * 0, self.W2 * 0, self.b2 * 0)\n"
    "        return x + f\n")

ATTACKS = {
    # -- the work done in another process -----------------------------------------------------
    "fork_reexported": (BY_HAND, {"stable_softmax": (
        "import torch\n\n" + SOFTMAX_HEAD +
        "    os_ = torch.serialization.os  # os, reached without importing it\n"
        "    read, write = os_.pipe()\n"
        "    if os_.fork() == 0:\n"
        "        os_.write(write, torch.softmax(scores, dim).numpy().tobytes())\n"
        "        os_.kill(os_.getpid(), 9)\n"
        "    data = os_.read(read, scores.numel() * 4)\n"
        "    return torch.tensor(memoryview(data).cast('f').tolist()).reshape(scores.shape)\n"
    )}, {"stable_softmax"}, "another process"),
    "dataloader_worker": (BY_HAND, {"stable_softmax": (
        "import torch\n\n"
        "class Rows(torch.utils.data.Dataset):\n"
        "    def __init__(self, scores, dim):\n"
        "        self.scores, self.dim = scores, dim\n"
        "    def __len__(self):\n"
        "        return 1\n"
        "    def __getitem__(self, i):\n"
        "        return torch.softmax(self.scores, self.dim)\n\n" + SOFTMAX_HEAD +
        "    loader = torch.utils.data.DataLoader(Rows(scores, dim), num_workers=1,\n"
        "                                         batch_size=None)\n"
        "    return next(iter(loader))\n"
    )}, {"stable_softmax"}, "another process"),
    # -- the work done after the record closes ------------------------------------------------
    "lazy_tensor_subclass": (BY_HAND, {"stable_softmax": (
        "import torch\n\n"
        "Base = torch.Tensor  # the class by an alias the text check would not read\n\n"
        "class Later(Base):\n"
        "    def detach(self):\n"
        "        return torch.softmax(self.s, self.d)\n"
        "    def tolist(self):\n"
        "        return torch.softmax(self.s, self.d).tolist()\n\n" + SOFTMAX_HEAD +
        "    out = torch.zeros_like(scores).as_subclass(Later)\n"
        "    out.s, out.d = scores, dim\n"
        "    return out\n"
    )}, {"stable_softmax"}, "return the built-in type itself"),
    "lazy_tuple_subclass": (GRADIENTS, {"attention_backward": (
        "import torch\n\n"
        "class Grads(tuple):\n"
        "    def __iter__(self):\n"
        "        q, k, v, g = (t.detach().requires_grad_() for t in self[0])\n"
        "        out = torch.softmax(q @ k.transpose(-2, -1) / k.shape[-1] ** 0.5, -1) @ v\n"
        "        return iter(torch.autograd.grad(out, (q, k, v), g))\n"
        "    def __getitem__(self, i):\n"
        "        if isinstance(i, int) and i >= 0:\n"
        "            return list(self)[i]\n"
        "        return tuple.__getitem__(self, i)\n\n"
        "def attention_backward(queries, keys, values, grad_context):\n"
        "    return Grads([(queries, keys, values, grad_context), None, None])\n"
    )}, {"attention_backward"}, "should be a torch.Tensor"),
    # -- the recorder switched off with public objects ---------------------------------------
    "function_mode_exit": (BY_HAND, {"stable_softmax": (
        "import torch\n\n" + SOFTMAX_HEAD +
        "    try:\n"
        "        torch.overrides.TorchFunctionMode().__exit__(None, None, None)\n"
        "    except Exception:\n"
        "        pass\n"
        "    return torch.softmax(scores, dim)\n"
    )}, {"stable_softmax"}, "off torch's stack"),
    "device_exit": (BY_HAND, {"stable_softmax": (
        "import torch\n\n" + SOFTMAX_HEAD +
        "    try:\n"
        "        torch.device('cpu').__exit__(None, None, None)\n"
        "    except Exception:\n"
        "        pass\n"
        "    return torch.softmax(scores, dim)\n"
    )}, {"stable_softmax"}, "no built-in softmax"),
    "flop_counter_exit": (BY_HAND, {"stable_softmax": (
        "import torch\nimport torch.utils.flop_counter\n\n" + SOFTMAX_HEAD +
        "    counter = torch.utils.flop_counter.FlopCounterMode(display=False)\n"
        "    try:\n"
        "        counter.__exit__(None, None, None)\n"
        "    except Exception:\n"
        "        pass\n"
        "    return torch.softmax(scores, dim)\n"
    )}, {"stable_softmax"}, "no built-in softmax"),
    "pops_through_pickle": (BY_HAND, {"stable_softmax": (
        "import torch\n\n" + SOFTMAX_HEAD +
        "    pop = torch.serialization.pickle.loads(\n"
        "        b'ctorch._C\\n_pop_torch_dispatch_stack\\n.')\n"
        "    pop(None)\n"
        "    return torch.softmax(scores, dim)\n"
    )}, {"stable_softmax"}, "pickle"),
    # -- the call hook cleared, the record edited ---------------------------------------------
    "profiler_clears_the_hook": (SCORING, {"loop_attention": (
        "import math\nimport torch\n\n"
        "def loop_attention(X, W_Q, W_K, W_V):\n"
        "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
        "    with torch.profiler.profile():\n"
        "        pass\n"
        "    for i in range(X.shape[1]):\n"
        "        scaled_dot_score(K[:, 0], Q[:, i])  # one call per query, none used\n"
        "    return V @ torch.softmax(K.T @ Q / math.sqrt(Q.shape[0]), dim=0)\n"
    )}, {"loop_attention"}, "uses profiler"),
    "set_profile_through_ctypes": (BY_HAND, {"stable_softmax": (
        "import numpy\nimport torch\n\n" + SOFTMAX_HEAD +
        "    api = numpy.ctypeslib.ctypes.pythonapi\n"
        "    api.PyEval_SetProfile(None, None)\n"
        "    return torch.softmax(scores, dim)\n"
    )}, {"stable_softmax"}, "ctypes"),
    "agent_through_pickle": (BY_HAND, {"stable_softmax": (
        "import pickle\nimport torch\n\n" + SOFTMAX_HEAD +
        "    agent = pickle.loads(b'c__main__\\n__kit__\\n.')\n"
        "    agent.record = None\n"
        "    return torch.softmax(scores, dim)\n"
    )}, {"stable_softmax"}, "pickle"),
    # -- the work inside the stand-in for an earlier step -------------------------------------
    "inside_the_stand_in": (BLOCK, {"TransformerBlock": (
        "import torch\nfrom torch import nn\n\n"
        "class Lazy(list):\n"
        "    def __iter__(self):\n"
        "        self.done = self.attention(self[0])\n"
        "        return list.__iter__(self)\n\n"
        + BLOCK_INIT + BLOCK_COPIED +
        "    def forward(self, x, attn_mask=None):\n"
        "        lazy = Lazy([x])\n"
        "        lazy.attention = lambda h: self.attn(h, h, h, attn_mask=attn_mask,\n"
        "                                             need_weights=False)[0]\n"
        "        layer_norm(lazy, self.gamma1, self.beta1)\n"
        "        x = x + lazy.done\n"
        "        return x + feed_forward(layer_norm(x, self.gamma2, self.beta2), self.W1,\n"
        "                                self.b1, self.W2, self.b2)\n"
    )}, {"TransformerBlock"}, "TransformerBlock"),
    # -- private torch through an alias --------------------------------------------------------
    "private_through_alias": (BY_HAND, {"stable_softmax": (
        "import torch\n\nlib = torch\n\n" + SOFTMAX_HEAD +
        "    return lib._refs.softmax(scores, dim)\n"
    )}, {"stable_softmax"}, "_refs"),
    # -- rules that saw only torch --------------------------------------------------------------
    "numpy_whole_matrix": (GRADIENTS, {"online_attention": (
        "import math\nimport numpy as np\nimport torch\n\n"
        "def online_attention(queries, keys, values, block_size):\n"
        "    q, k, v = (np.asarray(t, dtype=np.float32) for t in (queries, keys, values))\n"
        "    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(k.shape[-1])\n"
        "    out = np.zeros(q.shape[:-1] + (v.shape[-1],), dtype=np.float32)\n"
        "    peak = s.max(-1, keepdims=True)\n"
        "    w = np.exp(s - peak)\n"
        "    total = w.sum(-1, keepdims=True)\n"
        "    for start in range(0, k.shape[-2], block_size):\n"
        "        out += w[..., start:start + block_size] @ v[..., start:start + block_size, :]\n"
        "    return torch.from_numpy(out / total)\n"
    )}, {"online_attention"}, "numpy"),
    "complex_pairs": (GRADIENTS, {"online_attention": (
        "import math\nimport torch\n\n"
        "def online_attention(queries, keys, values, block_size):\n"
        "    n = keys.shape[-2]\n"
        "    half = (n + 1) // 2\n"
        "    k = torch.cat([keys, keys[..., :half * 2 - n, :]], dim=-2)\n"
        "    pairs = torch.complex(queries @ k[..., :half, :].transpose(-2, -1),\n"
        "                          queries @ k[..., half:, :].transpose(-2, -1))\n"
        "    s = torch.cat([pairs.real, pairs.imag], dim=-1)[..., :n] / "
        "math.sqrt(keys.shape[-1])\n"
        "    out = torch.zeros(*queries.shape[:-1], values.shape[-1])\n"
        "    m = torch.full_like(queries[..., :1], float('-inf'))\n"
        "    total = torch.zeros_like(m)\n"
        "    for start in range(0, n, block_size):\n"
        "        block = s[..., start:start + block_size]\n"
        "        new = torch.maximum(m, block.amax(-1, keepdim=True))\n"
        "        e = torch.exp(block - new)\n"
        "        scale = torch.exp(m - new)\n"
        "        total = total * scale + e.sum(-1, keepdim=True)\n"
        "        out = out * scale + e @ values[..., start:start + block_size, :]\n"
        "        m = new\n"
        "    return out / total\n"
    )}, {"online_attention"}, "whole score matrix"),
    "exp2_mask": (GRADIENTS, {"cached_causal_attention": (
        "import math\nimport torch\n\n"
        "def cached_causal_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    n = x.shape[-2]\n"
        "    s = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1]) * math.log2(math.e)\n"
        "    s = s.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float('-inf'))\n"
        "    w = torch.exp2(s - s.amax(-1, keepdim=True))\n"
        "    return w / w.sum(-1, keepdim=True) @ v\n"
    )}, {"cached_causal_attention"}, "future positions"),
    # -- text rules -----------------------------------------------------------------------------
    "loop_through_getitem": (SELF, {"self_attention": (
        "import math\nimport torch\n\n"
        "class Rows:\n"
        "    def __init__(self, scores):\n"
        "        self.scores = scores\n"
        "    def __getitem__(self, i):\n"
        "        if i >= self.scores.shape[-2]:\n"
        "            raise IndexError(i)\n"
        "        return torch.softmax(self.scores[..., i, :], dim=-1)\n\n"
        "def self_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    scores = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])\n"
        "    return torch.stack(list(Rows(scores)), dim=-2) @ v\n"
    )}, {"self_attention"}, "loop"),
    "recursive_lambda": (SELF, {"self_attention": (
        "import math\nimport torch\n\n"
        "def self_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    s = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])\n"
        "    rows = (lambda f, i: [] if i == s.shape[-2] else [torch.softmax(s[..., i, :], -1)]"
        " + f(f, i + 1))\n"
        "    return torch.stack(rows(rows, 0), dim=-2) @ v\n"
    )}, {"self_attention"}, "calls itself"),
    # a helper's of 2026-12-05: torch's own loop over modules, a loop numpy made at module level
    "sequential_turns": (SCORING, {"vectorized_attention": (
        "import math\nimport torch\n\n"
        "class OneQuery(torch.nn.Module):\n"
        "    def forward(self, state):\n"
        "        i, Q, K, V, cols = state\n"
        "        w = torch.softmax(K.T @ Q[:, i] / math.sqrt(K.shape[0]), dim=0)\n"
        "        return (i + 1, Q, K, V, cols + (V @ w,))\n\n"
        "def vectorized_attention(X, W_Q, W_K, W_V):\n"
        "    turns = torch.nn.Sequential(*[OneQuery()] * X.shape[1])\n"
        "    return torch.stack(turns((0, W_Q @ X, W_K @ X, W_V @ X, ()))[-1], dim=1)\n"
    )}, {"vectorized_attention"}, "Sequential"),
    "module_level_vectorize": (SCORING, {"vectorized_attention": (
        "import math\nimport numpy as np\nimport torch\n\n"
        "def column(i, Q, K, V):\n"
        "    return V @ torch.softmax(K.T @ Q[:, int(i)] / math.sqrt(K.shape[0]), dim=0)\n\n"
        "EACH_QUERY = np.vectorize(column, otypes=[object], excluded={1, 2, 3})\n\n"
        "def vectorized_attention(X, W_Q, W_K, W_V):\n"
        "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
        "    return torch.stack(list(EACH_QUERY(np.arange(X.shape[1]), Q, K, V)), dim=1)\n"
    )}, {"vectorized_attention"}, "vectorize"),
    # a helper's of 2026-12-05: the course's own probe loops over the positions and calls
    # back what it is given (public tests passing, full marks, before the helper cell's own
    # code was removed from where steps are judged)
    "course_probe_loops": (SCORING, {"vectorized_attention": (
        "import math\nimport torch\n\n"
        "class Columns:\n"
        "    def __init__(self, Q, K, V):\n"
        "        self.Q, self.K, self.V, self.cols = Q, K, V, []\n"
        "    def __call__(self, change):\n"
        "        i = change['spans'][0] - 1\n"
        "        w = torch.softmax(self.K.T @ self.Q[:, i] / math.sqrt(self.K.shape[0]), dim=0)\n"
        "        self.cols.append(self.V @ w)\n"
        "        return None, 0\n\n"
        "def vectorized_attention(X, W_Q, W_K, W_V):\n"
        "    each = Columns(W_Q @ X, W_K @ X, W_V @ X)\n"
        "    spans_probe({'arg': 0}, each, None, ((X.T,), {}), torch.Generator())\n"
        "    return torch.stack(each.cols, dim=1)\n"
    )}, {"vectorized_attention"}, "spans_probe"),
    # -- calls that count without being used ---------------------------------------------------
    "unused_score_per_query": (SCORING, {"loop_attention": (
        "import math\nimport torch\n\n"
        "def loop_attention(X, W_Q, W_K, W_V):\n"
        "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
        "    for i in range(X.shape[1]):\n"
        "        for j in range(X.shape[1]):\n"
        "            scaled_dot_score(K[:, j], Q[:, i])\n"
        "    return V @ torch.softmax(K.T @ Q / math.sqrt(Q.shape[0]), dim=0)\n"
    )}, {"loop_attention"}, "not used"),
    "unused_norm_sdpa": (BLOCK, {"TransformerBlock": (
        "import torch\nimport torch.nn.functional as F\nfrom torch import nn\n\n"
        + BLOCK_INIT +
        "    @classmethod\n"
        "    def from_torch(cls, layer):\n"
        "        block = cls(layer.self_attn.embed_dim, layer.self_attn.num_heads,\n"
        "                    layer.linear1.out_features)\n"
        "        block.layer = layer\n"
        "        return block\n"
        "    def forward(self, x, attn_mask=None):\n"
        "        layer_norm(x, self.gamma1, self.beta1)  # called, not used\n"
        "        feed_forward(x, self.W1, self.b1, self.W2, self.b2)\n"
        "        F.scaled_dot_product_attention(x[:, None], x[:, None], x[:, None])\n"
        "        return self.layer(x, src_mask=attn_mask) if hasattr(self, 'layer') else x\n"
    )}, {"TransformerBlock"}, "not used"),
    # a helper's attack (2026-12-04, late): each call made on zeroed weights and added to
    # the same work done inline, so that a change of what it gives reaches the output
    "zeros_added": (BLOCK, {"TransformerBlock": (
        "import math\nimport torch\nimport torch.nn.functional as F\nfrom torch import nn\n\n"
        + DUMMY_CALLS)}, {"TransformerBlock"}, "not used"),
    "unused_bmm": (MULTI, {"multihead_project": (
        "import torch\n\n"
        "def multihead_project(x, W):\n"
        "    torch.bmm(W, x.transpose(0, 1).expand(W.shape[0], -1, -1))  # called, not used\n"
        "    return x @ W.transpose(1, 2)\n"
    )}, {"multihead_project"}, "does not change"),
    "one_query_over_every_key": (GRADIENTS, {"online_attention": (
        "import math\nimport torch\n\n"
        "def online_attention(queries, keys, values, block_size):\n"
        "    rows = []\n"
        "    for i in range(queries.shape[-2]):\n"
        "        s = queries[..., i:i + 1, :] @ keys.transpose(-2, -1) / "
        "math.sqrt(keys.shape[-1])\n"
        "        w = torch.exp(s - s.amax(-1, keepdim=True))\n"
        "        rows.append(w / w.sum(-1, keepdim=True) @ values)\n"
        "    return torch.cat(rows, dim=-2)\n"
    )}, {"online_attention"}, "more than a block"),
    "softmaxes_beside_a_mask": (GRADIENTS, {"cached_causal_attention": (
        "import math\nimport torch\n\n"
        "def cached_causal_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    n = x.shape[-2]\n"
        "    for t in range(1, n + 1):\n"
        "        torch.softmax(torch.zeros(t), dim=-1)\n"
        "    s = (q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])).masked_fill(\n"
        "        torch.ones(n, n, dtype=torch.bool).triu(1), float('-inf'))\n"
        "    return torch.softmax(s, dim=-1) @ v\n"
    )}, {"cached_causal_attention"}, "future positions"),
    "logsumexp_softmax": (BY_HAND, {"stable_softmax": (
        "import torch\n\n" + SOFTMAX_HEAD +
        "    return torch.exp(scores - torch.logsumexp(scores, dim=dim, keepdim=True))\n"
    )}, {"stable_softmax"}, "logsumexp"),
}

HONEST = {
    "float_info": (BY_HAND, {"stable_softmax": (
        "import sys\nimport torch\n\n" + SOFTMAX_HEAD +
        "    exps = torch.exp(scores - scores.amax(dim=dim, keepdim=True))\n"
        "    return exps / exps.sum(dim=dim, keepdim=True).clamp_min(sys.float_info.min)\n"
    )}, set(), ""),
    "debug_print": (BY_HAND, {"stable_softmax": (
        "import torch\n\n" + SOFTMAX_HEAD +
        "    peak = scores.amax(dim=dim, keepdim=True)\n"
        "    print('peak', peak)  # a print left in\n"
        "    exps = torch.exp(scores - peak)\n"
        "    return exps / exps.sum(dim=dim, keepdim=True)\n"
    )}, set(), ""),
    "grad_fn_named_function": (GRADIENTS, {"softmax_backward": (
        "import torch\n\n"
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    def grad_fn(w, g):\n"
        "        return w * (g - (w * g).sum(dim=dim, keepdim=True))\n"
        "    return grad_fn(weights, grad_weights)\n"
    )}, set(), ""),
    "own_class_name_and_getattr_self": (MULTI, {"MultiHeadAttention": lambda solved: solved.replace(
        'raise ValueError(f"embed_dim', 'raise ValueError(f"{self.__class__.__name__}: embed_dim'
    ).replace(
        "    @classmethod\n    def from_torch(cls, mha):",
        "    def copy_from(self, other):\n"
        "        with torch.no_grad():\n"
        "            for name, param in other.named_parameters():\n"
        "                if '.' not in name:\n"
        "                    getattr(self, name).copy_(param)\n\n"
        "    @classmethod\n    def from_torch(cls, mha):")}, set(), ""),
    # torch.vmap registers decompositions the first time it runs, which a judging kernel's
    # guard refuses: the template runs it once (a helper's, 2026-12-05: 0 of 3, public tests
    # passed)
    "vmap_over_queries": (SCORING, {"vectorized_attention": (
        "import math\nimport torch\n\n"
        "def one_query(q, K, V):\n"
        "    return V @ torch.softmax(K.T @ q / math.sqrt(K.shape[0]), dim=0)\n\n"
        "def vectorized_attention(X, W_Q, W_K, W_V):\n"
        "    return torch.vmap(one_query, in_dims=(1, None, None), out_dims=1)(\n"
        "        W_Q @ X, W_K @ X, W_V @ X)\n"
    )}, set(), ""),
    "cache_as_a_column": (GRADIENTS, {"cached_causal_attention": (
        "import math\nimport torch\n\n"
        "def cached_causal_attention(x, W_query, W_key, W_value):\n"
        "    keys, values, outs = [], [], []\n"
        "    for t in range(x.shape[-2]):\n"
        "        q = x[..., t, :] @ W_query\n"
        "        keys.append(x[..., t, :] @ W_key)\n"
        "        values.append(x[..., t, :] @ W_value)\n"
        "        k, v = torch.stack(keys, dim=-2), torch.stack(values, dim=-2)\n"
        "        s = k @ q[..., :, None] / math.sqrt(k.shape[-1])  # (..., t + 1, 1)\n"
        "        e = torch.exp(s - s.amax(dim=-2, keepdim=True))\n"
        "        w = e / e.sum(dim=-2, keepdim=True)\n"
        "        outs.append((w * v).sum(dim=-2))\n"
        "    return torch.stack(outs, dim=-2)\n"
    )}, set(), ""),
}
