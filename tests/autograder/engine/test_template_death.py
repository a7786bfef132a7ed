"""When the kernel template dies while a worker grades a notebook (memory exhausted, a kill
from outside), is the notebook graded again with a new template instead of being blamed for
the deaths of its kernels; and when the template dies each time, is the notebook reported
not gradable, naming the template, not the student's code?"""

from __future__ import annotations

import nbformat
import pytest

from autograder.engine import worker
from autograder.engine.bundle import assignment_bundle, submission_of
from autograder.sandbox.kernel import SandboxedKernel, Zygote
from tests.autograder.one_submission import ID, as_a_worker, course_with_ada


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = course_with_ada(tmp_path_factory.mktemp("course"))
    with as_a_worker():
        yield course


def grade(course, overrides=None):
    return worker.grade_submission(assignment_bundle(course.root, ID),
                                   submission_of(course.root, "ada", ID), overrides or {},
                                   worker.kit_version())


def kill_the_template(monkeypatch, times):
    """Kill the kernel template as soon as the first kernel of a grading has started, in the
    first `times` gradings of a notebook (grade_once); the pids of the templates killed."""
    killed, gradings = [], []
    grade_once, start = worker.grade_once, SandboxedKernel.start

    def count_the_grading(*args):
        gradings.append(len(killed))
        return grade_once(*args)

    def start_then_kill_the_template(kernel):
        start(kernel)
        if len(gradings) <= times and len(killed) < len(gradings):
            template = Zygote.shared(kernel.mechanism).process
            killed.append(template.pid)
            template.kill()
            template.wait()

    monkeypatch.setattr(worker, "grade_once", count_the_grading)
    monkeypatch.setattr(SandboxedKernel, "start", start_then_kill_the_template)
    return killed


def outputs_of(graded):
    notebook = nbformat.reads(graded.files[f"{ID}.ipynb"].decode(), as_version=4)
    return [cell.get("outputs") for cell in notebook.cells]


def test_a_notebook_whose_template_died_is_graded_again_with_a_new_one(course, monkeypatch):
    """Does the notebook come back graded as if nothing had happened (the same outputs as a
    grading no template death disturbed), with a warning, on a template other than the one
    that died?"""
    undisturbed = grade(course)
    assert undisturbed.ok, undisturbed.why
    killed = kill_the_template(monkeypatch, times=1)
    with pytest.warns(UserWarning, match="the kernel template died while ada's"):
        graded = grade(course)
    assert len(killed) == 1 and Zygote.shared().process.pid != killed[0]
    assert graded.ok, graded.why
    assert outputs_of(graded) == outputs_of(undisturbed)


def test_a_notebook_whose_template_dies_each_time_is_not_gradable_for_that_reason(
        course, monkeypatch):
    """When the template dies in every attempt, is the notebook not graded, with the
    template's death as the reason, after TEMPLATE_ATTEMPTS attempts?"""
    killed = kill_the_template(monkeypatch, times=worker.TEMPLATE_ATTEMPTS)
    with pytest.warns(UserWarning) as warned:
        graded = grade(course)
    said = [str(w.message) for w in warned if "the kernel template died" in str(w.message)]
    assert [text.endswith("graded again with a new template") for text in said] == [
        True] * (worker.TEMPLATE_ATTEMPTS - 1) + [False]
    assert said[-1].endswith("it is not graded")
    assert len(killed) == worker.TEMPLATE_ATTEMPTS
    assert (graded.ok, graded.why) == (False, worker.TEMPLATE_DIED)


def test_with_resource_limits_only_a_notebook_whose_template_died_is_not_graded_again(
        course, monkeypatch):
    """With resource limits only, a kernel runs as the grader's user and could have killed
    the template itself: is the notebook's grading kept as it came out (its kernel died, as
    any kernel death is graded), once, saying why it was not graded again?"""
    limits = {"GradeInSandbox": {"isolation": "limits"}}
    undisturbed = grade(course, limits)
    killed = kill_the_template(monkeypatch, times=worker.TEMPLATE_ATTEMPTS)
    with pytest.warns(UserWarning, match="its grading stands") as warned:
        graded = grade(course, limits)
    assert len(killed) == 1
    assert sum("the kernel template died" in str(w.message) for w in warned) == 1
    assert graded.ok and outputs_of(graded) != outputs_of(undisturbed)
