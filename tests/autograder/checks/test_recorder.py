"""Does a probe's change of an earlier step reach the places a definition took that step in
as a default value, and is each put back after?"""

from __future__ import annotations

import functools

from autograder.checks.recorder import defaults_restored, defaults_swapped


def score(k, q):
    return k * q


def other(k, q):
    return k + q


def test_defaults_holding_a_step_are_swapped_and_restored():
    """A function's positional default, a method's keyword-only default and the default of a
    function under a decorator that keeps __wrapped__: do all three hold the replacement while
    swapped, do defaults holding anything else stay, and is each put back after?"""
    def plain(x, s=score, t=other):
        return s(x, x), t(x, x)

    class Block:
        def forward(self, x, *, s=score):
            return s(x, x)

    def inner(x, s=score):
        return s(x, x)

    wrapped = functools.wraps(inner)(lambda *args, **kwargs: inner(*args, **kwargs))
    namespace = {"plain": plain, "Block": Block, "wrapped": wrapped, "score": score}

    def replacement(k, q):
        return 0

    swapped = defaults_swapped(namespace, score, replacement)
    assert plain(3) == (0, 6)
    assert Block().forward(3) == 0
    assert wrapped(3) == 0
    defaults_restored(swapped)
    assert plain(3) == (9, 6)
    assert Block().forward(3) == 9
    assert wrapped(3) == 9
    assert plain.__defaults__ == (score, other) and Block.forward.__kwdefaults__ == {"s": score}
