"""Which mistake a step's hidden check names, and what it tells of an error the student's code
raised (autograder/checks/judge.py)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import torch

from autograder.checks.compare import Mismatch, compare
from autograder.checks.draws import Draws
from autograder.checks.judge import Watched, mistake_subject, step_findings
from autograder.checks.loader import load_assignment
from autograder.checks.subject import LocalSubject
from autograder.sandbox.link import student_error

ROOT = Path(__file__).resolve().parents[3]
BACKWARD = load_assignment(ROOT, "09_gradients_and_memory").steps["attention_backward"]
SEEDS = range(30)


def named(step, subject, seed, helpers=None):
    findings = step_findings(step, subject, helpers or {}, Draws.seeded(seed))
    return {finding.mistake for finding in findings if finding.mistake}, findings


def keys_shape_1(queries, keys, values, grad_context):
    """attention_backward with d_k read as keys.shape[1]: right for unbatched keys (n_k, d_k),
    the number of keys for a batch."""
    scale = 1 / math.sqrt(keys.shape[1])
    weights = torch.softmax(queries @ keys.transpose(-2, -1) * scale, dim=-1)
    grad_values = weights.transpose(-2, -1) @ grad_context
    grad_weights = grad_context @ values.transpose(-2, -1)
    grad_scores = weights * (grad_weights - (grad_weights * weights).sum(-1, keepdim=True))
    grad_scores = grad_scores * scale
    return grad_scores @ keys, grad_scores.transpose(-2, -1) @ queries, grad_values


def test_a_mistake_that_matches_one_case_by_coincidence_is_not_named():
    """keys.shape[1] for d_k gives sqrt(d_v)'s numbers on a batched case whose n_keys happens
    to equal d_v (6 of these 30 draws), but not on the others, and is right unbatched: is the
    known mistake "sqrt(d_v) instead of sqrt(d_k)" never named, while the step still fails?"""
    for seed in SEEDS:
        names, findings = named(BACKWARD, LocalSubject(keys_shape_1, source="x"), seed)
        assert findings, seed
        assert "sqrt(d_v) instead of sqrt(d_k)" not in names, (seed, findings)


def test_the_mistake_that_explains_every_case_is_named():
    """A student who made exactly the catalogued mistake: is it named on every draw?"""
    mistake = next(m for m in BACKWARD.mistakes if m.name == "sqrt(d_v) instead of sqrt(d_k)")
    subject = mistake_subject(mistake, {})
    for seed in range(5):
        names, _ = named(BACKWARD, subject, seed)
        assert names == {mistake.name}, (seed, names)


def keys_dot_t(queries, keys):
    """attention_scores with keys.T: right for one sequence, an error on a batch."""
    return queries @ keys.T


def test_an_error_a_known_mistake_raises_is_named():
    """A student whose attention_scores uses keys.T, which raises PyTorch's error about sizes
    on the batched case: is the catalogued mistake named on that error, with its hint to use
    transpose(-2, -1)?"""
    step = load_assignment(ROOT, "01_attention_by_hand").steps["attention_scores"]
    names, findings = named(step, LocalSubject(keys_dot_t, source="x"), 0)
    assert names == {"keys.T on a batch"}, findings
    error = next(f for f in findings if f.kind == "error")
    assert "transpose(-2, -1)" in error.hint and "RuntimeError" in error.text


def test_a_student_error_is_told_without_its_text():
    """An error the student's code raised in its kernel: does a hidden check tell its kind,
    the call's shapes and whether it is about shapes, but neither its message nor the name of
    a class the student made (either could carry the hidden inputs to the feedback page)?
    And an error of the kit's own code keeps its message?"""
    watched = Watched(LocalSubject(keys_dot_t, source="x"), ["queries", "keys"])
    watched.remember((torch.zeros(2, 3), torch.zeros(4, 3)), {})
    told = watched.raised(student_error("ValueError", "LEAK 0.1234 -1.5 2.25"))
    assert "ValueError" in told and "LEAK" not in told and "(2, 3)" in told, told
    own_class = watched.raised(student_error("LEAK_" + "x" * 200, "LEAK"))
    assert "LEAK" not in own_class and "an error of a class of its own" in own_class
    shapes = watched.raised(student_error("RuntimeError", "mat1 and mat2 shapes cannot be "
                                          "multiplied (2x3 and 4x3)"))
    assert "compare each operation's shapes" in shapes and "2x3" not in shapes, shapes
    assert "KIT'S OWN" in watched.raised(RuntimeError("KIT'S OWN message"))
    refused = watched.raised(student_error("NotData", "it returned a LEAK: return the type"))
    assert "LEAK" not in refused and "return the built-in type itself" in refused, refused


def test_a_shape_no_mistake_makes_is_not_shown():
    """A tensor with a dimension of 0 may have any lengths: is a wrong shape whose lengths no
    mistake makes of the inputs told without them, and an honest wrong shape shown whole?"""
    want = torch.zeros(2, 5, 3)
    with pytest.raises(Mismatch) as wild:
        compare(torch.zeros(0, 987654321, 3), want)
    assert "987654321" not in str(wild.value) and "(2, 5, 3)" in str(wild.value)
    with pytest.raises(Mismatch) as honest:
        compare(torch.zeros(2, 5, 5), want)
    assert "(2, 5, 5)" in str(honest.value)
