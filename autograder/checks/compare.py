"""Is the subject's output the expected one? One tolerance for the whole course."""

from __future__ import annotations

import math

import torch

# The course contract's tolerance (../shared/CURRICULUM.md): every comparison of floats uses it.
TOLERANCE = {"rtol": 1e-3, "atol": 1e-4}


class Mismatch(Exception):
    """The subject's output differs from the expected one; the message says how, never what."""


def close(got, want, what):
    """Assert (for properties) that tensors `got` and `want` agree within the tolerance."""
    assert isinstance(got, torch.Tensor) and got.shape == want.shape, (
        f"{what}: the shape is wrong"
    )
    assert torch.allclose(got.detach(), want, **TOLERANCE), what


def compare(got, want, where="output"):
    """Raise Mismatch unless `got` matches `want` (tensors within TOLERANCE, recursively)."""
    if isinstance(want, torch.Tensor):
        compare_tensors(got, want, where)
    elif isinstance(want, tuple | list):
        if not isinstance(got, tuple | list) or len(got) != len(want):
            raise Mismatch(f"{where} should be a sequence of {len(want)} items")
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            compare(g, w, f"{where}[{i}]")
    elif isinstance(want, dict):
        if not isinstance(got, dict):
            raise Mismatch(f"{where} should be a dict, got {type(got).__name__}")
        if set(got) != set(want):
            raise Mismatch(f"{where} has the wrong keys")
        if any(got[k] != want[k] for k in want):
            raise Mismatch(f"{where} numbers some keys wrongly")
    elif isinstance(want, float):
        if not isinstance(got, int | float) or not math.isclose(
                got, want, rel_tol=TOLERANCE["rtol"]):
            raise Mismatch(f"{where} is wrong")
    elif got != want:
        raise Mismatch(f"{where} is wrong")


def compare_tensors(got, want, where):
    if not isinstance(got, torch.Tensor):
        raise Mismatch(f"{where} should be a torch.Tensor, got {type(got).__name__}")
    if tuple(got.shape) != tuple(want.shape):
        raise Mismatch(f"{where} has shape {tuple(got.shape)}, expected {tuple(want.shape)}")
    if got.dtype != want.dtype:
        raise Mismatch(f"{where} has dtype {got.dtype}, expected {want.dtype}")
    if want.dtype == torch.bool or not want.is_floating_point():
        if not torch.equal(got, want):
            raise Mismatch(f"{where} has the right shape but wrong entries")
        return
    g, w = got.detach().double(), want.detach().double()
    if torch.isnan(g).any() and not torch.isnan(w).any():
        raise Mismatch(f"{where} contains nan")
    if torch.isinf(g).any() and not torch.isinf(w).any():
        raise Mismatch(f"{where} contains inf")
    agree = torch.isclose(g, w, equal_nan=True, **TOLERANCE)
    if not bool(agree.all()):
        raise Mismatch(f"{where}: {where_wrong(g, w, agree)}")


def index(flat, shape):
    return list(map(int, torch.unravel_index(torch.tensor(flat), shape))) if shape else []


def where_wrong(got, want, agree):
    """How many numbers are wrong, the first one's index and the largest difference: where to
    look, never the expected value."""
    gap = (got - want).abs().nan_to_num(float("inf"))
    if agree.numel() == 1:
        return f"the number is off by {float(gap.flatten()[0]):.3g}"
    wrong = ~agree
    first = index(int(wrong.flatten().nonzero()[0]), tuple(got.shape))
    largest = int(gap.flatten().argmax())
    return (f"{int(wrong.sum())} of {agree.numel()} numbers are wrong; the first at index "
            f"{first}, the largest difference ({float(gap.flatten()[largest]):.3g}) at index "
            f"{index(largest, tuple(got.shape))}")
