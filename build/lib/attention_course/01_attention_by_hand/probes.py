"""The stated domain of 01_attention_by_hand's steps, for the mutation harness
(python -m autograder mutate): inputs beyond the hidden checks' own that every correct
version must handle as the reference does, read from what each step promises. A mutant
that differs from the reference on one of them is not equivalent to it."""

import torch

# short names: the probes are many
from autograder.checks.common import calling as calls
from autograder.checks.common import randn as r


def qkv_probes(gen):
    sizes_in = ((3, 4, 5, 2), (1, 6, 2, 7), (4, 4, 4, 4), (5, 2, 3, 1))
    return [calls(r(gen, seq, d_in), r(gen, d_in, d_k), r(gen, d_in, d_k), r(gen, d_in, d_v))
            for seq, d_in, d_k, d_v in sizes_in]


def scores_probes(gen):
    return [calls(r(gen, 5), r(gen, 3, 5)), calls(r(gen, 2, 4), r(gen, 6, 4)),
            calls(r(gen, 3, 2, 4), r(gen, 3, 5, 4)), calls(r(gen, 2, 3, 1, 6), r(gen, 2, 3, 4, 6)),
            calls(r(gen, 4, 4), r(gen, 4, 4))]


def softmax_probes(gen):
    probes = [calls(r(gen, 7)), calls(r(gen, 7), dim=0), calls(r(gen, 3, 5), dim=0),
              calls(r(gen, 3, 5), dim=-2), calls(r(gen, 3, 5), dim=1)]
    probes += [calls(r(gen, 2, 3, 4, scale=3), dim=d) for d in (0, 1, 2, -1, -2, -3)]
    probes += [calls(r(gen, 2, 3, 4, 5), dim=d) for d in (1, -1, 3)]
    probes += [calls(r(gen, 4, 6, scale=1e4)), calls(r(gen, 4, 6, scale=1e4), dim=0),
               calls(1e4 + r(gen, 3, 5)), calls(-1e4 + r(gen, 3, 5), dim=0),
               calls(torch.tensor([1e4, 0.0, -1e4]))]
    return probes


def weights_values_probes(gen, one_query):
    def w(*shape):
        return torch.softmax(r(gen, *shape), dim=-1)
    probes = [calls(w(2, 5), r(gen, 5, 3)), calls(w(1, 4), r(gen, 4, 6)),
              calls(w(4, 4), r(gen, 4, 4)), calls(w(6, 2), r(gen, 2, 7))]
    if one_query:
        probes += [calls(w(5), r(gen, 5, 3)), calls(w(3), r(gen, 3, 3))]
    return probes


PROBES = {
    "project_qkv": qkv_probes,
    "attention_scores": scores_probes,
    "stable_softmax": softmax_probes,
    "weighted_values": lambda gen: weights_values_probes(gen, one_query=False),
    "context_vectors": lambda gen: weights_values_probes(gen, one_query=True),
}
