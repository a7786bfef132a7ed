"""The reference of 05_multi_head: the names of the course's `solutions` package
that its solution and given cells show and its checks compare with. `solutions` keeps
every function students write once (tests/solutions/ holds it to the course contract)."""

from solutions import (
    MultiHeadAttention,
    as_additive,
    concat_heads,
    multihead_attention,
    multihead_project,
)

__all__ = [
    "MultiHeadAttention",
    "as_additive",
    "concat_heads",
    "multihead_attention",
    "multihead_project",
]
