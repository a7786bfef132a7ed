"""bench/draws.py on a few draws of the steps whose fragile formulas a fixed case decides:
the full measure (50 draws of every step) is the benchmark's, run by hand."""

from __future__ import annotations

import sys

from tests.course import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import draws  # noqa: E402


def test_fragile_steps_are_decided_the_same_way_on_every_draw(capsys):
    """Over 3 students' draws of layer_norm, stable_softmax and online_attention, does every
    correct subject pass, every catalogued mistake get caught and named, and every fragile
    formula (E[x²] − E[x]², a clamp, a finite running max) fail every draw (exit 0)?"""
    assert draws.main(["--draws", "3", "--jobs", "2", "--steps", "layer_norm",
                       "stable_softmax", "online_attention"]) == 0
    said = capsys.readouterr().out
    assert said.count(" ok ") == 3, said


def test_a_formula_decided_by_the_draw_is_named():
    """Is a fragile formula that fails some draws and passes others said to be decided by
    the draw, a correct one that fails a draw said to be correct yet failing, and a mistake
    caught but not named said so?"""
    fragile = draws.Record("fragile", "E[x^2] - E[x]^2", failed=[3])
    assert "decided by the draw: failed 1 of 5" in fragile.broken(5)
    assert draws.Record("fragile", "float16", failed=[0, 1, 2, 3, 4]).broken(5) == ""
    assert "correct, yet failed 1 of 5" in draws.Record("idiom", "einsum", failed=[2]).broken(5)
    unnamed = draws.Record("mistake", "no max", failed=[0, 1], named=[0])
    assert "named on 1 of 2" in unnamed.broken(2)
