"""generate_assignment stage: the gradebook keeps the checksums the students' notebooks carry."""

from __future__ import annotations

import copy

from nbgrader.preprocessors import ClearHiddenTests, NbGraderPreprocessor
from nbgrader.utils import compute_checksum


class ReleaseChecksums(NbGraderPreprocessor):
    """Placed just before nbgrader's SaveCells: each nbgrader cell's checksum becomes the
    checksum of that cell as released, hidden tests removed.

    nbgrader's own order stores the checksum of the master cell (hidden tests included) in
    the gradebook while the release carries the checksum of the cleared cell, so autograde
    warns "Attribute 'checksum' ... has changed" for every test cell with a hidden part of
    every student, though nobody changed anything. With this stage both are the release's:
    a warning means a student did edit a locked cell. The gradebook still stores the master's
    source (the hidden part is what grading reads, autograder/grading/grade_in_sandbox.py)."""

    def preprocess_cell(self, cell, resources, index):
        meta = cell.metadata.get("nbgrader")
        if isinstance(meta, dict) and "checksum" in meta:
            released = copy.deepcopy(cell)
            ClearHiddenTests(config=self.config).preprocess_cell(released, resources, index)
            meta["checksum"] = compute_checksum(released)
        return cell, resources
