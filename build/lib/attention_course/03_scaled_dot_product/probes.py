"""The stated domain of 03_scaled_dot_product's steps, for the mutation harness
(python -m autograder mutate): inputs beyond the hidden checks' own that every correct
version must handle as the reference does, read from what each step promises. A mutant
that differs from the reference on one of them is not equivalent to it."""

import torch

# short names: the probes are many
from autograder.checks.common import calling as calls
from autograder.checks.common import future
from autograder.checks.common import randn as r


def project_probes(gen):
    W = r(gen, 4, 3)
    return [calls(r(gen, 4), W), calls(r(gen, 5, 4), W), calls(r(gen, 2, 5, 4), W),
            calls(r(gen, 2, 3, 5, 4), W), calls(r(gen, 3, 3), r(gen, 3, 3)),
            calls(r(gen, 1, 4), r(gen, 4, 1))]


def scaled_softmax_probes(gen):
    probes = [calls(r(gen, 6, scale=3), 5), calls(r(gen, 3, 6, scale=3), 7),
              calls(r(gen, 2, 3, 6, scale=3), 4), calls(r(gen, 2, 2, 3, 6), 9),
              calls(r(gen, 4, 4), 1), calls(r(gen, 3, 5), 64), calls(r(gen, 3, 5, scale=1e3), 16)]
    return probes


def sdpa_probes(gen):
    def qkv(*lead, n=3, seq=5, d_k=4, d_v=6):
        return r(gen, *lead, n, d_k), r(gen, *lead, seq, d_k), r(gen, *lead, seq, d_v)
    q, k, v = qkv()
    probes = [calls(*qkv()), calls(*qkv(2)), calls(*qkv(2, 3)), calls(*qkv(n=1, seq=1)),
              calls(*qkv(n=4, seq=4, d_k=4, d_v=4)), calls(q[0], k, v),
              calls(*qkv(n=6, seq=2, d_k=3, d_v=1))]
    full = torch.rand(3, 5, generator=gen) < 0.5
    full[0], full[1] = True, False
    probes += [calls(q, k, v, mask=full), calls(q, k, v, mask=full[2]),
               calls(q, k, v, mask=full[2:3]), calls(q[0], k, v, mask=full[2]),
               calls(q, k, v, mask=torch.zeros(3, 5, dtype=torch.bool)),
               calls(q, k, v, mask=None)]
    qb, kb, vb = qkv(2)
    batch_mask = torch.rand(2, 3, 5, generator=gen) < 0.5
    probes += [calls(qb, kb, vb, mask=batch_mask), calls(qb, kb, vb, mask=full),
               calls(qb, kb, vb, mask=batch_mask[:, :1]),
               calls(*qkv(n=4, seq=4), mask=future(4))]
    return probes


PROBES = {
    "project": project_probes,
    "scaled_softmax": scaled_softmax_probes,
    "scaled_dot_product_attention": sdpa_probes,
}
