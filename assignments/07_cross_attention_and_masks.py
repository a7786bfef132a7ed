# %% [markdown]
# # Assignment 7: Looking elsewhere, not ahead
#
# So far every sequence has attended to itself. Two small changes make attention do the
# work of a whole translation model. **Cross-attention** lets the words of one sentence
# look at the words of *another*: a decoder writing German asks questions of the English
# sentence it translates. A **causal mask** stops a word from looking at the words after
# it, which a model that writes one word at a time has not produced yet. You write both in
# this notebook, and a softmax that leaves masked positions out.
#
# | step | you write | points |
# | --- | --- | --- |
# | 1 | `cross_attention`: queries from one sequence, keys and values from another | 3 |
# | 2 | `causal_mask`: which positions lie in the future | 2 |
# | 3 | `masked_scaled_softmax`: weights that ignore masked positions | 4 |
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
# The sentence is *Life is short, eat dessert first*. As in the earlier notebooks, its
# words are numbered in sorted order (after dropping the comma), embedded by a table of
# 16-dimensional vectors drawn under `torch.manual_seed(123)`, and projected by weights
# drawn with `torch.rand` under the same seed again, with $d_k = 24$ for queries and keys
# and $d_v = 28$ for values. The notes these numbers come from store each weight as
# `(d_out, d_in)`; we transpose them once here so that `x @ W` works.

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

# %% [markdown]
# For cross-attention we need a second sentence. Imagine a model translating ours into
# German, *Das Leben ist kurz, iss den Nachtisch zuerst*: eight words, embedded the same way
# in a table of their own (these vectors are random, not trained; only the shapes matter).

# %% setup
german = "Das Leben ist kurz, iss den Nachtisch zuerst"
german_words = german.replace(",", "").split()
german_vocab = {word: i for i, word in enumerate(sorted(german_words))}
german_ids = torch.tensor([german_vocab[word] for word in german_words])
torch.manual_seed(321)
x_german = nn.Embedding(len(german_vocab), 16)(german_ids).detach()  # (8, 16)

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
# Small example: the context rows $[2, 0]$ and $[0, 2]$ give, with the weights below, the
# keys $[2, 2]$ and $[0, 2]$ and the values $[2, 0, 4]$ and $[0, 2, -2]$. The second query,
# $[0, 1]$, scores 2 against both keys, so it takes the mean of the two values,
# $[1, 1, 1]$.

# %% solution cross_attention

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
one = cross_attention(x_query, x_context[:1], W_q, W_k, W_v)
expect_close(one, [[2.0, 0.0, 4.0]] * 3,
             "with a single context row, every query gets that row's value [2, 0, 4]")

# %% [markdown]
# Which English words does each German word look at? Below are the weights of the
# cross-attention above, one row per German word. The embeddings and weights are random,
# so do not expect *Leben* to find *Life*: training is what would make these rows line up
# the two sentences. What the picture does show is the shape: 8 rows, 6 columns, each row
# summing to 1.

# %% code
# Your cross_attention, with value weights that make the English words' values the rows of
# the identity (x @ pinv(x) = I): each German word's context is then its row of weights.
identity_values = torch.linalg.pinv(x)  # (16, 6)
cross_weights = cross_attention(x_german, x, W_query, W_key, identity_values)  # (8, 6)
fig, ax = plt.subplots(figsize=(5, 4.5))
image = ax.imshow(cross_weights, cmap="viridis", vmin=0, vmax=1)
ax.set_xlabel("English word (key and value)")
ax.set_ylabel("German word (query)")
ax.set_xticks(range(len(words)), words, rotation=45)
ax.set_yticks(range(len(german_words)), german_words)
fig.colorbar(image, ax=ax, label="weight")
ax.set_title("cross-attention weights")
plt.show()

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

# %% solution causal_mask

# %% tests causal_mask points=2
mask = causal_mask(4)
expect_tensor(mask, (4, 4), "causal_mask(4)", dtype=torch.bool)
expected = torch.tensor([[False, True, True], [False, False, True], [False, False, False]])
expect_equal(causal_mask(3), expected, "causal_mask(3) (True: a position the query may not see)",
             mistakes=[("causal mask inverted", ~expected),
                       ("causal mask hides the diagonal",
                        expected | torch.eye(3, dtype=torch.bool))])
expect_tensor(causal_mask(1), (1, 1), "causal_mask(1)", dtype=torch.bool)

# %% [markdown]
# ## Step 3: a softmax that leaves masked positions out
#
# A mask says which scores to ignore; the softmax must then spread each query's weight over
# the *other* positions only, so that the visible weights still sum to 1 and the hidden ones
# are exactly 0. Zeroing weights after the softmax does not do that (the row no longer sums
# to 1), and neither does setting hidden scores to 0 (since $e^0 = 1$, they still get
# weight). The trick is to set them to $-\infty$ before the softmax: $e^{-\infty} = 0$, so
# they drop out of numerator and denominator alike.
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

# %% solution masked_scaled_softmax

# %% tests masked_scaled_softmax points=4
scores = torch.tensor([[1.0, 2.0, 3.0], [4.0, 0.0, 2.0]])
hidden = torch.tensor([[False, True, True], [False, False, True]])
weights = masked_scaled_softmax(scores, hidden, 4)
expect_tensor(weights, (2, 3), "the weights of 2 queries over 3 keys")
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
batch = masked_scaled_softmax(torch.stack([scores, 2 * scores]), hidden, 4)  # one mask for both
expect_tensor(batch, (2, 2, 3), "a batch of 2 score matrices with one (2, 3) mask")
expect_close(batch[0], [[1.0, 0.0, 0.0], [0.8808, 0.1192, 0.0]],
             "the first matrix of the batch, the mask broadcast to it")

# %% [markdown]
# Here is causal self-attention on the running example: each word attends only to itself
# and the words before it. The hidden positions, whose weights are exactly 0, are drawn in
# grey. The first word has nothing but itself to look at, so its whole weight sits on the
# diagonal. (The notes draw every weight with `torch.rand`, so all weights are positive and
# the scores are large: even after the scaling, most rows put almost all their weight on one
# word.)

# %% code
queries, keys, values = x @ W_query, x @ W_key, x @ W_value  # (6, 24), (6, 24), (6, 28)
mask = causal_mask(len(words))
causal_weights = masked_scaled_softmax(queries @ keys.T, mask, d_k)  # (6, 6)
colours = plt.get_cmap("viridis").copy()
colours.set_bad("lightgrey")  # nan entries: the hidden positions
fig, ax = plt.subplots(figsize=(5, 4.5))
image = ax.imshow(causal_weights.masked_fill(mask, float("nan")), cmap=colours, vmin=0, vmax=1)
ax.set_xlabel("key (word attended to)")
ax.set_ylabel("query (word attending)")
ax.set_xticks(range(len(words)), words, rotation=45)
ax.set_yticks(range(len(words)), words)
fig.colorbar(image, ax=ax, label="weight")
ax.set_title("causally masked attention weights")
plt.show()

# %% [markdown]
# PyTorch's fused `F.scaled_dot_product_attention` does the same with `is_causal=True`.
# Beware of one difference if you pass it a mask of your own: its boolean `attn_mask` is
# True where a query **may** look, the opposite of ours, so you would pass `~mask`.

# %% code
ours = causal_weights @ values  # (6, 28)
builtin = F.scaled_dot_product_attention(queries, keys, values, is_causal=True)
explicit = F.scaled_dot_product_attention(queries, keys, values,
                                          attn_mask=~causal_mask(len(words)))
print("same as is_causal=True:", torch.allclose(ours, builtin, atol=1e-5))
print("same as attn_mask=~mask:", torch.allclose(ours, explicit, atol=1e-5))

# %% [markdown]
# ## What you learned
#
# - Cross-attention is attention with the queries taken from one sequence and the keys and
#   values from another: $Z = \operatorname{softmax}(Q K^\top / \sqrt{d_k})\, V$ with
#   $Q$ from `x_query` and $K, V$ from `x_context`; the output has one row per query.
# - A mask hides positions by sending their scores to $-\infty$ before the softmax, so they
#   get weight exactly 0 and the rest still sums to 1; a fully hidden row needs its own
#   care to avoid `nan`.
# - A Transformer decoder uses both: causal self-attention over the words it has written,
#   then cross-attention from those words to the sentence it translates.
