"""The reference of 07_cross_attention_and_masks: the names of the course's `solutions` package
that its solution and given cells show and its checks compare with. `solutions` keeps
every function students write once (tests/solutions/ holds it to the course contract)."""

from solutions import causal_mask, cross_attention, masked_scaled_softmax

__all__ = [
    "causal_mask",
    "cross_attention",
    "masked_scaled_softmax",
]
