# %% [markdown]
# # Assignment 9: Under the hood: gradients, memory and decoding
#
# This notebook goes past the five documents. They compute attention forwards only, once,
# each on one small example (a six-word sentence or a handful of inputs), and the
# illustrated walk-through of assignment 1 (*教你动手推导Self-Attention！（附代码）*) closes
# by naming what comes after attention (positional encoding, LayerNorm, stacking) without
# going there. Here we open three lids
# the documents leave shut, all on the scaled dot-product attention you wrote in assignments
# 3 and 4 and the causal mask of assignment 7:
#
# - **Training** needs gradients. You write the **backward pass** of softmax and of
#   attention by hand, the way autograd computes it, and check it against `torch.autograd`
#   and against finite differences.
# - **Long sequences** need memory. An `(n, n)` matrix of scores grows with the square of
#   the length. You write the **online softmax** that FlashAttention is built on: it reads
#   the keys a block at a time and never holds more than one block of scores.
# - **Generating text** needs decoding one word at a time. You write a **key/value cache**:
#   each new position is projected once and attends over what is cached, with no mask.
#
# Each result must match PyTorch's own computation to within the course's tolerance,
# so PyTorch is the reference throughout: `torch.autograd` for the gradients and
# `F.scaled_dot_product_attention` for the two attentions. The online softmax comes from
# Milakov and Gimelshein, *Online normalizer calculation for softmax* (2018), and is the
# heart of Dao et al., *FlashAttention* (2022). *Attention Is All You Need*, the paper that
# both the walk-through and the notebook *Scaled Dot Product Attention* cite, has its decoder produce
# one position at a time, each attending only to the earlier ones; the paper says nothing of
# a cache. Keeping each position's key and value, so that nothing is projected twice, is
# how implementations of such decoders generate text.
#
# | step | you write | points |
# | --- | --- | --- |
# | 1 | `softmax_backward`: the gradient of softmax | 3 |
# | 2 | `attention_backward`: the gradients of attention with respect to Q, K and V | 4 |
# | 3 | `online_attention`: attention one block of keys at a time | 4 |
# | 4 | `cached_causal_attention`: decoding with a key/value cache | 3 |
#
# **Total: {total_points} points.** Each step has a stub that raises `NotImplementedError`;
# replace the body with your code. The test cell after each stub runs a few public checks
# you can see; when you hand in, hidden checks with other inputs run as well (other sizes,
# batches, block sizes, float64), so make your code correct in general.
#
# Conventions, as in the whole course: vectors are **rows**, a sequence is `(n, d)`, a
# weight matrix is `(d_in, d_out)` and projecting is `x @ W`. Every function here also
# takes **leading batch dimensions** `(..., n, d)`; use `.transpose(-2, -1)` rather than
# `.T`. Where a step needs a forward softmax or a matrix product, use PyTorch's own
# (`torch.softmax`, `@`), except where a rule says otherwise.

# %% [markdown zh]
# # 作业 9：深入底层：梯度、内存与解码
#
# 本作业超出了五份资料的范围。资料只做注意力的前向计算，只算一次，每份资料只用一个小例子（一个六词句子或几个输入）；作业 1 用过的图解文章《教你动手推导Self-Attention！（附代码）》在结尾列出了注意力之后的内容（位置编码、LayerNorm、堆叠），但没有展开。这里补上资料没有展开的三件事，它们都建立在你在作业 3 和作业 4 中写的缩放点积注意力以及作业 7 的因果掩码之上：
#
# - **训练**需要梯度。你要亲手写出 softmax 和注意力的**反向传播**，也就是 autograd 所做的计算，并用 `torch.autograd` 和有限差分来检验它。
# - **长序列**需要内存。`(n, n)` 的注意力分数矩阵随长度的平方增长。你要写出 FlashAttention 所依赖的**在线 softmax**：它每次读取一块键，任何时候都只保存一块注意力分数。
# - **生成文本**需要逐词解码。你要写一个**键值缓存**：每个新位置只投影一次，然后对缓存中的内容做注意力，不需要掩码。
#
# 每个结果都必须在课程的容差范围内与 PyTorch 自己的计算一致，所以 PyTorch 自始至终都是参照：梯度对照 `torch.autograd`，两种注意力对照 `F.scaled_dot_product_attention`。在线 softmax 出自 Milakov 和 Gimelshein 的论文《Online normalizer calculation for softmax》（2018），也是 Dao 等人的《FlashAttention》（2022）的核心。这篇图解文章和笔记本《Scaled Dot Product Attention》都引用的论文《Attention Is All You Need》让解码器一次生成一个位置，每个位置只关注它之前的位置；论文本身并没有提到缓存。把每个位置的键和值保存下来、不再重复投影，这正是实现这类解码器时生成文本的通常做法。
#
# | 步骤 | 你要写的函数 | 分值 |
# | --- | --- | --- |
# | 1 | `softmax_backward`：softmax 的梯度 | 3 |
# | 2 | `attention_backward`：注意力对 Q、K、V 的梯度 | 4 |
# | 3 | `online_attention`：每次处理一块键的注意力 | 4 |
# | 4 | `cached_causal_attention`：用键值缓存解码 | 3 |
#
# **总分：{total_points} 分。** 每一步都有一个待完成的函数，它的函数体目前只会抛出 `NotImplementedError`，请换成你自己的代码。每个函数后面的测试单元格会运行几项你看得到的公开测试；提交之后，评分时还会用别的输入运行隐藏检查（别的大小、批、块大小、`float64`），所以你的代码要在一般情况下都正确。
#
# 约定与整个课程相同：向量是**行**，序列的形状是 `(n, d)`，权重矩阵的形状是 `(d_in, d_out)`，投影就是 `x @ W`。这里的每个函数还接受**前导批维度** `(..., n, d)`；请用 `.transpose(-2, -1)` 而不是 `.T`。某一步需要前向的 softmax 或矩阵乘法时，请直接用 PyTorch 自带的（`torch.softmax`、`@`），除非规则另有规定。

# %% setup
import math

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

# %% checks

# %% [markdown]
# ## Step 1: the gradient of softmax
#
# Training moves every parameter against the gradient of a loss $L$. Autograd gets it by
# the chain rule, one operation at a time, from the output back to the inputs: each
# operation receives the gradient of $L$ with respect to its output and returns the
# gradient with respect to its input. For softmax, the output is the weights
# $w = \operatorname{softmax}(s)$ and we receive $g = \partial L / \partial w$.
#
# Each weight depends on *every* score, through the sum in the denominator:
#
# $$\frac{\partial w_i}{\partial s_j} = w_i\,(\delta_{ij} - w_j),
# \qquad\text{so}\qquad
# \frac{\partial L}{\partial s_j} = \sum_i g_i\, w_i\,(\delta_{ij} - w_j)
# = w_j\Big(g_j - \sum_i g_i\, w_i\Big).$$
#
# In words: subtract from each $g_j$ the weighted mean $\sum_i g_i w_i$, then multiply by
# $w_j$. No $n \times n$ Jacobian is ever formed. `softmax_backward(weights, grad_weights,
# dim=-1)` does this along `dim` for a tensor of any shape: each slice along `dim` is one
# softmax with its own weighted sum (`keepdim=True` keeps it broadcastable). It returns
# the gradient with respect to the scores, the shape and dtype of `weights`.
#
# Small example: $w = [0.5, 0.3, 0.2]$ and $g = [1, 0, 2]$ give the weighted sum
# $0.5 + 0 + 0.4 = 0.9$, so the gradient is $w \odot (g - 0.9) = [0.05, -0.27, 0.22]$. It
# sums to 0: adding one constant to every score changes no weight.
#
# **Rule for this step and the next:** no autograd (`torch.autograd`, `.backward()`,
# `torch.func` ..., by whatever path: the grader watches whether your code walks an autograd
# graph): the point is to write the gradient yourself. And **about one forward pass of work,
# in torch**: on a call of fixed shapes (4 queries over 256 keys here; the test cell makes
# it, and grading makes one of the same shapes), and on every call as large or larger
# (grading draws one), the grader counts the numbers torch's operations read and make, and a gradient from the chain rule needs a few times those of
# the forward pass (at most 32 times). A whole Jacobian, or differences of the loss one entry
# at a time, need hundreds of times more; numbers handed out of torch (`.numpy()`,
# `.tolist()`, a print of a tensor, or the lengths of a result whose shape the numbers decide:
# `nonzero`, `unique`, `tensor_split` at a tensor's indices, or the message of an error an
# operation raised) cannot be counted, so they break the rule too, as do more numbers taken
# one at a time (`item()`, `float()`, `torch.equal`; a Python float counts as two) than a
# quarter of the numbers the call is given.

# %% [markdown zh]
# ## 第 1 步：softmax 的梯度
#
# 训练要让每个参数逆着损失 $L$ 的梯度移动。autograd 用链式法则求梯度，从输出往回、一次一个运算地推到输入：每个运算收到 $L$ 对它的输出的梯度，返回 $L$ 对它的输入的梯度。对 softmax 来说，输出是注意力权重 $w = \operatorname{softmax}(s)$，收到的是 $g = \partial L / \partial w$。
#
# 每个注意力权重都通过分母中的求和依赖于**每一个**分数：
#
# $$\frac{\partial w_i}{\partial s_j} = w_i\,(\delta_{ij} - w_j),
# \qquad\text{因此}\qquad
# \frac{\partial L}{\partial s_j} = \sum_i g_i\, w_i\,(\delta_{ij} - w_j)
# = w_j\Big(g_j - \sum_i g_i\, w_i\Big).$$
#
# 换句话说：先从每个 $g_j$ 中减去加权平均 $\sum_i g_i w_i$，再乘以 $w_j$。整个过程从不构造 $n \times n$ 的雅可比矩阵。`softmax_backward(weights, grad_weights, dim=-1)` 对任意形状的张量沿 `dim` 做这件事：沿 `dim` 的每个切片是一个独立的 softmax，有它自己的加权和（`keepdim=True` 让它保持可广播）。它返回对分数的梯度，形状和 `dtype` 都与 `weights` 相同。
#
# 小例子：$w = [0.5, 0.3, 0.2]$、$g = [1, 0, 2]$ 的加权和是 $0.5 + 0 + 0.4 = 0.9$，所以梯度是 $w \odot (g - 0.9) = [0.05, -0.27, 0.22]$。它的和为 0：给所有分数加上同一个常数，不会改变任何注意力权重。
#
# **本步和下一步的规则：** 不用 autograd（`torch.autograd`、`.backward()`、`torch.func` 等，无论通过什么途径：评分程序会观察你的代码是否走了 autograd 的计算图）：目的就是自己写出梯度。还有，**工作量约为一次前向传播，全用 PyTorch 完成**：在一次形状固定的调用上（这里是 4 个查询对 256 个键；测试单元格会做这次调用，评分时也会做一次形状相同的调用），以及同样大或更大的每次调用上（评分时会抽取一次），评分程序会统计 PyTorch 的运算读写了多少个数，用链式法则求梯度只需前向传播的几倍（最多 32 倍）。构造整个雅可比矩阵，或逐个元素对损失做差分，则要多出几百倍；交到 PyTorch 之外的数（`.numpy()`、`.tolist()`、打印张量，或者形状由这些数决定的结果的长度：`nonzero`、`unique`、按张量给出的位置做 `tensor_split`，或者运算抛出的错误信息）无法计数，所以同样违反规则；逐个取出的数（`item()`、`float()`、`torch.equal`；一个 Python 浮点数算两个）超过这次调用得到的数的四分之一，也违反规则。

# %% solution softmax_backward

# %% strings zh
{
    "The gradient of a loss with respect to the scores, given weights = softmax(scores, dim)":
        "给定 weights = softmax(scores, dim) 和损失对注意力权重的梯度 grad_weights",
    "and grad_weights, the loss's gradient with respect to the weights (same shape, any leading":
        "（形状相同，前导维度任意），求损失对分数的梯度：",
    "dims): weights * (grad_weights - sum(grad_weights * weights, dim, keepdim=True)).":
        "weights * (grad_weights - sum(grad_weights * weights, dim, keepdim=True))。",
    '# size 1 along dim': '# 沿 dim 大小为 1',
    '# the shape of weights': '# 与 weights 形状相同',
}

# %% tests softmax_backward points=3
weights = torch.tensor([[0.5, 0.3, 0.2]])
grad_weights = torch.tensor([[1.0, 0.0, 2.0]])
grad_scores = softmax_backward(weights, grad_weights)
expect_tensor(grad_scores, (1, 3), "the gradient of one softmax over 3 scores")
expect_close(grad_scores, [[0.05, -0.27, 0.22]], "the small example",
             mistakes=[("weighted sum not subtracted", [[0.5, 0.0, 0.4]]),
                       ("weights not multiplied in front", [[0.1, -0.9, 1.1]]),
                       ("grad_weights summed without the weights", [[-1.0, -0.9, -0.2]])])
# torch.autograd in float64, on a batch of 2 score matrices (3, 5), along each dim
gen = torch.Generator().manual_seed(0)
scores = torch.randn(2, 3, 5, generator=gen, dtype=torch.float64)
upstream = torch.randn(2, 3, 5, generator=gen, dtype=torch.float64)
for dim in (-1, 0, 1):
    leaf = scores.clone().requires_grad_()
    torch.softmax(leaf, dim=dim).backward(upstream)
    mine = softmax_backward(torch.softmax(scores, dim=dim), upstream, dim=dim)
    expect_tensor(mine, (2, 3, 5), f"the float64 gradient of the scores along dim={dim}",
                  dtype=torch.float64)
    expect_close(mine.float(), leaf.grad.float(),
                 f"along dim={dim}, compared with torch.autograd")
# a finite difference: moving the scores by eps * direction changes the loss by about
# eps * <gradient, direction>
direction = torch.randn(3, 5, generator=gen, dtype=torch.float64)
eps = 1e-6


def loss(shift):
    return (torch.softmax(scores[0] + shift * direction, dim=-1) * upstream[0]).sum()


numeric = (loss(eps) - loss(-eps)) / (2 * eps)
predicted = (softmax_backward(torch.softmax(scores[0], dim=-1), upstream[0]) * direction).sum()
expect_close(predicted.float(), numeric.float(), "the change of the loss the gradient predicts, "
             "against a finite difference")
# the rule's shapes, 4 queries over 256 keys: by the chain rule the gradient costs a few
# times the forward pass (differences of the loss, a column at a time, would cost 256 of them)
scores = torch.randn(4, 256, generator=gen, dtype=torch.float64)
upstream = torch.randn(4, 256, generator=gen, dtype=torch.float64)
leaf = scores.clone().requires_grad_()
torch.softmax(leaf, dim=-1).backward(upstream)
mine = softmax_backward(torch.softmax(scores, dim=-1), upstream)
expect_close(mine.float(), leaf.grad.float(), "4 rows of 256 scores, against torch.autograd")
# larger than the rule's shapes, along dim 1 (a call as large is judged by the rule too;
# grading draws one of its own shape)
scores = torch.randn(2, 300, 3, generator=gen, dtype=torch.float64)
upstream = torch.randn(2, 300, 3, generator=gen, dtype=torch.float64)
leaf = scores.clone().requires_grad_()
torch.softmax(leaf, dim=1).backward(upstream)
mine = softmax_backward(torch.softmax(scores, dim=1), upstream, dim=1)
expect_close(mine.float(), leaf.grad.float(), "(2, 300, 3) along dim=1, against torch.autograd")

# %% strings zh
{
    "the gradient of one softmax over 3 scores": "一个 softmax（3 个分数）的梯度",
    '"the small example"': '"小例子"',
    "# torch.autograd in float64, on a batch of 2 score matrices (3, 5), along each dim":
        "# 在 float64 下对照 torch.autograd：2 个 (3, 5) 分数矩阵组成的一批，沿每个维度各算一次",
    'f"the float64 gradient of the scores along dim={dim}"':
        'f"沿 dim={dim} 对分数求得的 float64 梯度"',
    "f\"along dim={dim}, compared with torch.autograd\"": "f\"沿 dim={dim}，与 torch.autograd 对照\"",
    "# a finite difference: moving the scores by eps * direction changes the loss by about\n"
    "# eps * <gradient, direction>":
        "# 有限差分：分数移动 eps * direction 时，损失大约改变\n# eps * <梯度, direction>",
    '"the change of the loss the gradient predicts, "':
        '"梯度预测的损失变化，"',
    '"against a finite difference"': '"与有限差分对照"',
    "# the rule's shapes, 4 queries over 256 keys: by the chain rule the gradient costs a few\n"
    "# times the forward pass (differences of the loss, a column at a time, would cost 256 of them)":
        "# 规则所用的形状：4 个查询，各对 256 个键。用链式法则，梯度的代价只是前向传播的几倍\n"
        "# （逐列对损失做差分，则要付出 256 次前向传播的代价）",
    '"4 rows of 256 scores, against torch.autograd"': '"4 行、每行 256 个分数，与 torch.autograd 对照"',
    "# larger than the rule's shapes, along dim 1 (a call as large is judged by the rule too;\n"
    "# grading draws one of its own shape)":
        "# 比规则所用的形状大，沿 dim 1（同样大的调用也按这条规则评判；\n"
        "# 评分时会抽取一个形状）",
    '"(2, 300, 3) along dim=1, against torch.autograd"': '"(2, 300, 3) 沿 dim=1，与 torch.autograd 对照"',
}

# %% [markdown]
# ## Step 2: the gradients of attention
#
# Attention is three operations in a row, and its backward pass is the same three in
# reverse order:
#
# $$S = \frac{Q K^\top}{\sqrt{d_k}}, \qquad W = \operatorname{softmax}(S), \qquad
# C = W V.$$
#
# Given $G = \partial L / \partial C$ (`grad_context`, shaped like the context), the chain
# rule gives, from the last operation back:
#
# 1. $C = W V$: $\partial L / \partial V = W^\top G$ and
#    $\partial L / \partial W = G V^\top$;
# 2. the softmax, row by row: $\partial L / \partial S$ = `softmax_backward(W, G V^T)`,
#    your step 1;
# 3. $S = Q K^\top / \sqrt{d_k}$: $\partial L / \partial Q = (\partial L / \partial S)\,
#    K / \sqrt{d_k}$ and $\partial L / \partial K = (\partial L / \partial S)^\top Q /
#    \sqrt{d_k}$.
#
# Check the shapes as you go: every gradient has the shape of what it is the gradient of,
# `(n_q, d_k)` for the queries, `(n_k, d_k)` for the keys, `(n_k, d_v)` for the values, and
# with non-square sizes a missing transpose cannot go unnoticed. The backward pass needs
# the weights $W$ of the forward pass: recompute them here with `torch.softmax` (this is
# also what FlashAttention does, to avoid storing them).
#
# `attention_backward(queries, keys, values, grad_context)` returns the tuple
# `(grad_queries, grad_keys, grad_values)`, with any leading batch dims and the inputs'
# dtype. You may call your `softmax_backward`.

# %% [markdown zh]
# ## 第 2 步：注意力的梯度
#
# 注意力是依次进行的三个运算，它的反向传播就是把这三个运算倒过来：
#
# $$S = \frac{Q K^\top}{\sqrt{d_k}}, \qquad W = \operatorname{softmax}(S), \qquad
# C = W V.$$
#
# 给定 $G = \partial L / \partial C$（即 `grad_context`，形状与上下文向量相同），链式法则从最后一个运算往回依次给出：
#
# 1. $C = W V$：$\partial L / \partial V = W^\top G$，$\partial L / \partial W = G V^\top$；
# 2. 逐行的 softmax：$\partial L / \partial S$ = `softmax_backward(W, G V^T)`，也就是你的第 1 步；
# 3. $S = Q K^\top / \sqrt{d_k}$：$\partial L / \partial Q = (\partial L / \partial S)\, K / \sqrt{d_k}$，$\partial L / \partial K = (\partial L / \partial S)^\top Q / \sqrt{d_k}$。
#
# 边写边检查形状：每个梯度的形状都与它所对应的量相同，查询是 `(n_q, d_k)`，键是 `(n_k, d_k)`，值是 `(n_k, d_v)`；各个大小互不相同时，漏掉一次转置一定会暴露出来。反向传播需要前向计算中的注意力权重 $W$：在这里用 `torch.softmax` 重新算一遍（FlashAttention 也是这样做的，以免存储它们）。
#
# `attention_backward(queries, keys, values, grad_context)` 返回元组 `(grad_queries, grad_keys, grad_values)`，支持任意前导批维度，`dtype` 与输入相同。你可以调用自己的 `softmax_backward`。

# %% solution attention_backward

# %% strings zh
{
    "The gradients of context = softmax(Q K^T / sqrt(d_k)) V with respect to Q, K and V,":
        "context = softmax(Q K^T / sqrt(d_k)) V 对 Q、K、V 的梯度，",
    "given grad_context, the loss's gradient with respect to the context.":
        "已知 grad_context，即损失对上下文向量的梯度。",
    "queries (..., n_q, d_k), keys (..., n_k, d_k), values (..., n_k, d_v), grad_context":
        "queries (..., n_q, d_k)，keys (..., n_k, d_k)，values (..., n_k, d_v)，grad_context",
    "(..., n_q, d_v). Returns (grad_queries (..., n_q, d_k), grad_keys (..., n_k, d_k),":
        "(..., n_q, d_v)。返回 (grad_queries (..., n_q, d_k)，grad_keys (..., n_k, d_k)，",
    "grad_values (..., n_k, d_v)).": "grad_values (..., n_k, d_v))。",
    '# (..., n_q, n_k): the forward pass again': '# (..., n_q, n_k)：再算一遍前向传播',
}

# %% tests attention_backward points=4
queries = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 1.0]])  # (n_q, d_k) = (2, 4)
keys = torch.tensor([[1.0, 1.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0], [2.0, 0.0, 0.0, 1.0]])  # (3, 4)
values = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # (n_k, d_v) = (3, 2)
grad_context = torch.tensor([[1.0, 0.0], [0.0, 1.0]])  # (n_q, d_v) = (2, 2)
grads = attention_backward(queries, keys, values, grad_context)
expect_equal(torch.tensor(len(grads)), torch.tensor(3),
             "the number of gradients returned (grad_queries, grad_keys, grad_values)")
grad_queries, grad_keys, grad_values = grads
expect_tensor(grad_queries, (2, 4), "grad_queries, shaped like the queries")
expect_tensor(grad_keys, (3, 4), "grad_keys, shaped like the keys")
expect_tensor(grad_values, (3, 2), "grad_values, shaped like the values")
expect_close(grad_values, [[0.2741, 0.3837], [0.2741, 0.3837], [0.4519, 0.2327]],
             "grad_values of the small example",
             mistakes=[("grad_values with unnormalised weights",
                        [[1.6487, 2.7183], [1.6487, 2.7183], [2.7183, 1.6487]]),
                       ("sqrt(d_v) instead of sqrt(d_k)",
                        [[0.2483, 0.4011], [0.2483, 0.4011], [0.5035, 0.1978]])])
expect_close(grad_queries, [[0.1614, -0.0619, -0.0995, 0.0619],
                            [-0.029, -0.0446, 0.0736, 0.0446]],
             "grad_queries of the small example",
             mistakes=[("no 1/sqrt(d_k) in the gradients",
                        [[0.3228, -0.1238, -0.199, 0.1238], [-0.0579, -0.0893, 0.1472, 0.0893]]),
                       ("softmax backward skipped",
                        [[1.5, 0.5, 0.0, 0.5], [1.0, 0.5, 0.5, 0.5]])])
expect_close(grad_keys, [[0.0376, -0.2365, 0.0376, -0.1182], [-0.0995, 0.1472, -0.0995, 0.0736],
                         [0.0619, 0.0893, 0.0619, 0.0446]],
             "grad_keys of the small example",
             mistakes=[("grad_keys unscaled",
                        [[0.0751, -0.4729, 0.0751, -0.2365], [-0.199, 0.2944, -0.199, 0.1472],
                         [0.1238, 0.1785, 0.1238, 0.0893]])])
# torch.autograd in float64, with leading batch dims: 2 sequences of 3 heads
gen = torch.Generator().manual_seed(1)
q, k, v = (torch.randn(2, 3, n, d, generator=gen, dtype=torch.float64)
           for n, d in ((5, 4), (7, 4), (7, 6)))
upstream = torch.randn(2, 3, 5, 6, generator=gen, dtype=torch.float64)
leaves = [t.clone().requires_grad_() for t in (q, k, v)]
F.scaled_dot_product_attention(*leaves).backward(upstream)
mine = attention_backward(q, k, v, upstream)
for name, got, leaf in zip(("grad_queries", "grad_keys", "grad_values"), mine, leaves):
    expect_tensor(got, leaf.shape, f"{name} of a batch of (2, 3) sequences in float64",
                  dtype=torch.float64)
    expect_close(got.float(), leaf.grad.float(), f"{name}, compared with torch.autograd")
# a finite difference for each input, in float64
for which, name in enumerate(("grad_queries", "grad_keys", "grad_values")):
    direction = torch.randn(mine[which].shape, generator=gen, dtype=torch.float64)
    eps = 1e-6

    def loss(shift):
        moved = [q, k, v]
        moved[which] = moved[which] + shift * direction
        return (F.scaled_dot_product_attention(*moved) * upstream).sum()

    numeric = (loss(eps) - loss(-eps)) / (2 * eps)
    expect_close((mine[which] * direction).sum().float(), numeric.float(),
                 f"{name}: the change of the loss it predicts, against a finite difference")
# the rule's shapes, 8 queries over 256 keys (d_k = 4, d_v = 6): by the chain rule a few
# times the forward pass's work
q, k, v = (torch.randn(n, d, generator=gen, dtype=torch.float64)
           for n, d in ((8, 4), (256, 4), (256, 6)))
upstream = torch.randn(8, 6, generator=gen, dtype=torch.float64)
leaves = [t.clone().requires_grad_() for t in (q, k, v)]
F.scaled_dot_product_attention(*leaves).backward(upstream)
mine = attention_backward(q, k, v, upstream)
for name, got, leaf in zip(("grad_queries", "grad_keys", "grad_values"), mine, leaves):
    expect_close(got.float(), leaf.grad.float(), f"{name} over 256 keys, against torch.autograd")
# larger than the rule's shapes: a batch of 2, 10 queries over 300 keys (d_k = 5, d_v = 7)
q, k, v = (torch.randn(2, n, d, generator=gen, dtype=torch.float64)
           for n, d in ((10, 5), (300, 5), (300, 7)))
upstream = torch.randn(2, 10, 7, generator=gen, dtype=torch.float64)
leaves = [t.clone().requires_grad_() for t in (q, k, v)]
F.scaled_dot_product_attention(*leaves).backward(upstream)
mine = attention_backward(q, k, v, upstream)
for name, got, leaf in zip(("grad_queries", "grad_keys", "grad_values"), mine, leaves):
    expect_close(got.float(), leaf.grad.float(), f"{name} over 300 keys, against torch.autograd")

# %% strings zh
{
    "the number of gradients returned (grad_queries, grad_keys, grad_values)":
        "返回的梯度个数（grad_queries、grad_keys、grad_values）",
    "grad_queries, shaped like the queries": "grad_queries，形状与查询相同",
    "grad_keys, shaped like the keys": "grad_keys，形状与键相同",
    "grad_values, shaped like the values": "grad_values，形状与值相同",
    "grad_values of the small example": "小例子的 grad_values",
    "grad_queries of the small example": "小例子的 grad_queries",
    "grad_keys of the small example": "小例子的 grad_keys",
    "# torch.autograd in float64, with leading batch dims: 2 sequences of 3 heads":
        "# 在 float64 下对照 torch.autograd，带前导批维度：2 个序列，每个 3 个头",
    "f\"{name} of a batch of (2, 3) sequences in float64\"":
        "f\"前导批维度为 (2, 3) 的输入在 float64 下的 {name}\"",
    'f"{name}, compared with torch.autograd"': 'f"{name}，与 torch.autograd 对照"',
    "# a finite difference for each input, in float64": "# 对每个输入各做一次有限差分，float64",
    'f"{name}: the change of the loss it predicts, against a finite difference"':
        'f"{name}：它预测的损失变化，与有限差分对照"',
    "# the rule's shapes, 8 queries over 256 keys (d_k = 4, d_v = 6): by the chain rule a few\n"
    "# times the forward pass's work":
        "# 规则所用的形状：8 个查询对 256 个键（d_k = 4，d_v = 6）。用链式法则，\n"
        "# 代价只是前向传播的几倍",
    'f"{name} over 256 keys, against torch.autograd"': 'f"256 个键时的 {name}，与 torch.autograd 对照"',
    "# larger than the rule's shapes: a batch of 2, 10 queries over 300 keys (d_k = 5, d_v = 7)":
        "# 比规则所用的形状大：一批 2 个，10 个查询对 300 个键（d_k = 5，d_v = 7）",
    'f"{name} over 300 keys, against torch.autograd"': 'f"300 个键时的 {name}，与 torch.autograd 对照"',
}

# %% [markdown]
# ## Step 3: attention one block of keys at a time
#
# For one query, softmax needs the maximum of *all* its scores (to subtract it, as in
# assignment 1) and the sum of *all* their exponentials (to divide by it). Computed the
# ordinary way, that means holding a row of `n_k` scores per query: an `(n_q, n_k)` matrix,
# 16 MiB for 2048 queries and keys in float32, 4 GiB for 32768. The **online softmax** reads
# the keys and values in blocks of `block_size` rows and keeps, for each query, only three
# running quantities:
#
# - $m$, the largest score seen so far (it starts at $-\infty$, not at 0 or at a large
#   negative number such as $-10^4$: the hidden checks give every student a query whose
#   every score lies between $-25000$ and $-20000$, and from any finite start above them
#   every $e^{s - m}$ is 0);
# - $\ell$, the sum of $e^{s - m}$ over the scores seen so far;
# - $c$, the sum of $e^{s - m}\, v$ over the values seen so far (a partial context).
#
# For each block, with its scores $s$ (scaled by $1/\sqrt{d_k}$ as always):
#
# $$m' = \max\big(m, \max_j s_j\big), \qquad
# \ell' = \ell\, e^{m - m'} + \sum_j e^{s_j - m'}, \qquad
# c' = c\, e^{m - m'} + \sum_j e^{s_j - m'}\, v_j.$$
#
# The factor $e^{m - m'}$ is the whole trick: what was summed before was taken relative to
# the old max, and multiplying by it re-expresses it relative to the new one (it is 1 when
# the max did not move, and 0 on the first block, where $m = -\infty$). After the last block,
# the context is $c / \ell$, exactly the softmax's weighted mean.
#
# ![The scores of one query read in three blocks of sizes 4, 4 and 2: after each block the running max m, the factor exp(m_old - m_new) that rescales the running sum and partial context, and the running sum l](figure:online_softmax)
#
# `online_attention(queries, keys, values, block_size)` takes `(..., n_q, d_k)`,
# `(..., n_k, d_k)` and `(..., n_k, d_v)` and returns `(..., n_q, d_v)`. Any `block_size >= 1`
# must work, including one that does not divide `n_k` (the last block is shorter) and one
# larger than `n_k` (a single block). `keys[..., start:start + block_size, :]` gives a block;
# a slice that runs past the end simply stops there.
#
# **Rules for this step:** no operation forms every score at once: the grader records what
# your code computes, and on inputs with many keys no result may hold as many numbers as the
# whole `(n_q, n_k)` score matrix. Work in PyTorch: a tensor's numbers handed to numpy
# (`.numpy()`, `np.asarray`, a numpy function called on a tensor) are out of the grader's
# sight, where a buffer made before the call could hold every score, so they break this rule
# too. And no built-in softmax or attention (`torch.softmax`,
# `F.scaled_dot_product_attention` ...), by whatever path.

# %% [markdown zh]
# ## 第 3 步：每次处理一块键的注意力
#
# 对一个查询而言，softmax 需要它**所有**分数中的最大值（像作业 1 那样减去它），以及**所有**分数指数之和（用来做除数）。按普通方式计算，就要为每个查询保存一行 `n_k` 个分数：一个 `(n_q, n_k)` 的矩阵，2048 个查询和键在 `float32` 下就是 16 MiB，32768 个则是 4 GiB。**在线 softmax** 每次读取 `block_size` 行键和值，对每个查询只保存三个随读随更新的量：
#
# - $m$，到目前为止见过的最大分数（初始为 $-\infty$，而不是 0 或 $-10^4$ 这样绝对值很大的负数：隐藏检查给每个学生都准备了一个所有分数都在 $-25000$ 到 $-20000$ 之间的查询，若从比它们大的有限数开始，每个 $e^{s - m}$ 都是 0）；
# - $\ell$，到目前为止见过的分数的 $e^{s - m}$ 之和；
# - $c$，到目前为止见过的值向量的 $e^{s - m}\, v$ 之和（部分的上下文向量）。
#
# 对每一块，设它的分数为 $s$（和往常一样乘以 $1/\sqrt{d_k}$）：
#
# $$m' = \max\big(m, \max_j s_j\big), \qquad
# \ell' = \ell\, e^{m - m'} + \sum_j e^{s_j - m'}, \qquad
# c' = c\, e^{m - m'} + \sum_j e^{s_j - m'}\, v_j.$$
#
# 关键全在因子 $e^{m - m'}$：之前累加的量是相对于旧的最大值计算的，乘以它就换算成相对于新的最大值（最大值没有变化时它等于 1；在第一块时 $m = -\infty$，它等于 0）。读完最后一块后，上下文向量就是 $c / \ell$，恰好等于 softmax 的加权平均。
#
# ![一个查询的分数分三块读取，大小分别为 4、4、2：每块之后的当前最大值 m、用来重新缩放累计和与部分上下文向量的因子 exp(m_old - m_new)，以及累计和 l](figure:online_softmax)
#
# `online_attention(queries, keys, values, block_size)` 接收 `(..., n_q, d_k)`、`(..., n_k, d_k)` 和 `(..., n_k, d_v)`，返回 `(..., n_q, d_v)`。任何 `block_size >= 1` 都必须能用，包括不能整除 `n_k` 的（最后一块较短）和大于 `n_k` 的（只有一块）。`keys[..., start:start + block_size, :]` 取出一块；超出末尾的切片会自动在末尾停下。
#
# **本步规则：** 任何运算都不能一次算出全部分数：评分程序会记录你的代码算了什么，在键很多的输入上，任何结果都不能含有和整个 `(n_q, n_k)` 分数矩阵一样多的数。请全用 PyTorch 完成：交给 `numpy` 的张量数（`.numpy()`、`np.asarray`、对张量调用 `numpy` 的函数）不在评分程序的视野之内，调用之前建好的缓冲区可以在那里装下全部分数，所以同样违反这条规则。也不能用内置的 softmax 或注意力（`torch.softmax`、`F.scaled_dot_product_attention` 等），无论通过什么途径。

# %% solution online_attention

# %% strings zh
{
    "softmax(Q K^T / sqrt(d_k)) V, reading keys and values block_size rows at a time.":
        "softmax(Q K^T / sqrt(d_k)) V，每次读取 block_size 行键和值。",
    "queries (..., n_q, d_k), keys (..., n_k, d_k), values (..., n_k, d_v); returns":
        "queries (..., n_q, d_k)，keys (..., n_k, d_k)，values (..., n_k, d_v)；返回",
    "(..., n_q, d_v). Each query keeps a running max m and a running sum l of exp(score - m);":
        "(..., n_q, d_v)。每个查询保存一个当前最大值 m 和 exp(score - m) 的累计和 l；",
    "when a block raises m, the sum and the partial context so far are rescaled by":
        "某一块使 m 变大时，已有的和与部分上下文向量都乘以",
    "exp(m_old - m_new). The last block may be shorter than block_size.":
        "exp(m_old - m_new) 重新缩放。最后一块可以比 block_size 短。",
    '# (..., n_q, 1), 0 on the first block': '# (..., n_q, 1)，第一块时为 0',
}

# %% tests online_attention points=4
queries = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 1.0]])  # (n_q, d_k) = (2, 4)
keys = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0],
                     [2.0, 0.0, 2.0, 0.0], [0.0, 3.0, 0.0, 1.0]])  # (n_k, d_k) = (5, 4)
values = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0], [0.0, 2.0]])  # (5, 2)
context = online_attention(queries, keys, values, 2)  # blocks of 2, 2 and 1 keys
expect_tensor(context, (2, 2), "2 queries over 5 keys in blocks of 2")
expect_close(context, [[1.4248, 0.3664], [0.103, 1.8012]], "the small example, block_size = 2",
             mistakes=[("old sum and context not rescaled", [[1.0871, 0.3711], [0.4741, 1.0851]]),
                       ("context rescaled but not the running sum",
                        [[0.825, 0.2122], [0.0389, 0.6806]]),
                       ("last partial block dropped", [[1.5467, 0.2266], [0.6995, 0.6502]]),
                       ("running max never updated", [[0.0, 2.0], [0.0, 2.0]]),
                       ("no division by the running sum", [[2.4463, 0.6291], [0.1208, 2.1123]]),
                       ("no 1/sqrt(d_k)", [[1.8479, 0.0922], [0.0036, 1.9888]])])
# a batch of 2 sequences of 3 heads, 11 keys: every block size, dividing 11 or not
gen = torch.Generator().manual_seed(2)
q, k, v = (torch.randn(2, 3, n, d, generator=gen) for n, d in ((6, 4), (11, 4), (11, 5)))
expected = F.scaled_dot_product_attention(q, k, v)
for block_size in (1, 2, 3, 4, 10, 11, 16):
    expect_close(online_attention(q, k, v, block_size), expected,
                 f"block_size = {block_size} over 11 keys, compared with "
                 "F.scaled_dot_product_attention")
# scores in the hundreds, some rows' largest in a later block: the running max keeps exp finite
big_q, big_k = 12 * torch.randn(3, 4, generator=gen), 12 * torch.randn(7, 4, generator=gen)
big_k[:4] -= 3 * big_k[4:].mean(dim=0)
big_v = torch.randn(7, 5, generator=gen)
expect_close(online_attention(big_q, big_k, big_v, 3),
             F.scaled_dot_product_attention(big_q, big_k, big_v),
             "scores in the hundreds, block_size = 3")
# every score of a query thousands below zero (-2000 to -8000 here): exp of each is 0
# unless the running max was subtracted first
far_q = torch.full((1, 4), -4000.0)  # (1, d_k)
far = online_attention(far_q, keys, values, 2)
assert torch.isfinite(far).all(), (
    f"every score thousands below zero gave {far}: start the running max at -inf, not 0")
expect_close(far, F.scaled_dot_product_attention(far_q, keys, values),
             "every score thousands below zero, block_size = 2")

# %% strings zh
{
    "# blocks of 2, 2 and 1 keys": "# 三块，分别有 2、2、1 个键",
    "2 queries over 5 keys in blocks of 2": "2 个查询对 5 个键，每块 2 个",
    "the small example, block_size = 2": "小例子，block_size = 2",
    "# a batch of 2 sequences of 3 heads, 11 keys: every block size, dividing 11 or not":
        "# 2 个序列、每个 3 个头组成的一批，11 个键：各种块大小，能否整除 11 的都有",
    'f"block_size = {block_size} over 11 keys, compared with "':
        'f"block_size = {block_size}，11 个键，与 "',
    '"F.scaled_dot_product_attention"': '"F.scaled_dot_product_attention 对照"',
    "# scores in the hundreds, some rows' largest in a later block: the running max keeps exp "
    "finite":
        "# 分数达到几百，有些行的最大分数出现在后面的块中：当前最大值让 exp 保持有限",
    "scores in the hundreds, block_size = 3": "分数达到几百，block_size = 3",
    "# every score of a query thousands below zero (-2000 to -8000 here): exp of each is 0":
        "# 一个查询的所有分数都比 0 小几千（这里是 -2000 到 -8000）：每个分数的 exp 都是 0，",
    "# unless the running max was subtracted first": "# 除非先减去了当前最大值",
    'f"every score thousands below zero gave {far}: start the running max at -inf, not 0"':
        'f"所有分数都比 0 小几千时得到 {far}：当前最大值要从 -inf 开始，而不是 0"',
    "every score thousands below zero, block_size = 2": "所有分数都比 0 小几千，block_size = 2",
}

# %% [markdown]
# ### What the blocks save
#
# The cell below runs a computation inside `Measure()`, which watches every tensor
# operation PyTorch performs and records the size of the largest tensor any of them made.
# Compare ordinary attention, which makes the full `(2048, 2048)` matrix of scores, with
# your `online_attention` on the same inputs. The numbers are your code's, so they depend
# on how you wrote it: a version that forms all the scores at once shows it here.

# %% [markdown zh]
# ### 分块省下了什么
#
# 下面的单元格在 `Measure()` 中运行计算，它会观察 PyTorch 执行的每一个张量运算，并记录其中任何一个运算产生的最大张量的大小。对同样的输入，比较普通的注意力（它会构造完整的 `(2048, 2048)` 分数矩阵）和你的 `online_attention`。这些数字来自你的代码，所以取决于你的写法：一次构造出全部分数的写法会在这里显现出来。

# %% setup
class Measure(TorchDispatchMode):
    """Inside `with Measure(inner) as seen:`, every tensor operation is recorded:
    seen.largest is the size in bytes of the largest tensor an operation made, and
    seen.produced the number of entries made by matrix products whose inner size is `inner`.
    """

    PRODUCTS = {"mm", "bmm", "mv", "dot", "addmm", "addmv", "baddbmm"}

    def __init__(self, inner=None):
        super().__init__()
        self.inner, self.largest, self.produced = inner, 0, 0

    @classmethod
    def _should_skip_dynamo(cls):
        """False: torch then leaves __torch_dispatch__ as written. Otherwise it wraps it for
        its compiler, and the first Measure imports that compiler (about a second)."""
        return False

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for tensor in out if isinstance(out, tuple | list) else (out,):
            if isinstance(tensor, torch.Tensor):
                self.largest = max(self.largest, tensor.numel() * tensor.element_size())
        name = func.overloadpacket.__name__
        if name in self.PRODUCTS:
            left = args[1] if name.startswith(("add", "badd")) else args[0]
            if left.shape[-1] == self.inner:
                self.produced += out.numel()
        return out

# %% strings zh
{
    "Inside `with Measure(inner) as seen:`, every tensor operation is recorded:":
        "在 `with Measure(inner) as seen:` 之内，每个张量运算都会被记录：",
    "seen.largest is the size in bytes of the largest tensor an operation made, and":
        "seen.largest 是运算产生的最大张量的字节数，",
    "seen.produced the number of entries made by matrix products whose inner size is `inner`.":
        "seen.produced 是内维大小为 `inner` 的矩阵乘法所产生的元素个数。",
    "False: torch then leaves __torch_dispatch__ as written. Otherwise it wraps it for":
        "False：这样 torch 就让 __torch_dispatch__ 保持原样。否则它会为自己的编译器包装它，",
    "its compiler, and the first Measure imports that compiler (about a second).":
        "第一次使用 Measure 时就要导入那个编译器（大约一秒）。",
}

# %% code
n, d = 2048, 64
gen = torch.Generator().manual_seed(3)
q, k, v = (torch.randn(n, d, generator=gen) for _ in range(3))
with Measure() as full:
    reference = torch.softmax(q @ k.T / math.sqrt(d), dim=-1) @ v
print(f"ordinary attention, {n} queries and keys: largest tensor "
      f"{full.largest / 2**20:.2f} MiB")
for block_size in (512, 128, 32):
    with Measure() as blocked:
        context = online_attention(q, k, v, block_size)
    print(f"your online_attention, block_size = {block_size}: largest tensor "
          f"{blocked.largest / 2**20:.2f} MiB, largest difference from ordinary attention "
          f"{(context - reference).abs().max():.1e}")

# %% strings zh
{
    'f"ordinary attention, {n} queries and keys: largest tensor "':
        'f"普通注意力，{n} 个查询和键：最大的张量 "',
    'f"your online_attention, block_size = {block_size}: largest tensor "':
        'f"你的 online_attention，block_size = {block_size}：最大的张量 "',
    'f"{blocked.largest / 2**20:.2f} MiB, largest difference from ordinary attention "':
        'f"{blocked.largest / 2**20:.2f} MiB，与普通注意力的最大差异 "',
}

# %% [markdown]
# The full score matrix grows with `n * n`; the blocked one with `n * block_size`, so the
# memory a query needs no longer depends on the length of the sequence. (With small blocks
# the largest tensor left is the output itself, `(2048, 64)`: 0.5 MiB.) FlashAttention adds
# one more idea, which plain PyTorch cannot show: it keeps a block of queries, keys and values
# in the GPU's small fast on-chip memory for the whole loop, so the scores are never written
# to the large slow memory at all.

# %% [markdown zh]
# 完整分数矩阵的大小随 `n * n` 增长；分块后随 `n * block_size` 增长，于是一个查询所需的内存不再取决于序列的长度。（块很小时，剩下的最大张量就是输出本身 `(2048, 64)`：0.5 MiB。）FlashAttention 还多了一个想法，这是普通的 PyTorch 无法展示的：在整个循环期间，它把一块查询、键和值留在 GPU 片上那块小而快的内存中，于是分数根本不必写入大而慢的显存。

# %% [markdown]
# ## Step 4: decoding with a key/value cache
#
# A model that writes text produces one position at a time: it attends from the newest
# position over every earlier one, picks the next word, appends it, and starts again.
# Running causal self-attention over the whole prefix at every step would project every
# earlier position again and again, though their keys and values never change (a position
# only looks back). A **key/value cache** keeps them instead:
#
# for each position $t = 0, 1, \dots$
#
# 1. project position $t$ once: its query $q_t$, key $k_t$ and value $v_t$;
# 2. append $k_t$ and $v_t$ to the cache, which then holds rows $0..t$;
# 3. attend $q_t$ over the cache: $\operatorname{softmax}\big(q_t K_{0..t}^\top /
#    \sqrt{d_k}\big)\, V_{0..t}$ (rows, as throughout the course: $q_t$ is a row of $d_k$
#    numbers, and $K_{0..t}$ holds the cached keys as rows).
#
# ![The cache at positions 0 to 3: one new key and value row appended at each step, and the new query attending over the rows cached so far](figure:kv_cache)
#
# The cache holds only the past and the present, so there is no future to hide: **no mask**
# is needed, and the result is still exactly causal self-attention of the whole sequence
# (assignment 7). `cached_causal_attention(x, W_query, W_key, W_value)` takes `x` of shape
# `(..., seq, d_in)` and the three weight matrices, and returns `(..., seq, d_v)`.
# `torch.zeros(*x.shape[:-2], seq, d_k, dtype=x.dtype)` makes the key cache with room for
# every position (with `d_v` in place of `d_k`, the value cache; or
# keep a list of rows and `torch.stack` it); `x[..., t, :]` is position $t$ of every
# sequence of the batch.
#
# **Rules for this step:** no mask: the softmax of each position covers only the positions
# decoded so far (the grader records how many positions each of your softmaxes spans; a
# mask, of `-inf` or of zeros, needs every position scored), and no operation holds every
# position's score against every position (on a long sequence, as in the test below, those
# are more numbers than the inputs hold); and no built-in attention. That
# each position is projected once is the point of the cache; no rule checks it, but the
# count below shows it.

# %% [markdown zh]
# ## 第 4 步：用键值缓存解码
#
# 生成文本的模型一次产生一个位置：从最新的位置出发，对之前的每个位置做注意力，选出下一个词，把它接上，然后重新开始。如果每一步都对整个前缀做因果自注意力，之前的每个位置都会被一次又一次地投影，可它们的键和值从不改变（一个位置只往回看）。**键值缓存**把它们保存下来：
#
# 对每个位置 $t = 0, 1, \dots$
#
# 1. 对位置 $t$ 只投影一次：得到它的查询 $q_t$、键 $k_t$ 和值 $v_t$；
# 2. 把 $k_t$ 和 $v_t$ 追加到缓存中，此时缓存保存着第 $0..t$ 行；
# 3. 让 $q_t$ 对缓存做注意力：$\operatorname{softmax}\big(q_t K_{0..t}^\top / \sqrt{d_k}\big)\, V_{0..t}$（和整门课一样按行书写：$q_t$ 是一行 $d_k$ 个数，$K_{0..t}$ 的每一行是一个已缓存的键）。
#
# ![位置 0 到 3 时的缓存：每一步追加一行新的键和值，新的查询对目前已缓存的各行做注意力](figure:kv_cache)
#
# 缓存里只有过去和现在，没有需要掩码的未来：**不需要掩码**，结果仍然恰好是整个序列的因果自注意力（作业 7）。`cached_causal_attention(x, W_query, W_key, W_value)` 接收形状为 `(..., seq, d_in)` 的 `x` 和三个权重矩阵，返回 `(..., seq, d_v)`。`torch.zeros(*x.shape[:-2], seq, d_k, dtype=x.dtype)` 可以建一个能容纳所有位置的键缓存（把 `d_k` 换成 `d_v` 就是值缓存；也可以用一个列表保存各行，再用 `torch.stack` 拼起来）；`x[..., t, :]` 是这一批中每个序列的位置 $t$。
#
# **本步规则：** 不用掩码：每个位置的 softmax 只覆盖目前为止已解码的位置（评分程序会记录你的每次 softmax 覆盖了多少个位置；掩码，无论是 `-inf` 还是 0，都需要给所有位置打分），任何运算都不能容纳每个位置对每个位置的分数（在长序列上，比如下面测试里的那个，这些分数比输入的数还多）；也不用内置的注意力。每个位置只投影一次，这正是缓存的意义；没有规则检查这一点，但下面的计数能显示它。

# %% solution cached_causal_attention

# %% strings zh
{
    "Causal self-attention decoded one position at a time with a key/value cache.":
        "用键值缓存逐个位置解码的因果自注意力。",
    "x (..., seq, d_in); W_query, W_key (d_in, d_k); W_value (d_in, d_v). Returns":
        "x (..., seq, d_in)；W_query、W_key (d_in, d_k)；W_value (d_in, d_v)。返回",
    "(..., seq, d_v). Position t is projected once: its key and value go into row t of the":
        "(..., seq, d_v)。位置 t 只投影一次：它的键和值写入缓存的第 t 行，",
    "cache, and its query attends over rows 0..t of the cache, so no mask is needed.":
        "它的查询对缓存的第 0..t 行做注意力，所以不需要掩码。",
    '# row t of the cache': '# 缓存的第 t 行',
    '# (..., t + 1, d_k): the cache so far': '# (..., t + 1, d_k)：到目前为止的缓存',
}

# %% tests cached_causal_attention points=3
x = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 2.0]])  # (4, 3)
W_query = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]])
W_key = torch.tensor([[0.0, 1.0, 0.0, 1.0], [1.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 1.0]])
W_value = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]])  # (d_in, d_v) = (3, 2)
decoded = cached_causal_attention(x, W_query, W_key, W_value)
expect_tensor(decoded, (4, 2), "4 positions decoded, d_v = 2")
expect_close(decoded, [[2.0, -1.0], [1.6351, -0.6351], [1.267, 0.1554], [1.4846, -0.4846]],
             "the small example (the first row is position 0's own value)",
             mistakes=[("whole sequence attended (no causality)",
                        [[1.3112, -0.3112], [1.5679, -0.5679], [1.4846, -0.4846],
                         [1.4846, -0.4846]]),
                       ("cache read one row short",
                        [[0.0, 0.0], [2.0, -1.0], [1.4621, -0.4621], [1.267, 0.1554]]),
                       ("sqrt(d_v) instead of sqrt(d_k)",
                        [[2.0, -1.0], [1.7859, -0.7859], [1.3374, 0.1084], [1.5417, -0.5417]]),
                       ("only the newest value read",
                        [[2.0, -1.0], [0.0, 1.0], [1.0, 1.0], [2.0, -2.0]])])
# leading batch dims: 2 sequences of 3 heads, 6 positions each
gen = torch.Generator().manual_seed(4)
xs = torch.randn(2, 3, 6, 5, generator=gen)  # (..., seq, d_in)
Wq, Wk, Wv = (torch.randn(5, d, generator=gen) for d in (4, 4, 7))
batch = cached_causal_attention(xs, Wq, Wk, Wv)
expect_tensor(batch, (2, 3, 6, 7), "a batch of (2, 3) sequences of 6 positions")
expect_close(batch, F.scaled_dot_product_attention(xs @ Wq, xs @ Wk, xs @ Wv, is_causal=True),
             "compared with F.scaled_dot_product_attention(..., is_causal=True)")
changed = xs.clone()
changed[..., -1, :] += 5.0  # only the last position changes
expect_close(cached_causal_attention(changed, Wq, Wk, Wv)[..., :-1, :], batch[..., :-1, :],
             "the earlier outputs when only the last position changes")
# a long sequence: 40 positions, every other size smaller (grading draws one like it)
x_long = torch.randn(40, 3, generator=gen)  # (seq, d_in)
Wq, Wk, Wv = (torch.randn(3, d, generator=gen) for d in (2, 2, 5))
expect_close(cached_causal_attention(x_long, Wq, Wk, Wv),
             F.scaled_dot_product_attention(x_long @ Wq, x_long @ Wk, x_long @ Wv,
                                            is_causal=True),
             "a long sequence of 40 positions, against is_causal=True")

# %% strings zh
{
    "4 positions decoded, d_v = 2": "解码 4 个位置，d_v = 2",
    "the small example (the first row is position 0's own value)":
        "小例子（第一行是位置 0 自己的值）",
    "# leading batch dims: 2 sequences of 3 heads, 6 positions each":
        "# 前导批维度：2 个序列，每个 3 个头，每个 6 个位置",
    "a batch of (2, 3) sequences of 6 positions": "前导批维度为 (2, 3)、每个序列 6 个位置的输入",
    "compared with F.scaled_dot_product_attention(..., is_causal=True)":
        "与 F.scaled_dot_product_attention(..., is_causal=True) 对照",
    "# only the last position changes": "# 只改变最后一个位置",
    "the earlier outputs when only the last position changes": "只改变最后一个位置时，前面各位置的输出",
    "# a long sequence: 40 positions, every other size smaller (grading draws one like it)":
        "# 一个长序列：40 个位置，其他各维都更小（评分时会抽取类似的一个）",
    "a long sequence of 40 positions, against is_causal=True": "40 个位置的长序列，与 is_causal=True 对照",
}

# %% [markdown]
# ### What the cache saves
#
# Without a cache, a decoder that writes `seq` positions runs causal attention over the
# whole prefix at every step and projects positions $0..t$ again at step $t$:
# $1 + 2 + \dots + \text{seq} = \text{seq}(\text{seq} + 1)/2$ positions in all. The cell below
# counts the projections your `cached_causal_attention` makes (the entries produced by
# matrix products with inner size `d_in`, divided by the $2 d_k + d_v$ entries of one
# position's query, key and value) against such a decoder.

# %% [markdown zh]
# ### 缓存省下了什么
#
# 没有缓存时，解码器每生成一个位置，都要对整个前缀重新做一次因果注意力：生成 `seq` 个位置时，第 $t$ 步要把位置 $0..t$ 重新投影一遍，总共是 $1 + 2 + \dots + \text{seq} = \text{seq}(\text{seq} + 1)/2$ 个位置。下面的单元格统计你的 `cached_causal_attention` 所做的投影（内维大小为 `d_in` 的矩阵乘法产生的元素个数，除以一个位置的查询、键和值共有的 $2 d_k + d_v$ 个元素），并与这样的解码器对比。

# %% code
def decode_without_cache(x, W_query, W_key, W_value):
    """Each step runs causal attention over the whole prefix and keeps its last row."""
    outputs = []
    for t in range(x.shape[-2]):
        prefix = x[..., : t + 1, :]  # (..., t + 1, d_in)
        attended = F.scaled_dot_product_attention(prefix @ W_query, prefix @ W_key,
                                                  prefix @ W_value, is_causal=True)
        outputs.append(attended[..., -1, :])  # (..., d_v)
    return torch.stack(outputs, dim=-2)  # one row per step: (..., seq, d_v)


seq, d_in, d_k, d_v = 32, 48, 16, 24
gen = torch.Generator().manual_seed(5)
x_long = torch.randn(seq, d_in, generator=gen)
weights = [torch.randn(d_in, d, generator=gen) for d in (d_k, d_k, d_v)]
with Measure(inner=d_in) as cached:
    yours = cached_causal_attention(x_long, *weights)
with Measure(inner=d_in) as uncached:
    again = decode_without_cache(x_long, *weights)
per_position = 2 * d_k + d_v
print(f"{seq} positions decoded; positions projected by your cached_causal_attention: "
      f"{cached.produced / per_position:g}")
print(f"positions projected without a cache: {uncached.produced / per_position:g} "
      f"(seq * (seq + 1) / 2 = {seq * (seq + 1) // 2})")
print(f"largest difference between the two outputs: {(yours - again).abs().max():.1e}")

# %% strings zh
{
    "Each step runs causal attention over the whole prefix and keeps its last row.":
        "每一步都对整个前缀做因果注意力，只保留最后一行。",
    "# one row per step: (..., seq, d_v)": "# 每一步一行：(..., seq, d_v)",
    'f"{seq} positions decoded; positions projected by your cached_causal_attention: "':
        'f"解码了 {seq} 个位置；你的 cached_causal_attention 投影的位置数："',
    'f"positions projected without a cache: {uncached.produced / per_position:g} "':
        'f"没有缓存时投影的位置数：{uncached.produced / per_position:g}"',
    'f"(seq * (seq + 1) / 2 = {seq * (seq + 1) // 2})"':
        'f"（seq * (seq + 1) / 2 = {seq * (seq + 1) // 2}）"',
    'f"largest difference between the two outputs: {(yours - again).abs().max():.1e}"':
        'f"两种输出的最大差异：{(yours - again).abs().max():.1e}"',
}

# %% [markdown]
# ## What you learned
#
# - A backward pass is the forward pass read in reverse, one chain rule per operation; the
#   softmax's gradient is $w \odot (g - \sum_i g_i w_i)$, and attention's gradients are
#   three matrix products around it, each shaped like its input.
# - Softmax can be computed in one pass over blocks by keeping a running max and a running
#   sum and rescaling what came before by $e^{m - m'}$: attention then needs memory for one
#   block of scores, not for the whole `(n, n)` matrix. This is the core of FlashAttention.
# - A decoder that caches each position's key and value projects every position once and
#   attends over the cache without a mask, with exactly the result of causal attention.

# %% [markdown zh]
# ## 本作业小结
#
# - 反向传播就是把前向计算倒过来读，每个运算用一次链式法则；softmax 的梯度是 $w \odot (g - \sum_i g_i w_i)$，注意力的梯度是围绕它的三次矩阵乘法，每个梯度的形状都与对应的输入相同。
# - 保存当前最大值和累计和，并用 $e^{m - m'}$ 重新缩放之前的结果，softmax 就能分块一遍算完：注意力于是只需要一块分数的内存，而不是整个 `(n, n)` 矩阵。这就是 FlashAttention 的核心。
# - 缓存每个位置的键和值的解码器，每个位置只投影一次，不用掩码就能对缓存做注意力，结果与因果注意力完全相同。
