"""The stated domain of 09_gradients_and_memory's steps, for the mutation harness
(python -m autograder mutate): inputs beyond the hidden checks' own that every correct
version must handle as the reference does, read from what each step promises (any leading
dims, any dim of the softmax, float32 and float64, any block size >= 1, scores far apart).
A mutant that differs from the reference on one of them is not equivalent to it."""

import torch

# short names: the probes are many
from autograder.checks.common import calling as calls
from autograder.checks.common import randn as r


def softmax_pair(gen, shape, dim, dtype=torch.float64):
    scores = 3 * torch.randn(*shape, generator=gen, dtype=dtype)
    return torch.softmax(scores, dim=dim), torch.randn(*shape, generator=gen, dtype=dtype)


def softmax_probes(gen):
    probes = []
    for shape, dim in (((5,), -1), ((5,), 0), ((3, 4), -1), ((3, 4), 0), ((3, 4), 1),
                       ((2, 3, 4), -1), ((2, 3, 4), 0), ((2, 3, 4), 1), ((2, 3, 4), -2),
                       ((2, 3, 4), -3), ((1, 1), -1), ((4, 1), 0), ((2, 1, 3, 5), 2)):
        probes.append(calls(*softmax_pair(gen, shape, dim), dim=dim))
        probes.append(calls(*softmax_pair(gen, shape, dim, torch.float32), dim=dim))
    probes.append(calls(*softmax_pair(gen, (3, 6), -1)))  # dim left at its default
    return probes


def attention_probes(gen):
    probes = []
    for lead, n_q, n_k, d_k, d_v in (((), 2, 5, 3, 4), ((), 1, 4, 2, 3), ((), 4, 1, 3, 2),
                                     ((3,), 2, 5, 4, 6), ((2, 3), 4, 3, 5, 2), ((), 3, 3, 3, 3),
                                     ((1,), 6, 2, 1, 5)):
        for dtype in (torch.float64, torch.float32):
            shapes = ((n_q, d_k), (n_k, d_k), (n_k, d_v), (n_q, d_v))
            probes.append(calls(*(torch.randn(*lead, *s, generator=gen, dtype=dtype)
                                  for s in shapes)))
    return probes


def apart(gen, lead, n_q, n_k, d_k, d_v):
    """Queries whose scores lie far apart: the first one's in the hundreds, the others' small,
    and keys whose largest scores come late."""
    direction = r(gen, d_k)
    keys = r(gen, *lead, n_k, d_k) + 3 * direction
    keys[..., : n_k // 2, :] -= 6 * direction
    queries = r(gen, *lead, n_q, d_k)
    queries[..., 0, :] = 30 * direction
    return queries, keys, r(gen, *lead, n_k, d_v)


def online_probes(gen):
    probes = []
    for lead, n_q, n_k, d_k, d_v in (((), 3, 7, 4, 5), ((2,), 2, 9, 3, 4), ((2, 3), 4, 6, 5, 2),
                                     ((), 1, 5, 2, 3), ((), 5, 1, 3, 2)):
        inputs = (r(gen, *lead, n_q, d_k), r(gen, *lead, n_k, d_k), r(gen, *lead, n_k, d_v))
        for block_size in sorted({1, 2, 3, n_k - 1 or 1, n_k, n_k + 2}):
            probes.append(calls(*inputs, block_size))
        probes.append(calls(*apart(gen, lead, n_q, max(n_k, 4), d_k, d_v), 2))
    probes.append(calls(r(gen, 3, 4, scale=40), r(gen, 8, 4, scale=40), r(gen, 8, 3), 3))
    probes.append(calls(r(gen, 3, 4), r(gen, 8, 4), r(gen, 8, 3), 3))
    direction = r(gen, 4)
    below = r(gen, 3, 4)
    below[1] = -30 * direction  # every score of the second query far below zero
    probes.append(calls(below, r(gen, 7, 4) + 3 * direction, r(gen, 7, 2), 3))
    far = r(gen, 2, 4)
    far[0] = -1e4 / (3 * direction.dot(direction)) * 2 * direction  # scores near -10000
    probes.append(calls(far, r(gen, 5, 4) + 3 * direction, r(gen, 5, 3), 2))
    return probes


def cached_probes(gen):
    probes = []
    for lead, seq, d_in, d_k, d_v in (((), 5, 3, 4, 2), ((), 1, 3, 2, 4), ((2,), 4, 5, 3, 6),
                                      ((2, 3), 6, 4, 2, 3), ((), 7, 2, 5, 1), ((1,), 3, 3, 3, 3)):
        probes.append(calls(r(gen, *lead, seq, d_in), r(gen, d_in, d_k), r(gen, d_in, d_k),
                            r(gen, d_in, d_v)))
    probes.append(calls(r(gen, 6, 4, scale=10), r(gen, 4, 3, scale=3), r(gen, 4, 3, scale=3),
                        r(gen, 4, 2)))
    return probes


PROBES = {
    "softmax_backward": softmax_probes,
    "attention_backward": attention_probes,
    "online_attention": online_probes,
    "cached_causal_attention": cached_probes,
}
