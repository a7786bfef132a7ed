"""The time a graded notebook's cells get: one home for the defaults that grading's settings
take (GradeInSandbox) and that the students' self-check tells them (build/check_notebook.py,
whose copy the build fills with the course's limit)."""

from __future__ import annotations

CELL_SECONDS = 10.0  # one cell, or one step's checks
NOTEBOOK_SECONDS = 60.0  # the student's cells in all


def cell_seconds(config) -> float:
    """The course's c.GradeInSandbox.cell_timeout (nbgrader_config.py), else the default."""
    return float(config["GradeInSandbox"].get("cell_timeout", CELL_SECONDS))
