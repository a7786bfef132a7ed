"""generate_assignment stage: the gradebook keeps the checksums the students' notebooks carry;
and whether it still keeps those of the course's release (`changed_since_recorded`)."""

from __future__ import annotations

import copy
from pathlib import Path

import nbformat
from nbgrader.api import MissingEntry
from nbgrader.preprocessors import ClearHiddenTests, NbGraderPreprocessor
from nbgrader.utils import compute_checksum

from autograder.course.directory import open_gradebook


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


def changed_since_recorded(root: Path, assignment_id: str) -> list[str]:
    """The grade ids of the cells of release/<id>/<id>.ipynb whose checksum is not the one the
    gradebook recorded as it registered the assignment (a cell added or gone counts): `build`
    rewrote the release since (a step's points or text changed), and nbgrader would refuse
    every notebook of it ("Inconsistent checksums"). [] when they agree, or when the
    gradebook does not know the assignment (grade registers it) or there is no release."""
    path = root / "release" / assignment_id / f"{assignment_id}.ipynb"
    if not path.is_file():
        return []
    released = {cell.metadata.nbgrader["grade_id"]: cell.metadata.nbgrader.get("checksum")
                for cell in nbformat.read(path, as_version=4).cells
                if isinstance(cell.metadata.get("nbgrader"), dict)
                and "grade_id" in cell.metadata.nbgrader}
    with open_gradebook(root) as gradebook:
        try:
            notebook = gradebook.find_notebook(assignment_id, assignment_id)
        except MissingEntry:
            return []
        recorded = {cell.name: cell.checksum for cell in notebook.source_cells}
    if not recorded:
        return []
    return sorted(name for name in released.keys() | recorded.keys()
                  if released.get(name) != recorded.get(name))
