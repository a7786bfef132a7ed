"""Is plain `nbgrader autograde`, run in the course folder with the course's config, as safe as
the kit's `grade` on the same submissions (issue 28)?

One class of submissions is graded twice, by plain nbgrader in a subprocess and by the kit's
grade, each in its own copy of the course, with real kernels in the real sandbox (root, as in
CI). The submissions hold links (to the kit's solutions, to a folder, to a file only root can
read, the notebook itself linked to the master notebook), a named pipe, a device node, a
timestamp.txt that is a link, a notebook that is not UTF-8 and one that is not JSON; every one
hands in right answers, so any point they earn came through what should have been refused.
Right notebooks whose kernel uses /run/lock and /var/tmp, or calls an earlier step with an
input larger than one reply may be, must earn every point on both paths.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import MissingEntry

from autograder.course.directory import Course, nbgrader_env
from autograder.grading.parallel import grade, submission_scores
from autograder.tools import simulate
from tests.autograder.grading.attacks import FULL, ID, right_but, right_with

ROOT = Path(__file__).resolve().parents[3]
SECRET = "kit-secret-28b7e1"  # in a root-only file submissions link to
NOTEBOOK = f"{ID}.ipynb"
REPLY_MB = 1  # the courses' reply limit: the large call below is about 3 MB of JSON

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the full sandbox, device nodes and "
                                "a root-only file need root (CI runs as root)")

LOCK_FILES = """
import os, fcntl
def locked_note(text):
    for folder in ("/run/lock", "/var/tmp", "/tmp", "/dev/shm"):
        with open(os.path.join(folder, "kit28-note"), "w") as note:
            fcntl.flock(note, fcntl.LOCK_EX)
            note.write(text)
locked_note("left by the student's kernel")
_project = project
def project(x, W):
    locked_note("left while project is judged")
    return _project(x, W)
"""
LARGE_CALL = """
import math
_warmed = []
def scaled_dot_product_attention(queries, keys, values, mask=None):
    if not _warmed:  # the first call warms up on a large batch, through the earlier step
        _warmed.append(scaled_softmax(torch.randn(400, 400, dtype=torch.float64), 4.0))
    d_k = keys.shape[-1]
    scores = queries @ keys.transpose(-2, -1)
    if mask is None:
        weights = scaled_softmax(scores, d_k)
    else:
        hidden = (scores / math.sqrt(d_k)).masked_fill(mask, float("-inf"))
        weights = torch.softmax(hidden, dim=-1).masked_fill(mask, 0.0)
    return weights @ values, weights
"""
IMPORT_LINKED = "import sys\nsys.path.insert(0, '.')\nfrom sdp import *\nfrom lib import *\n"


def right(release, source):
    return simulate.correct(release, source)


def make_odd(folder, env):
    """The odd entries of each refused submission, made in its folder."""
    return {
        "link_solution_file": lambda: os.symlink(
            env["repo"] / "solutions" / "scaled_dot_product.py", folder / "sdp.py"),
        "link_folder": lambda: os.symlink(env["repo"] / "solutions", folder / "lib"),
        "link_secret": lambda: os.symlink(env["secret"], folder / "notes.txt"),
        "fifo": lambda: os.mkfifo(folder / "pipe"),
        "device": lambda: os.mknod(folder / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3)),
        "linked_notebook": lambda: (os.remove(folder / NOTEBOOK), os.symlink(
            env["root"] / "source" / ID / NOTEBOOK, folder / NOTEBOOK)),
        "linked_timestamp": lambda: os.symlink(env["secret"], folder / "timestamp.txt"),
        "linked_folder": lambda: (shutil.rmtree(folder), os.symlink(
            env["root"] / "submitted" / "right" / ID, folder)),
        "not_utf8": lambda: (folder / NOTEBOOK).write_bytes(
            (folder / NOTEBOOK).read_bytes().replace(b"import torch", b"import torch #\xff", 1)),
        "not_json": lambda: (folder / NOTEBOOK).write_bytes(b"{\"cells\": [1, 2,"),
    }


REFUSED = {  # student -> what the kit's refusal says
    "link_solution_file": "symbolic link", "link_folder": "symbolic link",
    "link_secret": "symbolic link", "fifo": "symbolic link or special file",
    "device": "symbolic link or special file", "linked_notebook": "symbolic link",
    "linked_timestamp": "symbolic link", "linked_folder": "symbolic link",
    "not_utf8": "not a Jupyter notebook",
    "not_json": "not a Jupyter notebook",
}
HONEST = {"right": "", "lock_files": LOCK_FILES}  # student -> code added to right answers
UNTOUCHED = {"linked_timestamp", "linked_folder"}  # nbgrader would open them: not graded


def build_class(root, secret):
    """The submissions of the class in `root`'s submitted/."""
    course = Course(root)
    release = nbformat.read(root / "release" / ID / NOTEBOOK, 4)
    source = nbformat.read(root / "source" / ID / NOTEBOOK, 4)
    env = {"root": root, "repo": ROOT, "secret": secret, "port": 0}
    for student, code in HONEST.items():
        course.submit(student, ID, right_with(code)(release, source, env))
    for student in REFUSED:
        notebook = right_with(IMPORT_LINKED)(release, source, env)
        course.submit(student, ID, notebook)
        make_odd(root / "submitted" / student / ID, env)[student]()
    course.submit("large_call", ID, right_but("scaled_dot_product_attention", LARGE_CALL)(
        release, source, env))


@pytest.fixture(scope="module")
def courses(tmp_path_factory):
    """Two copies of one course, one class in each: {"plain": (course, nbgrader's run),
    "kit": (course, grade's run)}."""
    secret = tmp_path_factory.mktemp("secret") / "secret.txt"
    secret.write_text(SECRET)
    secret.chmod(0o600)
    made = {}
    for path in ("plain", "kit"):
        course = Course.create(tmp_path_factory.mktemp(path), ROOT, [ID])
        with open(course.root / "nbgrader_config.py", "a") as config:
            config.write(f"\nc.GradeInSandbox.max_reply_mb = {REPLY_MB}\n")
        course.generate(ID)
        build_class(course.root, secret)
        made[path] = course
    plain = subprocess.run([sys.executable, "-m", "nbgrader", "autograde", ID],
                           cwd=made["plain"].root, capture_output=True, text=True, timeout=1800,
                           env=dict(nbgrader_env(), PYTHONHASHSEED="random"))
    kit = grade(made["kit"].root, [ID], workers=1, log=lambda _: None)
    yield {"plain": (made["plain"], plain), "kit": (made["kit"], kit), "secret": secret}
    for course in made.values():
        shutil.rmtree(course.root / "submitted", ignore_errors=True)  # fifos, device nodes


def plain_scores(course, student):
    """{test cell: score} of a student graded by plain nbgrader, {} when not graded."""
    try:
        return {name: cell.score for name, cell in course.cell_scores(ID, student).items()}
    except MissingEntry:
        return {}


def record(course, student):
    path = course.root / "autograded" / student / ID / NOTEBOOK
    return nbformat.read(path, 4).metadata["kit"] if path.exists() else None


def texts_under(folder):
    """The bytes of every regular file under `folder` (no link followed)."""
    found = b""
    for parent, _, names in os.walk(folder):
        for name in names:
            path = Path(parent) / name
            if path.is_file() and not path.is_symlink():
                found += path.read_bytes()
    return found


@pytest.mark.parametrize("student", sorted(REFUSED))
def test_plain_autograde_earns_nothing_through_a_link_or_odd_file(courses, student):
    """Graded by plain `nbgrader autograde`, does a submission with a link, a special file or
    a notebook that cannot be read earn no point, with the kit's reason in the notebook's
    record (or, for a linked folder or timestamp.txt, which nbgrader would open before any
    stage, is it not graded, its folder named in the log)?"""
    course, run = courses["plain"]
    scores = plain_scores(course, student)
    assert sum(scores.values()) == 0, (student, scores, run.stderr[-3000:])
    if student in UNTOUCHED:
        assert record(course, student) is None
        assert f"{course.root}/submitted/{student}/{ID}" in run.stderr
        return
    kept = record(course, student)
    assert REFUSED[student] in kept["refused"]["reason"], kept
    assert set(scores) == {"test_project", "test_scaled_softmax",
                           "test_scaled_dot_product_attention"}


def test_plain_autograde_copies_nothing_through_a_link(courses):
    """After plain `nbgrader autograde`, is no linked or special file in autograded/, and is the
    root-only file's text nowhere in autograded/ or the gradebook?"""
    course, run = courses["plain"]
    autograded = course.root / "autograded"
    names = {p.name for p in autograded.rglob("*")}
    assert not names & {"sdp.py", "lib", "notes.txt", "pipe", "null"}, names
    assert SECRET.encode() not in texts_under(autograded)
    assert SECRET.encode() not in (course.root / "gradebook.db").read_bytes()
    assert "Traceback" not in run.stderr, run.stderr[-3000:]


def test_plain_autograde_grades_the_rest_of_the_batch(courses):
    """Does plain autograde go on past every refused submission and give the right notebooks,
    the one using /run/lock and /var/tmp and the one with a large call, every point?"""
    course, run = courses["plain"]
    for student in [*HONEST, "large_call"]:
        scores = plain_scores(course, student)
        assert sum(scores.values()) == FULL, (student, scores, record(course, student))


def test_plain_autograde_says_once_that_it_hashes_otherwise_than_the_kernels(courses):
    """Started as nbgrader's own command is (its hash seed random), does plain autograde say
    once, for the whole class, that a mistake it names may differ between regrades, and how
    to start it instead?"""
    _, run = courses["plain"]
    said = [line for line in (run.stdout + run.stderr).splitlines()
            if "hashes strings at random" in line]
    assert len(said) == 1 and "PYTHONHASHSEED=0" in said[0], said


@pytest.mark.parametrize("student", sorted(REFUSED))
def test_kit_grade_refuses_the_same_submissions(courses, student):
    """Does the kit's grade refuse each of them, never grading it, with the same reason?"""
    course, run = courses["kit"]
    refused = {p.student: p.reason for p in run.refused}
    assert REFUSED[student] in refused.get(student, ""), refused
    assert submission_scores(course.root, ID, student) is None


def test_kit_grade_gives_right_notebooks_every_point(courses):
    """Do the right notebooks, the one using /run/lock and /var/tmp and the one with a large
    call, get every point from the kit's grade too, and is nothing of theirs left on the
    machine?"""
    course, run = courses["kit"]
    for student in [*HONEST, "large_call"]:
        scores = submission_scores(course.root, ID, student)
        assert scores is not None, (student, run.failed)
        got = sum(score for score, _ in scores.values())
        assert got == FULL, (student, scores, record(course, student))
    assert not any(os.path.exists(os.path.join(folder, "kit28-note"))
                   for folder in ("/run/lock", "/var/tmp", "/tmp", "/dev/shm"))
