"""The stated domain of 02_embeddings's steps, for the mutation harness
(python -m autograder mutate): inputs beyond the hidden checks' own that every correct
version must handle as the reference does, read from what each step promises. A mutant
that differs from the reference on one of them is not equivalent to it."""

import torch

# short names: the probes are many
from autograder.checks.common import calling as calls

from . import reference

SENTENCES = (
    "Life is short, eat dessert first", "The sun rises in the east.",
    "«Life» is short — eat dessert… first!", "don't stop: well-known (really) e.g. U.S.A.",
    "  Life   is\tshort\neat  dessert  ", "café Café naïve Zoë über Über", "3 apples, 12 pears",
    "a A b B _under_ score_s", "Hello?! hello... HELLO", "one", "x, y; z: x! y? z.",
    "Straße STRASSE ǅemal İstanbul", "tab\tseparated\twords and, commas",
)


def vocab_probes(gen):
    return [calls(s) for s in SENTENCES]


def encode_probes(gen):
    vocab = reference.build_vocab(" ".join(SENTENCES))
    probes = [calls(s, dict(vocab)) for s in SENTENCES]
    probes += [calls(s, reference.build_vocab(s)) for s in SENTENCES]
    probes += [calls("Life is zzyzx", dict(vocab)), calls("life", {"Life": 0, "life": 1})]
    return probes


def embed_probes(gen):
    def seeded(ids, *args):
        return lambda subject: subject.seeded(7, torch.tensor(ids), *args, burn=3)
    return [seeded([0, 2, 1], 3, 4), seeded([4, 4, 0], 5, 1, 99), seeded([0], 1, 3, 0),
            seeded([1, 0, 5, 2], 50_000, 2, 123), seeded([3, 1], 7, 6, 2**31 - 1)]


PROBES = {
    "build_vocab": vocab_probes,
    "encode": encode_probes,
    "embed": embed_probes,
}

# Code a step's reference calls that is no step of its own: mutated with it (a student may
# write it inline).
HELPERS = {
    "build_vocab": (reference.split_words,),
    "encode": (reference.split_words,),
}
