"""The stated domain of 08_transformer_block's steps, for the mutation harness
(python -m autograder mutate): inputs beyond the hidden checks' own that every correct
version must handle as the reference does, read from what each step promises. A mutant
that differs from the reference on one of them is not equivalent to it."""

import torch

# short names: the probes are many
from autograder.checks.common import calling as calls
from autograder.checks.common import randn as r

from .checks import copied


def odd_width(seq_len, d_model):
    """A probe's run: does an odd d_model raise a ValueError whose message names it?"""

    def run(subject):
        try:
            subject(seq_len, d_model)
        except ValueError as error:
            return str(d_model) in str(error)
        return None

    return run


def positions_probes(gen):
    return [calls(seq_len, d_model) for seq_len, d_model in
            ((1, 2), (1, 8), (3, 4), (5, 2), (7, 10), (20, 6), (50, 32), (100, 64), (100, 2))] + [
        odd_width(seq_len, d_model) for seq_len, d_model in ((4, 1), (3, 7), (9, 13), (2, 99))]


def layer_norm_probes(gen):
    probes = []
    for shape in ((5,), (3, 4), (4, 3), (2, 3, 6), (2, 2, 3, 5), (1, 7), (6, 1, 2)):
        d = shape[-1]
        for scale in (1.0, 1e-3, 30.0):
            probes.append(calls(scale * r(gen, *shape), r(gen, d), r(gen, d)))
        probes.append(calls(r(gen, *shape), r(gen, d), r(gen, d), eps=0.3))
        probes.append(calls(r(gen, *shape), r(gen, d), r(gen, d), 1e-2))
    probes.append(calls(torch.full((3, 4), 2.0), r(gen, 4), r(gen, 4)))
    return probes


def feed_forward_probes(gen):
    def inputs(leading, d_model, d_ff):
        return (r(gen, *leading, d_model), r(gen, d_model, d_ff), r(gen, d_ff),
                r(gen, d_ff, d_model), r(gen, d_model))
    return [calls(*inputs(leading, d_model, d_ff)) for leading, d_model, d_ff in
            (((), 3, 5), ((4,), 3, 5), ((2, 4), 5, 3), ((2, 3, 4), 4, 4), ((1,), 1, 6),
             ((3,), 6, 1))]


def block_probes(gen):
    probes = []
    for N, L, heads, head_dim, d_ff in ((2, 5, 2, 3, 7), (1, 4, 3, 2, 5), (3, 1, 2, 2, 3),
                                        (2, 3, 1, 4, 6), (4, 6, 4, 1, 2)):
        E = heads * head_dim
        x = r(gen, N, L, E)
        mask = torch.rand(L, L, generator=gen) < 0.4
        mask[:, 0] = False  # every query keeps a key (a row masked whole is left undefined)
        future = torch.ones(L, L, dtype=torch.bool).triu(diagonal=1)
        seed = 23 + L
        probes += [
            copied(seed, E, heads, d_ff, x), copied(seed, E, heads, d_ff, x, mask),
            copied(seed, E, heads, d_ff, x, future),
            copied(seed, E, heads, d_ff, x, torch.zeros(L, L, dtype=torch.bool)),
            lambda cls, E=E, heads=heads, d_ff=d_ff, x=x: tuple(cls(E, heads, d_ff)(x).shape),
        ]
    return probes


PROBES = {
    "sinusoidal_positions": positions_probes,
    "layer_norm": layer_norm_probes,
    "feed_forward": feed_forward_probes,
    "TransformerBlock": block_probes,
}
