"""What a step's hidden check is made of, and what it finds.

A step (one function or class students write) is checked by
- cases: each runs the subject on fixed inputs; the expected output is either a document's
  printed tensor or what the reference package returns on the same inputs;
- properties: statements that must hold for any correct subject (rows sum to 1 ...);
- rules: what the notebook forbids for this step (no torch.softmax in stable_softmax ...);
- mistakes: wrong implementations students often write. When a case fails, each mistake is
  run on the same inputs; of those that produce the student's output, the one that does so
  on the most cases names the error.

A check's verdict is a list of Findings: data that grading stores in the autograded notebook
and the report reads back, never a message parsed again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: loading an assignment's folder needs no torch
    import torch


@dataclass(frozen=True)
class Case:
    """One run of the subject: `run(subject)` returns the output to compare.

    `expected` is a document's printed value; None means "what the reference returns".
    """

    label: str
    run: Callable[[Any], Any]
    expected: Any = None


@dataclass(frozen=True)
class Mistake:
    """A wrong implementation, written as a student would write it (`code` defines the step's
    name). Recognised when it gives the student's output on a failing case. `step` is filled
    in by the Step that lists it."""

    name: str
    hint: str
    code: str
    step: str = field(default="", compare=False)


@dataclass(frozen=True)
class Rule:
    """What the notebook forbids for a step; `violation(subject)` says how it is broken, or None.
    `public` is (kind, params, why) for checks/code_rules.py or checks/operation_rules.py:
    the build turns it into the step's public rule check, which decides alike in plain
    Jupyter. `recorded`: the rule is decided on the records of the subject's calls
    (autograder/checks/op_record.py), which are then made; `counted`: the functions whose entries it
    counts there; `probe`: how the judge finds whether what the rule names is used
    (checks/probes.py), or None; `measures`: which calls' records hold the most memory
    Python's objects and numpy's arrays took at once (`python_peak`), a test of a call's
    positional arguments (measuring slows every allocation: only the calls the rule judges
    on are measured in grading), or None; `reads_text`: the rule is decided on the step's
    text (checks/code_rules.py), so the step is judged where no other step's text ran."""

    name: str
    violation: Callable[[Any], str | None]
    public: tuple = ()
    recorded: bool = False
    counted: tuple[str, ...] = ()
    probe: dict | None = None
    measures: Callable[[tuple], bool] | None = None
    reads_text: bool = False


@dataclass(frozen=True)
class Step:
    """Everything the hidden test of one step checks.

    Its cases: `document_cases()`, the documents' own inputs and values; `fixed_cases()`,
    inputs chosen on purpose, the same for every student (a numerically fragile formula is
    decided there, never by the draw); `random_cases(gen)`, drawn for each student from the
    notebook's draws (checks/draws.py), the same on every regrade.

    `uses` names earlier steps of the same notebook that the subject calls; while the step is
    checked they are replaced by the reference, so one wrong step costs only its own points.
    """

    name: str
    reference: Any
    document_cases: Callable[[], list[Case]] = list
    fixed_cases: Callable[[], list[Case]] = list
    random_cases: Callable[[torch.Generator], list[Case]] = lambda gen: []
    properties: tuple[Callable[[Any, torch.Generator], None], ...] = ()
    rules: tuple[Rule, ...] = ()
    mistakes: tuple[Mistake, ...] = ()
    uses: tuple[str, ...] = ()
    notes: dict = field(default_factory=dict)

    def __post_init__(self):
        bound = tuple(replace(m, step=self.name) for m in self.mistakes)
        object.__setattr__(self, "mistakes", bound)

    @property
    def recorded(self):
        """Whether a rule of the step is decided on the records of its calls."""
        return any(rule.recorded for rule in self.rules)

    @property
    def measured(self):
        """Which of the step's calls a rule asks how much memory Python's objects take in: a
        test of a call's positional arguments, or None where no rule asks it."""
        tests = [rule.measures for rule in self.rules if rule.measures]
        return (lambda arguments: any(test(arguments) for test in tests)) if tests else None

    @property
    def counted(self):
        """The functions whose entries the step's rules count, sorted."""
        return sorted({name for rule in self.rules for name in rule.counted})


@dataclass(frozen=True)
class Similar:
    """When the similarity report flags a pair of an assignment's notebooks: one of them has
    `share` or more of its own code in common with the other, and the two share `characters`
    or more characters of it (filtered code: names one letter, comments gone). An assignment
    declares its own in checks.py (SIMILARITY = Similar(...)), measured by
    bench/similarity_calibration.py: short code that every student writes alike needs the
    characters as well as the share to tell a copy from two students who wrote it alone.
    Code too short for any share and count to tell is `Similar(tells=False)`: no pair is
    flagged, and the report says why and lists the most alike pairs to read."""

    share: float = 0.5
    characters: int = 0
    tells: bool = True

    def __post_init__(self):
        if not self.is_share(self.share):
            raise ValueError(f"share={self.share!r}: give a share above 0 and at most 1, "
                             "such as 0.5")
        if not self.is_characters(self.characters):
            raise ValueError(f"characters={self.characters!r}: give a number of characters, "
                             "0 or more")

    @staticmethod
    def is_share(value):
        return isinstance(value, int | float) and 0 < value <= 1

    @staticmethod
    def is_characters(value):
        return isinstance(value, int) and value >= 0

    def flags(self, share, characters):
        """Does a pair with this score and these matched characters reach the flag?"""
        return self.tells and share >= self.share and characters >= self.characters


# What a finding is about: a case's output, a property, a rule the notebook states, an error
# (the stub, an exception, a crash, a missing definition), or the course (a test cell whose
# step has no hidden checks: no student can pass it until the instructor adds them).
KINDS = ("value", "property", "rule", "error", "course")


@dataclass(frozen=True)
class Finding:
    """One thing wrong with a step. `text` is for the student and never holds an expected
    value; `mistake` and `hint` name a catalogued mistake the output matched."""

    kind: str
    step: str
    text: str
    mistake: str | None = None
    hint: str | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"a finding's kind is one of {KINDS}, not {self.kind!r}")

    def to_data(self):
        return {k: v for k, v in asdict(self).items() if v is not None}

    @classmethod
    def from_data(cls, data):
        return cls(**{k: data[k] for k in ("kind", "step", "text", "mistake", "hint")
                      if k in data})
