"""The one call a master notebook's hidden test makes: check_step("stable_softmax", globals()).

It runs as written only when a master notebook is executed by itself (by an instructor in
Jupyter, or nbgrader on source/): the checks then run in that kernel, on the notebook's own
functions, and speak the notebook's language. In grading, test cells are never executed:
GradeInSandbox reads which steps a test cell names and judges them in the grader, with the
student's code in a sandboxed kernel.
"""

from __future__ import annotations

from contextlib import contextmanager

from autograder.checks.judge import fresh_generator, step_findings, verdict_message
from autograder.checks.steps import STEPS
from autograder.checks.subject import LocalSubject
from autograder.i18n import DEFAULT, LANGUAGES, language, t


def check_step(name, namespace):
    """Raise AssertionError listing what is wrong with the notebook's `name`, if anything, in
    the notebook's language (the LANGUAGE its helper cell sets)."""
    code = namespace.get("LANGUAGE", DEFAULT)
    with language(code if code in LANGUAGES else DEFAULT):
        _check_step(name, namespace)


def _check_step(name, namespace):
    step = STEPS[name]
    target = namespace.get(name)
    if target is None:
        raise AssertionError(
            t("{name} is not defined: run the cell that defines it, and keep its name", name=name)
        )
    helpers = references(step)
    with references_in(namespace, helpers):
        findings = step_findings(step, LocalSubject(target), helpers, fresh_generator())
    message = verdict_message(name, findings)
    if message:
        raise AssertionError(message)
    print(t("{name}: every hidden check passed", name=name))


def references(step):
    """{name: reference} of the earlier steps `step` calls."""
    return {used: STEPS[used].reference for used in step.uses}


def use_references(name, namespace):
    """Before a step's public tests run, put the reference versions of the earlier steps it
    calls into the notebook's namespace (and leave them there): a wrong earlier step has
    already lost its own points and must not cost this one's."""
    namespace.update(references(STEPS[name]))


@contextmanager
def references_in(namespace, helpers):
    """Put the reference versions of earlier steps into the notebook's namespace for a while,
    so that a step that calls them is judged on its own work alone."""
    missing = object()
    saved = {name: namespace.get(name, missing) for name in helpers}
    namespace.update(helpers)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is missing:
                namespace.pop(name, None)
            else:
                namespace[name] = value
