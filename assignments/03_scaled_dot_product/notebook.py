# %% [markdown]
# # Assignment 3: One query, step by step
#
# In assignment 1 the attention scores went into the softmax exactly as they came
# out of the dot products. That works for tiny integer examples, but with realistic vector
# sizes one query's scores lie far apart and the softmax hands almost all of the attention
# to a single word. The fix is one division, by $\sqrt{d_k}$, and it gives the operation its
# name: **scaled dot-product attention**.
#
# Here you follow one word of a real sentence through the whole computation, then pack it
# into a single function that every later assignment builds on.
#
# | step | you write | points |
# | --- | --- | --- |
# | 1 | `project`: a linear projection in the row convention | 1 |
# | 2 | `scaled_softmax`: scores to weights, scaled by $1/\sqrt{d_k}$ | 2 |
# | 3 | `scaled_dot_product_attention`: the whole step, with an optional mask | 3 |
#
# **Total: {total_points} points.** Each step has a stub that raises `NotImplementedError`;
# replace the body with your code. The test cell after each stub runs a few public checks
# you can see; when you hand in, hidden checks with other inputs run as well, so make your
# code correct in general, not just for the example.
#
# **Where the examples come from.** Three documents work through this computation, each on
# a sentence of its own, and the numbers they print are among the checks of your code:
#
# - *自注意力机制* ("The self-attention mechanism"), a Jupyter notebook whose author is not
#   named. It takes the sentence "The sun rises in the east" from word ids to a
#   self-attention module; it is our running example.
# - *Original self-attention: scaled-dot product attention*, unsigned notes with comments in
#   Chinese, written after Sebastian Raschka's blog post on coding self-attention from
#   scratch. Its sentence is "Life is short, eat dessert first".
# - *Scaled Dot Product Attention*, an unsigned notebook that cites Sebastian Raschka's
#   "Understanding and Coding the Self-Attention Mechanism of Large Language Models From
#   Scratch" and Vaswani et al., "Attention Is All You Need". Its sentence is "Life is
#   short, eat dessert last".
#
# You will not need them: this notebook sets up everything they use, and wherever one of
# them prints a result, a cell below prints it beside what your code gives on the same
# input.
#
# Conventions used in the whole course: vectors are **rows**. A sequence of `seq` inputs of
# size `d_in` is a tensor `x` of shape `(seq, d_in)`, a weight matrix is `(d_in, d_out)` and
# projecting is `x @ W`. Everything is `float32`.

# %% [markdown zh]
# # 作业 3：跟着一个查询走完全程
#
# 在作业 1 里，点积算出的注意力分数原样送进了 softmax。对很小的整数例子，这样做没有问题；
# 可一旦向量长度接近实际模型，同一个查询的各个注意力分数就会相差悬殊，softmax 几乎把全部注意力
# 都交给某一个词。解决办法只需一次除法：除以 $\sqrt{d_k}$。这个运算也由此得名：
# **缩放点积注意力**。
#
# 本次作业先带着一个真实句子里的一个词走完整个计算，再把这些步骤合成一个函数，后面的每次作业
# 都要用到它。
#
# | 步骤 | 你要写的函数 | 分值 |
# | --- | --- | --- |
# | 1 | `project`：行约定下的线性投影 | 1 |
# | 2 | `scaled_softmax`：由注意力分数得到注意力权重，先乘以 $1/\sqrt{d_k}$ 缩放 | 2 |
# | 3 | `scaled_dot_product_attention`：完整的一步，可以带掩码 | 3 |
#
# **总分：{total_points} 分。** 每一步都有一个待完成的函数，它的函数体会抛出
# `NotImplementedError`，请换成你自己的代码。函数后面的测试单元格运行几项你能看到的公开测试；
# 提交之后，还会用其他输入运行隐藏检查。所以代码要对一般情况都正确，而不只是对示例正确。
#
# **资料来源。** 有三份资料演示了这一计算，各用一个句子；它们打印出的数值也是检查你代码的
# 标准之一：
#
# - 《自注意力机制》，一份未署名的 Jupyter 笔记本。它用句子“The sun rises in the east”，
#   从词元 id 一直讲到自注意力模块，也是本次作业贯穿全文的示例。
# - 《Original self-attention: scaled-dot product attention》，一份未署名、带中文注释的资料，
#   依据 Sebastian Raschka 讲解如何从零实现自注意力的博客文章写成，所用句子是
#   “Life is short, eat dessert first”。
# - 《Scaled Dot Product Attention》，一份未署名的笔记本，引用了 Sebastian Raschka 的
#   《Understanding and Coding the Self-Attention Mechanism of Large Language Models From
#   Scratch》和 Vaswani 等人的《Attention Is All You Need》，所用句子是
#   “Life is short, eat dessert last”。
#
# 你不需要这些资料：它们用到的一切，本笔记本都会准备好；凡是资料打印过的结果，下面都有单元格
# 把它和你的代码在同一输入上算出的结果并排打印出来。
#
# 整门课程的约定：向量是**行向量**。由 `seq` 个长度为 `d_in` 的输入组成的序列是形状为
# `(seq, d_in)` 的张量 `x`，权重矩阵的形状是 `(d_in, d_out)`，投影就是 `x @ W`。
# 所有张量都是 `float32`。

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
# The sentence "The sun rises in the east", turned into vectors exactly as in assignment 2:
# its word ids in the sorted vocabulary, looked up in a table of 50 000 rows of 3 numbers
# drawn under seed 123. Then three projection matrices, drawn under seed 123 again, with
# entries uniform in $[0, 1)$. Queries and keys get $d_k = 2$ numbers, values $d_v = 4$:
# the two sizes do not have to agree. These are the sentence, table and matrices of
# *自注意力机制*, so the numbers it prints are the numbers your code should give.

# %% [markdown zh]
# ## 贯穿全文的示例
#
# 句子“The sun rises in the east”按作业 2 的方法变成向量：先取每个词在排好序的词表中的
# 词元 id，再到一个 50 000 行、每行 3 个数的嵌入表里查出对应的行，嵌入表在种子 123 下生成。
# 然后再次设种子 123，抽取三个投影矩阵，元素在 $[0, 1)$ 上均匀分布。查询和键各有 $d_k = 2$
# 个数，值有 $d_v = 4$ 个数：这两个长度不必相同。句子、嵌入表和矩阵都与《自注意力机制》中的
# 一致，所以它打印的数值正是你的代码应当算出的数值。

# %% setup
words = ["The", "sun", "rises", "in", "the", "east"]
token_ids = torch.tensor([0, 4, 3, 2, 5, 1])  # ids in the sorted vocabulary
torch.manual_seed(123)
x = nn.Embedding(50_000, 3)(token_ids).detach()  # (6, 3): one row per word
torch.manual_seed(123)
d_in, d_k, d_v = 3, 2, 4
W_query = torch.rand(d_in, d_k)
W_key = torch.rand(d_in, d_k)
W_value = torch.rand(d_in, d_v)

# %% strings zh
{
    "# ids in the sorted vocabulary": "# 排好序的词表中的 id",
    "# (6, 3): one row per word": "# (6, 3)：每个词一行",
}

# %% [markdown]
# ## Step 1: projections
#
# Each input row $x_i$ is turned into a query, a key and a value by three different
# matrices:
#
# $$q_i = x_i W_Q, \qquad k_i = x_i W_K, \qquad v_i = x_i W_V.$$
#
# All three are the same operation, a row times a matrix, so one function serves for all:
# `project(x, W)` with `W` of shape `(d_in, d_out)`. A single row of shape `(d_in,)` gives
# `(d_out,)`; a stack of rows `(seq, d_in)` gives `(seq, d_out)`, row by row; extra leading
# (batch) dimensions should pass through untouched. The `@` operator already does all of
# this.
#
# Two remarks that will save you time later:
#
# - Some texts store a matrix the other way round, as `(d_out, d_in)`, and write `W @ x`
#   for a column vector `x`; two of the documents above do. In our row convention that is
#   `project(x, W.T)`. When unsure which one you have, print the shapes and make the inner
#   sizes meet.
# - The scores of one query against all keys are a projection too: the query times the
#   transposed keys, $\omega = q K^\top$, is `project(query, keys.T)`.

# %% [markdown zh]
# ## 第 1 步：投影
#
# 每个输入行 $x_i$ 分别乘以三个不同的矩阵，得到查询、键和值：
#
# $$q_i = x_i W_Q, \qquad k_i = x_i W_K, \qquad v_i = x_i W_V.$$
#
# 三者是同一种运算，都是一行乘以一个矩阵，所以一个函数就够了：`project(x, W)`，其中 `W` 的
# 形状是 `(d_in, d_out)`。单独一行 `(d_in,)` 得到 `(d_out,)`；多行叠成的 `(seq, d_in)`
# 逐行投影，得到 `(seq, d_out)`；前面多出的（批）维度应原样保留。这些事 `@` 运算符都已经替你
# 做好了。
#
# 有两点提醒，后面能帮你省时间：
#
# - 有些资料把矩阵反过来存成 `(d_out, d_in)`，对列向量 `x` 写 `W @ x`；上面的资料中就有两份
#   这样写。换成我们的行约定，就是 `project(x, W.T)`。拿不准手上是哪一种时，打印形状，让相乘
#   的两个内侧维度对上即可。
# - 一个查询对所有键的注意力分数也是一次投影：查询乘以转置后的键，$\omega = q K^\top$，
#   即 `project(query, keys.T)`。

# %% solution project

# %% strings zh
{
    "A linear projection in the row convention: x @ W.": "行约定下的线性投影：x @ W。",
    "x: (..., d_in); W: (d_in, d_out). Returns (..., d_out).":
        "x：(..., d_in)；W：(d_in, d_out)。返回 (..., d_out)。",
}

# %% tests project points=1
x_small = torch.tensor([[1.0, 2.0, 0.0], [0.0, 1.0, 3.0]])
W_small = torch.tensor([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]])
projected = project(x_small, W_small)
expect_tensor(projected, (2, 2), "a (2, 3) input projected by a (3, 2) matrix")
expect_close(projected, [[1.0, 2.0], [6.0, 4.0]], "project(x_small, W_small)")
expect_close(project(x_small[0], W_small), [1.0, 2.0], "the projection of one row")
expect_tensor(project(torch.ones(4, 2, 3), W_small), (4, 2, 2), "a batch of 4 sequences")

# %% strings zh
{
    "a (2, 3) input projected by a (3, 2) matrix": "形状 (2, 3) 的输入经 (3, 2) 的矩阵投影",
    "the projection of one row": "单独一行的投影",
    "a batch of 4 sequences": "4 个序列组成的一批",
}

# %% [markdown]
# Now follow the third word, "rises". Its query is compared with the key of every word,
# including its own. Run the cell below: "rises" should score highest against the fifth
# word ("the") and lowest against the second ("sun"). These raw scores are often called
# the *unnormalised attention weights* $\omega$. *自注意力机制* prints them for this word;
# the cell shows its numbers above yours.

# %% [markdown zh]
# 现在跟着第三个词“rises”走。它的查询要和每个词（包括它自己）的键逐一比较。运行下面的
# 单元格：“rises”的注意力分数应当对第五个词（“the”）最高，对第二个词（“sun”）最低。这些未经
# 处理的分数也常被称为**未归一化的注意力权重** $\omega$。《自注意力机制》打印了这个词的这组
# 分数，下面的单元格把它们打印在你的结果上方。

# %% code
query_3 = project(x[2], W_query)  # (d_k,)
keys = project(x, W_key)  # (6, d_k)
values = project(x, W_value)  # (6, d_v)
omega_3 = project(query_3, keys.T)  # (6,): one score per word
print("shapes of the query, keys and values:", tuple(query_3.shape), tuple(keys.shape),
      tuple(values.shape), " (the source: (2,) (6, 2) (6, 4))")
print("scores of 'rises'")
print("  the source printed: ", torch.tensor({{documents.DOC001_OMEGA_3}}))
print("  your function gives:", omega_3)
best, worst = int(omega_3.argmax()), int(omega_3.argmin())
print(f"highest: word {best + 1} ({words[best]}), {float(omega_3[best]):.4f}"
      "  (the source: word 5, 1.0740)")
print(f"lowest: word {worst + 1} ({words[worst]}), {float(omega_3[worst]):.4f}"
      "  (the source: word 2, -2.5037)")

# %% strings zh
{
    "# (6,): one score per word": "# (6,)：每个词一个分数",
    '"shapes of the query, keys and values:"': '"查询、键和值的形状："',
    '" (the source: (2,) (6, 2) (6, 4))"': '"（资料中：(2,) (6, 2) (6, 4)）"',
    "\"scores of 'rises'\"": "\"'rises' 的注意力分数\"",
    '"  the source printed: "': '"  资料打印的结果："',
    '"  your function gives:"': '"  你的函数的结果："',
    'f"highest: word {best + 1} ({words[best]}), {float(omega_3[best]):.4f}"':
        'f"最高：第 {best + 1} 个词（{words[best]}），{float(omega_3[best]):.4f}"',
    '"  (the source: word 5, 1.0740)"': '"（资料中：第 5 个词，1.0740）"',
    'f"lowest: word {worst + 1} ({words[worst]}), {float(omega_3[worst]):.4f}"':
        'f"最低：第 {worst + 1} 个词（{words[worst]}），{float(omega_3[worst]):.4f}"',
    '"  (the source: word 2, -2.5037)"': '"（资料中：第 2 个词，-2.5037）"',
}

# %% [markdown]
# ## Two longer examples
#
# The other two documents run the same computation with longer vectors, and one of them
# shows why the next step is needed. Each takes a sentence of six words, "Life is short, eat
# dessert first" and "Life is short, eat dessert last", numbers its words in that sentence's
# sorted vocabulary, and looks them up in a table of 6 rows of 16 numbers drawn under seed
# 123. Queries and keys have $d_k = 24$ numbers, values $d_v = 28$. The projection matrices
# are drawn differently:
#
# - for "... dessert first", uniformly from $[0, 1)$, after setting seed 123 once more;
# - for "... dessert last", from a standard normal distribution (`torch.randn`), right after
#   the table, with no new seed.
#
# Both store a matrix as `(d_out, d_in)` and multiply `W @ x`, so each projection is
# `project(x, W.T)` here. Both follow the second word, "is" (index 1).
#
# A few numbers below may differ from the printed ones in their last digit: two scores
# (-144.2132 against -144.2133, -80.1706 against -80.1705) and, in step 2, one weight
# (4.9254e-22 against 4.9255e-22). Float32 sums of many products round slightly
# differently from one version of PyTorch to another; the checks allow for that.

# %% [markdown zh]
# ## 两个更长的例子
#
# 另外两份资料用更长的向量做同样的计算，其中一份还说明了为什么需要下一步。它们各取一个六词
# 句子：“Life is short, eat dessert first”和“Life is short, eat dessert last”；按该句子
# 自己排好序的词表给每个词编号，再到一个 6 行、每行 16 个数的嵌入表中查出对应的行，嵌入表在
# 种子 123 下生成。查询和键有 $d_k = 24$ 个数，值有 $d_v = 28$ 个数。两者抽取投影矩阵的方式
# 不同：
#
# - “... dessert first”：重新设一次种子 123，再从 $[0, 1)$ 上均匀抽取；
# - “... dessert last”：紧接着嵌入表之后、不重新设种子，从标准正态分布（`torch.randn`）中抽取。
#
# 两份资料都把矩阵存成 `(d_out, d_in)`，计算 `W @ x`，所以在这里每次投影都写成
# `project(x, W.T)`。两者跟踪的都是第二个词“is”（下标为 1）。
#
# 下面有几个数可能与资料打印的在最后一位上不同：两个注意力分数（-144.2132 对 -144.2133，
# -80.1706 对 -80.1705），以及第 2 步中的一个注意力权重（4.9254e-22 对 4.9255e-22）。
# 许多乘积的 `float32` 求和，在不同版本的 PyTorch 中舍入略有差别；检查允许这样的误差。

# %% setup
# "Life is short, eat dessert first": the matrices are drawn under seed 123 again
torch.manual_seed(123)
x_first = nn.Embedding(6, 16)(torch.tensor([0, 4, 5, 2, 1, 3])).detach()  # (6, 16)
torch.manual_seed(123)
W_query_first = torch.rand(24, 16)  # (d_k, d_in): project with W_query_first.T
W_key_first = torch.rand(24, 16)  # (d_k, d_in)
W_value_first = torch.rand(28, 16)  # (d_v, d_in)

# "Life is short, eat dessert last": the matrices follow the table, with no new seed
torch.manual_seed(123)
x_last = nn.Embedding(6, 16)(torch.tensor([0, 3, 5, 2, 1, 4])).detach()  # (6, 16)
W_query_last = torch.randn(24, 16)  # (d_k, d_in)
W_key_last = torch.randn(24, 16)  # (d_k, d_in)
W_value_last = torch.randn(28, 16)  # (d_v, d_in)

# %% strings zh
{
    '# "Life is short, eat dessert first": the matrices are drawn under seed 123 again':
        '# "Life is short, eat dessert first"：再次设种子 123 后抽取矩阵',
    "# (d_k, d_in): project with W_query_first.T": "# (d_k, d_in)：投影时用 W_query_first.T",
    '# "Life is short, eat dessert last": the matrices follow the table, with no new seed':
        '# "Life is short, eat dessert last"：紧接嵌入表抽取矩阵，不重新设种子',
}

# %% code
query_first = project(x_first[1], W_query_first.T)  # (24,): the query of "is"
keys_first = project(x_first, W_key_first.T)  # (6, 24)
values_first = project(x_first, W_value_first.T)  # (6, 28)
query_last = project(x_last[1], W_query_last.T)  # (24,)
keys_last = project(x_last, W_key_last.T)  # (6, 24)
values_last = project(x_last, W_value_last.T)  # (6, 28)
print("shapes of the keys and values:", tuple(keys_first.shape), tuple(values_first.shape),
      " (the source: (6, 24) (6, 28))")
omega_first = project(query_first, keys_first.T)  # (6,)
omega_last = project(query_last, keys_last.T)  # (6,)
print("'dessert last': the score of 'is' against word 5")
print("  the source printed: ", torch.tensor({{documents.DOC002_OMEGA_24}}))
print("  your function gives:", project(query_last, keys_last[4:5].T))  # W: (d_k, 1)
print("'dessert last': the scores of 'is'")
print("  the source printed: ",
      torch.tensor({{documents.DOC002_OMEGA_2}}))
print("  your function gives:", omega_last)

# %% strings zh
{
    '# (24,): the query of "is"': '# (24,)："is" 的查询',
    '"shapes of the keys and values:"': '"键和值的形状："',
    '" (the source: (6, 24) (6, 28))"': '"（资料中：(6, 24) (6, 28)）"',
    "\"'dessert last': the score of 'is' against word 5\"":
        "\"'dessert last' 句中 'is' 对第 5 个词的注意力分数\"",
    "\"'dessert last': the scores of 'is'\"": "\"'dessert last' 句中 'is' 的注意力分数\"",
    '"  the source printed: "': '"  资料打印的结果："',
    '"  your function gives:"': '"  你的函数的结果："',
}

# %% [markdown]
# ## Step 2: why divide by $\sqrt{d_k}$
#
# Suppose the entries of a query and a key are independent, with mean 0 and variance 1.
# Their dot product $q \cdot k = \sum_{m=1}^{d_k} q_m k_m$ adds up $d_k$ such products, so
# its variance is $d_k$ and its typical size is $\sqrt{d_k}$: the longer the keys, the
# further apart one query's scores lie. The softmax responds only to those gaps. Adding the
# same number to every score changes nothing, since it multiplies every $e^{\omega_j}$ by
# the same factor; but when the gaps are large, the largest score takes almost all the
# weight and the others get almost none. The softmax is then nearly one-hot, and during
# training the gradients through it all but vanish. Dividing by $\sqrt{d_k}$ brings the
# spread back to about 1, whatever the key size:
#
# $$a = \operatorname{softmax}\!\left(\frac{\omega}{\sqrt{d_k}}\right),
# \qquad a_j = \frac{e^{\omega_j/\sqrt{d_k}}}{\sum_{l} e^{\omega_l/\sqrt{d_k}}}.$$
#
# ![The softmax of one query's scores as d_k grows: unscaled, the weights turn one-hot; divided by the square root of d_k, they stay spread](figure:scaling_saturation)
#
# The scaling corrects for the key size and nothing else. In "Life is short, eat dessert
# last" the scores of "is" (printed above) run from about $-144$ to $160$. There the entries
# of the queries and keys are far from variance 1: each sums 16 products with standard
# normal matrix entries, so its variance is about 16. Divided by $\sqrt{24} \approx 4.9$,
# the top score still stays more than 20 above the next one, and the softmax gives one word
# a weight of 1.0000 to four decimals: it is *saturated*. The scaling cannot help: the
# cause is not the length of the keys but the projection matrices, whose entries here have
# variance 1. A model's matrices start much smaller: `nn.Linear(16, 24)`
# draws its weights uniformly from $[-1/4, 1/4]$ ($\pm 1/\sqrt{d_{in}}$, variance $1/48$).
# Scale these same matrices to that variance (multiply them by $1/\sqrt{48}$) and every score
# shrinks 48-fold, to between about $-3.0$ and $3.3$: the weights of "is" then range from
# 0.09 to 0.33.
#
# **Rule for this step:** divide the scores by `math.sqrt(d_k)` (the square root, not
# `d_k` itself) and take the softmax over the **last** dimension (`dim=-1`), so that the
# function works for one query's scores `(seq,)`, for many queries `(n, seq)` and for
# batches `(..., n, seq)` alike. You may use `torch.softmax` here; a softmax you write by
# hand must first subtract each query's largest score, as in assignment 1, so that scores in
# the thousands still give finite weights.

# %% [markdown zh]
# ## 第 2 步：为什么要除以 $\sqrt{d_k}$
#
# 假设查询和键的各个元素相互独立，均值为 0，方差为 1。它们的点积
# $q \cdot k = \sum_{m=1}^{d_k} q_m k_m$ 是 $d_k$ 个这样的乘积之和，方差为 $d_k$，典型大小
# 约为 $\sqrt{d_k}$：键越长，同一个查询的各个注意力分数相差越远。softmax 只看这些差距：给所有
# 分数加上同一个数，结果不变，因为每个 $e^{\omega_j}$ 都乘上了同一个因子；但差距一大，最大的
# 分数就几乎拿走全部权重，其余几乎分不到。这时 softmax 接近独热向量，训练时经过它的梯度也
# 几乎消失。除以 $\sqrt{d_k}$ 之后，无论键有多长，分数的分散程度都回到 1 左右：
#
# $$a = \operatorname{softmax}\!\left(\frac{\omega}{\sqrt{d_k}}\right),
# \qquad a_j = \frac{e^{\omega_j/\sqrt{d_k}}}{\sum_{l} e^{\omega_l/\sqrt{d_k}}}.$$
#
# ![随着 d_k 增大，一个查询的注意力分数经过 softmax 的结果：不缩放时注意力权重变成独热向量，除以 d_k 的平方根后仍然分散](figure:scaling_saturation)
#
# 缩放只校正键的长度带来的影响，别的都管不了。在“Life is short, eat dessert last”中，
# “is”的注意力分数（见上方输出）从约 $-144$ 到 $160$。这里查询和键的元素远不是方差 1：
# 每个元素都是 16 个乘积之和，矩阵元素又服从标准正态分布，所以方差约为 16。即使除以
# $\sqrt{24} \approx 4.9$，最高分仍比第二高的分数高出 20 以上，softmax 给某一个词的注意力
# 权重保留四位小数就是 1.0000：它**饱和**了。缩放对此无能为力：问题不在键的长度，而在投影
# 矩阵本身，这里它们的元素方差为 1。模型开始训练时的矩阵要小得多：
# `nn.Linear(16, 24)` 的权重矩阵从 $[-1/4, 1/4]$ 上均匀抽取（即 $\pm 1/\sqrt{d_{in}}$，方差为
# $1/48$）。把这里的矩阵缩放到同样的方差（乘以 $1/\sqrt{48}$），每个注意力分数都缩小为原来的
# 1/48，落在约 $-3.0$ 到 $3.3$ 之间；这时“is”的注意力权重分布在 0.09 到 0.33 之间。
#
# **本步规则：** 把注意力分数除以 `math.sqrt(d_k)`（是平方根，不是 `d_k` 本身），并在
# **最后一个**维度上（`dim=-1`）做 softmax。这样函数对一个查询的分数 `(seq,)`、多个查询的
# 分数 `(n, seq)` 以及成批的分数 `(..., n, seq)` 都适用。这里可以用 `torch.softmax`；如果自己
# 手写 softmax，要先减去每个查询的最大分数（和作业 1 一样），这样分数上千时注意力权重仍是有限的数。

# %% solution scaled_softmax

# %% strings zh
{
    """softmax(scores / sqrt(d_k)) over the last dim.

    Dividing by sqrt(d_k) keeps the scores' spread independent of the key size, so the
    size of the keys alone does not saturate the softmax. scores: (..., seq).""":
    """在最后一维上计算 softmax(scores / sqrt(d_k))。

    除以 sqrt(d_k) 让注意力分数的分散程度不随键的长度变化，这样 softmax 不会仅仅因为键
    更长就饱和。scores：(..., seq)。""",
}

# %% tests scaled_softmax points=2
scores = torch.tensor([[2.0, 4.0, 4.0], [1.0, 0.0, 3.0]])
weights = scaled_softmax(scores, 4)
expect_tensor(weights, (2, 3), "the weights of 2 queries over 3 keys")
expect_close(weights, [[0.1554, 0.4223, 0.4223], [0.2312, 0.1402, 0.6285]],
             "scaled_softmax(scores, d_k=4)",
             mistakes=[("no 1/sqrt(d_k)", [[0.0634, 0.4683, 0.4683], [0.1142, 0.0420, 0.8438]]),
                       ("d_k instead of sqrt(d_k)",
                        [[0.2327, 0.3837, 0.3837], [0.2918, 0.2272, 0.4810]]),
                       ("softmax over the wrong dim",
                        [[0.6225, 0.8808, 0.6225], [0.3775, 0.1192, 0.3775]]),
                       ("multiplied by sqrt(d_k)",
                        [[0.0091, 0.4955, 0.4955], [0.0179, 0.0024, 0.9796]])])
expect_close(weights.sum(dim=-1), [1.0, 1.0], "the sum of each query's weights")
expect_tensor(scaled_softmax(torch.zeros(5), 3), (5,), "the weights of one query")
expect_close(scaled_softmax(torch.tensor([1000.0, 990.0]), 4), [0.9933, 0.0067],
             "the weights of scores in the thousands (subtract the largest score first)")

# %% strings zh
{
    "the weights of 2 queries over 3 keys": "2 个查询在 3 个键上的注意力权重",
    "the sum of each query's weights": "每个查询的注意力权重之和",
    "the weights of one query": "单个查询的注意力权重",
    "the weights of scores in the thousands (subtract the largest score first)":
        "分数上千时的注意力权重（先减去最大分数）",
}

# %% [markdown]
# Back to "rises": with $d_k = 2$ the scores shrink by a factor $\sqrt 2$ before the
# softmax. The weights are positive, sum to 1, and the fifth word still gets the most. The
# two longer examples, with $d_k = 24$, end far apart: in "... dessert first" the weights of
# "is" spread over several words, in "... dessert last" one word takes them all.

# %% [markdown zh]
# 回到“rises”：$d_k = 2$，注意力分数在 softmax 之前缩小为原来的 $1/\sqrt 2$。得到的注意力
# 权重都是正数，和为 1，第五个词仍然得到最多。两个更长的例子（$d_k = 24$）结果却大不相同：
# 在“... dessert first”中，“is”的注意力权重分散在几个词上；在“... dessert last”中，
# 一个词拿走了全部。

# %% code
weights_3 = scaled_softmax(omega_3, d_k)
print("weights of 'rises', d_k = 2")
print("  the source printed: ", torch.tensor({{documents.DOC001_WEIGHTS_3}}))
print("  your function gives:", weights_3)
print("  their sum:", f"{float(weights_3.sum()):.4f}")
print("'dessert first': the weights of 'is', d_k = 24")
print("  the source printed: ", torch.tensor({{documents.DOC000_WEIGHTS_2}}))
print("  your function gives:", scaled_softmax(omega_first, 24))
print("'dessert last': the weights of 'is', d_k = 24 (saturated)")
print("  the source printed: ",
      torch.tensor({{documents.DOC002_ATTENTION_2}}))
print("  your function gives:", scaled_softmax(omega_last, 24))

# %% strings zh
{
    "\"weights of 'rises', d_k = 2\"": "\"'rises' 的注意力权重，d_k = 2\"",
    '"  the source printed: "': '"  资料打印的结果："',
    '"  your function gives:"': '"  你的函数的结果："',
    '"  their sum:"': '"  权重之和："',
    "\"'dessert first': the weights of 'is', d_k = 24\"":
        "\"'dessert first' 句中 'is' 的注意力权重，d_k = 24\"",
    "\"'dessert last': the weights of 'is', d_k = 24 (saturated)\"":
        "\"'dessert last' 句中 'is' 的注意力权重，d_k = 24（已饱和）\"",
}

# %% [markdown]
# ## Step 3: the whole step in one function
#
# Add up the values, each multiplied by its weight, and you have the **context vector** of
# the query, its new representation that mixes in what it attended to. For all queries at
# once:
#
# $$\operatorname{Attention}(Q, K, V) = \operatorname{softmax}\!\left(\frac{Q K^\top}
# {\sqrt{d_k}}\right) V.$$
#
# With queries `(n, d_k)`, keys `(seq, d_k)` and values `(seq, d_v)`, the weights are
# `(n, seq)` and the context is `(n, d_v)`. A single query of shape `(d_k,)` gives weights
# `(seq,)` and a context `(d_v,)`. With leading batch dimensions, transpose only the last
# two dimensions of the keys: `keys.transpose(-2, -1)`.
#
# `scaled_dot_product_attention(queries, keys, values, mask=None)` returns the pair
# `(context, weights)`. Read $d_k$ from the keys, `keys.shape[-1]`: the values may have a
# different size (4 against 2 in our example), and only the query-key size sets the scale.
# Call your `scaled_softmax` for the weights.
#
# **Masks.** Sometimes a query must not see some keys, for example the words that come
# after it. `mask` is then a `bool` tensor that broadcasts to the scores' shape `(n, seq)`,
# **True where query $i$ must not look at key $j$**. Masked keys must get a weight of
# exactly 0, and the remaining weights of the row must still sum to 1. The usual trick: set
# the masked scores to $-\infty$ before the softmax (`scores.masked_fill(mask,
# float("-inf"))`), since $e^{-\infty} = 0$. One corner case remains: if *every* key of a
# row is masked, the softmax computes $0/0$ and returns `nan`. Such a query has nothing to
# attend to; its weights must be all zeros, and so must its context. Setting the masked
# weights to 0 once more, *after* the softmax, takes care of it.
#
# PyTorch has this operation built in, `F.scaled_dot_product_attention`. Mind that its
# boolean `attn_mask` means the opposite of ours: True where attention is *allowed*. Our
# `mask` corresponds to its `attn_mask=~mask`.

# %% [markdown zh]
# ## 第 3 步：用一个函数完成整步
#
# 把各个值乘以各自的注意力权重再相加，就得到这个查询的**上下文向量**：它是查询的新表示，融入了
# 它所关注的内容。对所有查询一次算完：
#
# $$\operatorname{Attention}(Q, K, V) = \operatorname{softmax}\!\left(\frac{Q K^\top}
# {\sqrt{d_k}}\right) V.$$
#
# 查询为 `(n, d_k)`、键为 `(seq, d_k)`、值为 `(seq, d_v)` 时，注意力权重是 `(n, seq)`，
# 上下文向量是 `(n, d_v)`。单个查询 `(d_k,)` 得到注意力权重 `(seq,)` 和上下文向量 `(d_v,)`。
# 有前导批维度时，只转置键的最后两个维度：`keys.transpose(-2, -1)`。
#
# `scaled_dot_product_attention(queries, keys, values, mask=None)` 返回二元组
# `(context, weights)`。$d_k$ 要从键读取，即 `keys.shape[-1]`：值的长度可以不同（本例中是
# 4 对 2），决定缩放的只有查询和键的长度。注意力权重请调用你的 `scaled_softmax` 来算。
#
# **掩码。** 有时查询不能看到某些键，比如排在它后面的词。这时 `mask` 是一个 `bool` 张量，
# 可以广播到注意力分数的形状 `(n, seq)`，**查询 $i$ 不能看键 $j$ 的位置为 True**。被掩码的键
# 的注意力权重必须恰好为 0，这一行其余的权重之和仍须为 1。常用的做法是在 softmax 之前把被掩码的
# 分数设为 $-\infty$（`scores.masked_fill(mask, float("-inf"))`），因为 $e^{-\infty} = 0$。
# 还剩一种边界情况：如果一行的**所有**键都被掩码，softmax 要算 $0/0$，结果是 `nan`。这样的查询
# 没有可以关注的东西，它的注意力权重必须全为 0，上下文向量也一样。在 softmax **之后**再把被掩码
# 的权重设为 0 一次，就解决了。
#
# PyTorch 内置了这个运算：`F.scaled_dot_product_attention`。注意它的布尔参数 `attn_mask`
# 含义与我们的相反：允许关注的位置为 True。我们的 `mask` 对应它的 `attn_mask=~mask`。

# %% solution scaled_dot_product_attention

# %% strings zh
{
    "The whole step: scores, scaled softmax, weighted sum of the values.":
        "完整的一步：注意力分数、缩放后的 softmax、值的加权和。",
    """weights = softmax(queries @ keys^T / sqrt(d_k)), context = weights @ values, with d_k
    read from keys. ``mask`` (bool, broadcastable to the scores) is True where a query must
    not look: those weights are exactly 0, and a row with every key masked is all zeros.""":
    """weights = softmax(queries @ keys^T / sqrt(d_k))，context = weights @ values，其中
    d_k 从 keys 读取。``mask``（bool，可广播到注意力分数的形状）在查询不能看的位置为 True：
    这些注意力权重恰好为 0；一行的键全被掩码时，整行为 0。""",
    "queries: (d_k,) or (..., n, d_k); keys: (..., seq, d_k); values: (..., seq, d_v).":
        "queries：(d_k,) 或 (..., n, d_k)；keys：(..., seq, d_k)；values：(..., seq, d_v)。",
    "Returns context (..., n, d_v) and weights (..., n, seq).":
        "返回 context (..., n, d_v) 和 weights (..., n, seq)。",
}

# %% tests scaled_dot_product_attention points=3
queries = torch.tensor([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0]])
keys = torch.tensor([[2.0, 0.0, 0.0, 0.0], [0.0, 2.0, 2.0, 0.0], [0.0, 0.0, 0.0, 4.0]])
values = torch.tensor([[1.0, 0.0, 2.0], [0.0, 1.0, 2.0], [3.0, 0.0, 0.0]])
context, weights = scaled_dot_product_attention(queries, keys, values)
expect_tensor(context, (2, 3), "the context of 2 queries with values of size 3")
expect_tensor(weights, (2, 3), "the weights of 2 queries over 3 keys")
expect_close(weights[0], [0.4223, 0.4223, 0.1554], "the weights of query 1 (scores [2, 2, 0])",
             mistakes=[("sqrt(d_v) instead of sqrt(d_k)", [0.4319, 0.4319, 0.1361]),
                       ("no 1/sqrt(d_k)", [0.4683, 0.4683, 0.0634])])
expect_close(context[0], [0.8884, 0.4223, 1.6893], "the context of query 1",
             mistakes=[("sqrt(d_v) instead of sqrt(d_k)", [0.8403, 0.4319, 1.7277]),
                       ("no 1/sqrt(d_k)", [0.6584, 0.4683, 1.8732])])
one_context, one_weights = scaled_dot_product_attention(queries[0], keys, values)
expect_tensor(one_context, (3,), "the context of a single query")
expect_tensor(one_weights, (3,), "the weights of a single query")
batch_context, batch_weights = scaled_dot_product_attention(  # a batch of 2 sequences
    torch.stack([queries, queries]), torch.stack([keys, keys.flip(0)]), torch.stack([values] * 2))
expect_tensor(batch_context, (2, 2, 3), "the contexts of a batch of 2 sequences")
expect_close(batch_context[0], context, "the first sequence's contexts, in a batch")
per_sequence = torch.tensor([[[False, False, True], [False, False, False]],
                             [[True, False, False], [False, True, False]]])  # (2, 2, 3)
_, batch_masked = scaled_dot_product_attention(
    torch.stack([queries, queries]), torch.stack([keys, keys]), torch.stack([values] * 2),
    mask=per_sequence)
expect_close(batch_masked[1, 1], [0.5, 0.0, 0.5],
             "in a batch with a mask per sequence, sequence 2's query 2 (scores [0, 4, 0])")

three = torch.tensor([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
future = torch.tensor([[False, True, True], [False, False, True], [False, False, False]])
_, masked = scaled_dot_product_attention(three, keys, values, mask=future)
assert bool((masked[future] == 0).all()), f"masked weights should be exactly 0, got\n{masked}"
expect_close(masked[1], [0.1192, 0.8808, 0.0], "query 2's weights when key 3 is masked",
             mistakes=[("mask applied after the softmax", [0.1065, 0.7870, 0.0])])
expect_close(masked.sum(dim=-1), [1.0, 1.0, 1.0], "the sum of each query's masked weights")
blind = torch.tensor([[True, True, True], [False, True, False], [False, False, False]])
blind_context, blind_weights = scaled_dot_product_attention(three, keys, values, mask=blind)
assert torch.isfinite(blind_context).all(), "a query with every key masked gave nan or inf"
expect_close(blind_weights[0], [0.0, 0.0, 0.0], "the weights of a query with every key masked")
expect_close(blind_context[0], [0.0, 0.0, 0.0], "the context of a query with every key masked")
padding = torch.tensor([False, False, True])  # shape (seq,): key 3 is padding, for every query
_, padded = scaled_dot_product_attention(three, keys, values, mask=padding)
expect_close(padded[:, 2], [0.0, 0.0, 0.0], "key 3's weight for each query under a (seq,) mask")

# %% strings zh
{
    "the context of 2 queries with values of size 3": "2 个查询的上下文向量（值的长度为 3）",
    "the weights of 2 queries over 3 keys": "2 个查询在 3 个键上的注意力权重",
    "the weights of query 1 (scores [2, 2, 0])": "查询 1 的注意力权重（注意力分数为 [2, 2, 0]）",
    '"the context of query 1"': '"查询 1 的上下文向量"',
    "the context of a single query": "单个查询的上下文向量",
    "the weights of a single query": "单个查询的注意力权重",
    "# a batch of 2 sequences": "# 2 个序列组成的一批",
    "the contexts of a batch of 2 sequences": "2 个序列组成的一批的上下文向量",
    "the first sequence's contexts, in a batch": "批中第 1 个序列的上下文向量",
    "in a batch with a mask per sequence, sequence 2's query 2 (scores [0, 4, 0])":
        "批中每个序列各有一个掩码时，序列 2 中查询 2 的注意力权重（注意力分数为 [0, 4, 0]）",
    "masked weights should be exactly 0, got": "被掩码的注意力权重应当恰好为 0，实际为",
    "query 2's weights when key 3 is masked": "键 3 被掩码时查询 2 的注意力权重",
    "the sum of each query's masked weights": "掩码后每个查询的注意力权重之和",
    "a query with every key masked gave nan or inf": "所有键都被掩码的查询得到了 nan 或 inf",
    "the weights of a query with every key masked": "所有键都被掩码的查询的注意力权重",
    "the context of a query with every key masked": "所有键都被掩码的查询的上下文向量",
    "# shape (seq,): key 3 is padding, for every query": "# 形状为 (seq,)：键 3 是填充，对所有查询都被掩码",
    "key 3's weight for each query under a (seq,) mask": "形状为 (seq,) 的掩码下，每个查询给键 3 的注意力权重",
}

# %% [markdown]
# Your function against PyTorch's, on all six words of the running example at once (PyTorch
# returns only the context), and the context vector of "rises" beside the one
# *自注意力机制* prints:

# %% [markdown zh]
# 在贯穿全文的示例的全部六个词上一次性比较你的函数和 PyTorch 的函数（PyTorch 只返回上下文向量），
# 再把“rises”的上下文向量和《自注意力机制》打印的放在一起：

# %% code
queries = project(x, W_query)  # (6, d_k)
keys = project(x, W_key)  # (6, d_k)
values = project(x, W_value)  # (6, d_v)
context, weights = scaled_dot_product_attention(queries, keys, values)
builtin = F.scaled_dot_product_attention(queries, keys, values)  # (6, d_v)
print("same as PyTorch:", torch.allclose(context, builtin, atol=1e-6))
print("context of 'rises'")
print("  the source printed: ", torch.tensor({{documents.DOC001_CONTEXT_3}}))
print("  your function gives:", context[2])

# %% strings zh
{
    '"same as PyTorch:"': '"与 PyTorch 的结果相同："',
    "\"context of 'rises'\"": "\"'rises' 的上下文向量\"",
    '"  the source printed: "': '"  资料打印的结果："',
    '"  your function gives:"': '"  你的函数的结果："',
}

# %% [markdown]
# The contexts of "is" in the two longer examples have 28 numbers each. In "... dessert
# last" the weights are one-hot to float32 precision, so the context of "is" is exactly the
# value of the word it gives all its weight to, word 3, "short".

# %% [markdown zh]
# 两个更长的例子中，“is”的上下文向量各有 28 个数。在“... dessert last”中，注意力权重在
# `float32` 精度下就是独热向量，所以“is”的上下文向量恰好等于它把全部权重给出的那个词的值：
# 第 3 个词“short”。

# %% code
context_first, _ = scaled_dot_product_attention(query_first, keys_first, values_first)
context_last, _ = scaled_dot_product_attention(query_last, keys_last, values_last)
print("'dessert first': the context of 'is', as the source printed it:")
print(torch.tensor({{documents.DOC000_CONTEXT_2}}))
print("and as your function gives it:")
print(context_first)
print("'dessert last': the context of 'is', as the source printed it:")
print(torch.tensor({{documents.DOC002_CONTEXT_2}}))
print("and as your function gives it:")
print(context_last)
print("equal to the value of 'short':", torch.equal(context_last, values_last[2]))

# %% strings zh
{
    "\"'dessert first': the context of 'is', as the source printed it:\"":
        "\"'dessert first' 句中 'is' 的上下文向量，资料打印的结果：\"",
    '"and as your function gives it:"': '"你的函数的结果："',
    "\"'dessert last': the context of 'is', as the source printed it:\"":
        "\"'dessert last' 句中 'is' 的上下文向量，资料打印的结果：\"",
    "\"equal to the value of 'short':\"": "\"与 'short' 的值完全相等：\"",
}

# %% [markdown]
# Each row of the picture is one word of the running example attending to all six. With
# keys of only two numbers and projection matrices with entries in $[0, 1)$, the scores stay
# small and most rows spread their attention over several words, unlike "is" in "... dessert
# last". Only "sun" clearly prefers one key: its own.

# %% [markdown zh]
# 图中每一行是贯穿全文的示例中的一个词对全部六个词的注意力。键只有两个数，投影矩阵的元素又都在
# $[0, 1)$ 之间，所以注意力分数都不大，多数行把注意力分给了好几个词，和“... dessert last”
# 中的“is”截然不同。只有“sun”明显偏向一个键：它自己的键。

# %% code
use_course_font()
fig, ax = plt.subplots(figsize=(4.5, 3.8))
image = ax.imshow(weights.detach(), cmap="viridis", vmin=0, vmax=1)
ax.set_xlabel("key (word attended to)")
ax.set_ylabel("query (word attending)")
ax.set_xticks(range(len(words)), words, rotation=45)
ax.set_yticks(range(len(words)), words)
fig.colorbar(image, ax=ax, label="attention weight")
ax.set_title("scaled dot-product attention weights")
plt.show()

# %% strings zh
{
    '"key (word attended to)"': '"键（被关注的词）"',
    '"query (word attending)"': '"查询（发出关注的词）"',
    '"attention weight"': '"注意力权重"',
    '"scaled dot-product attention weights"': '"缩放点积注意力的注意力权重"',
}

# %% [markdown]
# ## What you built
#
# $$\operatorname{Attention}(Q, K, V) = \operatorname{softmax}\!\left(\frac{Q K^\top}
# {\sqrt{d_k}}\right) V, \qquad Q = x W_Q,\; K = x W_K,\; V = x W_V,$$
#
# with an optional mask that removes keys from a query's view. The next assignment runs it
# for every word of a sentence at once, with no loop, and wraps the three projection
# matrices in an `nn.Module`.

# %% [markdown zh]
# ## 本作业小结
#
# $$\operatorname{Attention}(Q, K, V) = \operatorname{softmax}\!\left(\frac{Q K^\top}
# {\sqrt{d_k}}\right) V, \qquad Q = x W_Q,\; K = x W_K,\; V = x W_V,$$
#
# 外加一个可选的掩码，把某些键挡在查询的视野之外。下一次作业不用循环，一次为句子中的每个词
# 计算它，并把三个投影矩阵封装进一个 `nn.Module`。
