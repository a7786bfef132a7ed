"""bench/first_answer.py's goals, without grading anything: each figure beside its goal, met
or not as the issue's bounds say."""

from __future__ import annotations

import sys

from tests.course import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import first_answer  # noqa: E402

MIB = 2**20


def figures(cold_wall=2.4, warm_wall=0.4, cold_pss_mib=520, worker_pss_mib=330,
            ratios=(10.5, 11.0), mixed=11.3):
    one = {"cold": [(cold_wall + 1, 4.0), (cold_wall, 3.9)], "cold peak": cold_pss_mib,
           "plain": [(7.2, 6.7), (7.1, 6.7)], "plain peak": 497,
           "warm": [(warm_wall + 0.4, 0.6), (warm_wall, 0.2)], "serve": 536}
    assignments = {f"0{n + 1}_x": (ratio, worker_pss_mib * MIB)
                   for n, ratio in enumerate(ratios)}
    return one, assignments, mixed


def test_every_goal_is_met_when_every_figure_is_within_its_bound():
    """With the best cold run under 2.5 s, warm under 0.5 s, under 600 MB and 512 MiB, and
    every ratio at 10x or more, is every line met, one per assignment among them?"""
    rows = first_answer.goals(*figures())
    assert [row.met for row in rows] == [True] * len(rows)
    assert len(rows) == 4 + 2 + 1
    assert rows[0].measured == 2.4  # the best of the runs, not the first
    assert "plain nbgrader 7.10 s" in rows[0].what


def test_a_figure_past_its_bound_is_said_not_met_on_its_own_line():
    """Is a cold run of 2.6 s, an assignment at 9.5x and a worker at 520 MiB each NOT MET,
    and nothing else?"""
    rows = first_answer.goals(*figures(cold_wall=2.6, worker_pss_mib=520, ratios=(9.5, 11)))
    unmet = [row.what for row in rows if not row.met]
    assert len(unmet) == 3
    assert unmet[0].startswith("one notebook cold, wall")
    assert "worker" in unmet[1]
    assert unmet[2] == "01_x against plain nbgrader"
    assert all(("NOT MET" in row.line()) != row.met for row in rows)


def test_memory_of_one_notebook_is_held_to_600_megabytes_not_mebibytes():
    """Is 575 MiB (603 MB) of one cold notebook over the 600 MB goal?"""
    rows = first_answer.goals(*figures(cold_pss_mib=575))
    memory = next(row for row in rows if "PSS over its processes" in row.what)
    assert not memory.met and round(memory.measured) == 603
