"""Simulated students: notebooks as a class would hand them in, made from the release.

Each kind of student starts from the student notebook (release/) and fills it in: with the
reference solutions, partly, with one catalogued mistake, or with the failures a real class
produces (a crash, an endless loop, a syntax error).
"""

from __future__ import annotations

import ast
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


# Similarity (outputs/similarity.py): a correct solution written independently of solutions/,
# and a copy of a notebook disguised as a copier disguises one.
INDEPENDENT = {"01_attention_by_hand": {
    "project_qkv": '''def project_qkv(x, W_query, W_key, W_value):
    # the same input projected three times, contracting its last axis with each matrix
    return tuple(torch.einsum("...i,io->...o", x, matrix)
                 for matrix in (W_query, W_key, W_value))
''',
    "attention_scores": '''def attention_scores(queries, keys):
    # dot products of every query with every key: swap the last two axes of the keys
    return torch.matmul(queries, torch.swapaxes(keys, -1, -2))
''',
    "stable_softmax": '''def stable_softmax(scores, dim=-1):
    top = torch.nan_to_num(scores.max(dim=dim, keepdim=True).values, nan=0.0, posinf=0.0,
                           neginf=0.0)
    numerators = (scores - top).exp()
    return numerators.div(numerators.sum(dim, keepdim=True))
''',
    "weighted_values": '''def weighted_values(weights, values):
    # key k, query q, feature f: weight of k for q times value k
    return torch.einsum("qk,kf->kqf", weights, values)
''',
    "context_vectors": '''def context_vectors(weights, values):
    weighted = weights.unsqueeze(-1) * values
    return weighted.sum(dim=-2)
''',
}}


def independent(release, source, assignment_id):
    """Correct, but written apart from the course's reference (INDEPENDENT)."""
    return fill(correct(release, source), INDEPENDENT[assignment_id])


def disguised(notebook):
    """A copy of `notebook` as a copier hides it: every local variable of its functions
    renamed, the functions of its solution cells in reverse order in the first one, comments
    replaced and blank lines added."""
    answers = [c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("solution")]
    definitions = [d for c in answers for d in ast.parse(c.source).body]
    names = {n.id for d in definitions for n in ast.walk(d)
             if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)} - {
        a.arg for d in definitions for a in ast.walk(d) if isinstance(a, ast.arg)}
    for d in definitions:
        for n in ast.walk(d):
            if isinstance(n, ast.Name) and n.id in names:
                n.id = f"my_{n.id}"
    code = "\n\n\n".join(f"# {getattr(d, 'name', 'this')}, as I wrote it\n\n{ast.unparse(d)}"
                         for d in reversed(definitions))
    moved = {c.metadata["nbgrader"]["grade_id"]: "# (written in the first answer cell)"
             for c in answers[1:]}
    return fill(notebook, {answers[0].metadata["nbgrader"]["grade_id"]: code, **moved})
