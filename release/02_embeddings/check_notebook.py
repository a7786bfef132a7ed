"""Check your notebook before you hand it in.

    python check_notebook.py 01_attention_by_hand.ipynb

It runs the notebook from top to bottom in a fresh kernel, as the grader does (your saved
file is not changed), then lists every cell that failed with its message, and every cell that
ran longer than grading lets one cell run, and the points of each test cell. Exit status: 0
when every cell ran in time, 1 when one failed (or did not finish, or ran too long), 2 when
the file cannot be read. It needs only Jupyter (nbformat, nbclient), nothing of the course's
grader; every assignment's folder has a copy.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

LANGUAGE = "en"
ZH = {}

ZH_OS_ERRORS = {}
ZH_OS_ERROR = ""
ZH_OS_ERROR_FILES = ""

def _os_reason(error, language=None):
    if (language or LANGUAGE) != "zh" or error.errno is None:
        return error.strerror or str(error)
    import errno

    return ZH_OS_ERRORS.get(errno.errorcode.get(error.errno, ""), error.strerror or str(error))

def _os_error(error, language=None):
    if (language or LANGUAGE) != "zh" or error.errno is None:
        return str(error)
    files = [repr(name) for name in (error.filename, error.filename2) if name is not None]
    return ZH_OS_ERROR.format(reason=_os_reason(error, language), number=error.errno, files=(
        ZH_OS_ERROR_FILES.format(files=" -> ".join(files)) if files else ""))

def _os_errors_in(fields, language=None):
    return {name: _os_error(value, language) if isinstance(value, OSError) else value
            for name, value in fields.items()}

def _t(text, language=None, **fields):
    template = ZH.get(text, text) if (language or LANGUAGE) == "zh" else text
    fields = _os_errors_in(fields, language)
    return template.format(**fields) if fields else template

PASSED, FAILED, UNREADABLE = 0, 1, 2
CELL_LIMIT = 10
KERNEL_QUIET = ["--IPKernelApp.log_level=ERROR"]

def test_of(cell):
    meta = cell.get("metadata", {}).get("nbgrader", {})
    if isinstance(meta, dict) and meta.get("grade") and "points" in meta:
        return str(meta.get("grade_id", "")).removeprefix("test_"), float(meta["points"])
    return None

def where(number, cell):
    test = test_of(cell)
    if test:
        return _t('cell {number}, the test of {step} ({points})', number=number, step=test[0],
                  points=points(test[1]))
    first = next((line for line in cell.source.splitlines() if line.strip()), "")
    first = first.strip()
    return _t('cell {number} ({first})', number=number,
              first=first if len(first) <= 50 else first[:49] + "…")

def error_of(cell):
    outputs = cell.get("outputs", [])
    for index, output in enumerate(outputs):
        if output.get("output_type") == "error":
            name, message = output.get("ename", "Error"), output.get("evalue", "")
            if name == "NotImplementedError" and not message:
                return _t("NotImplementedError: a stub is still there; write the function's body")
            notes = [line.strip() for later in outputs[index + 1:]
                     if later.get("output_type") == "stream"
                     for line in later.get("text", "").splitlines() if line.strip()]
            return "\n".join([f"{name}: {message}" if message else name,
                              *(" " * 8 + note for note in notes)])
    return None

def points(value, language=None):
    return _t('{value:g} point' if value == 1 else '{value:g} points', language, value=value)

def run(notebook, folder, timeout, quiet=False):
    client = NotebookClient(notebook, timeout=timeout, allow_errors=True,
                            resources={"metadata": {"path": str(folder)}},
                            extra_arguments=KERNEL_QUIET)
    try:
        client.execute(**({"stderr": subprocess.DEVNULL} if quiet else {}))
    except BaseException as error:
        if getattr(client, "_async_cleanup_kernel_future", None) is not None:
            raise KeyboardInterrupt from None
        if isinstance(error, CellTimeoutError):
            return _t('did not finish within {timeout} s (an endless loop?)', timeout=timeout)
        if isinstance(error, DeadKernelError):
            return _t('stopped the kernel (it crashed or ran out of memory)')
        raise
    return None

def seconds_of(cell):
    times = cell.get("metadata", {}).get("execution", {})
    try:
        started, ended = (datetime.fromisoformat(times[key].replace("Z", "+00:00"))
                          for key in ("iopub.execute_input", "shell.execute_reply"))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return (ended - started).total_seconds()

def too_slow(cell):
    seconds = seconds_of(cell)
    if seconds is None or seconds <= CELL_LIMIT:
        return None
    return _t('took {seconds:.1f} s here, and grading stops a cell after {limit:g} s: make it faster (a smaller example, no Python loop over large data)', seconds=seconds,
              limit=CELL_LIMIT)

def passed(cell):
    return cell.get("execution_count") is not None and error_of(cell) is None and \
        too_slow(cell) is None

def report(notebook, stopped):
    code = [(n, c) for n, c in enumerate(notebook.cells, 1) if c.cell_type == "code"]
    failed = [(n, c, error_of(c) or too_slow(c)) for n, c in code
              if error_of(c) or too_slow(c)]
    tests = [c for _, c in code if test_of(c)]
    earned = sum(test_of(c)[1] for c in tests if passed(c))
    most = sum(test_of(c)[1] for c in tests)
    for number, cell, message in failed:
        print(_t('FAILED  {where}: {message}', where=where(number, cell), message=message))
    if stopped:
        print(_t('FAILED  the notebook {stopped}; the cells after it did not run',
                 stopped=stopped))
    passing = sum(1 for c in tests if passed(c))
    print(_t('{passing} of {count} test cells pass ({earned:g} of {most} in the public tests); when graded, hidden checks run the same requirements on other inputs',
             passing=passing, count=len(tests), earned=earned, most=points(most)))
    return FAILED if failed or stopped else PASSED

def argparse_words():
    words = {
        "usage: ": _t('usage: '),
        "positional arguments": _t('positional arguments'),
        "options": _t('options'),
        "show this help message and exit": _t('show this help message and exit'),
        "%(prog)s: error: %(message)s\n": _t('%(prog)s: error: %(message)s\n'),
        "the following arguments are required: %s":
            _t('the following arguments are required: %s'),
        "unrecognized arguments: %s": _t('unrecognized arguments: %s'),
        "argument %(argument_name)s: %(message)s":
            _t('argument %(argument_name)s: %(message)s'),
        "invalid %(type)s value: %(value)r": _t('invalid %(type)s value: %(value)r'),
        "expected one argument": _t('expected one argument'),
    }
    return lambda text: words.get(text, text)

def arguments(argv):
    before, argparse._ = argparse._, argparse_words()
    try:
        return command_line().parse_args(argv)
    finally:
        argparse._ = before

def command_line():
    parser = argparse.ArgumentParser(
        description=_t('Run a notebook in a fresh kernel and list every failing cell with its message. Exit status 0: every cell ran; 1: a cell failed; 2: the file cannot be read.'))
    parser.add_argument("notebook", type=Path, help=_t('the .ipynb file to check'))
    parser.add_argument("--timeout", type=int, default=120,
                        help=_t('seconds one cell may run (default: 120)'))
    return parser

def main(argv=None):
    args = arguments(argv)
    try:
        notebook = nbformat.read(args.notebook, as_version=4)
    except (OSError, ValueError) as error:
        print(_t('cannot read {path}: {error}; give the path of your .ipynb file',
                 path=args.notebook, error=error), file=sys.stderr)
        return UNREADABLE
    stopped = run(notebook, args.notebook.resolve().parent, args.timeout)
    return report(notebook, stopped)

if __name__ == "__main__":
    sys.exit(main())
