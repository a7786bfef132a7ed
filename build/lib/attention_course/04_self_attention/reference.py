"""The reference of 04_self_attention: the names of the course's `solutions` package
that its solution and given cells show and its checks compare with. `solutions` keeps
every function students write once (tests/solutions/ holds it to the course contract)."""

from solutions import SelfAttention, self_attention

__all__ = ["SelfAttention", "self_attention"]
