"""Helpers for the public tests of a notebook.

The builder copies this file's code into every notebook (a read-only cell), so the public
tests run in plain Jupyter with nothing of the kit installed. A message names what is wrong
and where: the first wrong entry, the largest difference, or the known mistake whose numbers
the result matches.
"""

import torch

TOLERANCE = {"rtol": 1e-3, "atol": 1e-4}  # the course's, as the hidden checks use it


def expect_tensor(got, shape, what="the result", dtype=torch.float32):
    """Assert that `got` is a tensor of this shape and dtype."""
    assert isinstance(got, torch.Tensor), (
        f"{what} should be a torch.Tensor, but got a {type(got).__name__}"
    )
    assert tuple(got.shape) == tuple(shape), (
        f"{what} should have shape {tuple(shape)}, but got shape {tuple(got.shape)}"
    )
    assert got.dtype == dtype, f"{what} should have dtype {dtype}, but got dtype {got.dtype}"


def where_wrong(got, expected):
    """'the first wrong entry ...; the largest difference ...' for two tensors of one shape."""
    if got.numel() == 1:
        return f"expected {expected.item():.4g}, got {got.item():.4g}"
    if not expected.is_floating_point():
        wrong = got != expected
        first = [int(i) for i in wrong.nonzero()[0]]
        return (f"{int(wrong.sum())} of {wrong.numel()} entries differ; the first at index "
                f"{first}: expected {expected[tuple(first)].item()}, got "
                f"{got[tuple(first)].item()}")
    wrong = ~torch.isclose(got, expected, **TOLERANCE)
    first = [int(i) for i in wrong.nonzero()[0]]
    gap = (got - expected).abs().nan_to_num(float("inf"))
    largest = [int(i) for i in torch.unravel_index(gap.argmax(), gap.shape)]
    return (f"{int(wrong.sum())} of {wrong.numel()} entries differ; the first at index "
            f"{first}: expected {expected[tuple(first)]:.4g}, got {got[tuple(first)]:.4g}; "
            f"the largest difference is {gap[tuple(largest)]:.4g}, at index {largest}")


def expect_close(got, expected, what="the result", mistakes=()):
    """Assert that `got` equals `expected` within the course's tolerance.

    `mistakes` lists (name, the value that mistake gives) for a kinder message.
    """
    expected = torch.as_tensor(expected, dtype=torch.float32)
    if isinstance(got, torch.Tensor) and got.dtype == expected.dtype:
        got = got.detach()
        if got.shape == expected.shape and torch.allclose(got, expected, **TOLERANCE):
            return
        for name, wrong in mistakes:  # a mistake may give another shape: name it first
            wrong = torch.as_tensor(wrong, dtype=torch.float32)
            if wrong.shape == got.shape and torch.allclose(got, wrong, **TOLERANCE):
                raise AssertionError(f"{what}: these are the numbers of a known mistake: "
                                     f"{name}")
    expect_tensor(got, expected.shape, what, expected.dtype)
    raise AssertionError(f"{what}: not the expected numbers. {where_wrong(got, expected)}")


def expect_equal(got, expected, what="the result", mistakes=()):
    """Assert that `got` equals the boolean or integer tensor `expected` exactly; `mistakes`
    as for expect_close."""
    if isinstance(got, torch.Tensor) and got.dtype == expected.dtype:
        if torch.equal(got, expected):
            return
        for name, wrong in mistakes:
            if torch.equal(got, wrong):
                raise AssertionError(f"{what}: these are the entries of a known mistake: "
                                     f"{name}")
    expect_tensor(got, expected.shape, what, expected.dtype)
    raise AssertionError(f"{what}: not the expected entries. {where_wrong(got, expected)}")
