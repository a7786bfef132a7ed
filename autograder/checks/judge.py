"""Run one step's hidden check on a subject and find everything that is wrong with it."""

from __future__ import annotations

import math
import secrets
import string

import torch
import torch.nn.functional as F
from torch import nn

from autograder.checks.compare import Mismatch, compare
from autograder.checks.model import Finding
from autograder.checks.subject import LocalSubject, as_subject

MAX_LISTED = 6


def fresh_generator():
    """Random inputs are drawn anew at every grading, so no hard-coded answer can pass."""
    return torch.Generator().manual_seed(secrets.randbits(63))


def error_kind(error):
    """The name of an error's class; an error raised in the student's kernel carries the name
    it had there."""
    return getattr(error, "kind", type(error).__name__)


def namespace(extra=None):
    """The names a notebook's setup cell defines, for running mistakes' code."""
    names = {"math": math, "string": string, "torch": torch, "nn": nn, "F": F}
    names.update(extra or {})
    return names


def mistake_subject(mistake, helpers):
    """The callable (function or class) that a mistake's code defines, as a subject."""
    names = namespace(helpers)
    exec(compile(mistake.code, f"<mistake: {mistake.name}>", "exec"), names)  # noqa: S102
    return LocalSubject(names[mistake.step], source=mistake.code)


def expected_output(case, step):
    return case.expected if case.expected is not None else case.run(LocalSubject(step.reference))


def recognise(step, case, got, helpers):
    """The mistake whose output on `case` equals the student's, or None."""
    for mistake in step.mistakes:
        try:
            wrong = case.run(mistake_subject(mistake, helpers))
            compare(got, wrong)
        except Exception:  # noqa: BLE001 - a mistake that does not match is simply not it
            continue
        return mistake
    return None


def step_findings(step, subject, helpers, gen):
    """Every Finding of the step's hidden check on `subject` (empty when it passes)."""
    subject = as_subject(subject)
    findings = [Finding("rule", step.name, v) for rule in step.rules
                if (v := rule_violation(rule, subject))]
    for case in [*step.document_cases(), *step.random_cases(gen)]:
        want = expected_output(case, step)
        try:
            got = case.run(subject)
        except NotImplementedError:
            findings.append(Finding("error", step.name, "not implemented yet (the stub still "
                                                        "raises NotImplementedError)"))
            return findings
        except Exception as error:  # noqa: BLE001 - any error of student code is a finding
            findings.append(Finding("error", step.name,
                                    f"{case.label}: raised {error_kind(error)}: {error}"))
            continue
        try:
            compare(got, want)
        except Exception as error:  # noqa: BLE001 - Mismatch, or an output of the wrong kind
            mismatch = error if isinstance(error, Mismatch) else Mismatch(
                f"output is not of the kind the step returns ({error_kind(error)})")
            mistake = recognise(step, case, got, helpers)
            findings.append(Finding("value", step.name, f"{case.label}: {mismatch}",
                                    mistake.name if mistake else None,
                                    mistake.hint if mistake else None))
    for prop in step.properties:
        try:
            prop(subject, gen)
        except AssertionError as error:
            findings.append(Finding("property", step.name, f"property: {error}"))
        except Exception as error:  # noqa: BLE001
            findings.append(Finding("property", step.name, f"property {prop.__name__}: "
                                    f"raised {error_kind(error)}: {error}"))
    return findings


def rule_violation(rule, subject):
    """How `subject` breaks `rule`, or None; a rule the grader cannot decide is broken."""
    try:
        return rule.violation(subject)
    except Exception as error:  # noqa: BLE001 - e.g. code too deep to parse
        return f"{rule.name}: the grader could not read the code to verify this rule " \
               f"({error_kind(error)})"


def problem_lines(findings):
    """The findings as lines for the student: each named mistake once, first, then every
    finding in order (a rule's line says it is a broken rule)."""
    named, lines = [], []
    for finding in findings:
        if finding.mistake and finding.mistake not in [m for m, _ in named]:
            named.append((finding.mistake, finding.hint))
        prefix = "rule broken: " if finding.kind == "rule" else ""
        lines.append(prefix + finding.text)
    return [f"known mistake '{name}': {hint}" for name, hint in named] + lines


def verdict_message(name, findings):
    """What a failed step's test cell says (None when nothing is wrong): the step, then the
    first problems, known mistakes first; never an expected value."""
    problems = problem_lines(findings)
    if not problems:
        return None
    listed = problems[:MAX_LISTED]
    more = len(problems) - len(listed)
    lines = [f"{name} does not pass the hidden checks:", *(f"  - {p}" for p in listed)]
    if more:
        lines.append(f"  ... and {more} more")
    return "\n".join(lines)
