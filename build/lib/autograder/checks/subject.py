"""What a check may ask of the code it judges: the subject protocol, and its local side.

A step's cases, properties and rules see the student's function (or class) only through
these three things:

- `subject(*args, **kwargs)`: call it;
- `subject.seeded(seed, *args, burn=0, **kwargs)`: call it under torch.manual_seed(seed),
  after `burn` other random draws, leaving the caller's random state as it was;
- `subject.source`: its code, as the student wrote it, with every helper it uses (None when
  the grader cannot find it); rules on the code (a loop, a name) are decided on it;
- `subject.recording(apart, counted, measure=None)`: a block during which every call of the
  subject is recorded (autograder/checks/recorder.py), the earlier steps named in `apart` left out,
  the entries of those in `counted` counted and, on the calls whose positional arguments
  pass the test `measure` (Step.measured), the memory Python's objects take measured (here,
  on every call: only those calls' figures are read); `subject.records` holds the records,
  one per
  call. Rules on operations (checks/operation_rules.py) are decided on them;
- `subject.perturbed(spec)`: a block during which what an earlier step or some operations
  give is changed, for a probe of whether the subject uses it (checks/probes.py).

A subject in a kernel also offers `call_each(calls)`, several calls in one round trip, which
the judge uses for a step's cases (autograder/checks/batched.py); the checks never see it.

`LocalSubject` implements it in this process (the checks' own tests, a master notebook run by
itself, the known mistakes); grading implements it over the sandbox
(`autograder/grading/remote_subject.py`). The checks never know which one they hold.
"""

from __future__ import annotations

import inspect
import textwrap
from contextlib import contextmanager
from typing import Any, Protocol

import torch

from autograder.checks.common import seeded_as
from autograder.checks.recorder import Recorder, codes_of, namespace_of, perturbing_here, watched


class Subject(Protocol):
    source: str | None
    records: list

    def recording(self, apart, counted): ...

    def __call__(self, *args, **kwargs) -> Any: ...

    def seeded(self, seed: int, *args, burn: int = 0, **kwargs) -> Any: ...


class LocalSubject:
    """A function or class of this process, seen through the subject protocol. Attributes
    (a class's `from_torch` ...) are the wrapped object's own. `source` None reads the
    target's own code; "" says there is none to read. The names a recording watches are
    looked up in the target's module (a notebook's: its namespace)."""

    def __init__(self, target, source=None):
        self._target = target
        self._source = source
        self.records = []

    @contextmanager
    def recording(self, apart, counted, measure=None):
        """Record the target's calls (its methods', for a class) while the block runs; the
        records of an earlier block are dropped."""
        recorder = Recorder(codes_of(self._target),
                            *watched(namespace_of(self._target), apart, counted),
                            measure=measure is not None)
        self.records = recorder.records  # this block's calls alone
        with recorder:
            yield

    @contextmanager
    def perturbed(self, spec):
        """A probe's change (checks/probes.py) while the block runs: an earlier step's answers
        (`spec["stand_in"]`, every name of the target's namespace bound to it), or what some
        torch operations give (recorder.Perturbing); the dict yielded gets `seen`, how many
        calls or operations the spec named."""
        with perturbing_here(spec, self._target) as done:
            yield done

    def __call__(self, *args, **kwargs):
        return self._target(*args, **kwargs)

    def seeded(self, seed, *args, burn=0, **kwargs):
        with seeded_as(seed):  # as the kernel's agent seeds it (sandbox/agent.py)
            if burn:
                torch.rand(burn)  # what something else drew before
            return self._target(*args, **kwargs)

    @property
    def source(self):
        if self._source is None:
            try:
                self._source = textwrap.dedent(inspect.getsource(self._target))
            except (OSError, TypeError):
                return None
        return self._source or None

    def __getattr__(self, name):
        return getattr(self._target, name)


def as_subject(target):
    """A subject for `target`: itself when it already speaks the protocol."""
    return target if hasattr(target, "seeded") else LocalSubject(target)
