"""Do the hidden checks of every step accept the reference and reject each catalogued mistake?

These run in-process (no kernel): the step declarations are data, and the end-to-end tests
prove the same through real nbgrader."""

from __future__ import annotations

import math

import pytest
import torch

from autograder.checks.draws import Draws
from autograder.checks.hidden import check_step
from autograder.checks.judge import mistake_subject, step_findings
from autograder.checks.subject import LocalSubject
from tests.course import STEPS, helpers_of

MISTAKES = [(step.name, m) for step in STEPS.values() for m in step.mistakes]


def notebook_namespace():
    """What a fully solved notebook defines: every step's reference under its name."""
    return {name: step.reference for name, step in STEPS.items()}


@pytest.mark.parametrize("name", sorted(STEPS))
def test_reference_passes(name):
    """Does the reference implementation pass its own step's hidden checks?"""
    check_step(name, notebook_namespace())


@pytest.mark.parametrize("name", sorted(STEPS))
def test_stub_fails(name):
    """Does a stub that still raises NotImplementedError fail, saying so?"""

    def stub(*args, **kwargs):
        raise NotImplementedError()

    namespace = notebook_namespace()
    namespace[name] = stub
    with pytest.raises(AssertionError, match="not implemented yet"):
        check_step(name, namespace)


@pytest.mark.parametrize("name", sorted(n for n, step in STEPS.items() if step.rules))
def test_a_blank_stub_is_not_implemented_never_a_rule_breach(name):
    """Does a stub of a step with rules ("must use torch.bmm" ...) get the one finding "not
    implemented yet", and no rule broken?"""

    def stub(*args, **kwargs):
        raise NotImplementedError()

    step = STEPS[name]
    findings = step_findings(step, LocalSubject(stub), helpers_of(step), Draws())
    assert [f.kind for f in findings] == ["error"], findings
    assert "not implemented yet" in findings[0].text


@pytest.mark.parametrize(("name", "mistake"), MISTAKES, ids=[m.name for _, m in MISTAKES])
def test_mistake_is_caught_and_named(name, mistake):
    """Does each catalogued mistake fail its step, with the mistake's name in the message?"""
    step = STEPS[name]
    helpers = helpers_of(step)
    subject = mistake_subject(mistake, helpers)
    findings = step_findings(step, subject, helpers, Draws())
    assert findings, f"the mistake {mistake.name!r} passes every check of {name}"
    assert mistake.name in [f.mistake for f in findings], (
        f"{mistake.name!r} fails {name} but is not named:\n" + "\n".join(map(str, findings))
    )


def test_catalogue_has_the_required_breadth():
    """Does the catalogue name at least 12 distinct mistakes?"""
    assert len({m.name for _, m in MISTAKES}) >= 12


def test_a_scaled_softmax_by_hand_that_overflows_fails_on_scores_in_the_thousands():
    """03's rule allows torch.softmax and asks a softmax by hand to take each query's largest
    score off first: does one without it (nan for scores in the thousands, right on every
    smaller score) fail the step, saying why, where the reference passes?"""
    import math

    import torch

    def overflowing(scores, d_k):
        e = torch.exp(scores / math.sqrt(d_k))
        return e / e.sum(dim=-1, keepdim=True)

    step = STEPS["scaled_softmax"]
    findings = step_findings(step, LocalSubject(overflowing), helpers_of(step), Draws())
    assert [f.kind for f in findings] == ["property"], findings
    assert "subtract each query's largest score" in findings[0].text


def test_a_buffer_of_the_students_own_is_no_parameter():
    """Does MultiHeadAttention keep its step with a buffer of its own beside torch's
    parameters (a scale kept with register_buffer), and lose it where one of torch's
    parameters is held as a buffer instead?"""
    reference = STEPS["MultiHeadAttention"].reference

    class WithScale(reference):
        def __init__(self, embed_dim, num_heads):
            super().__init__(embed_dim, num_heads)
            self.register_buffer("scale", torch.tensor(1.0 / math.sqrt(embed_dim // num_heads)))

    class BiasAsBuffer(reference):
        def __init__(self, embed_dim, num_heads):
            super().__init__(embed_dim, num_heads)
            bias = self.in_proj_bias.detach().clone()
            del self.in_proj_bias
            self.register_buffer("in_proj_bias", bias)

    namespace = notebook_namespace()
    check_step("MultiHeadAttention", {**namespace, "MultiHeadAttention": WithScale})
    with pytest.raises(AssertionError, match="nn.MultiheadAttention's parameters"):
        check_step("MultiHeadAttention", {**namespace, "MultiHeadAttention": BiasAsBuffer})
