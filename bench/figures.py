"""Benchmark: what drawing the course's figures costs the build.

Draws every figure of the repository course's assignments (their figures.py) a few times and
prints, per figure, the mean CPU seconds of one `png(draw)` call and the size of the PNG it
gives; then the total,
which the build pays once per language for every figure a notebook embeds.

    .venv/bin/python bench/figures.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.build.figures import png  # noqa: E402
from autograder.checks.loader import assignment_ids, load_assignment  # noqa: E402

FIGURES = {name: draw for assignment_id in assignment_ids(ROOT)
           for name, draw in getattr(load_assignment(ROOT, assignment_id).module("figures"),
                                     "FIGURES", {}).items()}


def seconds_and_bytes(name, repeat):
    started = time.process_time()
    for _ in range(repeat):
        data = png(FIGURES[name])
    return (time.process_time() - started) / repeat, len(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    png(next(iter(FIGURES.values())))  # fonts and mathtext load once per process
    total = 0.0
    for name in FIGURES:
        seconds, size = seconds_and_bytes(name, args.repeat)
        total += seconds
        print(f"{name:24} {seconds:6.3f} s CPU  {size / 1000:5.1f} KB")
    print(f"{'all figures':24} {total:6.3f} s CPU")


if __name__ == "__main__":
    main()
