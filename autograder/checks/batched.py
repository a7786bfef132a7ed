"""A step's cases, their calls of the student's code made in one round trip where they can be.

Most cases run the subject once on arguments chosen before the call and return its output as
it is (the run `calling` makes). Against a subject in a kernel each call is a round trip to
it; a subject that offers `call_each` (autograder/grading/remote_subject.py) takes several
calls in one. Here each case's run is first tried on a recorder, which answers nothing: a run
that makes one call and returns what it got is such a case, its call noted. Consecutive
such cases are called together when the judge reaches the first of them, in their order, so
the student's code sees the same calls in the same order as case after case would make them;
every other case runs as usual, in its turn. A case's answer is its call's value, or the
error the call raised, raised again where the case's run would have raised it.
"""

from __future__ import annotations


class NotRecordable(Exception):
    """A case's run asked something of the recorder it cannot answer."""


class Recorder:
    """A subject that notes the one call a case's run makes and answers a placeholder."""

    def __init__(self, source):
        self.source = source
        self.call = None  # (args, kwargs, seed, burn); seed None: not seeded
        self.placeholder = object()

    def note(self, call):
        if self.call is not None:
            raise NotRecordable("a second call")
        self.call = call
        return self.placeholder

    def __call__(self, *args, **kwargs):
        return self.note((args, kwargs, None, 0))

    def seeded(self, seed, *args, burn=0, **kwargs):
        return self.note((args, kwargs, seed, burn))

    def __getattr__(self, name):
        raise NotRecordable(name)


def recorded_call(case, source):
    """The one call `case`'s run makes, when it returns that call's output as it is; else
    None (the case runs as usual)."""
    recorder = Recorder(source)
    try:
        got = case.run(recorder)
    except Exception:  # noqa: BLE001 - a run that needs the real output runs as usual
        return None
    return recorder.call if recorder.call is not None and got is recorder.placeholder else None


class BatchedCases:
    """`run(index)`: what case `index`'s run gives on `subject` (a judge.Watched), its call
    made together with the calls of the batchable cases that follow it."""

    def __init__(self, subject, cases):
        self.subject, self.cases = subject, cases
        inner = subject.subject
        able = callable(getattr(type(inner), "call_each", None))
        self.calls = [recorded_call(case, subject.source) if able else None for case in cases]
        self.answers = {}  # index -> the value, or the StudentError, of its call

    def run(self, index):
        if index not in self.answers and self.calls[index] is not None:
            self.call_group(index)
        if index not in self.answers:
            return self.cases[index].run(self.subject)
        args, kwargs, _, _ = self.calls[index]
        self.subject.remember(args, kwargs)  # an error names the arguments of this call
        answer = self.answers.pop(index)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def call_group(self, first):
        """Call case `first` and the batchable cases right after it, in one round trip (a
        lone case is called as usual)."""
        end = first
        while end < len(self.calls) and self.calls[end] is not None:
            end += 1
        if end - first < 2:
            return
        try:
            answers = self.subject.subject.call_each(self.calls[first:end])
        except Exception as error:  # noqa: BLE001 - the batch's error is each call's
            answers = [error] * (end - first)
        self.answers.update(zip(range(first, end), answers, strict=False))
