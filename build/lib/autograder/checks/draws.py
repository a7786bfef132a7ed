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

How a generator is seeded is the course's (its secret says, course/draw_keys.py). A key that
begins with WHOLE_STATE sets all 19,968 bits of the Mersenne Twister's state from the HMAC
(through SHAKE-256): a course made since 2026-12-04. Any other key seeds it with
`manual_seed`, of which torch's CPU generator keeps 32 bits, so one who knows a case's shapes
can search every seed for its numbers: a course made before keeps these draws, so that its
regrades draw what its first gradings did. torch sets a whole state only through
`Generator.set_state`, whose bytes are the layout of its C struct: `state_layout` checks it
once against a state it computes itself, and a course that needs it is refused when it
differs (`DrawError`), never drawn with fewer bits in silence.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
import struct
from typing import TYPE_CHECKING

from autograder.i18n import t
from autograder.plumbing.errors import KitError

if TYPE_CHECKING:  # imported where a generator is made: a course reads WHOLE_STATE without torch
    import torch

CASES, PROBES = "cases", "probes"  # the parts of a step's checks besides its properties
KERNEL = "\0kernel"  # the judging kernel's own random state (no step has this name)
WHOLE_STATE = b"draws:whole-state\0"  # a key so begun seeds the generator's whole state
MT_WORDS = 624  # the Mersenne Twister's state: 624 words of 32 bits
PROBE_SEED = 5489  # the state state_layout checks torch's bytes against (MT19937's default)


class DrawError(KitError):
    """The course's hidden cases cannot be drawn as its other gradings drew them here."""


class Draws:
    """The generators of one notebook's checks: `of(step, part)`."""

    def __init__(self, key: bytes | None = None):
        self.key = key
        if key is None or key.startswith(WHOLE_STATE):
            state_layout()  # DrawError now, before any step is judged, where it cannot be set

    @classmethod
    def seeded(cls, seed: int) -> Draws:
        return cls(b"seed:%d" % seed)

    def of(self, step: str, part: str) -> torch.Generator:
        """A new generator for `part` ("cases", "probes", or "property:NAME") of `step`."""
        import torch
        if self.key is None:
            return whole_state_generator(secrets.token_bytes(32))
        digest = hmac.new(self.key, f"{step}\0{part}".encode(), hashlib.sha256).digest()
        if self.key.startswith(WHOLE_STATE):
            return whole_state_generator(digest)
        return torch.Generator().manual_seed(int.from_bytes(digest[:8], "big") >> 1)

    def seed(self, step: str, part: str = "seed") -> int:
        """A number of 63 bits, drawn as `of(step, part)` draws."""
        import torch
        return int(torch.randint(2**62, (1,), generator=self.of(step, part)))

    def of_property(self, step: str, prop) -> torch.Generator:
        return self.of(step, "property:" + getattr(prop, "__name__", repr(prop)))


def whole_state_generator(material: bytes) -> torch.Generator:
    """A CPU generator whose every state word comes from `material` (SHAKE-256 of it)."""
    import numpy
    import torch
    template, offset = state_layout()
    words = hashlib.shake_256(material).digest(4 * MT_WORDS)
    # 624 words of 4 bytes -> of 8, as the struct keeps them (little-endian, zero above)
    widened = numpy.frombuffer(words, "<u4").astype("<u8").tobytes()
    state = template[:offset] + widened + template[offset + len(widened):]
    generator = torch.Generator()
    generator.set_state(torch.frombuffer(bytearray(state), dtype=torch.uint8))
    return generator


@functools.cache
def state_layout() -> tuple[bytes, int]:
    """(a freshly seeded generator's state bytes, where its 624 words begin in them), after
    checking that torch lays them out as the kit writes them; DrawError when it does not."""
    import torch
    template = bytes(torch.Generator().manual_seed(PROBE_SEED).get_state().tolist())
    offset = words_offset(template, PROBE_SEED)
    if offset is None or not set_state_is_read(template, offset):
        raise DrawError(t(
            "torch {version} keeps its random generator's state unlike the kit knows, and this "
            "course's hidden cases are drawn by setting that state: they cannot be drawn here "
            "as on the course's other gradings. Install the torch requirements.lock pins",
            version=torch.__version__))
    return template, offset


def words_offset(state: bytes, seed: int) -> int | None:
    """Where MT19937's state words for `seed` (each in 8 little-endian bytes) begin in
    `state`, or None when they are not there as one run."""
    words = [seed & 0xFFFFFFFF]
    for index in range(1, MT_WORDS):
        previous = words[-1]
        words.append((1812433253 * (previous ^ (previous >> 30)) + index) & 0xFFFFFFFF)
    found = state.find(b"".join(struct.pack("<Q", word) for word in words))
    return None if found < 0 else found


def set_state_is_read(template: bytes, offset: int) -> bool:
    """Do words written at `offset` come back from get_state, and change what is drawn?"""
    import torch
    changed = bytearray(template)  # word 1 (of word 0, MT19937 reads only the top bit)
    changed[offset + 8:offset + 16] = struct.pack("<Q", 12345)
    state = torch.frombuffer(changed, dtype=torch.uint8)
    generator = torch.Generator()
    generator.set_state(state)
    kept = torch.equal(generator.get_state(), state)
    drawn = torch.rand(4, generator=generator)
    return kept and not torch.equal(drawn, torch.rand(4, generator=torch.Generator()
                                                        .manual_seed(PROBE_SEED)))
