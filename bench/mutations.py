"""Benchmark: how many wrong versions of each reference do the hidden checks of the repository's
course catch? The harness is autograder/tools/mutations.py (`python -m autograder mutate`);
this runs it on every assignment of the repository's course and prints its figures.

    .venv/bin/python bench/mutations.py [ID ...] [--steps NAME ...] [--limit N] [--seed N]
                                        [--show-equivalent]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.checks.loader import assignment_ids  # noqa: E402
from autograder.tools.mutations import main  # noqa: E402


def arguments(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ids", nargs="*", metavar="ID", help="assignments (default: all)")
    parser.add_argument("--steps", nargs="+", metavar="NAME", help="only these steps")
    parser.add_argument("--limit", type=int, metavar="N",
                        help="at most N mutants per step, a sample drawn under --seed")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the checks' random cases and of the sample (default 0)")
    parser.add_argument("--show-equivalent", action="store_true",
                        help="also list the mutants dropped as equivalent")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = arguments()
    sys.exit(main(ROOT, args.ids or assignment_ids(ROOT), args.steps, args.limit, args.seed,
                  args.show_equivalent))
