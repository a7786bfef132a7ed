"""Helpers for the public tests of a notebook.

The builder copies this file's code into every notebook (a read-only cell), so the public
tests run in plain Jupyter with nothing of the kit installed. Messages say what was expected
and what came, and name a known mistake when the numbers match one.
"""

import torch

TOLERANCE = {"rtol": 1e-3, "atol": 1e-4}  # the course's, as the hidden checks use it


def expect_tensor(got, shape, what="the result", dtype=torch.float32):
    """Assert that `got` is a tensor of this shape and dtype."""
    assert isinstance(got, torch.Tensor), (
        f"{what} should be a torch.Tensor, but it is a {type(got).__name__}"
    )
    assert tuple(got.shape) == tuple(shape), (
        f"{what} should have shape {tuple(shape)}, but it has shape {tuple(got.shape)}"
    )
    assert got.dtype == dtype, f"{what} should have dtype {dtype}, but it has dtype {got.dtype}"


def expect_close(got, expected, what="the result", mistakes=()):
    """Assert that `got` equals `expected` within the course's tolerance.

    `mistakes` lists (name, the value that mistake gives) for a kinder message.
    """
    expected = torch.as_tensor(expected, dtype=torch.float32)
    expect_tensor(got, expected.shape, what, expected.dtype)
    if torch.allclose(got.detach(), expected, **TOLERANCE):
        return
    for name, wrong in mistakes:
        wrong = torch.as_tensor(wrong, dtype=torch.float32)
        if wrong.shape == got.shape and torch.allclose(got.detach(), wrong, **TOLERANCE):
            raise AssertionError(f"{what} is what you get with a known mistake: {name}")
    raise AssertionError(f"{what} is not right.\nexpected:\n{expected}\ngot:\n{got}")
