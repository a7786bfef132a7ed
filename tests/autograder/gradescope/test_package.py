"""Does `python -m autograder gradescope ID` write the zip Gradescope expects: setup.sh and
run_autograder at its root, executable; setup.sh installing exactly what requirements.lock
pins, torch from PyTorch's CPU index; the kit's packages; the assignment as grading needs it;
and does it refuse what it cannot do, saying why?"""

from __future__ import annotations

import re
import stat
import subprocess
import zipfile
from pathlib import Path

from packaging.utils import canonicalize_name

from autograder.gradescope.package import TORCH_INDEX, environment_pins
from tests.autograder.gradescope.conftest import ID, ROOT, kit


def names(archive):
    with zipfile.ZipFile(archive) as opened:
        return {info.filename: info for info in opened.infolist()}


def read(archive, name):
    with zipfile.ZipFile(archive) as opened:
        return opened.read(name).decode("utf-8")


def test_the_scripts_are_at_the_root_and_executable(archive):
    """Are setup.sh and run_autograder at the zip's root (not in a folder), executable, and
    valid bash?"""
    entries = names(archive)
    for script in ("setup.sh", "run_autograder"):
        assert script in entries
        assert entries[script].external_attr >> 16 & 0o111, f"{script} is not executable"
        checked = subprocess.run(["bash", "-n"], input=read(archive, script), text=True,
                                 capture_output=True)
        assert checked.returncode == 0, checked.stderr


def test_setup_installs_what_the_lock_pins(archive):
    """Does the zip carry the lines of the repository's requirements.lock that the kit needs
    to run (nbgrader's, torch's, dask's; not the development tools nor PostgreSQL's driver),
    unchanged, and does setup.sh install torch at the lock's version from PyTorch's CPU index,
    then exactly those?"""
    lock = (ROOT / "requirements.lock").read_text()
    carried = read(archive, "requirements.lock").splitlines()
    assert set(carried) <= set(lock.splitlines())
    names = {canonicalize_name(line.split("==")[0]) for line in carried}
    assert {"torch", "nbgrader", "distributed", "ipykernel", "jupyter-client", "jinja2",
            "noto-cjk-sans-otc"} <= names, names
    assert not names & {"pytest", "selenium", "mkdocs", "ruff", "psycopg2-binary",
                        "dask-jobqueue", "hypothesis"}, names
    torch = re.search(r"^torch==(\S+)$", lock, re.MULTILINE).group(1)
    setup = read(archive, "setup.sh")
    assert "@TORCH" not in setup  # every marker filled in
    install_torch = next(line for line in setup.splitlines() if "--index-url" in line)
    assert f'index="${{KIT_TORCH_INDEX-{TORCH_INDEX}}}"' in setup  # unless set, PyTorch's
    assert '--index-url "$index"' in install_torch and "--no-deps" in install_torch
    assert f'"torch=={torch}"' in setup
    assert re.search(r'pip" install [^\n]*-r "\$root/source/requirements.lock"', setup)
    assert setup.index(TORCH_INDEX) < setup.index("-r \"$root/source/requirements.lock\"")


def test_the_environments_pins_when_no_lock_is_at_hand():
    """Installed from a wheel (no checkout, no requirements.lock), are the pins the running
    environment's exact versions, torch's without its +cpu label, the kit itself left out?"""
    pins = environment_pins().splitlines()
    assert pins and all(re.fullmatch(r"[\w.-]+==[\w.!]+", line) for line in pins), pins[:5]
    names = {line.split("==")[0].lower() for line in pins}
    assert {"torch", "nbgrader", "distributed"} <= names
    assert "attention-course-kit" not in names and "pip" not in names


def test_the_kit_and_the_assignment_are_in_the_zip(archive):
    """Does the zip hold every file of the kit's packages as they are here, and the course as
    a grading worker gets it (config, assignments, source, release, a gradebook)?"""
    entries = names(archive)
    for package in ("autograder", "solutions"):
        for path in (ROOT / package).rglob("*"):
            relative = path.relative_to(ROOT).as_posix()
            if path.is_file() and "__pycache__" not in relative:
                assert f"kit/{relative}" in entries, relative
    assert read(archive, "kit/autograder/gradescope/run.py") == (
        ROOT / "autograder" / "gradescope" / "run.py").read_text()
    for name in ("nbgrader_config.py", "gradebook.db", "gradescope.json",
                 f"assignments/{ID}/checks.py", f"source/{ID}/{ID}.ipynb",
                 f"release/{ID}/{ID}.ipynb", "assignments/documents.py"):
        assert f"course/{name}" in entries, name
    assert not any(name.startswith("course/submitted") for name in entries)


def test_the_course_config_is_gradescopes(archive, tmp_path):
    """Does the zip's nbgrader_config.py still load, with the gradebook the folder's SQLite
    file, no dask scheduler and no due date of the kit's?"""
    from autograder.course.directory import course_config

    with zipfile.ZipFile(archive) as opened:
        opened.extract("course/nbgrader_config.py", tmp_path)
    config = course_config(tmp_path / "course")
    assert config.CourseDirectory.db_url == "sqlite:///gradebook.db"
    assert config.Cluster.scheduler == ""
    assert config.Deadlines.due_dates == {}
    assert config.Course.language == "en"


def test_the_zip_is_the_instructors_alone(archive):
    """The zip holds the course's secret and the reference solutions: is it readable by its
    writer alone, wherever --to puts it?"""
    assert stat.S_IMODE(archive.stat().st_mode) == 0o600


def test_a_file_not_the_kits_is_never_overwritten(course, tmp_path):
    """Is an existing file that is not a zip the kit wrote refused, untouched, with exit 1,
    and named as a path without the ../ it was given with?"""
    mine = tmp_path / "notes.zip"
    mine.write_text("my notes")
    (tmp_path / "sub").mkdir()
    result = kit("--root", str(course), "gradescope", ID, "--to",
                 str(tmp_path / "sub" / ".." / "notes.zip"))
    assert result.returncode == 1
    assert f"{mine} exists and is not a Gradescope zip the kit wrote" in result.stderr
    assert mine.read_text() == "my notes"


def test_an_unknown_id_is_refused(course):
    """Is an id the course does not have refused with exit 1 and the known ids?"""
    result = kit("--root", str(course), "gradescope", "99_nothing")
    assert result.returncode == 1 and ID in result.stderr
    assert not Path(course / "99_nothing-gradescope.zip").exists()
