# %% [markdown]
# # Assignment 7: Looking elsewhere, not ahead
#
# So far every sequence has attended to itself. Two small changes give attention the two
# further jobs it has in a translation model. **Cross-attention** lets the words of one
# sentence look at the words of *another*: a decoder writing German asks questions of the
# English sentence it translates. A **causal mask** stops a word from looking at the words
# after it, which a model that writes one word at a time has not produced yet. You write
# both in this notebook, and a softmax that leaves masked positions out.
#
# **Source.** The running example comes from *Original self-attention: scaled-dot product
# attention*, notes with Chinese comments whose author is not named. They follow Sebastian
# Raschka's blog post *Understanding and Coding the Self-Attention Mechanism of Large
# Language Models From Scratch*: for the sentence *Life is short, eat dessert first* they
# compute single-head scaled dot-product attention, then multi-head attention, and they end
# at a heading "cross-attention" with nothing below it. This notebook starts where they stop,
# then goes past them to the causal mask. The numbers they print for this sentence are shown
# beside yours wherever your code computes them.
#
# | step | you write | points |
# | --- | --- | --- |
# | 1 | `cross_attention`: queries from one sequence, keys and values from another | 3 |
# | 2 | `causal_mask`: which positions lie in the future | 2 |
# | 3 | `masked_scaled_softmax`: attention weights that leave masked positions out | 4 |
#
# **Total: {total_points} points.** Each step has a stub that raises `NotImplementedError`;
# replace the body with your code. The test cell after each stub runs a few public checks
# you can see; when you hand in, hidden checks with other inputs run as well, so make your
# code correct in general, not just for the example.
#
# Conventions, as in the whole course: vectors are **rows**. A sequence of `n` inputs of
# size `d_in` is a tensor of shape `(n, d_in)`, a weight matrix is `(d_in, d_out)` and
# projecting is `x @ W`. Everything is `float32`. Where a step needs a softmax or a matrix
# product, use PyTorch's own (`torch.softmax`, `@`).

# %% [markdown zh]
# # 作业 7：看向别处，不看未来
#
# 到目前为止，每个序列都只对自己做注意力。再做两处小改动，注意力就能承担翻译模型中的另外两项工作。
# **交叉注意力**让一个句子中的词去看**另一个**句子中的词：
# 一个正在写德语的解码器，会向它所翻译的英语句子提问。
# **因果掩码**则不让一个词看它后面的词，因为逐词生成句子的模型此时还没有写出那些词。
# 本作业中你要实现这两者，以及一个把被掩码的位置排除在外的 softmax。
#
# **资料来源。** 贯穿本作业的例子来自资料《Original self-attention: scaled-dot product attention》
# （英文标题、中文注释，未署作者名），它参照 Sebastian Raschka 的博客文章
# 《Understanding and Coding the Self-Attention Mechanism of Large Language Models From Scratch》
# （从零理解并实现大语言模型的自注意力机制）写成。
# 资料以句子“Life is short, eat dessert first”为例，先计算单头的缩放点积注意力，
# 再计算多头注意力，最后停在一个名为“cross-attention”的标题上，下面没有任何内容。
# 本作业就从资料停下的地方接着讲，再越过资料，讲到因果掩码。
# 资料为这个句子打印出的数值，凡是你的代码能算出的，都会列在你的结果旁边。
#
# | 步骤 | 你要写的函数 | 分值 |
# | --- | --- | --- |
# | 1 | `cross_attention`：查询来自一个序列，键和值来自另一个序列 | 3 |
# | 2 | `causal_mask`：哪些位置属于未来 | 2 |
# | 3 | `masked_scaled_softmax`：把被掩码的位置排除在外的注意力权重 | 4 |
#
# **总分：{total_points} 分。** 每一步都有一个待完成的函数，它的函数体目前只会抛出
# `NotImplementedError`，请换成你自己的代码。每个函数后面的测试单元格会运行几项你看得到的公开测试；
# 提交之后，评分时还会用别的输入运行隐藏检查，所以你的代码要在一般情况下都正确，
# 而不只是对示例正确。
#
# 约定与整个课程相同：向量是**行**。由 `n` 个大小为 `d_in` 的输入组成的序列是形状为
# `(n, d_in)` 的张量，权重矩阵的形状是 `(d_in, d_out)`，投影就是 `x @ W`。
# 所有张量都是 `float32`。某一步需要 softmax 或矩阵乘法时，请直接用 PyTorch 自带的
# （`torch.softmax`、`@`）。

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
# The sentence is *Life is short, eat dessert first*. As in the earlier assignments, its
# words are numbered in sorted order (after dropping the comma), embedded by a table of
# 16-dimensional vectors drawn under `torch.manual_seed(123)`, and projected by weight
# matrices drawn with `torch.rand` under the same seed again, with $d_k = 24$ for queries
# and keys and $d_v = 28$ for values. The source stores each weight matrix as
# `(d_out, d_in)` and multiplies it from the left; we transpose the three once here so that
# `x @ W` works.

# %% [markdown zh]
# ## 贯穿全文的示例
#
# 句子是“Life is short, eat dessert first”。和前面几次作业一样，去掉逗号后，
# 把它的词按排序后的顺序编号，再用一个 16 维向量的嵌入表做嵌入
# （嵌入表在 `torch.manual_seed(123)` 下抽取），
# 然后用权重矩阵投影：再次设定同一个种子后用 `torch.rand` 抽取这些矩阵，
# 查询和键的大小 $d_k = 24$，值的大小 $d_v = 28$。
# 资料把每个权重矩阵存为 `(d_out, d_in)`，从左边去乘；
# 这里我们把三个矩阵各转置一次，这样就能写 `x @ W`。

# %% setup
sentence = "Life is short, eat dessert first"
words = sentence.replace(",", "").split()
vocab = {word: i for i, word in enumerate(sorted(words))}
ids = torch.tensor([vocab[word] for word in words])  # [0, 4, 5, 2, 1, 3]
torch.manual_seed(123)
x = nn.Embedding(len(vocab), 16)(ids).detach()  # (6, 16)

torch.manual_seed(123)
d_in, d_k, d_v = 16, 24, 28
W_query = torch.rand(d_k, d_in).T  # (d_in, d_k)
W_key = torch.rand(d_k, d_in).T  # (d_in, d_k)
W_value = torch.rand(d_v, d_in).T  # (d_in, d_v)

# %% strings zh
{
    # data kept in English: the document's sentence
    '"Life is short, eat dessert first"': '"Life is short, eat dessert first"',
}

# %% [markdown]
# For cross-attention we need a second sentence. Imagine a model translating ours into
# German, *Das Leben ist kurz, iss den Nachtisch zuerst*: eight words, embedded the same way
# in a table of their own (these vectors are random, not trained; only the shapes matter).

# %% [markdown zh]
# 交叉注意力需要第二个句子。设想一个模型正把我们的句子译成德语
# “Das Leben ist kurz, iss den Nachtisch zuerst”：一共八个词，用它们自己的嵌入表、
# 按同样的方法做嵌入（这些向量是随机的，没有经过训练；这里只关心形状）。

# %% setup
german = "Das Leben ist kurz, iss den Nachtisch zuerst"
german_words = german.replace(",", "").split()
german_vocab = {word: i for i, word in enumerate(sorted(german_words))}
german_ids = torch.tensor([german_vocab[word] for word in german_words])
torch.manual_seed(321)
x_german = nn.Embedding(len(german_vocab), 16)(german_ids).detach()  # (8, 16)

# %% strings zh
{
    # data kept in German: the sentence the queries come from
    '"Das Leben ist kurz, iss den Nachtisch zuerst"': '"Das Leben ist kurz, iss den Nachtisch zuerst"',
}

# %% [markdown]
# ## Step 1: cross-attention
#
# In self-attention one sequence plays all three roles. In cross-attention the roles are
# split between two sequences:
#
# - the **queries** come from the sequence that asks, `x_query` of shape `(n_query, d_in)`:
#   the German words written so far;
# - the **keys** and **values** come from the sequence that is looked at, `x_context` of
#   shape `(n_context, d_in)`: the English sentence.
#
# ![Cross-attention: queries projected from x_query (3 rows), keys and values from x_context (5 rows); the (3, 5) attention weights combine the values into one output row per query](figure:cross_attention)
#
# The computation is the scaled dot-product attention you know:
#
# $$Q = x_{\text{query}} W_Q,\quad K = x_{\text{context}} W_K,\quad V = x_{\text{context}} W_V,
# \qquad Z = \operatorname{softmax}\!\Big(\frac{Q K^\top}{\sqrt{d_k}}\Big)\, V,$$
#
# with the softmax over each row. The scores $Q K^\top$ now form an `(n_query, n_context)`
# matrix: one row per query, one column per context position, not square in general. The
# output has **one row per query**, shape `(n_query, d_v)`: each German word receives a
# summary of the English sentence, weighted by relevance to that word.
#
# Two consequences to keep in mind: when both sequences are the same, cross-attention *is*
# self-attention; and the order of the context's rows does not matter, since the output is
# a weighted sum over them.
#
# Small example: the context rows $[2, 0]$ and $[0, 2]$ give, with the weight matrices
# below, the keys $[2, 2]$ and $[0, 2]$ and the values $[2, 0, 4]$ and $[0, 2, -2]$. The
# second query, $[0, 1]$, scores 2 against both keys, so it takes the mean of the two
# values, $[1, 1, 1]$.

# %% [markdown zh]
# ## 第 1 步：交叉注意力
#
# 在自注意力中，一个序列同时扮演三种角色。在交叉注意力中，这些角色分给了两个序列：
#
# - **查询**来自提问的序列 `x_query`，形状为 `(n_query, d_in)`：也就是已经写出的德语词；
# - **键**和**值**来自被查看的序列 `x_context`，形状为 `(n_context, d_in)`：也就是英语句子。
#
# ![交叉注意力：查询由 x_query（3 行）投影得到，键和值由 x_context（5 行）投影得到；(3, 5) 的注意力权重把值向量组合成每个查询一行的输出](figure:cross_attention)
#
# 计算过程就是你熟悉的缩放点积注意力：
#
# $$Q = x_{\text{query}} W_Q,\quad K = x_{\text{context}} W_K,\quad V = x_{\text{context}} W_V,
# \qquad Z = \operatorname{softmax}\!\Big(\frac{Q K^\top}{\sqrt{d_k}}\Big)\, V,$$
#
# softmax 对每一行进行。此时注意力分数 $Q K^\top$ 是一个 `(n_query, n_context)` 的矩阵：
# 每个查询一行，每个上下文位置一列，一般不是方阵。
# 输出**每个查询一行**，形状为 `(n_query, d_v)`：每个德语词都得到英语句子的一个摘要，
# 其中各个英语词按它们与这个德语词的相关程度加权。
#
# 有两点值得记住：两个序列相同时，交叉注意力**就是**自注意力；
# 上下文各行的顺序无关紧要，因为输出是对它们的加权和。
#
# 小例子：上下文的两行 $[2, 0]$ 和 $[0, 2]$，经过下面的权重矩阵，
# 得到键 $[2, 2]$、$[0, 2]$ 和值 $[2, 0, 4]$、$[0, 2, -2]$。
# 第二个查询 $[0, 1]$ 对两个键的分数都是 2，所以它得到两个值向量的平均 $[1, 1, 1]$。

# %% solution cross_attention

# %% strings zh
{
    "Each position of x_query attends over the positions of x_context.":
        "x_query 的每个位置对 x_context 的所有位置做注意力。",
    "x_query: (n_query, d_in); x_context: (n_context, d_in); W_query, W_key: (d_in, d_k);":
        "x_query：(n_query, d_in)；x_context：(n_context, d_in)；W_query、W_key：(d_in, d_k)；",
    "W_value: (d_in, d_v). Returns (n_query, d_v).": "W_value：(d_in, d_v)。返回 (n_query, d_v)。",
}

# %% tests cross_attention points=3
z = cross_attention(x_german, x, W_query, W_key, W_value)
expect_tensor(z, (8, 28), "German queries (8 words) over the English sentence (6 words): "
              "one row per query")
x_query = torch.tensor([[1.0, 0.0], [0.0, 1.0], [2.0, -1.0]])  # (n_query, d_in) = (3, 2)
x_context = torch.tensor([[2.0, 0.0], [0.0, 2.0]])  # (n_context, d_in) = (2, 2)
W_q = torch.tensor([[1.0, 0.0], [0.0, 1.0]])  # (d_in, d_k) = (2, 2)
W_k = torch.tensor([[1.0, 1.0], [0.0, 1.0]])  # (2, 2)
W_v = torch.tensor([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0]])  # (d_in, d_v) = (2, 3)
expect_close(cross_attention(x_query, x_context, W_q, W_k, W_v),
             [[1.6089, 0.3911, 2.8266], [1.0, 1.0, 1.0], [1.8884, 0.1116, 3.6652]],
             "the small example",
             mistakes=[("no 1/sqrt(d_k)", [[1.7616, 0.2384, 3.2848], [1.0, 1.0, 1.0],
                                           [1.9640, 0.0360, 3.8921]])])
expect_close(cross_attention(100 * x_query, x_context, W_q, W_k, W_v),
             [[2.0, 0.0, 4.0], [1.0, 1.0, 1.0], [2.0, 0.0, 4.0]],
             "the queries 100 times larger: scores in the hundreds stay finite")
one = cross_attention(x_query, x_context[:1], W_q, W_k, W_v)
expect_close(one, [[2.0, 0.0, 4.0]] * 3,
             "with a single context row, every query gets that row's value [2, 0, 4]")

# %% strings zh
{
    '"German queries (8 words) over the English sentence (6 words): "':
        '"德语查询（8 个词）对英语句子（6 个词）做注意力："',
    '"one row per query"': '"每个查询一行"',
    '"the small example"': '"小例子"',
    "the queries 100 times larger: scores in the hundreds stay finite":
        "查询放大 100 倍：几百的分数也要保持有限",
    "with a single context row, every query gets that row's value [2, 0, 4]":
        "上下文只有一行时，每个查询都得到这一行的值 [2, 0, 4]",
}

# %% [markdown]
# Which English words does each German word look at? Below are the attention weights of
# the cross-attention above, one row per German word. The embeddings and weight matrices are
# random, so do not expect *Leben* to find *Life*: training is what would make these rows
# line up the two sentences. What the picture does show is the shape: 8 rows, 6 columns,
# each row summing to 1.

# %% [markdown zh]
# 每个德语词在看哪些英语词？下面是上面那次交叉注意力的注意力权重，每个德语词一行。
# 嵌入和权重矩阵都是随机的，所以别指望 *Leben* 能找到 *Life*：
# 要让这些行把两个句子对齐起来，得靠训练。
# 这张图能说明的是形状：8 行、6 列，每行之和为 1。

# %% code
# Your cross_attention, with value weights that make the English words' values the rows of
# the identity (x @ pinv(x) = I): each German word's context is then its row of weights.
identity_values = torch.linalg.pinv(x)  # (16, 6)
cross_weights = cross_attention(x_german, x, W_query, W_key, identity_values)  # (8, 6)
use_course_font()
fig, ax = plt.subplots(figsize=(5, 4.5))
image = ax.imshow(cross_weights, cmap="viridis", vmin=0, vmax=1)
ax.set_xlabel("English word (key and value)")
ax.set_ylabel("German word (query)")
ax.set_xticks(range(len(words)), words, rotation=45)
ax.set_yticks(range(len(german_words)), german_words)
fig.colorbar(image, ax=ax, label="attention weight")
ax.set_title("cross-attention weights")
plt.show()

# %% strings zh
{
    "# Your cross_attention, with value weights that make the English words' values the rows "
    "of\n# the identity (x @ pinv(x) = I): each German word's context is then its row of "
    "weights.":
        "# 用你的 cross_attention，但换一个值的权重矩阵，使英语词的值向量恰好是单位矩阵的各行\n"
        "# （x @ pinv(x) = I）：这样每个德语词的上下文向量就是它那一行注意力权重。",
    '"English word (key and value)"': '"英语词（键和值）"',
    '"German word (query)"': '"德语词（查询）"',
    '"attention weight"': '"注意力权重"',
    '"cross-attention weights"': '"交叉注意力的注意力权重"',
}

# %% [markdown]
# When both sequences are the same, cross-attention is self-attention. The source computed
# self-attention on this very sentence for its second word, *is*, and printed that word's
# attention weights and its 28-dimensional context vector. Give your `cross_attention` the
# English sentence as both sequences and compare its row 2 (index 1):

# %% [markdown zh]
# 两个序列相同时，交叉注意力就是自注意力。资料正是在这个句子上，
# 为第二个词 *is* 计算了自注意力，并打印出这个词的注意力权重和它的 28 维上下文向量。
# 把英语句子同时作为两个序列交给你的 `cross_attention`，然后对照结果的第 2 行（下标为 1）：

# %% code
notes_weights_2 = torch.tensor({{documents.DOC000_WEIGHTS_2}})
notes_context_2 = torch.tensor({{documents.DOC000_CONTEXT_2}})  # (d_v,) = (28,)
self_weights = cross_attention(x, x, W_query, W_key, identity_values)  # (6, 6), as above
self_context = cross_attention(x, x, W_query, W_key, W_value)  # (6, 28)
print("the source printed the attention weights of word 2, 'is':")
print(notes_weights_2)
print("your cross_attention(x, x, ...) gives:")
print(self_weights[1])
print("the source printed its context vector:")
print(notes_context_2)
print("your cross_attention(x, x, ...) gives:")
print(self_context[1])

# %% strings zh
{
    "# (6, 6), as above": "# (6, 6)，做法同上",
    "\"the source printed the attention weights of word 2, 'is':\"":
        "\"资料打印的第 2 个词 'is' 的注意力权重：\"",
    '"your cross_attention(x, x, ...) gives:"': '"你的 cross_attention(x, x, ...) 得到："',
    '"the source printed its context vector:"': '"资料打印的这个词的上下文向量："',
}

# %% [markdown]
# ## Step 2: the causal mask
#
# A model that writes a sentence one word at a time predicts word $i + 1$ from words
# $1, \dots, i$. While it is trained on whole sentences, word $i$ must therefore not attend
# to any word after it, or it would simply copy the answer. The positions to hide form a
# mask over the `(n, n)` score matrix, **True where query $i$ must not look at key $j$**:
# exactly where $j > i$, strictly above the diagonal. A word may always look at itself.
#
# For four positions (`.` visible, `x` hidden):
#
# ```
#          key 1  key 2  key 3  key 4
# query 1    .      x      x      x
# query 2    .      .      x      x
# query 3    .      .      .      x
# query 4    .      .      .      .
# ```
#
# `causal_mask(n)` returns this as a tensor of shape `(n, n)` and dtype `torch.bool`.
# `torch.ones(n, n, dtype=torch.bool)` together with `torch.triu` (read its `diagonal`
# argument) or a comparison of two `torch.arange` tensors will do it.

# %% [markdown zh]
# ## 第 2 步：因果掩码
#
# 逐词写句子的模型根据第 $1, \dots, i$ 个词预测第 $i + 1$ 个词。
# 因此在用完整句子训练时，第 $i$ 个词不能对它后面的任何词做注意力，否则它直接抄答案就行了。
# 这些要隐藏的位置在 `(n, n)` 注意力分数矩阵上构成一个掩码，
# **在查询 $i$ 不能看键 $j$ 的位置为 True**：恰好是 $j > i$ 的位置，即严格位于对角线上方。
# 一个词总可以看它自己。
#
# 四个位置时的掩码如下（`.` 表示可见，`x` 表示被掩码）：
#
# ```
#           键 1   键 2   键 3   键 4
# 查询 1     .      x      x      x
# 查询 2     .      .      x      x
# 查询 3     .      .      .      x
# 查询 4     .      .      .      .
# ```
#
# `causal_mask(n)` 以形状为 `(n, n)`、`dtype` 为 `torch.bool` 的张量返回这个掩码。
# 可以用 `torch.ones(n, n, dtype=torch.bool)` 配合 `torch.triu`（留意它的 `diagonal` 参数），
# 也可以比较两个 `torch.arange` 张量。

# %% solution causal_mask

# %% strings zh
{
    "(n, n) bool, True where query i must not look at key j: the future, j > i.":
        "(n, n) 的 bool 张量，查询 i 不能看键 j 的位置为 True：也就是未来，j > i。",
}

# %% tests causal_mask points=2
mask = causal_mask(4)
expect_tensor(mask, (4, 4), "causal_mask(4)", dtype=torch.bool)
expected = torch.tensor([[False, True, True], [False, False, True], [False, False, False]])
expect_equal(causal_mask(3), expected, "causal_mask(3) (True: a position the query may not see)",
             mistakes=[("causal mask inverted", ~expected),
                       ("causal mask hides the diagonal",
                        expected | torch.eye(3, dtype=torch.bool))])
expect_tensor(causal_mask(1), (1, 1), "causal_mask(1)", dtype=torch.bool)

# %% strings zh
{
    "causal_mask(3) (True: a position the query may not see)":
        "causal_mask(3)（True：查询不能看的位置）",
}

# %% [markdown]
# ## Step 3: a softmax that leaves masked positions out
#
# A mask says which scores to ignore; the softmax must then spread each query's attention
# weight over the *other* positions only, so that the visible weights still sum to 1 and the
# hidden ones are exactly 0. Zeroing weights after the softmax does not do that (the row no
# longer sums to 1), and neither does setting hidden scores to 0 (since $e^0 = 1$, they
# still get weight). The trick is to set them to $-\infty$ before the softmax:
# $e^{-\infty} = 0$, so they drop out of numerator and denominator alike.
#
# ![A causal mask (True above the diagonal), the scores with every masked entry set to minus infinity, and the attention weights after the softmax: 0 above the diagonal, each row summing to 1](figure:causal_mask)
#
# $$\alpha_{ij} = \frac{m_{ij}\, e^{s_{ij} / \sqrt{d_k}}}{\sum_l m_{il}\, e^{s_{il} / \sqrt{d_k}}},
# \qquad m_{ij} = 0 \text{ where the mask is True, else } 1.$$
#
# `masked_scaled_softmax(scores, mask, d_k)` takes raw scores of shape `(..., n_query,
# n_key)`, a boolean `mask` that broadcasts to them (True = hidden), and the key size
# `d_k`; it divides by $\sqrt{d_k}$ and takes the softmax over the last dimension.
# `Tensor.masked_fill(mask, value)` puts a value wherever the mask is True.
#
# One case needs care: if **every** key of a query is masked, all its scores are
# $-\infty$, and the softmax computes $0 / 0$ = `nan`. That `nan` would spread through every
# later sum.
#
# **Rule for this step:** masked weights must be exactly 0, and a query whose every key is
# masked must get a row of zeros, never `nan`.
#
# Small example with $d_k = 4$ (so the scores are halved): the scores $[4, 0, 2]$ with the
# last key hidden give $\operatorname{softmax}([2, 0]) = [0.8808, 0.1192]$ and 0 for the
# hidden key.

# %% [markdown zh]
# ## 第 3 步：把被掩码的位置排除在外的 softmax
#
# 掩码指出哪些分数要忽略；softmax 随后只能把每个查询的注意力权重分给**其余**位置，
# 使可见位置的注意力权重之和仍为 1，被掩码位置的注意力权重恰好为 0。
# 在 softmax 之后把注意力权重置 0 做不到这一点（这一行的和不再是 1），
# 把被掩码的分数置 0 也不行（因为 $e^0 = 1$，它们仍会分到注意力权重）。
# 诀窍是在 softmax 之前把它们设为 $-\infty$：$e^{-\infty} = 0$，
# 于是它们同时从分子和分母中消失。
#
# ![因果掩码（对角线上方为 True）、被掩码的位置设为负无穷后的注意力分数，以及 softmax 之后的注意力权重：对角线上方为 0，每行之和为 1](figure:causal_mask)
#
# $$\alpha_{ij} = \frac{m_{ij}\, e^{s_{ij} / \sqrt{d_k}}}{\sum_l m_{il}\, e^{s_{il} / \sqrt{d_k}}},
# \qquad m_{ij} = \begin{cases} 0 & \text{掩码为 True 处} \\ 1 & \text{其他位置} \end{cases}$$
#
# `masked_scaled_softmax(scores, mask, d_k)` 接收形状为 `(..., n_query, n_key)` 的原始注意力分数、
# 一个能广播到分数形状的布尔掩码 `mask`（True 表示被掩码），以及键的大小 `d_k`；
# 它先除以 $\sqrt{d_k}$，再对最后一个维度做 softmax。
# `Tensor.masked_fill(mask, value)` 会在掩码为 True 的所有位置填入 `value`。
#
# 有一种情况要特别小心：如果某个查询的**所有**键都被掩码，它的分数全是 $-\infty$，
# softmax 就会算出 $0 / 0$ = `nan`。这个 `nan` 会扩散到之后的每一次求和中。
#
# **本步规则：** 被掩码位置的注意力权重必须恰好为 0；所有键都被掩码的查询必须得到一行 0，
# 绝不能是 `nan`。
#
# 小例子，取 $d_k = 4$（于是分数减半）：分数 $[4, 0, 2]$ 掩码掉最后一个键后，
# 得到 $\operatorname{softmax}([2, 0]) = [0.8808, 0.1192]$，被掩码的键为 0。

# %% solution masked_scaled_softmax

# %% strings zh
{
    "softmax(scores / sqrt(d_k)) over the last dim with masked positions left out.":
        "对最后一个维度做 softmax(scores / sqrt(d_k))，被掩码的位置不参与。",
    "mask (bool, broadcastable to scores) is True where a query must not look. Masked\n"
    "    weights are exactly 0; a row with every position masked gives zeros, never nan.":
        "mask（bool，可广播到 scores 的形状）在查询不能看的位置为 True。\n"
        "    被掩码的注意力权重恰好为 0；所有位置都被掩码的行得到全 0，绝不会是 nan。",
    '# a fully masked row is nan here': '# 整行都被掩码时，这里得到 nan',
    '# ... and exactly 0 here': '# ……而这里恰好是 0',
}

# %% tests masked_scaled_softmax points=4
scores = torch.tensor([[1.0, 2.0, 3.0], [4.0, 0.0, 2.0]])
hidden = torch.tensor([[False, True, True], [False, False, True]])
weights = masked_scaled_softmax(scores, hidden, 4)
expect_tensor(weights, (2, 3), "the attention weights of 2 queries over 3 keys")
expect_close(weights, [[1.0, 0.0, 0.0], [0.8808, 0.1192, 0.0]], "the small example",
             mistakes=[("mask applied after the softmax",
                        [[0.1863, 0.0, 0.0], [0.6652, 0.0900, 0.0]]),
                       ("masked scores set to 0 instead of -inf",
                        [[0.4519, 0.2741, 0.2741], [0.7870, 0.1065, 0.1065]]),
                       ("no 1/sqrt(d_k)", [[1.0, 0.0, 0.0], [0.9820, 0.0180, 0.0]])])
all_hidden = torch.tensor([[True, True, True], [False, False, False]])
weights = masked_scaled_softmax(torch.zeros(2, 3), all_hidden, 4)
assert not torch.isnan(weights).any(), (
    f"a query whose every key is masked gave nan:\n{weights}\nit should get a row of zeros")
expect_close(weights, [[0.0, 0.0, 0.0], [1 / 3, 1 / 3, 1 / 3]],
             "equal scores, first query fully masked")
expect_close(masked_scaled_softmax(torch.tensor([[800.0, 0.0, 0.0], [0.0, 800.0, -800.0]]),
                                   torch.tensor([[False, False, True], [False, False, False]]),
                                   4),
             [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], "scores in the hundreds stay finite")
batch = masked_scaled_softmax(torch.stack([scores, 2 * scores]), hidden, 4)  # one mask for both
expect_tensor(batch, (2, 2, 3), "a batch of 2 score matrices with one (2, 3) mask")
expect_close(batch[0], [[1.0, 0.0, 0.0], [0.8808, 0.1192, 0.0]],
             "the first matrix of the batch, the mask broadcast to it")

# %% strings zh
{
    "the attention weights of 2 queries over 3 keys": "2 个查询对 3 个键的注意力权重",
    '"the small example"': '"小例子"',
    "a query whose every key is masked gave nan:": "所有键都被掩码的查询得到了 nan：",
    "it should get a row of zeros": "它应当得到一行 0",
    "equal scores, first query fully masked": "分数全部相等，第一个查询的键全被掩码",
    "scores in the hundreds stay finite": "几百的分数也要保持有限",
    "# one mask for both": "# 两个矩阵共用一个掩码",
    "a batch of 2 score matrices with one (2, 3) mask":
        "2 个分数矩阵组成的一批，共用一个 (2, 3) 的掩码",
    "the first matrix of the batch, the mask broadcast to it": "这一批的第一个矩阵（掩码广播到它上面）",
}

# %% [markdown]
# Here is causal self-attention on the running example: each word attends only to itself
# and the words before it. The hidden positions, whose attention weights are exactly 0, are
# drawn in grey. The first word has nothing but itself to look at, so its whole weight sits
# on the diagonal. (Every entry of the three weight matrices is drawn by `torch.rand`
# between 0 and 1, which makes the scores lie far apart: even after the scaling, most rows
# put almost all their attention weight on one word.)

# %% [markdown zh]
# 下面是贯穿全文的示例上的因果自注意力：每个词只对它自己和它前面的词做注意力。
# 被掩码的位置（注意力权重恰好为 0）画成灰色。
# 第一个词除了自己没有别的可看，所以它的全部注意力权重都落在对角线上。
# （三个权重矩阵的每个元素都由 `torch.rand` 在 0 到 1 之间抽取，这使注意力分数彼此相差很大：
# 即使缩放之后，大多数行仍把几乎全部注意力权重放在某一个词上。）

# %% code
queries, keys, values = x @ W_query, x @ W_key, x @ W_value  # (6, 24), (6, 24), (6, 28)
mask = causal_mask(len(words))
causal_weights = masked_scaled_softmax(queries @ keys.T, mask, d_k)  # (6, 6)
colours = plt.get_cmap("viridis").copy()
colours.set_bad("lightgrey")  # nan entries: the hidden positions
use_course_font()
fig, ax = plt.subplots(figsize=(5, 4.5))
image = ax.imshow(causal_weights.masked_fill(mask, float("nan")), cmap=colours, vmin=0, vmax=1)
ax.set_xlabel("key (word attended to)")
ax.set_ylabel("query (word attending)")
ax.set_xticks(range(len(words)), words, rotation=45)
ax.set_yticks(range(len(words)), words)
fig.colorbar(image, ax=ax, label="attention weight")
ax.set_title("causally masked attention weights")
plt.show()

# %% strings zh
{
    "# nan entries: the hidden positions": "# 值为 nan 的元素：被掩码的位置",
    '"key (word attended to)"': '"键（被关注的词）"',
    '"query (word attending)"': '"查询（发出关注的词）"',
    '"attention weight"': '"注意力权重"',
    '"causally masked attention weights"': '"因果掩码后的注意力权重"',
}

# %% [markdown]
# PyTorch's fused `F.scaled_dot_product_attention` does the same with `is_causal=True`.
# Beware of one difference if you pass it a mask of your own: its boolean `attn_mask` is
# True where a query **may** look, the opposite of ours, so you would pass `~mask`.

# %% [markdown zh]
# PyTorch 的融合实现 `F.scaled_dot_product_attention` 在 `is_causal=True` 时做的是同一件事。
# 如果你给它传自己的掩码，要注意一处差别：它的布尔 `attn_mask` 在查询**可以**看的位置为 True，
# 与我们的约定正好相反，所以要传 `~mask`。

# %% code
ours = causal_weights @ values  # (6, 28)
builtin = F.scaled_dot_product_attention(queries, keys, values, is_causal=True)
explicit = F.scaled_dot_product_attention(queries, keys, values,
                                          attn_mask=~causal_mask(len(words)))
print("same as is_causal=True:", torch.allclose(ours, builtin, atol=1e-5))
print("same as attn_mask=~mask:", torch.allclose(ours, explicit, atol=1e-5))

# %% strings zh
{
    '"same as is_causal=True:"': '"与 is_causal=True 的结果相同："',
    '"same as attn_mask=~mask:"': '"与 attn_mask=~mask 的结果相同："',
}

# %% [markdown]
# ## What you learned
#
# - Cross-attention is attention with the queries taken from one sequence and the keys and
#   values from another: $Z = \operatorname{softmax}(Q K^\top / \sqrt{d_k})\, V$ with
#   $Q$ from `x_query` and $K, V$ from `x_context`; the output has one row per query.
# - A mask hides positions by sending their scores to $-\infty$ before the softmax, so they
#   get attention weight exactly 0 and the rest still sums to 1; a fully hidden row needs
#   its own care to avoid `nan`.
# - A Transformer decoder uses both: causal self-attention over the words it has written,
#   then cross-attention from those words to the sentence it translates.

# %% [markdown zh]
# ## 本作业小结
#
# - 交叉注意力就是查询取自一个序列、键和值取自另一个序列的注意力：
#   $Z = \operatorname{softmax}(Q K^\top / \sqrt{d_k})\, V$，其中 $Q$ 来自 `x_query`，
#   $K, V$ 来自 `x_context`；输出每个查询一行。
# - 掩码在 softmax 之前把被掩码位置的分数设为 $-\infty$，从而让它们的注意力权重恰好为 0，
#   其余位置的注意力权重之和仍为 1；整行都被掩码时要单独处理，以免出现 `nan`。
# - Transformer 的解码器两者都用：先对已经写出的词做因果自注意力，
#   再让这些词对所翻译的句子做交叉注意力。
