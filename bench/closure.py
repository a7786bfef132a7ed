"""How the time of reading the code that defines a step grows with a notebook's size, on
the texts a student may paste to keep a grading worker busy: N generated one-line
definitions, each calling the one before, and a step that calls the last ("chain"); N star
imports before a step that names N other names ("stars"); N conditional rebindings of the
name a step reads ("rebinding"). Prints, per N, the seconds of `code_rules.closure` cold (the
cells parsed) and warm (the parse kept, as for a notebook's second step), and the characters
of the text it finds.

    .venv/bin/python bench/closure.py [N ...]      (default: 1000 4000 16000)
"""

from __future__ import annotations

import sys
import time

from autograder.checks import code_rules
from autograder.course.submission_files import CODE_CHARACTERS


def cells(count, per_cell=300):
    """The code cells: `count` chained definitions, `per_cell` to a cell, then the step."""
    found, written = [], 0
    while written < count:
        lines = []
        for index in range(written, min(written + per_cell, count)):
            lines.append(f"def f{index}(x):\n    return f{index - 1}(x) if x else {index}\n"
                         if index else "def f0(x):\n    return 0\n")
        found.append("".join(lines))
        written += per_cell
    return [*found, f"def project(x, W):\n    f{count - 1}(0)\n    return x @ W\n"]


def stars(count):
    """`count` star imports, then a step that names `count` other names."""
    return ["from math import *\n" * count,
            "def project(x, W):\n    if x is None:\n"
            + "".join(f"        z{index}\n" for index in range(count)) + "    return x @ W\n"]


def rebinding(count):
    """`count` conditional rebindings of the name the step reads."""
    return ["b = 1\n" + "if a:\n    b = b\n" * count, "def project(x, W):\n    return b\n"]


SHAPES = {"chain": cells, "stars": stars, "rebinding": rebinding}


def timed(sources):
    start = time.perf_counter()
    text = code_rules.closure(sources, "project")
    return time.perf_counter() - start, len(text or "")


def main(sizes):
    print(f"the kit judges a notebook of up to {CODE_CHARACTERS:,} characters of code")
    print(f"{'shape':>9} {'N':>6} {'characters':>11} {'cold s':>7} {'warm s':>7} {'found':>9}")
    for shape, make in SHAPES.items():
        for count in sizes:
            sources = make(count)
            code_rules.program_of.cache_clear()
            code_rules.cell_statements.cache_clear()
            cold, found = timed(sources)
            warm, _ = timed(sources)
            print(f"{shape:>9} {count:6d} {sum(map(len, sources)):11d} {cold:7.2f} "
                  f"{warm:7.2f} {found:9d}")


if __name__ == "__main__":
    main([int(word) for word in sys.argv[1:]] or [1000, 4000, 16000])
