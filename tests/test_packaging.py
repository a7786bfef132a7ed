"""The kit as a user gets it: a wheel, installed (not editable) in a fresh virtualenv, run from
a course folder that is not the repository: the kit's own course made by `init`, and an
instructor's own assignment written from the guide.

The wheel is built from a copy of the checkout (building in place would leave build/ and
*.egg-info in it, and a stale build/lib can put deleted modules into a wheel). The scratch
virtualenv reuses the pinned dependencies of the environment running the tests through a .pth
line instead of installing them again; that environment's editable install of the kit stays
inactive (a .pth file is processed only in a site directory, not in one a .pth line adds).
A .pth hook in the scratch environment records every file a Python process opens in the
checkout or in the installed kit, in the grader, its workers, nbgrader and the kernel
template alike, so the test can tell which copy of the kit actually ran.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

pytestmark = pytest.mark.long

REPO = Path(__file__).resolve().parents[1]
DEPS = Path(sys.prefix).resolve()  # the environment running the tests: the pinned packages
ID = "01_attention_by_hand"
PACKAGES = ("autograder", "solutions", "attention_course")  # attention_course is assignments/
SOURCES = {"autograder": "autograder", "solutions": "solutions",
           "attention_course": "assignments", "autograder/pages": "docs"}
GUIDE = REPO / "autograder" / "docs" / "writing-assignments.md"
OWN = "10_positions"  # the guide's worked example

# Imported by a .pth file in the scratch environment: every Python process started there
# (grader, spawned workers, nbgrader, kernel template) appends to the log each file it opens
# under one of the watched folders, except under the ignored ones. The settings are read from
# kit_test_watch.json beside it, not from the environment: the kernel template is started
# with a minimal environment of its own.
WATCH = '''\
import csv
import json
import os
import re
import sys

try:
    with open(os.path.join(os.path.dirname(__file__), "kit_test_watch.json")) as _settings:
        _watch = json.load(_settings)
except OSError:  # a sandboxed kernel cannot read it
    _watch = {"log": None, "watched": [], "ignored": []}
LOG = _watch["log"]
WATCHED = tuple(_watch["watched"])
IGNORED = tuple(_watch["ignored"])
_busy = []


def _hook(event, args):
    if event != "open" or _busy or not args or not isinstance(args[0], (str, bytes)):
        return
    path = os.path.abspath(os.fsdecode(args[0]))
    if path.startswith(WATCHED) and not path.startswith(IGNORED):
        _busy.append(1)
        try:
            fd = os.open(LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            os.write(fd, f"{os.getpid()} {path}\\n".encode())
            os.close(fd)
        except OSError:  # a sandboxed kernel cannot reach the log
            pass
        finally:
            _busy.pop()


if LOG and WATCHED:
    sys.addaudithook(_hook)
'''

# The kit runs nbgrader, which runs the `alembic` executable to create a gradebook; a
# dependency reused through a .pth file brings no executables, so the scratch bin/ gets one
# (a shell script: a #! line may not hold a long temporary path).
ALEMBIC = '''\
#!/bin/sh
exec "{python}" -c "import sys; from alembic.config import main; sys.exit(main())" "$@"
'''


def run(command, what, timeout=300, **kwargs):
    """Run a command; on failure, fail the test naming `what` with the end of its output."""
    try:
        result = subprocess.run([str(c) for c in command], capture_output=True, text=True,
                                timeout=timeout, **kwargs)
    except subprocess.TimeoutExpired as error:
        pytest.fail(f"{what}: no answer in {timeout} s\n{tail(error.stdout, error.stderr)}")
    if result.returncode != 0:
        pytest.fail(f"{what}: exit {result.returncode}\n{tail(result.stdout, result.stderr)}")
    return result


def tail(stdout, stderr, lines=40):
    def end(text):
        if isinstance(text, bytes):
            text = text.decode(errors="replace")
        return "\n".join((text or "").strip().splitlines()[-lines:]) or "(nothing)"

    return f"--- stdout (end) ---\n{end(stdout)}\n--- stderr (end) ---\n{end(stderr)}"


def purelib(python, **kwargs):
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    return Path(run([python, "-c", code], f"{python}: where is site-packages", **kwargs)
                .stdout.strip())


def inside(path, folder):
    return path == folder or folder in path.parents


# Left out of the copy: anywhere, caches; at the top only (autograder/build/ is a package),
# environments, build output and course state.
ANYWHERE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".*_cache", ".hypothesis")
TOP = {".git", ".venv", "build", "dist", "demo", "submitted", "autograded", "feedback",
       "gradebook.db", "grade.log"}


def sources_only(folder, names):
    return ANYWHERE(folder, names) | (TOP & set(names) if Path(folder) == REPO else set())


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    """A copy of the checkout's sources, without environments, caches and build output."""
    copy = tmp_path_factory.mktemp("checkout") / "kit"
    shutil.copytree(REPO, copy, ignore=sources_only)
    return copy


@pytest.fixture(scope="module")
def wheel(checkout, tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "-w", out, checkout], "building the wheel")
    wheels = list(out.glob("*.whl"))
    assert len(wheels) == 1, f"expected one wheel in {out}, found {wheels}"
    return wheels[0]


def test_the_hub_pages_install_line_names_the_wheel(wheel):
    """Does the wheel the hub recipe installs (its glob; docs/instructors/where-courses-run.md)
    match the wheel pip builds?"""
    page = Path(__file__).resolve().parents[1] / "docs" / "instructors" / "where-courses-run.md"
    globs = re.findall(r"pip install --no-deps \S*/(\S+\.whl)", page.read_text(encoding="utf-8"))
    assert globs, f"{page.name} installs no wheel by name"
    assert all(wheel.match(pattern) for pattern in globs), (globs, wheel.name)


def test_wheel_holds_every_package_and_file(checkout, wheel):
    """Does the wheel hold every file of autograder/, solutions/ and the course's assignments/
    (as attention_course: every assignment folder, every file the kit reads at run time), and
    nothing else of the checkout?"""
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"{package}/{p.relative_to(checkout / folder).as_posix()}"
                for package, folder in SOURCES.items()
                for p in (checkout / folder).rglob("*") if p.is_file()}
    missing = sorted(expected - names)
    assert not missing, f"{wheel.name} lacks {len(missing)} files: {missing[:20]}"
    # read as text at run time (sandbox/link.py, sandbox/kernel.py, build/render.py, guide)
    assert {"autograder/sandbox/agent.py", "autograder/sandbox/zygote.py",
            "autograder/build/public_checks.py", "autograder/docs/writing-assignments.md",
            f"attention_course/{ID}/checks.py", "attention_course/past_versions.json"} <= names
    stray = sorted(n for n in names if n.split("/")[0] not in PACKAGES
                   and ".dist-info/" not in n)
    assert not stray, f"{wheel.name} holds files outside the packages: {stray[:20]}"


@dataclass
class Installed:
    """The wheel installed in a scratch virtualenv, and how to run its command."""

    venv: Path
    site: Path
    script: Path
    env: dict
    opened: Path  # the log of files of the checkout or the installed kit a process opened

    def run(self, *args, cwd, what=None, timeout=600):
        return run([self.script, *args], what or f"attention-kit {' '.join(map(str, args))}",
                   timeout=timeout, cwd=cwd, env=self.env)

    def files(self):
        """{path: (size, mtime)} of every file of the installed kit."""
        return {p: (p.stat().st_size, p.stat().st_mtime_ns) for package in PACKAGES
                for p in (self.site / package).rglob("*") if p.is_file()}

    def opened_files(self):
        lines = self.opened.read_text().splitlines() if self.opened.exists() else []
        return [(line.split(" ", 1)[0], Path(line.split(" ", 1)[1])) for line in lines]


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """The wheel in a fresh virtualenv that reuses the pinned dependencies, with the python3
    kernel spec of its own, and the environment its commands run in (no checkout on PATH)."""
    root = tmp_path_factory.mktemp("installed")
    venv = root / "venv"
    run([sys.executable, "-m", "venv", venv], "creating the scratch virtualenv")
    python, bin_ = venv / "bin" / "python", venv / "bin"
    run([python, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
         "--disable-pip-version-check", wheel], "installing the wheel")
    site = purelib(python)
    deps = sysconfig.get_paths()["purelib"]  # this interpreter's: the pinned packages
    assert inside(site, venv), f"the scratch site-packages {site} is not in {venv}"
    (site / "kit_test_deps.pth").write_text(f"{deps}\n")
    (site / "kit_test_watch.py").write_text(WATCH)
    (site / "kit_test_watch.pth").write_text("import kit_test_watch\n")
    alembic = bin_ / "alembic"
    alembic.write_text(ALEMBIC.format(python=python))
    alembic.chmod(0o755)
    opened = root / "opened.log"
    path = [bin_, *(p for p in os.environ.get("PATH", "").split(os.pathsep)
                    if p and not inside(Path(p).resolve(), REPO)
                    and not inside(Path(p).resolve(), DEPS))]
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "JUPYTER", "VIRTUAL_ENV"))}
    env.update(PATH=os.pathsep.join(map(str, path)), JUPYTER_PATH=str(venv / "share/jupyter"))
    (site / "kit_test_watch.json").write_text(json.dumps({
        "log": str(opened), "ignored": [f"{DEPS}/"],
        "watched": [f"{REPO}/", *(f"{site / p}/" for p in PACKAGES)]}))
    run([python, "-m", "ipykernel", "install", "--prefix", venv, "--name", "python3"],
        "installing the python3 kernel spec in the scratch virtualenv", cwd=root, env=env)
    return Installed(venv, site, bin_ / "attention-kit", env, opened)


def test_installed_wheel_runs_outside_the_checkout(installed, tmp_path):
    """Does the installed wheel, not the checkout, answer --help, make a course of the kit's
    own assignment with init and validate it (solutions graded full marks, stubs zero, by real
    nbgrader)?"""
    python = installed.venv / "bin" / "python"
    found = run([python, "-c", "import autograder, solutions, attention_course\n"
                 "from jupyter_client.kernelspec import KernelSpecManager\n"
                 "print(autograder.__file__, solutions.__file__, attention_course.__file__, "
                 "KernelSpecManager().get_kernel_spec('python3').argv[0], sep='\\n')"],
                "importing the kit in the scratch virtualenv", cwd=tmp_path,
                env=installed.env).stdout.split("\n")
    for module in found[:3]:
        assert inside(Path(module), installed.site), (
            f"the scratch virtualenv imports {module}, not the wheel in {installed.site}: the "
            "checkout (or its editable install) leaked in")
    assert Path(found[3]) == python, f"the python3 kernel runs {found[3]}, not {python}"
    assert str(python) in installed.script.read_text()[:1000], (
        f"{installed.script} does not run {python}")

    result = installed.run("--help", cwd=tmp_path, timeout=60)
    assert result.stdout.startswith("usage:") and "validate" in result.stdout, result.stdout
    installed.run("init", "course", ID, cwd=tmp_path)
    course = tmp_path / "course"
    assert (course / "assignments" / ID / "checks.py").is_file()
    result = installed.run("validate", ID, cwd=course)
    assert f"valid: {ID}" in result.stdout, tail(result.stdout, result.stderr)

    opened = installed.opened_files()
    from_checkout = sorted(str(f) for _, f in opened if inside(f, REPO))
    assert not from_checkout, ("a process of the installed kit opened files of the checkout: "
                               f"{from_checkout[:10]}")
    processes = {pid for pid, f in opened if "/autograder/grading/" in str(f)}
    assert len(processes) >= 2, ("the grader and its workers should have imported the "
                                 f"wheel's autograder.grading; opened: {opened[:20]}")
    # kernels are forked from the template, started as a script from the installed package
    assert installed.site / "autograder/sandbox/zygote.py" in {f for _, f in opened}, (
        f"no kernel template was started from the wheel; opened: {opened[:20]}")


def guide_files():
    """{file name: text} of the guide's worked example: each block that follows a line
    `<!-- file: NAME -->`."""
    text = GUIDE.read_text(encoding="utf-8")
    blocks = re.findall(r"<!-- file: ([\w.]+) -->\n```python\n(.*?)\n```", text, re.DOTALL)
    return {name: code + "\n" for name, code in blocks}


def scores(installed, course, assignment_id):
    """{student: (score, max)} of the assignment, as the kit's export writes them."""
    installed.run("export", "--to", "grades.csv", cwd=course)
    with open(course / "grades.csv", newline="", encoding="utf-8-sig") as table:
        return {row["student_id"]: (float(row["score"]), float(row["max_score"]))
                for row in csv.DictReader(table) if row["assignment"] == assignment_id}


def hand_in(course, student, assignment_id, code):
    """The release notebook with its solution cell holding `code` (None: as released)."""
    notebook = nbformat.read(course / "release" / assignment_id / f"{assignment_id}.ipynb", 4)
    if code is not None:
        for cell in notebook.cells:
            if cell.metadata.get("nbgrader", {}).get("solution"):
                cell.source = code
    folder = course / "submitted" / student / assignment_id
    folder.mkdir(parents=True)
    nbformat.write(notebook, folder / f"{assignment_id}.ipynb")


def test_an_instructor_writes_an_assignment_from_the_wheel(installed, tmp_path):
    """With only the installed wheel and the guide: does init make an empty course outside the
    checkout, `new` scaffold an assignment that builds and validates as written, the guide's
    worked example (sinusoidal encodings, two named mistakes) replace it, build and validate,
    and grading give a correct student full marks, a wrong one less with the mistake named,
    and a blank one zero, without a file of the installed kit written? And do the pages the
    kit's messages point to (`guide PAGE`) print from the wheel alone?"""
    before = installed.files()
    page = installed.run("guide", "sandbox", cwd=tmp_path).stdout
    assert page.startswith("# How grading works: the sandbox"), page[:300]
    settings = installed.run("guide", "settings", cwd=tmp_path).stdout
    assert "| `c.GradeInSandbox.isolation` |" in settings, settings[:2000]
    installed.run("init", "course", "--empty", cwd=tmp_path)
    course = tmp_path / "course"
    result = installed.run("new", OWN, cwd=course)
    assert "python -m autograder build 10_positions" in result.stdout
    installed.run("build", OWN, cwd=course)
    result = installed.run("validate", OWN, cwd=course)
    assert f"valid: {OWN}" in result.stdout, tail(result.stdout, result.stderr)

    folder = course / "assignments" / OWN
    files = guide_files()
    assert set(files) == {"reference.py", "documents.py", "checks.py", "notebook.py"}, files
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    installed.run("build", OWN, cwd=course)
    result = installed.run("validate", OWN, cwd=course)
    assert f"valid: {OWN}" in result.stdout, tail(result.stdout, result.stderr)

    reference = files["reference.py"].split("\n\n\n", 1)[1]  # the function, docstring and all
    wrong = (reference.replace("torch.sin(angles)", "SINE").replace("torch.cos(angles)",
             "torch.sin(angles)").replace("SINE", "torch.cos(angles)"))  # exchanged
    hand_in(course, "right", OWN, reference)
    hand_in(course, "wrong", OWN, wrong)
    hand_in(course, "blank", OWN, None)
    installed.run("grade", cwd=course)
    graded = scores(installed, course, OWN)
    assert graded["right"] == (3.0, 3.0), graded
    assert graded["blank"][0] == 0.0, graded
    assert graded["wrong"][0] < 3.0, graded
    record = nbformat.read(course / "autograded" / "wrong" / OWN / f"{OWN}.ipynb", 4)
    named = {f.get("mistake") for f in record.metadata["kit"]["findings"]}
    assert "sin and cos exchanged" in named, record.metadata["kit"]["findings"]

    assert installed.files() == before, "the kit wrote into its own installed files"
    assert not [f for _, f in installed.opened_files() if inside(f, REPO)], (
        "a process of the installed kit opened files of the checkout")
