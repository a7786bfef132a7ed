# %% [markdown]
# # Assignment 1: Attention by hand
#
# Self-attention lets every word of a sentence gather information from every other word.
# Leave out learning, embedding tables and multiple heads, and what remains is five small
# steps of arithmetic. In this notebook you carry them out on three tiny integer inputs,
# small enough that you can check every number with pencil and paper.
#
# **Where the example comes from.** The inputs, the weight matrices and every result printed
# below are those of the illustrated walk-through *教你动手推导Self-Attention！（附代码）*
# ("Working out self-attention by hand, with code"; its author is not named). It computes
# self-attention for three inputs one step at a time and points to *Attention Is All You
# Need* and *The Illustrated Transformer* for the wider picture. Whatever it prints for these
# steps, this notebook prints beside what your code gives, so you need nothing else. We call
# its example **the hand-sized example**, and the feedback on your code does too.
#
# | step | you write | points |
# | --- | --- | --- |
# | 1 | `project_qkv`: queries, keys and values | 2 |
# | 2 | `attention_scores`: how well each query matches each key | 2 |
# | 3 | `stable_softmax`: turning attention scores into attention weights | 3 |
# | 4 | `weighted_values`: every value scaled by its attention weight | 2 |
# | 5 | `context_vectors`: the weighted sum, one output per input | 1 |
#
# The five functions, chained, take the inputs to the outputs:
#
# ![x times W_Q, W_K, W_V gives Q, K, V, then scores, attention weights, outputs Z](figure:qkv_flow)
#
# **Total: {total_points} points.** Each step has a stub that raises `NotImplementedError`;
# replace the body with your code. The test cell after each stub runs a few public checks
# you can see; when you hand in, hidden checks with other inputs run as well, so make your
# code correct in general, not just for the example.
#
# Conventions used in the whole course: vectors are **rows**. A sequence of `seq` inputs of
# size `d_in` is a tensor `x` of shape `(seq, d_in)`, a weight matrix is `(d_in, d_out)` and
# projecting is `x @ W`. Everything is `float32`. The text numbers inputs, queries, keys and
# values from 1, as the walk-through does; in code, input 1 is `x[0]`.

# %% [markdown zh]
# # 作业 1：手算注意力
#
# 自注意力让句子里的每个词都能从其他所有词那里汇集信息。抛开训练、嵌入表和多头这些内容，剩下的只是五步简单的算术。本次作业中，你要在三个很小的整数输入上亲手把这五步算一遍；数字小到每一个都能用纸笔验算。
#
# **资料来源。** 下面用到的输入、权重矩阵和打印出的每个结果，都来自图解文章《教你动手推导Self-Attention！（附代码）》（未署作者名）。这份资料对三个输入逐步计算自注意力，并推荐读者阅读《Attention Is All You Need》和《The Illustrated Transformer》以了解全貌。资料在这些步骤中打印的每个数值，本笔记本都会与你的代码结果并排列出，所以你不需要任何其他材料。我们把这个例子称为**手算示例**，评分反馈里也用这个名字。
#
# | 步骤 | 你要写的函数 | 分值 |
# | --- | --- | --- |
# | 1 | `project_qkv`：查询、键和值 | 2 |
# | 2 | `attention_scores`：每个查询与每个键有多匹配 | 2 |
# | 3 | `stable_softmax`：把注意力分数变成注意力权重 | 3 |
# | 4 | `weighted_values`：每个值乘以它的注意力权重 | 2 |
# | 5 | `context_vectors`：加权求和，每个输入得到一个输出 | 1 |
#
# 把这五个函数串起来，就得到从输入到输出的整条路径：
#
# ![x 乘以 W_Q、W_K、W_V 得到 Q、K、V，再得到注意力分数、注意力权重和输出 Z](figure:qkv_flow)
#
# **总分：{total_points} 分。** 每一步都有一个待完成的函数，它的函数体只会抛出 `NotImplementedError`；请把函数体换成你自己的代码。每个函数后面的测试单元格会运行几项你能看到的公开测试；提交之后，还会用其他输入运行隐藏检查，所以你的代码必须在一般情况下都正确，而不只是对这个例子正确。
#
# 全课程通用的约定：向量是**行向量**。`seq` 个长度为 `d_in` 的输入组成形状为 `(seq, d_in)` 的张量 `x`；权重矩阵的形状是 `(d_in, d_out)`，投影就是 `x @ W`。所有张量都是 `float32`。正文与资料一样，输入、查询、键和值都从 1 开始编号；在代码里，输入 1 是 `x[0]`。

# %% setup
import math

import matplotlib.pyplot as plt
import torch

# %% checks

# %% [markdown]
# ## The hand-sized example
#
# Three inputs of four features each, and three weight matrices, one per role. We keep them
# as integers so the arithmetic stays readable. The cell also defines `show_beside`, which
# the cells after the tests use to print a tensor as the walk-through printed it, with the
# same tensor from your code below it.

# %% [markdown zh]
# ## 手算示例
#
# 三个输入，每个有四个特征；三个权重矩阵，每种角色一个。它们都取整数，算起来一目了然。这个单元格还定义了 `show_beside`：测试单元格之后的几个单元格用它先打印资料打印的张量，再在下面打印你的代码算出的同一个张量。

# %% setup
x = torch.tensor([[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]], dtype=torch.float32)
W_key = torch.tensor([[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]], dtype=torch.float32)
W_query = torch.tensor([[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]], dtype=torch.float32)
W_value = torch.tensor([[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]], dtype=torch.float32)


def show_beside(what, printed, yours):
    """Print a tensor as the walk-through printed it, then the same tensor from your code."""
    print(f"{what}, as the walk-through printed it:")
    print(torch.tensor(printed))
    print(f"{what}, from your code:")
    print(yours)
    print()

# %% strings zh
{
    "Print a tensor as the walk-through printed it, then the same tensor from your code.":
        "先打印资料打印的张量，再打印你的代码算出的同一个张量。",
    "{what}, as the walk-through printed it:": "{what}（资料打印的）：",
    "{what}, from your code:": "{what}（你的代码算出的）：",
}

# %% [markdown]
# ## Step 1: queries, keys and values
#
# Every input plays three roles at once, and each role has its own weight matrix:
#
# - as a **query** it asks "what am I looking for?": $q_i = x_i W_Q$,
# - as a **key** it answers "this is what I contain": $k_i = x_i W_K$,
# - as a **value** it offers "this is what I pass on": $v_i = x_i W_V$.
#
# Stacking the inputs as rows, all of them are projected at once: $Q = x W_Q$, $K = x W_K$,
# $V = x W_V$. With `x` of shape `(seq, d_in)`, `W_query` and `W_key` of shape
# `(d_in, d_k)` and `W_value` of shape `(d_in, d_v)`, the results are `(seq, d_k)`,
# `(seq, d_k)` and `(seq, d_v)`. Queries and keys must have the same size `d_k`, because
# we will take their dot products; the values may have any size.
#
# For the first input, $[1, 0, 1, 0]$, the key is the sum of rows 1 and 3 of `W_key`:
# $[0, 0, 1] + [0, 1, 0] = [0, 1, 1]$.

# %% [markdown zh]
# ## 第 1 步：查询、键和值
#
# 每个输入同时扮演三种角色，每种角色都有自己的权重矩阵：
#
# - 作为**查询**，它问的是“我在找什么？”：$q_i = x_i W_Q$；
# - 作为**键**，它回答“我这里有什么”：$k_i = x_i W_K$；
# - 作为**值**，它提供“我要传递出去的内容”：$v_i = x_i W_V$。
#
# 把输入按行叠在一起，就能一次完成所有投影：$Q = x W_Q$，$K = x W_K$，$V = x W_V$。若 `x` 的形状是 `(seq, d_in)`，`W_query` 和 `W_key` 的形状是 `(d_in, d_k)`，`W_value` 的形状是 `(d_in, d_v)`，那么三个结果的形状依次是 `(seq, d_k)`、`(seq, d_k)` 和 `(seq, d_v)`。查询和键必须有相同的长度 `d_k`，因为接下来要计算它们的点积；值的长度则可以任意。
#
# 以第一个输入 $[1, 0, 1, 0]$ 为例，它的键就是 `W_key` 第 1 行与第 3 行之和：$[0, 0, 1] + [0, 1, 0] = [0, 1, 1]$。

# %% solution project_qkv

# %% strings zh
{
    "Project every input row into a query, a key and a value.":
        "把每一行输入投影成一个查询、一个键和一个值。",
    "Returns queries (seq, d_k), keys (seq, d_k), values (seq, d_v).":
        "返回 queries (seq, d_k)、keys (seq, d_k) 和 values (seq, d_v)。",
    "queries = x @ W_query, keys = x @ W_key, values = x @ W_value.":
        "queries = x @ W_query，keys = x @ W_key，values = x @ W_value。",
    "x: (seq, d_in); W_query, W_key: (d_in, d_k); W_value: (d_in, d_v).":
        "x：(seq, d_in)；W_query、W_key：(d_in, d_k)；W_value：(d_in, d_v)。",
}

# %% tests project_qkv points=2
queries, keys, values = project_qkv(x, W_query, W_key, W_value)
expect_tensor(queries, (3, 3), "queries")
expect_tensor(values, (3, 3), "values")
expect_close(keys[0], [0.0, 1.0, 1.0], "the key of input 1",
             mistakes=[("query and key weight matrices swapped", [1.0, 0.0, 2.0])])
expect_close(values[0], [1.0, 2.0, 3.0], "the value of input 1")

# %% strings zh
{
    '"queries"': '"查询"',
    '"values"': '"值"',
    '"the key of input 1"': '"输入 1 的键"',
    '"the value of input 1"': '"输入 1 的值"',
}

# %% code
# The keys, queries and values of the three inputs: the walk-through's, then yours.
queries, keys, values = project_qkv(x, W_query, W_key, W_value)
show_beside("keys", {{documents.DOC004_KEYS}}, keys)
show_beside("queries", {{documents.DOC004_QUERIES}}, queries)
show_beside("values", {{documents.DOC004_VALUES}}, values)

# %% strings zh
{
    "# The keys, queries and values of the three inputs: the walk-through's, then yours.":
        "# 三个输入的键、查询和值：先是资料打印的，再是你的。",
    '"keys"': '"键"',
    '"queries"': '"查询"',
    '"values"': '"值"',
}

# %% [markdown]
# ## Step 2: attention scores
#
# How much should input $i$ attend to input $j$? The simplest measure is the dot product of
# $i$'s query with $j$'s key: large when the two point the same way.
#
# $$\omega_{ij} = q_i \cdot k_j \qquad\text{or, for all pairs at once,}\qquad \Omega = Q K^\top$$
#
# Row $i$ of $\Omega$ belongs to query $i$ and has one score per key. One query of shape
# `(d_k,)` gives `(seq,)` scores; `n` queries of shape `(n, d_k)` give `(n, seq)`. Write it
# so that leading batch dimensions also work: transpose the last two dimensions of the keys
# (`keys.transpose(-2, -1)`) rather than using `.T`.
#
# Query 1 is $[1, 0, 2]$; its score against key 2, $[4, 4, 0]$, is
# $1\cdot4 + 0\cdot4 + 2\cdot0 = 4$.

# %% [markdown zh]
# ## 第 2 步：注意力分数
#
# 输入 $i$ 应该对输入 $j$ 投入多少注意力？最简单的衡量方法是取 $i$ 的查询与 $j$ 的键的点积：两个向量方向越一致，点积越大。
#
# $$\omega_{ij} = q_i \cdot k_j \qquad\text{所有配对一次算出：}\qquad \Omega = Q K^\top$$
#
# $\Omega$ 的第 $i$ 行属于查询 $i$，对每个键各有一个分数。只有一个查询（形状为 `(d_k,)`）时，结果是 `seq` 个分数，形状为 `(seq,)`；`n` 个查询叠成 `(n, d_k)` 时，结果的形状为 `(n, seq)`。写法要让前导批维度也能用：转置键的最后两个维度（`keys.transpose(-2, -1)`），不要用 `.T`。
#
# 查询 1 是 $[1, 0, 2]$，它对键 2 $[4, 4, 0]$ 的分数是 $1\cdot4 + 0\cdot4 + 2\cdot0 = 4$。

# %% solution attention_scores

# %% strings zh
{
    "Unscaled scores: how well each query matches each key.":
        "未缩放的注意力分数：每个查询与每个键有多匹配。",
    "scores[i, j] = queries[i] . keys[j], that is scores = queries @ keys^T.":
        "scores[i, j] = queries[i] . keys[j]，即 scores = queries @ keys^T。",
    "queries: (d_k,) or (..., n, d_k); keys: (..., seq, d_k).":
        "queries：(d_k,) 或 (..., n, d_k)；keys：(..., seq, d_k)。",
    "Returns (seq,) for one query, (..., n, seq) for many.":
        "一个查询返回 (seq,)，多个查询返回 (..., n, seq)。",
}

# %% tests attention_scores points=2
queries, keys, values = x @ W_query, x @ W_key, x @ W_value
scores = attention_scores(queries, keys)
expect_tensor(scores, (3, 3), "the scores of three queries against three keys")
expect_close(scores[0], [2.0, 4.0, 4.0], "the scores of query 1")
expect_tensor(attention_scores(queries[0], keys), (3,), "the scores of one query")
wide = attention_scores(torch.ones(2, 3), torch.ones(5, 3))
expect_tensor(wide, (2, 5), "2 queries against 5 keys")
batch = attention_scores(torch.stack([queries, 2 * queries]), torch.stack([keys, keys]))
expect_tensor(batch, (2, 3, 3), "the scores of a batch of 2 sequences, (..., n, d_k) inputs")
expect_close(batch[1], 2 * scores, "the second sequence's scores, in a batch")

# %% strings zh
{
    '"the scores of three queries against three keys"': '"三个查询对三个键的注意力分数"',
    '"the scores of query 1"': '"查询 1 的注意力分数"',
    '"the scores of one query"': '"单个查询的注意力分数"',
    '"2 queries against 5 keys"': '"2 个查询对 5 个键的注意力分数"',
    '"the scores of a batch of 2 sequences, (..., n, d_k) inputs"':
        '"2 个序列组成的一批的注意力分数（输入形状为 (..., n, d_k)）"',
    '"the second sequence\'s scores, in a batch"': '"一批中第 2 个序列的注意力分数"',
}

# %% code
# The attention scores (row i: query i against every key): the walk-through's, then yours.
show_beside("attention scores", {{documents.DOC004_SCORES}},
            attention_scores(x @ W_query, x @ W_key))

# %% strings zh
{
    "# The attention scores (row i: query i against every key): the walk-through's, then yours.":
        "# 注意力分数（第 i 行：查询 i 对每个键）：先是资料打印的，再是你的。",
    '"attention scores"': '"注意力分数"',
}

# %% [markdown]
# ## Step 3: a softmax that never overflows
#
# Attention scores can be any real numbers; attention weights should be positive and sum to
# 1. The softmax does exactly that:
#
# $$\operatorname{softmax}(s)_j = \frac{e^{s_j}}{\sum_k e^{s_k}}.$$
#
# Written literally it breaks down for large scores: $e^{1000}$ is `inf` in float32, and
# `inf / inf` is `nan`. The cure costs one line. Subtracting the same number $m$ from every
# score changes nothing, because the factor $e^{-m}$ cancels between numerator and
# denominator:
#
# $$\frac{e^{s_j - m}}{\sum_k e^{s_k - m}} = \frac{e^{s_j}}{\sum_k e^{s_k}}.$$
#
# Choose $m = \max_k s_k$: now every exponent is at most 0 and nothing overflows. Clamping
# the scores to a "safe" range instead is not the same: two scores past the bound become
# equal, and so do their weights. Every student's hidden checks hold rows in the thousands,
# where a clamp always shows.
#
# **Rule for this step:** write the softmax yourself with `torch.exp` and a sum. Calling
# `torch.softmax`, `F.softmax` or `Tensor.softmax` here scores 0 points. Normalise along the
# dimension `dim` the caller names (keep it with `keepdim=True` so the shapes broadcast).

# %% [markdown zh]
# ## 第 3 步：不会溢出的 softmax
#
# 注意力分数可以是任意实数；注意力权重则应当为正，并且和为 1。softmax 正好做到这一点：
#
# $$\operatorname{softmax}(s)_j = \frac{e^{s_j}}{\sum_k e^{s_k}}.$$
#
# 照字面实现的话，分数一大就会出问题：在 `float32` 中 $e^{1000}$ 是 `inf`，而 `inf / inf` 是 `nan`。补救只需一行：给每个分数减去同一个数 $m$ 不会改变结果，因为因子 $e^{-m}$ 在分子和分母之间约掉了：
#
# $$\frac{e^{s_j - m}}{\sum_k e^{s_k - m}} = \frac{e^{s_j}}{\sum_k e^{s_k}}.$$
#
# 取 $m = \max_k s_k$，这样每个指数都不大于 0，也就不会溢出。把分数截断到一个“安全”范围则不一样：超过边界的两个分数会变得相等，它们的权重也就相等了。每个学生的隐藏检查里都有分数达到几千的行，截断在那里一定会露出来。
#
# **本步规则：** 用 `torch.exp` 和求和自己写出 softmax。在这里调用 `torch.softmax`、`F.softmax` 或 `Tensor.softmax`，本步骤得 0 分。沿调用者指定的维度 `dim` 归一化（求和时用 `keepdim=True` 保留这个维度，形状才能正确广播）。

# %% solution stable_softmax

# %% strings zh
{
    "Softmax written out, safe for large scores.":
        "亲手写出的 softmax，注意力分数很大时也安全。",
    "softmax(s)_j = exp(s_j - m) / sum_k exp(s_k - m), with m = max_k s_k.":
        "softmax(s)_j = exp(s_j - m) / sum_k exp(s_k - m)，其中 m = max_k s_k。",
    "Subtracting the maximum changes nothing mathematically, but keeps every exponent\n"
    "    <= 0, so exp never overflows (scores of 1e4 give no inf and no nan).":
        "减去最大值在数学上不改变结果，却让每个指数都 <= 0，\n"
        "    因此 exp 永远不会溢出（分数为 1e4 时既不出现 inf，也不出现 nan）。",
    "scores: any shape; the weights have the same shape and sum to 1 along ``dim``.":
        "scores：任意形状；返回的注意力权重形状与之相同，沿 ``dim`` 求和为 1。",
    "# same rank as scores, size 1 on dim": "# 维数与 scores 相同，在 dim 上大小为 1",
}

# %% tests stable_softmax points=3
weights = stable_softmax(torch.tensor([[2.0, 4.0, 4.0]]))
expect_close(weights, [[0.0634, 0.4683, 0.4683]], "softmax of query 1's scores [2, 4, 4]",
             mistakes=[("softmax over dim 0", [[1.0, 1.0, 1.0]])])
expect_close(weights.sum(dim=-1), [1.0], "the sum of the attention weights")
big = stable_softmax(torch.tensor([1e4, 0.0, -1e4]))
assert torch.isfinite(big).all(), f"scores of 1e4 gave {big}: subtract the maximum first"
columns = stable_softmax(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), dim=0)
expect_close(columns.sum(dim=0), [1.0, 1.0], "with dim=0, each column's sum",
             mistakes=[("softmax over the wrong dim", [0.5379, 1.4621])])

# %% strings zh
{
    '"softmax of query 1\'s scores [2, 4, 4]"': '"查询 1 的注意力分数 [2, 4, 4] 的 softmax"',
    '"the sum of the attention weights"': '"注意力权重之和"',
    "scores of 1e4 gave {big}: subtract the maximum first":
        "分数为 1e4 时得到 {big}：请先减去最大值",
    '"with dim=0, each column\'s sum"': '"dim=0 时每一列之和"',
}

# %% [markdown]
# The walk-through took the softmax of all three rows of scores with PyTorch's built-in
# function; the cell below prints its numbers above what your `stable_softmax` gives. Query
# 1 puts about 6 % of its attention on input 1 and 47 % on each of the other two; query 2
# puts 98 % on input 2. The picture after it shows every query's attention weights, one row
# per query.

# %% [markdown zh]
# 资料用 PyTorch 自带的函数对三行注意力分数做了 softmax；下面的单元格先打印它的结果，再打印你的 `stable_softmax` 算出的结果。查询 1 把约 6% 的注意力放在输入 1 上，其余两个输入各得约 47%；查询 2 则把 98% 的注意力放在输入 2 上。再下面的图画出了每个查询的注意力权重，一行对应一个查询。

# %% code
# The exact attention weights: the walk-through's, then yours.
scores = (x @ W_query) @ (x @ W_key).T
show_beside("attention weights",
            {{documents.DOC004_SOFTMAX}},
            stable_softmax(scores))

# %% strings zh
{
    "# The exact attention weights: the walk-through's, then yours.":
        "# 精确的注意力权重：先是资料打印的，再是你的。",
    '"attention weights"': '"注意力权重"',
}

# %% code
weights = stable_softmax(attention_scores(x @ W_query, x @ W_key))
use_course_font()
fig, ax = plt.subplots(figsize=(3.5, 3))
image = ax.imshow(weights.detach(), cmap="viridis", vmin=0, vmax=1)
ax.set_xlabel("key (input attended to)")
ax.set_ylabel("query (input attending)")
ax.set_xticks(range(3), ["1", "2", "3"])
ax.set_yticks(range(3), ["1", "2", "3"])
fig.colorbar(image, ax=ax, label="attention weight")
ax.set_title("attention weights")
plt.show()

# %% strings zh
{
    '"key (input attended to)"': '"键（被关注的输入）"',
    '"query (input attending)"': '"查询（发出关注的输入）"',
    '"attention weight"': '"注意力权重"',
    '"attention weights"': '"注意力权重"',
}

# %% [markdown]
# ## Step 4: weighting the values
#
# Each value is now multiplied by the attention weight the query gives it. To keep the
# numbers easy to follow, the walk-through replaced the exact attention weights by rough
# approximations before going on: query 1's $[0.0634, 0.4683, 0.4683]$ became
# $[0.0, 0.5, 0.5]$, query 2's became $[0.0, 1.0, 0.0]$ and query 3's $[0.0, 0.9, 0.1]$.
# Steps 4 and 5 use these **approximated attention weights**, so that every number stays
# easy to check; step 5 then shows what the exact ones give. For query 1:
#
# - value 1: $0.0 \cdot [1, 2, 3] = [0, 0, 0]$,
# - value 2: $0.5 \cdot [2, 8, 0] = [1, 4, 0]$,
# - value 3: $0.5 \cdot [2, 6, 3] = [1, 3, 1.5]$.
#
# `weighted_values(weights, values)` does this for every query at once and returns a tensor
# of shape `(n_keys, n_queries, d_v)` whose element `[j, i]` is `weights[i, j] * values[j]`.
# Broadcasting does it without a loop: give `values` a query axis and the transposed
# attention weights a feature axis.

# %% [markdown zh]
# ## 第 4 步：给值加权
#
# 现在把每个值乘以查询分配给它的注意力权重。为了让数字好算，资料在这一步之前把精确的注意力权重换成了粗略的近似值：查询 1 的 $[0.0634, 0.4683, 0.4683]$ 变成 $[0.0, 0.5, 0.5]$，查询 2 的变成 $[0.0, 1.0, 0.0]$，查询 3 的变成 $[0.0, 0.9, 0.1]$。第 4、5 步都用这些**近似注意力权重**，每个数都容易验算；第 5 步最后再给出精确注意力权重的结果。以查询 1 为例：
#
# - 值 1：$0.0 \cdot [1, 2, 3] = [0, 0, 0]$；
# - 值 2：$0.5 \cdot [2, 8, 0] = [1, 4, 0]$；
# - 值 3：$0.5 \cdot [2, 6, 3] = [1, 3, 1.5]$。
#
# `weighted_values(weights, values)` 对所有查询一次完成这个计算，返回形状为 `(n_keys, n_queries, d_v)` 的张量，其中元素 `[j, i]` 等于 `weights[i, j] * values[j]`。用广播就不需要循环：给 `values` 添一个查询轴，给转置后的注意力权重添一个特征轴。

# %% solution weighted_values

# %% strings zh
{
    "Every value scaled by every query's attention weight for it.":
        "每个值分别乘以每个查询分配给它的注意力权重。",
    "element [j, i] = weights[i, j] * values[j].": "元素 [j, i] = weights[i, j] * values[j]。",
    "weights: (n_queries, n_keys); values: (n_keys, d_v).":
        "weights：(n_queries, n_keys)；values：(n_keys, d_v)。",
    "Returns (n_keys, n_queries, d_v); summing over dim 0 gives the outputs.":
        "返回 (n_keys, n_queries, d_v)；沿第 0 维求和就得到输出。",
}

# %% tests weighted_values points=2
approximated = torch.tensor([[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]])
values = x @ W_value
weighted = weighted_values(approximated, values)
expect_tensor(weighted, (3, 3, 3), "the weighted values")
expect_close(weighted[:, 0], [[0.0, 0.0, 0.0], [1.0, 4.0, 0.0], [1.0, 3.0, 1.5]],
             "the weighted values of query 1 (weighted[:, 0])")
shape_check = weighted_values(torch.ones(2, 5) / 5, torch.ones(5, 4))
expect_tensor(shape_check, (5, 2, 4), "2 queries over 5 values of size 4")

# %% strings zh
{
    '"the weighted values"': '"加权后的值"',
    '"the weighted values of query 1 (weighted[:, 0])"': '"查询 1 加权后的值（weighted[:, 0]）"',
    '"2 queries over 5 values of size 4"': '"2 个查询、5 个长度为 4 的值"',
}

# %% code
# The weighted values from the approximated attention weights: the walk-through's, then
# yours. Block j is value j; its row i is value j times query i's attention weight for it.
approximated = torch.tensor({{documents.DOC004_ROUNDED_WEIGHTS}})
show_beside("weighted values",
            {{documents.DOC004_WEIGHTED_VALUES}},
            weighted_values(approximated, x @ W_value))

# %% strings zh
{
    "# The weighted values from the approximated attention weights: the walk-through's, then\n"
    "# yours. Block j is value j; its row i is value j times query i's attention weight for it.":
        "# 用近似注意力权重得到的加权值：先是资料打印的，再是你的。\n"
        "# 第 j 块对应值 j；块中第 i 行是值 j 乘以查询 i 分配给它的注意力权重。",
    '"weighted values"': '"加权后的值"',
}

# %% [markdown]
# ## Step 5: context vectors
#
# Adding up query 1's weighted values gives its output, its **context vector**:
# $[0, 0, 0] + [1, 4, 0] + [1, 3, 1.5] = [2, 7, 1.5]$. This is the output for the
# approximated attention weights. In general the output for query $i$ is
#
# $$z_i = \sum_j a_{ij} v_j, \qquad\text{all at once:}\qquad Z = A V,$$
#
# with the attention weights $A$ of shape `(n_queries, n_keys)` and the values $V$ of shape
# `(n_keys, d_v)`. Summing `weighted_values` over its first axis gives the same thing, but a
# single matrix product is how it is always written. A single query's attention weights,
# shape `(n_keys,)`, give a single output of shape `(d_v,)`.
#
# The test below uses the approximated attention weights, whose outputs the walk-through
# printed. The cell after it prints those outputs and also the **exact** ones, computed from
# the exact attention weights of step 3. For query 1 the exact output is
# $[1.9366, 6.6831, 1.5951]$, not $[2, 7, 1.5]$: close, because the approximation was close,
# but not the same.

# %% [markdown zh]
# ## 第 5 步：上下文向量
#
# 把查询 1 加权后的值加起来，就得到它的输出，也就是它的**上下文向量**：$[0, 0, 0] + [1, 4, 0] + [1, 3, 1.5] = [2, 7, 1.5]$。这是用近似注意力权重得到的输出。一般地，查询 $i$ 的输出是
#
# $$z_i = \sum_j a_{ij} v_j, \qquad\text{一次算出全部：}\qquad Z = A V,$$
#
# 其中注意力权重 $A$ 的形状是 `(n_queries, n_keys)`，值 $V$ 的形状是 `(n_keys, d_v)`。把 `weighted_values` 的结果沿第 0 维（最前面的维度）求和也能得到同样的结果，但通常都写成一次矩阵乘法。单个查询的注意力权重形状为 `(n_keys,)`，得到的单个输出形状为 `(d_v,)`。
#
# 下面的测试使用近似注意力权重，资料打印的正是这组输出。测试之后的单元格会打印这组输出，同时打印用第 3 步的精确注意力权重算出的**精确**输出。查询 1 的精确输出是 $[1.9366, 6.6831, 1.5951]$，而不是 $[2, 7, 1.5]$：两者很接近，因为近似值本身很接近，但并不相同。

# %% solution context_vectors

# %% strings zh
{
    "Each query's output: the weighted sum of the values.": "每个查询的输出：值的加权和。",
    "context[i] = sum_j weights[i, j] * values[j], that is weights @ values.":
        "context[i] = sum_j weights[i, j] * values[j]，即 weights @ values。",
    "weights: (n_keys,) or (n_queries, n_keys); values: (n_keys, d_v).":
        "weights：(n_keys,) 或 (n_queries, n_keys)；values：(n_keys, d_v)。",
    "Returns (d_v,) or (n_queries, d_v).": "返回 (d_v,) 或 (n_queries, d_v)。",
}

# %% tests context_vectors points=1
approximated = torch.tensor([[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]])
outputs = context_vectors(approximated, x @ W_value)
expect_tensor(outputs, (3, 3), "the outputs from the approximated attention weights")
expect_close(outputs[0], [2.0, 7.0, 1.5],
             "query 1's output from the approximated attention weights")
expect_tensor(context_vectors(approximated[0], x @ W_value), (3,), "the output of one query")

# %% strings zh
{
    '"the outputs from the approximated attention weights"': '"用近似注意力权重得到的输出"',
    '"query 1\'s output from the approximated attention weights"':
        '"用近似注意力权重得到的查询 1 的输出"',
    '"the output of one query"': '"单个查询的输出"',
}

# %% code
# The outputs from the approximated attention weights: the walk-through's, then yours.
values = x @ W_value
approximated = torch.tensor({{documents.DOC004_ROUNDED_WEIGHTS}})
show_beside("outputs with the approximated attention weights",
            {{documents.DOC004_OUTPUTS}},
            context_vectors(approximated, values))
# The exact outputs: the same weighted sum with the exact attention weights of step 3.
exact = stable_softmax((x @ W_query) @ (x @ W_key).T)
print("outputs with the exact attention weights, from your code:")
print(context_vectors(exact, values))

# %% strings zh
{
    "# The outputs from the approximated attention weights: the walk-through's, then yours.":
        "# 用近似注意力权重得到的输出：先是资料打印的，再是你的。",
    '"outputs with the approximated attention weights"': '"输出（近似注意力权重）"',
    "# The exact outputs: the same weighted sum with the exact attention weights of step 3.":
        "# 精确输出：同样的加权和，但用第 3 步的精确注意力权重。",
    '"outputs with the exact attention weights, from your code:"':
        '"输出（精确注意力权重，你的代码算出的）："',
}

# %% [markdown]
# ## What you built
#
# With the exact attention weights, the five steps compute self-attention without scaling:
#
# $$Z = \operatorname{softmax}(Q K^\top)\, V, \qquad Q = x W_Q,\; K = x W_K,\; V = x W_V.$$
#
# The approximated attention weights of steps 4 and 5 were only a reading aid; a model
# always uses the exact ones. Two things separate this from the attention of real models:
# they divide the scores by $\sqrt{d_k}$ before the softmax, which keeps the softmax from
# saturating, and they learn the weight matrices $W_Q$, $W_K$, $W_V$ from data instead of
# being given them. The next assignments start from real sentences, add the scaling, and
# then run many attention heads side by side.

# %% [markdown zh]
# ## 本作业小结
#
# 使用精确的注意力权重时，这五步算出的就是不带缩放的自注意力：
#
# $$Z = \operatorname{softmax}(Q K^\top)\, V, \qquad Q = x W_Q,\; K = x W_K,\; V = x W_V.$$
#
# 第 4、5 步里的近似注意力权重只是为了方便阅读；模型计算时总是使用精确值。真实模型里的注意力与这里还有两点不同：一是在 softmax 之前把分数除以 $\sqrt{d_k}$，避免 softmax 饱和；二是权重矩阵 $W_Q$、$W_K$、$W_V$ 不是给定的，而是从数据中学习得到的。接下来的作业将从真实的句子出发，加入缩放，然后让多个注意力头并行计算。
