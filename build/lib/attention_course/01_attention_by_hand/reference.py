"""The reference of 01_attention_by_hand: the names of the course's `solutions` package
that its solution and given cells show and its checks compare with. `solutions` keeps
every function students write once (tests/solutions/ holds it to the course contract)."""

from solutions import (
    attention_scores,
    context_vectors,
    project_qkv,
    stable_softmax,
    weighted_values,
)

__all__ = [
    "attention_scores",
    "context_vectors",
    "project_qkv",
    "stable_softmax",
    "weighted_values",
]
