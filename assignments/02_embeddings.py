# %% [markdown]
# # Assignment 2: From words to vectors
#
# Attention works on vectors, but a sentence is a string. Before any attention can happen,
# each word has to become a row of numbers. This notebook builds that path in three short
# steps: a vocabulary that numbers the words, a function that turns a sentence into those
# numbers, and an embedding table that turns each number into a vector.
#
# | step | you write | points |
# | --- | --- | --- |
# | 1 | `build_vocab`: number the distinct words of a sentence | 2 |
# | 2 | `encode`: a sentence as a tensor of word ids | 1 |
# | 3 | `embed`: ids to vectors with a seeded embedding table | 2 |
#
# **Total: {total_points} points.** Each step has a stub that raises `NotImplementedError`;
# replace the body with your code. The test cell after each stub runs a few public checks
# you can see; when you hand in, hidden checks with other sentences and sizes run as well,
# so make your code correct in general, not just for the examples.
#
# Conventions used in the whole course: vectors are **rows**, so a sentence of `seq` words
# embedded in `dim` numbers each is a tensor of shape `(seq, dim)`. Floating-point tensors
# are `float32`; ids are integers (`torch.long`).

# %% setup
import string
import unicodedata

import torch
from torch import nn

# %% checks

# %% [markdown]
# ## The running examples
#
# Three short sentences come back again and again in this course:
#
# - "Life is short, eat dessert first"
# - "The sun rises in the east"
# - "Life is short, eat dessert last"
#
# The first and the last differ in a single word, which makes it easy to watch how one
# changed word moves its id. The middle one contains both "The" and "the": to a computer
# these are two different strings, and we will keep them apart.
#
# ## Step 0 (given): splitting a sentence into words
#
# A word should not change because a comma happens to follow it: "short," and "short" are
# the same word. The helper below, which you do not have to write, deletes every character
# listed in `string.punctuation` (commas, full stops, question marks and so on) and every
# other character Unicode classes as punctuation (the Chinese ，。！？、「」, the ellipsis …,
# the guillemets « »), and then splits on white space. It leaves capital letters and other
# symbols (€, +) alone. Both of your first two functions should call it:
#
# ```python
# >>> split_words("Life is short, eat dessert first")
# ['Life', 'is', 'short', 'eat', 'dessert', 'first']
# >>> split_words("«Life» is short… eat dessert！")
# ['Life', 'is', 'short', 'eat', 'dessert']
# ```

# %% given split_words

# %% [markdown]
# ## Step 1: a vocabulary
#
# A vocabulary is a dictionary from each distinct word to a whole number, its **id**. Real
# models use vocabularies of tens of thousands of words built from a large text collection.
# We keep things small and build it from the one sentence at hand.
#
# Which word gets which number? Any fixed rule would do, but everybody has to use the same
# one, or the ids (and everything computed from them later) will not match. Ours:
#
# **Rule for this step:** take the words given by `split_words`, keep each distinct word
# once, sort them with Python's own `sorted` (no `key`, no lower-casing), and number them
# 0, 1, 2, ... in that order.
#
# Python compares strings character by character by their code points, and every capital
# letter comes before every lower-case letter. So "Life" sorts before "dessert", and "The"
# before "east". For the first sentence the order is Life, dessert, eat, first, is, short,
# so "Life" gets id 0 and "short" gets id 5. Notice that the order in which the words
# appear in the sentence plays no role at all.

# %% solution build_vocab

# %% tests build_vocab points=2
vocab = build_vocab("Bob saw Alice, Alice saw Bob.")
assert isinstance(vocab, dict), f"build_vocab should return a dict, but it returned a {type(vocab).__name__}"
assert "Alice," not in vocab and "Bob." not in vocab, (
    f"punctuation kept: {vocab} has words with punctuation attached; use split_words"
)
assert vocab != {"Bob": 0, "saw": 1, "Alice": 2}, (
    "unsorted vocabulary: the words are numbered in the order they appear; sort them first"
)
assert vocab == {"Alice": 0, "Bob": 1, "saw": 2}, (
    f"expected {{'Alice': 0, 'Bob': 1, 'saw': 2}}, got {vocab}"
)
wide = build_vocab("「Bob」 saw Alice， Alice saw Bob。")
assert wide == {"Alice": 0, "Bob": 1, "saw": 2}, (
    f"Unicode punctuation (「」，。) is punctuation too; use split_words; got {wide}")
mixed = build_vocab("the cat saw The Dog")
assert mixed == {"Dog": 0, "The": 1, "cat": 2, "saw": 3, "the": 4}, (
    f"capitals sort before lower case and 'The' and 'the' are two words; got {mixed}"
)

# %% [markdown]
# ## Step 2: a sentence as ids
#
# With a vocabulary in hand, a sentence becomes the list of its words' ids, in the order the
# words appear. We store it as a tensor of integers (`dtype=torch.long`), the type PyTorch
# expects for indices. "Life is short, eat dessert first" has six words, so its ids form a
# tensor of shape `(6,)`; the first entry is 0, because "Life" has id 0.
#
# The vocabulary you are given may hold more words than the sentence, so look each word up
# in it rather than building a new one. A word that is not in the vocabulary has no id: in
# that case raise a `KeyError` whose message names the word (a plain dictionary lookup
# `vocab[word]` already does exactly that).

# %% solution encode

# %% tests encode points=1
vocab = {"Alice": 0, "Bob": 1, "saw": 2}
ids = encode("Alice saw Bob!", vocab)
expect_tensor(ids, (3,), "the ids of 'Alice saw Bob!'", dtype=torch.long)
assert ids.tolist() == [0, 2, 1], f"expected the ids [0, 2, 1], got {ids.tolist()}"
repeated = encode("Bob saw Bob", vocab)
assert repeated.tolist() == [1, 2, 1], (
    f"expected [1, 2, 1] (the ids of the vocabulary you are given), got {repeated.tolist()}"
)
try:
    encode("Alice saw Carol", vocab)
except KeyError as error:
    assert "Carol" in str(error), f"the KeyError should name the unknown word; it says {error}"
else:
    raise AssertionError("'Carol' is not in the vocabulary: encode should raise a KeyError")

# %% [markdown]
# ## Step 3: ids to vectors
#
# An embedding is a table with one row per word of the vocabulary, `vocab_size` rows of
# `dim` numbers each. Embedding a sentence just means looking up the row of each of its ids:
# ids of shape `(seq,)` give vectors of shape `(seq, dim)`. (It is the same as multiplying a
# one-hot vector by the table, without ever building the one-hot vector.)
#
# PyTorch's `nn.Embedding(vocab_size, dim)` is such a table. It fills itself with random
# numbers from a standard normal distribution **at the moment it is created**; during
# training those numbers would be learned. Calling the module on a tensor of ids returns the
# rows.
#
# Random numbers make results hard to compare, so we fix them: `torch.manual_seed(seed)`
# resets PyTorch's random number generator, and the same seed always yields the same table.
# The first sentence, embedded with seed 123 into 16 numbers per word, gives a `(6, 16)`
# tensor; the sun sentence with a table of 50 000 rows of 3 numbers gives a `(6, 3)` one.
# Only the 6 rows that are looked up are ever used, but the size of the table still
# matters: PyTorch draws the whole table at once, and which random number lands in which row
# depends on the table's shape. Under the same seed, `nn.Embedding(6, 3)` and
# `nn.Embedding(50_000, 3)` give different rows, so pass the real `vocab_size`.
#
# **Rule for this step:** call `torch.manual_seed(seed)` first, *then* create
# `nn.Embedding(vocab_size, dim)`, look up the ids and return the result `.detach()`ed. The
# vectors are input data for the next notebooks, not parameters we want to train here, so
# they should carry no gradient history.

# %% solution embed

# %% tests embed points=2
torch.manual_seed(0)  # pretend some other random numbers were drawn before
vectors = embed(torch.tensor([2, 0]), 3, 2)
expect_tensor(vectors, (2, 2), "embed(tensor([2, 0]), vocab_size=3, dim=2)")
assert not vectors.requires_grad, "the vectors should be detached (requires_grad False)"
expect_close(vectors, [[-1.1969, 0.2093], [-0.1115, 0.1204]],
             "rows 2 and 0 of the seed-123 table of 3 rows and 2 columns",
             mistakes=[("embedding made before seeding",
                        [[-1.0845, -1.3986], [1.5410, -0.2934]])])
other_seed = embed(torch.tensor([2, 0]), 3, 2, seed=7)
assert not torch.allclose(other_seed, vectors), "a different seed should give a different table"
expect_tensor(embed(torch.tensor([0, 4, 5, 2, 1, 3]), 6, 16), (6, 16), "the (6, 16) embedding")

# %% [markdown]
# ## Try it on the sun sentence
#
# The cell below runs all three steps on "The sun rises in the east" with the table sizes of
# the notebook this example comes from: a vocabulary of 50 000 rows and 3 numbers per word.
# Each printed row is one word, in the order of the sentence; the two rows of "The" and
# "the" differ because they are different words with different ids.

# %% code
sun = "The sun rises in the east"
sun_vocab = build_vocab(sun)
sun_ids = encode(sun, sun_vocab)
print(sun_vocab)
print(sun_ids)
print(embed(sun_ids, 50_000, 3))

# %% [markdown]
# ## What you built
#
# $$\text{sentence} \xrightarrow{\ \texttt{split\_words}\ } \text{words}
# \xrightarrow{\ \texttt{encode}\ } \text{ids} \in \{0, \dots, V-1\}^{\text{seq}}
# \xrightarrow{\ \texttt{embed}\ } x \in \mathbb{R}^{\text{seq} \times \text{dim}}$$
#
# The rows of $x$ are the inputs of attention. The next notebook takes one of them, turns
# it into a query, and asks how strongly it should attend to every word of the sentence.
