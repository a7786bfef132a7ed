"""A step's cases called in one round trip (autograder/checks/batched.py): does a subject that
takes several calls at once get the cases' calls together, in their order, and does the judge
find exactly what it finds case after case?"""

from __future__ import annotations

import torch

from autograder.checks.common import calling, calling_then
from autograder.checks.draws import Draws
from autograder.checks.judge import step_findings
from autograder.checks.model import Case, Mistake, Step
from autograder.checks.subject import LocalSubject


class Counted(LocalSubject):
    """A local subject that takes several calls at once, as a kernel's does: each call's
    value, or the error it raised, in order, up to the first NotImplementedError."""

    def __init__(self, target):
        super().__init__(target)
        self.round_trips = 0

    def __call__(self, *args, **kwargs):
        self.round_trips += 1
        return super().__call__(*args, **kwargs)

    def seeded(self, seed, *args, burn=0, **kwargs):
        self.round_trips += 1
        return super().seeded(seed, *args, burn=burn, **kwargs)

    def call_each(self, calls):
        self.round_trips += 1
        answers = []
        for args, kwargs, seed, burn in calls:
            try:
                answers.append(self._target(*args, **kwargs) if seed is None else
                               LocalSubject.seeded(self, seed, *args, burn=burn, **kwargs))
            except Exception as error:  # noqa: BLE001 - the answer of that call
                answers.append(error)
                if isinstance(error, NotImplementedError):
                    break
        return answers


def double(x):
    return x * 2


def seeded_case(value):
    return Case(f"seeded {value}", lambda subject: subject.seeded(7, torch.tensor(value)),
                torch.tensor(value) * 2)


def step(*cases, reference=double):
    return Step(name="double", reference=reference, document_cases=lambda: list(cases),
                mistakes=(Mistake("tripled", "twice, not three times",
                                  "def double(x):\n    return x * 3\n"),))


def cases():
    return [Case("one", calling(torch.tensor(1.0)), torch.tensor(2.0)),
            Case("two", calling(torch.tensor(2.0)), torch.tensor(4.0)),
            Case("a copy", calling_then(lambda out: out.clone(), torch.tensor(3.0)),
                 torch.tensor(6.0)),
            Case("four", calling(torch.tensor(4.0)), torch.tensor(8.0)),
            Case("five", calling(torch.tensor(5.0)), torch.tensor(10.0)),
            seeded_case(6.0)]


def findings_of(target, the_cases, batched):
    subject = Counted(target) if batched else LocalSubject(target)
    found = step_findings(step(*the_cases), subject, {}, Draws.seeded(0))
    return found, getattr(subject, "round_trips", None)


def test_consecutive_cases_are_called_together_and_judged_as_one_by_one():
    """Are the cases of `calling` before and after two others (a copy of the output, a
    seeded call) called in two round trips, and the findings, a catalogued mistake named,
    the same?"""
    def tripled(x):
        return x * 3

    one_by_one, _ = findings_of(tripled, cases(), batched=False)
    together, round_trips = findings_of(tripled, cases(), batched=True)
    assert together == one_by_one
    assert len(together) == 6 and together[0].mistake == "tripled"
    assert round_trips == 4  # one and two | the copy | four and five | the seeded call


def test_the_student_code_sees_the_calls_in_the_order_of_the_cases():
    """Does a function that remembers its calls see them in the cases' order, the ones
    that are not batched in their turn?"""
    seen = []

    def remembering(x):
        seen.append(float(x))
        return x * 2

    findings_of(remembering, cases(), batched=True)
    assert seen == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]


def test_an_error_names_the_arguments_of_its_own_call():
    """Does a call that raises in a batch give the same finding, with its own arguments'
    shapes, as the same call made alone?"""
    def fails_on_two(x):
        if float(x) == 2.0:
            raise ValueError("two is not allowed")
        return x * 2

    one_by_one, _ = findings_of(fails_on_two, cases(), batched=False)
    together, _ = findings_of(fails_on_two, cases(), batched=True)
    assert together == one_by_one
    assert len(together) == 1 and "two is not allowed" in together[0].text


def test_a_stub_stops_the_step_at_its_first_call():
    """Is a stub that raises NotImplementedError reported as not implemented, once, and
    called no more after its first call?"""
    calls = []

    def stub(x):
        calls.append(x)
        raise NotImplementedError

    together, round_trips = findings_of(stub, cases(), batched=True)
    assert [f.text for f in together] == [
        "not implemented yet (the stub still raises NotImplementedError)"]
    assert len(calls) == 1 and round_trips == 1


def test_a_subject_without_call_each_is_called_case_by_case():
    """Is a subject that takes one call at a time (the checks' own, a master notebook's)
    judged as before, every case called in its turn?"""
    seen = []

    def remembering(x):
        seen.append(float(x))
        return x * 2

    found, _ = findings_of(remembering, cases(), batched=False)
    assert found == [] and seen == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]


def test_a_run_that_catches_its_calls_error_is_judged_as_it_runs():
    """Is a case whose run catches the error of its call (not `calling`'s) run as it is, in
    its turn, so that it passes as it does case by case?"""
    def refuses_negatives(x):
        if float(x) < 0:
            raise ValueError("negative")
        return x * 2

    def refused(x):
        def run(subject):
            try:
                return subject(torch.tensor(x))
            except ValueError:
                return "refused"
        return run

    the_cases = [Case("one", calling(torch.tensor(1.0)), torch.tensor(2.0)),
                 Case("minus one", refused(-1.0), "refused"),
                 Case("minus two", refused(-2.0), "refused"),
                 Case("three", calling(torch.tensor(3.0)), torch.tensor(6.0))]
    one_by_one, _ = findings_of(refuses_negatives, the_cases, batched=False)
    together, round_trips = findings_of(refuses_negatives, the_cases, batched=True)
    assert together == one_by_one == []
    assert round_trips == 4
