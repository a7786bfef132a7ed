"""The kit's command line: `python -m autograder COMMAND` (or `attention-kit COMMAND`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from autograder.authoring import AuthoringError
from autograder.build import BuildError, build
from autograder.course import NbgraderError

DESCRIPTION = """\
Build, check and grade the self-attention course with nbgrader.

Run it from the repository root (nbgrader reads nbgrader_config.py from there).
  build [ID ...]   assignments/<id>.py -> source/<id>/<id>.ipynb -> release/<id>/
                   (all assignments when no id is given)
"""


def parser():
    top = argparse.ArgumentParser(
        prog="python -m autograder",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    build_cmd = commands.add_parser(
        "build",
        help="render master notebooks from assignments/ and student notebooks with nbgrader",
        description="Render source/<id>/<id>.ipynb from assignments/<id>.py (solution code "
        "from solutions/), then run `nbgrader generate_assignment` to write release/<id>/.",
    )
    build_cmd.add_argument(
        "ids", nargs="*", metavar="ID", help="assignment ids, e.g. 01_attention_by_hand"
    )
    build_cmd.add_argument("--root", type=Path, default=Path.cwd(), help="the repository root")
    return top


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        if args.command == "build":
            build(args.root, args.ids)
    except (AuthoringError, BuildError, NbgraderError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0
