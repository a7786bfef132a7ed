"""The stated domain of 04_self_attention's steps, for the mutation harness
(python -m autograder mutate): inputs beyond the hidden checks' own that every correct
version must handle as the reference does, read from what each step promises. A mutant
that differs from the reference on one of them is not equivalent to it."""

# short names: the probes are many
from autograder.checks.common import calling as calls
from autograder.checks.common import randn as r

from .checks import built


def self_attention_probes(gen):
    def inputs(*lead, seq=5, d_in=3, d_k=2, d_v=4):
        return r(gen, *lead, seq, d_in), r(gen, d_in, d_k), r(gen, d_in, d_k), r(gen, d_in, d_v)
    return [calls(*inputs()), calls(*inputs(2)), calls(*inputs(2, 3)), calls(*inputs(seq=1)),
            calls(*inputs(seq=4, d_in=4, d_k=4, d_v=4)), calls(*inputs(seq=3, d_k=7, d_v=1))]


def module_probes(gen):
    probes = []
    for seed, sizes_in, seq in ((5, (3, 2, 4), 6), (6, (4, 4, 4), 4), (7, (2, 5, 1), 1)):
        x = r(gen, seq, sizes_in[0])
        probes += [built(seed, sizes_in, x), built(seed, sizes_in), registered(sizes_in)]
    return probes


def registered(sizes_in):
    """A run: the module's registered parameters, by name and shape ("create three
    parameters named W_query, W_key and W_value, in that order")."""
    return lambda cls: [(n, tuple(p.shape)) for n, p in cls(*sizes_in).named_parameters()]


PROBES = {
    "self_attention": self_attention_probes,
    "SelfAttention": module_probes,
}
