"""Simulated students: notebooks as a class would hand them in, made from the release.

Each kind of student starts from the student notebook (release/) and fills it in: with the
reference solutions, partly, with one catalogued mistake, or with the failures a real class
produces (a crash, an endless loop, a syntax error).
"""

from __future__ import annotations

import copy

import nbformat

from autograder.build.proof import solution_cells, solved
from autograder.checks.loader import load_assignment


def fill(release, answers):
    """The release notebook with the given solution cells replaced."""
    notebook = copy.deepcopy(release)
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.metadata.get("nbgrader", {}).get("solution") and grade_id in answers:
            cell.source = answers[grade_id]
    return notebook


def after_cell(notebook, grade_id, code):
    """The notebook with a new cell of `code` right after the cell `grade_id`."""
    notebook = copy.deepcopy(notebook)
    index = next(i for i, c in enumerate(notebook.cells)
                 if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)
    cell = nbformat.v4.new_code_cell(code)
    if notebook.nbformat_minor < 5:  # cell ids exist from nbformat 4.5 on
        cell.pop("id", None)
    notebook.cells.insert(index + 1, cell)
    return notebook


def correct(release, source):
    return solved(release, source)


def partly_done(release, source, fraction=0.5):
    answers = solution_cells(source)
    kept = list(answers)[: max(1, int(len(answers) * fraction))]
    return fill(release, {k: answers[k] for k in kept})


def with_mistake(release, source, mistake):
    return after_cell(correct(release, source), mistake.step, mistake.code)


def crashing(release, source):
    """Solved, but the kernel dies half way (os._exit in a cell)."""
    steps = list(solution_cells(source))
    return after_cell(correct(release, source), steps[len(steps) // 2],
                      "import os\nos._exit(1)")


def looping_forever(release, source):
    """Solved, but one step's function never returns."""
    answers = solution_cells(source)
    last = list(answers)[-1]
    name = last.split()[0]
    loop = f"\n\ndef {name}(*args, **kwargs):\n    while True:\n        pass\n"
    return after_cell(correct(release, source), last, loop)


def syntax_error(release, source):
    """Solved except one cell, which does not parse."""
    answers = solution_cells(source)
    first = list(answers)[0]
    answers[first] = answers[first].replace("):", ")", 1)
    return fill(release, answers)


def mistakes_of(root, assignment_id):
    """The catalogued mistakes of a course's assignment, in the order of its steps."""
    steps = load_assignment(root, assignment_id).steps.values()
    return [m for step in steps for m in step.mistakes]
