"""The documents' worked examples as fixtures: their inputs and weights, drawn as they draw them.

Each fixture repeats its document's own torch calls (seed, embedding, weight draws, in the
document's order), not the functions under test, so a test of one step does not depend on the
others. Weights of documents 000 and 002 are (d_out, d) as printed; the row-convention
functions take ``W.T``.

Every tensor here is tiny, so the tests run torch on one thread: a second one only adds
hand-offs, which cost many times the work itself once other jobs share the cores.
"""

from types import SimpleNamespace

import pytest
import torch
from torch import nn

from autograder.checks.documents import DOC000_IDS, DOC001_IDS, DOC002_IDS


@pytest.fixture(scope="package", autouse=True)
def one_torch_thread():
    """Run this package's tests with torch on one thread, and restore the count afterwards."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture
def doc000():
    """Document 000: Embedding(6, 16) under seed 123, then seed 123 and rand weights."""
    torch.manual_seed(123)
    x = nn.Embedding(6, 16)(DOC000_IDS).detach()  # In [19], (6, 16)
    torch.manual_seed(123)  # In [20]
    W_query = torch.rand(24, 16)  # (d_q, d)
    W_key = torch.rand(24, 16)  # (d_k, d)
    W_value = torch.rand(28, 16)  # (d_v, d)
    h = 3  # In [9], drawn right after, no reseed
    multihead_W_query = torch.rand(h, 24, 16)
    multihead_W_key = torch.rand(h, 24, 16)
    multihead_W_value = torch.rand(h, 28, 16)
    return SimpleNamespace(
        x=x,
        W_query=W_query,
        W_key=W_key,
        W_value=W_value,
        multihead_W_query=multihead_W_query,
        multihead_W_key=multihead_W_key,
        multihead_W_value=multihead_W_value,
    )


@pytest.fixture
def doc001():
    """Document 001: Embedding(50_000, 3) under seed 123, then seed 123 and rand(d, d_out)."""
    torch.manual_seed(123)
    x = nn.Embedding(50_000, 3)(DOC001_IDS).detach()  # cell In [16], (6, 3)
    torch.manual_seed(123)  # cell In [4]
    W_query = torch.rand(3, 2)  # (d, d_q)
    W_key = torch.rand(3, 2)  # (d, d_k)
    W_value = torch.rand(3, 4)  # (d, d_v)
    return SimpleNamespace(x=x, W_query=W_query, W_key=W_key, W_value=W_value)


@pytest.fixture
def doc002():
    """Document 002: Embedding(6, 16) under seed 123, then randn weights with no reseed."""
    torch.manual_seed(123)
    x = nn.Embedding(6, 16)(DOC002_IDS).detach()  # In [4], (6, 16)
    W_q = torch.randn(24, 16)  # In [6], (d_q, d)
    W_k = torch.randn(24, 16)  # (d_k, d)
    W_v = torch.randn(28, 16)  # (d_v, d)
    h = 3  # In [14], drawn right after, no reseed
    multihead_W_q = torch.randn(h, 24, 16)
    multihead_W_k = torch.randn(h, 24, 16)
    multihead_W_v = torch.randn(h, 28, 16)
    return SimpleNamespace(
        x=x,
        W_q=W_q,
        W_k=W_k,
        W_v=W_v,
        multihead_W_q=multihead_W_q,
        multihead_W_k=multihead_W_k,
        multihead_W_v=multihead_W_v,
    )


@pytest.fixture
def doc003():
    """Document 003: seed 0, data = randn(4, 4), then the loop module's three randn weights."""
    torch.manual_seed(0)  # In [1]
    X = torch.randn(4, 4)  # In [3], (d1, N)
    WQ = torch.randn(10, 4)  # In [4], forward: (d3, d1)
    WK = torch.randn(10, 4)  # (d3, d1)
    WV = torch.randn(10, 4)  # (d2, d1)
    return SimpleNamespace(X=X, WQ=WQ, WK=WK, WV=WV)
