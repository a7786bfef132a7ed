"""The subject protocol of the checks (autograder/checks/subject.py) over the sandbox: the
student's function lives in the kernel and every call is a request through the link."""

from __future__ import annotations

from contextlib import contextmanager

from autograder.checks.subject import dotted
from autograder.sandbox.link import Remote


class RemoteSubject:
    """The student's `name` in the kernel, with the source of its latest definition."""

    def __init__(self, link, name, source=None):
        self._remote = Remote(link, {"global": name})
        self._link = link
        self.source = source

    def __call__(self, *args, **kwargs):
        return self._remote(*args, **kwargs)

    def seeded(self, seed, *args, burn=0, **kwargs):
        return self._remote.seeded(seed, *args, burn=burn, **kwargs)

    @contextmanager
    def counting(self, entry_points):
        """The agent counts the calls of these torch entry points during every request made
        while the block runs, and each reply carries them."""
        calls = []
        self._link.watch = ([dotted(owner, attribute) for owner, attribute in entry_points],
                            calls)
        try:
            yield calls
        finally:
            self._link.watch = None

    def __getattr__(self, name):
        return getattr(self._remote, name)
