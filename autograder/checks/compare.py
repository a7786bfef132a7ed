"""Is the subject's output the expected one? One tolerance for the whole course."""

from __future__ import annotations

import math

import torch

from autograder.i18n import t

# The course contract's tolerance (../shared/CURRICULUM.md): every comparison of floats uses it.
TOLERANCE = {"rtol": 1e-3, "atol": 1e-4}


class Mismatch(Exception):
    """The subject's output differs from the expected one; the message says how, never what,
    in the course's language."""


def close(got, want, what):
    """Assert (for properties) that tensors `got` and `want` agree within the tolerance."""
    assert isinstance(got, torch.Tensor) and got.shape == want.shape, (
        t("{what}: the shape is wrong", what=what)
    )
    assert torch.allclose(got.detach(), want, **TOLERANCE), what


def compare(got, want, where=None):
    """Raise Mismatch unless `got` matches `want` (tensors within TOLERANCE, recursively);
    `where` names the part compared ("output[0]"), the whole output when None."""
    where = t("output") if where is None else where
    if isinstance(want, torch.Tensor):
        compare_tensors(got, want, where)
    elif isinstance(want, tuple | list):
        if not isinstance(got, tuple | list) or len(got) != len(want):
            raise Mismatch(t("{where} should be a sequence of 1 item", where=where)
                           if len(want) == 1 else
                           t("{where} should be a sequence of {count} items", where=where,
                             count=len(want)))
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            compare(g, w, f"{where}[{i}]")
    elif isinstance(want, dict):
        if not isinstance(got, dict):
            raise Mismatch(t("{where} should be a dict, got {kind}", where=where,
                             kind=type(got).__name__))
        if set(got) != set(want):
            raise Mismatch(t("{where} has the wrong keys", where=where))
        if any(got[k] != want[k] for k in want):
            raise Mismatch(t("{where} numbers some keys wrongly", where=where))
    elif isinstance(want, float):
        if not isinstance(got, int | float) or not math.isclose(
                got, want, rel_tol=TOLERANCE["rtol"]):
            raise Mismatch(t("{where} is wrong", where=where))
    elif got != want:
        raise Mismatch(t("{where} is wrong", where=where))


def compare_tensors(got, want, where):
    if not isinstance(got, torch.Tensor):
        raise Mismatch(t("{where} should be a torch.Tensor, got {kind}", where=where,
                         kind=type(got).__name__))
    if tuple(got.shape) != tuple(want.shape):
        raise Mismatch(wrong_shape(tuple(got.shape), tuple(want.shape), where))
    if got.dtype != want.dtype:
        raise Mismatch(t("{where} has dtype {got}, expected {want}", where=where,
                         got=got.dtype, want=want.dtype))
    if want.dtype == torch.bool or not want.is_floating_point():
        if not torch.equal(got, want):
            raise Mismatch(t("{where} has the right shape but wrong entries", where=where))
        return
    g, w = got.detach().double(), want.detach().double()
    if torch.isnan(g).any() and not torch.isnan(w).any():
        raise Mismatch(t("{where} contains nan", where=where))
    if torch.isinf(g).any() and not torch.isinf(w).any():
        raise Mismatch(t("{where} contains inf", where=where))
    agree = torch.isclose(g, w, equal_nan=True, **TOLERANCE)
    if not bool(agree.all()):
        raise Mismatch(t("{where}: {detail}", where=where, detail=where_wrong(g, w, agree)))


def wrong_shape(got, want, where):
    """What a message says of a shape `got` where `want` was expected. The student's code
    chooses its shape, and a hidden case's message goes to the feedback page: shown whole, the
    lengths carry what the code writes into them (a tensor of zeros shaped (23, 29, 8, 27)
    carried four figures of a hidden input). A length the expected shape has (or 1) is shown,
    any other is "?", and past two dimensions more than expected only their number is said:
    a few bits a case, as the count of wrong numbers and their place."""
    if len(got) > len(want) + 2:
        return t("{where} has more than {count} dimensions, expected {want}", where=where,
                 count=len(want) + 2, want=want)
    known = {1, *want}
    shown = tuple(length if length in known else "?" for length in got)
    if "?" not in shown:
        return t("{where} has shape {got}, expected {want}", where=where, got=got, want=want)
    return t("{where} has shape {got}, expected {want} (? is a length the expected shape does "
             "not have)", where=where, got="(" + ", ".join(map(str, shown))
             + ("," if len(shown) == 1 else "") + ")", want=want)


def index(flat, shape):
    """The index of the `flat`-th number (row-major) of a tensor of `shape`, as
    torch.unravel_index gives it but without the symbolic-shape machinery (sympy) that it
    imports, about a CPU second the first time in a process."""
    position = []
    for size in reversed(shape):
        flat, rest = divmod(int(flat), size)
        position.append(rest)
    return position[::-1]


def where_wrong(got, want, agree):
    """How many numbers are wrong, the first one's index and the largest difference: where to
    look, never the expected value. The difference to one significant figure: the student's
    output sets it, and a wrong answer offset by an input of a hidden case (got + |x0| + 1)
    would otherwise carry that input out to three figures."""
    gap = (got - want).abs().nan_to_num(float("inf"))
    if agree.numel() == 1:
        return t("the number is off by about {gap:.1g}", gap=float(gap.flatten()[0]))
    wrong = ~agree
    first = index(int(wrong.flatten().nonzero()[0]), tuple(got.shape))
    largest = int(gap.flatten().argmax())
    if int(wrong.sum()) == 1:
        return t("1 of {total} numbers is wrong, at index {first}: off by about {gap:.1g}",
                 total=agree.numel(), first=first, gap=float(gap.flatten()[largest]))
    return t("{wrong} of {total} numbers are wrong; the first at index {first}, the largest "
             "difference (about {gap:.1g}) at index {largest}",
             wrong=int(wrong.sum()), total=agree.numel(), first=first,
             gap=float(gap.flatten()[largest]), largest=index(largest, tuple(got.shape)))
