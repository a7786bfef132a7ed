# %% [markdown]
# # Assignment 6: How to score a key
#
# Every attention layer you have built so far decides how much query $i$ attends to input
# $j$ in the same way: the dot product of a query and a key, divided by $\sqrt{d_k}$. That
# is one choice among several. In this notebook you write four **scoring functions**, then
# build attention twice from the formula: once with a plain double loop that reads like the
# math, and once with matrix products and no loop at all. Both must give the same numbers.
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

# %% setup
import math

import matplotlib.pyplot as plt
import torch

# %% checks

# %% [markdown]
# ## A different convention for this notebook: inputs are columns
#
# The rest of the course stores a sequence with one input per **row** and multiplies
# weights from the right. This notebook follows a textbook that does the opposite: every
# input is a **column**, and weights multiply from the left. Nothing about attention
# changes; only the bookkeeping does. Side by side:
#
# | | rest of the course (rows) | this notebook (columns) |
# | --- | --- | --- |
# | inputs | `x`, shape `(seq, d_in)` | `X`, shape `(d1, N)` |
# | query weights | `W_query`, `(d_in, d_k)` | `W_Q`, `(d3, d1)` |
# | key weights | `W_key`, `(d_in, d_k)` | `W_K`, `(d3, d1)` |
# | value weights | `W_value`, `(d_in, d_v)` | `W_V`, `(d2, d1)` |
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
# The output for input $i$ is a weighted sum of the values, the weights coming from a
# **scoring function** $s$ that compares each key with query $i$:
#
# $$h_i = \sum_{j=1}^{N} \alpha_{ij}\, v_j, \qquad
# \alpha_{ij} = \operatorname{softmax}_j\big(s(k_j, q_i)\big)
# = \frac{e^{s(k_j, q_i)}}{\sum_{l=1}^{N} e^{s(k_l, q_i)}}.$$
#
# The softmax runs over the keys $j$, so for each query the weights sum to 1.

# %% [markdown]
# ## The running example
#
# The textbook's example draws, right after `torch.manual_seed(0)`, an input of four
# columns of size 4, then the three weight matrices in the order queries, keys, values,
# with $d_2 = d_3 = 10$. Here $X$ happens to be square ($d_1 = N = 4$): keep the roles of
# its two axes apart anyway, since the hidden checks use sizes that all differ.

# %% setup
torch.manual_seed(0)
X = torch.randn(4, 4)  # (d1, N): four inputs of size 4, one per column
W_Q = torch.randn(10, 4)  # (d3, d1)
W_K = torch.randn(10, 4)  # (d3, d1)
W_V = torch.randn(10, 4)  # (d2, d1)
print(X)

# %% [markdown]
# ## Step 1: the dot score
#
# The simplest score multiplies a key and a query entry by entry and adds up the products:
#
# $$s(k, q) = k^\top q = \sum_{m=1}^{d} k_m q_m.$$
#
# It needs keys and queries of the same size $d$ and has nothing to learn. `k` and `q` are
# 1-D tensors of shape `(d,)`; the score is a single number, returned as a 0-dim tensor
# (what `torch.dot` or `(k * q).sum()` give you).
#
# Example: $k = [1, 2, 3]$ and $q = [4, -5, 6]$ give $4 - 10 + 18 = 12$.

# %% solution dot_score

# %% tests dot_score points=1
k, q = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, -5.0, 6.0])
expect_close(dot_score(k, q), 12.0, "dot_score([1, 2, 3], [4, -5, 6])",
             mistakes=[("elementwise product not summed", [4.0, -10.0, 18.0])])
expect_tensor(dot_score(torch.ones(7), torch.ones(7)), (), "the score of two 7-d vectors")

# %% [markdown]
# ## Step 2: the scaled dot score
#
# When the entries of $k$ and $q$ are independent with mean 0 and variance 1, their dot
# product has variance $d$: the longer the vectors, the more spread out the scores, and the
# closer the softmax comes to putting all weight on a single key. Dividing by the standard
# deviation $\sqrt{d}$ brings the spread back to 1 whatever the size:
#
# $$s(k, q) = \frac{k^\top q}{\sqrt{d}}.$$
#
# This is the score of the Transformer, and the one every other notebook of the course
# uses. Here $d$ is the length of the vectors, `k.shape[0]`.
#
# Example: $k = [1, 2, 3, 4]$ and $q = [2, 0, 1, 1]$ give $k^\top q = 9$ and $d = 4$, so the
# score is $9 / 2 = 4.5$.

# %% solution scaled_dot_score

# %% tests scaled_dot_score points=1
k, q = torch.tensor([1.0, 2.0, 3.0, 4.0]), torch.tensor([2.0, 0.0, 1.0, 1.0])
expect_close(scaled_dot_score(k, q), 4.5, "scaled_dot_score([1, 2, 3, 4], [2, 0, 1, 1])",
             mistakes=[("scaled by d instead of sqrt(d)", 2.25), ("not scaled", 9.0)])
expect_tensor(scaled_dot_score(torch.ones(9), torch.ones(9)), (), "the score of two 9-d vectors")

# %% [markdown]
# ## Step 3: the additive score
#
# The additive score (the one of the first attention models for translation) lets a tiny
# network with one hidden layer judge the pair. The key and the query are each mapped into
# a hidden space of size $d_a$, added, squashed by $\tanh$, and read out by a vector $v$:
#
# $$s(k, q) = v^\top \tanh(W k + U q).$$
#
# Shapes: $k$ is `(d_k,)`, $q$ is `(d_q,)`, $W$ is `(d_a, d_k)`, $U$ is `(d_a, d_q)` and
# $v$ is `(d_a,)`. Keys and queries may have different sizes here, because each has its
# own matrix. Since $\tanh$ lies between $-1$ and $1$, the score can never exceed
# $\sum_m |v_m|$ in size.
#
# Example with $d_k = 2$, $d_q = 3$, $d_a = 4$: the matrices below give $W k = [1, 2, 0, -1]$
# and $U q = [-1, 0, 1, 1]$, so $W k + U q = [0, 2, 1, 0]$. With $v = [5, 1, 1, 5]$ only the
# middle entries count: $\tanh 2 + \tanh 1 \approx 0.9640 + 0.7616 = 1.7256$.

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

# %% [markdown]
# ## Step 4: the bilinear score
#
# The bilinear score puts a learned matrix between the two vectors:
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

# %% solution bilinear_score

# %% tests bilinear_score points=2
k, q = torch.tensor([1.0, -1.0]), torch.tensor([1.0, 2.0, 3.0])
W = torch.tensor([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # (d_k, d_q) = (2, 3)
expect_close(bilinear_score(k, q, W), -2.0, "bilinear_score of the example")
expect_tensor(bilinear_score(torch.ones(4), torch.ones(6), torch.ones(4, 6)), (),
              "the score with d_k = 4, d_q = 6")

# %% [markdown]
# ## Step 5: attention with a double loop
#
# Now put a score to work. `loop_attention(X, W_Q, W_K, W_V)` computes $H$ exactly as the
# formula reads, in the column convention above:
#
# 1. project all inputs at once: $Q = W_Q X$, $K = W_K X$, $V = W_V X$;
# 2. for each query $i$: score every key $j$ against it with `scaled_dot_score(K[:, j], Q[:, i])`,
#    turn the $N$ scores into weights with `torch.softmax(..., dim=0)`, and add up
#    $\alpha_{ij} v_j$ over $j$;
# 3. put $h_i$ into column $i$ of the output, shape `(d2, N)`.
#
# `torch.stack` turns a list of 0-dim scores into a 1-D tensor, and `torch.stack(columns, dim=1)`
# a list of columns into a matrix.
#
# **Rule for this step:** the point is to see the loop, so `loop_attention` must contain a
# Python loop over queries and keys and must score with your `scaled_dot_score`. A version
# without either scores 0 points (when it is checked, `scaled_dot_score` is replaced by the
# reference, so a mistake in step 2 does not cost you these points too).
#
# A case you can check in your head: if $W_Q$ is all zeros, every score is 0, every weight
# is $1/N$, and every output column is the mean of the values.

# %% solution loop_attention

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

# %% [markdown]
# The weights $\alpha_{ij}$ of the running example, one row per query, computed with your
# `scaled_dot_score` (the softmax here runs along each row, over the keys):

# %% code
Q, K = W_Q @ X, W_K @ X  # (d3, N) each
n_inputs = X.shape[1]
scores = torch.tensor([[float(scaled_dot_score(K[:, j], Q[:, i])) for j in range(n_inputs)]
                       for i in range(n_inputs)])  # (query i, key j)
weights = torch.softmax(scores, dim=1)
fig, ax = plt.subplots(figsize=(3.5, 3))
image = ax.imshow(weights, cmap="viridis", vmin=0, vmax=1)
ax.set_xlabel("key j (input attended to)")
ax.set_ylabel("query i (input attending)")
ax.set_xticks(range(n_inputs), [str(j + 1) for j in range(n_inputs)])
ax.set_yticks(range(n_inputs), [str(i + 1) for i in range(n_inputs)])
fig.colorbar(image, ax=ax, label="weight")
ax.set_title("attention weights (seed 0)")
plt.show()

# %% [markdown]
# ## Step 6: the same attention without a loop
#
# The loop calls the score $N^2$ times, one Python call each. All those scores are the
# entries of a single matrix product: entry $(j, i)$ of $K^\top Q$ is $k_j^\top q_i$, so
#
# $$S = \frac{K^\top Q}{\sqrt{d_3}} \in \mathbb{R}^{N \times N}$$
#
# holds every scaled score, one **row per key** and one **column per query**. The weights of
# query $i$ are column $i$ of $S$ put through a softmax, so the softmax must run down the
# columns. Then $h_i = \sum_j \alpha_{ij} v_j$ for every $i$ at once is one more product of
# $V$, shape `(d2, N)`, with that `(N, N)` weight matrix, giving $H$ of shape `(d2, N)`.
# Think about which axis is which before you pick the `dim` of the softmax: with the square
# running example both choices run without an error, and only one is right.
#
# **Rule for this step:** `vectorized_attention` may contain no Python loop (no `for`,
# `while` or comprehension) and may not call `loop_attention` or `scaled_dot_score`;
# breaking it scores 0 points. It must return the same $H$ as `loop_attention`.

# %% solution vectorized_attention

# %% tests vectorized_attention points=3
H = vectorized_attention(X, W_Q, W_K, W_V)
expect_tensor(H, (10, 4), "H for the running example (d2 = 10, N = 4)")
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

# %% [markdown]
# How much does the loop cost? Time both on 64 inputs, best of three runs (the numbers
# depend on your machine):

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

# %% [markdown]
# ## What you learned
#
# - Attention is $h_i = \sum_j \operatorname{softmax}_j(s(k_j, q_i))\, v_j$; the scoring
#   function $s$ is a design choice. Dot and scaled dot scores have no parameters of their
#   own; the additive and bilinear scores learn matrices, and let keys and queries differ in
#   size.
# - The scaled dot score wins in practice because all $N^2$ scores come out of one matrix
#   product, as your vectorized version shows.
# - Rows or columns is only bookkeeping: the column layout here is the transpose of the row
#   layout used everywhere else, $H = Z^\top$ with $Z$ the row-convention output for $x = X^\top$
#   and weights $W_Q^\top, W_K^\top, W_V^\top$.
