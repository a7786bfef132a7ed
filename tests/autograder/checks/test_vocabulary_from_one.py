"""Does a vocabulary numbered from 1 (02_embeddings' build_vocab) hear, once, that the ids
start at 1, in both languages?

Before, every case said "numbers some keys wrongly" and nothing said why. The student's code
here is written anew (not the catalogue's), from the reference's own split_words."""

from __future__ import annotations

import pytest

from autograder.checks.draws import Draws
from autograder.checks.judge import step_findings, verdict_message
from autograder.checks.subject import LocalSubject
from autograder.i18n import catalog, language
from tests.course import ASSIGNMENT_OF, STEPS, helpers_of

STEP = STEPS["build_vocab"]
NAME = "ids start at 1"


def numbered_from_one(sentence):
    words = ASSIGNMENT_OF["build_vocab"].module("reference").split_words(sentence)
    return {word: number + 1 for number, word in enumerate(sorted(set(words)))}


@pytest.mark.parametrize("code", ["en", "zh"])
def test_a_vocabulary_numbered_from_one_is_told_once(code):
    """Is the mistake named exactly once in the verdict, in the course's language?"""
    with language(code):
        findings = step_findings(STEP, LocalSubject(numbered_from_one), helpers_of(STEP),
                                 Draws())
        message = verdict_message(STEP.name, findings)
    named = NAME if code == "en" else catalog("zh")[NAME]
    assert message is not None and message.count(named) == 1, message
    assert {f.mistake for f in findings if f.mistake} == {named}
