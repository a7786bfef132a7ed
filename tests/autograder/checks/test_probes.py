"""Does a probe's rerun take a function's default values from the function, as they are
then, and keep every argument the call was given?"""

from __future__ import annotations

import functools

from autograder.checks.probes import defaults_left_out


def score(k, q):
    return k * q


def test_a_rerun_leaves_out_what_the_defaults_gave():
    """Of the arguments a frame held (the given ones and the defaulted ones alike), are the
    trailing ones that are the defaults' own objects left out, keyword-only ones too, and are
    those given otherwise (another object, a value before a given one) kept?"""
    def step(x, y=1, s=score, *, t=score, u=2):
        return x

    assert defaults_left_out(step, ([5, 1, score], {"t": score, "u": 3})) == ([5], {"u": 3})
    assert defaults_left_out(step, ([5, 7, score], {})) == ([5, 7], {})
    assert defaults_left_out(step, ([5, 1, abs], {})) == ([5, 1, abs], {})
    wrapped = functools.wraps(step)(lambda *args, **kwargs: step(*args, **kwargs))
    assert defaults_left_out(wrapped, ([5, 1, score], {})) == ([5], {})
    assert defaults_left_out(functools.partial(step, 5), ([1], {})) == ([1], {})


def test_a_wrapper_that_wraps_itself_leaves_the_call_as_it_was():
    """An object of the student's whose __wrapped__ is itself: is the call kept whole, instead
    of following the chain for ever (the notebook's cell would never end)?"""
    class Looped:
        def __call__(self, x):
            return x

    looped = Looped()
    looped.__wrapped__ = looped
    assert defaults_left_out(looped, ([5], {})) == ([5], {})
