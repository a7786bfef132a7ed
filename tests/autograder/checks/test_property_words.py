"""Is every hidden property told to a student in words of the course's language, never by its
name in code ("property equals_torch_sdpa: raised RuntimeError ..." on a feedback page)?"""

from __future__ import annotations

import pytest

from autograder.checks.draws import Draws
from autograder.checks.judge import property_words, step_findings
from autograder.checks.subject import LocalSubject
from autograder.i18n import catalog, language
from tests.course import STEPS, helpers_of

PROPERTIES = sorted({(step.name, prop) for step in STEPS.values() for prop in step.properties},
                    key=lambda pair: (pair[0], pair[1].__name__))


@pytest.mark.parametrize(("step", "prop"), PROPERTIES,
                         ids=[f"{s}-{p.__name__}" for s, p in PROPERTIES])
def test_every_property_has_words_in_both_languages(step, prop):
    """Does the property's docstring open with words (not its name) that have Chinese?"""
    words = property_words(prop)
    assert prop.__doc__ and words != prop.__name__.replace("_", " "), (
        f"{prop.__name__} of {step} has no docstring: its first line is what students read")
    assert words in catalog("zh"), f"no Chinese for {words!r}: add it to the assignment's zh.py"


def shapes_refused(queries, keys, values, mask=None):
    raise RuntimeError("mat1 and mat2 shapes cannot be multiplied (4x5 and 6x4)")


@pytest.mark.parametrize("code", ["en", "zh"])
def test_a_property_that_raises_is_told_in_words(code):
    """When the student's code raises inside a property, does the finding describe the
    property in the course's language, and not name it?"""
    step = STEPS["scaled_dot_product_attention"]
    with language(code):
        findings = step_findings(step, LocalSubject(shapes_refused), helpers_of(step),
                                 Draws())
        told = [f.text for f in findings if f.kind == "property"]
        words = [property_words(prop) for prop in step.properties]
    assert len(told) == len(step.properties)
    for text, prop, said in zip(told, step.properties, words, strict=True):
        assert said in text and prop.__name__ not in text, text
    if code == "zh":
        assert words[0] == catalog("zh")[
            "The context matches torch's scaled_dot_product_attention on fresh random inputs"]
