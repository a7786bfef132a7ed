"""Benchmark: every speed and memory goal of the kit, in one run, each figure beside its goal.

In turn, on this machine, each part printing its own lines as it goes:

1. one notebook of 01, cold, `--runs` times (bench/single.py): the kit's `grade --student`
   from launch to exit, its timeline, then through a running `serve` (warm), then plain
   nbgrader's autograde of the same kind of notebook; the memory of each kind on one more
   run, not timed; and a new Python importing torch alone, the floor of a cold grade;
2. every assignment (bench/grading.py --every-assignment): a class of `--students`
   notebooks of each, plain nbgrader against the kit's grade on `--workers` workers, with the
   largest worker's peak memory;
3. the mixed class (bench/grading.py --mixed): `--mixed-students` students handing in all
   nine, in the demo's shares, with one endless loop;
4. feedback pages (bench/grading.py --feedback): a class of `--students` notebooks of 01,
   every page by plain nbgrader's command and by the kit's write_feedback in this process, its
   imports done, as serve writes a feedback handed to it (its line says where the pages were
   written), then one page, cold, by each command;
5. one Gradescope upload of 01, cold, `--runs` times (bench/gradescope.py; as root, which
   makes its memory cgroups; not measured otherwise).

Then the goals, one line each: the figure (the best run where there are several), the goal,
and whether it is met; and how many are. The figures are this machine's, at this moment:
run it with nothing else working (a test suite beside it halves the kit's share of the
cores).

    .venv/bin/python bench/first_answer.py [--students 30] [--mixed-students 10]
                                           [--workers 2] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import gradescope  # noqa: E402
import grading  # noqa: E402
import single  # noqa: E402

MB = 10**6
MIB = 2**20


@dataclass(frozen=True)
class Goal:
    what: str
    measured: float
    bound: float
    unit: str
    above: bool = False  # met when the figure is at or above the bound (a ratio), else below

    @property
    def met(self):
        return self.measured >= self.bound if self.above else self.measured < self.bound

    def line(self):
        sign = ">=" if self.above else "<"
        return (f"{'met    ' if self.met else 'NOT MET'}  {self.what:<58} "
                f"{self.measured:8.2f} {self.unit:<4} (goal {sign} {self.bound:.3g} {self.unit})")


def goals(one, assignments, mixed_ratio, pages, cloud):
    """The goals of the figures measured: `one` from single.measure, `assignments`
    {id: (ratio, worker peak PSS bytes)}, the mixed class's ratio, `pages` from
    grading.feedback_figures, `cloud` (best wall s, own memory bytes) of a Gradescope run, or
    None where it could not be measured (not root)."""
    cold, plain, warm = min(one["cold"]), min(one["plain"]), min(one["warm"])
    torch = min(one["torch"])  # the floor of a cold grade: some process imports torch
    rows = [
        Goal(f"one notebook cold, wall (plain nbgrader {plain[0]:.2f} s, torch's import alone "
             f"{torch[0]:.2f} s)", cold[0], 1.5, "s"),
        Goal("one notebook warm through serve, wall", warm[0], 0.3, "s"),
        Goal("one notebook cold, PSS over its processes", one["cold peak"] * MIB / MB, 600,
             "MB"),
        Goal("a grading worker with its kernels, PSS (largest of all)",
             max(pss for _, pss in assignments.values()) / MIB, 512, "MiB"),
    ]
    rows += [Goal(f"{assignment_id} against plain nbgrader", ratio, 20, "x", above=True)
             for assignment_id, (ratio, _) in assignments.items()]
    rows += [
        Goal("the mixed class against plain nbgrader", mixed_ratio, 20, "x", above=True),
        Goal("feedback pages a minute, warm, against plain nbgrader",
             pages["kit"] / pages["plain"],
             5, "x", above=True),
        Goal(f"one feedback page cold, wall (plain nbgrader {pages['plain page']:.2f} s)",
             pages["kit page"], pages["plain page"], "s"),
    ]
    if cloud is not None:
        rows += [Goal("Gradescope, one upload cold, wall", cloud[0], 3, "s"),
                 Goal("Gradescope, the processes' own memory", cloud[1] / MB, 400, "MB")]
    return rows


def arguments(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=30,
                        help="notebooks of each assignment (part 2)")
    parser.add_argument("--mixed-students", type=int, default=10,
                        help="students of the mixed class, each handing in every assignment "
                        "(part 3)")
    parser.add_argument("--workers", type=int, default=os.cpu_count(),
                        help="the kit's workers (default: the number of cores)")
    parser.add_argument("--runs", type=int, default=3, help="cold and warm runs of one "
                        "notebook, and of plain nbgrader's (part 1)")
    return parser.parse_args(argv)


def main():
    args = arguments()
    grading.compile_kit()
    print("1. one notebook of 01_attention_by_hand", flush=True)
    one = single.measure("01_attention_by_hand", args.runs)
    print(single.best_line(one))
    print("\n2. every assignment", flush=True)
    assignments = grading.every_assignment(args.students, args.workers)
    print("\n3. the mixed class", flush=True)
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as scratch:
        mixed_ratio = grading.mixed(Path(scratch), args.mixed_students, args.workers)
    print("\n4. feedback pages of 01_attention_by_hand", flush=True)
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as scratch:
        pages = grading.feedback_figures(Path(scratch), "01_attention_by_hand", args.students,
                                         args.workers)
    print("\n5. one Gradescope upload of 01_attention_by_hand, cold", flush=True)
    cloud = None
    if os.geteuid() == 0:
        cloud = gradescope.measure(args.runs)
    else:
        print(f"not measured: {gradescope.NOT_ROOT}")
    rows = goals(one, assignments, mixed_ratio, pages, cloud)
    print(f"\ngoals ({os.cpu_count()} cores; notebooks of each assignment: {args.students}; "
          f"students of the mixed class: {args.mixed_students}; single runs: {args.runs}, the "
          "best taken):")
    for row in rows:
        print(row.line())
    print(f"{sum(row.met for row in rows)} of {len(rows)} goals met")


if __name__ == "__main__":
    main()
