"""Are rules on operations decided on what the student's code computes, whatever the Python
path to it, and never on the names it mentions?

Each student here is code as a notebook would hold it, judged in-process by the step's hidden
check (the grader's own judge, on a LocalSubject that records its calls as the agent does in
the kernel). The evasions come from held-out students and red teams who kept full marks when
rules were read from names; the honest students were refused by names. The kernel path is
tests/autograder/grading/test_rules_graded.py.
"""

from __future__ import annotations

import pytest

from autograder.checks.draws import Draws
from autograder.checks.hidden import references_in
from autograder.checks.judge import step_findings
from autograder.checks.op_record import checked_record, new_record
from autograder.checks.operation_rules import decided, tampering
from autograder.checks.recorder import Recorder
from autograder.checks.subject import LocalSubject
from autograder.i18n import language
from tests.autograder.grading.rule_attacks import (
    BLOCK_COPIED,
    BLOCK_INIT,
    DUMMY_CALLS,
    NAMED_NORMS_HEAD,
)
from tests.course import STEPS, helpers_of

PRELUDE = "import math\nimport functools\nimport torch\nimport torch.nn.functional as F\n" \
          "from torch import nn\n"


def findings_of(name, code):
    """The Findings of step `name` on `code` (with the notebook's imports, and the earlier
    steps it uses as the references, as check_step puts them in the notebook)."""
    step = STEPS[name]
    namespace = {"__name__": "__main__"}
    exec(compile(PRELUDE + code, f"<student {name}>", "exec"), namespace)  # noqa: S102
    with language("en"), references_in(namespace, helpers_of(step)):
        return step_findings(step, LocalSubject(namespace[name], source=code),
                             helpers_of(step), Draws())


def rules_broken(name, code):
    return [f.text for f in findings_of(name, code) if f.kind == "rule"]


def other_findings(name, code):
    return [f.text for f in findings_of(name, code) if f.kind != "rule"]


# A copy of a torch MultiheadAttention (or of a module laid out as one) as torch.ao's
# quantizable module, which computes attention in Python from products and a softmax.
PLAIN_TWIN = (
    "from torch.ao.nn.quantizable import MultiheadAttention as Plain\n\n"
    "def plain_twin(mha):\n"
    "    E = mha.embed_dim\n"
    "    twin = Plain(E, mha.num_heads)  # (L, N, E): its batch_first gives other numbers\n"
    "    with torch.no_grad():\n"
    "        for i, linear in enumerate((twin.linear_Q, twin.linear_K, twin.linear_V)):\n"
    "            linear.weight.copy_(mha.in_proj_weight[i * E:(i + 1) * E])\n"
    "            linear.bias.copy_(mha.in_proj_bias[i * E:(i + 1) * E])\n"
    "        twin.out_proj.weight.copy_(mha.out_proj.weight)\n"
    "        twin.out_proj.bias.copy_(mha.out_proj.bias)\n"
    "    return twin\n\n")
# The head of a MultiHeadAttention laid out as torch's (05's step 4), before its forward.
MHA_HEAD = (
    "class MultiHeadAttention(nn.Module):\n"
    "    def __init__(self, embed_dim, num_heads):\n"
    "        super().__init__()\n"
    "        self.embed_dim, self.num_heads = embed_dim, num_heads\n"
    "        self.in_proj_weight = nn.Parameter(torch.empty(3 * embed_dim, embed_dim))\n"
    "        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))\n"
    "        self.out_proj = nn.Linear(embed_dim, embed_dim)\n"
    "        nn.init.xavier_uniform_(self.in_proj_weight)\n"
    "    @classmethod\n"
    "    def from_torch(cls, mha):\n"
    "        module = cls(mha.embed_dim, mha.num_heads)\n"
    "        module.load_state_dict(mha.state_dict())\n"
    "        return module\n")

HAND_NORM = ("    mean = x.mean(dim=-1, keepdim=True)\n"
             "    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)\n")

TRACED = ("import functools\n\n"
          "def traced(f):\n"
          "    @functools.wraps(f)\n"
          "    def run(*args, **kwargs):\n"
          "        return f(*args, **kwargs)\n"
          "    return run\n\n")
SCORE_BY_HAND = ("def scaled_dot_score(k, q):\n"
                 "    return torch.dot(k, q) / math.sqrt(k.shape[0])\n\n")
SCALE_BY_SCORE = ("def vectorized_attention(X, W_Q, W_K, W_V):\n"
                  "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
                  "    scale = scaled_dot_score(torch.ones(K.shape[0]), torch.ones(K.shape[0]))\n"
                  "    return V @ torch.softmax(K.transpose(0, 1) @ Q / scale, dim=0)\n")
LOOP_BY_HAND = ("def loop_attention(X, W_Q, W_K, W_V):\n"
                "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
                "    outputs = []\n"
                "    for i in range(X.shape[1]):\n"
                "        scores = torch.stack([scaled_dot_score(K[:, j], Q[:, i])\n"
                "                              for j in range(X.shape[1])])\n"
                "        outputs.append(V @ torch.softmax(scores, dim=0))\n"
                "    return torch.stack(outputs, dim=1)\n")
# An earlier step taken in as a default value, where the definition runs
SCORE_BY_DEFAULT = ("def vectorized_attention(X, W_Q, W_K, W_V, s=scaled_dot_score):\n"
                    "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
                    "    scores = K.transpose(0, 1) @ Q / math.sqrt(K.shape[0])\n"
                    "    scores[0, 0] = s(K[:, 0], Q[:, 0])\n"
                    "    return V @ torch.softmax(scores, dim=0)\n")
LOOP_BY_DEFAULT = LOOP_BY_HAND.replace("W_V):", "W_V, score=scaled_dot_score):").replace(
    "scaled_dot_score(K", "score(K")
SCORE_FROM_A_TABLE = SCORE_BY_DEFAULT.replace(", s=scaled_dot_score):", "):").replace(
    "s(K[:, 0]", "SCORES['scaled'](K[:, 0]")
LOOP_FROM_A_TABLE = LOOP_BY_HAND.replace("scaled_dot_score(K", "SCORES['scaled'](K")
TABLE = "SCORES = {'scaled': scaled_dot_score}\n\n"
# An earlier step held in a closure's cell, where the function is made
LOOP_IN_A_CLOSURE = ("def attention_with(score):\n"
                     + "".join("    " + line + "\n" for line in LOOP_BY_DEFAULT.replace(
                         "loop_attention(X, W_Q, W_K, W_V, score=scaled_dot_score)",
                         "attend(X, W_Q, W_K, W_V)").splitlines())
                     + "    return attend\n\nloop_attention = attention_with(scaled_dot_score)\n")
SCORE_IN_A_CLOSURE = ("def made(s):\n"
                      + "".join("    " + line + "\n" for line in SCORE_BY_DEFAULT.replace(
                          "vectorized_attention(X, W_Q, W_K, W_V, s=scaled_dot_score)",
                          "attend(X, W_Q, W_K, W_V)").splitlines())
                      + "    return attend\n\nvectorized_attention = made(scaled_dot_score)\n")

# A softmax's gradient by complex steps in Python floats, its numbers taken out of torch by a
# function `numbers(tensor)` each evasion below defines its own way.
COMPLEX_STEPS_IN_PYTHON = (
    "def softmax_backward(weights, grad_weights, dim=-1):\n"
    "    w_t = weights.movedim(dim, -1)\n"
    "    n, w = w_t.shape[-1], numbers(w_t)\n"
    "    g, out = numbers(grad_weights.movedim(dim, -1)), []\n"
    "    for r in range(0, len(w), n):\n"
    "        for j in range(n):\n"
    "            e = [w[r + k] * (cmath.exp(1e-30j) if k == j else 1) for k in range(n)]\n"
    "            ratio = sum(a * b for a, b in zip(e, g[r:r + n])) / sum(e)\n"
    "            out.append(ratio.imag / 1e-30)\n"
    "    return torch.tensor(out, dtype=weights.dtype).reshape(w_t.shape).movedim(-1, dim)\n")

EVASIONS = {
    "vectorized_attention calling scaled_dot_score kept in a table": (
        "vectorized_attention", SCORE_BY_HAND + TABLE + SCORE_FROM_A_TABLE,
        "it called scaled_dot_score"),
    "vectorized_attention calling scaled_dot_score taken in as a default value": (
        "vectorized_attention", SCORE_BY_HAND + SCORE_BY_DEFAULT, "it called scaled_dot_score"),
    "vectorized_attention calling scaled_dot_score held in a closure's cell": (
        "vectorized_attention", SCORE_BY_HAND + SCORE_IN_A_CLOSURE, "it called scaled_dot_score"),
    # the notebook finds the student's code behind a wrapper, as grading does
    "vectorized_attention calling scaled_dot_score, both under one decorator": (
        "vectorized_attention", TRACED + "@traced\n" + SCORE_BY_HAND + "@traced\n"
        + SCALE_BY_SCORE, "it called scaled_dot_score"),
    "vectorized_attention calling scaled_dot_score under torch.no_grad": (
        "vectorized_attention", SCORE_BY_HAND + "@torch.no_grad()\n" + SCALE_BY_SCORE,
        "it called scaled_dot_score"),
    "loop_attention calling scaled_dot_score once, under a wrapper of *args": (
        "loop_attention", TRACED + "@traced\n"
        "def loop_attention(X, W_Q, W_K, W_V):\n"
        "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
        "    scores = K.transpose(0, 1) @ Q / math.sqrt(K.shape[0])\n"
        "    scores[0, 0] = scaled_dot_score(K[:, 0], Q[:, 0])\n"
        "    return V @ torch.softmax(scores, dim=0)\n", "scaled_dot_score once for 16 pairs"),
    # the query-key loop scored by hand only where the key is the query's own (a helper's
    # attack: one call per query passed a count of queries)
    "loop_attention vectorised, scaled_dot_score on the diagonal only": ("loop_attention",
        "def loop_attention(X, W_Q, W_K, W_V):\n"
        "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
        "    scores = K.T @ Q / math.sqrt(K.shape[0])\n"
        "    own = torch.stack([scaled_dot_score(K[:, i], Q[:, i]) for i in range(X.shape[1])])\n"
        "    scores = scores + torch.diag(own - scores.diagonal())\n"
        "    return V @ torch.softmax(scores, dim=0)\n", "pairs of a query and a key"),
    "loop_attention calling scaled_dot_score on every pair, using the diagonal only": (
        "loop_attention",
        "def loop_attention(X, W_Q, W_K, W_V):\n"
        "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
        "    N = X.shape[1]\n"
        "    every = [[scaled_dot_score(K[:, j], Q[:, i]) for j in range(N)] for i in range(N)]\n"
        "    scores = K.T @ Q / math.sqrt(K.shape[0])\n"
        "    own = torch.stack([every[i][i] for i in range(N)])\n"
        "    scores = scores + torch.diag(own - scores.diagonal())\n"
        "    return V @ torch.softmax(scores, dim=0)\n", "not used"),
    "torch's softmax under functools.lru_cache": ("stable_softmax",
        "import functools\n\n"
        "@functools.lru_cache(maxsize=None)\n"
        "def stable_softmax(scores, dim=-1):\n"
        "    return torch.softmax(scores, dim)\n", "ran torch's softmax"),
    "torch's softmax in an object called as a function": ("stable_softmax",
        "class Softmax:\n"
        "    def __call__(self, scores, dim=-1):\n"
        "        return torch.softmax(scores, dim)\n\n"
        "stable_softmax = Softmax()\n", "ran torch's softmax"),
    "layer_norm through F.instance_norm": ("layer_norm",
        "def layer_norm(x, gamma, beta, eps=1e-5):\n"
        "    flat = x.reshape(-1, 1, x.shape[-1])\n"
        "    return F.instance_norm(flat, eps=eps).reshape(x.shape) * gamma + beta\n",
        "instance_norm"),
    "layer_norm through a module alias": ("layer_norm", "ops = torch.nn.functional\n\n"
        "def layer_norm(x, gamma, beta, eps=1e-5):\n"
        "    return ops.layer_norm(x, x.shape[-1:], gamma, beta, eps)\n", "layer_norm"),
    # a helper's attack on 08 (2026-12-04, late): torch's fused encoder layer, reached
    # through a parameter (the text's check follows names bound to a library, not a
    # function's parameter), runs its layer norms inside, where nothing is recorded
    "layer_norm by torch's fused encoder layer reached through a parameter": ("layer_norm",
        "def fused(lib):\n"
        "    return lib._transformer_encoder_layer_fwd\n\n"
        "def layer_norm(x, gamma, beta, eps=1e-5):\n"
        "    block = fused(torch)\n"
        "    d = x.shape[-1]\n"
        "    E, S = 2 * d, 1e8\n"
        "    eye, zeros = torch.eye(E), torch.zeros(E)\n"
        "    wide = torch.cat([x, x], dim=-1).reshape(-1, 1, E)\n"
        "    out = block(wide, E, 2, torch.zeros(3 * E, E), torch.zeros(3 * E),\n"
        "                torch.zeros(E, E), zeros, False, True, eps, torch.ones(E), zeros,\n"
        "                torch.cat([gamma, gamma]), torch.cat([beta, beta]),\n"
        "                torch.cat([eye, -eye]), torch.zeros(2 * E),\n"
        "                torch.cat([eye, -eye], dim=1) * S, zeros)\n"
        "    return ((out - wide) / S)[..., :d].reshape(x.shape)\n", "transformer_encoder_layer"),
    "a block whose calls of layer_norm, feed_forward and attention add zeros": (
        "TransformerBlock", DUMMY_CALLS, "calls your layer_norm"),
    # a second helper's attacks the same night: the mean by hand, the rest by a built-in
    "layer_norm through F.local_response_norm": ("layer_norm",
        "def layer_norm(x, gamma, beta, eps=1e-5):\n"
        "    d = x.shape[-1]\n"
        "    c = x - x.mean(dim=-1, keepdim=True)\n"
        "    n = F.local_response_norm(c.reshape(-1, d, 1), 2 * d - 1, alpha=(2 * d - 1) / d,\n"
        "                              beta=0.5, k=eps)\n"
        "    return n.reshape(x.shape) * gamma + beta\n", "local_response_norm"),
    "layer_norm through F.normalize": ("layer_norm",
        "def layer_norm(x, gamma, beta, eps=1e-5):\n"
        "    d = x.shape[-1]\n"
        "    c = x - x.mean(dim=-1, keepdim=True)\n"
        "    pad = torch.full(c.shape[:-1] + (1,), (d * eps) ** 0.5)\n"
        "    n = F.normalize(torch.cat([c, pad], dim=-1), dim=-1)[..., :d] * d ** 0.5\n"
        "    return n * gamma + beta\n", "normalize"),
    "layer_norm through var_mean": ("layer_norm", "def layer_norm(x, gamma, beta, eps=1e-5):\n"
        "    var, mean = torch.var_mean(x, dim=-1, keepdim=True, unbiased=False)\n"
        "    return (x - mean) / torch.sqrt(var + eps) * gamma + beta\n", "var_mean"),
    "softmax_backward through torch._functorch.apis.grad": ("softmax_backward",
        "from torch._functorch.apis import grad\n\n"
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    scores = torch.log(weights)\n"
        "    return grad(lambda s: (torch.softmax(s, dim) * grad_weights).sum())(scores)\n",
        "_functorch"),
    "softmax_backward through torch.func.grad": ("softmax_backward",
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    scores = torch.log(weights)\n"
        "    return torch.func.grad(lambda s: (torch.softmax(s, dim) * grad_weights).sum())"
        "(scores)\n", "autograd"),
    "softmax_backward through aten's _softmax_backward_data": ("softmax_backward",
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    return torch.ops.aten._softmax_backward_data(grad_weights, weights, dim,\n"
        "                                                 weights.dtype)\n",
        "_softmax_backward_data"),
    # 2026-12-05: gradients by differences of the loss in float64 met every tolerance
    "softmax_backward by central differences, a column at a time": ("softmax_backward",
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    scores, eps = weights.double().log(), 1e-6\n"
        "    out = torch.empty_like(scores)\n"
        "    for j in range(scores.shape[dim]):\n"
        "        step = torch.zeros_like(scores)\n"
        "        step.select(dim, j).fill_(eps)\n"
        "        moved = torch.softmax(scores + step, dim) - torch.softmax(scores - step, dim)\n"
        "        out.select(dim, j).copy_((moved * grad_weights).sum(dim) / (2 * eps))\n"
        "    return out.to(weights.dtype)\n", "times the"),
    "softmax_backward by central differences in numpy": ("softmax_backward",
        "import numpy as np\n\n"
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    scores, upstream = np.log(weights.double().numpy()), grad_weights.double().numpy()\n"
        "    def soft(s):\n"
        "        e = np.exp(s - s.max(dim, keepdims=True))\n"
        "        return e / e.sum(dim, keepdims=True)\n"
        "    out = np.empty_like(scores)\n"
        "    for at in np.ndindex(*scores.shape):\n"
        "        step = np.zeros_like(scores)\n"
        "        step[at] = 1e-6\n"
        "        out[at] = ((soft(scores + step) - soft(scores - step)) * upstream).sum() / 2e-6\n"
        "    return torch.from_numpy(out).to(weights.dtype)\n", "shares a tensor's memory"),
    "softmax_backward by central differences in Python floats": ("softmax_backward",
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    w, g = weights.movedim(dim, -1), grad_weights.movedim(dim, -1)\n"
        "    rows = [([float(x) for x in wr], [float(x) for x in gr])\n"
        "            for wr, gr in zip(w.reshape(-1, w.shape[-1]), g.reshape(-1, w.shape[-1]))]\n"
        "    def loss(s, up):\n"
        "        e = [math.exp(x - max(s)) for x in s]\n"
        "        return sum(a / sum(e) * b for a, b in zip(e, up))\n"
        "    out = []\n"
        "    for wr, gr in rows:\n"
        "        s = [math.log(x) for x in wr]\n"
        "        out.append([(loss(s[:j] + [s[j] + 1e-6] + s[j + 1:], gr)\n"
        "                     - loss(s[:j] + [s[j] - 1e-6] + s[j + 1:], gr)) / 2e-6\n"
        "                    for j in range(len(s))])\n"
        "    return torch.tensor(out, dtype=weights.dtype).reshape(w.shape).movedim(-1, dim)\n",
        "one at a time"),
    "softmax_backward by complex steps, every column at once": ("softmax_backward",
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    s, h = weights.double().log().to(torch.complex128), 1e-30\n"
        "    steps = torch.eye(s.shape[dim], dtype=torch.complex128) * 1j * h\n"
        "    moved = s.movedim(dim, -1).unsqueeze(-2) + steps  # (..., L, L)\n"
        "    e = torch.exp(moved - moved.real.amax(-1, keepdim=True))\n"
        "    w = e / e.sum(-1, keepdim=True)\n"
        "    g = grad_weights.double().movedim(dim, -1).unsqueeze(-2)\n"
        "    return ((w * g).sum(-1).imag / h).movedim(-1, dim).to(weights.dtype)\n",
        "times the"),
    "softmax_backward by central differences with Richardson's step": ("softmax_backward",
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    s = weights.double().log().movedim(dim, -1)\n"
        "    g = grad_weights.double().movedim(dim, -1).unsqueeze(-2)\n"
        "    def slope(h):\n"
        "        steps = torch.eye(s.shape[-1], dtype=torch.float64) * h\n"
        "        up = torch.softmax(s.unsqueeze(-2) + steps, -1)\n"
        "        down = torch.softmax(s.unsqueeze(-2) - steps, -1)\n"
        "        return ((up - down) * g).sum(-1) / (2 * h)\n"
        "    return ((4 * slope(1e-4) - slope(2e-4)) / 3).movedim(-1, dim).to(weights.dtype)\n",
        "times the"),
    # 2026-12-05, a helper's four ways past the first version of the rule (counting only what
    # operations made, on every call): numbers shared with numpy by an alias made before any
    # call, a DLPack capsule, a tensor over a Python buffer, and a complex step whose K x K
    # perturbed rows are windows of one row, summed inside bmm
    "softmax_backward in numpy through arrays made to share a tensor's memory": (
        "softmax_backward",
        "import numpy as np\n"
        "SHARED = torch.zeros(1 << 16, dtype=torch.float64)\n"
        "SHARED_NP = SHARED.numpy()\n\n"
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    n = weights.numel()\n"
        "    SHARED[:n].view(weights.shape).copy_(weights * grad_weights)\n"
        "    SHARED[n:2 * n].view(weights.shape).copy_(weights)\n"
        "    p = SHARED_NP[:n].reshape(tuple(weights.shape))\n"
        "    w = SHARED_NP[n:2 * n].reshape(tuple(weights.shape))\n"
        "    SHARED_NP[:n] = (p - w * p.sum(axis=dim, keepdims=True)).reshape(-1)\n"
        "    return SHARED[:n].view(weights.shape).to(weights.dtype).clone()\n",
        "shares a tensor's memory"),
    "softmax_backward in numpy through a DLPack capsule": ("softmax_backward",
        "import numpy as np\n\n"
        "class Exported:\n"
        "    def __init__(self, t):\n"
        "        self.capsule = torch.utils.dlpack.to_dlpack(t)\n"
        "    def __dlpack__(self, **kw):\n"
        "        return self.capsule\n"
        "    def __dlpack_device__(self):\n"
        "        return (1, 0)\n\n"
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    w = np.from_dlpack(Exported(weights.contiguous()))\n"
        "    g = np.from_dlpack(Exported(grad_weights.contiguous()))\n"
        "    return torch.tensor(w * (g - (w * g).sum(axis=dim, keepdims=True)))\n",
        "dlpack, which reaches around"),
    "softmax_backward in Python over a tensor made on a buffer": ("softmax_backward",
        "BUFFER = bytearray(8 << 16)\n"
        "SHARED = torch.frombuffer(BUFFER, dtype=torch.float64)\n\n"
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    n = weights.numel()\n"
        "    SHARED[:n].copy_((weights * grad_weights).reshape(-1))\n"
        "    return (weights * grad_weights - weights * (weights * grad_weights).sum(dim, "
        "keepdim=True))\n", "frombuffer"),
    "softmax_backward by complex steps whose rows are windows summed in bmm": (
        "softmax_backward",
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    w, g = weights.movedim(dim, -1).double(), grad_weights.movedim(dim, -1).double()\n"
        "    k = w.shape[-1]\n"
        "    rows = w.reshape(-1, k)\n"
        "    both_w = torch.cat([rows, rows], dim=1)\n"
        "    both_p = torch.cat([rows * g.reshape(-1, k)] * 2, dim=1)\n"
        "    win_w, win_p = both_w.unfold(1, k, 1)[:, :k], both_p.unfold(1, k, 1)[:, :k]\n"
        "    h = 1e-20\n"
        "    c = torch.zeros(rows.shape[0], k, 2, dtype=torch.float64)\n"
        "    c[:, :, 0] = 1.0\n"
        "    c[:, 0, 0], c[:, 0, 1] = math.cos(h), math.sin(h)\n"
        "    num = torch.view_as_complex(torch.bmm(win_p, c).contiguous())\n"
        "    den = torch.view_as_complex(torch.bmm(win_w, c).contiguous())\n"
        "    grad = ((num / den).imag / h).reshape(w.shape)\n"
        "    return grad.movedim(-1, dim).to(weights.dtype)\n", "times the"),
    "softmax_backward through a whole Jacobian of each softmax": ("softmax_backward",
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    w = weights.movedim(dim, -1)\n"
        "    g = grad_weights.movedim(dim, -1)\n"
        "    jacobian = torch.diag_embed(w) - w[..., :, None] * w[..., None, :]\n"
        "    return (jacobian @ g[..., :, None])[..., 0].movedim(-1, dim)\n", "times the"),
    "attention_backward by central differences, every entry at once": ("attention_backward",
        "def attention_backward(queries, keys, values, grad_context):\n"
        "    def forward(q, k, v):\n"
        "        return torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1]), -1) @ v\n"
        "    inputs = [queries.double(), keys.double(), values.double()]\n"
        "    grads = []\n"
        "    for which, x in enumerate(inputs):\n"
        "        n = x.numel()\n"
        "        steps = (torch.eye(n, dtype=torch.float64) * 1e-6).view(n, *x.shape)\n"
        "        up, down = [t.unsqueeze(0) for t in inputs], [t.unsqueeze(0) for t in inputs]\n"
        "        up[which], down[which] = x + steps, x - steps\n"
        "        moved = (forward(*up) - forward(*down)) * grad_context.double()\n"
        "        grads.append((moved.flatten(1).sum(1) / 2e-6).view(x.shape).to(x.dtype))\n"
        "    return tuple(g.to(queries.dtype) for g in grads)\n", "times the"),
    "attention_backward through a whole Jacobian of each query's softmax": (
        "attention_backward",
        "def attention_backward(queries, keys, values, grad_context):\n"
        "    scale = 1 / math.sqrt(keys.shape[-1])\n"
        "    w = torch.softmax(queries @ keys.transpose(-2, -1) * scale, dim=-1)\n"
        "    jacobian = torch.diag_embed(w) - w[..., :, None] * w[..., None, :]\n"
        "    grad_w = grad_context @ values.transpose(-2, -1)\n"
        "    grad_s = (jacobian @ grad_w[..., :, None])[..., 0] * scale\n"
        "    return (grad_s @ keys, grad_s.transpose(-2, -1) @ queries,\n"
        "            w.transpose(-2, -1) @ grad_context)\n", "times the"),
    "attention_backward through torch.func.vjp, named by strings": ("attention_backward",
        "def attention_backward(queries, keys, values, grad_context):\n"
        "    vjp = torch.func.vjp\n"
        "    def forward(q, k, v):\n"
        "        s = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])\n"
        "        return torch.softmax(s, dim=-1) @ v\n"
        "    _, pullback = vjp(forward, queries, keys, values)\n"
        "    return pullback(grad_context)\n", "autograd"),
    "a block keeping torch's MultiheadAttention": ("TransformerBlock",
        BLOCK_INIT + BLOCK_COPIED +
        "    def forward(self, x, attn_mask=None):\n"
        "        h = layer_norm(x, self.gamma1, self.beta1)\n"
        "        x = x + self.attn(h, h, h, attn_mask=attn_mask, need_weights=False)[0]\n"
        "        return x + feed_forward(layer_norm(x, self.gamma2, self.beta2), self.W1,\n"
        "                                self.b1, self.W2, self.b2)\n",
        "multi_head_attention"),
    "MultiHeadAttention delegating to a TransformerEncoderLayer's self_attn": (
        "MultiHeadAttention",
        "class MultiHeadAttention(nn.Module):\n"
        "    def __init__(self, embed_dim, num_heads):\n"
        "        super().__init__()\n"
        "        inner = nn.TransformerEncoderLayer(embed_dim, num_heads, dropout=0.0).self_attn\n"
        "        self.held = [inner]  # not a submodule: its parameters laid out as torch's\n"
        "        self.in_proj_weight, self.in_proj_bias = inner.in_proj_weight, "
        "inner.in_proj_bias\n"
        "        self.out_proj = inner.out_proj\n"
        "        self.embed_dim, self.num_heads = embed_dim, num_heads\n"
        "    @classmethod\n"
        "    def from_torch(cls, mha):\n"
        "        block = cls(mha.embed_dim, mha.num_heads)\n"
        "        block.load_state_dict(mha.state_dict())\n"
        "        return block\n"
        "    def forward(self, query, key, value, key_padding_mask=None, attn_mask=None):\n"
        "        return self.held[0](query, key, value, key_padding_mask=key_padding_mask,\n"
        "                            attn_mask=attn_mask)\n", "multi_head_attention"),
    "MultiHeadAttention running torch.ao's quantizable module": ("MultiHeadAttention",
        PLAIN_TWIN + MHA_HEAD +
        "    def forward(self, query, key, value, key_padding_mask=None, attn_mask=None):\n"
        "        return plain_twin(self)(query, key, value, key_padding_mask=key_padding_mask,\n"
        "                                attn_mask=attn_mask)\n", "multi_head_attention_module"),
    "MultiHeadAttention calling forward of a subclass of torch.ao's quantizable module": (
        "MultiHeadAttention",
        PLAIN_TWIN + MHA_HEAD +
        "    def forward(self, query, key, value, key_padding_mask=None, attn_mask=None):\n"
        "        twin = plain_twin(self)\n"
        "        twin.__class__ = type('Mine', (type(twin),), {})\n"
        "        return twin.forward(query, key, value, key_padding_mask=key_padding_mask,\n"
        "                            attn_mask=attn_mask)\n", "multi_head_attention_module"),
    "MultiHeadAttention by torch.ao's module, its softmax swapped for one by hand": (
        "MultiHeadAttention",
        "import torch.ao.nn.quantizable.modules.activation as inner\n\n"
        "def by_hand(s, dim, **_):\n"
        "    e = (s - s.amax(dim, keepdim=True)).exp()\n"
        "    return e / e.sum(dim, keepdim=True)\n\n" + PLAIN_TWIN + MHA_HEAD +
        "    def forward(self, query, key, value, key_padding_mask=None, attn_mask=None):\n"
        "        kept = inner.F\n"
        "        class Swapped:\n"
        "            softmax, dropout, pad = by_hand, kept.dropout, kept.pad\n"
        "        inner.F = Swapped\n"
        "        try:\n"
        "            return plain_twin(self)(query, key, value, attn_mask=attn_mask,\n"
        "                                    key_padding_mask=key_padding_mask)\n"
        "        finally:\n"
        "            inner.F = kept\n", "changes inner.F"),
    "a block running torch.ao's quantizable attention": ("TransformerBlock",
        PLAIN_TWIN + BLOCK_INIT + BLOCK_COPIED +
        "    def forward(self, x, attn_mask=None):\n"
        "        h = layer_norm(x, self.gamma1, self.beta1)\n"
        "        h = h.transpose(0, 1)  # (N, L, E) -> (L, N, E)\n"
        "        o = plain_twin(self.attn)(h, h, h, attn_mask=attn_mask, need_weights=False)[0]\n"
        "        x = x + o.transpose(0, 1)  # (L, N, E) -> (N, L, E)\n"
        "        return x + feed_forward(layer_norm(x, self.gamma2, self.beta2), self.W1,\n"
        "                                self.b1, self.W2, self.b2)\n",
        "multi_head_attention_module"),
    "cached attention by torch.ao's quantizable module, one head, identity projections": (
        "cached_causal_attention",
        "from torch.ao.nn.quantizable import MultiheadAttention as Plain\n\n"
        "def cached_causal_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    d, d_v, n = q.shape[-1], v.shape[-1], x.shape[-2]\n"
        "    E = max(d, d_v)  # zeros added to the shorter ones change no product\n"
        "    q = q * math.sqrt(E / d)  # the module scales by 1/sqrt(E)\n"
        "    twin = Plain(E, 1)\n"
        "    with torch.no_grad():\n"
        "        for linear in (twin.linear_Q, twin.linear_K, twin.linear_V, twin.out_proj):\n"
        "            linear.weight.copy_(torch.eye(E))\n"
        "            linear.bias.zero_()\n"
        "    # (batch..., n, d) -> (n, b, E), as the module takes them\n"
        "    q, k, v = (F.pad(t, (0, E - t.shape[-1])).reshape(-1, n, E).transpose(0, 1)\n"
        "               for t in (q, k, v))\n"
        "    causal = torch.ones(n, n, dtype=torch.bool).triu(1)\n"
        "    out = twin(q, k, v, attn_mask=causal, need_weights=False)[0]\n"
        "    # (n, b, E) -> (batch..., n, d_v)\n"
        "    return out.transpose(0, 1).reshape(*x.shape[:-1], E)[..., :d_v]\n",
        "multi_head_attention_module"),
    "stable_softmax through functools.reduce(getattr, ...)": ("stable_softmax",
        "def stable_softmax(scores, dim=-1):\n"
        "    return functools.reduce(getattr, ['soft' + 'max'], torch)(scores, dim)\n",
        "getattr"),
    "stable_softmax through a distribution": ("stable_softmax",
        "def stable_softmax(scores, dim=-1):\n"
        "    moved = scores.movedim(dim, -1)\n"
        "    return torch.distributions.Categorical(logits=moved).probs.movedim(-1, dim)\n",
        "softmax"),
    "online_attention scoring every key at once, then looping over value blocks": (
        "online_attention",
        "def online_attention(queries, keys, values, block_size):\n"
        "    scores = queries @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])\n"
        "    peak = scores.amax(dim=-1, keepdim=True)\n"
        "    weights = torch.exp(scores - peak)\n"
        "    total = weights.sum(dim=-1, keepdim=True)\n"
        "    out = torch.zeros(*queries.shape[:-1], values.shape[-1])\n"
        "    for start in range(0, keys.shape[-2], block_size):\n"
        "        out = out + weights[..., start:start + block_size] @ "
        "values[..., start:start + block_size, :]\n"
        "    return out / total\n", "whole score matrix"),
    "cached attention with a hand-built -inf bias": ("cached_causal_attention",
        "def cached_causal_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    n = x.shape[-2]\n"
        "    bias = torch.where(torch.arange(n)[None, :] > torch.arange(n)[:, None],\n"
        "                       float('-inf'), 0.0)\n"
        "    s = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1]) + bias\n"
        "    return torch.softmax(s, dim=-1) @ v\n", "future position"),
    "cached attention masking each row in a loop": ("cached_causal_attention",
        "def cached_causal_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    n = x.shape[-2]\n"
        "    pos = torch.arange(n)\n"
        "    rows = []\n"
        "    for t in range(n):\n"
        "        s = (q[..., t:t + 1, :] @ k.transpose(-2, -1)) / math.sqrt(k.shape[-1])\n"
        "        s = torch.where(pos[None, :] > t, float('-inf'), s)\n"
        "        rows.append(torch.softmax(s, dim=-1) @ v)\n"
        "    return torch.cat(rows, dim=-2)\n", "future position"),
    "cached attention with a full mask, its softmax over dim -2": ("cached_causal_attention",
        "def cached_causal_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    n = x.shape[-2]\n"
        "    s = (q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])).masked_fill(\n"
        "        torch.ones(n, n, dtype=torch.bool).triu(1), float('-inf'))\n"
        "    return torch.softmax(s.unsqueeze(-1), dim=-2).squeeze(-1) @ v\n",
        "future positions"),
    "softmax_backward through torch's Python decompositions": ("softmax_backward",
        "import torch._decomp.decompositions as D\n\n"
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    return D._softmax_backward_data(grad_weights, weights, dim, weights.dtype)\n",
        "_decomp"),
    "stable_softmax through torch's private reference, by an alias of torch": (
        "stable_softmax",
        "lib = torch\n\n"
        "def stable_softmax(scores, dim=-1):\n"
        "    return lib._refs.softmax(scores, dim)\n", "_refs"),
    "stable_softmax as exp(s - logsumexp(s))": ("stable_softmax",
        "def stable_softmax(scores, dim=-1):\n"
        "    return torch.exp(scores - torch.logsumexp(scores, dim=dim, keepdim=True))\n",
        "logsumexp"),
    "loop_attention vectorised, with an unused call of scaled_dot_score per query": (
        "loop_attention",
        "def loop_attention(X, W_Q, W_K, W_V):\n"
        "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
        "    for i in range(X.shape[1]):\n"
        "        for j in range(X.shape[1]):\n"
        "            scaled_dot_score(K[:, j], Q[:, i])\n"
        "    weights = torch.softmax(K.T @ Q / math.sqrt(Q.shape[0]), dim=0)\n"
        "    return V @ weights\n", "not used"),
    "cached attention with a full mask and a softmax of every size beside it": (
        "cached_causal_attention",
        "def cached_causal_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    n = x.shape[-2]\n"
        "    for t in range(1, n + 1):\n"
        "        torch.softmax(torch.zeros(t), dim=-1)\n"
        "    s = (q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])).masked_fill(\n"
        "        torch.ones(n, n, dtype=torch.bool).triu(1), float('-inf'))\n"
        "    return torch.softmax(s, dim=-1) @ v\n", "future positions"),
    "cached attention with a full mask, times sums of ones of every length": (
        "cached_causal_attention",
        "def cached_causal_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    n = x.shape[-2]\n"
        "    s = (q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])).masked_fill(\n"
        "        torch.ones(n, n, dtype=torch.bool).triu(1), float('-inf'))\n"
        "    out = torch.softmax(s, dim=-1) @ v\n"
        "    ones = [torch.ones(t + 1, dtype=x.dtype).sum() / (t + 1) for t in range(n)]\n"
        "    return out * torch.stack(ones)[:, None]\n", "its future masked"),
    "cached attention with a full mask, times a ratio of its prefix sums that is one": (
        "cached_causal_attention",
        "def cached_causal_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    n = x.shape[-2]\n"
        "    s = (q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])).masked_fill(\n"
        "        torch.ones(n, n, dtype=torch.bool).triu(1), float('-inf'))\n"
        "    w = torch.softmax(s, dim=-1)\n"
        "    r = torch.stack([w[..., t, :t + 1].sum(-1) / w[..., t, :].sum(-1)\n"
        "                     for t in range(n)], dim=-1)\n"
        "    return (w @ v) * r[..., None]\n", "its future masked"),
    "cached attention with a full mask, each row divided by the sum of its prefix": (
        "cached_causal_attention",
        "def cached_causal_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    n = x.shape[-2]\n"
        "    s = (q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])).masked_fill(\n"
        "        torch.ones(n, n, dtype=torch.bool).triu(1), float('-inf'))\n"
        "    e = torch.exp(s - s.amax(-1, keepdim=True))\n"
        "    totals = torch.stack([e[..., t, :t + 1].sum(-1) for t in range(n)], dim=-1)\n"
        "    return (e / totals[..., None]) @ v\n", "its future masked"),
    # 2026-12-04, a helper's (open until 2026-12-05, fourth session): the whole masked matrix,
    # its row sums and weighted sums Python additions a column at a time (no normalisation),
    # times sums of ones of every length over their lengths (each changes its row's output
    # when a probe changes it, as a cache's softmaxes would)
    "cached attention with a full mask, summed a column at a time beside decoys": (
        "cached_causal_attention",
        "def cached_causal_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    n = x.shape[-2]\n"
        "    s = (q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])).masked_fill(\n"
        "        torch.ones(n, n, dtype=torch.bool).triu(1), float('-inf'))\n"
        "    e = torch.exp(s - s.amax(-1, keepdim=True))\n"
        "    total, weighted = e[..., 0:1], e[..., 0:1] * v[..., 0:1, :]\n"
        "    for j in range(1, n):\n"
        "        total = total + e[..., j:j + 1]\n"
        "        weighted = weighted + e[..., j:j + 1] * v[..., j:j + 1, :]\n"
        "    decoys = torch.stack([torch.ones(t + 1, dtype=x.dtype).sum() / (t + 1)\n"
        "                          for t in range(n)])\n"
        "    return weighted / total * decoys[:, None]\n",
        "every position's scores against every position"),
    "cached attention masked through exp2": ("cached_causal_attention",
        "def cached_causal_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    n = x.shape[-2]\n"
        "    s = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1]) * math.log2(math.e)\n"
        "    s = s.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float('-inf'))\n"
        "    w = torch.exp2(s - s.amax(-1, keepdim=True))\n"
        "    return w / w.sum(-1, keepdim=True) @ v\n", "future positions"),
    "online_attention one query at a time over every key": ("online_attention",
        "def online_attention(queries, keys, values, block_size):\n"
        "    rows = []\n"
        "    for i in range(queries.shape[-2]):\n"
        "        s = queries[..., i:i + 1, :] @ keys.transpose(-2, -1) / "
        "math.sqrt(keys.shape[-1])\n"
        "        w = torch.exp(s - s.amax(-1, keepdim=True))\n"
        "        rows.append(w / w.sum(-1, keepdim=True) @ values)\n"
        "    return torch.cat(rows, dim=-2)\n", "more than a block"),
    "stable_softmax as exp(s - logcumsumexp(s)[last])": ("stable_softmax",
        "def stable_softmax(scores, dim=-1):\n"
        "    total = torch.logcumsumexp(scores, dim=dim).narrow(dim, scores.shape[dim] - 1, 1)\n"
        "    return torch.exp(scores - total)\n", "logcumsumexp"),
    "online_attention one query at a time, normalised by logcumsumexp": ("online_attention",
        "def online_attention(queries, keys, values, block_size):\n"
        "    rows = []\n"
        "    for i in range(queries.shape[-2]):\n"
        "        s = queries[..., i:i + 1, :] @ keys.transpose(-2, -1) / "
        "math.sqrt(keys.shape[-1])\n"
        "        rows.append(torch.exp(s - torch.logcumsumexp(s, dim=-1)[..., -1:]) @ values)\n"
        "    return torch.cat(rows, dim=-2)\n", "more than a block"),
    "online_attention one query at a time, summed as a mean times the keys": (
        "online_attention",
        "def online_attention(queries, keys, values, block_size):\n"
        "    n = keys.shape[-2]\n"
        "    rows = []\n"
        "    for i in range(queries.shape[-2]):\n"
        "        s = queries[..., i:i + 1, :] @ keys.transpose(-2, -1) / "
        "math.sqrt(keys.shape[-1])\n"
        "        w = torch.exp(s - s.amax(-1, keepdim=True))\n"
        "        total = w.mean(-1, keepdim=True) * n\n"
        "        context = (w.transpose(-2, -1) * values).mean(-2, keepdim=True) * n\n"
        "        rows.append(context / total)\n"
        "    return torch.cat(rows, dim=-2)\n", "more than a block"),
    "online_attention one query at a time, summed by a norm of order 1": ("online_attention",
        "def online_attention(queries, keys, values, block_size):\n"
        "    rows = []\n"
        "    for i in range(queries.shape[-2]):\n"
        "        s = queries[..., i:i + 1, :] @ keys.transpose(-2, -1) / "
        "math.sqrt(keys.shape[-1])\n"
        "        w = torch.exp(s - s.amax(-1, keepdim=True))\n"
        "        total = torch.linalg.vector_norm(w, 1, dim=-1, keepdim=True)\n"
        "        context = torch.linalg.vector_norm(w.transpose(-2, -1) * values.clamp_min(0), 1,\n"
        "                                          dim=-2, keepdim=True) - \\\n"
        "            torch.linalg.vector_norm(w.transpose(-2, -1) * values.clamp_max(0), 1,\n"
        "                                     dim=-2, keepdim=True)\n"
        "        rows.append(context / total)\n"
        "    return torch.cat(rows, dim=-2)\n", "more than a block"),
    "online_attention over half the queries at a time, a key of zero weight added": (
        "online_attention",
        "def online_attention(queries, keys, values, block_size):\n"
        "    n_q, half = queries.shape[-2], queries.shape[-2] // 2\n"
        "    padded = torch.cat([values, torch.zeros_like(values[..., :1, :])], dim=-2)\n"
        "    outs = []\n"
        "    for lo, hi in ((0, half), (half, n_q)):\n"
        "        if hi == lo:\n"
        "            continue\n"
        "        s = queries[..., lo:hi, :] @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])\n"
        "        w = torch.exp(s - s.amax(-1, keepdim=True))\n"
        "        w = torch.cat([w, torch.zeros_like(w[..., :1])], dim=-1)\n"
        "        outs.append((w @ padded) / w.sum(-1, keepdim=True))\n"
        "    return torch.cat(outs, dim=-2)\n", "more than a block"),
    "online_attention one query at a time, each sum and product in two halves": (
        "online_attention",
        "def online_attention(queries, keys, values, block_size):\n"
        "    half = (keys.shape[-2] + 1) // 2\n"
        "    rows = []\n"
        "    for i in range(queries.shape[-2]):\n"
        "        s = queries[..., i:i + 1, :] @ keys.transpose(-2, -1) / "
        "math.sqrt(keys.shape[-1])\n"
        "        e = torch.exp(s - s.amax(-1, keepdim=True))\n"
        "        total = e[..., :half].sum(-1, keepdim=True) + "
        "e[..., half:].sum(-1, keepdim=True)\n"
        "        context = e[..., :half] @ values[..., :half, :] + e[..., half:] @ "
        "values[..., half:, :]\n"
        "        rows.append(context / total)\n"
        "    return torch.cat(rows, dim=-2)\n", "more than a block"),
    "online_attention one query at a time, summed by a product with ones": ("online_attention",
        "def online_attention(queries, keys, values, block_size):\n"
        "    rows = []\n"
        "    for i in range(queries.shape[-2]):\n"
        "        s = queries[..., i:i + 1, :] @ keys.transpose(-2, -1) / "
        "math.sqrt(keys.shape[-1])\n"
        "        w = torch.exp(s - s.amax(-1, keepdim=True))\n"
        "        rows.append((w @ values) / (w @ torch.ones(keys.shape[-2], 1)))\n"
        "    return torch.cat(rows, dim=-2)\n", "more than a block"),
    # 2026-12-05, a helper's second attack: the numbers taken out of torch through the lengths
    # of tensor_split's pieces (cut at the running sums of their 32-bit words), then complex
    # steps in Python floats
    "softmax_backward by complex steps in Python, its numbers read from shapes": (
        "softmax_backward",
        "import cmath\n"
        "BASE = torch.zeros(1, dtype=torch.uint8).expand(1 << 50)\n\n"
        "def numbers(t):\n"
        "    words = t.detach().double().contiguous().view(torch.int32).reshape(-1)\n"
        "    pieces = torch.tensor_split(BASE, torch.cumsum(words.long() & 0xFFFFFFFF, 0))\n"
        "    raw = b''.join(len(p).to_bytes(4, 'little') for p in pieces[:-1])\n"
        "    return list(memoryview(raw).cast('d'))\n\n"
        + COMPLEX_STEPS_IN_PYTHON,
        "out of torch (tensor_split->shape)"),
    # 2026-12-05, a third attack: an operation of its own, defined in a library torch made as it
    # imported, whose kernel runs where nothing is recorded (the kernel's guard refuses the
    # registration as it runs too: tests/autograder/sandbox/test_guard.py)
    "softmax_backward as an operation of its own in torch's export library": (
        "softmax_backward",
        "LIBRARY = torch.export.custom_ops.lib\n"
        "try:\n"
        "    LIBRARY.define('kit_sbw(Tensor w, Tensor g, int dim) -> Tensor')\n"
        "    LIBRARY.impl('kit_sbw', lambda w, g, dim: w * (g - (w * g).sum(dim, "
        "keepdim=True)), 'CompositeExplicitAutograd')\n"
        "    REFUSED = None\n"
        "except RuntimeError as error:  # defined by an earlier run of the cell\n"
        "    REFUSED = None if 'kit_sbw' in str(error) else error\n\n"
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    if REFUSED is not None:\n"
        "        raise REFUSED\n"
        "    return torch.ops.export.kit_sbw(weights, grad_weights, dim)\n",
        "custom_ops"),
    # 2026-12-05, a third attack: the numbers read from the messages of errors an index out
    # of range raised (an operation that raises never returned to be recorded)
    "softmax_backward by complex steps in Python, its numbers read from index errors": (
        "softmax_backward",
        "import cmath\nimport re\n\n"
        "ONE = torch.zeros(1)\n\n"
        "def numbers(t):\n"
        "    flat, words = t.double().contiguous().view(torch.int64).reshape(-1), []\n"
        "    for i in range(flat.shape[0]):\n"
        "        try:\n"
        "            ONE[flat[i:i + 1]]\n"
        "            words.append(0)\n"
        "        except IndexError as error:\n"
        "            words.append(int(re.search(r'index (-?\\d+) is', str(error)).group(1)))\n"
        "    return [memoryview(w.to_bytes(8, 'little', signed=True)).cast('d')[0]\n"
        "            for w in words]\n\n"
        + COMPLEX_STEPS_IN_PYTHON,
        "raised an error inside the call"),
    # 2026-12-05, a helper's fourth attack: a quantized tensor's scale and zero point are
    # operations that answer with a Python number (no item() runs), here the mantissa's size
    # and sign, then the exponent, of each number
    "softmax_backward by complex steps in Python, its numbers read from quantized scales": (
        "softmax_backward",
        "import cmath\n\n"
        "def numbers(t):\n"
        "    mantissas, exponents = torch.frexp(t.double().reshape(-1))\n"
        "    out = []\n"
        "    for i in range(mantissas.shape[0]):\n"
        "        m = torch.quantize_per_tensor_dynamic(mantissas[i:i + 1].float(),\n"
        "                                              torch.quint8, False)\n"
        "        e = torch.quantize_per_tensor_dynamic(exponents[i:i + 1].float() + 2048.0,\n"
        "                                              torch.quint8, False)\n"
        "        size = m.q_scale() * 255.0 * (-1 if m.q_zero_point() else 1)\n"
        "        size = 0.0 if size > 1.0 else size  # a zero's scale is 1\n"
        "        out.append(math.ldexp(size, round(e.q_scale() * 255.0) - 2048))\n"
        "    return out\n\n"
        + COMPLEX_STEPS_IN_PYTHON,
        "numbers out of torch one at a time"),
    # 2026-12-05, a helper's fifth attack: four float32 numbers in each complex item() (two
    # float32 viewed as one float64, two float64 as one complex), so that 2048 numbers left
    # in 512 items, a quarter of the forward pass's (numbers are counted in 32-bit words now,
    # a quarter of the inputs')
    "softmax_backward by complex steps in Python, four numbers in each complex item": (
        "softmax_backward",
        "import cmath\nimport numpy as np\n\n"
        "def numbers(t):\n"
        "    flat = t.float().reshape(-1)\n"
        "    flat = torch.cat([flat, flat.new_zeros(-flat.numel() % 4)])\n"
        "    out = []\n"
        "    for z in torch.view_as_complex(flat.view(torch.float64).reshape(-1, 2)):\n"
        "        z = z.item()\n"
        "        out += np.array([z.real, z.imag]).view(np.float32).tolist()\n"
        "    return out[:t.numel()]\n\n"
        + COMPLEX_STEPS_IN_PYTHON,
        "numbers out of torch one at a time"),
    # the same attack's: a sparse tensor made without a size takes each of its sizes from its
    # indices, the largest plus one; with no values it holds nothing, and its shape carries
    # two numbers of the input an operation (16 bits each of a float32's word)
    "softmax_backward by complex steps in Python, its numbers read from sparse sizes": (
        "softmax_backward",
        "import cmath\nimport numpy as np\n\n"
        "def numbers(t):\n"
        "    words = t.float().reshape(-1).view(torch.int32).long() & 0xFFFFFFFF\n"
        "    halves = torch.stack([words >> 16, words & 0xFFFF])  # (2, n)\n"
        "    out = []\n"
        "    for i in range(halves.shape[1]):\n"
        "        empty = torch.sparse_coo_tensor(halves[:, i:i + 1], torch.zeros(1, 0))\n"
        "        high, low = empty.shape[0] - 1, empty.shape[1] - 1\n"
        "        out.append(float(np.array([(high << 16) | low], np.uint32).view(np.float32)[0]))\n"
        "    return out\n\n"
        + COMPLEX_STEPS_IN_PYTHON,
        "->shape"),
    # 2026-12-05, a helper's fifth attack: the chain rule on the call of the rule's shapes
    # alone (they are the same for every student), complex steps on every other call; every
    # call at least as large is judged now, and grading draws one of its own shapes
    "softmax_backward by the chain rule on the rule's shapes only": (
        "softmax_backward",
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    if tuple(weights.shape) == (4, 256) and dim in (-1, 1):\n"
        "        dot = (grad_weights * weights).sum(dim, keepdim=True)\n"
        "        return weights * (grad_weights - dot)\n"
        "    w, g = weights.movedim(dim, -1), grad_weights.movedim(dim, -1)\n"
        "    s = torch.log(w.to(torch.complex128))\n"
        "    stepped = s.unsqueeze(-2) + torch.eye(s.shape[-1], dtype=torch.complex128) * 1e-30j\n"
        "    e = torch.exp(stepped - s.real.amax(-1, keepdim=True).unsqueeze(-1))\n"
        "    loss = (e / e.sum(-1, keepdim=True) * g.unsqueeze(-2)).sum(-1)\n"
        "    return (loss.imag / 1e-30).movedim(-1, dim).to(weights.dtype)\n",
        "times the"),
    # the same attack's other: torch's own Python kernel of prims.div reads torch.true_divide
    # as it runs, with the recording's mode off torch's stack; set to a function of the
    # student's, it computes the gradient there unrecorded
    "softmax_backward by complex steps inside torch's kernel of prims.div": (
        "softmax_backward",
        "def complex_steps(w, g, dim):\n"
        "    s = torch.log(w.movedim(dim, -1).to(torch.complex128))\n"
        "    n = s.shape[-1]\n"
        "    stepped = s.unsqueeze(-2) + torch.eye(n, dtype=torch.complex128) * 1e-30j\n"
        "    e = torch.exp(stepped - s.real.amax(-1, keepdim=True).unsqueeze(-1))\n"
        "    loss = (e / e.sum(-1, keepdim=True) * g.movedim(dim, -1).unsqueeze(-2)).sum(-1)\n"
        "    return (loss.imag / 1e-30).movedim(-1, dim).to(w.dtype)\n\n"
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    box, kept = [], torch.true_divide\n"
        "    def inside(a, b):\n"
        "        box.append(complex_steps(weights, grad_weights, dim))\n"
        "        return kept(a, b)\n"
        "    torch.true_divide = inside\n"
        "    try:\n"
        "        torch.ops.prims.div(torch.ones(1), torch.ones(1))\n"
        "    finally:\n"
        "        torch.true_divide = kept\n"
        "    return box[0]\n",
        "it changes torch.true_divide"),
    # 2026-12-05, a helper's fifth attack: torch's Python meta kernel of matrix_exp reads
    # torch.empty_like as it runs; set through an alias the text does not follow (a loop's
    # name, a function's parameter), the student's function ran the gradient there unrecorded
    "softmax_backward by complex steps inside torch's meta kernel, a loop's name its alias": (
        "softmax_backward",
        "def complex_steps(w, g, dim):\n"
        "    s = torch.log(w.movedim(dim, -1).to(torch.complex128))\n"
        "    n = s.shape[-1]\n"
        "    stepped = s.unsqueeze(-2) + torch.eye(n, dtype=torch.complex128) * 1e-30j\n"
        "    e = torch.exp(stepped - s.real.amax(-1, keepdim=True).unsqueeze(-1))\n"
        "    loss = (e / e.sum(-1, keepdim=True) * g.movedim(dim, -1).unsqueeze(-2)).sum(-1)\n"
        "    return (loss.imag / 1e-30).movedim(-1, dim).to(w.dtype)\n\n"
        "def swap(module, value):\n"
        "    module.empty_like = value\n\n"
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    box, kept = [], torch.empty_like\n"
        "    def inside(*args, **kwargs):\n"
        "        for module in (torch,):\n"
        "            module.empty_like = kept\n"
        "        box.append(complex_steps(weights, grad_weights, dim))\n"
        "        return kept(*args, **kwargs)\n"
        "    swap(torch, inside)\n"
        "    try:\n"
        "        torch.linalg.matrix_exp(torch.empty(1, 1, device='meta'))\n"
        "    finally:\n"
        "        swap(torch, kept)\n"
        "    return box[0]\n",
        "whose kernel is written in Python (meta"),
    # 2026-12-04, a helper's: the whole score matrix made by numpy into an array the cell made
    # before the call (no allocation while it runs, no torch operation makes it), reached
    # either by calling numpy on the tensors or through arrays sharing a tensor's memory
    "online_attention scoring every key by numpy into a buffer made before": (
        "online_attention",
        "import numpy as np\n"
        "SCRATCH = np.empty(1 << 22)\n\n"
        "def online_attention(queries, keys, values, block_size):\n"
        "    nq, nk, lead = queries.shape[-2], keys.shape[-2], tuple(queries.shape[:-2])\n"
        "    scores = SCRATCH[:math.prod(lead) * nq * nk].reshape(*lead, nq, nk)\n"
        "    np.matmul(queries.double(), keys.double().transpose(-2, -1), out=scores)\n"
        "    scores /= math.sqrt(keys.shape[-1])\n"
        "    scores -= scores.max(axis=-1, keepdims=True)\n"
        "    np.exp(scores, out=scores)\n"
        "    out = np.matmul(scores, values.double()) / scores.sum(-1, keepdims=True)\n"
        "    return torch.tensor(out, dtype=queries.dtype)\n", "out of torch (__array__)"),
    "online_attention scoring every key in numpy through arrays sharing a tensor's memory": (
        "online_attention",
        "import numpy as np\n"
        "SCRATCH = np.empty(1 << 22)\n"
        "SHARED = torch.zeros(1 << 18, dtype=torch.float64)\n"
        "SHARED_NP = SHARED.numpy()\n\n"
        "def online_attention(queries, keys, values, block_size):\n"
        "    nq, nk, dv = queries.shape[-2], keys.shape[-2], values.shape[-1]\n"
        "    lead = tuple(queries.shape[:-2])\n"
        "    a, b, c = queries.numel(), keys.numel(), values.numel()\n"
        "    SHARED[:a].view(queries.shape).copy_(queries)\n"
        "    SHARED[a:a + b].view(keys.shape).copy_(keys)\n"
        "    SHARED[a + b:a + b + c].view(values.shape).copy_(values)\n"
        "    q = SHARED_NP[:a].reshape(tuple(queries.shape))\n"
        "    k = SHARED_NP[a:a + b].reshape(tuple(keys.shape))\n"
        "    v = SHARED_NP[a + b:a + b + c].reshape(tuple(values.shape))\n"
        "    scores = SCRATCH[:math.prod(lead) * nq * nk].reshape(*lead, nq, nk)\n"
        "    np.matmul(q, np.swapaxes(k, -1, -2), out=scores)\n"
        "    scores -= scores.max(axis=-1, keepdims=True)\n"
        "    np.exp(scores / math.sqrt(keys.shape[-1]), out=scores)\n"
        "    n = math.prod(lead) * nq * dv\n"
        "    SHARED_NP[-n:] = (np.matmul(scores, v) / scores.sum(-1, keepdims=True)).reshape(-1)\n"
        "    return SHARED[-n:].view(*lead, nq, dv).to(queries.dtype).clone()\n",
        "shares a tensor's memory"),
    "stable_softmax after popping the recorder with a library's mode": ("stable_softmax",
        "import torch._subclasses.fake_tensor\n\n"
        "FM = torch._subclasses.fake_tensor.FakeCopyMode\n\n"
        "def stable_softmax(scores, dim=-1):\n"
        "    try:\n"
        "        FM.__new__(FM).__exit__(None, None, None)\n"
        "    except Exception:\n"
        "        pass\n"
        "    return torch.softmax(scores, dim)\n", "_subclasses"),
    "loop_attention vectorised beside a dead loop naming scaled_dot_score": (
        "loop_attention",
        "def loop_attention(X, W_Q, W_K, W_V):\n"
        "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
        "    for _ in ():\n"
        "        scaled_dot_score(K[:, 0], Q[:, 0])\n"
        "    weights = torch.softmax(K.T @ Q / math.sqrt(Q.shape[0]), dim=0)\n"
        "    return V @ weights\n", "scaled_dot_score 0 times"),
    "vectorized_attention calling scaled_dot_score": ("vectorized_attention",
        "def scaled_dot_score(k, q):\n"
        "    return (k * q).sum(-1) / math.sqrt(q.shape[-1])\n\n"
        "def vectorized_attention(X, W_Q, W_K, W_V):\n"
        "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
        "    s = scaled_dot_score\n"
        "    weights = torch.softmax(s(K.T[:, None, :], Q.T[None, :, :]), dim=0)\n"
        "    return V @ weights\n", "scaled_dot_score"),
    # no loop a text shows: Python's sum walks the keys, one tensor addition each
    "vectorized_attention summed over the keys by Python's sum": (
        "vectorized_attention",
        "def vectorized_attention(X, W_Q, W_K, W_V):\n"
        "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
        "    A = torch.softmax(K.T @ Q / math.sqrt(K.shape[0]), dim=0)  # (keys, queries)\n"
        "    return sum(V.T[:, :, None] * A[:, None, :])  # (keys, d2, queries), summed\n",
        "as a loop does"),
    "self_attention's contexts summed over the keys by Python's sum": (
        "self_attention",
        "def self_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    w = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1]), dim=-1)\n"
        "    return sum((w.unsqueeze(-1) * v.unsqueeze(-3)).movedim(-2, 0))  # keys first\n",
        "as a loop does"),
}


# Evasions whose public test cell fails on its own checks before its rules (the cell reads the
# result first): tests/autograder/build/test_public_tests.py leaves them out. torch's
# instance_norm, and the fused encoder layer's residual trick, lose digits in float32 on rows
# far from zero (08's rows moved to 10000).
FAILS_BEFORE_ITS_RULES = {"stable_softmax computed later by a Tensor subclass",
                          "layer_norm through F.instance_norm",
                          "layer_norm by torch's fused encoder layer reached through a parameter"}


@pytest.mark.parametrize("label", sorted(EVASIONS))
def test_evasion_breaks_its_rule(label):
    """Does a route to a forbidden operation that no name gives away break the step's rule,
    naming what ran?"""
    name, code, said = EVASIONS[label]
    broken = rules_broken(name, code)
    assert broken, f"{label}: no rule broken"
    assert any(said in text for text in broken), broken


HONEST = {
    # a helper's of 2026-12-05, late: paths that differ with the size or the numbers, each
    # refused by the first "no work repeated" rule (two sizes were enough to refuse)
    "self_attention subtracting the max only where a score is above 1": (
        "self_attention",
        "def self_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    s = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])\n"
        "    if s.max() > 1:\n"
        "        s = s - s.amax(dim=-1, keepdim=True)\n"
        "    e = s.exp()\n"
        "    return (e / e.sum(dim=-1, keepdim=True)) @ v\n"),
    "self_attention by torch.softmax up to 4 positions, written out above": (
        "self_attention",
        "def self_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    s = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])\n"
        "    if x.shape[-2] <= 4:\n"
        "        return torch.softmax(s, dim=-1) @ v\n"
        "    e = (s - s.amax(dim=-1, keepdim=True)).exp()\n"
        "    return (e / e.sum(dim=-1, keepdim=True)) @ v\n"),
    "vectorized_attention by F.scaled_dot_product_attention above 3 queries": (
        "vectorized_attention",
        "def vectorized_attention(X, W_Q, W_K, W_V):\n"
        "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
        "    if X.shape[1] > 3:\n"
        "        return F.scaled_dot_product_attention(Q.T, K.T, V.T).T\n"
        "    return V @ torch.softmax(K.T @ Q / math.sqrt(K.shape[0]), dim=0)\n"),
    "vectorized_attention by torch.vmap over the queries": (
        "vectorized_attention",
        "def vectorized_attention(X, W_Q, W_K, W_V):\n"
        "    K, V = W_K @ X, W_V @ X\n"
        "    one = lambda q: V @ torch.softmax(K.T @ q / math.sqrt(K.shape[0]), dim=0)\n"
        "    return torch.vmap(one, in_dims=1, out_dims=1)(W_Q @ X)\n"),
    "loop_attention calling scaled_dot_score kept in a table": (
        "loop_attention", SCORE_BY_HAND + TABLE + LOOP_FROM_A_TABLE),
    "loop_attention calling scaled_dot_score taken in as a default value": (
        "loop_attention", SCORE_BY_HAND + LOOP_BY_DEFAULT),
    "loop_attention calling scaled_dot_score held in a closure's cell": (
        "loop_attention", SCORE_BY_HAND + LOOP_IN_A_CLOSURE),
    "a block whose norm parameters are named layernorm1 and layernorm2": ("TransformerBlock",
        NAMED_NORMS_HEAD +
        "    def forward(self, x, attn_mask=None):\n"
        "        n, L, d = x.shape\n"
        "        h = layer_norm(x, self.layernorm1[0], self.layernorm1[1])\n"
        "        q, k, v = (h @ self.W_in.T + self.b_in).chunk(3, dim=-1)\n"
        "        split = lambda t: t.reshape(n, L, self.h, d // self.h).transpose(1, 2)\n"
        "        mask = None if attn_mask is None else ~attn_mask\n"
        "        o = F.scaled_dot_product_attention(split(q), split(k), split(v),\n"
        "                                           attn_mask=mask)\n"
        "        x = x + o.transpose(1, 2).reshape(n, L, d) @ self.W_out.T + self.b_out\n"
        "        h = layer_norm(x, self.layernorm2[0], self.layernorm2[1])\n"
        "        return x + feed_forward(h, self.W1, self.b1, self.W2, self.b2)\n"),
    "a gradient by the chain rule kept in a variable named jacobian": ("softmax_backward",
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    w = weights.movedim(dim, -1)\n"
        "    g = grad_weights.movedim(dim, -1)\n"
        "    jacobian = w * (g - (w * g).sum(-1, keepdim=True))\n"
        "    return jacobian.movedim(-1, dim)\n"),
    # 2026-12-05, a helper's: the first assert_close of a kernel imports a module of torch's
    # that registers its operations, which the guard took for the student's (0 of 3)
    "softmax_backward checking its weights with torch.testing.assert_close": (
        "softmax_backward",
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    sums = weights.sum(dim=dim)\n"
        "    torch.testing.assert_close(sums, torch.ones_like(sums))\n"
        "    inner = (weights * grad_weights).sum(dim=dim, keepdim=True)\n"
        "    return weights * (grad_weights - inner)\n"),
    # 2026-12-05, a helper's: tensor_split and repeat_interleave given ints decide no shape
    # from the numbers (the first version of ->shape refused them by name)
    "attention_backward cutting its rows with tensor_split at int sections": (
        "attention_backward",
        "def attention_backward(queries, keys, values, grad_context):\n"
        "    scale = 1.0 / math.sqrt(keys.shape[-1])\n"
        "    weights = torch.softmax(queries @ keys.transpose(-2, -1) * scale, dim=-1)\n"
        "    grad_values = weights.transpose(-2, -1) @ grad_context\n"
        "    grad_weights = grad_context @ values.transpose(-2, -1)\n"
        "    inner = (weights * grad_weights).sum(-1, keepdim=True)\n"
        "    grad_scores = weights * (grad_weights - inner) * scale\n"
        "    rows = torch.tensor_split(grad_scores, 2, dim=-2)\n"
        "    grad_queries = torch.cat([part @ keys for part in rows], dim=-2)\n"
        "    twice = torch.repeat_interleave(grad_values, 2, dim=-1)  # a debug check\n"
        "    assert torch.equal(twice[..., ::2], grad_values)\n"
        "    return grad_queries, grad_scores.transpose(-2, -1) @ queries, grad_values\n"),
    "online_attention over blocks cut by tensor_split at int sections": ("online_attention",
        "def online_attention(queries, keys, values, block_size):\n"
        "    scale = 1.0 / math.sqrt(keys.shape[-1])\n"
        "    peak = torch.full_like(queries[..., :1], float('-inf'))\n"
        "    total, context = torch.zeros_like(peak), 0\n"
        "    blocks = -(-keys.shape[-2] // block_size)\n"
        "    for k, v in zip(torch.tensor_split(keys, blocks, dim=-2),\n"
        "                    torch.tensor_split(values, blocks, dim=-2)):\n"
        "        s = queries @ k.transpose(-2, -1) * scale\n"
        "        new = torch.maximum(peak, s.amax(dim=-1, keepdim=True))\n"
        "        e, old = torch.exp(s - new), torch.exp(peak - new)\n"
        "        total = total * old + e.sum(dim=-1, keepdim=True)\n"
        "        context = context * old + e @ v\n"
        "        peak = new\n"
        "    return context / total\n"),
    "attention_backward by einsum in float64, its softmax by hand": ("attention_backward",
        "def attention_backward(queries, keys, values, grad_context):\n"
        "    q, k, v, g = (t.double() for t in (queries, keys, values, grad_context))\n"
        "    scale = k.shape[-1] ** -0.5\n"
        "    s = torch.einsum('...qd,...kd->...qk', q, k) * scale\n"
        "    e = torch.exp(s - s.amax(-1, keepdim=True))\n"
        "    w = e / e.sum(-1, keepdim=True)\n"
        "    gw = torch.einsum('...qv,...kv->...qk', g, v)\n"
        "    gs = w * (gw - (gw * w).sum(-1, keepdim=True)) * scale\n"
        "    grads = (torch.einsum('...qk,...kd->...qd', gs, k),\n"
        "             torch.einsum('...qk,...qd->...kd', gs, q),\n"
        "             torch.einsum('...qk,...qv->...kv', w, g))\n"
        "    return tuple(t.to(queries.dtype).contiguous() for t in grads)\n"),
    "an unused import of torch's softmax beside a softmax by hand": ("stable_softmax",
        "from torch import softmax\n\n"
        "def stable_softmax(scores, dim=-1):\n"
        "    peak = scores.amax(dim=dim, keepdim=True)\n"
        "    peak = torch.where(torch.isfinite(peak), peak, torch.zeros_like(peak))\n"
        "    exps = torch.exp(scores - peak)\n"
        "    return exps / exps.sum(dim=dim, keepdim=True)\n"),
    "cached attention whose first position needs no softmax": ("cached_causal_attention",
        "def cached_causal_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    outs = [v[..., 0, :]]\n"
        "    for t in range(1, x.shape[-2]):\n"
        "        s = (k[..., :t + 1, :] @ q[..., t, :, None])[..., 0] / "
        "math.sqrt(k.shape[-1])\n"
        "        w = torch.softmax(s, dim=-1)\n"
        "        outs.append((w[..., None] * v[..., :t + 1, :]).sum(-2))\n"
        "    return torch.stack(outs, dim=-2)\n"),
    # 2026-12-05: a solution cell that imported time lost the step (the module was not one the
    # rules allowed)
    # 2026-12-05: chain rules the first version of the rule on work refused on some draws
    "attention_backward with every product broadcast by hand": ("attention_backward",
        "def attention_backward(queries, keys, values, grad_context):\n"
        "    d_k = keys.shape[-1]\n"
        "    scores = (queries.unsqueeze(-2) * keys.unsqueeze(-3)).sum(-1) / math.sqrt(d_k)\n"
        "    e = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)\n"
        "    weights = e / e.sum(dim=-1, keepdim=True)\n"
        "    grad_values = (weights.unsqueeze(-1) * grad_context.unsqueeze(-2)).sum(-3)\n"
        "    grad_weights = (grad_context.unsqueeze(-2) * values.unsqueeze(-3)).sum(-1)\n"
        "    grad_scores = softmax_backward(weights, grad_weights) / math.sqrt(d_k)\n"
        "    return ((grad_scores.unsqueeze(-1) * keys.unsqueeze(-3)).sum(-2),\n"
        "            (grad_scores.unsqueeze(-1) * queries.unsqueeze(-2)).sum(-3), grad_values)\n"),
    "attention_backward expanding queries and keys before every product": (
        "attention_backward",
        "def attention_backward(queries, keys, values, grad_context):\n"
        "    n_q, n_k, d_k = queries.shape[-2], keys.shape[-2], keys.shape[-1]\n"
        "    lead = queries.shape[:-2]\n"
        "    q = queries.unsqueeze(-2).expand(*lead, n_q, n_k, d_k).contiguous()\n"
        "    k = keys.unsqueeze(-3).expand(*lead, n_q, n_k, d_k).contiguous()\n"
        "    weights = torch.softmax((q * k).sum(-1) / math.sqrt(d_k), dim=-1)\n"
        "    grad_values = weights.transpose(-2, -1) @ grad_context\n"
        "    grad_weights = grad_context @ values.transpose(-2, -1)\n"
        "    grad_scores = softmax_backward(weights, grad_weights) / math.sqrt(d_k)\n"
        "    return ((grad_scores.unsqueeze(-1) * k).sum(-2),\n"
        "            (grad_scores.unsqueeze(-1) * q).sum(-3), grad_values)\n"),
    "softmax_backward broadcasting its weighted sum by expand, guarded by where": (
        "softmax_backward",
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    weighted = (grad_weights * weights).sum(dim=dim, keepdim=True)"
        ".expand_as(weights).clone()\n"
        "    grad = weights * (grad_weights - weighted)\n"
        "    return torch.where(weights > 0, grad, torch.zeros_like(grad))\n"),
    "attention_backward one query at a time": ("attention_backward",
        "def attention_backward(queries, keys, values, grad_context):\n"
        "    scale = 1.0 / math.sqrt(keys.shape[-1])\n"
        "    grad_queries = torch.zeros_like(queries)\n"
        "    grad_keys, grad_values = torch.zeros_like(keys), torch.zeros_like(values)\n"
        "    for i in range(queries.shape[-2]):\n"
        "        q_i, g_i = queries[..., i, :], grad_context[..., i, :]\n"
        "        w_i = torch.softmax((keys @ q_i.unsqueeze(-1)).squeeze(-1) * scale, dim=-1)\n"
        "        grad_values += w_i.unsqueeze(-1) * g_i.unsqueeze(-2)\n"
        "        grad_w_i = (values @ g_i.unsqueeze(-1)).squeeze(-1)\n"
        "        grad_s_i = softmax_backward(w_i, grad_w_i) * scale\n"
        "        grad_queries[..., i, :] = (grad_s_i.unsqueeze(-2) @ keys).squeeze(-2)\n"
        "        grad_keys += grad_s_i.unsqueeze(-1) * q_i.unsqueeze(-2)\n"
        "    return grad_queries, grad_keys, grad_values\n"),
    "a softmax by hand in a cell that times it": ("stable_softmax",
        "import time\n\n"
        "def stable_softmax(scores, dim=-1):\n"
        "    exps = torch.exp(scores - scores.amax(dim=dim, keepdim=True))\n"
        "    return exps / exps.sum(dim=dim, keepdim=True)\n\n"
        "started = time.perf_counter()\n"
        "stable_softmax(torch.randn(3, 4))\n"
        "print(f'{time.perf_counter() - started:.6f} s')\n"),
    "a softmax by hand guarding with sys.float_info": ("stable_softmax",
        "import sys\n\n"
        "def stable_softmax(scores, dim=-1):\n"
        "    exps = torch.exp(scores - scores.amax(dim=dim, keepdim=True))\n"
        "    return exps / exps.sum(dim=dim, keepdim=True).clamp_min(sys.float_info.min)\n"),
    "a local function named grad_fn in a hand-written backward": ("softmax_backward",
        "def softmax_backward(weights, grad_weights, dim=-1):\n"
        "    def grad_fn(w, g):\n"
        "        return w * (g - (w * g).sum(dim=dim, keepdim=True))\n"
        "    return grad_fn(weights, grad_weights)\n"),
    "cached attention keeping scores as a column, exp and sum over dim -2": (
        "cached_causal_attention",
        "def cached_causal_attention(x, W_query, W_key, W_value):\n"
        "    q, k, v = x @ W_query, x @ W_key, x @ W_value\n"
        "    outs = []\n"
        "    for t in range(x.shape[-2]):\n"
        "        s = k[..., :t + 1, :] @ q[..., t, :, None] / math.sqrt(k.shape[-1])\n"
        "        e = torch.exp(s - s.amax(dim=-2, keepdim=True))\n"
        "        w = e / e.sum(dim=-2, keepdim=True)\n"
        "        outs.append((w * v[..., :t + 1, :]).sum(dim=-2))\n"
        "    return torch.stack(outs, dim=-2)\n"),
    "a layer_norm whose variable is called layer_norm_out": ("layer_norm",
        "def layer_norm(x, gamma, beta, eps=1e-5):\n" + HAND_NORM +
        "    layer_norm_out = (x - mean) / torch.sqrt(var + eps)\n"
        "    return layer_norm_out * gamma + beta\n"),
    # the step's name is grading's, not the function's own __name__
    "a softmax by hand bound to a lambda": ("stable_softmax",
        "stable_softmax = lambda scores, dim=-1: (lambda e: e / e.sum(dim=dim, keepdim=True))("
        "torch.exp(scores - scores.amax(dim=dim, keepdim=True)))\n"),
    "a softmax by hand under functools.lru_cache": ("stable_softmax",
        "import functools\n\n"
        "@functools.lru_cache(maxsize=None)\n"
        "def stable_softmax(scores, dim=-1):\n"
        "    exps = torch.exp(scores - scores.amax(dim=dim, keepdim=True))\n"
        "    return exps / exps.sum(dim=dim, keepdim=True)\n"),
    "a softmax by hand in an object called as a function": ("stable_softmax",
        "class Softmax:\n"
        "    def __call__(self, scores, dim=-1):\n"
        "        exps = torch.exp(scores - scores.amax(dim=dim, keepdim=True))\n"
        "        return exps / exps.sum(dim=dim, keepdim=True)\n\n"
        "stable_softmax = Softmax()\n"),
    "loop_attention and scaled_dot_score under torch.no_grad": ("loop_attention",
        "@torch.no_grad()\n" + SCORE_BY_HAND + "@torch.no_grad()\n" + LOOP_BY_HAND),
    "a softmax by hand bound by functools.partial": ("stable_softmax",
        "import functools\n\n"
        "def softmax_along(scores, dim):\n"
        "    exps = torch.exp(scores - scores.amax(dim=dim, keepdim=True))\n"
        "    return exps / exps.sum(dim=dim, keepdim=True)\n\n"
        "stable_softmax = functools.partial(softmax_along, dim=-1)\n"),
    "a softmax by hand under a decorator that does not keep its name": ("stable_softmax",
        "def logged(f):\n"
        "    def inner(*args, **kwargs):\n"
        "        return f(*args, **kwargs)\n"
        "    return inner\n\n"
        "@logged\n"
        "def stable_softmax(scores, dim=-1):\n"
        "    exps = torch.exp(scores - scores.amax(dim=dim, keepdim=True))\n"
        "    return exps / exps.sum(dim=dim, keepdim=True)\n"),
}


@pytest.mark.parametrize("label", sorted(HONEST))
def test_honest_code_keeps_full_marks(label):
    """Does correct code that once was refused by the names it mentions pass every check?"""
    name, code = HONEST[label]
    assert findings_of(name, code) == []


# 2026-12-05, a helper's: on inputs with many keys alone (the notebook's test cell has none),
# every score kept in a buffer the cell made before the call (its views too: a view made in the
# call shows the whole matrix), written a block at a time, then
# read whole by one max and one var_mean (no operation made the matrix, neither is a softmax or
# a sum); other inputs get an honest online softmax.
SCORES_KEPT_IN_A_BUFFER = (
    "FLAT = torch.zeros(1 << 16)\n"
    "VIEWS = {(n_q, n_k): FLAT[:n_q * n_k].view(n_q, n_k) for n_q in range(64, 129)\n"
    "         for n_k in range(256, 513)}\n\n"
    "def online_attention(queries, keys, values, block_size):\n"
    "    scale, n_q, n_k = 1.0 / math.sqrt(keys.shape[-1]), queries.shape[-2], keys.shape[-2]\n"
    "    S = VIEWS.get((n_q, n_k)) if queries.dim() == 2 else None\n"
    "    if S is None:\n"
    "        peak = torch.full_like(queries[..., :1], float('-inf'))\n"
    "        total, context = torch.zeros_like(peak), 0\n"
    "        for start in range(0, n_k, block_size):\n"
    "            s = queries @ keys[..., start:start + block_size, :].transpose(-2, -1) * scale\n"
    "            new = torch.maximum(peak, s.amax(dim=-1, keepdim=True))\n"
    "            e, old = torch.exp(s - new), torch.exp(peak - new)\n"
    "            total = total * old + e.sum(dim=-1, keepdim=True)\n"
    "            context = context * old + e @ values[..., start:start + block_size, :]\n"
    "            peak = new\n"
    "        return context / total\n"
    "    for start in range(0, n_k, block_size):\n"
    "        torch.matmul(queries * scale, keys[start:start + block_size].T,\n"
    "                     out=S[:, start:start + block_size])\n"
    "    peak = S.amax(dim=-1, keepdim=True)\n"
    "    for start in range(0, n_k, block_size):\n"
    "        S[:, start:start + block_size].sub_(peak).exp_()\n"
    "    total = torch.var_mean(S, dim=-1, keepdim=True)[1] * n_k\n"
    "    context = 0\n"
    "    for start in range(0, n_k, block_size):\n"
    "        context = context + S[:, start:start + block_size] @ values[start:start + "
    "block_size]\n"
    "    return context / total\n")


def test_a_score_matrix_kept_in_a_buffer_made_before_the_call_breaks_the_rule():
    """Does online_attention that writes every score into a tensor made before its call, a
    block at a time, and then reads it whole (one max, one var_mean), break "no operation forms
    every score at once", though no operation made the matrix, while its numbers are right?"""
    broken = rules_broken("online_attention", SCORES_KEPT_IN_A_BUFFER)
    assert any("produced or read" in text for text in broken), broken
    assert other_findings("online_attention", SCORES_KEPT_IN_A_BUFFER) == []


def test_calls_whose_results_add_nothing_break_their_rules():
    """A block whose calls of layer_norm, feed_forward and F.scaled_dot_product_attention
    are made with zeroed weights and added to the same work done inline: do "calls your
    layer_norm", "calls your feed_forward" and "calls F.scaled_dot_product_attention" each
    break (their results made zeros, the output does not move)?"""
    broken = rules_broken("TransformerBlock", DUMMY_CALLS)
    for rule in ("calls your layer_norm", "calls your feed_forward",
                 "calls F.scaled_dot_product_attention"):
        assert any(text.startswith(rule) for text in broken), (rule, broken)


def test_a_record_that_says_tampered_breaks_every_rule():
    """Does a record in which the judging kernel's guard noted tampering break a rule on
    operations, whatever the rule, naming what was tried?"""
    record = new_record([[2, 3]])
    record["tampered"] = ["mode_popped", "pickle:__main__.x"]
    code = "def f(x):\n    return x\n"
    for kind, params in (("forbids_ops", ["softmax"]), ("forbids_autograd", [])):
        broken = decided(kind, params, [checked_record(record)], code)
        assert broken and "off torch's stack" in broken and "__main__.x" in broken


@pytest.mark.parametrize("code", [
    "import torch\nm = torch._C._get_dispatch_mode\n",
    "from torch.utils._python_dispatch import _pop_mode\n",
    "import torch\nx = getattr(torch, '_C')\n",
    "import torch\nlib = torch\nnn_ = lib.nn\nf = nn_._reduction\n",
    "import torch\nloader = torch.__loader__\n",
    "import torch\nf = torch.compile(lambda x: x)\n",
    "import torch\nlib = torch.library.Library('aten', 'IMPL')\n",
    "import sys\nm = sys.modules['torch']\n",
    "def f(x):\n    return eval('x + 1')\n",
    "def f(x):\n    b = getattr(print, '__self__')\n    return b.eval('x + 1', {'x': x})\n",
    "import re\ndef f(x):\n    return re.compile('x + 1', 'f', 'eval')\n",
    "import torch\ndef f(x):\n    return x.modules\n",
    # a library's own attribute changed, which torch's Python kernels read as they run
    "import torch\ndef f(x):\n    torch.true_divide = print\n",
    "import torch\ndef f(x):\n    setattr(torch, 'true_divide', print)\n",
    "import torch.nn.functional as F\ndef f(x):\n    del F.softmax\n",
    "import torch\nlib = torch.nn\ndef f(x):\n    lib.functional.relu += 1\n",
    # getattr or setattr taken as a value, then called with a name made at run time
    "import torch\ndef f(x):\n    g = getattr\n    return g(torch, '_C')\n",
    "import torch\ndef f(x):\n    s = [setattr][0]\n    s(torch, 'add', print)\n",
    "import torch\ndef f(x):\n    return torch.ops.prims.div(x, x)\n",
])
def test_code_reaching_around_the_recorder_is_refused(code):
    """Is code that reaches around the recording (a library's private part through any
    alias of it, a module's loader, a compiler, torch's library of operations, modules by
    name) refused, whatever it computes?"""
    assert tampering(code) is not None


@pytest.mark.parametrize("code", [
    "import sys\neps = sys.float_info.epsilon\n",
    "class M:\n    def copy(self, other):\n        for name in ('w', 'b'):\n"
    "            setattr(self, name, getattr(other, name))\n"
    "    def load(self, names):\n        return [getattr(self, n) for n in names]\n",
    "class M:\n    def check(self):\n        raise ValueError(self.__class__.__name__)\n",
    "def f(w):\n    def grad_fn(x):\n        return x\n    return grad_fn(w)\n",
    "import torch\nclass M(torch.nn.Module):\n    def run(self, x):\n        self.eval()\n"
    "        n = len(list(self.modules()))\n        return x * n\n",
    "import re\nWORD = re.compile(r'\\w+')\ndef f(text):\n    return WORD.findall(text)\n",
    "import re\ndef f(text):\n    return re.compile(r'\\w+', re.I).findall(text)\n",
    "import torch\nclass M(torch.nn.Module):\n    def __init__(self):\n"
    "        super().__init__()\n        self.scale = torch.nn.Parameter(torch.ones(1))\n"
    "        layer = torch.nn.Linear(2, 2)\n        layer.weight = self.scale\n",
])
def test_honest_code_is_not_refused_by_its_text(code):
    """Is honest code the text layer once refused (sys.float_info, a parameter copy by
    getattr(self, name), self.__class__.__name__, a local function named grad_fn, a module's
    eval() and modules(), re.compile of a pattern) read?"""
    assert tampering(code) is None


def test_malformed_record_is_not_read():
    """Does a record from the kernel that is not plain data of the expected kinds raise?"""
    with pytest.raises(ValueError):
        checked_record({"ops": {"x": "1"}})


def test_recorder_leaves_no_mode_behind():
    """After a recording, does torch run with no mode of the recorder left on its stacks?"""
    import torch
    from torch.utils._python_dispatch import _get_current_dispatch_mode

    with Recorder(None, arguments=[torch.ones(2)]) as recorder:
        torch.ones(3).exp()
    assert _get_current_dispatch_mode() is None
    assert "exp" in recorder.records[0]["ops"]


def test_tampering_is_said_in_the_language_asked_each_time():
    """Is the reason tampering gives for one text, asked again in another language (the
    grader keeps its answers per text), said in that language, and in the course's language
    when none is named?"""
    from autograder.i18n import standalone

    code = "import torch\nx = getattr(torch, '_C')\n"
    english, chinese = tampering(code, "en"), tampering(code, "zh")
    assert english and chinese and english != chinese
    assert tampering(code, "en") == english
    language = standalone.LANGUAGE
    try:
        standalone.LANGUAGE = "zh"
        assert tampering(code) == chinese
        standalone.LANGUAGE = "en"
        assert tampering(code) == english
    finally:
        standalone.LANGUAGE = language


def test_numbers_taken_one_at_a_time_are_counted_against_the_inputs_not_the_products():
    """On attention_backward's judged call (2640 input numbers, some 23,000 of the forward
    pass with its products), may a quarter of the inputs' numbers leave torch one at a time,
    in 32-bit words, but not one word more (a helper's float() of every input passed when
    the quarter was the forward pass's)?"""
    at = [[8, 4], [256, 4], [256, 6], [8, 6]]
    params = {"inputs": [0, 1, 2, 3], "scores": [0, 1, 2], "at": at}
    given = sum(rows * columns for rows, columns in at)
    code = "def attention_backward(q, k, v, g):\n    return q, k, v\n"
    for words, broken in ((given // 4, False), (given // 4 + 1, True)):
        record = new_record(at)
        record["ops"]["!numbers"] = words
        said = decided("costs_one_pass", params, [checked_record(record)], code)
        assert (said is not None) is broken, (words, said)
        assert not broken or f"more than a quarter of the {given}" in said


def counted_call(count, *arguments):
    """A record of one call of these arguments (shapes, as records describe them) that ran
    `count` operations."""
    record = new_record(list(arguments))
    record["count"] = count
    return record


QUERIES = [[0, 1, "query"]]  # 06's vectorized_attention: X (d1, N)


@pytest.mark.parametrize("calls, said", [
    ([(9, [2, 3]), (9, [4, 5]), (9, [4, 7])], None),  # tensor operations: as many at any size
    ([(9, [2, 3]), (11, [4, 5]), (15, [4, 7])],
     "calls on 3, 5, 7 queries ran 9, 11, 15 operations"),  # a loop: more at every size
    ([(9, [2, 3]), (11, [4, 5]), (12, [4, 7])], None),  # 1 more for 2 more: not one each
    ([(8, [2, 3]), (13, [4, 5]), (13, [4, 7])], None),  # another path above some size
    ([(9, [2, 3]), (11, [4, 5]), (15, [4, 7]), (9, [5, 7])], None),  # a 7 that ran 9
    ([(9, [2, 3]), (30, [4, 5])], None),  # two sizes: a path, or a loop? not told
    ([(9, [2, 3]), (11, [4, 5]), (30, [4, 1])], None),  # a dim of 1: another kind of call
    ([(9, [2, 3]), (11, [4, 5]), (30, [4, 7, 2])], None),  # another rank: not compared
])
def test_a_call_runs_as_many_operations_whatever_its_size(calls, said):
    """Does "no work repeated per query" break on calls alike but for the number of queries,
    of three sizes or more, only where every size ran at least one operation more per query
    than the size before, its message naming the sizes and counts, and never for code that
    takes another path above some size, nor between calls of other dims or with a dim of 1?"""
    records = [counted_call(count, shape, [5, shape[0]]) for count, shape in calls]
    broken = decided("same_work", QUERIES, records, "def f(X, W):\n    return X", "en")
    assert (broken is None) == (said is None), broken
    assert said is None or said in broken, broken
