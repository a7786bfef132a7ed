"""Does a probe's change of an earlier step reach the places the student's code holds that
step besides its names (a default value, a table, a closure's cell ...), and is each put back
after?"""

from __future__ import annotations

import functools

from autograder.checks.op_record import HELD_ENTRIES, HELD_TABLE
from autograder.checks.recorder import restored, swapped_where_held

SHORT_TABLES = HELD_ENTRIES // HELD_TABLE + 1  # tables of HELD_TABLE numbers that end a search
STEPS = "def score(k, q):\n    return k * q\n\ndef other(k, q):\n    return k + q\n\n"


def notebook(code):
    """The namespace a notebook's cells make of `code`, the earlier steps defined first."""
    namespace = {"__name__": "__main__", "functools": functools}
    exec(STEPS + code, namespace)  # noqa: S102 - the test's own code
    return namespace


def replacement(k, q):
    return 0


def elsewhere():
    """A function defined outside the notebook's namespace, as a library's is."""


def test_defaults_and_tables_holding_a_step_are_swapped_and_restored():
    """A function's positional default, a method's keyword-only default, the default of a
    function under a decorator that keeps __wrapped__, a dict's entry and a list's item: do
    all five hold the replacement while swapped, does what holds anything else stay, and is
    each put back after?"""
    space = notebook(
        "def plain(x, s=score, t=other):\n    return s(x, x), t(x, x)\n\n"
        "class Block:\n    def forward(self, x, *, s=score):\n        return s(x, x)\n\n"
        "def inner(x, s=score):\n    return s(x, x)\n\n"
        "wrapped = functools.wraps(inner)(lambda *args, **kwargs: inner(*args, **kwargs))\n"
        "TABLE, ROW = {'scaled': score, 'plus': other}, [other, score]\n")
    score, other = space["score"], space["other"]
    swapped = swapped_where_held(space, score, replacement)
    assert space["plain"](3) == (0, 6)
    assert space["Block"]().forward(3) == 0
    assert space["wrapped"](3) == 0
    assert space["TABLE"] == {"scaled": replacement, "plus": other}
    assert space["ROW"] == [other, replacement]
    restored(swapped)
    assert space["plain"](3) == (9, 6)
    assert space["Block"]().forward(3) == 9
    assert space["wrapped"](3) == 9
    assert space["plain"].__defaults__ == (score, other)
    assert space["Block"].forward.__kwdefaults__ == {"s": score}
    assert space["TABLE"] == {"scaled": score, "plus": other}
    assert space["ROW"] == [other, score]


def test_a_step_held_deeper_is_swapped_and_restored():
    """A closure's cell, a function's attribute, a table in a table, a tuple bound to a name
    and one in a table: do all hold the replacement while swapped (a tuple replaced where it
    is held), and is each put back after, the very objects again?"""
    space = notebook(
        "def made(s):\n    def step(x):\n        return s(x, x)\n    return step\n\n"
        "closed = made(score)\n\n"
        "def tagged(x):\n    return tagged.score(x, x)\n\ntagged.score = score\n"
        "NESTED = {'scores': {'scaled': score}, 'rows': [[other, score]]}\n"
        "PAIR, KEPT = (other, score), {'pair': (score,)}\n")
    score, other, pair = space["score"], space["other"], space["PAIR"]
    swapped = swapped_where_held(space, score, replacement)
    assert space["closed"](3) == 0 and space["tagged"](3) == 0
    assert space["NESTED"] == {"scores": {"scaled": replacement},
                               "rows": [[other, replacement]]}
    assert space["PAIR"] == (other, replacement) and space["KEPT"]["pair"] == (replacement,)
    assert space["score"] is score  # its names are the caller's to bind
    restored(swapped)
    assert space["closed"](3) == 9 and space["tagged"](3) == 9
    assert space["NESTED"] == {"scores": {"scaled": score}, "rows": [[other, score]]}
    assert space["PAIR"] is pair and space["KEPT"]["pair"] == (score,)


def test_what_a_search_leaves_alone():
    """Are IPython's records of outputs, a class's own attribute, a table nested deeper than
    HELD_DEPTH, a library's function and a cycle left as they are, and does a wrapper that
    wraps itself end the search?"""
    space = notebook(
        "DEEP = {'a': {'b': {'c': {'d': {'e': score}}}}}\n"
        "LOOPED = {'score': score}\nLOOPED['self'] = LOOPED\n"
        "class Settings:\n    use = score\n\n"
        "def chained(x):\n    return x\n\nchained.__wrapped__ = chained\n"
        "Out, _1 = {1: [score]}, [score]\n")
    score, other = space["score"], space["other"]
    library = elsewhere
    library.kept = score
    space["library"] = library
    swapped = swapped_where_held(space, score, other)
    assert space["Out"] == {1: [score]} and space["_1"] == [score]
    assert space["DEEP"]["a"]["b"]["c"]["d"]["e"] is score
    assert space["Settings"].__dict__["use"] is score
    assert library.kept is score
    assert space["LOOPED"]["score"] is other and space["LOOPED"]["self"] is space["LOOPED"]
    restored(swapped)
    assert space["LOOPED"]["score"] is score


def test_a_search_ends_after_its_entries():
    """Does a table longer than HELD_TABLE cost the search nothing (it is not looked into), do
    short tables of numbers end it (HELD_ENTRIES), so that a table after them is left, as
    grading's kernel leaves it, and does a table before them change?"""
    space = notebook(f"BEFORE = [score]\nROOTS = {{d: d ** 0.5 for d in range({HELD_TABLE + 1})}}\n"
                     f"FOUND = [score, ROOTS]\n"
                     f"NUMBERS = [list(range({HELD_TABLE})) for _ in range({SHORT_TABLES})]\n"
                     "AFTER = [score]\n")
    score = space["score"]
    swapped_where_held(space, score, replacement)
    assert space["BEFORE"] == [replacement] and space["FOUND"][0] is replacement
    assert space["AFTER"] == [score]


def test_a_table_whose_keys_run_code_is_left():
    """Is a table with a key that is neither a string nor an int left as it is (a lookup there
    would run the key's own __eq__), and a function whose __dict__ is not exactly a dict?"""
    space = notebook(
        "RAN = []\n"
        "class Key:\n    def __hash__(self):\n        return hash('s')\n"
        "    def __eq__(self, other):\n        RAN.append(other)\n        return False\n\n"
        "TABLE = {Key(): 0, 's': score}\nRAN.clear()\n"
        "class Attributes(dict):\n    pass\n\n"
        "def step(x):\n    return step.s(x, x)\n\nstep.__dict__ = Attributes(s=score)\n")
    score = space["score"]
    assert swapped_where_held(space, score, replacement) == []
    assert list(space["TABLE"].values())[1] is score and space["step"](3) == 9
    assert space["RAN"] == []
