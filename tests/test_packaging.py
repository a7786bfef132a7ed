"""The kit as a user gets it: a wheel, installed (not editable) in a fresh virtualenv, run from
a course folder that is not the repository.

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

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DEPS = Path(sys.prefix).resolve()  # the environment running the tests: the pinned packages
ID = "01_attention_by_hand"
PACKAGES = ("autograder", "solutions")

# Imported by a .pth file in the scratch environment: every Python process started there
# (grader, spawned workers, nbgrader, kernel template) appends to the log each file it opens
# under one of the watched folders, except under the ignored ones. The settings are read from
# kit_test_watch.json beside it, not from the environment: the kernel template is started
# with a minimal environment of its own.
WATCH = '''\
import json
import os
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


def test_wheel_holds_every_package_and_file(checkout, wheel):
    """Does the wheel hold every file of autograder/ and solutions/ (every subpackage, every
    module, every file the kit reads at run time), and nothing else of the checkout?"""
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {p.relative_to(checkout).as_posix() for package in PACKAGES
                for p in (checkout / package).rglob("*") if p.is_file()}
    missing = sorted(expected - names)
    assert not missing, f"{wheel.name} lacks {len(missing)} files: {missing[:20]}"
    # read as text at run time (sandbox/link.py, sandbox/kernel.py, build/render.py)
    assert {"autograder/sandbox/agent.py", "autograder/sandbox/zygote.py",
            "autograder/build/public_checks.py"} <= names
    stray = sorted(n for n in names if n.split("/")[0] not in PACKAGES
                   and ".dist-info/" not in n)
    assert not stray, f"{wheel.name} holds files outside the packages: {stray[:20]}"


def test_installed_wheel_runs_outside_the_checkout(wheel, tmp_path):
    """Does the installed wheel, not the checkout, answer --help and validate an assignment
    (solutions graded full marks, stubs zero, by real nbgrader) from a course folder?"""
    venv = tmp_path / "venv"
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

    course = tmp_path / "course"
    course.mkdir()
    shutil.copy(REPO / "nbgrader_config.py", course)
    for folder in ("source", "release"):
        shutil.copytree(REPO / folder / ID, course / folder / ID)

    opened = tmp_path / "opened.log"
    path = [bin_, *(p for p in os.environ.get("PATH", "").split(os.pathsep)
                    if p and not inside(Path(p).resolve(), REPO)
                    and not inside(Path(p).resolve(), DEPS))]
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "JUPYTER", "VIRTUAL_ENV"))}
    env.update(PATH=os.pathsep.join(map(str, path)), JUPYTER_PATH=str(venv / "share/jupyter"))
    (site / "kit_test_watch.json").write_text(json.dumps({
        "log": str(opened), "ignored": [f"{DEPS}/"],
        "watched": [f"{REPO}/", *(f"{site / p}/" for p in PACKAGES)]}))
    where = {"cwd": course, "env": env}

    run([python, "-m", "ipykernel", "install", "--prefix", venv, "--name", "python3"],
        "installing the python3 kernel spec in the scratch virtualenv", **where)
    found = run([python, "-c", "import autograder, solutions\n"
                 "from jupyter_client.kernelspec import KernelSpecManager\n"
                 "print(autograder.__file__, solutions.__file__, "
                 "KernelSpecManager().get_kernel_spec('python3').argv[0], sep='\\n')"],
                "importing the kit in the scratch virtualenv", **where).stdout.split("\n")
    for module in found[:2]:
        assert inside(Path(module), site), (
            f"the scratch virtualenv imports {module}, not the wheel in {site}: the "
            "checkout (or its editable install) leaked in")
    assert Path(found[2]) == python, f"the python3 kernel runs {found[2]}, not {python}"
    script = bin_ / "attention-kit"
    assert str(python) in script.read_text()[:1000], f"{script} does not run {python}"

    result = run([script, "--help"], "attention-kit --help", timeout=60, **where)
    assert result.stdout.startswith("usage:") and "validate" in result.stdout, result.stdout

    result = run([script, "validate", ID], f"attention-kit validate {ID}", timeout=600,
                 **where)
    assert f"valid: {ID}" in result.stdout, tail(result.stdout, result.stderr)

    lines = opened.read_text().splitlines() if opened.exists() else []
    files = {Path(line.split(" ", 1)[1]) for line in lines}
    from_checkout = sorted(str(f) for f in files if inside(f, REPO))
    assert not from_checkout, ("a process of the installed kit opened files of the checkout: "
                               f"{from_checkout[:10]}")
    processes = {line.split(" ", 1)[0] for line in lines
                 if "/autograder/grading/" in line.split(" ", 1)[1]}
    assert len(processes) >= 2, ("the grader and its workers should have imported the "
                                 f"wheel's autograder.grading; opened: {sorted(files)[:20]}")
    # kernels are forked from the template, started as a script from the installed package
    assert site / "autograder/sandbox/zygote.py" in files, (
        f"no kernel template was started from the wheel; opened: {sorted(files)[:20]}")
