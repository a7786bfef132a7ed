"""Does each notebook draw its own hidden inputs, the same on every regrade, and does every
draw catch what one draw in four used to miss?

A hidden check that picks one example of a kind at random catches a wrong student only when
the draw happens to pick it; these wrong students passed most draws before the checks drew
every symbol of the untidy sentence and a float attn_mask each time."""

from __future__ import annotations

import hashlib
import hmac
import string
import struct
import unicodedata

import pytest
import torch

from autograder.checks.audit import arguments_of, same
from autograder.checks.common import sizes
from autograder.checks.draws import (
    CASES,
    MT_WORDS,
    PROBE_SEED,
    WHOLE_STATE,
    Draws,
    state_layout,
    words_offset,
)
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


def state_words(generator):
    """The 624 words of MT19937's state in a generator (each kept in 8 bytes)."""
    _, offset = state_layout()
    state = bytes(generator.get_state().tolist())[offset:offset + 8 * MT_WORDS]
    return [word for (word,) in struct.iter_unpack("<Q", state)]


def seeded_from_32_bits(words):
    """Could these words come from manual_seed: is each the seeding's function of the one
    before (MT19937's init_genrand, which reads 32 bits of a seed)?"""
    return all(words[i] == (1812433253 * (words[i - 1] ^ (words[i - 1] >> 30)) + i) % 2**32
               for i in range(1, MT_WORDS))


def test_torch_keeps_32_bits_of_a_seed():
    """Does torch's CPU generator draw alike from seeds that differ above bit 32 (why a seed
    of 63 bits gave the hidden cases 32)?"""
    assert torch.equal(torch.rand(4, generator=torch.Generator().manual_seed(2**40 + 7)),
                       torch.rand(4, generator=torch.Generator().manual_seed(7)))


def test_a_course_key_sets_a_state_no_seed_gives():
    """Is a whole-state key's generator in a state no 32-bit seed leads to (so no search of
    seeds finds its cases), every part in its own, and a fresh Draws() too?"""
    draws = Draws(WHOLE_STATE + b"ada")
    first, second = state_words(draws.of("s", CASES)), state_words(draws.of("s", "probes"))
    assert not seeded_from_32_bits(first) and not seeded_from_32_bits(second)
    assert first != second and len(set(first)) > MT_WORDS - 2
    assert not seeded_from_32_bits(state_words(Draws().of("s", CASES)))
    assert seeded_from_32_bits(state_words(torch.Generator().manual_seed(99)))


def test_an_older_course_key_draws_as_it_always_did():
    """Does a key without WHOLE_STATE (an older course's) seed its generator as before this
    change: manual_seed with the HMAC's first 63 bits, so its regrades keep their draws?"""
    key = b"older course key"
    digest = hmac.new(key, b"s\0cases", hashlib.sha256).digest()
    before = torch.Generator().manual_seed(int.from_bytes(digest[:8], "big") >> 1)
    assert torch.equal(torch.randn(6, generator=Draws(key).of("s", CASES)),
                       torch.randn(6, generator=before))


def test_a_state_laid_out_otherwise_is_not_written():
    """Does the check of torch's state layout find the words where torch keeps them, and no
    place at all in a state laid out otherwise (the bytes reversed), so that a whole-state
    draw is refused there rather than written into the wrong bytes?"""
    state = bytes(torch.Generator().manual_seed(PROBE_SEED).get_state().tolist())
    assert words_offset(state, PROBE_SEED) == state_layout()[1]
    assert words_offset(state[::-1], PROBE_SEED) is None
    assert words_offset(state, PROBE_SEED + 1) is None
