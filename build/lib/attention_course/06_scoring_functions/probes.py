"""The stated domain of 06_scoring_functions's steps, for the mutation harness
(python -m autograder mutate): inputs beyond the hidden checks' own that every correct
version must handle as the reference does, read from what each step promises. A mutant
that differs from the reference on one of them is not equivalent to it."""

import torch

# short names: the probes are many
from autograder.checks.common import calling as calls
from autograder.checks.common import randn as r


def vector_probes(gen):
    return [calls(r(gen, d), r(gen, d)) for d in (1, 2, 5, 16)] + [
        calls(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, -5.0, 6.0]))]


def additive_probes(gen):
    return [calls(r(gen, d_k), r(gen, d_q), r(gen, d_a, d_k), r(gen, d_a, d_q), r(gen, d_a))
            for d_k, d_q, d_a in ((2, 3, 4), (3, 3, 3), (1, 5, 2), (6, 2, 1), (4, 4, 7))]


def bilinear_probes(gen):
    return [calls(r(gen, d_k), r(gen, d_q), r(gen, d_k, d_q))
            for d_k, d_q in ((2, 3), (4, 4), (1, 5), (6, 1), (3, 3))]


def column_probes(gen):
    return [calls(r(gen, d1, n), r(gen, d3, d1), r(gen, d3, d1), r(gen, d2, d1))
            for d1, n, d3, d2 in ((3, 5, 2, 4), (4, 4, 4, 4), (2, 1, 3, 5), (5, 3, 6, 1),
                                  (3, 6, 1, 2))]


PROBES = {
    "dot_score": vector_probes,
    "scaled_dot_score": vector_probes,
    "additive_score": additive_probes,
    "bilinear_score": bilinear_probes,
    "loop_attention": column_probes,
    "vectorized_attention": column_probes,
}
