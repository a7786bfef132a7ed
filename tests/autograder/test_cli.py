"""The command line answers `--help` without importing the heavy modules (torch, nbgrader,
nbformat, matplotlib take seconds to import), and still reports the kit's errors as errors.

These are properties of what gets imported, not timings: each run is a fresh interpreter
under `python -X importtime`, which lists every module it imports on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.cli import main, parse, parser
from autograder.errors import KitError

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("torch", "nbgrader", "nbformat", "matplotlib", "numpy", "jupyter_client")


def subcommands():
    action = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    return list(action.choices)


def imported_modules(stderr):
    """The modules named by `-X importtime` lines: 'import time: self | cumulative | name'."""
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines()
            if line.startswith("import time:") and line.count("|") == 2}


def run_help(*args):
    return subprocess.run([sys.executable, "-X", "importtime", "-m", "autograder", *args,
                           "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("args", [(), *((name,) for name in subcommands())],
                         ids=lambda args: " ".join(args) or "top level")
def test_help_imports_nothing_heavy(args):
    """Does `python -m autograder [COMMAND] --help` exit 0 with its usage, without importing
    torch, nbgrader, nbformat or matplotlib?"""
    result = run_help(*args)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("usage: python -m autograder"), result.stdout[:500]
    modules = imported_modules(result.stderr)
    assert "autograder.cli" in modules  # the listing is real
    heavy = sorted(m for m in modules if m.split(".")[0] in HEAVY)
    assert not heavy, f"--help imported {heavy[:10]}"


def test_building_the_parser_imports_nothing_heavy():
    """After `import autograder.cli` and building the parser, is none of torch, nbgrader,
    nbformat or matplotlib in sys.modules?"""
    code = ("import sys, autograder.cli; autograder.cli.parser(); "
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "[]"


def test_every_subcommand_is_listed_in_the_top_help():
    """Does the top-level help name every command?"""
    names = subcommands()
    assert {"build", "validate", "collect", "grade", "feedback", "export", "report",
            "demo"} <= set(names)
    text = parser().format_help()
    assert all(name in text for name in names)


@pytest.mark.parametrize("module, name", [
    ("autograder.build.authoring", "AuthoringError"),
    ("autograder.build", "BuildError"),
    ("autograder.outputs.collect", "CollectError"),
    ("autograder.grading.parallel", "GradeError"),
    ("autograder.course", "NbgraderError"),
])
def test_the_kits_errors_are_kit_errors(module, name):
    """Is each error class the command line reports (exit 1, no traceback) a KitError?"""
    assert issubclass(getattr(importlib.import_module(module), name), KitError)


def test_a_kit_error_exits_1_with_its_message(tmp_path, capsys):
    """Does main() turn a kit error (no nbgrader_config.py in --root) into exit 1 and a
    one-line message, not a traceback?"""
    assert main(["--root", str(tmp_path), "grade"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "has no nbgrader_config.py" in err


def test_ids_may_follow_options():
    """Are ids after an option taken as ids (`init DIR --language zh 08 09`, `grade --force
    01`), as the usage line suggests, while an unknown option is still refused?"""
    args = parse(["init", "course-zh", "--language", "zh", "01_a", "02_b"])
    assert (args.folder.name, args.language, args.ids) == ("course-zh", "zh", ["01_a", "02_b"])
    assert parse(["grade", "--force", "01_a"]).ids == ["01_a"]
    with pytest.raises(SystemExit):
        parse(["grade", "01_a", "--no-such-option"])
