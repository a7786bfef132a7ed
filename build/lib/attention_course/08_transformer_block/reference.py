"""The reference of 08_transformer_block: the names of the course's `solutions` package that
its solution cells show and its checks compare with. `solutions` keeps every function
students write once (tests/solutions/ holds it to the course contract)."""

from solutions import TransformerBlock, feed_forward, layer_norm, sinusoidal_positions

__all__ = [
    "TransformerBlock",
    "feed_forward",
    "layer_norm",
    "sinusoidal_positions",
]
