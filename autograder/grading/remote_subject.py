"""The subject protocol of the checks (autograder/checks/subject.py) over the sandbox: the
student's function lives in the kernel and every call is a request through the link."""

from __future__ import annotations

from contextlib import contextmanager

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
    def recording(self, apart, counted):
        """Record every call the grader makes in the kernel while the block runs (the
        earlier steps in `apart` are the stand-ins the link installed)."""
        with self._link.watching(counted) as records:
            self.records = records
            yield

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
