"""Feedback pages (nbgrader generate_feedback, with the kit's HideHiddenTests stage) and the
CSV export (nbgrader export, with the kit's ClassCsvExport plugin)."""

from __future__ import annotations

from pathlib import Path

from autograder.course import run_nbgrader


def write_feedback(root: Path, ids, log=print):
    for assignment_id in ids:
        run_nbgrader(root, "generate_feedback", assignment_id, "--force")
        pages = list((root / "feedback").glob(f"*/{assignment_id}/*.html"))
        log(f"feedback {assignment_id}: {len(pages)} pages in feedback/")


def export_grades(root: Path, destination: Path, log=print):
    run_nbgrader(root, "export", f"--to={destination.resolve()}")
    log(f"grades: {destination}")
    return destination
