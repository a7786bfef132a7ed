"""Find the submissions of a course and refuse bad ones with a one-line reason and fix."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

from autograder.course import Problem

STUDENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


@dataclass(frozen=True)
class Submission:
    student: str
    assignment: str
    notebook: Path


def grade_ids(notebook):
    return [
        cell.metadata["nbgrader"]["grade_id"]
        for cell in notebook.cells
        if cell.metadata.get("nbgrader", {}).get("grade")
    ]


def inspect_submission(path, assignment_id, expected_tests):
    """None when the notebook can be graded, else the Problem."""
    if not path.exists():
        found = sorted(p.name for p in path.parent.glob("*.ipynb"))
        fix = (f"rename {found[0]} to {path.name}" if found
               else f"put the student's notebook there as {path.name}")
        return Problem(path, "no notebook of that name", fix)
    try:
        notebook = nbformat.read(path, as_version=4)
    except (json.JSONDecodeError, UnicodeDecodeError, nbformat.reader.NotJSONError) as error:
        return Problem(path, f"not a Jupyter notebook ({type(error).__name__})",
                       "ask the student to resubmit the .ipynb file saved by Jupyter")
    except Exception as error:  # noqa: BLE001 - nbformat raises many kinds of errors
        return Problem(path, f"not a valid notebook ({error})",
                       "ask the student to resubmit the .ipynb file saved by Jupyter")
    present = grade_ids(notebook)
    missing = [t for t in expected_tests if t not in present]
    doubled = sorted({t for t in present if present.count(t) > 1})
    unknown = [t for t in present if t not in expected_tests]
    if missing or doubled or unknown:
        parts = ([f"test cells deleted or renamed: {', '.join(missing)}"] if missing else []) + \
                ([f"test cells duplicated: {', '.join(doubled)}"] if doubled else []) + \
                ([f"unknown test cells: {', '.join(unknown)}"] if unknown else [])
        return Problem(path, "; ".join(parts),
                       "graded anyway (nbgrader restores test cells by id); if points are "
                       "missing, ask for the code in a fresh copy of the release notebook",
                       graded_anyway=True)
    return None


def find_submissions(root: Path, assignment_ids, expected_tests):
    """(submissions ready to grade, problems), over submitted/<student>/<assignment>/."""
    ready, problems = [], []
    submitted = root / "submitted"
    students = sorted(p for p in submitted.iterdir() if p.is_dir()) if submitted.exists() else []
    for folder in students:
        if not STUDENT_ID.match(folder.name):
            problems.append(Problem(folder, "the folder name is not a valid student id",
                                    "use letters, digits, '.', '_' or '-' only"))
            continue
        for assignment_id in assignment_ids:
            if not (folder / assignment_id).is_dir():
                continue
            path = folder / assignment_id / f"{assignment_id}.ipynb"
            problem = inspect_submission(path, assignment_id, expected_tests[assignment_id])
            if problem:
                problems.append(problem)
            if problem is None or problem.graded_anyway:
                ready.append(Submission(folder.name, assignment_id, path))
    return ready, problems
