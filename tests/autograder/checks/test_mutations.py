"""Do the hidden checks catch wrong versions of every reference, made automatically?

The mutation harness (autograder/tools/mutations.py, `python -m autograder mutate`) makes
mutants of each step's reference (one small change each: a swapped
operand, another dim, a dropped scale, an inverted mask ...), drops those equivalent to the
reference on the step's stated domain, and runs the rest through the step's hidden checks
in-process. Here a capped sample of them, drawn under a fixed seed, holds the kill rate to
a floor, so that a change to the checks that lets wrong code through fails the suite."""

from __future__ import annotations

import warnings

import pytest
import torch

from autograder.tools import mutations
from tests.course import IDS, ROOT

SEED = 0
PER_STEP = 40  # mutants per step at most: about 700 in all, some seconds
OVERALL_FLOOR = 0.98
STEP_FLOOR = 0.95


@pytest.fixture(scope="module")
def results():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return mutations.run(mutations.targets(ROOT, IDS), limit=PER_STEP, seed=SEED,
                                 seeds=5, log=lambda _: None)
    finally:
        torch.set_num_threads(threads)


def survivors(results):
    return "\n".join(f"  {m.step}: {m.label}: {m.change}" for r in results for m in r.survivors)


def test_every_step_of_the_course_has_probes(results):
    """Is the equivalence of every step's mutants decided on its stated domain (the
    assignment's probes.py), not on its random cases alone?"""
    unprobed = [r.name for r in results if not r.probed]
    assert not unprobed, f"no probes in their assignment's probes.py: {', '.join(unprobed)}"


def test_every_step_has_mutants_to_judge(results):
    """Does every step yield mutants that are not equivalent to its reference?"""
    empty = [r.name for r in results if r.judged < 5]
    assert not empty, f"fewer than 5 mutants to judge in: {', '.join(empty)}"


def test_overall_kill_rate(results):
    """Do the hidden checks kill at least 98 % of the sampled mutants, all steps together?"""
    rate = mutations.overall(results)
    assert rate >= OVERALL_FLOOR, (
        f"the checks kill {100 * rate:.1f}% of the mutants, below {100 * OVERALL_FLOOR:.0f}%; "
        f"survivors:\n{survivors(results)}"
    )


def test_kill_rate_of_every_step(results):
    """Do the hidden checks of every step kill at least 95 % of its sampled mutants?"""
    low = [f"{r.name} {100 * r.kill_rate:.1f}%" for r in results if r.kill_rate < STEP_FLOOR]
    assert not low, (f"steps below {100 * STEP_FLOOR:.0f}%: {', '.join(low)}; survivors:\n"
                     f"{survivors(results)}")


def test_equivalent_mutants_pass_the_checks(results):
    """Does every mutant that behaves as the reference on the step's whole stated domain
    also pass the hidden checks (no check asks more than the reference does)?"""
    odd = [f"  {m.step}: {m.label}: {m.change}" for r in results for m in r.equivalent_killed]
    assert not odd, "equivalent mutants that fail the checks:\n" + "\n".join(odd)
