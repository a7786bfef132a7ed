"""Does `serve` make, as it starts, what each assignment's first grade would make (its bundle,
the worker's copy of it), so that its first grade makes none of it and scores as any grade;
does the warm-up write nothing in the course, and say an assignment it cannot make ready
while serve goes on?

A real `python -m autograder serve`, its timeline (plumbing/timeline.py) beside the course."""

from __future__ import annotations

import time

import nbformat
import pytest

from autograder.course.config_file import db_url, sqlite_file
from autograder.course.directory import Course
from autograder.grading.parallel import register_assignments
from autograder.serve.warm_up import registered
from autograder.tools import simulate
from tests.autograder.serve.test_commands import kit, score, started_with_timeline
from tests.autograder.serve.test_on_submit import WAIT
from tests.course import ROOT

ID = "01_attention_by_hand"
BROKEN = "02_embeddings"  # registered, then its checks.py made unreadable


def files_of(root):
    """Every file of the course outside .kit (serve's lock and socket), with its size and
    modification time."""
    return {path.relative_to(root): (path.stat().st_size, path.stat().st_mtime_ns)
            for path in root.rglob("*") if path.is_file() and ".kit" not in path.parts}


@pytest.fixture(scope="module")
def warmed(tmp_path_factory):
    """A course of two registered assignments, the second's checks broken, a correct notebook
    of the first handed in; serve started and its warm-up done."""
    root = tmp_path_factory.mktemp("serve-warm-up") / "course"
    made = Course.create(root, ROOT, [ID, BROKEN])
    register_assignments(root, [ID, BROKEN], lambda _: None)
    (root / "assignments" / BROKEN / "checks.py").write_text("STEPS = (\n")
    release = nbformat.read(ROOT / "release" / ID / f"{ID}.ipynb", 4)
    source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", 4)
    made.submit("ada", ID, simulate.correct(release, source))
    before = files_of(root)
    serve, timeline = started_with_timeline(root, "warm-up-timeline.txt")
    deadline = time.monotonic() + WAIT
    while "serve: warm-up done" not in timeline.read_text():
        assert serve.process.poll() is None, serve.text()
        assert time.monotonic() < deadline, f"no warm-up after {WAIT} s:\n{serve.text()}"
        time.sleep(0.1)
    yield {"root": root, "serve": serve, "timeline": timeline, "before": before}
    if serve.process.poll() is None:
        serve.stop()


def marks_of(warmed):
    pid = str(warmed["serve"].process.pid)
    return [line.split(" ", 2)[2] for line in warmed["timeline"].read_text().splitlines()
            if line.split(" ", 2)[1] == pid]


def test_the_warm_up_makes_each_assignment_ready_and_writes_nothing_in_the_course(warmed):
    """Did serve's warm-up make the assignment's bundle and the worker's copy, and leave every
    file of the course as it was?"""
    marks = marks_of(warmed)
    assert f"bundle: {ID} made" in marks and f"worker: {ID} copied" in marks, marks
    assert f"serve: {ID} warmed" in marks, marks
    assert files_of(warmed["root"]) == warmed["before"]


def test_an_assignment_that_cannot_be_made_ready_is_said_and_serve_goes_on(warmed):
    """Is the assignment whose checks cannot be read named on serve's console, with why, and
    does serve still run?"""
    console = warmed["serve"].text()
    assert f"warm-up of {BROKEN}:" in console and "checks.py" in console, console
    assert f"serve: {BROKEN} warmed" not in marks_of(warmed)
    assert warmed["serve"].process.poll() is None


def test_the_first_grade_after_the_warm_up_makes_nothing_again_and_scores_alike(warmed):
    """Does the first grade through serve find the bundle and the worker's copy made (neither
    is made again), and score the correct notebook 10?"""
    warmed["timeline"].write_text("")
    result = kit(warmed["root"], "grade", ID, "--student", "ada")
    assert result.returncode == 0, result.stdout + result.stderr
    marks = marks_of(warmed)
    assert "grading: steps judged" in marks, marks  # graded in serve, its timeline written
    assert not [m for m in marks if m.startswith(("bundle:", "worker:")) and
                m.endswith((" made", " copied"))], marks
    assert score(warmed["root"], "ada") == 10


def test_a_course_without_a_gradebook_gets_none_from_the_warm_up(tmp_path):
    """In a course whose gradebook is not made yet (its first grade makes it), does the
    warm-up find nothing to make, without making the gradebook itself?"""
    root = tmp_path / "course"
    Course.create(root, ROOT, [ID])
    gradebook = sqlite_file(db_url(root))
    assert gradebook is not None and not gradebook.exists()
    assert registered(root) == []
    assert not gradebook.exists()
