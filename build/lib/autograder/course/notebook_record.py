"""What grading records in an autograded notebook, and how the outputs read it back.

The grader writes `notebook.metadata["kit"]`; feedback, export and the report read it as data
(never the text of a cell's output). Whatever a student put under that key is replaced when
grading starts, so only the grader's record is there afterwards. The schema:

    {"schema": 1,
     "tampering": ["points of 'test_x' changed: restored", ...],      # RestoreTestCells
     "findings": [{"cell": grade id, "kind": "value" | "property" | "rule" | "error" | "course",
                   "step": name, "text": "...", "mistake": name?, "hint": "..."?}, ...],
     "integrity": [{"cell": where, "kind": "suspicious code", "reason": "..."}, ...]}
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autograder.checks.model import Finding

KEY = "kit"
SCHEMA = 1


def start_record(notebook, tampering):
    """A fresh record for a notebook about to be graded (the first stage calls it)."""
    notebook.metadata[KEY] = {"schema": SCHEMA, "tampering": list(tampering),
                              "findings": [], "integrity": []}


def has_record(notebook):
    data = notebook.metadata.get(KEY)
    return isinstance(data, dict) and data.get("schema") == SCHEMA


def add_findings(notebook, cell_id, findings):
    record = notebook.metadata[KEY]
    record["findings"] += [{"cell": cell_id, **f.to_data()} for f in findings]


def set_integrity(notebook, flags):
    notebook.metadata[KEY]["integrity"] = list(flags)


@dataclass
class Record:
    findings: list[Finding] = field(default_factory=list)
    integrity: list[dict] = field(default_factory=list)
    tampering: list[str] = field(default_factory=list)

    @property
    def mistakes(self):
        """The names of the known mistakes the checks recognised, each once, in order."""
        return list(dict.fromkeys(f.mistake for f in self.findings if f.mistake))

    @property
    def unchecked(self):
        """(cell, text) of each test cell the course has no hidden checks for."""
        return list(dict.fromkeys((f"test_{f.step}", f.text) for f in self.findings
                                  if f.kind == "course"))

    @property
    def flags(self):
        """What an instructor should look at: suspicious code, rules the checks found broken
        (forbidden shortcuts), and graded cells the student changed."""
        rules = [{"cell": f"test_{f.step}", "kind": "forbidden shortcut", "reason": f.text}
                 for f in self.findings if f.kind == "rule"]
        tampered = [{"cell": "", "kind": "tampered cells", "reason": change}
                    for change in self.tampering]
        return [*self.integrity, *rules, *tampered]


def read_record(notebook):
    """The grader's record of an autograded notebook (empty when it has none)."""
    if not has_record(notebook):
        return Record()
    data = notebook.metadata[KEY]
    return Record(findings=[Finding.from_data(f) for f in data.get("findings", [])],
                  integrity=list(data.get("integrity", [])),
                  tampering=list(data.get("tampering", [])))
