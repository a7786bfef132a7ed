"""The one call a notebook's hidden test makes: check_step("stable_softmax", globals()).

Run as written when a master notebook is executed by itself (the checks then run in that
kernel). In grading the test cell is not run: GradeInSandbox reads which steps it names and
judges them in the grader, with the student's code in a sandboxed kernel."""

from __future__ import annotations

from contextlib import contextmanager

from autograder.checks.judge import fresh_generator, step_problems
from autograder.checks.steps import STEPS

MAX_LISTED = 6


def check_step(name, namespace):
    """Raise AssertionError listing what is wrong with the notebook's `name`, if anything."""
    step = STEPS[name]
    subject = namespace.get(name)
    if subject is None:
        raise AssertionError(
            f"{name} is not defined: run the cell that defines it, and keep its name"
        )
    helpers = {used: STEPS[used].reference for used in step.uses}
    with references_in(namespace, helpers):
        problems = step_problems(step, subject, helpers, fresh_generator())
    message = verdict_message(name, problems)
    if message:
        raise AssertionError(message)
    print(f"{name}: every hidden check passed")


def verdict_message(name, problems):
    """What a failed step's test cell says (None when nothing is wrong): the step, then the
    first problems, known mistakes first; never an expected value."""
    if not problems:
        return None
    listed = problems[:MAX_LISTED]
    more = len(problems) - len(listed)
    lines = [f"{name} does not pass the hidden checks:", *(f"  - {p}" for p in listed)]
    if more:
        lines.append(f"  ... and {more} more")
    return "\n".join(lines)


def use_references(name, namespace):
    """Before a step's public tests run in grading, put the reference versions of the earlier
    steps it calls into the notebook's namespace (and leave them there): a wrong earlier step
    has already lost its own points and must not cost this one's."""
    step = STEPS[name]
    namespace.update({used: STEPS[used].reference for used in step.uses})


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
