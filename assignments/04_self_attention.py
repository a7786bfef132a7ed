# %% [markdown]
# # Assignment 4: All queries at once
#
# In the previous assignment you followed a single query through attention: project it,
# score it against every key, scale, softmax, and mix the values. A sentence of six words
# needs that for six queries, and nothing about the recipe changes from one query to the
# next. So we stop looping and stack the queries as the rows of a matrix: one matrix product
# scores every query against every key, and one more mixes the values for all of them.
# Then we wrap the result in a PyTorch module that owns its weights.
#
# | step | you write | points |
# | --- | --- | --- |
# | 1 | `self_attention`: the contexts of every position, no loop | 4 |
# | 2 | `SelfAttention`: the same as an `nn.Module` with learnable weights | 2 |
#
# **Total: {total_points} points.** Each step has a stub that raises `NotImplementedError`;
# replace the body with your code. The test cell after each stub runs a few public checks
# you can see; when you hand in, hidden checks with other inputs run as well, so make your
# code correct in general, not just for the example.
#
# Conventions, as in the whole course: vectors are **rows**. A sequence is a tensor `x` of
# shape `(seq, d_in)`, a weight matrix is `(d_in, d_out)` and projecting is `x @ W`.
# Everything is `float32`.

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
# thousands of entries (here the table has 50,000 rows) and its vectors have thousands of
# dimensions (Llama 2 uses 4,096); we use 3 so that a whole sentence fits on one screen:
# `x` is a `6 x 3` matrix, one row per word.
#
# The projections give queries and keys of size $d_k = 2$ and values of size $d_v = 4$. The
# sizes differ on purpose: queries and keys must match, since we take their dot products,
# but the values may have any size. The weights are drawn uniformly from $[0, 1)$ under the
# same seed as in the original write-up, so the numbers you get can be compared with it.

# %% setup
sentence = "The sun rises in the east"
words = sentence.split()
token_ids = torch.tensor([0, 4, 3, 2, 5, 1])  # ids in the sorted vocabulary (assignment 2)

torch.manual_seed(123)
x = nn.Embedding(50_000, 3)(token_ids).detach()  # (6, 3), one row per word

torch.manual_seed(123)
W_query = torch.rand(3, 2)  # (d_in, d_k)
W_key = torch.rand(3, 2)  # (d_in, d_k)
W_value = torch.rand(3, 4)  # (d_in, d_v)

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
# `(6, 4)`; the scores and the weights `(6, 6)`; the result `Z` `(6, 4)`. Row 3 of `Z` (index
# 2, the word *rises*) is exactly the context vector you computed for query 3 alone in the
# previous assignment: nothing was lost by doing all rows together.
#
# Write `self_attention(x, W_query, W_key, W_value)` so that it also accepts leading batch
# dimensions, `x` of shape `(batch, seq, d_in)` giving `(batch, seq, d_v)`: transpose the
# last two dimensions of the keys (`keys.transpose(-2, -1)`) rather than using `.T`. Use
# `torch.softmax` for the softmax; read $d_k$ from the keys.
#
# **Rule for this step:** every query at once. A `for` or `while` loop, or a comprehension,
# in `self_attention` breaks the rule and the hidden checks reject it.

# %% solution self_attention

# %% tests self_attention points=4
context = self_attention(x, W_query, W_key, W_value)
expect_tensor(context, (6, 4), "the contexts of the six words")

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
batched = self_attention(torch.ones(2, 5, 3), W_query, W_key, W_value)
expect_tensor(batched, (2, 5, 4), "a batch of 2 sequences of 5 inputs")

# %% [markdown]
# The picture shows the weights behind these contexts: row $i$ is how word $i$ spreads its
# attention over the six words, and each row sums to 1. The cell below computes them the
# slow way, one query at a time as in the last assignment, so that the picture does not
# depend on your code (your `self_attention` must do all queries at once, without a loop).
# The weights are not trained yet, so do not look for meaning in them; look for the
# structure: every word attends to every word, itself included.

# %% code
queries, keys = x @ W_query, x @ W_key  # (6, 2), (6, 2)
rows = []
for query in queries:  # one word's query, (2,)
    scores = keys @ query / math.sqrt(keys.shape[-1])  # (6,)
    rows.append(torch.exp(scores - scores.max()) / torch.exp(scores - scores.max()).sum())
weights = torch.stack(rows)  # (6, 6): row i is word i's weights
fig, ax = plt.subplots(figsize=(5, 4))
image = ax.imshow(weights, cmap="viridis", vmin=0, vmax=1)
ax.set_xlabel("key (word attended to)")
ax.set_ylabel("query (word attending)")
ax.set_xticks(range(len(words)), words, rotation=45)
ax.set_yticks(range(len(words)), words)
fig.colorbar(image, ax=ax, label="weight")
ax.set_title("attention weights")
plt.show()

# %% [markdown]
# ## Step 2: a module that owns its weights
#
# In a network the three weight matrices are learned, so they belong to a module. A PyTorch
# module is a class that derives from `nn.Module`: its `__init__` first calls
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
#   the weights of the running example;
# - in `forward(x)`, return your `self_attention` of `x` with its own three weights, shape
#   `(seq, d_out_v)`.
#
# Calling the module, `module(x)`, runs `forward(x)`.

# %% solution SelfAttention

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
    "forward(x): self-attention with the module's own weights",
)

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
# by side, each with its own weights: multi-head attention.
