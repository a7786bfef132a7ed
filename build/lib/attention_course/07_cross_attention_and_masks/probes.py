"""The stated domain of 07_cross_attention_and_masks's steps, for the mutation harness
(python -m autograder mutate): inputs beyond the hidden checks' own that every correct
version must handle as the reference does, read from what each step promises. A mutant
that differs from the reference on one of them is not equivalent to it."""

import torch

# short names: the probes are many
from autograder.checks.common import calling as calls
from autograder.checks.common import future
from autograder.checks.common import randn as r


def cross_probes(gen):
    return [calls(r(gen, nq, d_in), r(gen, nc, d_in), r(gen, d_in, d_k), r(gen, d_in, d_k),
                  r(gen, d_in, d_v))
            for nq, nc, d_in, d_k, d_v in ((2, 5, 3, 4, 6), (1, 3, 2, 2, 5), (4, 1, 3, 5, 2),
                                           (3, 3, 3, 3, 3), (6, 2, 4, 1, 3))]


def causal_probes(gen):
    return [calls(n) for n in (1, 2, 3, 5, 8, 13)]


def masked_softmax_probes(gen):
    scores = r(gen, 4, 6, scale=3)
    mask = torch.rand(4, 6, generator=gen) < 0.4
    mask[:, 0] = False
    mask[2] = True
    batch = r(gen, 2, 4, 6, scale=3)
    batch_mask = torch.rand(2, 4, 6, generator=gen) < 0.4
    return [calls(scores, mask, 4), calls(scores, mask[0], 9), calls(scores, mask[:1], 2),
            calls(batch, mask, 5), calls(batch, batch_mask, 3), calls(batch, batch_mask[:, :1], 7),
            calls(r(gen, 2, 3, 4, 6), mask, 16), calls(scores, torch.zeros(6, dtype=torch.bool), 4),
            calls(scores, torch.ones(4, 6, dtype=torch.bool), 4), calls(r(gen, 5, 5), future(5), 1),
            calls(r(gen, 3, 6, scale=1e3), mask[:3], 8), calls(r(gen, 6, scale=3), mask[1], 4)]


PROBES = {
    "cross_attention": cross_probes,
    "causal_mask": causal_probes,
    "masked_scaled_softmax": masked_softmax_probes,
}
