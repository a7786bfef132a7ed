"""What the Gradescope tests share: a scratch copy of the repository's course, the zip the real
command line writes for it, Gradescope's /autograder laid out from that zip in a temporary
folder, and run_autograder run there as a real subprocess."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

from autograder.course.directory import Course

ROOT = Path(__file__).resolve().parents[3]
ID = "01_attention_by_hand"
SCHEMA = json.loads((Path(__file__).with_name("results_schema.json")).read_text())


def kit(*args, cwd=ROOT, timeout=600):
    """The kit's real command line in a fresh interpreter."""
    return subprocess.run([sys.executable, "-m", "autograder", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def scratch_course(folder: Path, ids=(ID,)) -> Path:
    """A copy of the repository's course (config, assignments, source and release of `ids`),
    so that nothing here writes the repository's gradebook."""
    course = Course.create(folder, ROOT, list(ids))
    for assignment_id in ids:
        shutil.copytree(ROOT / "release" / assignment_id, folder / "release" / assignment_id)
    return course.root


def gradescope_zip(course: Path, to: Path) -> Path:
    result = kit("--root", str(course), "gradescope", ID, "--to", str(to))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return to


def notebooks(course: Path):
    """(release, source) notebooks of the assignment."""
    return tuple(nbformat.read(course / stage / ID / f"{ID}.ipynb", as_version=4)
                 for stage in ("release", "source"))


def lay_out(folder: Path, archive: Path, uploads: dict) -> Path:
    """Gradescope's /autograder in `folder`: the zip in source/, run_autograder beside it (as
    Gradescope copies it), the upload in submission/ (file name: bytes),
    submission_metadata.json, an empty results/."""
    folder.mkdir(parents=True)
    with zipfile.ZipFile(archive) as opened:
        opened.extractall(folder / "source")
        for info in opened.infolist():  # extractall drops the executable bit
            mode = info.external_attr >> 16
            if mode:
                os.chmod(folder / "source" / info.filename, mode)
    shutil.copy2(folder / "source" / "run_autograder", folder / "run_autograder")
    (folder / "submission").mkdir()
    for name, data in uploads.items():
        (folder / "submission" / name).write_bytes(data)
    (folder / "submission_metadata.json").write_text(json.dumps({
        "id": 1, "created_at": "2026-11-26T01:00:00.000000+00:00",
        "assignment": {"title": ID, "total_points": "10.0"},
        "users": [{"email": "ada@example.com", "id": 7, "name": "Ada"}],
        "previous_submissions": []}))
    (folder / "results").mkdir()
    return folder


def run_autograder(folder: Path, timeout=900):
    """run_autograder as Gradescope runs it (cwd /autograder, here `folder`), with this
    environment's python in place of the one setup.sh would install; (process, results)."""
    env = {**os.environ, "KIT_GRADESCOPE_ROOT": str(folder),
           "KIT_GRADESCOPE_PYTHON": sys.executable}
    process = subprocess.run([str(folder / "run_autograder")], cwd=folder, env=env,
                             capture_output=True, text=True, timeout=timeout)
    path = folder / "results" / "results.json"
    assert path.exists(), process.stdout[-3000:] + process.stderr[-3000:]
    return process, json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def course(tmp_path_factory):
    return scratch_course(tmp_path_factory.mktemp("gradescope") / "course")


@pytest.fixture(scope="session")
def archive(course, tmp_path_factory):
    return gradescope_zip(course, tmp_path_factory.mktemp("zip") / f"{ID}-gradescope.zip")
