"""How each document draws its tensors: the one home of every recipe.

The documents print results, not the random inputs and weights behind them; these are drawn
here with the documents' own torch calls, in their order (seed, nn.Embedding, weight draws),
inside torch.random.fork_rng so the caller's random state is left alone. The hidden checks
and the tests of `solutions` both take their worked examples from here. Each draw is checked
once against a value its document prints, so a torch that drew other numbers fails loudly
here instead of blaming a student.

Weights of documents 000 and 002 are (d_out, d) as the documents write them; the row-convention
functions of the course take `W.T`. Document 003 works in columns: X is (d1, N).
"""

from __future__ import annotations

import math
from functools import cache
from types import SimpleNamespace

import torch
from torch import nn

from autograder.checks.compare import TOLERANCE

from .documents import (
    DOC000_IDS,
    DOC000_WEIGHTS_2,
    DOC001_EMBEDDING,
    DOC001_IDS,
    DOC001_VOCAB_SIZE,
    DOC002_IDS,
    DOC002_OMEGA_24,
    DOC003_D2,
    DOC003_D3,
    DOC003_INPUT,
)

HEADS = 3  # documents 000 and 002: h = 3


def fresh(draw):
    """Copies of a cached draw, so that no caller can change another's tensors."""
    return SimpleNamespace(**{k: v.clone() for k, v in vars(draw).items()})


def drifted(what):
    return RuntimeError(f"torch no longer draws {what}: the documents' tensors cannot be "
                        "reproduced with this torch (the course pins torch==2.13.0)")


@cache
def _document_000():
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(123)
        x = nn.Embedding(6, 16)(DOC000_IDS).detach()  # In [19], (6, 16)
        torch.manual_seed(123)  # In [20]
        draw = SimpleNamespace(
            x=x,
            W_query=torch.rand(24, 16),  # (d_q, d)
            W_key=torch.rand(24, 16),  # (d_k, d)
            W_value=torch.rand(28, 16),  # (d_v, d)
            # In [9]: the multi-head weights continue the same stream, no reseed
            multihead_W_query=torch.rand(HEADS, 24, 16),  # (h, d_q, d)
            multihead_W_key=torch.rand(HEADS, 24, 16),  # (h, d_k, d)
            multihead_W_value=torch.rand(HEADS, 28, 16),  # (h, d_v, d)
        )
    query_2, keys = draw.W_query @ x[1], x @ draw.W_key.T  # (24,), (6, 24)
    weights_2 = torch.softmax(keys @ query_2 / math.sqrt(24), dim=0)  # (6,)
    if not torch.allclose(weights_2, DOC000_WEIGHTS_2, **TOLERANCE):
        raise drifted("document 000's attention weights of query 2")
    return draw


def document_000():
    """x (6, 16); single-head W_query, W_key (24, 16), W_value (28, 16); multi-head
    multihead_W_query, multihead_W_key (3, 24, 16), multihead_W_value (3, 28, 16)."""
    return fresh(_document_000())


@cache
def _document_001():
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(123)
        x = nn.Embedding(DOC001_VOCAB_SIZE, 3)(DOC001_IDS).detach()  # In [16], (6, 3)
        torch.manual_seed(123)  # In [4]
        draw = SimpleNamespace(
            x=x,
            W_query=torch.rand(3, 2),  # (d, d_q)
            W_key=torch.rand(3, 2),  # (d, d_k)
            W_value=torch.rand(3, 4),  # (d, d_v)
        )
    if not torch.allclose(x, DOC001_EMBEDDING, **TOLERANCE):
        raise drifted("document 001's embedding")
    return draw


def document_001():
    """x (6, 3); W_query, W_key (3, 2) and W_value (3, 4), already (d_in, d_out)."""
    return fresh(_document_001())


@cache
def _document_002():
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(123)
        x = nn.Embedding(6, 16)(DOC002_IDS).detach()  # In [4], (6, 16)
        draw = SimpleNamespace(  # In [6] and In [14]: no reseed
            x=x,
            W_query=torch.randn(24, 16),  # (d_q, d)
            W_key=torch.randn(24, 16),  # (d_k, d)
            W_value=torch.randn(28, 16),  # (d_v, d)
            multihead_W_query=torch.randn(HEADS, 24, 16),  # (h, d_q, d)
            multihead_W_key=torch.randn(HEADS, 24, 16),  # (h, d_k, d)
            multihead_W_value=torch.randn(HEADS, 28, 16),  # (h, d_v, d)
        )
    omega_24 = float(draw.W_query @ x[1] @ (draw.W_key @ x[4]))
    if not math.isclose(omega_24, float(DOC002_OMEGA_24), rel_tol=TOLERANCE["rtol"]):
        raise drifted("document 002's omega_24")
    return draw


def document_002():
    """x (6, 16); single-head W_query, W_key (24, 16), W_value (28, 16); multi-head
    multihead_W_query, multihead_W_key (3, 24, 16), multihead_W_value (3, 28, 16)."""
    return fresh(_document_002())


@cache
def _document_003():
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)  # In [1]
        draw = SimpleNamespace(
            X=torch.randn(4, 4),  # In [3], (d1, N)
            W_Q=torch.randn(DOC003_D3, 4),  # In [4], forward: (d3, d1)
            W_K=torch.randn(DOC003_D3, 4),  # (d3, d1)
            W_V=torch.randn(DOC003_D2, 4),  # (d2, d1)
        )
    if not torch.allclose(draw.X, DOC003_INPUT, **TOLERANCE):
        raise drifted("document 003's printed input")
    return draw


def document_003():
    """X (4, 4) in columns (d1, N); W_Q, W_K (10, 4) and W_V (10, 4), (d_out, d1)."""
    return fresh(_document_003())
