"""Run one step's hidden check on a subject and say everything that is wrong with it."""

from __future__ import annotations

import secrets

import torch

from autograder.checks.model import Mismatch, compare, expected_output, recognise
from autograder.sandbox.link import error_kind


def fresh_generator():
    """Random inputs are drawn anew at every grading, so no hard-coded answer can pass."""
    return torch.Generator().manual_seed(secrets.randbits(63))


def step_problems(step, subject, helpers, gen):
    """A list of plain-English problems (empty when the subject passes every check), the
    names of the known mistakes recognised first."""
    recognised = []
    problems = [f"rule broken: {v}" for rule in step.rules if (v := rule.violation(subject))]
    for case in [*step.document_cases(), *step.random_cases(gen)]:
        want = expected_output(case, step)
        try:
            got = case.run(subject)
        except NotImplementedError:
            problems.append("not implemented yet (the stub still raises NotImplementedError)")
            return problems
        except Exception as error:  # noqa: BLE001 - any error of student code is a finding
            problems.append(f"{case.label}: raised {error_kind(error)}: {error}")
            continue
        try:
            compare(got, want)
        except Mismatch as mismatch:
            problems.append(f"{case.label}: {mismatch}")
            mistake = recognise(step, case, got, helpers)
            if mistake is not None and mistake not in recognised:
                recognised.append(mistake)
    for prop in step.properties:
        try:
            prop(subject, gen)
        except AssertionError as error:
            problems.append(f"property: {error}")
        except Exception as error:  # noqa: BLE001
            problems.append(f"property {prop.__name__}: raised {error_kind(error)}: {error}")
    named = [f"known mistake '{m.name}': {m.hint}" for m in recognised]
    return named + problems
