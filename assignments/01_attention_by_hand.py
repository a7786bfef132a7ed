# %% [markdown]
# # Assignment 1: Attention by hand
#
# Self-attention lets every word of a sentence gather information from every other word.
# Before any learning, embedding tables or multiple heads, it is just five small steps of
# arithmetic. In this notebook you carry them out on three tiny integer inputs, small enough
# that you can check every number with pencil and paper.
#
# | step | you write | points |
# | --- | --- | --- |
# | 1 | `project_qkv`: queries, keys and values | 2 |
# | 2 | `attention_scores`: how well each query matches each key | 2 |
# | 3 | `stable_softmax`: turning scores into weights | 3 |
# | 4 | `weighted_values`: every value scaled by its weight | 2 |
# | 5 | `context_vectors`: the weighted sum, one output per input | 1 |
#
# **Total: {total_points} points.** Each step has a stub that raises `NotImplementedError`;
# replace the body with your code. The test cell after each stub runs a few public checks
# you can see; when you hand in, hidden checks with other inputs run as well, so make your
# code correct in general, not just for the example.
#
# Conventions used in the whole course: vectors are **rows**. A sequence of `seq` inputs of
# size `d_in` is a tensor `x` of shape `(seq, d_in)`, a weight matrix is `(d_in, d_out)` and
# projecting is `x @ W`. Everything is `float32`.

# %% setup
import math

import matplotlib.pyplot as plt
import torch

# %% checks

# %% [markdown]
# ## The running example
#
# Three inputs of four features each, and three weight matrices, one per role. We keep them
# as integers so the arithmetic stays readable.

# %% setup
x = torch.tensor([[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]], dtype=torch.float32)
W_key = torch.tensor([[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]], dtype=torch.float32)
W_query = torch.tensor([[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]], dtype=torch.float32)
W_value = torch.tensor([[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]], dtype=torch.float32)

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

# %% solution project_qkv

# %% tests project_qkv points=2
queries, keys, values = project_qkv(x, W_query, W_key, W_value)
expect_tensor(queries, (3, 3), "queries")
expect_tensor(values, (3, 3), "values")
expect_close(keys[0], [0.0, 1.0, 1.0], "the key of input 1",
             mistakes=[("query and key weights swapped", [1.0, 0.0, 2.0])])
expect_close(values[0], [1.0, 2.0, 3.0], "the value of input 1")

# %% [markdown]
# ## Step 2: attention scores
#
# How much should input $i$ attend to input $j$? The first guess of attention is the dot
# product of $i$'s query with $j$'s key: large when they point the same way.
#
# $$\omega_{ij} = q_i \cdot k_j \qquad\text{or, for all pairs at once,}\qquad \Omega = Q K^\top$$
#
# Row $i$ of $\Omega$ belongs to query $i$ and has one score per key. One query of shape
# `(d_k,)` gives `(seq,)` scores; `n` queries of shape `(n, d_k)` give `(n, seq)`. Write it
# so that leading batch dimensions also work: transpose the last two dimensions of the keys
# (`keys.transpose(-2, -1)`) rather than using `.T`.
#
# Query 1 is $[1, 0, 2]$; its score against key 2, $[4, 4, 0]$, is $1\cdot4 + 0\cdot4 + 2\cdot0 = 4$.

# %% solution attention_scores

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

# %% [markdown]
# ## Step 3: a softmax that never overflows
#
# Scores can be any real numbers; weights should be positive and sum to 1. The softmax does
# exactly that:
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
# Choose $m = \max_k s_k$: now every exponent is at most 0 and nothing overflows.
#
# **Rule for this step:** write the softmax yourself with `torch.exp` and a sum. Calling
# `torch.softmax`, `F.softmax` or `Tensor.softmax` here scores 0 points. Normalise along the
# dimension `dim` the caller names (keep it with `keepdim=True` so the shapes broadcast).

# %% solution stable_softmax

# %% tests stable_softmax points=3
weights = stable_softmax(torch.tensor([[2.0, 4.0, 4.0]]))
expect_close(weights, [[0.0634, 0.4683, 0.4683]], "softmax of query 1's scores [2, 4, 4]")
expect_close(weights.sum(dim=-1), [1.0], "the sum of the weights")
big = stable_softmax(torch.tensor([1e4, 0.0, -1e4]))
assert torch.isfinite(big).all(), f"scores of 1e4 gave {big}: subtract the maximum first"
columns = stable_softmax(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), dim=0)
expect_close(columns.sum(dim=0), [1.0, 1.0], "with dim=0, each column's sum",
             mistakes=[("softmax over the wrong dim", [0.5379, 1.4621])])

# %% [markdown]
# The softmax of the scores `[2, 4, 4]` puts about 6 % of query 1's attention on input 1 and
# 47 % on each of the other two. The picture below shows every query's weights, one row per
# query, once your `stable_softmax` works.

# %% code
weights = stable_softmax(attention_scores(x @ W_query, x @ W_key))
fig, ax = plt.subplots(figsize=(3.5, 3))
image = ax.imshow(weights.detach(), cmap="viridis", vmin=0, vmax=1)
ax.set_xlabel("key (input attended to)")
ax.set_ylabel("query (input attending)")
ax.set_xticks(range(3), ["1", "2", "3"])
ax.set_yticks(range(3), ["1", "2", "3"])
fig.colorbar(image, ax=ax, label="weight")
ax.set_title("attention weights")
plt.show()

# %% [markdown]
# ## Step 4: weighting the values
#
# Each value is now scaled by the weight a query gives it. To keep the numbers easy to
# follow, round the weights first, as in the hand calculation: query 1's weights become
# $[0.0, 0.5, 0.5]$. Then
#
# - value 1: $0.0 \cdot [1, 2, 3] = [0, 0, 0]$,
# - value 2: $0.5 \cdot [2, 8, 0] = [1, 4, 0]$,
# - value 3: $0.5 \cdot [2, 6, 3] = [1, 3, 1.5]$.
#
# `weighted_values(weights, values)` does this for every query at once and returns a tensor
# of shape `(n_keys, n_queries, d_v)` whose element `[j, i]` is `weights[i, j] * values[j]`.
# Broadcasting does it without a loop: give `values` a query axis and the transposed weights
# a feature axis.

# %% solution weighted_values

# %% tests weighted_values points=2
rounded = torch.tensor([[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]])
values = x @ W_value
weighted = weighted_values(rounded, values)
expect_tensor(weighted, (3, 3, 3), "the weighted values")
expect_close(weighted[:, 0], [[0.0, 0.0, 0.0], [1.0, 4.0, 0.0], [1.0, 3.0, 1.5]],
             "the weighted values of query 1 (weighted[:, 0])")
shape_check = weighted_values(torch.ones(2, 5) / 5, torch.ones(5, 4))
expect_tensor(shape_check, (5, 2, 4), "2 queries over 5 values of size 4")

# %% [markdown]
# ## Step 5: context vectors
#
# Adding up the weighted values gives the output for query 1:
# $[0, 0, 0] + [1, 4, 0] + [1, 3, 1.5] = [2, 7, 1.5]$. In general the output for query $i$
# is
#
# $$z_i = \sum_j a_{ij} v_j, \qquad\text{all at once:}\qquad Z = A V,$$
#
# with $A$ of shape `(n_queries, n_keys)` and $V$ of shape `(n_keys, d_v)`. Summing
# `weighted_values` over its first axis gives the same thing, but a single matrix product
# is how it is always written. A single query's weights, shape `(n_keys,)`, give a single
# output of shape `(d_v,)`.

# %% solution context_vectors

# %% tests context_vectors points=1
rounded = torch.tensor([[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]])
outputs = context_vectors(rounded, x @ W_value)
expect_tensor(outputs, (3, 3), "the outputs")
expect_close(outputs[0], [2.0, 7.0, 1.5], "output 1")
expect_tensor(context_vectors(rounded[0], x @ W_value), (3,), "the output of one query")

# %% [markdown]
# ## What you built
#
# Put together, the five steps are the whole of (unscaled) self-attention:
#
# $$Z = \operatorname{softmax}(Q K^\top)\, V, \qquad Q = x W_Q,\; K = x W_K,\; V = x W_V.$$
#
# The next assignments start from real sentences, add the scaling by $1/\sqrt{d_k}$ that
# keeps the softmax from saturating, and then run many attention heads side by side.
