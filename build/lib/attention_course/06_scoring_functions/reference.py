"""The reference of 06_scoring_functions: the names of the course's `solutions` package
that its solution and given cells show and its checks compare with. `solutions` keeps
every function students write once (tests/solutions/ holds it to the course contract)."""

from solutions import (
    additive_score,
    bilinear_score,
    dot_score,
    loop_attention,
    scaled_dot_score,
    vectorized_attention,
)

__all__ = [
    "additive_score",
    "bilinear_score",
    "dot_score",
    "loop_attention",
    "scaled_dot_score",
    "vectorized_attention",
]
