"""The subject protocol of the checks (autograder/checks/subject.py) over the sandbox: the
student's function lives in the kernel and every call is a request through the link."""

from __future__ import annotations

from contextlib import contextmanager

import torch

from autograder.checks.op_record import perturbed_output
from autograder.sandbox.link import Remote


class RemoteSubject:
    """The student's `name` in the kernel, with the code it runs as the grader read it from
    the notebook (autograder/checks/code_rules.closure)."""

    def __init__(self, link, name, source=None):
        self._remote = Remote(link, {"global": name})
        self._link = link
        self.source = source
        self.records = []

    @contextmanager
    def recording(self, apart, counted, measure=None):
        """Record every call the grader makes in the kernel while the block runs (the
        earlier steps in `apart` are the stand-ins the link installed), measuring the memory
        Python's objects take in the calls whose positional arguments pass `measure`."""
        with self._link.watching(counted, measure) as records:
            self.records = records
            yield

    @contextmanager
    def perturbed(self, spec):
        """A probe's change (checks/probes.py) while the block runs: the grader's answers of a
        stand-in (`spec["stand_in"]`), or, through the judging kernel's guard, what some
        torch operations give; the dict yielded gets `seen`, how many calls or operations
        the spec named. The guard's change is made, and undone, in the round trip of the
        next request (the rerun's call; the one after it): a rerun is one round trip."""
        link, done = self._link, {}
        if "stand_in" in spec:
            generator = torch.Generator().manual_seed(int(spec["seed"]))
            large, zero = spec.get("large", False), spec.get("zero", False)
            link.perturbing = [spec["stand_in"], spec["which"],
                               lambda value: perturbed_output(value, generator, large, zero), 0]
            try:
                yield done
            finally:
                done["seen"], link.perturbing = link.perturbing[3], None
            return
        change = link.configure_later(perturb=spec)
        try:
            yield done
        finally:
            state = link.last_state or {}
            done["seen"] = state.get("seen", 0) if state.get("perturb") == spec else 0
            if not link.withdraw(change):  # made: undone with the next request
                link.configure_later(perturb=None)

    def __call__(self, *args, **kwargs):
        return self._remote(*args, **kwargs)

    def seeded(self, seed, *args, burn=0, **kwargs):
        return self._remote.seeded(seed, *args, burn=burn, **kwargs)

    def call_each(self, calls):
        """Several calls in one round trip (autograder/checks/judge.py): for each
        (args, kwargs, seed, burn), its value or the StudentError it raised."""
        return self._remote.call_each(calls)

    def __getattr__(self, name):
        return getattr(self._remote, name)
