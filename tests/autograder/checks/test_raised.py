"""Is an error raised in student code told with the arguments it had, and with the hint to
compare shapes only when the error is about shapes, in the hidden checks as in the notebook
(both use checks/raised.py)?"""

from __future__ import annotations

import pytest
import torch

from autograder.checks.draws import Draws
from autograder.checks.judge import step_findings
from autograder.checks.raised import about_shapes
from autograder.checks.subject import LocalSubject
from autograder.i18n import language
from tests.course import STEPS, helpers_of

HINT = {"en": "compare each operation's shapes", "zh": "逐个核对每步运算的形状"}


def error_of(action):
    try:
        action()
    except Exception as error:  # noqa: BLE001 - the error is what the test reads
        return type(error).__name__, str(error)
    raise AssertionError("the action raised nothing")


SHAPE_ERRORS = {
    "matmul": lambda: torch.ones(2, 3) @ torch.ones(2, 3),
    "broadcast": lambda: torch.ones(2) + torch.ones(3),
    "dimension": lambda: torch.ones(2).sum(dim=3),
    "view": lambda: torch.ones(6).view(4, 2),
}
OTHER_ERRORS = {
    "key": lambda: {"the": 0}["sun"],
    "type": lambda: torch.ones(2) + "a",
    "zero division": lambda: 1 / 0,
    "attribute": lambda: torch.ones(2).softmaxx(),
}


@pytest.mark.parametrize("name", SHAPE_ERRORS)
def test_pytorch_shape_errors_are_about_shapes(name):
    """Is each error PyTorch raises for shapes that do not fit read as about shapes?"""
    assert about_shapes(*error_of(SHAPE_ERRORS[name]))


@pytest.mark.parametrize("name", OTHER_ERRORS)
def test_other_errors_are_not_about_shapes(name):
    """Is a KeyError, a TypeError, a ZeroDivisionError or a typo not read as about shapes?"""
    assert not about_shapes(*error_of(OTHER_ERRORS[name]))


def transposing(x, W):
    return x @ W.T


def looking_up(x, W):
    return {"the": x}["sun"]


@pytest.mark.parametrize("code", ["en", "zh"])
def test_a_hidden_check_names_the_arguments_and_hints_only_at_shapes(code):
    """Does a hidden check of `project` report a shape error with the arguments and the hint,
    and a KeyError with the arguments but no hint, in the course's language?"""
    step = STEPS["project"]
    with language(code):
        found = {name: [f.text for f in step_findings(step, LocalSubject(subject),
                                                      helpers_of(step), Draws())]
                 for name, subject in [("shape", transposing), ("key", looking_up)]}
    called = {"en": "called with x=", "zh": "调用时的参数：x="}[code]
    assert found["shape"] and all(called in text and HINT[code] in text
                                  for text in found["shape"] if "RuntimeError" in text)
    assert any("RuntimeError" in text for text in found["shape"])
    assert found["key"] and all(called in text and HINT[code] not in text
                                for text in found["key"])
