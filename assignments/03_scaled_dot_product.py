# %% [markdown]
# # Assignment 3: One query, step by step
#
# In the first assignment the attention scores went into the softmax exactly as they came
# out of the dot products. That works for tiny integer examples, but with realistic vector
# sizes the scores grow large and the softmax hands almost all of the attention to a single
# word. The fix is one division, by $\sqrt{d_k}$, and it gives the operation its name:
# **scaled dot-product attention**.
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
# Conventions used in the whole course: vectors are **rows**. A sequence of `seq` inputs of
# size `d_in` is a tensor `x` of shape `(seq, d_in)`, a weight matrix is `(d_in, d_out)` and
# projecting is `x @ W`. Everything is `float32`.

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
# drawn under seed 123. Then three weight matrices, drawn under seed 123 again, with
# uniform random entries in $[0, 1)$. Queries and keys get $d_k = 2$ numbers, values
# $d_v = 4$: the two sizes do not have to agree.

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
# - Some texts store a weight matrix the other way round, as `(d_out, d_in)`, and write
#   `W @ x` for a column vector `x`. In our row convention that is `project(x, W.T)`.
#   When unsure which one you have, print the shapes and make the inner sizes meet.
# - The scores of one query against all keys are a projection too: the query times the
#   transposed keys, $\omega = q K^\top$, is `project(query, keys.T)`.

# %% solution project

# %% tests project points=1
x_small = torch.tensor([[1.0, 2.0, 0.0], [0.0, 1.0, 3.0]])
W_small = torch.tensor([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]])
projected = project(x_small, W_small)
expect_tensor(projected, (2, 2), "a (2, 3) input projected by a (3, 2) weight")
expect_close(projected, [[1.0, 2.0], [6.0, 4.0]], "project(x_small, W_small)")
expect_close(project(x_small[0], W_small), [1.0, 2.0], "the projection of one row")
expect_tensor(project(torch.ones(4, 2, 3), W_small), (4, 2, 2), "a batch of 4 sequences")

# %% [markdown]
# Now follow the third word, "rises". Its query is compared with the key of every word,
# including its own. Run the cell below: "rises" should score highest against the fifth
# word ("the") and lowest against the second ("sun"). These raw scores are often called
# the *unnormalised attention weights* $\omega$.

# %% code
query_3 = project(x[2], W_query)  # (d_k,)
keys = project(x, W_key)  # (6, d_k)
values = project(x, W_value)  # (6, d_v)
omega_3 = project(query_3, keys.T)  # (6,): one score per word
print("query:", tuple(query_3.shape), "keys:", tuple(keys.shape), "values:", tuple(values.shape))
print("scores of 'rises':", omega_3)
print("highest:", words[int(omega_3.argmax())], " lowest:", words[int(omega_3.argmin())])

# %% [markdown]
# ## Step 2: why divide by $\sqrt{d_k}$
#
# Suppose the entries of a query and a key are independent, with mean 0 and variance 1.
# Their dot product $q \cdot k = \sum_{m=1}^{d_k} q_m k_m$ adds up $d_k$ such products, so
# its variance is $d_k$ and its typical size is $\sqrt{d_k}$. The longer the keys, the
# larger the scores, and a softmax of large numbers is nearly one-hot: the largest score
# takes almost all the weight, the others get almost none, and during training their
# gradients all but vanish. Dividing by $\sqrt{d_k}$ brings the spread back to about 1,
# whatever the key size:
#
# $$a = \operatorname{softmax}\!\left(\frac{\omega}{\sqrt{d_k}}\right),
# \qquad a_j = \frac{e^{\omega_j/\sqrt{d_k}}}{\sum_{l} e^{\omega_l/\sqrt{d_k}}}.$$
#
# The scaling corrects for the key size and nothing else. In the variant of our example
# with the sentence "Life is short, eat dessert last", 16-number embeddings and weights drawn
# from a standard normal distribution ($d_k = 24$, $d_v = 28$), the scores of the second
# word run from about $-144$ to $160$. Even divided by $\sqrt{24} \approx 4.9$ the top score
# stays more than 20 above the next one, and the softmax gives one word a weight of 1.0000
# to four decimals: it is *saturated*. Trained models keep their weights small enough to
# avoid this.
#
# **Rule for this step:** divide the scores by `math.sqrt(d_k)` (the square root, not
# `d_k` itself) and take the softmax over the **last** dimension (`dim=-1`), so that the
# function works for one query's scores `(seq,)`, for many queries `(n, seq)` and for
# batches `(..., n, seq)` alike. You may use `torch.softmax` here.

# %% solution scaled_softmax

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

# %% [markdown]
# Back to "rises": with $d_k = 2$ the scores shrink by a factor $\sqrt 2$ before the
# softmax. The weights are positive, sum to 1, and the fifth word still gets the most.

# %% code
weights_3 = scaled_softmax(omega_3, d_k)
print("weights of 'rises':", weights_3)
print("sum:", float(weights_3.sum()))

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

# %% solution scaled_dot_product_attention

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

# %% [markdown]
# Your function against PyTorch's, on all six words of the running example at once (PyTorch
# returns only the context), and the context vector of "rises":

# %% code
queries = project(x, W_query)  # (6, d_k)
keys = project(x, W_key)  # (6, d_k)
values = project(x, W_value)  # (6, d_v)
context, weights = scaled_dot_product_attention(queries, keys, values)
print("same as PyTorch:", torch.allclose(context, F.scaled_dot_product_attention(queries, keys, values), atol=1e-6))
print("context of 'rises':", context[2])

# %% [markdown]
# Each row of the picture is one word attending to all six. With keys of only two numbers
# and weights drawn from $[0, 1)$, the scores stay small and most rows spread their weight
# over several words, unlike the saturated example of step 2. Only "sun" clearly prefers
# one key: its own.

# %% code
fig, ax = plt.subplots(figsize=(4.5, 3.8))
image = ax.imshow(weights.detach(), cmap="viridis", vmin=0, vmax=1)
ax.set_xlabel("key (word attended to)")
ax.set_ylabel("query (word attending)")
ax.set_xticks(range(len(words)), words, rotation=45)
ax.set_yticks(range(len(words)), words)
fig.colorbar(image, ax=ax, label="weight")
ax.set_title("scaled dot-product attention weights")
plt.show()

# %% [markdown]
# ## What you built
#
# $$\operatorname{Attention}(Q, K, V) = \operatorname{softmax}\!\left(\frac{Q K^\top}
# {\sqrt{d_k}}\right) V, \qquad Q = x W_Q,\; K = x W_K,\; V = x W_V,$$
#
# with an optional mask that removes keys from a query's view. The next assignment runs it
# for every word of a sentence at once, with no loop, and wraps the weights in an
# `nn.Module`.
