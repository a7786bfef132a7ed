"""The stated domain of 05_multi_head's steps, for the mutation harness
(python -m autograder mutate): inputs beyond the hidden checks' own that every correct
version must handle as the reference does, read from what each step promises. A mutant
that differs from the reference on one of them is not equivalent to it."""

import torch

# short names: the probes are many
from autograder.checks.common import calling as calls
from autograder.checks.common import randn as r

from . import reference
from .checks import copied


def heads_probes(gen):
    return [calls(r(gen, 5, 3), r(gen, h, d_out, 3)) for h, d_out in ((1, 4), (2, 6), (4, 3))] + [
        calls(r(gen, 1, 4), r(gen, 3, 2, 4)), calls(r(gen, 4, 4), r(gen, 4, 4, 4))]


def multihead_attention_probes(gen):
    def inputs(h, seq, d_in, d_k, d_v):
        return r(gen, seq, d_in), r(gen, h, d_k, d_in), r(gen, h, d_k, d_in), r(gen, h, d_v, d_in)
    return [calls(*inputs(*sizes_in)) for sizes_in in
            ((1, 5, 3, 4, 6), (2, 4, 5, 3, 2), (3, 1, 2, 5, 4), (4, 4, 4, 4, 4), (2, 6, 3, 7, 1))]


def concat_probes(gen):
    return [calls(r(gen, *shape)) for shape in ((1, 4, 3), (3, 1, 5), (2, 5, 3), (4, 4, 4),
                                                (3, 2, 7))]


def mha_probes(gen):
    probes = []
    for L, N, S, h, head_dim in ((3, 2, 5, 2, 3), (4, 1, 2, 1, 4), (2, 3, 2, 3, 2),
                                 (5, 2, 3, 4, 1)):
        E = h * head_dim
        inputs = (r(gen, L, N, E), r(gen, S, N, E), r(gen, S, N, E))
        padding = torch.rand(N, S, generator=gen) < 0.4
        attn = torch.rand(L, S, generator=gen) < 0.4
        padding[:, 0] = attn[:, 0] = False  # no query loses every key (nothing is stated then)
        per_head = torch.rand(N * h, L, S, generator=gen) < 0.4
        per_head[..., 0] = False
        seed = 11 + L
        probes += [
            copied(seed, E, h, inputs), copied(seed, E, h, inputs, key_padding_mask=padding),
            copied(seed, E, h, inputs, attn_mask=attn),
            copied(seed, E, h, inputs, attn_mask=per_head),
            copied(seed, E, h, inputs, attn_mask=r(gen, L, S)),
            copied(seed, E, h, inputs, attn_mask=r(gen, N * h, L, S)),
            copied(seed, E, h, inputs, key_padding_mask=r(gen, N, S)),
            copied(seed, E, h, inputs, key_padding_mask=padding, attn_mask=attn),
            copied(seed, E, h, inputs, key_padding_mask=padding, attn_mask=r(gen, L, S)),
            lambda cls, E=E, h=h: {k: tuple(v.shape) for k, v in cls(E, h).named_parameters()},
        ]
    return probes


PROBES = {
    "multihead_project": heads_probes,
    "multihead_attention": multihead_attention_probes,
    "concat_heads": concat_probes,
    "MultiHeadAttention": mha_probes,
}

# Code a step's reference calls that is no step of its own: mutated with it (a student may
# write it inline).
HELPERS = {
    "MultiHeadAttention": (reference.as_additive,),
}
