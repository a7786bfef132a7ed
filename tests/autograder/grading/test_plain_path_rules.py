"""Does "no built-in softmax" catch the library's other names for softmax (softmin of minus
the scores, nn.Softmin, log_softmax then exp) on both paths, plain `nbgrader autograde` with
the course's config and the kit's `grade` (issue 28)?

Each notebook of assignment 01 has right answers, its stable_softmax written with one of those
built-ins: it must lose that step's points, and only those, on both paths, with real kernels in
the real sandbox (root, as in CI). The rule's decision itself, without a kernel, is asked first.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from autograder.checks.code_rules import judged
from autograder.course.directory import Course, nbgrader_env
from autograder.grading.parallel import grade, submission_scores
from autograder.tools import simulate

ROOT = Path(__file__).resolve().parents[3]
ID = "01_attention_by_hand"
FULL, STEP_POINTS = 10, 3  # the assignment's points; stable_softmax's
HEAD = "def stable_softmax(scores, dim=-1):\n    return "
SOFTMAX_BY_OTHER_NAMES = {
    "softmin": HEAD + "torch.nn.functional.softmin(-scores, dim=dim)\n",
    "softmin_module": HEAD + "torch.nn.Softmin(dim=dim)(-scores)\n",
    "log_softmax_exp": HEAD + "torch.nn.functional.log_softmax(scores, dim=dim).exp()\n",
}
FORBIDDEN = ["distributions", "softmax"]  # the step's fragments (assignments/01_.../checks.py)


@pytest.mark.parametrize("name", sorted(SOFTMAX_BY_OTHER_NAMES))
def test_rule_names_the_built_in(name):
    """Is each way of calling softmax by another name a broken "no built-in softmax"?"""
    text = "import torch\n" + SOFTMAX_BY_OTHER_NAMES[name]
    assert judged("forbids_builtins", FORBIDDEN, text) is not None


def test_rule_keeps_a_softmax_written_by_hand():
    """Does a softmax written with exp, max and sum still keep the rule?"""
    text = ("import torch\n" + HEAD.removesuffix("    return ")
            + "    e = torch.exp(scores - scores.max(dim, keepdim=True).values)\n"
            "    return e / e.sum(dim, keepdim=True)\n")
    assert judged("forbids_builtins", FORBIDDEN, text) is None


pytestmark_root = pytest.mark.skipif(os.geteuid() != 0, reason="the full sandbox needs root "
                                     "(CI runs as root)")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """{path: course} of one class graded by plain nbgrader ("plain") and by grade ("kit")."""
    made = {}
    for path in ("plain", "kit"):
        course = Course.create(tmp_path_factory.mktemp(path), ROOT, [ID])
        course.generate(ID)
        release = nbformat.read(course.root / "release" / ID / f"{ID}.ipynb", 4)
        source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", 4)
        right = simulate.correct(release, source)
        course.submit("right", ID, right)
        for name, code in SOFTMAX_BY_OTHER_NAMES.items():
            course.submit(name, ID, simulate.after_cell(right, "stable_softmax", code))
        made[path] = course
    subprocess.run([sys.executable, "-m", "nbgrader", "autograde", ID], cwd=made["plain"].root,
                   env=nbgrader_env(), capture_output=True, text=True, timeout=1800, check=True)
    grade(made["kit"].root, [ID], workers=1, log=lambda _: None)
    return made


def total(course, student):
    scores = submission_scores(course.root, ID, student)
    assert scores is not None, f"{student} was not graded"
    return sum(score for score, _ in scores.values())


@pytestmark_root
@pytest.mark.parametrize("path", ["plain", "kit"])
def test_softmax_by_another_name_loses_its_step_on_both_paths(graded, path):
    """Graded by plain nbgrader and by the kit, does each stable_softmax that calls a built-in
    under another name lose that step's points, and only those, beside a right notebook that
    earns them all?"""
    course = graded[path]
    assert total(course, "right") == FULL
    for name in SOFTMAX_BY_OTHER_NAMES:
        assert total(course, name) == FULL - STEP_POINTS, name
