"""The reference of 03_scaled_dot_product: the names of the course's `solutions` package
that its solution and given cells show and its checks compare with. `solutions` keeps
every function students write once (tests/solutions/ holds it to the course contract)."""

from solutions import project, scaled_dot_product_attention, scaled_softmax

__all__ = ["project", "scaled_dot_product_attention", "scaled_softmax"]
