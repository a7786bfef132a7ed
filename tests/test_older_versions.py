"""Does the kit grade right where a hub's image has older libraries than the lock, its speedups
on their private code either at work or stepped aside (autograder/plumbing/private_api.py)?

The wheel goes into a virtualenv of Debian's Python with no lock: pip resolves the wheel's
own dependencies with the libraries named in pyproject.toml held at their lower bounds (the
oldest versions the kit states it runs with: ipykernel 6.29, IPython 8, jupyter_client 8.6,
SQLAlchemy 2.0, distributed 2024.12). An ordinary user then inits, validates and grades three
notebooks, as on Debian's Python with the lock (tests/test_debian_python.py), and grade.log
names each speedup that stepped aside, exactly those whose library code there is not what
they were written for."""

from __future__ import annotations

import re
import shutil
import tempfile
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.test_debian_python import (
    REPO,
    kit_in_debian_venv,
    needs_debian_python,
    run,
    smoke_test,
)
from tests.test_packaging import checkout, wheel  # noqa: F401 - fixtures

pytestmark = pytest.mark.long


def oldest_versions():
    """pyproject.toml's dependencies with a lower bound, pinned to it: ["ipykernel==6.29.5",
    ...]."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = []
    for requirement in map(Requirement, project["dependencies"]):
        lower = [s.version for s in requirement.specifier if s.operator == ">="]
        if lower:
            pins.append(f"{requirement.name}=={lower[0]}")
    return pins


@pytest.fixture(scope="module")
def older_kit(wheel):  # noqa: F811 - the fixture of tests/test_packaging.py
    needs_debian_python()
    base = Path(tempfile.mkdtemp(prefix="kit-older-"))
    base.chmod(0o755)
    yield kit_in_debian_venv(base, wheel, [wheel, *oldest_versions()])
    shutil.rmtree(base, ignore_errors=True)


def test_the_oldest_versions_are_the_ones_pyproject_states():
    """Is every library the speedups patch given a lower bound, so that this test installs
    it at its oldest?"""
    pinned = {pin.split("==")[0].lower() for pin in oldest_versions()}
    assert {"ipykernel", "ipython", "jupyter_client", "sqlalchemy", "distributed"} <= pinned


def test_older_libraries_grade_right_with_speedups_at_work_or_aside(older_kit):
    """With the oldest stated versions: are they what is installed, does an ordinary user's
    course validate and grade three notebooks right, and does grade.log name each speedup
    that stepped aside there (at least one: ipykernel 6's output streams), and no other?"""
    venv, home, env = older_kit
    python = venv / "bin" / "python"
    for pin in oldest_versions():
        name, version = pin.split("==")
        installed = run([python, "-c", "import importlib.metadata, sys; "
                         "print(importlib.metadata.version(sys.argv[1]))", name],
                        f"the version of {name}").stdout.strip()
        assert installed == version, (name, installed)
    expected = run([python, "-c", "from autograder.plumbing import private_api; "
                    "print('\\n'.join(n for n in private_api.SPEEDUPS "
                    "if not private_api.applies(n)))"], "the speedups that step aside there",
                   env=env).stdout.split("\n")
    expected = {name for name in expected if name}
    assert "output streams" in expected, expected
    course = smoke_test(venv, home, env, "older-course")
    log = (course / "grade.log").read_text(encoding="utf-8")
    said = set(re.findall(r"speedup '([^']+)' \(.*\) steps aside", log))
    assert said == expected, log
