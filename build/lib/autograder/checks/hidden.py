"""The one call a master notebook's hidden test makes: check_step("stable_softmax", globals()).

It runs as written only when a master notebook is executed by itself (by an instructor in
Jupyter, or nbgrader on source/<id>/): the checks then run in that kernel, on the notebook's
own functions, and speak the notebook's language. The step is the course's: its folder is
found from the notebook's (the nearest folder above with nbgrader_config.py), its checks in
assignments/<id>/checks.py. In grading, test cells are never executed: GradeInSandbox reads
which steps a test cell names and judges them in the grader, with the student's code in a
sandboxed kernel.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from autograder.checks.draws import Draws
from autograder.checks.judge import step_findings, verdict_message
from autograder.checks.loader import GUIDE, find_step
from autograder.checks.recorder import restored, swapped_where_held
from autograder.checks.subject import LocalSubject
from autograder.i18n import DEFAULT, LANGUAGES, language, t
from autograder.plumbing.course_root import course_root_of


def check_step(name, namespace):
    """Raise AssertionError listing what is wrong with the notebook's `name`, if anything, in
    the notebook's language (the LANGUAGE its helper cell sets)."""
    code = namespace.get("LANGUAGE", DEFAULT)
    with language(code if code in LANGUAGES else DEFAULT):
        _check_step(name, namespace)


def course_step(name, folder=None):
    """(assignment, step) of the step `name` of the course the folder (the notebook's, the
    current one when None) is in."""
    folder = Path.cwd() if folder is None else Path(folder)
    root = course_root_of(folder.resolve())
    if root is None:
        raise AssertionError(t("{name} cannot be checked here: open the master notebook inside "
                               "its course folder (the one with nbgrader_config.py)", name=name))
    found = find_step(root, name, hint=folder.name)
    if found is None:
        raise AssertionError(t("the course declares no hidden checks for {name}: add a Step "
                               "named {name} to its assignment's checks.py ({guide})",
                               name=name, guide=GUIDE))
    return found


def _check_step(name, namespace):
    assignment, step = course_step(name)
    target = namespace.get(name)
    if target is None:
        raise AssertionError(
            t("{name} is not defined: run the cell that defines it, and keep its name", name=name)
        )
    helpers = references(step, assignment.steps)
    with references_in(namespace, helpers):
        # Drawn afresh at each run: an instructor's master notebook has no student.
        findings = step_findings(step, LocalSubject(target), helpers, Draws())
    message = verdict_message(name, findings)
    if message:
        raise AssertionError(message)
    print(t("{name}: every hidden check passed", name=name))


def references(step, steps):
    """{name: reference} of the earlier steps `step` calls (`steps`: its assignment's)."""
    return {used: steps[used].reference for used in step.uses}


def use_references(name, namespace):
    """Before a step's public tests run, put the reference versions of the earlier steps it
    calls into the notebook's namespace (and leave them there): a wrong earlier step has
    already lost its own points and must not cost this one's."""
    assignment, step = course_step(name)
    namespace.update(references(step, assignment.steps))


@contextmanager
def references_in(namespace, helpers):
    """Put the reference versions of earlier steps into the notebook's namespace for a while,
    so that a step that calls them is judged on its own work alone: under their names, where a
    definition took one in as a default value (`def step(x, score=scaled_dot_score)`) and
    where a table holds one, as grading's kernel binds them (recorder.swapped_where_held)."""
    missing = object()
    saved = {name: namespace.get(name, missing) for name in helpers}
    swapped = [place for name, value in saved.items() if value is not missing
               for place in swapped_where_held(namespace, value, helpers[name])]
    namespace.update(helpers)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is missing:
                namespace.pop(name, None)
            else:
                namespace[name] = value
        restored(swapped)
