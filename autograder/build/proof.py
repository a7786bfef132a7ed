"""What the build proves before it writes an assignment (as otter's assign runs the tests
against the solution before it succeeds: a public test nothing has run is a guess):

1. every test cell names a step the assignment's checks declare (render refuses one that
   does not, naming notebook.py's line);
2. every step's hidden checks pass the reference and draw fresh inputs (checks/audit.py);
3. the reference passes the public tests: the student version with the reference's code in
   its solution cells runs in a fresh kernel, as the students' check_notebook.py runs it,
   without an error in any cell.

A failure is a ProofError of one line per problem, each naming the file, its line and the fix.
"""

from __future__ import annotations

import copy
import re
import shutil
import tempfile
from pathlib import Path

import nbformat

from autograder.build.check_notebook import error_of, run
from autograder.checks.audit import step_problems
from autograder.errors import KitError
from autograder.i18n import t

CELL_SECONDS = 120  # one cell of the reference's run; an endless loop is an error too
SOLUTION_FENCE = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n", re.MULTILINE)


class ProofError(KitError, ValueError):
    """An assignment the build will not write: its checks or its public tests are unfit."""


def solution_cells(master):
    """{grade_id: the solution cell's code as a student who solved it writes it}."""
    return {cell.metadata["nbgrader"]["grade_id"]: SOLUTION_FENCE.sub("", cell.source)
            for cell in master.cells if cell.metadata.get("nbgrader", {}).get("solution")}


def solved(release, master):
    """The student notebook with each solution cell holding the reference's code."""
    answers = solution_cells(master)
    notebook = copy.deepcopy(release)
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.metadata.get("nbgrader", {}).get("solution") and grade_id in answers:
            cell.source = answers[grade_id]
    return notebook


def public_test_failures(assignment, specs, master, release_folder: Path):
    """One line per cell of the solved student notebook that fails in a fresh kernel."""
    path = release_folder / f"{assignment.id}.ipynb"
    notebook = solved(nbformat.read(path, as_version=4), master)
    with tempfile.TemporaryDirectory(prefix="kit-proof-") as scratch:
        folder = Path(scratch) / assignment.id
        shutil.copytree(release_folder, folder)
        stopped = run(notebook, folder, CELL_SECONDS, quiet=True)
    lines = [spec.line for spec in specs]  # the release keeps the authoring file's cells
    failures = []
    for index, cell in enumerate(notebook.cells):
        error = error_of(cell) if cell.cell_type == "code" else None
        if error:
            line = lines[index] if index < len(lines) else 1
            failures.append(t("{notebook}:{line}: with the reference's code, this cell fails "
                              "in a fresh kernel: {error}; fix the test or the reference",
                              notebook=assignment.notebook, line=line, error=error))
    if stopped and not failures:
        failures.append(t("{notebook}: with the reference's code, the notebook {stopped}",
                          notebook=assignment.notebook, stopped=stopped))
    return failures


def prove(assignment, specs, master, release_folder: Path):
    """Raise ProofError unless the assignment's checks and public tests hold (see above)."""
    problems = step_problems(assignment)
    if not problems:
        problems = public_test_failures(assignment, specs, master, release_folder)
    if problems:
        raise ProofError(t("{id} is not built:", id=assignment.id) + "\n" + "\n".join(
            f"  {problem}" for problem in problems))
