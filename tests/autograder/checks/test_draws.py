"""Does each notebook draw its own hidden inputs, the same on every regrade, and does every
draw catch what one draw in four used to miss?

A hidden check that picks one example of a kind at random catches a wrong student only when
the draw happens to pick it; these wrong students passed most draws before the checks drew
every symbol of the untidy sentence and a float attn_mask each time."""

from __future__ import annotations

import string
import unicodedata

import pytest
import torch

from autograder.checks.audit import arguments_of, same
from autograder.checks.common import sizes
from autograder.checks.draws import CASES, Draws
from autograder.checks.judge import mistake_subject, step_findings
from autograder.checks.subject import LocalSubject
from tests.course import STEPS, helpers_of

DRAWS = 20


def build_vocab_keeping_ascii_symbols(sentence):
    """The reference, except that $ + < = > ^ | ~ (string.punctuation, Unicode symbols) stay."""
    kept = "".join(ch for ch in sentence
                   if (ch not in string.punctuation or ch in "$+<=>^|~")
                   and not unicodedata.category(ch).startswith("P"))
    return {word: index for index, word in enumerate(sorted(set(kept.split())))}


def mistake_named(step, name):
    return next(m for m in step.mistakes if m.name == name)


def wrong_students():
    build_vocab, module = STEPS["build_vocab"], STEPS["MultiHeadAttention"]
    return {
        "build_vocab keeping ASCII symbols": (
            build_vocab, lambda: LocalSubject(build_vocab_keeping_ascii_symbols)),
        "MultiHeadAttention dropping a float attn_mask": (
            module, lambda: mistake_subject(mistake_named(module, "float attn_mask ignored"),
                                            helpers_of(module))),
    }


@pytest.mark.parametrize("student", sorted(wrong_students()))
def test_every_draw_catches_the_wrong_student(student):
    """Is the wrong student found on each of 20 draws, not on some?"""
    step, subject = wrong_students()[student]
    missed = [seed for seed in range(DRAWS)
              if not step_findings(step, subject(), helpers_of(step),
                                   Draws.seeded(seed))]
    assert not missed, f"{student} passed the draws of seeds {missed}"


def test_a_right_layer_norm_passes_every_draw_of_its_constant_rows():
    """Does the reference layer_norm pass the constant-rows property on 3,000 draws? (With
    levels drawn from randn, a row's float32 mean was not always its level, and about 1 draw
    in 400 failed the reference itself.)"""
    step = STEPS["layer_norm"]
    constant_rows = next(p for p in step.properties if p.__name__ == "constant_rows_give_beta")
    subject = LocalSubject(step.reference)
    for seed in range(3000):
        constant_rows(subject, torch.Generator().manual_seed(seed))


def test_sizes_that_cannot_be_distinct_are_refused():
    """Does sizes() refuse more distinct sizes than [low, high] holds, instead of returning
    fewer (which a `seq, d = sizes(...)` would meet as an unpacking error)?"""
    assert sorted(sizes(torch.Generator().manual_seed(0), 4, low=2, high=5)) == [2, 3, 4, 5]
    with pytest.raises(ValueError, match=r"5 distinct sizes do not fit in \[2, 5\]"):
        sizes(torch.Generator(), 5, low=2, high=5)


def drawn_inputs(step, draws):
    """The arguments of every random case of `step` drawn from `draws`, as recorded."""
    return [arguments_of(case, step) for case in step.random_cases(draws.of(step.name, CASES))]


@pytest.mark.parametrize("name", sorted(STEPS))
def test_a_key_draws_the_same_inputs_every_time(name):
    """Do two gradings with the same key draw the very same inputs (a regrade), and do two
    keys (two students) draw others?"""
    step = STEPS[name]
    ada, again, bo = Draws(b"ada"), Draws(b"ada"), Draws(b"bo")
    first = drawn_inputs(step, ada)
    assert same(first, drawn_inputs(step, again))
    assert not same(first, drawn_inputs(step, bo))


def test_each_part_of_the_checks_draws_apart():
    """Does a property added to a step leave its drawn cases, and its other properties'
    inputs, as they were (each part has a generator of its own)?"""
    draws = Draws(b"ada")
    before = torch.randn(3, generator=draws.of("layer_norm", "property:a"))
    cases = drawn_inputs(STEPS["layer_norm"], draws)
    torch.randn(5, generator=draws.of("layer_norm", "property:b"))  # a new property draws
    assert torch.equal(torch.randn(3, generator=draws.of("layer_norm", "property:a")), before)
    assert same(drawn_inputs(STEPS["layer_norm"], draws), cases)
    assert not torch.equal(torch.randn(3, generator=draws.of("layer_norm", "property:b")),
                           before)


def test_a_master_notebook_draws_afresh():
    """Does Draws() (a master notebook run by itself, with no student) draw other inputs at
    each run?"""
    assert not torch.equal(torch.randn(4, generator=Draws().of("s", CASES)),
                           torch.randn(4, generator=Draws().of("s", CASES)))


@pytest.mark.parametrize("name", ["stable_softmax", "layer_norm", "MultiHeadAttention"])
def test_a_wrong_student_gets_the_same_findings_on_every_regrade(name):
    """Does a catalogued mistake, graded five times with one key, get the very same findings
    (texts, numbers and named mistakes) each time?"""
    step = STEPS[name]
    subject = mistake_subject(step.mistakes[0], helpers_of(step))
    found = [[(f.kind, f.text, f.mistake) for f in step_findings(
        step, subject, helpers_of(step), Draws(b"one student"))] for _ in range(5)]
    assert found[0] and all(run == found[0] for run in found)
