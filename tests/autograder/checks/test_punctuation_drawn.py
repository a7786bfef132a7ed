"""Does 02_embeddings' hidden check draw the punctuation it tests, so that a split removing
only the marks the (public) checks list fails where the reference's, every mark Unicode
counts as punctuation, passes?

A helper's attack (2026-12-03): string.punctuation and the eight Unicode marks of
UNTIDY_WORDS kept build_vocab's full marks while '¡', '—' or '‘' stayed in the words."""

from __future__ import annotations

import string
import unicodedata

from autograder.checks.draws import Draws
from autograder.checks.judge import step_findings
from autograder.checks.subject import LocalSubject
from tests.course import ASSIGNMENT_OF, STEPS, helpers_of

STEP = STEPS["build_vocab"]
CHECKS = ASSIGNMENT_OF["build_vocab"].module("checks")
LISTED = string.punctuation + "".join(
    ch for group in CHECKS.UNTIDY_WORDS for word in group for ch in word
    if not ch.isascii() and unicodedata.category(ch).startswith("P"))


def listed_marks_only(sentence):
    words = "".join(ch for ch in sentence if ch not in LISTED).split()
    return {word: number for number, word in enumerate(sorted(set(words)))}


def test_marks_beyond_the_listed_ones_are_drawn():
    """Are the drawn marks many, all punctuation, and none of them ASCII?"""
    assert len(CHECKS.unicode_marks()) > 300
    assert all(unicodedata.category(ch).startswith("P") and not ch.isascii()
               for ch in CHECKS.unicode_marks())


def test_a_split_of_the_listed_marks_only_fails():
    """Does removing only the listed marks fail a case on every draw tried, while the
    reference passes the same draws?"""
    reference = ASSIGNMENT_OF["build_vocab"].module("reference").build_vocab
    for seed in range(5):
        draws = Draws.seeded(seed)
        assert step_findings(STEP, LocalSubject(reference), helpers_of(STEP), draws) == []
        failed = step_findings(STEP, LocalSubject(listed_marks_only), helpers_of(STEP), draws)
        assert any("untidy" in finding.text for finding in failed), failed
