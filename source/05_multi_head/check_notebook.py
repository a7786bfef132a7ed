"""Check your notebook before you hand it in.

    python check_notebook.py 01_attention_by_hand.ipynb

It runs the notebook from top to bottom in a fresh kernel, as the grader does (your saved
file is not changed), then lists every cell that failed with its message and the points of
each test cell. Exit status: 0 when every cell ran, 1 when one failed (or did not finish),
2 when the file cannot be read. It needs only Jupyter (nbformat, nbclient), nothing of the
course's grader; the build copies this file next to every assignment's notebook.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

PASSED, FAILED, UNREADABLE = 0, 1, 2


def test_of(cell):
    """(step, points) of a test cell, None for another cell."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    if isinstance(meta, dict) and meta.get("grade") and "points" in meta:
        return str(meta.get("grade_id", "")).removeprefix("test_"), float(meta["points"])
    return None


def where(number, cell):
    test = test_of(cell)
    if test:
        return f"cell {number}, the test of {test[0]} ({points(test[1])})"
    first = next((line for line in cell.source.splitlines() if line.strip()), "")
    return f"cell {number} ({first.strip()[:50]})"


def error_of(cell):
    """The cell's error as 'Name: message', or None when it ran."""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            name, message = output.get("ename", "Error"), output.get("evalue", "")
            if name == "NotImplementedError" and not message:
                return "NotImplementedError: a stub is still there; write the function's body"
            return f"{name}: {message}" if message else name
    return None


def points(value):
    return f"{value:g} point" + ("" if value == 1 else "s")


def run(notebook, folder, timeout):
    """Run every cell, errors and all; return (cell number, message) of a cell the kernel
    could not finish (None when all finished)."""
    client = NotebookClient(notebook, timeout=timeout, allow_errors=True,
                            resources={"metadata": {"path": str(folder)}})
    try:
        client.execute()
    except CellTimeoutError:
        return f"did not finish within {timeout} s (an endless loop?)"
    except DeadKernelError:
        return "stopped the kernel (it crashed or ran out of memory)"
    return None


def passed(cell):
    return cell.get("execution_count") is not None and error_of(cell) is None


def report(notebook, stopped):
    code = [(n, c) for n, c in enumerate(notebook.cells, 1) if c.cell_type == "code"]
    failed = [(n, c, error_of(c)) for n, c in code if error_of(c)]
    tests = [c for _, c in code if test_of(c)]
    earned = sum(test_of(c)[1] for c in tests if passed(c))
    most = sum(test_of(c)[1] for c in tests)
    for number, cell, message in failed:
        print(f"FAILED  {where(number, cell)}: {message}")
    if stopped:
        print(f"FAILED  the notebook {stopped}; the cells after it did not run")
    passing = sum(1 for c in tests if passed(c))
    print(f"{passing} of {len(tests)} test cells pass ({earned:g} of {points(most)} in the "
          "public tests); when graded, hidden checks run the same requirements on other "
          "inputs")
    return FAILED if failed or stopped else PASSED


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Run a notebook in a fresh kernel and list every failing cell with its "
                    "message. Exit status 0: every cell ran; 1: a cell failed; 2: the file "
                    "cannot be read.")
    parser.add_argument("notebook", type=Path, help="the .ipynb file to check")
    parser.add_argument("--timeout", type=int, default=120,
                        help="seconds one cell may run (default: 120)")
    args = parser.parse_args(argv)
    try:
        notebook = nbformat.read(args.notebook, as_version=4)
    except (OSError, ValueError) as error:
        print(f"cannot read {args.notebook}: {error}; give the path of your .ipynb file",
              file=sys.stderr)
        return UNREADABLE
    stopped = run(notebook, args.notebook.resolve().parent, args.timeout)
    return report(notebook, stopped)


if __name__ == "__main__":
    sys.exit(main())
