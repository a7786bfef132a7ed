# %% [markdown]
# # Assignment 6: How to score a key
#
# Every attention layer you have built so far decides how much query $i$ attends to input
# $j$ in the same way: the dot product of a query and a key, divided by $\sqrt{d_k}$. That
# is one choice among several. In this notebook you write four **scoring functions**, then
# build attention twice from the formula: once with a plain double loop that reads like the
# math, and once with matrix products and no loop at all. Both must give the same numbers.
#
# **Source.** This notebook is built on *注意力机制* ("Attention mechanisms"), study notes
# that dsy wrote on 16 September 2020 about the textbook 《神经网络与深度学习》 (*Neural
# Networks and Deep Learning*). The source states attention as a weighted sum of values,
# lists the four scoring functions you write here, stores every input as a column, and
# computes attention with a double loop on a random input. Everything you need from it is
# in this notebook, and the numbers it prints are shown beside yours.
#
# | step | you write | points |
# | --- | --- | --- |
# | 1 | `dot_score`: the plain dot product | 1 |
# | 2 | `scaled_dot_score`: the dot product over $\sqrt{d}$ | 1 |
# | 3 | `additive_score`: a small network scores the pair | 2 |
# | 4 | `bilinear_score`: a learned matrix between key and query | 2 |
# | 5 | `loop_attention`: attention one query and one key at a time | 3 |
# | 6 | `vectorized_attention`: the same attention without a loop | 3 |
#
# **Total: {total_points} points.** Each step has a stub that raises `NotImplementedError`;
# replace the body with your code. The test cell after each stub runs a few public checks
# you can see; when you hand in, hidden checks with other inputs run as well, so make your
# code correct in general, not just for the example.

# %% [markdown zh]
# # 作业 6：如何给键打分
#
# 到目前为止，你写过的每个注意力层都用同一种方式决定查询 $i$ 对输入 $j$ 的关注程度：
# 查询与键做点积，再除以 $\sqrt{d_k}$。这只是众多选择中的一种。
# 在本作业中，你先实现四个**打分函数**，再按公式把注意力写两遍：
# 一遍用朴素的双重循环，读起来与数学公式一一对应；
# 另一遍只用矩阵乘法，一个循环也不写。两种写法的结果必须相同。
#
# **资料来源。** 本作业取材于 dsy 在 2020 年 9 月 16 日写的资料《注意力机制》，
# 这份资料整理自教材《神经网络与深度学习》。资料把注意力写成值向量的加权和，
# 列出了本作业要实现的四种打分函数，把每个输入存为矩阵的一列，
# 并在一个随机输入上用双重循环算出了注意力。你需要的内容都已写在本笔记本里，
# 资料打印出的数值也会列在你的结果旁边，供你对照。
#
# | 步骤 | 你要写的函数 | 分值 |
# | --- | --- | --- |
# | 1 | `dot_score`：普通的点积 | 1 |
# | 2 | `scaled_dot_score`：点积除以 $\sqrt{d}$ | 1 |
# | 3 | `additive_score`：用一个小网络给键和查询这一对打分 | 2 |
# | 4 | `bilinear_score`：在键和查询之间放一个可学习的矩阵 | 2 |
# | 5 | `loop_attention`：每次只处理一个查询和一个键的注意力 | 3 |
# | 6 | `vectorized_attention`：不用循环算出同样的注意力 | 3 |
#
# **总分：{total_points} 分。** 每一步都有一个待完成的函数，它的函数体目前只会抛出
# `NotImplementedError`，请换成你自己的代码。每个函数后面的测试单元格会运行几项你看得到的公开测试；
# 提交之后，评分时还会用别的输入运行隐藏检查，所以你的代码要在一般情况下都正确，
# 而不只是对示例正确。

# %% setup
import math

import matplotlib.pyplot as plt
import torch

# %% checks

# %% [markdown]
# ## A different convention for this notebook: inputs are columns
#
# The rest of the course stores a sequence with one input per **row** and multiplies it by
# weight matrices on the right. The source this notebook follows does the opposite: every
# input is a **column**, and weight matrices multiply from the left. Nothing about attention
# changes; only the bookkeeping does.
#
# ![The same three inputs stored as the rows of x, shape (seq, d), and as the columns of X, shape (d, N)](figure:row_column_layout)
#
# Side by side:
#
# | | rest of the course (rows) | this notebook (columns) |
# | --- | --- | --- |
# | inputs | `x`, shape `(seq, d_in)` | `X`, shape `(d1, N)` |
# | query weight matrix | `W_query`, `(d_in, d_k)` | `W_Q`, `(d3, d1)` |
# | key weight matrix | `W_key`, `(d_in, d_k)` | `W_K`, `(d3, d1)` |
# | value weight matrix | `W_value`, `(d_in, d_v)` | `W_V`, `(d2, d1)` |
# | projections | `x @ W_query` ... | `W_Q @ X` ... |
# | outputs | `(seq, d_v)`, one row per input | `H`, `(d2, N)`, one column per input |
#
# So $N$ is the number of inputs, $d_1$ their size, $d_3$ the size of queries and keys
# (called $d_k$ elsewhere) and $d_2$ the size of values and outputs (called $d_v$
# elsewhere). The projections are
#
# $$Q = W_Q X \in \mathbb{R}^{d_3 \times N},\qquad K = W_K X \in \mathbb{R}^{d_3 \times N},
# \qquad V = W_V X \in \mathbb{R}^{d_2 \times N},$$
#
# and column $i$ of each, `Q[:, i]`, is the query (key, value) of input $i$. One layout is
# the transpose of the other: $W_Q X = (X^\top W_Q^\top)^\top$.
#
# The output for input $i$ is a weighted sum of the values. Its **attention weights**
# $\alpha_{ij}$ come from a **scoring function** $s$ that compares each key with query $i$:
#
# $$h_i = \sum_{j=1}^{N} \alpha_{ij}\, v_j, \qquad
# \alpha_{ij} = \operatorname{softmax}_j\big(s(k_j, q_i)\big)
# = \frac{e^{s(k_j, q_i)}}{\sum_{l=1}^{N} e^{s(k_l, q_i)}}.$$
#
# The softmax runs over the keys $j$, so each query's attention weights sum to 1.

# %% [markdown zh]
# ## 本作业换一种约定：输入是列
#
# 课程的其他作业把序列中的每个输入存为一**行**，再从右边乘上权重矩阵。
# 本作业依据的资料恰好相反：每个输入是一**列**，权重矩阵从左边乘。
# 注意力本身没有任何变化，变的只是记账方式。
#
# ![同样三个输入的两种存法：作为 x 的行，形状 (seq, d)；作为 X 的列，形状 (d, N)](figure:row_column_layout)
#
# 两种约定对照如下：
#
# | | 课程其他作业（行约定） | 本作业（列约定） |
# | --- | --- | --- |
# | 输入 | `x`，形状 `(seq, d_in)` | `X`，形状 `(d1, N)` |
# | 查询的权重矩阵 | `W_query`，`(d_in, d_k)` | `W_Q`，`(d3, d1)` |
# | 键的权重矩阵 | `W_key`，`(d_in, d_k)` | `W_K`，`(d3, d1)` |
# | 值的权重矩阵 | `W_value`，`(d_in, d_v)` | `W_V`，`(d2, d1)` |
# | 投影 | `x @ W_query` …… | `W_Q @ X` …… |
# | 输出 | `(seq, d_v)`，每个输入一行 | `H`，`(d2, N)`，每个输入一列 |
#
# 也就是说，$N$ 是输入的个数，$d_1$ 是每个输入的大小，
# $d_3$ 是查询和键的大小（其他作业里记作 $d_k$），
# $d_2$ 是值和输出的大小（其他作业里记作 $d_v$）。三个投影为
#
# $$Q = W_Q X \in \mathbb{R}^{d_3 \times N},\qquad K = W_K X \in \mathbb{R}^{d_3 \times N},
# \qquad V = W_V X \in \mathbb{R}^{d_2 \times N},$$
#
# 每个矩阵的第 $i$ 列（如 `Q[:, i]`）就是输入 $i$ 的查询（键、值同理）。
# 两种约定互为转置：$W_Q X = (X^\top W_Q^\top)^\top$。
#
# 输入 $i$ 的输出是值向量的加权和，其中的**注意力权重** $\alpha_{ij}$ 由**打分函数** $s$ 给出，
# $s$ 把每个键与查询 $i$ 作比较：
#
# $$h_i = \sum_{j=1}^{N} \alpha_{ij}\, v_j, \qquad
# \alpha_{ij} = \operatorname{softmax}_j\big(s(k_j, q_i)\big)
# = \frac{e^{s(k_j, q_i)}}{\sum_{l=1}^{N} e^{s(k_l, q_i)}}.$$
#
# softmax 对键 $j$ 进行，因此每个查询的注意力权重之和为 1。

# %% [markdown]
# ## The running example
#
# The source works one example, and this notebook uses it throughout: right after
# `torch.manual_seed(0)`, an input of four columns of size 4 is drawn, then the three weight
# matrices in the order queries, keys, values, with $d_2 = d_3 = 10$. Here $X$ happens to be
# square ($d_1 = N = 4$): keep the roles of its two axes apart anyway, since the hidden
# checks use sizes that all differ. The cell prints $X$ and, below it, the input the source
# printed: the same numbers.

# %% [markdown zh]
# ## 贯穿全文的示例
#
# 资料只算了一个例子，本作业从头到尾都用它：先调用 `torch.manual_seed(0)`，
# 接着抽取一个由 4 列组成、每列大小为 4 的输入，
# 再依次抽取查询、键、值的三个权重矩阵，其中 $d_2 = d_3 = 10$。
# 这里的 $X$ 碰巧是方阵（$d_1 = N = 4$），但请仍然分清它两个轴各自的含义：
# 隐藏检查所用的各个大小互不相同。下面的单元格打印出 $X$，
# 再打印资料中的输入：两者是同一组数。

# %% setup
torch.manual_seed(0)
X = torch.randn(4, 4)  # (d1, N): four inputs of size 4, one per column
W_Q = torch.randn(10, 4)  # (d3, d1)
W_K = torch.randn(10, 4)  # (d3, d1)
W_V = torch.randn(10, 4)  # (d2, d1)
print("X, drawn here:")
print(X)
print("the source printed:")
print(torch.tensor([[-1.1258, -1.1524, -0.2506, -0.4339],
                    [0.8487, 0.6920, -0.3160, -2.1152],
                    [0.3223, -1.2633, 0.3500, 0.3081],
                    [0.1198, 1.2377, 1.1168, -0.2473]]))

# %% strings zh
{
    "# (d1, N): four inputs of size 4, one per column":
        "# (d1, N)：4 个大小为 4 的输入，每列一个",
    '"X, drawn here:"': '"这里抽取的 X："',
    '"the source printed:"': '"资料打印的输入："',
}

# %% [markdown]
# ## Step 1: the dot score
#
# The simplest score, the source's **dot-product model**, multiplies a key and a query entry
# by entry and adds up the products:
#
# $$s(k, q) = k^\top q = \sum_{m=1}^{d} k_m q_m.$$
#
# It needs keys and queries of the same size $d$ and has nothing to learn. `k` and `q` are
# 1-D tensors of shape `(d,)`; the score is a single number, returned as a 0-dim tensor
# (what `torch.dot` or `(k * q).sum()` give you).
#
# Example: $k = [1, 2, 3]$ and $q = [4, -5, 6]$ give $4 - 10 + 18 = 12$.

# %% [markdown zh]
# ## 第 1 步：点积打分
#
# 最简单的打分方式就是资料中的**点积模型**：把键和查询逐元素相乘，再把乘积加起来：
#
# $$s(k, q) = k^\top q = \sum_{m=1}^{d} k_m q_m.$$
#
# 它要求键和查询的大小 $d$ 相同，而且没有需要学习的参数。
# `k` 和 `q` 都是形状为 `(d,)` 的一维张量；分数只是一个数，
# 以 0 维张量的形式返回（`torch.dot` 或 `(k * q).sum()` 得到的正是这种张量）。
#
# 例：$k = [1, 2, 3]$，$q = [4, -5, 6]$，分数为 $4 - 10 + 18 = 12$。

# %% solution dot_score

# %% tests dot_score points=1
k, q = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, -5.0, 6.0])
expect_close(dot_score(k, q), 12.0, "dot_score([1, 2, 3], [4, -5, 6])",
             mistakes=[("elementwise product not summed", [4.0, -10.0, 18.0])])
expect_tensor(dot_score(torch.ones(7), torch.ones(7)), (), "the score of two 7-d vectors")

# %% strings zh
{"the score of two 7-d vectors": "两个 7 维向量的分数"}

# %% [markdown]
# ## Step 2: the scaled dot score
#
# When the entries of $k$ and $q$ are independent with mean 0 and variance 1, their dot
# product has variance $d$: the longer the vectors, the more spread out the scores, and the
# closer the softmax comes to putting all the attention weight on a single key. Dividing by
# the standard deviation $\sqrt{d}$ brings the variance back to 1 whatever the size:
#
# $$s(k, q) = \frac{k^\top q}{\sqrt{d}}.$$
#
# This is the source's **scaled dot-product model**, the score of the Transformer, and the one
# every other assignment of the course uses. Here $d$ is the length of the vectors,
# `k.shape[0]`.
#
# Example: $k = [1, 2, 3, 4]$ and $q = [2, 0, 1, 1]$ give $k^\top q = 9$ and $d = 4$, so the
# score is $9 / 2 = 4.5$.

# %% [markdown zh]
# ## 第 2 步：缩放点积打分
#
# 如果 $k$ 和 $q$ 的各个元素相互独立、均值为 0、方差为 1，那么它们的点积的方差是 $d$：
# 向量越长，分数越分散，softmax 就越接近于把全部注意力权重压在某一个键上。
# 除以标准差 $\sqrt{d}$ 之后，不论向量多长，方差都回到 1：
#
# $$s(k, q) = \frac{k^\top q}{\sqrt{d}}.$$
#
# 这就是资料中的**缩放点积模型**，也是 Transformer 使用的打分函数，
# 本课程的其他作业用的都是它。这里的 $d$ 是向量的长度，即 `k.shape[0]`。
#
# 例：$k = [1, 2, 3, 4]$，$q = [2, 0, 1, 1]$，得 $k^\top q = 9$，$d = 4$，
# 所以分数为 $9 / 2 = 4.5$。

# %% solution scaled_dot_score

# %% strings zh
{"d the vectors' length. k, q: (d,).": "d 为向量的长度。k、q：(d,)。"}

# %% tests scaled_dot_score points=1
k, q = torch.tensor([1.0, 2.0, 3.0, 4.0]), torch.tensor([2.0, 0.0, 1.0, 1.0])
expect_close(scaled_dot_score(k, q), 4.5, "scaled_dot_score([1, 2, 3, 4], [2, 0, 1, 1])",
             mistakes=[("scaled by d instead of sqrt(d)", 2.25), ("not scaled", 9.0)])
expect_tensor(scaled_dot_score(torch.ones(9), torch.ones(9)), (), "the score of two 9-d vectors")

# %% strings zh
{"the score of two 9-d vectors": "两个 9 维向量的分数"}

# %% [markdown]
# ## Step 3: the additive score
#
# The source's **additive model** (the score of the first attention models for translation)
# lets a tiny network with one hidden layer judge the pair. The key and the query are each
# mapped into a hidden space of size $d_a$, added, squashed by $\tanh$, and read out by a
# vector $v$:
#
# $$s(k, q) = v^\top \tanh(W k + U q).$$
#
# Shapes: $k$ is `(d_k,)`, $q$ is `(d_q,)`, $W$ is `(d_a, d_k)`, $U$ is `(d_a, d_q)` and
# $v$ is `(d_a,)`. Keys and queries may have different sizes here, because each has its
# own matrix. Since $\tanh$ lies between $-1$ and $1$, the score can never exceed
# $\sum_m |v_m|$ in size.
#
# Example with $d_k = 2$, $d_q = 3$, $d_a = 4$: the matrices below give $W k = [1, 2, 0, -1]$
# and $U q = [-1, 0, 1, 1]$, so $W k + U q = [0, 2, 1, 0]$. Its first and last entries are 0
# and $\tanh 0 = 0$, so with $v = [5, 1, 1, 5]$ only the middle entries count:
# $\tanh 2 + \tanh 1 \approx 0.9640 + 0.7616 = 1.7256$.

# %% [markdown zh]
# ## 第 3 步：加性打分
#
# 资料中的**加性模型**（最早用于机器翻译的注意力模型就用这种打分方式）
# 让一个只有一层隐藏层的小网络来评判键和查询这一对：
# 键和查询各自被映射到大小为 $d_a$ 的隐藏空间，相加后经 $\tanh$ 压缩，
# 最后由向量 $v$ 读出一个数：
#
# $$s(k, q) = v^\top \tanh(W k + U q).$$
#
# 形状：$k$ 为 `(d_k,)`，$q$ 为 `(d_q,)`，$W$ 为 `(d_a, d_k)`，$U$ 为 `(d_a, d_q)`，
# $v$ 为 `(d_a,)`。这里键和查询的大小可以不同，因为二者各有自己的矩阵。
# 由于 $\tanh$ 的取值在 $-1$ 和 $1$ 之间，分数的绝对值永远不会超过 $\sum_m |v_m|$。
#
# 例：取 $d_k = 2$、$d_q = 3$、$d_a = 4$，下面的矩阵给出 $W k = [1, 2, 0, -1]$
# 和 $U q = [-1, 0, 1, 1]$，所以 $W k + U q = [0, 2, 1, 0]$。
# 它的首尾两项为 0，而 $\tanh 0 = 0$，所以在 $v = [5, 1, 1, 5]$ 下只有中间两项起作用：
# $\tanh 2 + \tanh 1 \approx 0.9640 + 0.7616 = 1.7256$。

# %% solution additive_score

# %% tests additive_score points=2
k, q = torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0, 1.0])
W = torch.tensor([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0], [-1.0, 0.0]])  # (d_a, d_k) = (4, 2)
U = torch.tensor([[-1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])  # (4, 3)
v = torch.tensor([5.0, 1.0, 1.0, 5.0])
expect_close(additive_score(k, q, W, U, v), 1.7256, "the additive score of the example",
             mistakes=[("tanh left out", 3.0)])
expect_tensor(additive_score(torch.ones(3), torch.ones(5), torch.ones(2, 3), torch.ones(2, 5),
                             torch.ones(2)), (), "the score with d_k = 3, d_q = 5, d_a = 2")

# %% strings zh
{
    "the additive score of the example": "示例的加性分数",
    "the score with d_k = 3, d_q = 5, d_a = 2": "d_k = 3、d_q = 5、d_a = 2 时的分数",
}

# %% [markdown]
# ## Step 4: the bilinear score
#
# The source's **bilinear model** puts a learned matrix between the two vectors:
#
# $$s(k, q) = k^\top W q = k \cdot (W q), \qquad W \in \mathbb{R}^{d_k \times d_q}.$$
#
# $W q$ turns the query into a vector of the key's size, which is then dotted with the key.
# With $W$ the identity this is the dot score again; in general, $W$ can learn which
# features of a key should match which features of a query. Note the order: $W$ has one
# row per key feature and one column per query feature, so when $d_k \ne d_q$ only one way
# of multiplying fits.
#
# Example with $d_k = 2$, $d_q = 3$: $k = [1, -1]$, $q = [1, 2, 3]$ and
# $W = \begin{bmatrix} 1 & 0 & 0 \\ 0 & 0 & 1 \end{bmatrix}$ give $W q = [1, 3]$ and the
# score $1 - 3 = -2$.

# %% [markdown zh]
# ## 第 4 步：双线性打分
#
# 资料中的**双线性模型**在两个向量之间放一个可学习的矩阵：
#
# $$s(k, q) = k^\top W q = k \cdot (W q), \qquad W \in \mathbb{R}^{d_k \times d_q}.$$
#
# $W q$ 把查询变成一个与键同样大小的向量，再与键做点积。
# 当 $W$ 是单位矩阵时，它又退化为点积打分；一般情况下，
# $W$ 能学到键的哪些特征应当与查询的哪些特征相匹配。
# 注意乘法的顺序：$W$ 的每一行对应键的一个特征，每一列对应查询的一个特征，
# 所以当 $d_k \ne d_q$ 时，只有一种乘法的形状对得上。
#
# 例：取 $d_k = 2$、$d_q = 3$，$k = [1, -1]$，$q = [1, 2, 3]$，
# $W = \begin{bmatrix} 1 & 0 & 0 \\ 0 & 0 & 1 \end{bmatrix}$，
# 得 $W q = [1, 3]$，分数为 $1 - 3 = -2$。

# %% solution bilinear_score

# %% tests bilinear_score points=2
k, q = torch.tensor([1.0, -1.0]), torch.tensor([1.0, 2.0, 3.0])
W = torch.tensor([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # (d_k, d_q) = (2, 3)
expect_close(bilinear_score(k, q, W), -2.0, "bilinear_score of the example")
expect_tensor(bilinear_score(torch.ones(4), torch.ones(6), torch.ones(4, 6)), (),
              "the score with d_k = 4, d_q = 6")

# %% strings zh
{
    '"bilinear_score of the example"': '"示例的 bilinear_score"',
    "the score with d_k = 4, d_q = 6": "d_k = 4、d_q = 6 时的分数",
}

# %% [markdown]
# ## Step 5: attention with a double loop
#
# Now put a score to work. `loop_attention(X, W_Q, W_K, W_V)` computes $H$ exactly as the
# formula reads, in the column convention above:
#
# 1. project all inputs at once: $Q = W_Q X$ and $K = W_K X$, each of shape `(d3, N)`, and
#    $V = W_V X$, shape `(d2, N)`;
# 2. for each query $i$: score every key $j$ against it with
#    `scaled_dot_score(K[:, j], Q[:, i])` (two columns of shape `(d3,)`), turn the $N$ scores
#    into attention weights with `torch.softmax(..., dim=0)`, and add up $\alpha_{ij} v_j$
#    over $j$, each value `V[:, j]` of shape `(d2,)`;
# 3. put $h_i$, shape `(d2,)`, into column $i$ of the output $H$, shape `(d2, N)`.
#
# `torch.stack` turns a list of 0-dim scores into a 1-D tensor, and
# `torch.stack(columns, dim=1)` a list of columns into a matrix.
#
# **Rule for this step:** the point is to see the loop, so `loop_attention` must score every
# key against every query with your `scaled_dot_score`: $N \times N$ calls for $N$ inputs, the
# score of each call used in the output (the grader counts the calls while your code runs,
# and changes the scores of a few of them to see the output change). A version that does
# not score so earns 0 points for the step (when it is checked, `scaled_dot_score` is
# replaced by the reference, so a mistake in step 2 does not cost you these points too).
#
# A case you can check in your head: if $W_Q$ is all zeros, every score is 0, every
# attention weight is $1/N$, and every output column is the mean of the values.

# %% [markdown zh]
# ## 第 5 步：用双重循环算注意力
#
# 现在让打分函数派上用场。`loop_attention(X, W_Q, W_K, W_V)` 完全照着公式、
# 按上面的列约定计算 $H$：
#
# 1. 一次性投影所有输入：$Q = W_Q X$ 和 $K = W_K X$，形状都是 `(d3, N)`；
#    $V = W_V X$，形状为 `(d2, N)`；
# 2. 对每个查询 $i$：用 `scaled_dot_score(K[:, j], Q[:, i])` 给每个键 $j$ 打分
#    （两个参数都是形状为 `(d3,)` 的列），用 `torch.softmax(..., dim=0)`
#    把这 $N$ 个分数变成注意力权重，再对 $j$ 累加 $\alpha_{ij} v_j$，
#    其中每个值向量 `V[:, j]` 的形状为 `(d2,)`；
# 3. 把形状为 `(d2,)` 的 $h_i$ 放进输出 $H$ 的第 $i$ 列，$H$ 的形状为 `(d2, N)`。
#
# `torch.stack` 能把一组 0 维的分数拼成一个一维张量，
# `torch.stack(columns, dim=1)` 能把一组列拼成一个矩阵。
#
# **本步规则：** 这一步的意义就在于看清循环，所以 `loop_attention`
# 必须用你的 `scaled_dot_score` 给每个键对每个查询打分：$N$ 个输入就要调用 $N \times N$ 次，
# 而且每次调用得到的分数都要用到输出里（你的代码运行时，评分程序会数调用次数，
# 并改动其中几次调用的分数，看输出是否随之改变）。做不到的话这一步得 0 分
# （检查这一步时，`scaled_dot_score` 会换成参考实现，所以第 2 步的错误不会让你在这里再丢分）。
#
# 有一种情况可以心算验证：如果 $W_Q$ 全为 0，那么每个分数都是 0，
# 每个注意力权重都是 $1/N$，每个输出列都是所有值向量的平均。

# %% solution loop_attention

# %% strings zh
{
    "Attention one query and one key at a time, as the formula reads.":
        "照着公式，每次只处理一个查询和一个键的注意力。",
    "X: (d1, N), one input per column; W_Q, W_K: (d3, d1); W_V: (d2, d1).":
        "X：(d1, N)，每列一个输入；W_Q、W_K：(d3, d1)；W_V：(d2, d1)。",
    "Q = W_Q X and K = W_K X are (d3, N), V = W_V X is (d2, N); column i belongs to input i.":
        "Q = W_Q X 和 K = W_K X 为 (d3, N)，V = W_V X 为 (d2, N)；第 i 列属于输入 i。",
    "Returns H: (d2, N), whose column i is h_i = sum_j softmax_j(s(k_j, q_i)) v_j, with":
        "返回 H：(d2, N)，其第 i 列为 h_i = sum_j softmax_j(s(k_j, q_i)) v_j，其中",
    "s = scaled_dot_score, q_i = Q[:, i], k_j = K[:, j] (both (d3,)) and v_j = V[:, j] (d2,).":
        "s = scaled_dot_score，q_i = Q[:, i] 和 k_j = K[:, j] 为 (d3,)，v_j = V[:, j] 为 (d2,)。",
    '# (d3, N): column i is query i': '# (d3, N)：第 i 列是查询 i',
    '# (d3, N): column j is key j': '# (d3, N)：第 j 列是键 j',
    '# (d2, N): column j is value j': '# (d2, N)：第 j 列是值向量 j',
    '# the number of inputs': '# 输入的个数',
    '# h_1, ..., h_N, each (d2,)': '# h_1, ..., h_N，形状都是 (d2,)',
    "# (N,): query i's attention weights, sum 1": '# (N,)：查询 i 的注意力权重，和为 1',
    '# (d2, N): h_i is column i': '# (d2, N)：h_i 是第 i 列',
}

# %% tests loop_attention points=3
H = loop_attention(X, W_Q, W_K, W_V)
expect_tensor(H, (10, 4), "H for the running example (d2 = 10, N = 4)")
X_small = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])  # (d1, N) = (2, 3)
W_Q_small = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # (d3, d1) = (3, 2)
W_K_small = torch.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 0.0]])  # (3, 2)
W_V_small = torch.tensor([[1.0, 0.0], [0.0, 2.0]])  # (d2, d1) = (2, 2)
uniform = loop_attention(X_small, torch.zeros(3, 2), W_K_small, W_V_small)
expect_close(uniform, [[2 / 3, 2 / 3, 2 / 3], [4 / 3, 4 / 3, 4 / 3]],
             "H with W_Q = 0 (every output the mean of the values [1, 0], [0, 2], [1, 2])")
expect_close(loop_attention(X_small, W_Q_small, W_K_small, W_V_small),
             [[0.7355, 0.8639, 0.8982], [1.4711, 1.1361, 1.3541]], "H for the small example",
             mistakes=[("query and key indices swapped",
                        [[0.7008, 0.7808, 0.8067], [1.6641, 1.2192, 1.6134]])])

# %% strings zh
{
    "H for the running example (d2 = 10, N = 4)": "贯穿全文的示例中的 H（d2 = 10，N = 4）",
    "H with W_Q = 0 (every output the mean of the values [1, 0], [0, 2], [1, 2])":
        "W_Q = 0 时的 H（每个输出都是值向量 [1, 0]、[0, 2]、[1, 2] 的平均）",
    "H for the small example": "小例子的 H",
}

# %% [markdown]
# The source ran its double loop on this very input and printed its output $H$. Your
# `loop_attention` should give the same numbers, to the four decimals printed:

# %% [markdown zh]
# 资料在同一个输入上运行了它的双重循环，并打印了输出 $H$。
# 你的 `loop_attention` 应当在打印出的四位小数内给出相同的数：

# %% code
notes_H = torch.tensor({{documents.DOC003_LOOP_OUTPUT}})  # (d2, N) = (10, 4)
H = loop_attention(X, W_Q, W_K, W_V)
print("the source printed H:")
print(notes_H)
print("your loop_attention gives:")
print(H)
print(f"largest difference: {float((H - notes_H).abs().max()):.1e}")

# %% strings zh
{
    '"the source printed H:"': '"资料打印的 H："',
    '"your loop_attention gives:"': '"你的 loop_attention 得到："',
    '"largest difference: ': '"最大差值：',
}

# %% [markdown]
# The attention weights $\alpha_{ij}$ of the running example, one row per query, computed
# with your `scaled_dot_score` (the softmax here runs along each row, over the keys):

# %% [markdown zh]
# 下面是贯穿全文的示例中的注意力权重 $\alpha_{ij}$，每个查询占一行，用你的 `scaled_dot_score` 算出
# （这里的 softmax 沿每一行、也就是对键进行）：

# %% code
Q, K = W_Q @ X, W_K @ X  # (d3, N) each
n_inputs = X.shape[1]
scores = torch.tensor([[float(scaled_dot_score(K[:, j], Q[:, i])) for j in range(n_inputs)]
                       for i in range(n_inputs)])  # (query i, key j)
weights = torch.softmax(scores, dim=1)  # attention weights, each row sums to 1
use_course_font()
fig, ax = plt.subplots(figsize=(3.5, 3))
image = ax.imshow(weights, cmap="viridis", vmin=0, vmax=1)
ax.set_xlabel("key j (input attended to)")
ax.set_ylabel("query i (input attending)")
ax.set_xticks(range(n_inputs), [str(j + 1) for j in range(n_inputs)])
ax.set_yticks(range(n_inputs), [str(i + 1) for i in range(n_inputs)])
fig.colorbar(image, ax=ax, label="attention weight")
ax.set_title("attention weights (seed 0)")
plt.show()

# %% strings zh
{
    "# (d3, N) each": "# 各为 (d3, N)",
    "# (query i, key j)": "# （查询 i，键 j）",
    "# attention weights, each row sums to 1": "# 注意力权重，每行之和为 1",
    '"key j (input attended to)"': '"键 j（被关注的输入）"',
    '"query i (input attending)"': '"查询 i（发出关注的输入）"',
    '"attention weight"': '"注意力权重"',
    '"attention weights (seed 0)"': '"注意力权重（种子 0）"',
}

# %% [markdown]
# ## Step 6: the same attention without a loop
#
# The loop calls the score $N^2$ times, one Python call each. All those scores are the
# entries of a single matrix product: entry $(j, i)$ of $K^\top Q$ is $k_j^\top q_i$, so
#
# $$S = \frac{K^\top Q}{\sqrt{d_3}} \in \mathbb{R}^{N \times N}$$
#
# holds every scaled score, one **row per key** and one **column per query**. The attention
# weights of query $i$ are column $i$ of $S$ put through a softmax, so the softmax must run
# down the columns. Then $h_i = \sum_j \alpha_{ij} v_j$ for every $i$ at once is one more
# product: $V$, shape `(d2, N)`, times that `(N, N)` matrix of attention weights, giving
# $H$ of shape `(d2, N)`. Think about which axis is which before you pick the `dim` of the
# softmax: with the square running example both choices run without an error, and only one
# is right.
#
# **Rule for this step:** `vectorized_attention` may contain no Python loop (no `for`,
# `while` or comprehension) and may not call `loop_attention` or `scaled_dot_score`;
# breaking it scores 0 points. It must return the same $H$ as `loop_attention`.

# %% [markdown zh]
# ## 第 6 步：不用循环的同一个注意力
#
# 循环要调用打分函数 $N^2$ 次，每次都是一次 Python 函数调用。
# 其实这些分数恰好是一次矩阵乘法的全部元素：$K^\top Q$ 的 $(j, i)$ 元素就是 $k_j^\top q_i$，所以
#
# $$S = \frac{K^\top Q}{\sqrt{d_3}} \in \mathbb{R}^{N \times N}$$
#
# 装下了所有缩放后的分数，**每个键占一行**，**每个查询占一列**。
# 查询 $i$ 的注意力权重是 $S$ 的第 $i$ 列经过 softmax 的结果，所以 softmax 要在每一列内部做（每列各自归一化）。
# 接下来，对所有 $i$ 同时计算 $h_i = \sum_j \alpha_{ij} v_j$ 只需再做一次乘法：
# 形状为 `(d2, N)` 的 $V$ 乘以这个 `(N, N)` 的注意力权重矩阵，得到形状为 `(d2, N)` 的 $H$。
# 选 softmax 的 `dim` 之前，先想清楚哪个轴代表什么：
# 贯穿全文的示例是方阵，两种选法都不会报错，但只有一种是对的。
#
# **本步规则：** `vectorized_attention` 中不能有 Python 循环（不能有 `for`、`while`
# 或推导式），也不能调用 `loop_attention` 或 `scaled_dot_score`；违反规则得 0 分。
# 它必须返回与 `loop_attention` 相同的 $H$。

# %% solution vectorized_attention

# %% strings zh
{
    "The same H as loop_attention from matrix products, with no Python loop.":
        "用矩阵乘法算出与 loop_attention 相同的 H，不用 Python 循环。",
    "X: (d1, N); W_Q, W_K: (d3, d1); W_V: (d2, d1). Returns H: (d2, N), column i the":
        "X：(d1, N)；W_Q、W_K：(d3, d1)；W_V：(d2, d1)。返回 H：(d2, N)，第 i 列是",
    "output of input i. The scores of all pairs at once: K^T Q / sqrt(d3), (N, N), with":
        "输入 i 的输出。一次算出所有键与查询配对的分数：K^T Q / sqrt(d3)，形状 (N, N)，",
    "key j and query i meeting at row j, column i.": "键 j 与查询 i 的分数位于第 j 行、第 i 列。",
    '# (N keys, N queries)': '# (N 个键，N 个查询)',
    "# (N, N): column i holds query i's attention weights": '# (N, N)：第 i 列是查询 i 的注意力权重',
}

# %% tests vectorized_attention points=3
H = vectorized_attention(X, W_Q, W_K, W_V)
expect_tensor(H, (10, 4), "H for the running example (d2 = 10, N = 4)")
expect_tensor(vectorized_attention(X[:, :2].contiguous(), W_Q, W_K, W_V), (10, 2),
              "H for the first two inputs alone (N = 2)")
X_small = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])  # (d1, N) = (2, 3)
W_Q_small = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # (d3, d1) = (3, 2)
W_K_small = torch.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 0.0]])  # (3, 2)
W_V_small = torch.tensor([[1.0, 0.0], [0.0, 2.0]])  # (d2, d1) = (2, 2)
expect_close(vectorized_attention(X_small, W_Q_small, W_K_small, W_V_small),
             [[0.7355, 0.8639, 0.8982], [1.4711, 1.1361, 1.3541]], "H for the small example",
             mistakes=[("softmax over the wrong dim",
                        [[0.3613, 0.4925, 1.1463], [1.1674, 0.8250, 2.0076]]),
                       ("no 1/sqrt(d)", [[0.7881, 0.9366, 0.9649], [1.5761, 1.0634, 1.4810]]),
                       ("scaled by the value size",
                        [[0.7517, 0.8916, 0.9257], [1.5035, 1.1084, 1.3886]])])

# %% strings zh
{
    "H for the running example (d2 = 10, N = 4)": "贯穿全文的示例中的 H（d2 = 10，N = 4）",
    "H for the first two inputs alone (N = 2)": "只取前两个输入时的 H（N = 2）",
    "H for the small example": "小例子的 H",
}

# %% [markdown]
# Against the $H$ the source printed, as for the loop:

# %% [markdown zh]
# 和循环版一样，与资料打印的 $H$ 对照：

# %% code
H = vectorized_attention(X, W_Q, W_K, W_V)
print("your vectorized_attention gives:")
print(H)
print(f"largest difference from the source's H: {float((H - notes_H).abs().max()):.1e}")

# %% strings zh
{
    '"your vectorized_attention gives:"': '"你的 vectorized_attention 得到："',
    "\"largest difference from the source's H: ": '"与资料中 H 的最大差值：',
}

# %% [markdown]
# How much does the loop cost? Time both on 64 inputs, best of three runs (the numbers
# depend on your machine):

# %% [markdown zh]
# 循环的代价有多大？在 64 个输入上给两种写法计时，各取三次运行中最快的一次
# （具体数字取决于你的机器）：

# %% code
import time


def best_time(function, *args, repeats=3):
    """The shortest of `repeats` runs, in milliseconds (the first run of anything is slow)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function(*args)
        times.append(1000 * (time.perf_counter() - start))
    return min(times)


torch.manual_seed(1)
X_long = torch.randn(16, 64)  # (d1, N) = (16, 64)
W_long = torch.randn(8, 16), torch.randn(8, 16), torch.randn(12, 16)  # W_Q, W_K, W_V
print(f"loop:       {best_time(loop_attention, X_long, *W_long):8.2f} ms")
print(f"vectorized: {best_time(vectorized_attention, X_long, *W_long):8.2f} ms")
same = torch.allclose(loop_attention(X_long, *W_long), vectorized_attention(X_long, *W_long),
                      atol=1e-5)
print("same result:", same)

# %% strings zh
{
    "The shortest of `repeats` runs, in milliseconds (the first run of anything is slow).":
        "`repeats` 次运行中最短的一次，单位为毫秒（任何代码第一次运行都偏慢）。",
    '"loop:       ': '"循环版：  ',
    '"vectorized: ': '"向量化版：',
    '"same result:"': '"结果相同："',
}

# %% [markdown]
# ## What you learned
#
# - Attention is $h_i = \sum_j \operatorname{softmax}_j(s(k_j, q_i))\, v_j$; the scoring
#   function $s$ is a design choice. Dot and scaled dot scores have no parameters of their
#   own; the additive and bilinear scores learn matrices, and let keys and queries differ in
#   size.
# - The dot scores give all $N^2$ scores from one matrix product, as your vectorized version
#   shows, and the scaling keeps the softmax from saturating as $d$ grows: that is why the
#   scaled dot score is the Transformer's choice.
# - Rows or columns is only bookkeeping: the column layout here is the transpose of the row
#   layout used everywhere else, $H = Z^\top$ with $Z$ the row-convention output for
#   $x = X^\top$ and the weight matrices $W_Q^\top, W_K^\top, W_V^\top$.

# %% [markdown zh]
# ## 本作业小结
#
# - 注意力就是 $h_i = \sum_j \operatorname{softmax}_j(s(k_j, q_i))\, v_j$，
#   打分函数 $s$ 是一个设计上的选择。点积和缩放点积打分自身没有参数；
#   加性和双线性打分要学习矩阵，并允许键和查询的大小不同。
# - 点积类打分只需一次矩阵乘法就能得到全部 $N^2$ 个分数（你的向量化版本就是这样做的），
#   而缩放又让 softmax 在 $d$ 变大时不至于饱和：这正是 Transformer 选用缩放点积打分的原因。
# - 用行还是用列只是记账方式的不同：本作业的列约定是其他作业行约定的转置。
#   若 $Z$ 是在行约定下以 $x = X^\top$ 为输入、以 $W_Q^\top, W_K^\top, W_V^\top$ 为权重矩阵得到的输出，
#   则 $H = Z^\top$。
