"""Cells with nbgrader metadata, for the kernel-free tests of the nbgrader stages."""

from __future__ import annotations

from nbformat.v4 import new_code_cell, new_markdown_cell


def nbgrader_cell(source, grade_id, cell_type="code", **flags):
    """A cell with nbgrader metadata; flags are grade, solution, locked, task, points."""
    cell = new_code_cell(source) if cell_type == "code" else new_markdown_cell(source)
    cell.metadata.nbgrader = {
        "grade": False, "solution": False, "locked": False, "task": False,
        "grade_id": grade_id, "schema_version": 3, **flags}
    return cell
