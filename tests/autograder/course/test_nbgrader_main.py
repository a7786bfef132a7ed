"""Does nbgrader's command line, as the kit runs it (autograder/course/nbgrader_main.py), do
its work without what the kit spares every process: rfc3987's parser, torch, the `alembic`
executable?"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from autograder.course.directory import Course, nbgrader_env

ROOT = Path(__file__).resolve().parents[3]
ID = "01_attention_by_hand"
SPARED = {"rfc3987_syntax.syntax_helpers", "torch"}


def imported(stderr):
    """The modules a process imported, from its -X importtime lines."""
    return set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s+(\S+)$", stderr, re.MULTILINE))


def test_generate_assignment_spares_the_parser_torch_and_the_executable(tmp_path):
    """Does generate_assignment in a new course write the release and a gradebook while
    importing none of SPARED, and without running the `alembic` executable (first on PATH
    here, one that fails and leaves a mark)?"""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    first = tmp_path / "bin"
    first.mkdir()
    mark = tmp_path / "alembic ran"
    (first / "alembic").write_text(f"#!/bin/sh\ntouch '{mark}'\nexit 1\n")
    (first / "alembic").chmod(0o755)
    env = nbgrader_env()
    env["PATH"] = f"{first}:{env['PATH']}"
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "autograder.course.nbgrader_main",
         "generate_assignment", ID, "--force"],
        cwd=course.root, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert (course.root / "release" / ID / f"{ID}.ipynb").is_file()
    assert (course.root / "gradebook.db").is_file()
    modules = imported(result.stderr)
    assert "nbgrader.apps.generateassignmentapp" in modules
    assert not modules & SPARED, modules & SPARED
    assert not mark.exists()
