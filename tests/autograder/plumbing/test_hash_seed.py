"""Does the grader name the same catalogued mistake on every regrade, when the mistake's code
iterates a set, whatever hash seed the command was started with?

The kernels hash strings with seed 0; the grader runs each catalogued mistake's code itself.
02's "case-insensitive sort" sorts a set of words by their lower case, so 'The' and 'the' tie
and keep the set's order, which depends on the process's hash seed. Started with seeds 1 and 2
(which order that tie each way), the command must judge as the kernels do: one answer."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from autograder.course.directory import Course, nbgrader_env
from autograder.course.notebook_record import read_record
from autograder.tools import simulate

ROOT = Path(__file__).resolve().parents[3]
ID = "02_embeddings"
TIE = "case-insensitive sort"
# A seed each way round: `sorted({'The', 'the', ...}, key=str.lower)` puts 'The' first with
# PYTHONHASHSEED=1, as with 0 (the kernels'), and 'the' first with 2.
SEEDS = {"1": "The", "2": "the"}


def first_of_tie(seed):
    """Which of 'The' and 'the' a process started with `seed` sorts first by lower case."""
    code = "print(sorted(set('The sun rises in the east'.split()), key=str.lower)[4])"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONHASHSEED=seed), check=True).stdout.strip()


def kit(root, seed, *args, program=(sys.executable, "-m", "autograder")):
    return subprocess.run([*program, *args], cwd=root, text=True, capture_output=True,
                          timeout=600, env=dict(nbgrader_env(), PYTHONHASHSEED=seed))


def findings(root, student):
    path = root / "autograded" / student / ID / f"{ID}.ipynb"
    return [(f.kind, f.text, f.mistake) for f in read_record(nbformat.read(path, 4)).findings]


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = Course.create(tmp_path_factory.mktemp("hash") / "course", ROOT, [ID])
    shutil.copytree(ROOT / "release" / ID, course.root / "release" / ID)
    release = nbformat.read(course.root / "release" / ID / f"{ID}.ipynb", 4)
    source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", 4)
    tie = next(m for m in simulate.mistakes_of(ROOT, ID) if m.name == TIE)
    course.submit("solved", ID, simulate.correct(release, source))
    course.submit("tie", ID, simulate.with_mistake(release, source, tie))
    return course.root


def test_the_seeds_order_the_tie_each_way():
    """Do the two seeds the test starts the command with really order the tie differently
    (else the test below could not fail)?"""
    assert {seed: first_of_tie(seed) for seed in SEEDS} == SEEDS


def test_a_mistake_iterating_a_set_is_named_alike_whatever_the_seed(course):
    """Graded as a class (the embedded cluster's workers) by `python -m autograder` started
    with one seed, then alone (in the command's own process) by `attention-kit` started with
    the other, does the student get the same findings, the mistake named in both?"""
    graded = kit(course, "1", "grade", ID)
    assert graded.returncode == 0, graded.stdout + graded.stderr
    assert "graded 2" in graded.stdout, graded.stdout
    in_class = findings(course, "tie")
    console_script = (str(Path(sys.executable).with_name("attention-kit")),)
    alone = kit(course, "2", "grade", ID, "--force", "--student", "tie", program=console_script)
    assert alone.returncode == 0, alone.stdout + alone.stderr
    assert findings(course, "tie") == in_class
    assert any(mistake == TIE for _, _, mistake in in_class), in_class
    assert "hash strings at random" not in graded.stdout + alone.stdout
