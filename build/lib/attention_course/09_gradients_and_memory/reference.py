"""The reference of 09_gradients_and_memory: the names of the course's `solutions` package
that its solution cells show and its checks compare with. `solutions` keeps every function
students write once (tests/solutions/ holds it to the course contract)."""

from solutions import (
    attention_backward,
    cached_causal_attention,
    online_attention,
    softmax_backward,
)

__all__ = [
    "attention_backward",
    "cached_causal_attention",
    "online_attention",
    "softmax_backward",
]
