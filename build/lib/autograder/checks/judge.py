"""Run one step's hidden check on a subject and find everything that is wrong with it.

Every text a Finding carries is composed here, in the course's language (`t`): the case's
label, the mismatch, the catalogued mistake's name and hint, the lines of the verdict.
"""

from __future__ import annotations

import builtins
import inspect
import math
import string
from collections import Counter
from contextlib import nullcontext

import torch
import torch.nn.functional as F
from torch import nn

from autograder.checks.batched import BatchedCases
from autograder.checks.compare import Mismatch, compare
from autograder.checks.draws import CASES, PROBES
from autograder.checks.model import Finding
from autograder.checks.probes import probed
from autograder.checks.raised import about_shapes, called_with, raised
from autograder.checks.subject import LocalSubject, as_subject
from autograder.i18n import current, t

MAX_LISTED = 6


def error_kind(error):
    """The name of an error's class; an error raised in the student's kernel carries the name
    it had there."""
    return getattr(error, "kind", type(error).__name__)


# The errors a hidden check names as they were raised: Python's and torch's own. The name of
# a class the student's code made, and any error's message, are the student's code's text,
# which it can write from the hidden inputs, or from what a stand-in answered on them: on a
# feedback page they would carry the hidden cases out, a submission at a time (a student
# replayed them into full marks, 2026-12-03). A hidden check tells an error by its kind, the
# shapes of the call and whether it is about shapes, never by its text.
NOT_DATA = "NotData"  # the guard's kind for a returned value it does not read (sandbox/guard.py)
TOLD_KINDS = frozenset(
    [name for name, value in vars(builtins).items()
     if isinstance(value, type) and issubclass(value, BaseException)]
    + ["AcceleratorError", "OutOfMemoryError", "_LinAlgError", "LinAlgError", NOT_DATA])


def from_kernel(error):
    """Was `error` raised by the student's code in its kernel (not by the kit's own code)?"""
    return getattr(error, "kind", None) is not None


def told_kind(kind):
    """The kind of a student's error as a hidden check tells it."""
    return kind if kind in TOLD_KINDS else t("an error of a class of its own")


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


def matching_mistakes(step, case, got, subject_of):
    """The catalogued mistakes whose output on `case` equals the student's, in catalogue
    order; `subject_of(mistake)` gives the mistake's subject."""
    found = []
    for mistake in step.mistakes:
        try:
            wrong = case.run(subject_of(mistake))
            compare(got, wrong)
        except Exception:  # noqa: BLE001 - a mistake that does not match is simply not it
            continue
        found.append(mistake)
    return found


def raising_mistake(step, case, error, subject_of):
    """The catalogued mistake that raises the student's very error on `case` (its kind and
    its message), when it is the only one that does, or None: an error can be a known mistake
    too (`keys.T` on a batch), but one that several mistakes raise (a word missing from the
    vocabulary, whatever else is wrong) names none of them."""
    raising = []
    for mistake in step.mistakes:
        try:
            case.run(subject_of(mistake))
        except Exception as theirs:  # noqa: BLE001 - the mistake's own error, to compare
            if error_kind(theirs) == error_kind(error) and str(theirs) == str(error):
                raising.append(mistake)
    return raising[0] if len(raising) == 1 else None


def named_mistakes(matches, right, subject_of):
    """For each wrong case's matching mistakes (`matches`), the one to name: of those that
    also give the expected output on every case the student got right (`right`: (case,
    output)), the one that matches the most cases, the first in the catalogue on a tie. A
    mistake that gives the student's numbers on one input only by coincidence (sqrt(d_v) on a
    case whose n_keys equals d_v) gives other numbers than the student's right ones on the
    other inputs, and is not named."""
    fits = {}

    def plausible(mistake):
        if mistake.name not in fits:
            fits[mistake.name] = all(gives(subject_of(mistake), case, got)
                                     for case, got in right)
        return fits[mistake.name]

    kept = [[mistake for mistake in found if plausible(mistake)] for found in matches]
    counts = Counter(mistake.name for found in kept for mistake in found)
    return [max(found, key=lambda m: counts[m.name]) if found else None for found in kept]


def gives(subject, case, output):
    """Whether `subject` gives `output` on `case`."""
    try:
        compare(output, case.run(subject))
    except Exception:  # noqa: BLE001 - raising, or other numbers: it does not
        return False
    return True


def parameter_names(reference):
    try:
        signature = inspect.signature(reference)
    except (TypeError, ValueError):
        return []
    return [p for p in signature.parameters if p != "self"]


class Watched:
    """A subject that remembers the arguments of its latest call, so that an error raised
    in the student's code can be reported with the shapes it was given."""

    def __init__(self, subject, names):
        self.subject, self.names, self.last = subject, names, None

    def remember(self, args, kwargs):
        named = list(zip(self.names, args, strict=False))
        named += [(None, value) for value in args[len(self.names):]]
        self.last = called_with(named + list(kwargs.items()), current())

    def __call__(self, *args, **kwargs):
        self.remember(args, kwargs)
        return self.subject(*args, **kwargs)

    def seeded(self, seed, *args, burn=0, **kwargs):
        self.remember(args, kwargs)
        return self.subject.seeded(seed, *args, burn=burn, **kwargs)

    def __getattr__(self, name):
        return getattr(self.subject, name)

    def raised(self, error):
        """'raised Kind: message', with the latest call's arguments and, when the error is
        about shapes, the hint to compare them; for an error of the student's code, its kind
        as told_kind tells it and no message (TOLD_KINDS)."""
        kind = error_kind(error)
        if not from_kernel(error):
            return raised(kind, error, self.last, current())
        untold = t("its message is not shown by hidden checks, whose inputs it could carry; "
                   "call the step in your notebook with arguments like these to read it")
        if kind == NOT_DATA:  # the guard's refusal of what the step returned
            untold = t("what it returned is not a value the grader reads (a subclass of a "
                       "tensor or of a tuple, a numpy array, an object of its own class): "
                       "return the built-in type itself")
        return raised(told_kind(kind), untold, self.last, current(),
                      shapes=about_shapes(kind, str(error)))


def step_findings(step, subject, helpers, draws):
    """Every Finding of the step's hidden check on `subject` (empty when it passes), its
    random inputs drawn from `draws` (checks/draws.py: the notebook's, in grading)."""
    subject = Watched(as_subject(subject), parameter_names(step.reference))
    with recording_of(subject.subject, step):
        findings, started, right = judged_calls(step, subject, helpers, draws)
        if started:  # whether what the rules name is used (checks/probes.py)
            subject.probes = probed(step, subject.subject, right, draws.of(step.name, PROBES))
    if not started:  # a blank stub breaks no rule: it has not started yet
        return findings
    # The rules last: those on operations are decided on the records of every call above.
    return [Finding("rule", step.name, v) for rule in step.rules
            if (v := rule_violation(rule, subject))] + findings


def recording_of(subject, step):
    """The block in which the subject's calls are recorded for the step's rules on
    operations (none when it has none, or for a subject that cannot record them), the
    earlier steps it uses apart."""
    recording = getattr(subject, "recording", None)
    if not callable(recording) or not step.recorded:
        return nullcontext()
    return recording(step.uses, step.counted, measure=step.measured)


def judged_calls(step, subject, helpers, draws):
    """(the Findings of the step's cases and properties on `subject` (a Watched), whether
    the student has started: False when the stub still raises NotImplementedError, and
    (case, output) of each case the subject got right)."""
    findings = []
    wrong = []  # (index in findings, text, matching mistakes) of each case with wrong output
    right = []  # (case, output) of each case with the expected output
    compiled = {}  # mistake name -> its subject, compiled once for every case

    def subject_of(mistake):
        if mistake.name not in compiled:
            compiled[mistake.name] = mistake_subject(mistake, helpers)
        return compiled[mistake.name]

    cases = [*step.document_cases(), *step.fixed_cases(),
             *step.random_cases(draws.of(step.name, CASES))]
    batched = BatchedCases(subject, cases)
    for index, case in enumerate(cases):
        want = expected_output(case, step)
        try:
            got = batched.run(index)
        except NotImplementedError:  # a blank stub breaks no rule: it has not started yet
            return [Finding("error", step.name, t(
                "not implemented yet (the stub still raises NotImplementedError)"))], False, []
        except Exception as error:  # noqa: BLE001 - any error of student code is a finding
            mistake = raising_mistake(step, case, error, subject_of)
            findings.append(Finding("error", step.name, t(
                "{case}: {problem}", case=case.label, problem=subject.raised(error)),
                t(mistake.name) if mistake else None, t(mistake.hint) if mistake else None))
            continue
        try:
            compare(got, want)
            right.append((case, got))
        except Exception as error:  # noqa: BLE001 - Mismatch, or an output of the wrong kind
            mismatch = error if isinstance(error, Mismatch) else Mismatch(t(
                "output is not of the kind the step returns ({kind})", kind=error_kind(error)))
            wrong.append((len(findings), t("{case}: {problem}", case=case.label,
                                           problem=mismatch),
                          matching_mistakes(step, case, got, subject_of)))
            findings.append(None)  # its Finding, once every case has been seen
    names = named_mistakes([m for _, _, m in wrong], right, subject_of)
    for (index, text, _), mistake in zip(wrong, names, strict=True):
        findings[index] = Finding("value", step.name, text, t(mistake.name) if mistake else None,
                                  t(mistake.hint) if mistake else None)
    for prop in step.properties:
        try:
            prop(subject, draws.of_property(step.name, prop))
        except AssertionError as error:
            findings.append(Finding("property", step.name, t(
                "property '{name}': {problem}", name=property_words(prop),
                problem=subject.raised(error)) if from_kernel(error) else
                t("property: {message}", message=error)))
        except Exception as error:  # noqa: BLE001
            findings.append(Finding("property", step.name, t(
                "property '{name}': {problem}", name=property_words(prop),
                problem=subject.raised(error))))
    return findings, True, right


def property_words(prop):
    """A hidden property as a student reads it, in the course's language: the first
    paragraph of its docstring (its name in code, equals_torch_sdpa, tells a student
    nothing; a property without a docstring falls back to it, spaced)."""
    words = " ".join((inspect.getdoc(prop) or "").split("\n\n")[0].split()).removesuffix(".")
    return t(words) if words else prop.__name__.replace("_", " ")


def rule_violation(rule, subject):
    """How `subject` breaks `rule`, or None; a rule the grader cannot decide is broken."""
    try:
        return rule.violation(subject)
    except Exception as error:  # noqa: BLE001 - e.g. code too deep to parse
        return t("{rule}: the grader could not read the code to verify this rule ({kind})",
                 rule=t(rule.name), kind=error_kind(error))


def problem_lines(findings):
    """The findings as lines for the student: each named mistake once, first, then every
    finding in order (a rule's line says it is a broken rule). A finding's mistake and hint
    are already in the course's language."""
    named, lines = [], []
    for finding in findings:
        if finding.mistake and finding.mistake not in [m for m, _ in named]:
            named.append((finding.mistake, finding.hint))
        lines.append(t("rule broken: {problem}", problem=finding.text) if finding.kind == "rule"
                     else finding.text)
    return [t("known mistake '{name}': {hint}", name=name, hint=hint)
            for name, hint in named] + lines


def verdict_message(name, findings):
    """What a failed step's test cell says (None when nothing is wrong): the step, then the
    first problems, known mistakes first; never an expected value."""
    problems = problem_lines(findings)
    if not problems:
        return None
    listed = problems[:MAX_LISTED]
    more = len(problems) - len(listed)
    lines = [t("{name} does not pass the hidden checks:", name=name),
             *(f"  - {p}" for p in listed)]
    if more:
        lines.append("  " + t("... and {more} more", more=more))
    return "\n".join(lines)
