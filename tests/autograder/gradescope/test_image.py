"""Does the zip alone make a Gradescope autograder that grades? Its own setup.sh builds the
image in a fresh root, as Gradescope does: Debian's own python3.11 (as Gradescope's Ubuntu
image has a system Python), the pinned versions, nothing of this checkout on the path or in a
.pth, no KIT_GRADESCOPE_PYTHON. Then run_autograder grades a correct, a wrong and a blank
upload (full, not full, zero), as root with every capability and again as root with Docker's
default capabilities and user namespaces refused (tests/autograder/confined.py), where the
kit grades in its Landlock sandbox. PyTorch comes from pip's own index here
(KIT_TORCH_INDEX=""), as this machine reaches no other. In CI (KIT_REQUIRE_ROOT) a missing
Debian Python fails the test instead of skipping it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest
from packaging.utils import canonicalize_name

from autograder.tools import simulate
from tests.autograder.gradescope.conftest import ID, lay_out, notebooks

pytestmark = pytest.mark.long

DEBIAN_PYTHON = Path("/usr/bin/python3.11")
CONFINED = Path(__file__).resolve().parents[1] / "confined.py"
CLEAN_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"  # no pyenv, no virtualenv, no checkout
DOCKER = ["--no-user-namespaces", "--docker-capabilities"]


def needs_root_and_debian_python():
    if os.geteuid() == 0 and DEBIAN_PYTHON.exists():
        return
    if os.environ.get("KIT_REQUIRE_ROOT"):
        pytest.fail(f"building Gradescope's image needs root and {DEBIAN_PYTHON}, as in CI")
    pytest.skip(f"building Gradescope's image needs root and {DEBIAN_PYTHON}")


def clean_env(root):
    """Gradescope's environment: its root, a system PATH, nothing of this checkout."""
    keep = {k: v for k, v in os.environ.items() if k.startswith(("PIP_", "LANG", "LC_"))}
    return {**keep, "PATH": CLEAN_PATH, "HOME": "/root", "KIT_GRADESCOPE_ROOT": str(root),
            "KIT_TORCH_INDEX": ""}


@pytest.fixture(scope="module")
def image(archive, course):
    """Gradescope's /autograder built by the zip's setup.sh in a fresh folder every user may
    enter (the Landlock sandbox's user must reach its virtualenv)."""
    needs_root_and_debian_python()
    base = Path(tempfile.mkdtemp(prefix="kit-gradescope-image-"))
    base.chmod(0o755)
    root = lay_out(base / "autograder", archive, {})
    result = subprocess.run(["bash", str(root / "source" / "setup.sh")], cwd=root,
                            env=clean_env(root), capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    yield root
    shutil.rmtree(base, ignore_errors=True)


def uploads(course):
    release, source = notebooks(course)
    return {"correct": simulate.correct(release, source),
            "wrong": simulate.with_mistake(release, source, simulate.mistakes_of(course, ID)[0]),
            "blank": release}


def graded_in(image, notebook, confine):
    """results.json of run_autograder on one upload, as Gradescope runs it (the image's own
    python, cwd /autograder), after clearing the last upload and its results."""
    for folder in ("submission", "results"):
        shutil.rmtree(image / folder, ignore_errors=True)
        (image / folder).mkdir()
    nbformat.write(notebook, image / "submission" / f"{ID}.ipynb")
    command = [str(image / "run_autograder")]
    if confine:
        command = [sys.executable, str(CONFINED), *confine, "--", *command]
    process = subprocess.run(command, cwd=image, env=clean_env(image), capture_output=True,
                             text=True, timeout=900)
    results = image / "results" / "results.json"
    assert results.exists(), process.stdout[-3000:] + process.stderr[-3000:]
    return process, json.loads(results.read_text(encoding="utf-8"))


@pytest.mark.parametrize("confine", [[], DOCKER], ids=["every capability", "Docker's"])
def test_the_zips_own_image_grades_each_upload(image, course, confine):
    """Built from the zip alone, does the image grade a correct upload full marks, a wrong one
    less, a blank one zero, exit 0, and say in its output which sandbox it graded in?"""
    found = {}
    for student, notebook in uploads(course).items():
        process, results = graded_in(image, notebook, confine)
        assert process.returncode == 0, process.stdout[-3000:] + process.stderr[-3000:]
        found[student] = results["score"]
        assert "sandbox: full (" in process.stdout, process.stdout[-2000:]
    assert found["correct"] == 10 and found["blank"] == 0, found
    assert 0 < found["wrong"] < 10, found


def test_the_image_holds_what_its_lock_pins_and_no_more(image):
    """Does the image's virtualenv hold exactly the versions its requirements.lock pins (pip
    pulled nothing unpinned: the lock's runtime lines are whole), none of the development
    tools among them?"""
    pinned = {canonicalize_name(line.split("==")[0]): line.split("==")[1] for line in
              (image / "source" / "requirements.lock").read_text().split()}
    listed = subprocess.run([str(image / "venv" / "bin" / "pip"), "list", "--format=json"],
                            capture_output=True, text=True, check=True).stdout
    held = {canonicalize_name(d["name"]): d["version"].split("+")[0]
            for d in json.loads(listed)}
    held = {name: version for name, version in held.items()
            if name not in ("pip", "setuptools", "wheel")}
    assert held == pinned
    assert not {"pytest", "selenium", "mkdocs", "ruff"} & set(held)
