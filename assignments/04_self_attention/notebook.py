# %% [markdown]
# # Assignment 4: All queries at once
#
# In the previous assignment you followed a single query through attention: project it,
# score it against every key, scale, softmax, and mix the values. A sentence of six words
# needs that for six queries, and nothing about the recipe changes from one query to the
# next. So we stop looping and stack the queries as the rows of a matrix: one matrix product
# scores every query against every key, and one more mixes the values for all of them.
# Then we wrap the result in a PyTorch module that owns its projection matrices.
#
# | step | you write | points |
# | --- | --- | --- |
# | 1 | `self_attention`: the contexts of every position, no loop | 4 |
# | 2 | `SelfAttention`: the same as an `nn.Module` with learnable projection matrices | 2 |
#
# **Total: {total_points} points.** Each step has a stub that raises `NotImplementedError`;
# replace the body with your code. The test cell after each stub runs a few public checks
# you can see; when you hand in, hidden checks with other inputs run as well, so make your
# code correct in general, not just for the example.
#
# **Where the example comes from.** The sentence, its vectors and the projection matrices
# are those of *自注意力机制* ("The self-attention mechanism"), a Jupyter notebook whose
# author is not named. It follows "The sun rises in the east" from word ids to the
# `SelfAttention` module you write in step 2. You do not need it: everything it uses is set
# up below, and where it prints a result, a cell prints it beside what your code gives.
#
# Conventions, as in the whole course: vectors are **rows**. A sequence is a tensor `x` of
# shape `(seq, d_in)`, a weight matrix is `(d_in, d_out)` and projecting is `x @ W`.
# Everything is `float32`.

# %% [markdown zh]
# # 作业 4：所有查询一次算完
#
# 上一次作业里，你跟着一个查询走完了注意力的全过程：投影、与每个键打分、缩放、softmax，再把
# 值混合起来。六个词的句子就要对六个查询各做一遍，而这套步骤对每个查询都一模一样。所以我们不再
# 循环，而是把所有查询作为行叠成一个矩阵：一次矩阵乘法就给每个查询和每个键打好分，再一次乘法
# 就为所有查询混合好值。最后把它封装成一个 PyTorch 模块，由模块自己持有投影矩阵。
#
# | 步骤 | 你要写的函数 | 分值 |
# | --- | --- | --- |
# | 1 | `self_attention`：所有位置的上下文向量，不用循环 | 4 |
# | 2 | `SelfAttention`：同样的计算，写成投影矩阵可学习的 `nn.Module` | 2 |
#
# **总分：{total_points} 分。** 每一步都有一个待完成的函数，它的函数体会抛出
# `NotImplementedError`，请换成你自己的代码。函数后面的测试单元格运行几项你能看到的公开测试；
# 提交之后，还会用其他输入运行隐藏检查。所以代码要对一般情况都正确，而不只是对示例正确。
#
# **资料来源。** 句子、它的向量和投影矩阵都取自《自注意力机制》，一份未署名的 Jupyter
# 笔记本。它用句子“The sun rises in the east”，从词元 id 一直讲到你将在第 2 步中编写的
# `SelfAttention` 模块。你不需要这份资料：它用到的一切下面都会准备好；凡是它打印过的结果，
# 都有单元格把它和你的代码算出的结果并排打印出来。
#
# 整门课程的约定：向量是**行向量**。序列是形状为 `(seq, d_in)` 的张量 `x`，权重矩阵的形状是
# `(d_in, d_out)`，投影就是 `x @ W`。所有张量都是 `float32`。

# %% setup
import math

import matplotlib.pyplot as plt
import torch
from torch import nn

# %% checks

# %% [markdown]
# ## The running example
#
# Our sentence is *The sun rises in the east*. Its vocabulary holds its six distinct words,
# sorted as Python sorts strings and numbered from 0, so `The` (capital T, id 0) and `the`
# (id 5) are different tokens. Read word by word, the sentence becomes the ids
# `[0, 4, 3, 2, 5, 1]`.
#
# Each id then picks a row of an embedding table. A real model's vocabulary has tens of
# thousands of entries (here the table has 50 000 rows) and its vectors have thousands of
# dimensions (Llama 2 uses 4096); we use 3 so that a whole sentence fits on one screen:
# `x` is a `6 x 3` matrix, one row per word.
#
# The projections give queries and keys of size $d_k = 2$ and values of size $d_v = 4$. The
# sizes differ on purpose: queries and keys must match, since we take their dot products,
# but the values may have any size. The projection matrices are drawn uniformly from
# $[0, 1)$ under seed 123, as *自注意力机制* draws them, so the numbers it prints are the
# numbers your code should give.

# %% [markdown zh]
# ## 贯穿全文的示例
#
# 我们的句子是“The sun rises in the east”。它的词表收录句中六个不同的词，按 Python 对字符串
# 的排序排好，从 0 开始编号；因此 `The`（大写 T，id 0）和 `the`（id 5）是两个不同的词元。
# 逐词读下来，句子就变成 id 序列 `[0, 4, 3, 2, 5, 1]`。
#
# 每个 id 再从嵌入表中取出一行。实际模型的词表有几万个词（这里的嵌入表有 50 000 行），向量有
# 几千维（Llama 2 用 4096 维）；我们只用 3 维，好让整句话在一屏内放得下：`x` 是 `6 x 3` 的
# 矩阵，每个词一行。
#
# 投影得到长度为 $d_k = 2$ 的查询和键，以及长度为 $d_v = 4$ 的值。两个长度特意取得不同：
# 查询和键要做点积，长度必须一致；值的长度则可以随意。投影矩阵在种子 123 下从 $[0, 1)$ 上
# 均匀抽取，和《自注意力机制》的做法相同，所以它打印的数值正是你的代码应当算出的数值。

# %% setup
words = ["The", "sun", "rises", "in", "the", "east"]
token_ids = torch.tensor([0, 4, 3, 2, 5, 1])  # ids in the sorted vocabulary (assignment 2)

torch.manual_seed(123)
x = nn.Embedding(50_000, 3)(token_ids).detach()  # (6, 3), one row per word

torch.manual_seed(123)
W_query = torch.rand(3, 2)  # (d_in, d_k)
W_key = torch.rand(3, 2)  # (d_in, d_k)
W_value = torch.rand(3, 4)  # (d_in, d_v)

# %% strings zh
{
    "# ids in the sorted vocabulary (assignment 2)": "# 排好序的词表中的 id（见作业 2）",
    "# (6, 3), one row per word": "# (6, 3)，每个词一行",
}

# %% [markdown]
# ## Step 1: every query at once
#
# Put the projected inputs in three matrices, one row per word:
#
# $$Q = x W_Q, \qquad K = x W_K, \qquad V = x W_V.$$
#
# Row $i$ of $Q K^\top$ holds the dot products of query $i$ with every key, so this one
# product is the whole table of scores, `(seq, seq)`. Scale it by $1/\sqrt{d_k}$, apply the
# softmax along each row (over the keys, the last dimension), and multiply by $V$:
#
# $$Z = \operatorname{softmax}\!\left(\frac{Q K^\top}{\sqrt{d_k}}\right) V .$$
#
# With the running example the shapes are: `x` `(6, 3)`; `Q` and `K` `(6, 2)`; `V`
# `(6, 4)`; the scores and the attention weights `(6, 6)`; the result `Z` `(6, 4)`. Row 3 of
# `Z` (index 2, the word *rises*) is exactly the context vector you computed for query 3
# alone in the previous assignment: nothing was lost by doing all rows together.
#
# Write `self_attention(x, W_query, W_key, W_value)` so that it also accepts leading batch
# dimensions, `x` of shape `(batch, seq, d_in)` giving `(batch, seq, d_v)`: transpose the
# last two dimensions of the keys (`keys.transpose(-2, -1)`) rather than using `.T`. Use
# `torch.softmax` for the softmax (it takes each row's largest score off first, so scores in
# the thousands stay finite); read $d_k$ from the keys.
#
# **Rule for this step:** every query at once. A `for` or `while` loop, or a comprehension,
# in `self_attention` breaks the rule and the hidden checks reject it.

# %% [markdown zh]
# ## 第 1 步：所有查询一次算完
#
# 把投影后的输入放进三个矩阵，每个词一行：
#
# $$Q = x W_Q, \qquad K = x W_K, \qquad V = x W_V.$$
#
# $Q K^\top$ 的第 $i$ 行是查询 $i$ 与每个键的点积，所以这一次乘法就得到整张注意力分数表，
# 形状为 `(seq, seq)`。乘以 $1/\sqrt{d_k}$ 缩放，对每一行（沿着键，即最后一个维度）做
# softmax，再乘以 $V$：
#
# $$Z = \operatorname{softmax}\!\left(\frac{Q K^\top}{\sqrt{d_k}}\right) V .$$
#
# 在贯穿全文的示例中各个形状是：`x` 为 `(6, 3)`；`Q` 和 `K` 为 `(6, 2)`；`V` 为 `(6, 4)`；注意力
# 分数和注意力权重为 `(6, 6)`；结果 `Z` 为 `(6, 4)`。`Z` 的第 3 行（下标为 2，即词 *rises*）
# 恰好就是上一次作业里你单独为查询 3 算出的上下文向量：所有行一起算，什么也没丢。
#
# 编写 `self_attention(x, W_query, W_key, W_value)`，让它也能接受前导批维度：形状为
# `(batch, seq, d_in)` 的 `x` 得到 `(batch, seq, d_v)`。为此请转置键的最后两个维度
# （`keys.transpose(-2, -1)`），而不要用 `.T`。softmax 用 `torch.softmax`（它会先减去每行
# 最大的分数，上千的分数也不会溢出）；$d_k$ 从键读取。
#
# **本步规则：** 所有查询一次算完。在 `self_attention` 中使用 `for` 或 `while` 循环，或者
# 推导式，都违反规则，隐藏检查会判它不通过。

# %% solution self_attention

# %% strings zh
{
    "Every position attends to every position of the same sequence, with no loop.":
        "同一序列中的每个位置关注每个位置，不用循环。",
    "Returns (..., seq, d_v).": "返回 (..., seq, d_v)。",
    "x: (..., seq, d_in); W_query, W_key: (d_in, d_k); W_value: (d_in, d_v).":
        "x：(..., seq, d_in)；W_query、W_key：(d_in, d_k)；W_value：(d_in, d_v)。",
}

# %% tests self_attention points=4
context = self_attention(x, W_query, W_key, W_value)
expect_tensor(context, (6, 4), "the contexts of the six words")
expect_tensor(self_attention(x[:4], W_query, W_key, W_value), (4, 4),
              "the contexts of the first four words alone")

small_x = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
small_W_query = torch.tensor([[2.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.0]])
small_W_key = torch.tensor([[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]])
small_W_value = torch.tensor([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0]])
expect_close(
    self_attention(small_x, small_W_query, small_W_key, small_W_value),
    [[0.8137, 0.6928, 0.9345], [0.6163, 0.7673, 0.4654], [0.7881, 0.7881, 0.7881]],
    "self-attention of three 2-d inputs (d_k = 4, d_v = 3)",
    mistakes=[
        ("no 1/sqrt(d_k)",
         [[0.9100, 0.7553, 1.0647], [0.5777, 0.8446, 0.3107], [0.8935, 0.8935, 0.8935]]),
        ("sqrt(d_v) instead of sqrt(d_k)",
         [[0.8321, 0.7008, 0.9633], [0.6096, 0.7808, 0.4383], [0.8067, 0.8067, 0.8067]]),
        ("queries and keys swapped",
         [[0.8446, 0.5777, 1.1116], [0.7259, 0.7259, 0.7259], [0.8780, 0.6685, 1.0876]]),
        ("weights transposed when weighting the values",
         [[0.5191, 0.4446, 0.5936], [0.3983, 0.5956, 0.2009], [1.0826, 0.9598, 1.2054]]),
        ("softmax over the wrong dim",
         [[0.7538, 0.6056, 0.9021], [0.2773, 0.3960, 0.1586], [0.9689, 0.9984, 0.9393]]),
    ],
)
expect_close(self_attention(100 * small_x, small_W_query, small_W_key, small_W_value),
             [[100.0, 100.0, 100.0], [50.0, 100.0, 0.0], [100.0, 100.0, 100.0]],
             "the three inputs 100 times larger: scores in the thousands stay finite")
batched = self_attention(torch.ones(2, 5, 3), W_query, W_key, W_value)
expect_tensor(batched, (2, 5, 4), "a batch of 2 sequences of 5 inputs")

# %% strings zh
{
    "the contexts of the six words": "六个词的上下文向量",
    "the contexts of the first four words alone": "只取前四个词时的上下文向量",
    "the three inputs 100 times larger: scores in the thousands stay finite":
        "三个输入放大 100 倍：上千的分数也要保持有限",
    "self-attention of three 2-d inputs (d_k = 4, d_v = 3)":
        "三个二维输入的自注意力（d_k = 4，d_v = 3）",
    "a batch of 2 sequences of 5 inputs": "2 个序列组成的一批，每个序列 5 个输入",
}

# %% [markdown]
# *自注意力机制* computes the context of "rises" on its own, and then the contexts of all
# six words with its module. With the same inputs and projection matrices, your function
# should give both, to the four decimals printed:

# %% [markdown zh]
# 《自注意力机制》先单独算出“rises”的上下文向量，再用它的模块算出全部六个词的上下文向量。
# 输入和投影矩阵都相同，所以你的函数应当在打印出的四位小数上与两者都一致：

# %% code
context = self_attention(x, W_query, W_key, W_value)  # (6, 4)
print("the context of 'rises' (row index 2)")
print("  the source printed: ", torch.tensor({{documents.DOC001_CONTEXT_3}}))
print("  your function gives:", context[2])
print("the contexts of all six words, as the source printed them:")
print(torch.tensor({{documents.DOC001_SELF_ATTENTION_OUTPUT}}))
print("and as your function gives them:")
print(context)

# %% strings zh
{
    "\"the context of 'rises' (row index 2)\"": "\"'rises' 的上下文向量（下标为 2 的行）\"",
    '"  the source printed: "': '"  资料打印的结果："',
    '"  your function gives:"': '"  你的函数的结果："',
    '"the contexts of all six words, as the source printed them:"':
        '"全部六个词的上下文向量，资料打印的结果："',
    '"and as your function gives them:"': '"你的函数的结果："',
}

# %% [markdown]
# The picture shows the attention weights behind these contexts: row $i$ is how word $i$
# spreads its attention over the six words, and each row sums to 1. The cell below computes
# them the slow way, one query at a time as in assignment 3, so that the picture does
# not depend on your code (your `self_attention` must do all queries at once, without a
# loop). The projection matrices are random, not trained, so do not look for meaning in
# which word attends to which; look for the structure: every word attends to every word,
# itself included.

# %% [markdown zh]
# 下图画出这些上下文向量背后的注意力权重：第 $i$ 行是词 $i$ 把注意力分配到六个词上的情况，
# 每行之和为 1。下面的单元格按作业 3 的办法，一次一个查询地慢慢算出这些权重，这样图就不依赖
# 你的代码（你的 `self_attention` 必须一次算完所有查询，不能用循环）。投影矩阵是随机的，没有
# 经过训练，所以不必从“哪个词关注哪个词”里找含义；要看的是结构：每个词都关注所有的词，也包括
# 它自己。

# %% code
queries, keys = x @ W_query, x @ W_key  # (6, 2), (6, 2)
rows = []
for query in queries:  # one word's query, (2,)
    scores = keys @ query / math.sqrt(keys.shape[-1])  # (6,)
    rows.append(torch.exp(scores - scores.max()) / torch.exp(scores - scores.max()).sum())
weights = torch.stack(rows)  # (6, 6): row i is word i's weights
use_course_font()
fig, ax = plt.subplots(figsize=(5, 4))
image = ax.imshow(weights, cmap="viridis", vmin=0, vmax=1)
ax.set_xlabel("key (word attended to)")
ax.set_ylabel("query (word attending)")
ax.set_xticks(range(len(words)), words, rotation=45)
ax.set_yticks(range(len(words)), words)
fig.colorbar(image, ax=ax, label="attention weight")
ax.set_title("attention weights")
plt.show()

# %% strings zh
{
    "# one word's query, (2,)": "# 一个词的查询，(2,)",
    "# (6, 6): row i is word i's weights": "# (6, 6)：第 i 行是词 i 的注意力权重",
    '"key (word attended to)"': '"键（被关注的词）"',
    '"query (word attending)"': '"查询（发出关注的词）"',
    '"attention weight"': '"注意力权重"',
    '"attention weights"': '"注意力权重"',
}

# %% [markdown]
# ## Step 2: a module that owns its projection matrices
#
# In a network the three projection matrices are learned, so they belong to a module. A
# PyTorch module is a class that derives from `nn.Module`: its `__init__` first calls
# `super().__init__()` and then creates the parameters, and its `forward(x)` says what the
# module computes. Wrapping a tensor in `nn.Parameter` and assigning it to an attribute
# registers it, so that `module.parameters()` (and an optimiser) can find it.
#
# `SelfAttention(d_in, d_out_kq, d_out_v)` must
#
# - create three parameters named `W_query`, `W_key` and `W_value`, **in that order**, each
#   drawn with `torch.rand(d_in, d_out)`: `(d_in, d_out_kq)` for queries and keys,
#   `(d_in, d_out_v)` for values. The order matters because every draw consumes random
#   numbers: under `torch.manual_seed(123)`, `SelfAttention(3, 2, 4)` then holds exactly
#   the projection matrices of the running example;
# - in `forward(x)`, return your `self_attention` of `x` with its own three matrices, shape
#   `(seq, d_out_v)`.
#
# ![The SelfAttention module: its parameters W_query, W_key and W_value above; below, the shapes in forward, from x (seq, d_in) through Q, K, V and the attention weights (seq, seq) to the context (seq, d_v)](figure:self_attention_module)
#
# Calling the module, `module(x)`, runs `forward(x)`.

# %% [markdown zh]
# ## 第 2 步：自己持有投影矩阵的模块
#
# 在网络中，三个投影矩阵是要学习的，所以它们属于一个模块。PyTorch 模块是继承 `nn.Module` 的
# 类：它的 `__init__` 先调用 `super().__init__()`，再创建参数；它的 `forward(x)` 规定模块
# 计算什么。把张量包进 `nn.Parameter` 并赋给一个属性，就完成了注册，`module.parameters()`
# （以及优化器）便能找到它。
#
# `SelfAttention(d_in, d_out_kq, d_out_v)` 必须
#
# - 创建三个参数，名为 `W_query`、`W_key` 和 `W_value`，**按这个顺序**，每个都用
#   `torch.rand(d_in, d_out)` 抽取：查询和键为 `(d_in, d_out_kq)`，值为 `(d_in, d_out_v)`。
#   顺序之所以要紧，是因为每次抽取都会消耗随机数：在 `torch.manual_seed(123)` 之下，
#   `SelfAttention(3, 2, 4)` 持有的正好是贯穿全文的示例中的投影矩阵；
# - 在 `forward(x)` 中，用模块自己的三个矩阵返回你的 `self_attention` 对 `x` 的结果，形状为
#   `(seq, d_out_v)`。
#
# ![SelfAttention 模块：上方是它的参数 W_query、W_key 和 W_value；下方是 forward 中的形状变化，从 x (seq, d_in) 经过 Q、K、V 和注意力权重 (seq, seq)，得到上下文向量 (seq, d_v)](figure:self_attention_module)
#
# 调用模块，即 `module(x)`，就会运行 `forward(x)`。

# %% solution SelfAttention

# %% strings zh
{
    """Self-attention with learnable projections, drawn by torch.rand in the order
    W_query, W_key, W_value (so that a seed reproduces the worked example's output).""":
    """投影矩阵可学习的自注意力，按 W_query、W_key、W_value 的顺序用 torch.rand
    抽取，与贯穿全文的示例相同（所以同一个种子会得到同样的输出）。""",
    "forward(x): x (seq, d_in) -> (seq, d_out_v).": "forward(x)：x (seq, d_in) -> (seq, d_out_v)。",
}

# %% tests SelfAttention points=2
torch.manual_seed(123)
module = SelfAttention(3, 2, 4)
assert isinstance(module, nn.Module), "SelfAttention should derive from nn.Module"
assert isinstance(module.W_query, nn.Parameter), "W_query should be an nn.Parameter"
expect_tensor(module.W_query, (3, 2), "W_query of SelfAttention(3, 2, 4)")
expect_tensor(module.W_key, (3, 2), "W_key of SelfAttention(3, 2, 4)")
expect_tensor(module.W_value, (3, 4), "W_value of SelfAttention(3, 2, 4)")
assert torch.equal(module.W_query.detach(), W_query) and torch.equal(
    module.W_key.detach(), W_key
), "under torch.manual_seed(123), draw W_query first, then W_key, then W_value"
names = [name for name, _ in module.named_parameters()]
assert names == ["W_query", "W_key", "W_value"], f"the parameters are {names}"
output = module(x)
expect_tensor(output, (6, 4), "the module's output for the six words")
expect_close(
    output,
    self_attention(x, module.W_query, module.W_key, module.W_value).detach(),
    "forward(x): self-attention with the module's own matrices",
)

# %% strings zh
{
    '"SelfAttention should derive from nn.Module"': '"SelfAttention 应当继承 nn.Module"',
    '"W_query should be an nn.Parameter"': '"W_query 应当是 nn.Parameter"',
    '"W_query of SelfAttention(3, 2, 4)"': '"SelfAttention(3, 2, 4) 的 W_query"',
    '"W_key of SelfAttention(3, 2, 4)"': '"SelfAttention(3, 2, 4) 的 W_key"',
    '"W_value of SelfAttention(3, 2, 4)"': '"SelfAttention(3, 2, 4) 的 W_value"',
    "under torch.manual_seed(123), draw W_query first, then W_key, then W_value":
        "在 torch.manual_seed(123) 之下，先抽取 W_query，再抽取 W_key，最后抽取 W_value",
    "the parameters are {names}": "模块的参数是 {names}",
    "the module's output for the six words": "模块对六个词的输出",
    "forward(x): self-attention with the module's own matrices":
        "forward(x)：用模块自己的矩阵计算的自注意力",
}

# %% [markdown]
# Under seed 123 your module draws the projection matrices of the running example, so its
# output is the table of contexts again. *自注意力机制* printed it from its own module:

# %% [markdown zh]
# 在种子 123 之下，你的模块抽取的正是贯穿全文的示例的投影矩阵，所以它的输出又是那张上下文向量表。
# 《自注意力机制》用它自己的模块打印过这张表：

# %% code
torch.manual_seed(123)
module = SelfAttention(3, 2, 4)
print("SelfAttention(3, 2, 4) under seed 123, as the source printed its output:")
print(torch.tensor({{documents.DOC001_SELF_ATTENTION_OUTPUT}}))
print("and as your module gives it:")
print(module(x).detach())

# %% strings zh
{
    '"SelfAttention(3, 2, 4) under seed 123, as the source printed its output:"':
        '"种子 123 下的 SelfAttention(3, 2, 4)，资料打印的输出："',
    '"and as your module gives it:"': '"你的模块算出的输出："',
}

# %% [markdown]
# ## What you built
#
# Self-attention for a whole sequence is three projections and two matrix products:
#
# $$Z = \operatorname{softmax}\!\left(\frac{(x W_Q)(x W_K)^\top}{\sqrt{d_k}}\right) x W_V .$$
#
# Nothing in it depends on where a word sits in the sentence: shuffle the rows of `x` and
# the rows of `Z` are shuffled the same way (which is why Transformers add positional
# information to the embeddings). The next assignment runs several of these attentions side
# by side, each with its own projection matrices: multi-head attention.

# %% [markdown zh]
# ## 本作业小结
#
# 对整个序列做自注意力，就是三次投影加两次矩阵乘法：
#
# $$Z = \operatorname{softmax}\!\left(\frac{(x W_Q)(x W_K)^\top}{\sqrt{d_k}}\right) x W_V .$$
#
# 其中没有任何东西取决于词在句子中的位置：打乱 `x` 的行，`Z` 的行就以同样的方式被打乱（这正是
# Transformer 要在嵌入中加入位置信息的原因）。下一次作业把好几个这样的注意力并排运行，每个都有
# 自己的投影矩阵：这就是多头注意力。
