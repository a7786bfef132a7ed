"""Does the kit set up and grade on the Python a server has: Debian 12's own /usr/bin/python3.11
(3.11.2), the pinned versions of requirements.lock installed from the registry into a fresh
virtualenv, the kit from its wheel, run by an ordinary user (who can reach that Python, as no
user but root can reach the development one)?

A smoke test, as the shared hub's setup (docs/instructors/where-courses-run.md) does it on
such a server: a virtualenv, the lock, the wheel; then, as the user, `init` a course of 01,
`validate` it, and `grade` three notebooks (correct, blank, one step done) in the full sandbox
this machine gives that user. In CI
(KIT_REQUIRE_ROOT) a missing Debian Python fails the test instead of skipping it."""

from __future__ import annotations

import copy
import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

import nbformat
import pytest

from autograder.build.proof import solution_cells
from tests.accounts import ensure_user
from tests.test_packaging import checkout, run, wheel  # noqa: F401 - fixtures

pytestmark = pytest.mark.long

DEBIAN_PYTHON = Path("/usr/bin/python3.11")
REPO = Path(__file__).resolve().parents[1]
ID = "01_attention_by_hand"
USER = "kit-instructor"


def needs_debian_python():
    usable = DEBIAN_PYTHON.exists() and os.geteuid() == 0 and shutil.which("runuser")
    if usable:
        return
    if os.environ.get("KIT_REQUIRE_ROOT"):
        pytest.fail(f"{DEBIAN_PYTHON} (apt-get install python3.11-venv) and root are needed "
                    "for the Debian Python smoke test, as in CI")
    pytest.skip(f"needs {DEBIAN_PYTHON} and root")


def as_user(command, cwd, what, env):
    return run([shutil.which("runuser"), "-u", USER, "--", *map(str, command)], what,
               timeout=900, cwd=cwd, env=env)


def kit_in_debian_venv(base, wheel, requirements):  # noqa: F811 - wheel: a path here
    """A virtualenv of Debian's Python in `base` (a folder every user may enter) holding
    `requirements` (pip's arguments) and the kit's wheel; the environment the user's commands
    run in."""
    home = ensure_user(USER, home=True)
    venv = base / "venv"
    run([DEBIAN_PYTHON, "-m", "venv", venv], "a virtualenv of Debian's python3.11")
    pip = [venv / "bin" / "python", "-m", "pip", "install", "--quiet",
           "--disable-pip-version-check"]
    run([*pip, *requirements], f"installing {' '.join(map(str, requirements))} with Debian's "
        "python3.11", timeout=1800)
    run([*pip, "--no-deps", wheel], "installing the kit's wheel")
    run([venv / "bin" / "python", "-m", "ipykernel", "install", "--prefix", venv, "--name",
         "python3"], "the python3 kernel spec of the virtualenv")
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(home), "USER": USER,
           "LANG": "C.UTF-8", "JUPYTER_PATH": str(venv / "share" / "jupyter")}
    return venv, home, env


@pytest.fixture(scope="module")
def debian_kit(wheel):  # noqa: F811 - the fixture of tests/test_packaging.py
    """The lock and the wheel in a virtualenv of Debian's Python."""
    needs_debian_python()
    base = Path(tempfile.mkdtemp(prefix="kit-debian-"))
    base.chmod(0o755)
    yield kit_in_debian_venv(base, wheel, ["-r", REPO / "requirements.lock"])
    shutil.rmtree(base, ignore_errors=True)


def scores(course):
    with sqlite3.connect(course / "gradebook.db") as db:
        return dict(db.execute(
            "SELECT submitted_assignment.student_id, SUM(grade.auto_score) FROM grade "
            "JOIN submitted_notebook ON grade.notebook_id = submitted_notebook.id "
            "JOIN submitted_assignment ON submitted_notebook.assignment_id = "
            "submitted_assignment.id GROUP BY submitted_assignment.student_id").fetchall())


def smoke_test(venv, home, env, name):
    """As the user, in a course `name` of their home: init 01, validate it, and grade a correct
    notebook, a blank one and one with a single step done. The course folder, and grade's
    output and scores, after checking them: 10/10, 0 and between, in the full sandbox."""
    course = home / name
    shutil.rmtree(course, ignore_errors=True)
    python = venv / "bin" / "python"
    as_user([python, "-m", "autograder", "init", course, ID], home, "init", env)
    validated = as_user([python, "-m", "autograder", "validate", ID], course, "validate", env)
    assert f"valid: {ID}" in validated.stdout, validated.stdout
    release = nbformat.read(course / "release" / ID / f"{ID}.ipynb", as_version=4)
    solved = solution_cells(nbformat.read(course / "source" / ID / f"{ID}.ipynb", 4))
    first = next(iter(solved))
    for student, chosen in (("correct", solved), ("blank", {}),
                            ("one-step", {first: solved[first]})):
        notebook = copy.deepcopy(release)
        for cell in notebook.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if cell.metadata.get("nbgrader", {}).get("solution") and grade_id in chosen:
                cell.source = chosen[grade_id]
        path = course / "submitted" / student / ID / f"{ID}.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(notebook, path)
    subprocess.run(["chown", "-R", f"{USER}:{USER}", course / "submitted"], check=True)
    graded = as_user([python, "-m", "autograder", "grade", "--workers", "2"], course, "grade",
                     env)
    assert "sandbox: full (" in graded.stdout, graded.stdout
    found = scores(course)
    assert found["correct"] == 10 and found["blank"] == 0, found
    assert 0 < found["one-step"] < 10, found
    return course


def test_debian_python_sets_up_validates_and_grades(debian_kit):
    """With Debian's Python 3.11.2: does the lock install, and does an ordinary user's course
    build, validate, and grade a correct notebook 10/10, a blank one 0 and one with a single
    step done between, in the full sandbox, every speedup of the kit at work?"""
    venv, home, env = debian_kit
    version = run([venv / "bin" / "python", "-c", "import sys; print(sys.version.split()[0])"],
                  "the virtualenv's Python").stdout.strip()
    assert version.startswith("3.11."), version
    course = smoke_test(venv, home, env, "debian-course")
    assert "steps aside" not in (course / "grade.log").read_text(encoding="utf-8")
