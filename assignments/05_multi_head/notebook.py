# %% [markdown]
# # Assignment 5: Many heads
#
# One attention head relates the words of a sentence in one way: it has one query matrix, one
# key matrix and one value matrix, and so gives one table of attention weights per sentence.
# Multi-head attention runs several heads side by side, each with its own three matrices, and
# puts their outputs together. A Python loop over the heads would work, but it is slow and
# hides the structure. Here you stack the heads' matrices into one tensor and let a single
# batched matrix product serve every head at once. At the end you rebuild PyTorch's own
# `nn.MultiheadAttention` from these pieces and check that it gives the very same numbers.
#
# | step | you write | points |
# | --- | --- | --- |
# | 1 | `multihead_project`: every head's projection with one `torch.bmm` | 2 |
# | 2 | `multihead_attention`: every head's context vectors | 3 |
# | 3 | `concat_heads`: the heads side by side | 1 |
# | 4 | `MultiHeadAttention`: `nn.MultiheadAttention` written out | 4 |
#
# **Total: {total_points} points.** Each step has a stub that raises `NotImplementedError`;
# replace the body with your code. The test cell after each stub runs a few public checks
# you can see; when you hand in, hidden checks with other inputs run as well, so make your
# code correct in general, not just for the example.
#
# **Sources.** The example and its sizes come from three source documents. You do not need
# them: every value they print for these steps is shown below, beside what your code gives.
#
# - *Original self-attention: scaled-dot product attention*, notes by an unnamed author
#   (comments in Chinese) after Sebastian Raschka's blog post on coding self-attention from
#   scratch: one head, then three heads whose matrices are stacked and applied with
#   `torch.bmm`, on the sentence *Life is short, eat dessert first*. The running example
#   below, random numbers included, is theirs.
# - *Scaled Dot Product Attention* and *Multi Head Attention*, a notebook by an unnamed
#   author after Sebastian Raschka, *Understanding and Coding the Self-Attention Mechanism of
#   Large Language Models From Scratch*, and Vaswani et al., *Attention Is All You Need*: the
#   same steps on *Life is short, eat dessert last* with matrices drawn by `torch.randn`; its
#   multi-head part follows one query through three heads.
# - *注意力机制* (attention mechanisms), notes by dsy dated 2020-09-16 on the textbook
#   *神经网络与深度学习* (neural networks and deep learning). They end by calling
#   `torch.nn.MultiheadAttention` on random inputs and printing the shapes of its results;
#   step 4 uses the same sizes.
#
# Conventions, as in the whole course: vectors are **rows**, a sequence `x` is
# `(seq, d_in)`, everything is `float32`. One exception, kept from the first two sources: a
# head's projection matrix is stored as `(d_out, d_in)`, so a head projects the sequence
# with `x @ W.T`.

# %% [markdown zh]
# # 作业 5：多头注意力
#
# 一个注意力头只用一种方式把句子里的词联系起来：它有一个查询矩阵、一个键矩阵和一个值矩阵，
# 所以对一个句子只给出一张注意力权重表。多头注意力让几个头并排工作，每个头各有三个矩阵，
# 最后把各头的输出合在一起。用 Python 循环逐个计算各头当然行得通，但速度慢，也把结构藏了起来。
# 本次作业把各头的矩阵叠成一个张量，只用一次批量矩阵乘法就同时算出所有头。最后，你要用这些
# 部件重新搭出 PyTorch 自带的 `nn.MultiheadAttention`，并验证两者给出完全相同的数值。
#
# | 步骤 | 你要写的函数或类 | 分值 |
# | --- | --- | --- |
# | 1 | `multihead_project`：用一次 `torch.bmm` 完成所有头的投影 | 2 |
# | 2 | `multihead_attention`：每个头的上下文向量 | 3 |
# | 3 | `concat_heads`：把各头并排拼接 | 1 |
# | 4 | `MultiHeadAttention`：亲手写出 `nn.MultiheadAttention` | 4 |
#
# **总分：{total_points} 分。** 每一步都有一个待完成的函数，它的函数体只会抛出
# `NotImplementedError`，请换成你自己的代码。每个函数后面的测试单元格会运行几项公开测试，
# 内容你都看得到；提交之后，还会用别的输入运行隐藏检查。所以代码要在一般情况下都正确，
# 而不只是对示例成立。
#
# **资料来源。** 本作业的示例和各个尺寸取自三份资料。你不需要去读它们：对这几步，它们打印的
# 每个数值都会列在下面，紧挨着你的代码给出的结果。
#
# - 《Original self-attention: scaled-dot product attention》：一份未署名的资料（注释为中文），
#   参考了 Sebastian Raschka 讲解从零实现自注意力的博客文章。资料先讲单头，再把三个头的矩阵
#   叠起来用 `torch.bmm` 计算，例句是“Life is short, eat dessert first”。下面贯穿全文的
#   示例，连同其中的随机数，都来自这份资料。
# - 《Scaled Dot Product Attention》与《Multi Head Attention》：一份未署名的笔记本，参考了
#   Sebastian Raschka 的《Understanding and Coding the Self-Attention Mechanism of Large
#   Language Models From Scratch》和 Vaswani 等人的《Attention Is All You Need》。它在
#   “Life is short, eat dessert last”上做同样的步骤，矩阵由 `torch.randn` 生成；多头部分
#   跟踪一个查询经过三个头的全过程。
# - 《注意力机制》：dsy 的资料，写于 2020-09-16，整理自教材《神经网络与深度学习》。资料最后
#   用随机输入调用 `torch.nn.MultiheadAttention`，并打印结果的形状；第 4 步用的正是这些尺寸。
#
# 约定与整门课相同：向量是**行向量**，序列 `x` 的形状为 `(seq, d_in)`，一律使用 `float32`。
# 唯一的例外沿用前两份资料：每个头的投影矩阵按 `(d_out, d_in)` 存放，因此一个头用
# `x @ W.T` 投影整个序列。

# %% setup
import math

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch import nn

# %% checks

# %% [markdown]
# ## The running example
#
# The sentence is *Life is short, eat dessert first*. Without the comma, its six words
# sorted as Python sorts strings (capitals first) give the vocabulary `Life` 0, `dessert` 1,
# `eat` 2, `first` 3, `is` 4, `short` 5, so the sentence reads `[0, 4, 5, 2, 1, 3]`. An
# embedding table of 6 rows and 16 columns, drawn under `torch.manual_seed(123)`, turns it
# into `x`: six 16-dimensional rows.
#
# Every head has queries and keys of size $d_k = 24$ and values of size $d_v = 28$, and
# there are $h = 3$ heads. One head's query matrix is `(24, 16)`; three heads stack three of
# them into a tensor of shape `(3, 24, 16)`: `W_query[i]` is head `i`'s matrix. Likewise
# `W_key` is `(3, 24, 16)` and `W_value` `(3, 28, 16)`. `torch.rand` draws their entries
# uniformly from $[0, 1)$. The first source draws one head's three matrices before the
# stacked ones; the setup below draws them too and never uses them, so that the random
# stream, and with it every number below, is the source's.
#
# Like the sources, we count words from 1: *query 2* is the query of the second word, *is*,
# at index 1.

# %% [markdown zh]
# ## 贯穿全文的示例
#
# 例句是“Life is short, eat dessert first”。去掉逗号后，把六个词按 Python 的字符串顺序排序
# （大写字母在前），得到词表 `Life` 0、`dessert` 1、`eat` 2、`first` 3、`is` 4、`short` 5，
# 于是这句话编码为 `[0, 4, 5, 2, 1, 3]`。一张 6 行 16 列的嵌入表（在 `torch.manual_seed(123)`
# 下随机生成）把它变成 `x`：六个 16 维的行向量。
#
# 每个头的查询和键的维度都是 $d_k = 24$，值的维度是 $d_v = 28$，一共 $h = 3$ 个头。一个头的
# 查询矩阵形状为 `(24, 16)`；三个头的查询矩阵叠成形状为 `(3, 24, 16)` 的张量，`W_query[i]`
# 就是下标为 `i` 的头的矩阵。同理，`W_key` 为 `(3, 24, 16)`，`W_value` 为 `(3, 28, 16)`。这些
# 矩阵的元素由 `torch.rand` 在 $[0, 1)$ 上均匀抽取。第一份资料在抽取叠起来的矩阵之前，先抽了
# 单个头的三个矩阵；下面的准备代码也照样抽取（之后并不使用），这样随机数序列，进而下文的每个
# 数值，都与资料一致。
#
# 与资料一样，词从 1 开始编号：**查询 2** 指第二个词 *is* 的查询，下标为 1。

# %% setup
words = ["Life", "is", "short", "eat", "dessert", "first"]  # the sentence, comma dropped
token_ids = torch.tensor([0, 4, 5, 2, 1, 3])  # ids in the sorted vocabulary (assignment 2)

torch.manual_seed(123)
x = nn.Embedding(6, 16)(token_ids).detach()  # (6, 16), one row per word

torch.manual_seed(123)
single_W_query = torch.rand(24, 16)  # one head: (d_k, d_in), drawn but not used below
single_W_key = torch.rand(24, 16)  # (d_k, d_in)
single_W_value = torch.rand(28, 16)  # (d_v, d_in)

h = 3
W_query = torch.rand(h, 24, 16)  # (h, d_k, d_in), drawn right after, no new seed
W_key = torch.rand(h, 24, 16)  # (h, d_k, d_in)
W_value = torch.rand(h, 28, 16)  # (h, d_v, d_in)

# %% strings zh
{
    "# the sentence, comma dropped": "# 例句的各个词，去掉了逗号",
    "# ids in the sorted vocabulary (assignment 2)": "# 排序后词表中的 id（见作业 2）",
    "# (6, 16), one row per word": "# (6, 16)，每个词一行",
    "# one head: (d_k, d_in), drawn but not used below":
        "# 单个头：(d_k, d_in)，只抽取，后面不用",
    "# (h, d_k, d_in), drawn right after, no new seed": "# (h, d_k, d_in)，紧接着抽取，不重设种子",
}

# %% [markdown]
# ## Step 1: every head's projection in one product
#
# Head $i$ projects the sequence with its own matrix: $x W_i^\top$, shape `(seq, d_out)`.
# `torch.bmm(A, B)` multiplies two stacks of matrices pair by pair: for `A` of shape
# `(h, n, m)` and `B` of shape `(h, m, p)` it returns `(h, n, p)` whose slice `i` is
# `A[i] @ B[i]`. Stack the heads' matrices as `A` and the same inputs, once per head, as `B`:
#
# ![The h query matrices, (h, d_k, d_in), times x.T expanded to (h, d_in, seq) (views, no copy): one torch.bmm gives (h, d_k, seq), a transpose the queries (h, seq, d_k)](figure:bmm_stacking)
#
# In code:
#
# 1. give the inputs a head axis: `x.T` is `(d_in, seq)`, and `x.T.expand(h, -1, -1)` is
#    `(h, d_in, seq)`: `h` views of the same memory, nothing copied
#    (`x.T.repeat(h, 1, 1)` gives the same numbers as `h` real copies);
# 2. `torch.bmm(W, stacked)` is `(h, d_out, seq)`: slice `i` is $W_i x^\top$, one column
#    per position;
# 3. swap the last two dimensions (`.transpose(1, 2)`) to get one row per position,
#    `(h, seq, d_out)`.
#
# The last move is where a `reshape` is tempting and wrong: reshaping `(h, d_out, seq)` to
# `(h, seq, d_out)` keeps the numbers in memory order and mixes positions with features.
#
# With the running example the stacked inputs are `(3, 16, 6)`; straight out of `torch.bmm`
# the keys of all heads are `(3, 24, 6)`, after the swap `(3, 6, 24)`, and the values
# `(3, 6, 28)`. Projecting one input through every head, as in `W_query.matmul(x[1])`,
# gives query 2 of every head, `(3, 24)`: row 1 of each head's queries.
#
# **Rule for this step:** one `torch.bmm` for all heads. A Python loop (or a comprehension)
# over the heads breaks the rule, and so does not calling `torch.bmm` at all.

# %% [markdown zh]
# ## 第 1 步：一次乘法完成所有头的投影
#
# 下标为 $i$ 的头用自己的矩阵投影序列：$x W_i^\top$，形状为 `(seq, d_out)`。`torch.bmm(A, B)`
# 把两叠矩阵逐对相乘：若 `A` 的形状为 `(h, n, m)`、`B` 的形状为 `(h, m, p)`，结果的形状为
# `(h, n, p)`，其中下标为 `i` 的一片是 `A[i] @ B[i]`。于是把各头的矩阵叠起来作为 `A`，再把同一份输入
# 每个头各放一份，作为 `B`：
#
# ![h 个查询矩阵叠成 (h, d_k, d_in)，乘以 expand 成 (h, d_in, seq) 的 x.T（视图，不复制）：一次 torch.bmm 得到 (h, d_k, seq)，转置后得到查询 (h, seq, d_k)](figure:bmm_stacking)
#
# 写成代码：
#
# 1. 给输入加上头这一维：`x.T` 的形状为 `(d_in, seq)`，`x.T.expand(h, -1, -1)` 的形状为
#    `(h, d_in, seq)`：它是同一块内存的 `h` 个视图，没有复制任何数据
#    （`x.T.repeat(h, 1, 1)` 数值相同，但真的复制了 `h` 份）；
# 2. `torch.bmm(W, stacked)` 的形状为 `(h, d_out, seq)`：下标为 `i` 的一片是 $W_i x^\top$，
#    每个位置占一列；
# 3. 交换最后两个维度（`.transpose(1, 2)`），让每个位置占一行，得到 `(h, seq, d_out)`。
#
# 最后这一步很容易想用 `reshape`，但那是错的：把 `(h, d_out, seq)` 直接 `reshape` 成
# `(h, seq, d_out)` 会按内存顺序重新排列数字，把位置和特征混在一起。
#
# 在示例中，叠起来的输入形状为 `(3, 16, 6)`；所有头的键刚从 `torch.bmm` 出来时是
# `(3, 24, 6)`，交换之后是 `(3, 6, 24)`；值是 `(3, 6, 28)`。把一个输入送过所有头，例如
# `W_query.matmul(x[1])`，得到每个头的查询 2，形状为 `(3, 24)`：也就是每个头的查询中下标为 1 的
# 那一行。
#
# **本步规则：** 所有头只用一次 `torch.bmm`。对各头写 Python 循环（或推导式）违反规则，
# 完全不调用 `torch.bmm` 也违反规则。

# %% solution multihead_project

# %% strings zh
{
    "Project the sequence through every head's matrix with one torch.bmm.":
        "用一次 torch.bmm 算出序列在每个头上的投影。",
    "Returns (h, seq, d_out).": "返回 (h, seq, d_out)。",
    "x: (seq, d_in); W: (h, d_out, d_in). ": "x：(seq, d_in)；W：(h, d_out, d_in)。",
}

# %% tests multihead_project points=2
keys = multihead_project(x, W_key)
expect_tensor(keys, (3, 6, 24), "the keys of every head")
expect_tensor(multihead_project(x, W_value), (3, 6, 28), "the values of every head")
expect_tensor(multihead_project(x[:4], torch.cat([W_key, W_key])), (6, 4, 24),
              "the keys of the first four positions, for six heads")
expect_close(keys[1], x @ W_key[1].T, "the second head's keys (head 1), x @ W_key[1].T")
expect_close(multihead_project(x, W_query)[:, 1], W_query.matmul(x[1]),
             "query 2 of every head")

small_x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
small_W = torch.tensor([[[1.0, 0.0], [0.0, 1.0]], [[1.0, 1.0], [1.0, -1.0]]])
expect_close(
    multihead_project(small_x, small_W),
    [[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[3.0, -1.0], [7.0, -1.0], [11.0, -1.0]]],
    "two heads projecting three 2-d inputs",
    mistakes=[("reshape instead of transpose",
               [[[1.0, 3.0], [5.0, 2.0], [4.0, 6.0]], [[3.0, 7.0], [11.0, -1.0], [-1.0, -1.0]]])],
)

# %% strings zh
{
    '"the keys of every head"': '"每个头的键"',
    '"the values of every head"': '"每个头的值"',
    "the keys of the first four positions, for six heads": "前四个位置的键，共六个头",
    "the second head's keys (head 1), x @ W_key[1].T": "第二个头（下标为 1）的键，即 x @ W_key[1].T",
    '"query 2 of every head"': '"每个头的查询 2"',
    "two heads projecting three 2-d inputs": "两个头投影三个 2 维输入",
}

# %% [markdown]
# The first two sources print the shapes of these steps for three heads, the first one on this very
# sentence and these matrices. (The second one's sentence ends in *last* and its matrices
# come from `torch.randn`, but its sizes are the same, and so are its shapes.)

# %% [markdown zh]
# 前两份资料都打印了三个头时这几步的形状；第一份用的正是这句话和这些矩阵。（第二份的例句以
# *last* 结尾，矩阵由 `torch.randn` 生成，但尺寸相同，所以形状也相同。）

# %% code
every_query = multihead_project(x, W_query)  # (h, seq, d_k) if your function is right
every_key = multihead_project(x, W_key)
every_value = multihead_project(x, W_value)
for what, printed, yours in [
    ("query 2 of every head", torch.Size({{documents.DOC000_MULTIHEAD_QUERY_2_SHAPE}}), every_query[:, 1].shape),
    ("keys of every head", torch.Size({{documents.DOC000_MULTIHEAD_KEYS_SHAPE}}), every_key.shape),
    ("values of every head", torch.Size({{documents.DOC000_MULTIHEAD_VALUES_SHAPE}}), every_value.shape),
    ("keys as torch.bmm leaves them, before the swap (yours: swapped back)",
     torch.Size({{documents.DOC002_MULTIHEAD_KEYS_SHAPE}}), every_key.transpose(1, 2).shape),
]:
    print(f"{what}\n  the source printed:  {printed}\n  your function gives: {yours}")

# %% strings zh
{
    "# (h, seq, d_k) if your function is right": "# 函数写对时为 (h, seq, d_k)",
    '"query 2 of every head"': '"每个头的查询 2"',
    '"keys of every head"': '"每个头的键"',
    '"values of every head"': '"每个头的值"',
    "keys as torch.bmm leaves them, before the swap (yours: swapped back)":
        "torch.bmm 刚算出、尚未交换维度的键（你的结果再换回去）",
    "  the source printed:  ": "  资料打印：",
    "  your function gives: ": "  你的函数：",
}

# %% [markdown]
# ## Step 2: attention in every head
#
# Each head now does exactly what one head did in the previous assignment, with its own
# queries, keys and values:
#
# $$Z_i = \operatorname{softmax}\!\left(\frac{Q_i K_i^\top}{\sqrt{d_k}}\right) V_i, \qquad
# Q_i = x W_{Q,i}^\top,\; K_i = x W_{K,i}^\top,\; V_i = x W_{V,i}^\top .$$
#
# Project with your `multihead_project` and keep the head axis in front the whole way:
# `torch.bmm(queries, keys.transpose(1, 2))` gives every head's attention scores,
# `(h, seq, seq)`; the softmax runs over the **last** dimension (the keys); one more
# `torch.bmm` with the values gives `(h, seq, d_v)`. For the running example that is
# `(3, 6, 28)`, and the context vectors of query 2 in every head, `context[:, 1]`, are
# `(3, 28)`.
#
# The second source computes query 2 only: its scores in the three heads form a `(3, 6)`
# tensor, one row per head, and it normalises them with `softmax(..., dim=1)`. There
# `dim=1` is the keys. In the full `(h, seq, seq)` scores `dim=1` is the queries, so write
# `dim=-1`, which is the keys in both.

# %% [markdown zh]
# ## 第 2 步：每个头里的注意力
#
# 现在每个头做的事，和上一次作业里单个头做的完全一样，只是用自己的查询、键和值：
#
# $$Z_i = \operatorname{softmax}\!\left(\frac{Q_i K_i^\top}{\sqrt{d_k}}\right) V_i, \qquad
# Q_i = x W_{Q,i}^\top,\; K_i = x W_{K,i}^\top,\; V_i = x W_{V,i}^\top .$$
#
# 用你的 `multihead_project` 做投影，并且自始至终把头这一维放在最前面：
# `torch.bmm(queries, keys.transpose(1, 2))` 给出每个头的注意力分数，形状为
# `(h, seq, seq)`；softmax 沿**最后一个**维度（键）进行；再和值做一次 `torch.bmm`，得到
# `(h, seq, d_v)`。在示例中就是 `(3, 6, 28)`，而每个头中查询 2 的上下文向量
# `context[:, 1]` 的形状为 `(3, 28)`。
#
# 第二份资料只计算查询 2：它在三个头中的注意力分数构成一个 `(3, 6)` 的张量，每个头一行，
# 再用 `softmax(..., dim=1)` 归一化。在那里 `dim=1` 是键这一维。但在完整的 `(h, seq, seq)`
# 注意力分数中，`dim=1` 是查询这一维，所以要写 `dim=-1`：它在两种情形下都指键。

# %% solution multihead_attention

# %% strings zh
{
    "Scaled dot-product self-attention in every head at once.":
        "在所有头中同时计算缩放点积自注意力。",
    "Returns every head's context, (h, seq, d_v).": "返回每个头的上下文向量，(h, seq, d_v)。",
    "x: (seq, d_in); W_query, W_key: (h, d_k, d_in); W_value: (h, d_v, d_in).":
        "x：(seq, d_in)；W_query、W_key：(h, d_k, d_in)；W_value：(h, d_v, d_in)。",
}

# %% tests multihead_attention points=3
context = multihead_attention(x, W_query, W_key, W_value)
expect_tensor(context, (3, 6, 28), "the contexts of every head")
expect_tensor(context[:, 1], (3, 28), "the context of query 2 in every head")
for head in range(3):
    queries, keys, values = x @ W_query[head].T, x @ W_key[head].T, x @ W_value[head].T
    expect_close(
        context[head],
        F.scaled_dot_product_attention(queries, keys, values),
        f"head {head}'s contexts (single-head attention with head {head}'s matrices)",
        mistakes=[("no 1/sqrt(d_k)",
                   F.scaled_dot_product_attention(queries, keys, values, scale=1.0))],
    )

# %% strings zh
{
    "the contexts of every head": "每个头的上下文向量",
    "the context of query 2 in every head": "每个头中查询 2 的上下文向量",
    "head {head}'s contexts (single-head attention with head {head}'s matrices)":
        "下标为 {head} 的头的上下文向量（用下标为 {head} 的头自己的投影矩阵做单头注意力）",
}

# %% [markdown]
# The second source prints the shapes for query 2 in three heads: its attention scores, its
# attention weights and its context vectors. The same steps on the running example, with
# your functions:

# %% [markdown zh]
# 第二份资料打印了三个头中查询 2 的各个形状：注意力分数、注意力权重和上下文向量。下面用你的
# 函数在示例上做同样的几步：

# %% code
context = multihead_attention(x, W_query, W_key, W_value)  # (h, seq, d_v)
query_2 = multihead_project(x, W_query)[:, 1:2]  # (h, 1, d_k): query 2 of every head
scores_2 = torch.bmm(query_2, multihead_project(x, W_key).transpose(1, 2))[:, 0]  # (h, seq)
weights_2 = torch.softmax(scores_2 / math.sqrt(24), dim=-1)  # (h, seq)
for what, printed, yours in [
    ("attention scores of query 2, every head", torch.Size({{documents.DOC002_MULTIHEAD_OMEGA_2_SHAPE}}), scores_2.shape),
    ("attention weights of query 2, every head", torch.Size({{documents.DOC002_MULTIHEAD_ATTENTION_2_SHAPE}}), weights_2.shape),
    ("context vectors of query 2, every head", torch.Size({{documents.DOC002_MULTIHEAD_CONTEXT_2_SHAPE}}), context[:, 1].shape),
]:
    print(f"{what}\n  the source printed:  {printed}\n  your functions give: {yours}")

# %% strings zh
{
    "# (h, 1, d_k): query 2 of every head": "# (h, 1, d_k)：每个头的查询 2",
    "attention scores of query 2, every head": "每个头中查询 2 的注意力分数",
    "attention weights of query 2, every head": "每个头中查询 2 的注意力权重",
    "context vectors of query 2, every head": "每个头中查询 2 的上下文向量",
    "  the source printed:  ": "  资料打印：",
    "  your functions give: ": "  你的函数：",
}

# %% [markdown]
# One panel per head: the attention weights with which each word of the sentence (a row)
# looks at every word (a column). The heads share the input but not the projection
# matrices, and yet here they look much alike. Every entry of these untrained matrices is
# drawn from $[0, 1)$, so all are positive and average $\frac12$. In every head, each of
# the 24 entries of a word's query or key is then roughly $\frac12$ times the same number,
# the sum of the word's 16 features, and the (unscaled) score of query $i$ and key $j$ is
# roughly $24 \cdot \frac12 \cdot \frac12 = 6$ times (sum of $x_i$) times (sum of $x_j$).
# Those scores are widely spread, so in most rows the softmax puts nearly all the weight on one
# word: *first* (the largest sum) for words whose sum is positive, *short* (the most
# negative sum) for words whose sum is negative. The row of *is*, whose sum is close to 0,
# is where the heads differ most. Trained heads learn matrices of both signs and differ far
# more.
#
# The picture is drawn with your `multihead_attention`, given value matrices that make the
# six words' values the rows of the identity: with `W_value[head]` the transpose of the
# pseudo-inverse of `x`, $x\,W_V^\top = I$, so each context row *is* that word's attention
# weights.

# %% [markdown zh]
# 每个头一幅图：句子中每个词（一行）以怎样的注意力权重看向每个词（一列）。各头共用同一个
# 输入，但投影矩阵各不相同；然而在这里，它们看上去却很相像。这些未经训练的矩阵，元素都从
# $[0, 1)$ 中抽取，全是正数，平均为 $\frac12$。于是在每个头中，一个词的查询或键的 24 个
# 分量都大约是同一个数的 $\frac12$：这个数就是该词 16 个特征之和。查询 $i$ 与键 $j$ 的
# （未缩放的）注意力分数大致为 $24 \cdot \frac12 \cdot \frac12 = 6$ 乘以 $x_i$ 的特征和、
# 再乘以 $x_j$ 的特征和。这些分数相差悬殊，所以在
# 大多数行里，softmax 几乎把全部权重都给了一个词：特征和为正的词看向 *first*（特征和最大），
# 特征和为负的词看向 *short*（特征和最小）。特征和接近 0 的 *is* 那一行，是各头差别最大的
# 地方。经过训练的头会学到有正有负的矩阵，彼此的差别要大得多。
#
# 这幅图用你的 `multihead_attention` 画出：给它的值矩阵让六个词的值向量恰好是单位矩阵的各行。
# 取 `W_value[head]` 为 `x` 的伪逆的转置，则 $x\,W_V^\top = I$，于是每一行上下文向量**就是**
# 该词的注意力权重。

# %% code
identity_values = torch.linalg.pinv(x).T.expand(h, -1, -1)  # (3, 6, 16): x @ each.T = I
head_weights = multihead_attention(x, W_query, W_key, identity_values)  # (3, 6, 6)
use_course_font()
fig, axes = plt.subplots(1, h, figsize=(4 * h, 4), sharey=True)
for head, ax in enumerate(axes):
    image = ax.imshow(head_weights[head], cmap="viridis", vmin=0, vmax=1)
    ax.set_title(f"head {head}")
    ax.set_xticks(range(len(words)), words, rotation=45)
    ax.set_xlabel("key (word attended to)")
axes[0].set_yticks(range(len(words)), words)
axes[0].set_ylabel("query (word attending)")
fig.colorbar(image, ax=axes, label="attention weight", shrink=0.8)
plt.show()

# %% strings zh
{
    "# (3, 6, 16): x @ each.T = I": "# (3, 6, 16)：每个头都有 x @ W.T = I",
    'f"head {head}"': 'f"头 {head}"',
    '"key (word attended to)"': '"键（被关注的词）"',
    '"query (word attending)"': '"查询（发出关注的词）"',
    '"attention weight"': '"注意力权重"',
}

# %% [markdown]
# ## Step 3: the heads side by side
#
# The rest of the network expects one vector per position, not one per head and position.
# So the heads' outputs for position $j$ are put next to each other, head 0 first:
#
# $$\text{row } j = \big[\, Z_0[j] \;\; Z_1[j] \;\; \cdots \;\; Z_{h-1}[j] \,\big],$$
#
# turning `(h, seq, d_v)` into `(seq, h * d_v)`; for the running example `(6, 84)`. As in
# step 1, reshaping straight away is wrong: the position axis has to come first
# (`transpose(0, 1)` gives `(seq, h, d_v)`), and only then do the last two axes merge.

# %% [markdown zh]
# ## 第 3 步：把各头并排拼接
#
# 网络的后续部分要求每个位置只有一个向量，而不是每个头、每个位置各一个。所以把各头在位置
# $j$ 上的输出挨个排在一起，下标为 0 的头在最前：
#
# $$\text{第 } j \text{ 行} = \big[\, Z_0[j] \;\; Z_1[j] \;\; \cdots \;\; Z_{h-1}[j] \,\big],$$
#
# 即把 `(h, seq, d_v)` 变成 `(seq, h * d_v)`；在示例中是 `(6, 84)`。和第 1 步一样，直接
# `reshape` 是错的：必须先把位置这一维移到最前（`transpose(0, 1)` 得到 `(seq, h, d_v)`），
# 然后才能合并最后两维。

# %% solution concat_heads

# %% strings zh
{
    "Put the heads' outputs side by side, head 0 first.": "把各头的输出并排拼接，下标为 0 的头在最前。",
    "Returns (seq, h * d_v); row i is": "返回 (seq, h * d_v)；第 i 行是",
    "context: (h, seq, d_v). ": "context：(h, seq, d_v)。",
    "[context[0, i], context[1, i], ...].": "[context[0, i], context[1, i], ...]。",
}

# %% tests concat_heads points=1
small_context = torch.arange(12.0).reshape(2, 3, 2)  # 2 heads, 3 positions, d_v = 2
expect_close(
    concat_heads(small_context),
    [[0.0, 1.0, 6.0, 7.0], [2.0, 3.0, 8.0, 9.0], [4.0, 5.0, 10.0, 11.0]],
    "two heads of three 2-d outputs side by side",
    mistakes=[("heads merged by reshape without transposing",
               [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]])],
)

context = torch.randn(3, 6, 28)  # 3 heads, 6 positions, d_v = 28
merged = concat_heads(context)
expect_tensor(merged, (6, 84), "the three heads side by side")
expect_close(merged[:, 28:56], context[1], "columns 28 to 55: the second head (head 1)")

# %% strings zh
{
    "# 3 heads, 6 positions, d_v = 28": "# 3 个头，6 个位置，d_v = 28",
    "the three heads side by side": "三个头并排拼接",
    "columns 28 to 55: the second head (head 1)": "下标 28 到 55 的列：第二个头（下标为 1）",
    "# 2 heads, 3 positions, d_v = 2": "# 2 个头，3 个位置，d_v = 2",
    "two heads of three 2-d outputs side by side": "两个头、各三个 2 维输出，并排拼接",
}

# %% [markdown]
# ## Step 4: `nn.MultiheadAttention`, written out
#
# PyTorch ships multi-head attention as `torch.nn.MultiheadAttention(embed_dim, num_heads)`.
# It is the same computation with a few conventions of its own; you will now write a module
# that follows all of them, so closely that it can take over a PyTorch module's parameters
# and return the same numbers.
#
# **Shapes: sequence first.** `query` is `(L, N, E)`: $L$ target positions, a batch of $N$
# sequences, embeddings of size $E$ (`embed_dim`). `key` and `value` are `(S, N, E)` with
# $S$ source positions. (Self-attention is the case query = key = value.) The output is
# `(L, N, E)` and the attention weights `(N, L, S)`. The third source's example has
# $L, N, E, S = 3, 4, 10, 6$ and 10 heads: the output is `(3, 4, 10)` and the attention
# weights `(4, 3, 6)`.
#
# **Parameters.**
#
# - `in_proj_weight`, `(3E, E)`: the query, key and value projection matrices stacked, in
#   that order (rows `0..E-1` for queries, `E..2E-1` for keys, `2E..3E-1` for values). Like
#   an `nn.Linear`, each block maps a row `v` to `v @ W.T + b`.
# - `in_proj_bias`, `(3E,)`: their three biases, in the same order.
# - `out_proj`, an `nn.Linear(E, E)` applied to the merged heads at the end.
#
# Their initial values are yours to choose: every check either copies a PyTorch module's
# tensors in with `from_torch` (below) or looks only at shapes. The reference solution
# initialises them as `nn.MultiheadAttention` does: `nn.init.xavier_uniform_` for
# `in_proj_weight`, zeros for both biases, and `nn.Linear`'s own initialisation for
# `out_proj.weight`.
#
# **Heads.** The $E$ projected features are cut into `num_heads` consecutive chunks of
# `head_dim = E // num_heads` (so `num_heads` must divide `E`); chunk $i$ is head $i$. Each
# head scales its scores by $1/\sqrt{d_h}$ with $d_h$ = `head_dim`, not by $1/\sqrt{E}$.
#
# ![The queries (seq, h * d) cut into h heads Q_i, (h, seq, d); attention in every head gives Z_i; the Z_i side by side, (seq, h * d), times W_O give the output](figure:heads_split_merge)
#
# A convenient layout is `(N * num_heads, T, head_dim)`, with $T = L$ for the queries and
# $T = S$ for the keys and values, and sequence `n`'s heads next to each other: then one
# `torch.bmm` runs every head of every sequence at once. After the weighted sum, merge the
# heads back to `(L, N, E)` (as in step 3: move the position axis first before reshaping)
# and apply `out_proj`.
#
# **Masks.** Both are optional and, when they are `bool`, `True` means *may not attend*:
# `key_padding_mask` `(N, S)` hides keys of one sequence (padding) from all its queries;
# `attn_mask` `(L, S)`, or `(N * num_heads, L, S)`, hides key $j$ from query $i$. Masked
# scores become $-\infty$ before the softmax, so their attention weights are exactly 0. A
# `float` mask, `attn_mask` or `key_padding_mask`, is added to the scores as it is (a
# `-inf` in it hides a key, a finite value shifts a score), as `nn.MultiheadAttention`
# does; the hidden checks pass a float `attn_mask`, and a `key_padding_mask` only as `bool`.
# A query whose keys are all hidden has no defined answer: like `nn.MultiheadAttention`, the
# reference solution gives it `nan` weights and a `nan` output, and no check ever hides a whole row.
#
# **Returned attention weights.** `nn.MultiheadAttention` returns the attention weights
# averaged over the heads, `(N, L, S)`; return the same.
#
# **Copying.** The classmethod `MultiHeadAttention.from_torch(mha)` builds a module of the
# same sizes and copies the four tensors of a `torch.nn.MultiheadAttention` into it (under
# `torch.no_grad()`, with `.copy_`). The hidden checks build PyTorch modules with random
# biases, copy them with your `from_torch`, and compare outputs and attention weights with
# and without masks.
#
# The stub cell also lists two helper methods, `split_heads` and `score_bias`, and a helper
# function, `as_additive(mask)`, that turns a mask into the numbers to add to the scores.
# They are stubs too: write them and use them, change them or delete them, as you like.
#
# **Rule for this step:** write the heads out. Your class may not use
# `nn.MultiheadAttention` (or mention it) or `F.multi_head_attention_forward`; in
# `from_torch` you only read the given module's tensors.

# %% [markdown zh]
# ## 第 4 步：亲手写出 `nn.MultiheadAttention`
#
# PyTorch 以 `torch.nn.MultiheadAttention(embed_dim, num_heads)` 的形式提供多头注意力。
# 它做的是同样的计算，只是有几条自己的约定。现在你要写一个模块，遵守全部这些约定，严格到
# 能接过 PyTorch 模块的参数并给出相同的数值。
#
# **形状：序列维在前。** `query` 的形状为 `(L, N, E)`：$L$ 个目标位置，$N$ 个序列组成的
# 一批，嵌入维度为 $E$（`embed_dim`）。`key` 和 `value` 的形状为 `(S, N, E)`，$S$ 是源位置
# 的个数。（自注意力就是 `query`、`key`、`value` 相同的情形。）输出的形状为 `(L, N, E)`，注意力权重
# 的形状为 `(N, L, S)`。第三份资料的例子取 $L, N, E, S = 3, 4, 10, 6$，共 10 个头：输出为
# `(3, 4, 10)`，注意力权重为 `(4, 3, 6)`。
#
# **参数。**
#
# - `in_proj_weight`，`(3E, E)`：查询、键、值三个投影矩阵按此顺序叠在一起（第 `0..E-1` 行
#   属于查询，`E..2E-1` 行属于键，`2E..3E-1` 行属于值）。和 `nn.Linear` 一样，每一块把行向量
#   `v` 映射为 `v @ W.T + b`。
# - `in_proj_bias`，`(3E,)`：对应的三个偏置，顺序相同。
# - `out_proj`：一个 `nn.Linear(E, E)`，最后作用在合并后的各头输出上。
#
# 这些参数的初始值由你决定：每项检查要么先用 `from_torch`（见下文）把一个 PyTorch 模块的张量
# 复制进来，要么只看形状。参考实现的初始化与 `nn.MultiheadAttention` 相同：`in_proj_weight`
# 用 `nn.init.xavier_uniform_`，两组偏置都置 0，`out_proj.weight` 沿用 `nn.Linear` 自己的初始化。
#
# **头。** 投影后的 $E$ 个特征按顺序切成 `num_heads` 段，每段 `head_dim = E // num_heads`
# 个（所以 `num_heads` 必须整除 `E`）；下标为 $i$ 的一段就是下标为 $i$ 的头。每个头用 $1/\sqrt{d_h}$
# 缩放注意力分数，其中 $d_h$ = `head_dim`，而不是 $1/\sqrt{E}$。
#
# ![查询 (seq, h * d) 切成 h 个头的 Q_i，即 (h, seq, d)；每个头各自做注意力得到 Z_i；各 Z_i 并排拼成 (seq, h * d)，再乘以 W_O 得到输出](figure:heads_split_merge)
#
# 一种方便的排布是 `(N * num_heads, T, head_dim)`：对查询 $T = L$，对键和值 $T = S$，并让
# 下标为 `n` 的序列的各头相邻。这样一次 `torch.bmm` 就能算完所有序列的所有头。加权求和之后，把
# 各头合并回 `(L, N, E)`（和第 3 步一样：先把位置这一维移到最前，再 `reshape`），最后作用
# `out_proj`。
#
# **掩码。** 两种掩码都可以不给；当它们是 `bool` 类型时，`True` 表示**不许关注**：
# `key_padding_mask` 的形状为 `(N, S)`，对某个序列的所有查询掩码掉该序列的某些键（填充位）；
# `attn_mask` 的形状为 `(L, S)` 或 `(N * num_heads, L, S)`，对查询 $i$ 掩码掉键 $j$。被掩码的
# 注意力分数在 softmax 之前变为 $-\infty$，因此其注意力权重恰好为 0。`float` 类型的掩码，
# 无论是 `attn_mask` 还是 `key_padding_mask`，都原样加到注意力分数上（其中的 `-inf` 掩码掉
# 一个键，有限值则平移分数），与 `nn.MultiheadAttention` 的做法相同；隐藏检查会传入 `float` 类型的
# `attn_mask`，而 `key_padding_mask` 只以 `bool` 类型传入。如果某个查询的所有键都被掩码，
# 它就没有确定的结果：参考实现和 `nn.MultiheadAttention` 一样，给出全为 `nan` 的注意力权重和
# 输出；检查从不掩码整整一行。
#
# **返回的注意力权重。** `nn.MultiheadAttention` 返回对各头取平均后的注意力权重，形状为
# `(N, L, S)`；你也返回同样的东西。
#
# **复制。** 类方法 `MultiHeadAttention.from_torch(mha)` 构造一个尺寸相同的模块，并把一个
# `torch.nn.MultiheadAttention` 的四个张量复制进去（在 `torch.no_grad()` 下用 `.copy_`）。
# 隐藏检查会构造带随机偏置的 PyTorch 模块，用你的 `from_torch` 复制，再在有掩码和无掩码的
# 情况下比较输出和注意力权重。
#
# 待完成的单元格里还列出了两个辅助方法 `split_heads` 和 `score_bias`，以及一个辅助函数
# `as_additive(mask)`，它把掩码变成要加到注意力分数上的数。它们同样是待完成的函数：写出来
# 用上也好，改掉或删掉也好，都由你决定。
#
# **本步规则：** 亲手写出各头的计算。你的类不得使用（也不得提到）`nn.MultiheadAttention`
# 或 `F.multi_head_attention_forward`；在 `from_torch` 中只能读取给定模块的张量。

# %% solution MultiHeadAttention as_additive

# %% strings zh
{
    "Multi-head attention over sequence-first inputs.": "多头注意力，输入的序列维在最前。",
    "forward(query (L, N, E), key (S, N, E), value (S, N, E), key_padding_mask (N, S) or None,\n"
    "    attn_mask (L, S) or (N * num_heads, L, S) or None) -> (output (L, N, E),\n"
    "    weights averaged over the heads (N, L, S)). A bool mask is True where attention is not\n"
    "    allowed; a float mask is added to the scores.":
        "forward(query (L, N, E), key (S, N, E), value (S, N, E), "
        "key_padding_mask (N, S) 或 None，\n"
        "    attn_mask (L, S) 或 (N * num_heads, L, S) 或 None) -> (输出 (L, N, E)，\n"
        "    对各头取平均的注意力权重 (N, L, S))。bool 掩码在不许关注的位置为 True；\n"
        "    float 掩码直接加到注意力分数上。",
    "A copy of a torch.nn.MultiheadAttention's weights in this module.":
        "一个本类的新模块，其参数复制自给定的 torch.nn.MultiheadAttention。",
    "batch entry n's heads consecutive.": "下标为 n 的序列的各头相邻排列。",
    "(T, N, E) -> (N * num_heads, T, head_dim), ": "(T, N, E) -> (N * num_heads, T, head_dim)，",
    "Both masks as one additive term broadcastable to (N * h, L, S), or None.":
        "两种掩码合成的一个加性项，可广播到 (N * h, L, S)；没有掩码时为 None。",
    "A bool mask (True = hidden) as 0 / -inf floats; a float mask as it is.":
        "bool 掩码（True 表示被掩码）转成 0 / -inf 的浮点数；float 掩码原样返回。",
    '# (L, N, E), heads side by side': '# (L, N, E)，各头并排',
    'f"embed_dim {embed_dim} is not divisible by num_heads {num_heads}"': 'f"embed_dim {embed_dim} 不能被 num_heads {num_heads} 整除"',
    '# (1 or N * h, L, S)': '# (1 或 N * h, L, S)',
}

# %% tests MultiHeadAttention points=4
L, N, E, S = 3, 4, 10, 6
torch.manual_seed(0)
module = MultiHeadAttention(E, 10)
query, key, value = torch.rand(L, N, E), torch.rand(S, N, E), torch.rand(S, N, E)
output, weights = module(query, key, value, key_padding_mask=None, attn_mask=None)
expect_tensor(output, (3, 4, 10), "the output, (L, N, E)")
expect_tensor(weights, (4, 3, 6), "the attention weights averaged over the heads, (N, L, S)")
shapes = {name: tuple(p.shape) for name, p in module.named_parameters()}
assert shapes == {"in_proj_weight": (30, 10), "in_proj_bias": (30,),
                  "out_proj.weight": (10, 10), "out_proj.bias": (10,)}, (
    f"the parameters should be laid out as in nn.MultiheadAttention, found {shapes}"
)

torch.manual_seed(1)
theirs = nn.MultiheadAttention(6, 2)
with torch.no_grad():
    theirs.in_proj_bias.normal_()  # nonzero biases, so that they count
    theirs.out_proj.bias.normal_()
ours = MultiHeadAttention.from_torch(theirs)
query, key, value = torch.randn(2, 3, 6), torch.randn(5, 3, 6), torch.randn(5, 3, 6)
hidden = torch.tensor([[False, False, False, True, True],  # row 0: query 1 may not see keys 4, 5
                       [True, False, False, False, False]])  # row 1: query 2 may not see key 1
output, weights = ours(query, key, value, attn_mask=hidden)
want_output, want_weights = theirs(query, key, value, attn_mask=hidden)
expect_close(output, want_output.detach(),
             "the output of a copy of nn.MultiheadAttention(6, 2), with an attn_mask")
expect_close(weights, want_weights.detach(),
             "its attention weights averaged over the 2 heads")
assert torch.all(weights[:, 0, 3:] == 0), (
    "keys hidden by the attn_mask should get attention weight 0"
)
per_head = torch.rand(3 * 2, 2, 5) < 0.3  # an attn_mask of shape (N * num_heads, L, S)
per_head[..., 0] = False  # every query keeps a key
expect_close(ours(query, key, value, attn_mask=per_head)[0],
             theirs(query, key, value, attn_mask=per_head)[0].detach(),
             "the output with an attn_mask per sequence and head, (N * num_heads, L, S)")
added = torch.randn(2, 5)  # a float attn_mask is added to the scores
added[0, 4] = float("-inf")  # and its -inf hides a key
expect_close(ours(query, key, value, attn_mask=added)[0],
             theirs(query, key, value, attn_mask=added)[0].detach(),
             "the output with a float attn_mask, added to the scores")

# %% strings zh
{
    "the output, (L, N, E)": "输出，(L, N, E)",
    "the attention weights averaged over the heads, (N, L, S)":
        "对各头取平均的注意力权重，(N, L, S)",
    "the parameters should be laid out as in nn.MultiheadAttention, found ":
        "参数的排布应与 nn.MultiheadAttention 相同，实际为 ",
    "# nonzero biases, so that they count": "# 偏置取非零值，让它们起作用",
    "# row 0: query 1 may not see keys 4, 5": "# 第 0 行：查询 1 不许看键 4、5",
    "# row 1: query 2 may not see key 1": "# 第 1 行：查询 2 不许看键 1",
    "the output of a copy of nn.MultiheadAttention(6, 2), with an attn_mask":
        "nn.MultiheadAttention(6, 2) 的副本在给定 attn_mask 时的输出",
    "its attention weights averaged over the 2 heads": "它对 2 个头取平均的注意力权重",
    "keys hidden by the attn_mask should get attention weight 0":
        "被 attn_mask 掩码掉的键，注意力权重应为 0",
    "# an attn_mask of shape (N * num_heads, L, S)": "# 形状为 (N * num_heads, L, S) 的 attn_mask",
    "# every query keeps a key": "# 每个查询至少保留一个键",
    "the output with an attn_mask per sequence and head, (N * num_heads, L, S)":
        "每个序列、每个头各有一个 attn_mask 时的输出，(N * num_heads, L, S)",
    "# a float attn_mask is added to the scores": "# float 类型的 attn_mask 直接加到注意力分数上",
    "# and its -inf hides a key": "# 其中的 -inf 掩码掉一个键",
    "the output with a float attn_mask, added to the scores":
        "float 类型的 attn_mask（直接加到注意力分数上）时的输出",
}

# %% [markdown]
# The third source calls `nn.MultiheadAttention(10, 10)` on random inputs of these sizes
# and prints the shapes of what it returns. Your module, on inputs of the same sizes:

# %% [markdown zh]
# 第三份资料用这些尺寸的随机输入调用 `nn.MultiheadAttention(10, 10)`，并打印返回结果的形状。
# 下面是你的模块在同样尺寸的输入上给出的结果：

# %% code
L, N, E, S = 3, 4, 10, 6
module = MultiHeadAttention(E, 10)
output, weights = module(torch.rand(L, N, E), torch.rand(S, N, E), torch.rand(S, N, E))
for what, printed, yours in [
    ("output, (L, N, E)", torch.Size({{documents.DOC003_MHA_OUTPUT_SHAPE}}), output.shape),
    ("attention weights averaged over the heads, (N, L, S)",
     torch.Size({{documents.DOC003_MHA_WEIGHTS_SHAPE}}), weights.shape),
]:
    print(f"{what}\n  the source printed:  {printed}\n  your module gives:   {yours}")

# %% strings zh
{
    '"output, (L, N, E)"': '"输出，(L, N, E)"',
    "attention weights averaged over the heads, (N, L, S)": "对各头取平均的注意力权重，(N, L, S)",
    "  the source printed:  ": "  资料打印：",
    "  your module gives:   ": "  你的模块：",
}

# %% [markdown]
# ## What you built
#
# Multi-head attention is single-head attention run in parallel on several learned
# projections of the same input, then merged and projected once more:
#
# $$\operatorname{MultiHead}(x) = \big[\, Z_0 \;\; Z_1 \;\; \cdots \;\; Z_{h-1} \,\big]\, W_O^\top + b_O .$$
#
# You wrote it twice: with stacked per-head matrices and `torch.bmm`, and in the packed
# layout of `nn.MultiheadAttention`, where one `(3E, E)` matrix projects queries, keys and
# values for all heads and the heads are just consecutive slices of the projected features.
# The next assignment goes back to a single head and asks what else could score a key
# against a query.

# %% [markdown zh]
# ## 本作业小结
#
# 多头注意力就是在同一输入的几组可学习投影上并行地做单头注意力，再把结果合并、最后投影一次：
#
# $$\operatorname{MultiHead}(x) = \big[\, Z_0 \;\; Z_1 \;\; \cdots \;\; Z_{h-1} \,\big]\, W_O^\top + b_O .$$
#
# 你把它写了两遍：一遍把各头的矩阵叠起来、用 `torch.bmm` 计算；一遍采用 `nn.MultiheadAttention`
# 的紧凑排布，一个 `(3E, E)` 矩阵为所有头投影出查询、键和值，而各个头只是投影后特征中相邻的
# 几段。下一次作业回到单个头，探讨除了点积，还能用哪些打分函数给键和查询打分。
