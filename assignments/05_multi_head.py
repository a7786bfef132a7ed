# %% [markdown]
# # Assignment 5: Many heads
#
# One attention head learns one way of relating words: one set of query, key and value
# weights, hence one table of weights per sentence. Multi-head attention runs several heads
# side by side, each with its own weights, and puts their outputs together. Running them one
# after the other in a Python loop would work, but it is slow and hides the structure. Here
# you stack the heads' weights into one tensor and let a single batched matrix product serve
# every head at once. At the end you rebuild PyTorch's own `nn.MultiheadAttention` from
# these pieces and check that it gives the very same numbers.
#
# | step | you write | points |
# | --- | --- | --- |
# | 1 | `multihead_project`: every head's projection with one `torch.bmm` | 2 |
# | 2 | `multihead_attention`: every head's contexts | 3 |
# | 3 | `concat_heads`: the heads side by side | 1 |
# | 4 | `MultiHeadAttention`: `nn.MultiheadAttention` written out | 4 |
#
# **Total: {total_points} points.** Each step has a stub that raises `NotImplementedError`;
# replace the body with your code. The test cell after each stub runs a few public checks
# you can see; when you hand in, hidden checks with other inputs run as well, so make your
# code correct in general, not just for the example.
#
# Conventions, as in the whole course: vectors are **rows**, a sequence `x` is
# `(seq, d_in)`, everything is `float32`. One exception, taken over from the write-ups this
# assignment follows: a head's weight matrix is stored as `(d_out, d_in)`, so a head
# projects the sequence with `x @ W.T`.

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
# sorted as Python sorts strings give the vocabulary `Life` 0, `dessert` 1, `eat` 2,
# `first` 3, `is` 4, `short` 5, so the sentence reads `[0, 4, 5, 2, 1, 3]`. An embedding
# table of 6 rows turns it into `x`, six 16-dimensional rows.
#
# Every head has queries and keys of size $d_k = 24$ and values of size $d_v = 28$, and
# there are $h = 3$ heads. A single head's query weights are a `(24, 16)` matrix; three
# heads stack three of them into a tensor of shape `(3, 24, 16)`: `W_query[i]` is head
# `i`'s matrix. The single-head weights are drawn first only so that the random stream, and
# with it every number below, is the one of the original write-up.

# %% setup
sentence = "Life is short, eat dessert first"
words = sentence.replace(",", "").split()
token_ids = torch.tensor([0, 4, 5, 2, 1, 3])  # ids in the sorted vocabulary (assignment 2)

torch.manual_seed(123)
x = nn.Embedding(6, 16)(token_ids).detach()  # (6, 16), one row per word

torch.manual_seed(123)
single_W_query = torch.rand(24, 16)  # one head: (d_k, d_in)
single_W_key = torch.rand(24, 16)  # (d_k, d_in)
single_W_value = torch.rand(28, 16)  # (d_v, d_in)

h = 3
W_query = torch.rand(h, 24, 16)  # (h, d_k, d_in), drawn right after, no new seed
W_key = torch.rand(h, 24, 16)  # (h, d_k, d_in)
W_value = torch.rand(h, 28, 16)  # (h, d_v, d_in)

# %% [markdown]
# ## Step 1: every head's projection in one product
#
# Head $i$ projects the sequence with its own matrix: $x W_i^\top$, shape `(seq, d_out)`.
# `torch.bmm(A, B)` multiplies two stacks of matrices pair by pair: for `A` of shape
# `(h, n, m)` and `B` of shape `(h, m, p)` it returns `(h, n, p)` whose slice `i` is
# `A[i] @ B[i]`. So
#
# 1. give the inputs a head axis: `x.T` is `(d_in, seq)`; `x.T.expand(h, -1, -1)` (or
#    `x.T.repeat(h, 1, 1)`) makes `h` copies of it, `(h, d_in, seq)`;
# 2. `torch.bmm(W, stacked)` is `(h, d_out, seq)`: slice `i` is $W_i x^\top$;
# 3. swap the last two dimensions (`.transpose(1, 2)`) to get one row per position,
#    `(h, seq, d_out)`.
#
# Step 3 is where a `reshape` is tempting and wrong: reshaping `(h, d_out, seq)` to
# `(h, seq, d_out)` keeps the numbers in memory order and mixes positions with features.
#
# With the running example, the keys of all heads are `(3, 6, 24)` and the values
# `(3, 6, 28)`. Projecting one input through every head, as in `W_query.matmul(x[1])`,
# gives query 2 of every head, `(3, 24)`: row 1 of each head's queries.
#
# **Rule for this step:** one `torch.bmm` for all heads. A Python loop (or a comprehension)
# over the heads breaks the rule, and so does not calling `torch.bmm` at all.

# %% solution multihead_project

# %% tests multihead_project points=2
keys = multihead_project(x, W_key)
expect_tensor(keys, (3, 6, 24), "the keys of every head")
expect_tensor(multihead_project(x, W_value), (3, 6, 28), "the values of every head")
expect_close(keys[1], x @ W_key[1].T, "head 1's keys, x @ W_key[1].T")
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
# `torch.bmm(queries, keys.transpose(1, 2))` gives every head's scores, `(h, seq, seq)`;
# the softmax runs over the **last** dimension (the keys); one more `torch.bmm` with the
# values gives `(h, seq, d_v)`. For the running example that is `(3, 6, 28)`, and the
# context of query 2 in every head, `context[:, 1]`, is `(3, 28)`.
#
# A second write-up of this example (with the sentence ending in *last*) keeps only query
# 2, whose scores are `(3, 6)`, and takes the softmax over `dim=1`. That is the keys there;
# in the full `(h, seq, seq)` scores `dim=1` would be the queries, so write `dim=-1`.

# %% solution multihead_attention

# %% tests multihead_attention points=3
context = multihead_attention(x, W_query, W_key, W_value)
expect_tensor(context, (3, 6, 28), "the contexts of every head")
expect_tensor(context[:, 1], (3, 28), "the context of query 2 in every head")
for head in range(3):
    queries, keys, values = x @ W_query[head].T, x @ W_key[head].T, x @ W_value[head].T
    expect_close(
        context[head],
        F.scaled_dot_product_attention(queries, keys, values),
        f"head {head}'s contexts (single-head attention with head {head}'s weights)",
        mistakes=[("no 1/sqrt(d_k)",
                   F.scaled_dot_product_attention(queries, keys, values, scale=1.0))],
    )

# %% [markdown]
# One panel per head: the weights with which each word of the sentence (a row) looks at
# every word (a column). The heads share the input but not the weights, so they spread
# their attention differently. With untrained weights drawn from $[0, 1)$ many scores are
# widely spread, and the softmax puts nearly all of a row's weight on one word.
#
# The picture is drawn with your `multihead_attention`, given value weights that make the
# six words' values the rows of the identity: with `W_value[head]` the transpose of the
# pseudo-inverse of `x`, $x\,W_V^\top = I$, so each context row *is* that word's weights.

# %% code
identity_values = torch.linalg.pinv(x).T.expand(h, -1, -1)  # (3, 6, 16): x @ each.T = I
head_weights = multihead_attention(x, W_query, W_key, identity_values)  # (3, 6, 6)
fig, axes = plt.subplots(1, h, figsize=(4 * h, 4), sharey=True)
for head, ax in enumerate(axes):
    image = ax.imshow(head_weights[head], cmap="viridis", vmin=0, vmax=1)
    ax.set_title(f"head {head}")
    ax.set_xticks(range(len(words)), words, rotation=45)
    ax.set_xlabel("key (word attended to)")
axes[0].set_yticks(range(len(words)), words)
axes[0].set_ylabel("query (word attending)")
fig.colorbar(image, ax=axes, label="weight", shrink=0.8)
plt.show()

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

# %% solution concat_heads

# %% tests concat_heads points=1
context = torch.randn(3, 6, 28)  # 3 heads, 6 positions, d_v = 28
merged = concat_heads(context)
expect_tensor(merged, (6, 84), "the three heads side by side")
expect_close(merged[:, 28:56], context[1], "columns 28 to 55: head 1")

small_context = torch.arange(12.0).reshape(2, 3, 2)  # 2 heads, 3 positions, d_v = 2
expect_close(
    concat_heads(small_context),
    [[0.0, 1.0, 6.0, 7.0], [2.0, 3.0, 8.0, 9.0], [4.0, 5.0, 10.0, 11.0]],
    "two heads of three 2-d outputs side by side",
    mistakes=[("heads merged by reshape without transposing",
               [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]])],
)

# %% [markdown]
# ## Step 4: `nn.MultiheadAttention`, written out
#
# PyTorch ships multi-head attention as `torch.nn.MultiheadAttention(embed_dim, num_heads)`.
# It is the same computation with a few conventions of its own; you will now write a module
# that follows all of them, so closely that it can take over a PyTorch module's weights and
# return the same numbers.
#
# **Shapes: sequence first.** `query` is `(L, N, E)`: $L$ target positions, a batch of $N$
# sequences, embeddings of size $E$ (`embed_dim`). `key` and `value` are `(S, N, E)` with
# $S$ source positions. (Self-attention is the case query = key = value.) The output is
# `(L, N, E)` and the weights `(N, L, S)`. For example, with $L, N, E, S = 3, 4, 10, 6$ and
# 10 heads, the output is `(3, 4, 10)` and the weights `(4, 3, 6)`.
#
# **Parameters.**
#
# - `in_proj_weight`, `(3E, E)`: the query, key and value weights stacked, in that order
#   (rows `0..E-1` for queries, `E..2E-1` for keys, `2E..3E-1` for values). Like an
#   `nn.Linear`, each block maps a row `v` to `v @ W.T + b`.
# - `in_proj_bias`, `(3E,)`: their three biases, in the same order.
# - `out_proj`, an `nn.Linear(E, E)` applied to the merged heads at the end.
#
# **Heads.** The $E$ projected features are cut into `num_heads` consecutive chunks of
# `head_dim = E // num_heads` (so `num_heads` must divide `E`); chunk $i$ is head $i$. Each
# head scales its scores by $1/\sqrt{d_h}$ with $d_h$ = `head_dim`, not by $1/\sqrt{E}$.
# A convenient layout is
# `(N * num_heads, T, head_dim)` with batch entry `n`'s heads next to each other: then
# `torch.bmm` runs every head of every sequence at once. After the weighted sum, merge the
# heads back to `(L, N, E)` (as in step 3: move the position axis first before reshaping)
# and apply `out_proj`.
#
# **Masks.** Both are optional and, when they are `bool`, `True` means *may not attend*:
# `key_padding_mask` `(N, S)` hides keys of one sequence (padding) from all its queries;
# `attn_mask` `(L, S)`, or `(N * num_heads, L, S)`, hides key $j$ from query $i$. Masked
# scores become $-\infty$ before the softmax, so their weights are exactly 0. A `float`
# mask is added to the scores as it is. The helper `as_additive(mask)` in the same cell
# turns a mask into the numbers to add.
#
# **Returned weights.** `nn.MultiheadAttention` returns the attention weights averaged over
# the heads, `(N, L, S)`; return the same.
#
# **Copying.** The classmethod `MultiHeadAttention.from_torch(mha)` builds a module of the
# same sizes and copies the four tensors of a `torch.nn.MultiheadAttention` into it (under
# `torch.no_grad()`, with `.copy_`). The hidden checks build PyTorch modules with random
# biases, copy them with your `from_torch`, and compare outputs and weights with and without
# masks. The stub also lists the helper methods `split_heads` and `score_bias`: use them,
# change them or delete them, as you like.
#
# **Rule for this step:** write the heads out. Your class may not use
# `nn.MultiheadAttention` (or mention it) or `F.multi_head_attention_forward`; in
# `from_torch` you only read the given module's tensors.

# %% solution MultiHeadAttention as_additive

# %% tests MultiHeadAttention points=4
L, N, E, S = 3, 4, 10, 6
torch.manual_seed(0)
module = MultiHeadAttention(E, 10)
query, key, value = torch.rand(L, N, E), torch.rand(S, N, E), torch.rand(S, N, E)
output, weights = module(query, key, value, key_padding_mask=None, attn_mask=None)
expect_tensor(output, (3, 4, 10), "the output, (L, N, E)")
expect_tensor(weights, (4, 3, 6), "the weights averaged over the heads, (N, L, S)")
shapes = {name: tuple(t.shape) for name, t in module.state_dict().items()}
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
hidden = torch.tensor([[False, False, False, True, True],  # query 0 may not see keys 3, 4
                       [True, False, False, False, False]])  # query 1 may not see key 0
output, weights = ours(query, key, value, attn_mask=hidden)
want_output, want_weights = theirs(query, key, value, attn_mask=hidden)
expect_close(output, want_output.detach(),
             "the output of a copy of nn.MultiheadAttention(6, 2), with an attn_mask")
expect_close(weights, want_weights.detach(), "its weights averaged over the 2 heads")
assert torch.all(weights[:, 0, 3:] == 0), "keys hidden by the attn_mask should get weight 0"
per_head = torch.rand(3 * 2, 2, 5) < 0.3  # an attn_mask of shape (N * num_heads, L, S)
per_head[..., 0] = False  # every query keeps a key
expect_close(ours(query, key, value, attn_mask=per_head)[0],
             theirs(query, key, value, attn_mask=per_head)[0].detach(),
             "the output with an attn_mask per sequence and head, (N * num_heads, L, S)")

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
# values for all heads and the heads are just slices of the embedding. The next assignment
# goes back to a single head and asks what else could score a key against a query.
