"""Hypothesis strategies and random-tensor helpers for the property tests of ``solutions``.

Sizes are drawn distinct (so no two dimensions are equal, every matrix is non-square and a
transpose or a swapped Q/K cannot pass by luck); tensors come from a ``torch.Generator``
seeded by a drawn integer, so a failing example reports a seed that reproduces it and the
global torch generator is never touched.
"""

from typing import NamedTuple

import torch
from hypothesis import settings
from hypothesis import strategies as st

# Modest and without a deadline: the whole suite stays fast on two cores, and a cold first
# torch call cannot fail a test on time alone.
PROPERTIES = settings(max_examples=25, deadline=None)

# For two float32 computations of one value in a different order (ours against PyTorch's, a
# batch against a loop): far tighter than any real mistake (a missing 1/sqrt(d_k) is off by
# tens of percent), loose enough for sums of products of ten normal values rounded twice.
NEAR = {"rtol": 1e-4, "atol": 1e-5}

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def distinct_sizes(count, min_value=2, max_value=9):
    """``count`` pairwise distinct sizes in [min_value, max_value], as a tuple."""
    return st.lists(
        st.integers(min_value, max_value), min_size=count, max_size=count, unique=True
    ).map(tuple)


class AttentionSizes(NamedTuple):
    """One draw of every size an attention step has; all seven are distinct."""

    batch: int
    heads: int
    n_queries: int
    n_keys: int
    d_in: int
    d_k: int
    d_v: int


def attention_sizes():
    """Sizes for attention: batch >= 2, heads >= 2, all distinct (n_queries != n_keys ...)."""
    return distinct_sizes(7, min_value=2, max_value=10).map(lambda s: AttentionSizes(*s))


class MultiheadSizes(NamedTuple):
    """Sizes for a sequence-first multi-head module: E = heads * head_dim."""

    heads: int
    head_dim: int
    L: int
    S: int
    N: int

    @property
    def E(self):
        return self.heads * self.head_dim


def multihead_sizes():
    """heads >= 2, head_dim, target length L, source length S and batch N >= 2, distinct."""
    return distinct_sizes(5, min_value=2, max_value=7).map(lambda s: MultiheadSizes(*s))


def generator(seed):
    """A fresh CPU generator seeded with ``seed``."""
    return torch.Generator().manual_seed(seed)


def randn(gen, *shape):
    """Standard normal float32 values of the given shape from ``gen``."""
    return torch.randn(*shape, generator=gen)


def weights_for(sizes, gen):
    """W_query, W_key (d_in, d_k) and W_value (d_in, d_v) for these sizes."""
    W_query = randn(gen, sizes.d_in, sizes.d_k)
    W_key = randn(gen, sizes.d_in, sizes.d_k)
    W_value = randn(gen, sizes.d_in, sizes.d_v)
    return W_query, W_key, W_value


def random_mask(gen, *shape, keep_one=True):
    """A random bool mask (True = masked) of the given shape, about half True.

    With ``keep_one`` one random position of every row (the last dim) is left unmasked, so no
    row is masked whole.
    """
    mask = torch.rand(*shape, generator=gen) < 0.5
    if keep_one:
        keep = torch.randint(shape[-1], (*shape[:-1], 1), generator=gen)
        mask.scatter_(-1, keep, False)
    return mask
