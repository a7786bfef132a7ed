# %% [markdown]
# # Assignment 8: From attention to a Transformer block
#
# You can now compute attention with one head or many, with or without a mask. Attention
# alone is not yet a model: it does not know where a word stands, its outputs can drift in
# scale from layer to layer, and it mixes positions without transforming any one of them on
# its own. A **Transformer block** adds exactly the pieces that fix this, and a Transformer
# is a stack of such blocks. In this notebook you write the pieces and assemble one block
# that gives the same numbers as PyTorch's own `nn.TransformerEncoderLayer`.
#
# **Sources.** The illustrated walk-through *教你动手推导Self-Attention！（附代码）* (no author
# named), whose hand-sized example you met in assignment 1, stops once attention is
# computed and names what comes next: **positional encoding**, **LayerNorm** and the
# **stacking** of layers into a Transformer. Both it and the notebook *Scaled Dot
# Product Attention* / *Multi Head Attention* point to the paper that introduced these pieces,
# Vaswani et al., *Attention Is All You Need*. This notebook goes past the documents: no
# document prints these steps' values, so every check compares your code with PyTorch
# (`F.layer_norm`, `nn.TransformerEncoderLayer`) or with the paper's formula.
#
# | step | you write | points |
# | --- | --- | --- |
# | 1 | `sinusoidal_positions`: where each position stands | 2 |
# | 2 | `layer_norm`: layer normalisation by hand | 3 |
# | 3 | `feed_forward`: the network every position goes through | 2 |
# | 4 | `TransformerBlock`: attention, norms, network and residuals in one module | 5 |
#
# **Total: {total_points} points.** Each step has a stub that raises `NotImplementedError`;
# replace the body with your code. The test cell after each stub runs a few public checks
# you can see; when you hand in, hidden checks with other inputs run as well, so make your
# code correct in general, not just for the example.
#
# Conventions, as in the whole course: vectors are **rows**, a weight matrix is
# `(d_in, d_out)` and projecting is `x @ W`; everything is `float32`. A batch of `N`
# sequences of `L` positions with `d_model` features each is a tensor `(N, L, d_model)`.

# %% [markdown zh]
# # 作业 8：从注意力到 Transformer 块
#
# 现在你已经会计算单头或多头、带掩码或不带掩码的注意力了。但光有注意力还不是一个模型：它不知道每个词处在什么位置；它的输出在一层又一层之间可能越变越大或越变越小；它只在位置之间混合信息，却从不单独变换某一个位置。**Transformer 块**补上的正是这几样部件，而 Transformer 就是这样的块一层层叠起来的。本作业中你要写出这些部件，再把它们组装成一个块，使它给出与 PyTorch 自带的 `nn.TransformerEncoderLayer` 相同的数值。
#
# **资料来源。** 图解文章《教你动手推导Self-Attention！（附代码）》（未署作者名）——你在作业 1 中见过它的手算示例——在算完注意力之后就停下了，并指出接下来要讲的内容：**位置编码**、**LayerNorm**（层归一化），以及把多层**堆叠**成 Transformer。这份资料和笔记本《Scaled Dot Product Attention》/《Multi Head Attention》都引用了提出这些部件的论文：Vaswani 等人的《Attention Is All You Need》。本作业超出了这些资料的范围：没有哪份资料打印过这几步的数值，所以每项检查都把你的代码与 PyTorch（`F.layer_norm`、`nn.TransformerEncoderLayer`）或论文中的公式相比较。
#
# | 步骤 | 你要写的函数或类 | 分值 |
# | --- | --- | --- |
# | 1 | `sinusoidal_positions`：每个位置在哪里 | 2 |
# | 2 | `layer_norm`：亲手写出层归一化 | 3 |
# | 3 | `feed_forward`：每个位置各自经过的前馈网络 | 2 |
# | 4 | `TransformerBlock`：把注意力、归一化、前馈网络和残差连接装进一个模块 | 5 |
#
# **总分：{total_points} 分。** 每一步都有一个待完成的函数，它的函数体目前只会抛出 `NotImplementedError`，请换成你自己的代码。每个函数后面的测试单元格会运行几项你看得到的公开测试；提交之后，评分时还会用别的输入运行隐藏检查，所以你的代码要在一般情况下都正确，而不只是对示例正确。
#
# 约定与整个课程相同：向量是**行**，权重矩阵的形状是 `(d_in, d_out)`，投影就是 `x @ W`；所有张量都是 `float32`。由 `N` 个序列组成的一批，每个序列 `L` 个位置、每个位置 `d_model` 个特征，是形状为 `(N, L, d_model)` 的张量。

# %% setup
import math

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch import nn

# %% checks

# %% [markdown]
# ## Step 1: where is each word?
#
# Attention compares every query with every key, and nothing in that comparison says which
# word came first. Shuffle the words and the outputs are shuffled the same way, nothing more:
# to attention a sentence is a *set*. The paper's remedy is to add to each input a vector
# that depends only on its position $p$. Its **sinusoidal positional encoding** fills column
# $2i$ with a sine and column $2i + 1$ with the cosine of the same angle:
#
# $$PE_{p,\,2i} = \sin\!\Big(\frac{p}{10000^{2i/d}}\Big), \qquad
# PE_{p,\,2i+1} = \cos\!\Big(\frac{p}{10000^{2i/d}}\Big),$$
#
# with $d$ = `d_model`. The first pair of columns turns fast (angle $p$), each next pair
# more slowly, down to $p/10000^{(d-2)/d}$ for the last pair (close to $p/10000$ when $d$ is
# large): each position gets its own pattern, and a fixed offset between two positions is
# the same rotation of each pair wherever the two stand.
#
# ![The encodings of 40 positions (rows) over 32 columns: fast stripes on the left, slow bands on the right](figure:position_bands)
#
# `sinusoidal_positions(seq_len, d_model)` returns the `(seq_len, d_model)` table. The
# columns come in pairs, so an odd `d_model` has no meaning: raise a `ValueError` whose
# message names the value you were given.
#
# Small example, `d_model = 4`: row $p = 1$ is
# $[\sin 1, \cos 1, \sin 0.01, \cos 0.01] = [0.8415, 0.5403, 0.0100, 1.0000]$.

# %% [markdown zh]
# ## 第 1 步：每个词在哪里？
#
# 注意力把每个查询与每个键相比较，而这种比较里没有任何东西说明哪个词在前。把词打乱，输出也只是以同样的方式被打乱而已：在注意力看来，一个句子是一个**集合**。论文的办法是给每个输入加上一个只取决于其位置 $p$ 的向量。它的**正弦位置编码**在第 $2i$ 列放一个正弦，在第 $2i + 1$ 列放同一个角度的余弦：
#
# $$PE_{p,\,2i} = \sin\!\Big(\frac{p}{10000^{2i/d}}\Big), \qquad
# PE_{p,\,2i+1} = \cos\!\Big(\frac{p}{10000^{2i/d}}\Big),$$
#
# 其中 $d$ = `d_model`。第一对列转得很快（角度为 $p$），后面每一对都更慢一些，到最后一对为 $p/10000^{(d-2)/d}$（$d$ 很大时接近 $p/10000$）：每个位置都有自己独有的模式，而两个位置之间的固定间隔，不论它们在哪里，都对应每一对列上的同一个旋转。
#
# ![40 个位置（行）在 32 列上的位置编码：左边是快速变化的细条纹，右边是缓慢变化的宽色带](figure:position_bands)
#
# `sinusoidal_positions(seq_len, d_model)` 返回形状为 `(seq_len, d_model)` 的表。各列成对出现，所以奇数的 `d_model` 没有意义：此时要抛出 `ValueError`，并在消息中写出传入的那个值。
#
# 小例子，`d_model = 4`：$p = 1$ 的那一行是 $[\sin 1, \cos 1, \sin 0.01, \cos 0.01] = [0.8415, 0.5403, 0.0100, 1.0000]$。

# %% solution sinusoidal_positions

# %% strings zh
{
    "The sinusoidal position encodings, (seq_len, d_model).": "正弦位置编码，形状为 (seq_len, d_model)。",
    "PE[p, 2i] = sin(p / 10000^(2i / d_model)) and PE[p, 2i + 1] = cos of the same angle.":
        "PE[p, 2i] = sin(p / 10000^(2i / d_model))，PE[p, 2i + 1] = 同一角度的 cos。",
    "An odd d_model raises ValueError.": "d_model 为奇数时抛出 ValueError。",
    'f"d_model must be even, got {d_model}"': 'f"d_model 必须是偶数，现在是 {d_model}"',
    '# (seq_len, d_model): sin, cos, sin, cos ...': '# (seq_len, d_model)：sin、cos、sin、cos ……',
}

# %% tests sinusoidal_positions points=2
table = sinusoidal_positions(3, 4)
expect_tensor(table, (3, 4), "three positions, d_model = 4")
expected = torch.tensor([[0.0, 1.0, 0.0, 1.0],
                         [0.8415, 0.5403, 0.0100, 0.99995],
                         [0.9093, -0.4161, 0.0200, 0.9998]])
swapped = expected.view(3, 2, 2).flip(-1).reshape(3, 4)  # each sine beside its cosine, exchanged
halves = expected.view(3, 2, 2).transpose(1, 2).reshape(3, 4)  # all sines, then all cosines
expect_close(table, expected, "the small example",
             mistakes=[("sin and cos exchanged", swapped),
                       ("sines and cosines in two halves", halves)])
formula = torch.tensor([[math.sin(p / 10000 ** (2 * (j // 2) / 16)) if j % 2 == 0
                         else math.cos(p / 10000 ** (2 * (j // 2) / 16)) for j in range(16)]
                        for p in range(50)])  # the formula, entry by entry
expect_close(sinusoidal_positions(50, 16), formula, "50 positions, d_model = 16")
try:
    sinusoidal_positions(4, 7)
except ValueError as error:
    if "7" not in str(error):
        raise AssertionError(f"the ValueError should name the odd d_model, 7; it says: {error}")
else:
    raise AssertionError("an odd d_model (7) should raise ValueError")

# %% strings zh
{
    "three positions, d_model = 4": "三个位置，d_model = 4",
    "# each sine beside its cosine, exchanged": "# 每个正弦与它旁边的余弦互换",
    "# all sines, then all cosines": "# 先是全部正弦，再是全部余弦",
    '"the small example"': '"小例子"',
    "# the formula, entry by entry": "# 按公式逐个元素计算",
    "50 positions, d_model = 16": "50 个位置，d_model = 16",
    "the ValueError should name the odd d_model, 7; it says: ":
        "ValueError 的消息应写出奇数的 d_model，即 7；它的消息是：",
    "an odd d_model (7) should raise ValueError": "奇数的 d_model (7) 应抛出 ValueError",
}

# %% [markdown]
# Each row is one position's code, added to the embedding of the word that stands there.
# Here are the first 60 positions of a 64-column table: on the left the columns change fast
# (column 0 is $\sin p$, which changes sign about every 3 rows, a period of $2\pi$), on the
# right they barely move (the last pair's angle grows by about $10^{-4}$ a row).

# %% [markdown zh]
# 每一行是一个位置的编码，它会加到处在这个位置的词的嵌入上。下面是一张 64 列的表的前 60 个位置：左边的列变化很快（第 0 列是 $\sin p$，正负号大约每 3 行变一次，周期是 $2\pi$），右边的列几乎不动（最后一对列的角度每行只增加约 $10^{-4}$）。

# %% code
codes = sinusoidal_positions(60, 64)
use_course_font()
fig, ax = plt.subplots(figsize=(6, 3))
image = ax.imshow(codes, cmap="RdBu", vmin=-1, vmax=1, aspect="auto")
ax.set_xlabel("column (pairs of sin, cos)")
ax.set_ylabel("position p")
fig.colorbar(image, ax=ax)
plt.show()

# %% strings zh
{
    "column (pairs of sin, cos)": "列（成对的 sin、cos）",
    '"position p"': '"位置 p"',
}

# %% [markdown]
# ## Step 2: layer normalisation
#
# Every sublayer of a block adds its output to its input, block after block. Without care
# the numbers grow or shrink with depth. **Layer normalisation** brings each vector back to
# a standard scale: it subtracts the vector's own mean $\mu$, divides by its own standard
# deviation, then scales and shifts each feature with two learned vectors, $\gamma$ and
# $\beta$, of size $d$:
#
# $$\mu = \frac{1}{d}\sum_{k} x_k, \qquad \sigma^2 = \frac{1}{d}\sum_{k} (x_k - \mu)^2,
# \qquad \operatorname{LN}(x) = \frac{x - \mu}{\sqrt{\sigma^2 + \varepsilon}}\,\gamma + \beta .$$
#
# Four details decide whether your numbers equal PyTorch's:
#
# - the variance is the **biased** one, divided by $d$ (not by $d - 1$, which is what
#   `torch.var` does unless told `unbiased=False`);
# - $\varepsilon$ (`eps`, `1e-5` by default) is added **under** the square root: it matters
#   when a row barely varies, and the tests use such rows;
# - the statistics are taken over the **last** dimension only, whatever dimensions come
#   before it: `x` may be `(d,)`, `(L, d)`, `(N, L, d)` or more;
# - the variance is the mean of $(x_k - \mu)^2$, **after** subtracting the mean. The
#   shortcut $E[x^2] - E[x]^2$ is the same number on paper, but in float32 it subtracts two
#   large, nearly equal numbers when a row lies far from zero (a row near 10000 has
#   $x^2 \approx 10^8$, where float32 steps by 8), and the variance is lost. Every student's
#   hidden checks hold such rows, so that formula fails there every time, not by luck.
#
# **Rule for this step:** write it by hand, with no `F.layer_norm`, `nn.LayerNorm`,
# `torch.var_mean` (or another built-in normalisation).
#
# Small example: the row $[1, 2, 3, 6]$ has mean 3 and variance
# $(4 + 1 + 0 + 9) / 4 = 3.5$, so it normalises to $[-1.0690, -0.5345, 0, 1.6036]$.

# %% [markdown zh]
# ## 第 2 步：层归一化
#
# 块中的每个子层都把输出加到输入上，一个块接一个块。如果不加控制，数值会随着深度越来越大或越来越小。**层归一化**把每个向量拉回到标准的尺度：减去这个向量自己的均值 $\mu$，除以它自己的标准差，再用两个可学习的、大小为 $d$ 的向量 $\gamma$ 和 $\beta$ 对每个特征做缩放和平移：
#
# $$\mu = \frac{1}{d}\sum_{k} x_k, \qquad \sigma^2 = \frac{1}{d}\sum_{k} (x_k - \mu)^2,
# \qquad \operatorname{LN}(x) = \frac{x - \mu}{\sqrt{\sigma^2 + \varepsilon}}\,\gamma + \beta .$$
#
# 你的结果能否与 PyTorch 的相同，取决于四个细节：
#
# - 方差是**有偏**方差，除以 $d$（而不是 $d - 1$；`torch.var` 除非指定 `unbiased=False`，否则除以 $d - 1$）；
# - $\varepsilon$（`eps`，默认为 `1e-5`）加在平方根**里面**：某一行几乎没有起伏时，它就起作用了，测试里正有这样的行；
# - 统计量只在**最后一个**维度上计算，不论前面还有哪些维度：`x` 可以是 `(d,)`、`(L, d)`、`(N, L, d)` 或更多维；
# - 方差是 $(x_k - \mu)^2$ 的均值，要**先**减去均值。捷径 $E[x^2] - E[x]^2$ 在纸面上是同一个数，但一行数远离 0 时，它在 `float32` 中要让两个很大且几乎相等的数相减（一行数在 10000 附近时 $x^2 \approx 10^8$，而 `float32` 在那里的间隔是 8），方差就被舍入误差淹没了。每个学生的隐藏检查里都有这样的行，所以这个公式每次都会在那里失败，而不是看运气。
#
# **本步规则：** 亲手写出来，不得使用 `F.layer_norm`、`nn.LayerNorm`、`torch.var_mean`（或其他内置的归一化）。
#
# 小例子：行 $[1, 2, 3, 6]$ 的均值是 3，方差是 $(4 + 1 + 0 + 9) / 4 = 3.5$，所以归一化后是 $[-1.0690, -0.5345, 0, 1.6036]$。

# %% solution layer_norm

# %% strings zh
{
    "Layer normalisation over the last dim, by hand.": "亲手写出的层归一化，作用在最后一个维度上。",
    "x: (..., d); gamma, beta: (d,). (x - mean) / sqrt(var + eps) * gamma + beta, with the\n"
    "    mean and the biased variance (divided by d) of each row. Returns (..., d).":
        "x：(..., d)；gamma、beta：(d,)。计算 (x - mean) / sqrt(var + eps) * gamma + beta，\n"
        "    其中 mean 和 var 是每一行的均值和有偏方差（除以 d）。返回 (..., d)。",
    '# (..., 1), divided by d': '# (..., 1)，除以 d',
}

# %% tests layer_norm points=3
x = torch.tensor([[1.0, 2.0, 3.0, 6.0], [-1.0, 0.0, 0.0, 1.0]])
gamma, beta = torch.tensor([1.0, 1.0, 2.0, 0.5]), torch.tensor([0.0, 0.5, 0.0, -1.0])
normalised = layer_norm(x, gamma, beta)
expect_tensor(normalised, (2, 4), "two rows of 4 features")
expect_close(normalised, [[-1.0690, -0.0345, 0.0, -0.1982], [-1.4142, 0.5, 0.0, -0.2929]],
             "the small example, scaled by gamma and shifted by beta",
             mistakes=[("unbiased variance", [[-0.9258, 0.0371, 0.0, -0.3056],
                                              [-1.2247, 0.5, 0.0, -0.3876]]),
                       ("no gamma and beta", [[-1.0690, -0.5345, 0.0, 1.6036],
                                              [-1.4142, 0.0, 0.0, 1.4142]]),
                       ("gamma and beta exchanged", [[1.0, 0.7327, 2.0, -1.1036],
                                                     [1.0, 1.0, 2.0, -0.9142]])])
expect_close(layer_norm(x + 10000, gamma, beta),
             [[-1.0690, -0.0345, 0.0, -0.1982], [-1.4142, 0.5, 0.0, -0.2929]],
             "the same rows moved to 10000 (far from zero: subtract the mean before squaring)")
expect_close(layer_norm(x / 1000, gamma, beta),
             [[-0.5443, 0.2278, 0.0, -0.5918], [-0.3086, 0.5, 0.0, -0.8457]],
             "the same rows divided by 1000 (variance near eps)",
             mistakes=[("eps outside the square root", [[-1.0634, -0.0317, 0.0, -0.2025],
                                                        [-1.3945, 0.5, 0.0, -0.3028]])])
torch.manual_seed(8)
batch = torch.randn(2, 3, 5) * 4 + 1  # 2 sequences of 3 positions, d = 5
gamma, beta = torch.randn(5), torch.randn(5)
expect_close(layer_norm(batch, gamma, beta), F.layer_norm(batch, (5,), gamma, beta),
             "a batch (2, 3, 5), against F.layer_norm")
expect_close(layer_norm(batch[0, 0], gamma, beta), F.layer_norm(batch[0, 0], (5,), gamma, beta),
             "one vector (5,), against F.layer_norm")
expect_close(layer_norm(batch, gamma, beta, eps=0.5),
             F.layer_norm(batch, (5,), gamma, beta, eps=0.5), "eps = 0.5, against F.layer_norm")

# %% strings zh
{
    "two rows of 4 features": "两行，每行 4 个特征",
    "the small example, scaled by gamma and shifted by beta": "小例子，经 gamma 缩放、beta 平移",
    "the same rows divided by 1000 (variance near eps)": "同样的行除以 1000（方差接近 eps）",
    "the same rows moved to 10000 (far from zero: subtract the mean before squaring)":
        "同样的行平移到 10000 附近（远离 0：先减去均值再平方）",
    "# 2 sequences of 3 positions, d = 5": "# 2 个序列，每个 3 个位置，d = 5",
    "a batch (2, 3, 5), against F.layer_norm": "一批 (2, 3, 5)，与 F.layer_norm 比较",
    "one vector (5,), against F.layer_norm": "一个向量 (5,)，与 F.layer_norm 比较",
    "eps = 0.5, against F.layer_norm": "eps = 0.5，与 F.layer_norm 比较",
}

# %% [markdown]
# ## Step 3: the feed-forward network
#
# Attention mixes the positions; it never transforms one position on its own beyond a
# linear map. The block's second sublayer does: a small two-layer network with a ReLU,
# applied to **every position separately**, with the same weights at every position:
#
# $$\operatorname{FFN}(x) = \operatorname{relu}(x W_1 + b_1)\, W_2 + b_2,$$
#
# with $W_1$ of shape `(d_model, d_ff)`, $b_1$ of size `d_ff`, $W_2$ of shape
# `(d_ff, d_model)` and $b_2$ of size `d_model`. The hidden layer is usually wider than the
# model (`d_ff` = 2048 for `d_model` = 512 in the paper). `x` may have any leading
# dimensions, `(d_model,)`, `(L, d_model)` or `(N, L, d_model)`: the matrix products treat
# the last dimension and leave the others alone.
#
# Small example: for $x = [1, -1]$ and the weights of the test below, $x W_1 + b_1 =
# [0, -2, -1.5]$; the ReLU makes it $[0, 0, 0]$, so the output is just $b_2 = [0.5, -3]$.

# %% [markdown zh]
# ## 第 3 步：前馈网络
#
# 注意力在位置之间混合信息；除了一次线性映射，它从不单独变换某一个位置。块的第二个子层做的正是这件事：一个带 ReLU 的两层小网络，**分别作用于每一个位置**，每个位置用的是同一组权重矩阵和偏置：
#
# $$\operatorname{FFN}(x) = \operatorname{relu}(x W_1 + b_1)\, W_2 + b_2,$$
#
# 其中 $W_1$ 的形状为 `(d_model, d_ff)`，$b_1$ 的大小为 `d_ff`，$W_2$ 的形状为 `(d_ff, d_model)`，$b_2$ 的大小为 `d_model`。隐藏层通常比模型宽（论文中 `d_model` = 512 时 `d_ff` = 2048）。`x` 前面可以有任意多个维度，`(d_model,)`、`(L, d_model)` 或 `(N, L, d_model)` 都可以：矩阵乘法只作用在最后一个维度上，其余维度保持不变。
#
# 小例子：对 $x = [1, -1]$ 和下面测试中的权重矩阵和偏置，$x W_1 + b_1 = [0, -2, -1.5]$；ReLU 把它变成 $[0, 0, 0]$，所以输出就是 $b_2 = [0.5, -3]$。

# %% solution feed_forward

# %% strings zh
{
    "The position-wise feed-forward network: relu(x @ W1 + b1) @ W2 + b2.":
        "逐位置的前馈网络：relu(x @ W1 + b1) @ W2 + b2。",
    "x: (..., d_model); W1: (d_model, d_ff); b1: (d_ff,); W2: (d_ff, d_model); b2: (d_model,).\n"
    "    Returns (..., d_model).":
        "x：(..., d_model)；W1：(d_model, d_ff)；b1：(d_ff,)；W2：(d_ff, d_model)；b2：(d_model,)。\n"
        "    返回 (..., d_model)。",
}

# %% tests feed_forward points=2
x = torch.tensor([[1.0, -1.0], [0.0, 2.0]])  # 2 positions, d_model = 2
W1 = torch.tensor([[1.0, 0.0, -1.0], [1.0, 1.0, 1.0]])  # (d_model, d_ff) = (2, 3)
b1 = torch.tensor([0.0, -1.0, 0.5])
W2 = torch.tensor([[1.0, 0.0], [0.0, 1.0], [-2.0, 1.0]])  # (d_ff, d_model) = (3, 2)
b2 = torch.tensor([0.5, -3.0])
out = feed_forward(x, W1, b1, W2, b2)
expect_tensor(out, (2, 2), "two positions in, two positions out")
expect_close(out, [[0.5, -3.0], [-2.5, 0.5]], "the small example",
             mistakes=[("no relu", [[3.5, -6.5], [-2.5, 0.5]]),
                       ("relu after W2 instead of after W1", [[3.5, 0.0], [0.0, 0.5]]),
                       ("b1 added after the relu", [[-0.5, -3.5], [-2.5, 0.5]])])
torch.manual_seed(3)
x = torch.randn(2, 4, 3)  # 2 sequences of 4 positions, d_model = 3
W1, b1, W2, b2 = torch.randn(3, 5), torch.randn(5), torch.randn(5, 3), torch.randn(3)
linear_1, linear_2 = nn.Linear(3, 5), nn.Linear(5, 3)  # torch's layers hold W.T
with torch.no_grad():
    linear_1.weight.copy_(W1.T)
    linear_1.bias.copy_(b1)
    linear_2.weight.copy_(W2.T)
    linear_2.bias.copy_(b2)
expect_close(feed_forward(x, W1, b1, W2, b2), linear_2(torch.relu(linear_1(x))).detach(),
             "a batch (2, 4, 3), against two nn.Linear layers with a relu between them")

# %% strings zh
{
    "# 2 positions, d_model = 2": "# 2 个位置，d_model = 2",
    "two positions in, two positions out": "输入两个位置，输出两个位置",
    '"the small example"': '"小例子"',
    "# 2 sequences of 4 positions, d_model = 3": "# 2 个序列，每个 4 个位置，d_model = 3",
    "# torch's layers hold W.T": "# torch 的层里存的是 W.T",
    "a batch (2, 4, 3), against two nn.Linear layers with a relu between them":
        "一批 (2, 4, 3)，与中间夹一个 relu 的两个 nn.Linear 层比较",
}

# %% [markdown]
# ## Step 4: the Transformer block
#
# A block puts the pieces together around two **residual connections**: each sublayer's
# output is *added* to its input, so the block only has to learn a correction to what comes
# in, and a stack of many blocks still passes its input straight through. In the
# **pre-norm** arrangement (`norm_first=True` in PyTorch), each sublayer reads a normalised
# copy of the running sum:
#
# $$h = x + \operatorname{MHA}(\operatorname{LN}_1(x)), \qquad
# \text{out} = h + \operatorname{FFN}(\operatorname{LN}_2(h)).$$
#
# ![The block's data flow: x goes through LayerNorm 1 and multi-head attention and is added back to x; the sum h goes through LayerNorm 2 and the feed-forward network and is added back to h](figure:block_flow)
#
# The two norms have their own $\gamma$ and $\beta$. (The paper put the norm *after* each
# sum, $\operatorname{LN}(x + \operatorname{MHA}(x))$, the post-norm arrangement; pre-norm
# trains more easily in deep stacks and is what PyTorch's `norm_first=True` computes.)
#
# **Multi-head self-attention.** With $E$ = `d_model` and `num_heads` heads of
# `head_dim = E // num_heads` features:
#
# 1. project the normalised `(N, L, E)` input to queries, keys and values, each `(N, L, E)`,
#    with your own weights and biases (one `(E, 3E)` matrix cut in three, or three
#    `(E, E)` ones, as you like);
# 2. cut each row's $E$ features into `num_heads` consecutive chunks, giving
#    `(N, L, num_heads, head_dim)`, and move the heads before the positions:
#    `(N, num_heads, L, head_dim)`;
# 3. run `F.scaled_dot_product_attention(q, k, v, attn_mask=...)`: it works on every
#    sequence and head at once and scales by $1/\sqrt{\texttt{head\_dim}}$ by itself;
# 4. merge the heads back side by side to `(N, L, E)` (positions before heads again, then
#    reshape) and apply the output projection, `@ W_out + b_out`.
#
# **The mask.** `forward(x, attn_mask=None)` takes an optional boolean `(L, L)` mask that is
# True where a query may **not** attend to a key, as in assignment 7 and as
# `nn.TransformerEncoderLayer`'s `src_mask`. `F.scaled_dot_product_attention` reads a
# boolean mask the other way round (True = *may* attend), so pass it `~attn_mask`. A query
# whose keys are all masked has no defined output; the tests never ask for one.
#
# **Copying PyTorch's layer.** The classmethod `TransformerBlock.from_torch(layer)` builds a
# block of the same sizes from an `nn.TransformerEncoderLayer(d_model, num_heads, d_ff,
# dropout=0.0, batch_first=True, norm_first=True)` and copies its weights (under
# `torch.no_grad()`, with `.copy_`). Your parameters may have any names and layout; the
# layer's are:
#
# | in the layer | shape | what it is |
# | --- | --- | --- |
# | `self_attn.in_proj_weight`, `self_attn.in_proj_bias` | `(3E, E)`, `(3E,)` | query, key and value projections stacked in that order, stored like `nn.Linear`: a row `v` maps to `v @ W.T + b` |
# | `self_attn.out_proj.weight`, `.bias` | `(E, E)`, `(E,)` | the output projection, also `v @ W.T + b` |
# | `norm1.weight`, `norm1.bias` | `(E,)` | $\gamma_1$, $\beta_1$ of the norm before attention |
# | `norm2.weight`, `norm2.bias` | `(E,)` | $\gamma_2$, $\beta_2$ of the norm before the network |
# | `linear1.weight`, `linear1.bias` | `(d_ff, E)`, `(d_ff,)` | $W_1^\top$ and $b_1$ |
# | `linear2.weight`, `linear2.bias` | `(E, d_ff)`, `(E,)` | $W_2^\top$ and $b_2$ |
#
# `layer.self_attn.num_heads`, `layer.self_attn.embed_dim` and `layer.linear1.out_features`
# give the sizes. The stub also lists a helper method, `attention(x, attn_mask)`, for the
# multi-head part: write it and use it, change it or delete it, as you like. The hidden
# checks draw layers of other sizes with every parameter random (so every bias, $\gamma$ and
# $\beta$ counts), copy them with your `from_torch` and compare your block with the layer in
# eval mode, with and without a mask.
#
# **Rules for this step:** the block calls your own `layer_norm` and `feed_forward` and runs
# its heads with `F.scaled_dot_product_attention`; it may not use (or mention)
# `nn.MultiheadAttention`, `nn.TransformerEncoderLayer`, `nn.LayerNorm` or PyTorch's other
# built-in attention and encoder functions. In `from_torch` you only read the layer's
# tensors.

# %% [markdown zh]
# ## 第 4 步：Transformer 块
#
# 一个块把这些部件围绕两条**残差连接**组装起来：每个子层的输出都**加**到它的输入上。这样块只需要学习对输入的修正量，而即使叠了很多层，输入也能直接传过去。在**前置归一化**（PyTorch 中的 `norm_first=True`）的排布中，每个子层读取的是当前累加和经过归一化后的副本：
#
# $$h = x + \operatorname{MHA}(\operatorname{LN}_1(x)), \qquad
# \text{out} = h + \operatorname{FFN}(\operatorname{LN}_2(h)).$$
#
# ![块中的数据流：x 经过 LayerNorm 1 和多头注意力后加回到 x 上；得到的和 h 经过 LayerNorm 2 和前馈网络后加回到 h 上](figure:block_flow)
#
# 两个层归一化各有自己的 $\gamma$ 和 $\beta$。（论文把层归一化放在每次相加**之后**，即 $\operatorname{LN}(x + \operatorname{MHA}(x))$，称为后置归一化；前置归一化在很深的堆叠中更容易训练，也正是 PyTorch 的 `norm_first=True` 所计算的。）
#
# **多头自注意力。** 设 $E$ = `d_model`，共 `num_heads` 个头，每个头 `head_dim = E // num_heads` 个特征：
#
# 1. 用你自己的权重矩阵和偏置，把归一化后的 `(N, L, E)` 输入投影成查询、键和值，形状都是 `(N, L, E)`（用一个 `(E, 3E)` 矩阵切成三份，或用三个 `(E, E)` 矩阵，随你）；
# 2. 把每一行的 $E$ 个特征按顺序切成 `num_heads` 段，得到 `(N, L, num_heads, head_dim)`，再把头这一维移到位置之前：`(N, num_heads, L, head_dim)`；
# 3. 调用 `F.scaled_dot_product_attention(q, k, v, attn_mask=...)`：它一次处理所有序列的所有头，并自行乘以 $1/\sqrt{\texttt{head\_dim}}$；
# 4. 把各头并排合并回 `(N, L, E)`（先把位置移回头之前，再 `reshape`），最后做输出投影 `@ W_out + b_out`。
#
# **掩码。** `forward(x, attn_mask=None)` 接收一个可选的、形状为 `(L, L)` 的布尔掩码，在查询**不许**关注某个键的位置为 True，与作业 7 以及 `nn.TransformerEncoderLayer` 的 `src_mask` 相同。`F.scaled_dot_product_attention` 对布尔掩码的理解正好相反（True 表示**可以**关注），所以要传给它 `~attn_mask`。所有键都被掩码的查询没有确定的输出；测试从不要求这种情况。
#
# **复制 PyTorch 的层。** 类方法 `TransformerBlock.from_torch(layer)` 根据一个 `nn.TransformerEncoderLayer(d_model, num_heads, d_ff, dropout=0.0, batch_first=True, norm_first=True)` 构造一个尺寸相同的块，并复制它的参数（在 `torch.no_grad()` 下用 `.copy_`）。你的参数可以随意命名和排布；这个层的参数是：
#
# | 层中的参数 | 形状 | 含义 |
# | --- | --- | --- |
# | `self_attn.in_proj_weight`、`self_attn.in_proj_bias` | `(3E, E)`、`(3E,)` | 查询、键、值的投影按此顺序叠在一起，按 `nn.Linear` 的方式存放：行向量 `v` 映射为 `v @ W.T + b` |
# | `self_attn.out_proj.weight`、`.bias` | `(E, E)`、`(E,)` | 输出投影，同样是 `v @ W.T + b` |
# | `norm1.weight`、`norm1.bias` | `(E,)` | 注意力之前那个层归一化的 $\gamma_1$、$\beta_1$ |
# | `norm2.weight`、`norm2.bias` | `(E,)` | 前馈网络之前那个层归一化的 $\gamma_2$、$\beta_2$ |
# | `linear1.weight`、`linear1.bias` | `(d_ff, E)`、`(d_ff,)` | $W_1^\top$ 和 $b_1$ |
# | `linear2.weight`、`linear2.bias` | `(E, d_ff)`、`(E,)` | $W_2^\top$ 和 $b_2$ |
#
# 尺寸可以从 `layer.self_attn.num_heads`、`layer.self_attn.embed_dim` 和 `layer.linear1.out_features` 读出。待完成的类里还列出了一个辅助方法 `attention(x, attn_mask)`，用于多头注意力这一部分：写出来用上也好，改掉或删掉也好，都由你决定。隐藏检查会构造其他尺寸的层，其中每个参数都是随机的（这样每个偏置、每个 $\gamma$ 和 $\beta$ 都起作用），用你的 `from_torch` 复制，再在有掩码和无掩码的情况下，把你的块与处于 `eval` 模式的层相比较。
#
# **本步规则：** 块要调用你自己的 `layer_norm` 和 `feed_forward`，并用 `F.scaled_dot_product_attention` 计算各头；不得使用（也不得提到）`nn.MultiheadAttention`、`nn.TransformerEncoderLayer`、`nn.LayerNorm` 或 PyTorch 其他内置的注意力和编码器函数。在 `from_torch` 中只能读取给定层的张量。

# %% solution TransformerBlock

# %% strings zh
{
    "A pre-norm Transformer encoder block.": "前置归一化的 Transformer 编码器块。",
    "forward(x (N, L, E), attn_mask (L, L) bool or None) -> (N, L, E):\n"
    "    h = x + attention(layer_norm(x)), then h + feed_forward(layer_norm(h)). attn_mask is True\n"
    "    where a query may not attend to a key. Equals torch.nn.TransformerEncoderLayer(E,\n"
    "    num_heads, d_ff, dropout=0.0, batch_first=True, norm_first=True) in eval mode.":
        "forward(x (N, L, E), attn_mask (L, L) bool 或 None) -> (N, L, E)：\n"
        "    h = x + attention(layer_norm(x))，然后是 h + feed_forward(layer_norm(h))。\n"
        "    attn_mask 在查询不许关注某个键的位置为 True。在 eval 模式下等于\n"
        "    torch.nn.TransformerEncoderLayer(E, num_heads, d_ff, dropout=0.0, batch_first=True,\n"
        "    norm_first=True)。",
    "A block holding a copy of a torch.nn.TransformerEncoderLayer's weights.":
        "一个新的块，其参数复制自给定的 torch.nn.TransformerEncoderLayer。",
    "Multi-head self-attention of x (N, L, E) -> (N, L, E), heads run by\n"
    "        F.scaled_dot_product_attention.":
        "对 x (N, L, E) 做多头自注意力 -> (N, L, E)，各头由\n"
        "        F.scaled_dot_product_attention 计算。",
    "# torch's sense: True = may attend": '# 按 torch 的约定：True 表示可以关注',
    '# (N, L, E), heads side by side': '# (N, L, E)，各头并排',
    'f"d_model {d_model} is not divisible by num_heads {num_heads}"': 'f"d_model {d_model} 不能被 num_heads {num_heads} 整除"',
}

# %% tests TransformerBlock points=5
torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True, norm_first=True)
layer.eval()
with torch.no_grad():
    for parameter in layer.parameters():
        parameter.normal_(0.0, 0.5)  # every weight, bias, gamma and beta random, so each counts
block = TransformerBlock.from_torch(layer)
x = torch.randn(3, 5, 8)  # a batch of 3 sequences, 5 positions, d_model = 8
out = block(x)
expect_tensor(out, (3, 5, 8), "the block's output, (N, L, d_model)")
expect_close(out, layer(x).detach(),
             "a copy of TransformerEncoderLayer(8, 2, 16) (pre-norm, eval mode), no mask")
hidden = torch.tensor([[False, True, False, True, True],  # query 0 may not see keys 1, 3, 4
                       [True, False, False, False, True],
                       [False, False, False, True, False],
                       [True, True, False, False, False],
                       [False, False, True, False, False]])
expect_close(block(x, attn_mask=hidden), layer(x, src_mask=hidden).detach(),
             "the same copy with a bool attn_mask (True = may not attend)")
future = torch.ones(5, 5, dtype=torch.bool).triu(diagonal=1)  # a causal mask
expect_close(block(x, attn_mask=future), layer(x, src_mask=future).detach(),
             "the same copy with a causal mask")
changed = x.clone()
changed[:, -1] = 10.0  # change the last position only
expect_close(block(changed, attn_mask=future)[:, :-1],
             block(x, attn_mask=future)[:, :-1].detach(),
             "under a causal mask, the outputs before the changed last position")
expect_close(block(x[2:])[0], out[2].detach(),
             "the third sequence on its own (sequences never mix)")
order = torch.tensor([4, 2, 0, 1, 3])
expect_close(block(x[:, order]), out[:, order].detach(),
             "the positions reordered, no mask (the block itself knows no positions)")
expect_tensor(TransformerBlock(6, 3, 4)(torch.randn(2, 7, 6)), (2, 7, 6),
              "a new TransformerBlock(6, 3, 4) on a batch (2, 7, 6)")

# %% strings zh
{
    "# every weight, bias, gamma and beta random, so each counts":
        "# 每个权重、偏置、gamma 和 beta 都随机，让它们都起作用",
    "# a batch of 3 sequences, 5 positions, d_model = 8": "# 3 个序列组成的一批，5 个位置，d_model = 8",
    "the block's output, (N, L, d_model)": "块的输出，(N, L, d_model)",
    "a copy of TransformerEncoderLayer(8, 2, 16) (pre-norm, eval mode), no mask":
        "TransformerEncoderLayer(8, 2, 16)（前置归一化，eval 模式）的副本，无掩码",
    "# query 0 may not see keys 1, 3, 4": "# 查询 0 不许看键 1、3、4",
    "the same copy with a bool attn_mask (True = may not attend)":
        "同一个副本，带布尔 attn_mask（True 表示不许关注）",
    "# a causal mask": "# 因果掩码",
    "the same copy with a causal mask": "同一个副本，带因果掩码",
    "# change the last position only": "# 只改变最后一个位置",
    "under a causal mask, the outputs before the changed last position":
        "在因果掩码下，被改变的最后一个位置之前的输出",
    "the third sequence on its own (sequences never mix)": "单独输入第三个序列（序列之间从不混合）",
    "the positions reordered, no mask (the block itself knows no positions)":
        "打乱位置的顺序，无掩码（块本身不知道位置）",
    "a new TransformerBlock(6, 3, 4) on a batch (2, 7, 6)":
        "新建的 TransformerBlock(6, 3, 4) 作用在一批 (2, 7, 6) 上",
}

# %% [markdown]
# ## Stacking blocks
#
# A Transformer encoder is nothing more than positions added to the embeddings, then block
# after block, each with its own weights. Every block keeps the shape `(N, L, d_model)`, so
# they stack as they are. Below, six blocks of your own run over a batch, and the size of
# each position's vector is printed after every block: the residual sums let it grow slowly,
# block after block, while each sublayer still reads a normalised input.

# %% [markdown zh]
# ## 堆叠多个块
#
# Transformer 编码器不过如此：先把位置编码加到嵌入上，再一个块接一个块地计算，每个块有自己的参数。每个块都保持形状 `(N, L, d_model)`，所以可以原样叠起来。下面让你自己写的六个块作用在一批序列上，并在每个块之后打印每个位置向量的大小：残差连接的累加让它一块接一块地慢慢变大，而每个子层读到的仍是归一化后的输入。

# %% code
torch.manual_seed(1)
N, L, d_model = 2, 10, 16
x = torch.randn(N, L, d_model) + sinusoidal_positions(L, d_model)  # embeddings + positions
blocks = [TransformerBlock(d_model, 4, 32) for _ in range(6)]
with torch.no_grad():
    for number, block in enumerate(blocks, start=1):
        x = block(x, attn_mask=torch.ones(L, L, dtype=torch.bool).triu(diagonal=1))
        size = x.norm(dim=-1).mean()
        print(f"after block {number}: mean size of a position's vector {size:.2f}")

# %% strings zh
{
    "# embeddings + positions": "# 嵌入 + 位置编码",
    "after block ": "第 ",
    ": mean size of a position's vector ": " 个块之后：位置向量的平均大小 ",
}

# %% [markdown]
# ## What you built
#
# - **Positional encoding** gives attention the order it cannot see: each position adds its
#   own pattern of sines and cosines, fast in the first columns and slow in the last.
# - **Layer normalisation** rescales each vector by its own mean and (biased) variance,
#   with $\varepsilon$ under the square root, then by a learned $\gamma$ and $\beta$.
# - The **feed-forward network** transforms each position on its own:
#   $\operatorname{relu}(x W_1 + b_1) W_2 + b_2$.
# - A pre-norm **Transformer block** is
#   $h = x + \operatorname{MHA}(\operatorname{LN}_1(x))$, then
#   $h + \operatorname{FFN}(\operatorname{LN}_2(h))$; yours equals PyTorch's
#   `nn.TransformerEncoderLayer`, and a stack of them is a Transformer encoder.

# %% [markdown zh]
# ## 本作业小结
#
# - **位置编码**把注意力看不到的顺序告诉它：每个位置加上自己独有的一组正弦和余弦，前面的列变化快，后面的列变化慢。
# - **层归一化**用每个向量自己的均值和（有偏）方差把它重新缩放，$\varepsilon$ 加在平方根里面，再乘以可学习的 $\gamma$、加上 $\beta$。
# - **前馈网络**单独变换每一个位置：$\operatorname{relu}(x W_1 + b_1) W_2 + b_2$。
# - 前置归一化的 **Transformer 块**就是 $h = x + \operatorname{MHA}(\operatorname{LN}_1(x))$，再算 $h + \operatorname{FFN}(\operatorname{LN}_2(h))$；你写的块与 PyTorch 的 `nn.TransformerEncoderLayer` 相等，把它们叠起来就是 Transformer 编码器。
