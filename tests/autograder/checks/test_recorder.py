"""Does a probe's change of an earlier step reach the places the student's code holds that
step besides its names (a default value, a table), and is each put back after?"""

from __future__ import annotations

import functools

from autograder.checks.recorder import restored, swapped_where_held


def score(k, q):
    return k * q


def other(k, q):
    return k + q


def test_defaults_and_tables_holding_a_step_are_swapped_and_restored():
    """A function's positional default, a method's keyword-only default, the default of a
    function under a decorator that keeps __wrapped__, a dict's entry and a list's item: do
    all five hold the replacement while swapped, does what holds anything else stay, and is
    each put back after?"""
    def plain(x, s=score, t=other):
        return s(x, x), t(x, x)

    class Block:
        def forward(self, x, *, s=score):
            return s(x, x)

    def inner(x, s=score):
        return s(x, x)

    wrapped = functools.wraps(inner)(lambda *args, **kwargs: inner(*args, **kwargs))
    table, row = {"scaled": score, "plus": other}, [other, score]
    namespace = {"plain": plain, "Block": Block, "wrapped": wrapped, "score": score,
                 "TABLE": table, "ROW": row}

    def replacement(k, q):
        return 0

    swapped = swapped_where_held(namespace, score, replacement)
    assert plain(3) == (0, 6)
    assert Block().forward(3) == 0
    assert wrapped(3) == 0
    assert table == {"scaled": replacement, "plus": other} and row == [other, replacement]
    restored(swapped)
    assert plain(3) == (9, 6)
    assert Block().forward(3) == 9
    assert wrapped(3) == 9
    assert plain.__defaults__ == (score, other) and Block.forward.__kwdefaults__ == {"s": score}
    assert table == {"scaled": score, "plus": other} and row == [other, score]
