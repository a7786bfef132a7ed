"""bench/grading.py's --mixed class and command line, without grading anything (the bench
prints figures; these hold only what it grades and which options it takes)."""

from __future__ import annotations

import random
import sys

import pytest

from autograder.tools.demo import SHARES
from tests.course import IDS, ROOT

sys.path.insert(0, str(ROOT / "bench"))
import grading  # noqa: E402


def test_the_mixed_class_is_drawn_in_the_demos_shares_with_one_endless_loop():
    """Does every student hand in every assignment, with exactly one endless loop among the
    notebooks, and each kind of the demo (correct, partly done, blank, else a catalogued
    mistake) in about the demo's share of the rest?"""
    students = 200
    plan = grading.mixed_plan(IDS, students, random.Random(0))
    assert sorted(plan) == sorted((f"s{n:03d}", a) for n in range(students) for a in IDS)
    kinds = [kind for kind, _ in plan.values()]
    assert kinds.count("looping_forever") == 1
    expected = dict(SHARES, mistake=1 - sum(share for _, share in SHARES))
    for kind, share in expected.items():
        assert kinds.count(kind) / len(plan) == pytest.approx(share, abs=0.03), kind
    assert all(mistake is not None for kind, mistake in plan.values() if kind == "mistake")


@pytest.mark.parametrize("options", [["--every-assignment", "--mixed"],
                                     ["--mixed", "--modes-only"]])
def test_the_benchs_only_options_are_refused_together(options, capsys):
    """Is a command line asking for two of --modes-only, --every-assignment and --mixed
    refused, rather than one of them silently winning?"""
    with pytest.raises(SystemExit):
        grading.arguments(options)
    assert "not allowed with" in capsys.readouterr().err
