"""What a step's hidden check is made of, and how one is judged.

A step (one function or class students write) is checked by
- cases: each runs the subject on fixed inputs; the expected output is either a document's
  printed tensor or what the reference package returns on the same inputs;
- properties: statements that must hold for any correct subject (rows sum to 1 ...);
- rules: what the notebook forbids for this step (no torch.softmax in stable_softmax ...);
- mistakes: wrong implementations students often write. When a case fails, each mistake is
  run on the same inputs; one that produces the student's output names the error.

Cases are split into `run` (call the subject, return plain outputs) and `judge` (compare
outputs), so that a later stage can run the first part in the student's kernel and the second
in the grader.
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

RTOL = 1e-3
ATOL = 1e-4


@dataclass(frozen=True)
class Case:
    """One run of the subject: `run(subject)` returns the output to compare.

    `expected` is a document's printed value; None means "what the reference returns".
    """

    label: str
    run: Callable[[Any], Any]
    expected: Any = None


@dataclass(frozen=True)
class Mistake:
    """A wrong implementation of `step`, written as a student would write it (`code` defines
    the step's name). Recognised when it gives the student's output on a failing case."""

    name: str
    step: str
    hint: str
    code: str


@dataclass(frozen=True)
class Rule:
    """What the notebook forbids for a step; `violation(subject)` says how it is broken, or None."""

    name: str
    violation: Callable[[Any], str | None]


@dataclass(frozen=True)
class Step:
    """Everything the hidden test of one step checks.

    `uses` names earlier steps of the same notebook that the subject calls; while the step is
    checked they are replaced by the reference, so one wrong step costs only its own points.
    """

    name: str
    reference: Any
    document_cases: Callable[[], list[Case]] = list
    random_cases: Callable[[torch.Generator], list[Case]] = lambda gen: []
    properties: tuple[Callable[[Any, torch.Generator], None], ...] = ()
    rules: tuple[Rule, ...] = ()
    mistakes: tuple[Mistake, ...] = ()
    uses: tuple[str, ...] = ()
    notes: dict = field(default_factory=dict)


class Mismatch(Exception):
    """The subject's output differs from the expected one; the message says how, never what."""


def compare(got, want, where="output"):
    """Raise Mismatch unless `got` matches `want` (tensors within RTOL/ATOL, recursively)."""
    if isinstance(want, torch.Tensor):
        if not isinstance(got, torch.Tensor):
            raise Mismatch(f"{where} should be a torch.Tensor, got {type(got).__name__}")
        if tuple(got.shape) != tuple(want.shape):
            raise Mismatch(
                f"{where} has shape {tuple(got.shape)}, expected {tuple(want.shape)}"
            )
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
        close = torch.isclose(g, w, rtol=RTOL, atol=ATOL, equal_nan=True)
        if not bool(close.all()):
            wrong = int((~close).sum())
            raise Mismatch(f"{where}: {wrong} of {close.numel()} numbers are wrong")
        return
    if isinstance(want, tuple | list):
        if not isinstance(got, tuple | list) or len(got) != len(want):
            raise Mismatch(f"{where} should be a sequence of {len(want)} items")
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            compare(g, w, f"{where}[{i}]")
        return
    if isinstance(want, dict):
        if not isinstance(got, dict):
            raise Mismatch(f"{where} should be a dict, got {type(got).__name__}")
        if set(got) != set(want):
            raise Mismatch(f"{where} has the wrong keys")
        if any(got[k] != want[k] for k in want):
            raise Mismatch(f"{where} numbers some keys wrongly")
        return
    if isinstance(want, float):
        if not isinstance(got, int | float) or not math.isclose(got, want, rel_tol=RTOL):
            raise Mismatch(f"{where} is wrong")
        return
    if got != want:
        raise Mismatch(f"{where} is wrong")


def namespace(extra=None):
    """The names a notebook's setup cell defines, for running mistakes' code."""
    names = {"math": math, "string": string, "torch": torch, "nn": nn, "F": F}
    names.update(extra or {})
    return names


def mistake_subject(mistake, helpers):
    """The callable (function or class) that a mistake's code defines."""
    names = namespace(helpers)
    exec(compile(mistake.code, f"<mistake: {mistake.name}>", "exec"), names)  # noqa: S102
    return names[mistake.step]


def expected_output(case, step):
    return case.expected if case.expected is not None else case.run(step.reference)


def recognise(step, case, got, helpers):
    """The mistake whose output on `case` equals the student's, or None."""
    for mistake in step.mistakes:
        try:
            wrong = case.run(mistake_subject(mistake, helpers))
            compare(got, wrong)
        except Exception:  # noqa: BLE001 - a mistake that does not match is simply not it
            continue
        return mistake
    return None
