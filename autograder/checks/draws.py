"""What a step's hidden random inputs are drawn from: the same for every grading of one
student's notebook, other for each student.

A notebook's checks draw their random cases, each property's inputs and the probes' changes
from generators of one key (`Draws(key).of(step, part)`): grading gives each notebook the
key of its student and assignment (autograder/course/draw_keys.py), so a regrade draws what the
first grading drew, and a student, who has not the course's secret, cannot know the draw.
Each part of a step's checks has a generator of its own (HMAC of the key, the step and the
part), so a property added to a step, or a case more, changes nothing of the others.

`Draws()` draws afresh at each call (a master notebook run by itself, the checks' own tests);
`Draws.seeded(n)` draws what every run with n draws (the audit, the mutation harness).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

import torch

CASES, PROBES = "cases", "probes"  # the parts of a step's checks besides its properties
KERNEL = "\0kernel"  # the judging kernel's own random state (no step has this name)


class Draws:
    """The generators of one notebook's checks: `of(step, part)`."""

    def __init__(self, key: bytes | None = None):
        self.key = key

    @classmethod
    def seeded(cls, seed: int) -> Draws:
        return cls(b"seed:%d" % seed)

    def of(self, step: str, part: str) -> torch.Generator:
        """A new generator for `part` ("cases", "probes", or "property:NAME") of `step`."""
        if self.key is None:
            return torch.Generator().manual_seed(secrets.randbits(63))
        digest = hmac.new(self.key, f"{step}\0{part}".encode(), hashlib.sha256).digest()
        return torch.Generator().manual_seed(int.from_bytes(digest[:8], "big") >> 1)

    def seed(self, step: str, part: str = "seed") -> int:
        """A number of 63 bits, drawn as `of(step, part)` draws."""
        return int(torch.randint(2**62, (1,), generator=self.of(step, part)))

    def of_property(self, step: str, prop) -> torch.Generator:
        return self.of(step, "property:" + getattr(prop, "__name__", repr(prop)))
