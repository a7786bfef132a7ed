"""A step's cases, their calls of the student's code made in one round trip where they can be.

Most cases are `calling`'s (autograder/checks/common.py): their run calls the subject once,
on copies of arguments fixed beforehand, and returns its output as it is. Against a subject in
a kernel each call is a round trip to it; a subject that offers `call_each`
(autograder/grading/remote_subject.py) takes several calls in one. Here consecutive cases of
`calling` are called together when the judge reaches the first of them, in their order, so
the student's code sees the same calls in the same order as case after case would make them;
every other case runs as usual, in its turn. A case's answer is its call's value, or the error
the call raised, raised where its run would have raised it (the run does nothing else).
"""

from __future__ import annotations


class BatchedCases:
    """`run(index)`: what case `index`'s run gives on `subject` (a judge.Watched), its call
    made together with the calls of the cases of `calling` that follow it."""

    def __init__(self, subject, cases):
        self.subject, self.cases = subject, cases
        able = callable(getattr(type(subject.subject), "call_each", None))
        self.batchable = [able and hasattr(case.run, "arguments") for case in cases]
        self.answers = {}  # index -> (args, kwargs, the value or the StudentError of its call)

    def run(self, index):
        if index not in self.answers and self.batchable[index]:
            self.call_group(index)
        if index not in self.answers:
            return self.cases[index].run(self.subject)
        args, kwargs, answer = self.answers.pop(index)
        self.subject.remember(args, kwargs)  # an error names the arguments of this call
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def call_group(self, first):
        """Call case `first` and the cases of `calling` right after it, in one round trip (a
        lone case is called as usual), each on the fresh copies its `arguments()` makes."""
        end = first
        while end < len(self.cases) and self.batchable[end]:
            end += 1
        if end - first < 2:
            return
        calls = [(*self.cases[index].run.arguments(), None, 0) for index in range(first, end)]
        try:
            answers = self.subject.subject.call_each(calls)  # (args, kwargs, seed, burn) each
        except Exception as error:  # noqa: BLE001 - the batch's error is each call's
            answers = [error] * len(calls)
        for index, (args, kwargs, _, _), answer in zip(range(first, end), calls, answers,
                                                        strict=False):
            self.answers[index] = (args, kwargs, answer)
