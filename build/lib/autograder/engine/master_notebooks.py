"""An assignment's master notebooks as a grading worker's gradebook holds them, read once.

A grading worker grades every notebook of an assignment against its own copy of one
gradebook (autograder/engine/worker.py), put back as it was before each notebook; yet each
notebook's stages asked it the same questions again: nbgrader's OverwriteCells one query a
cell (28 for assignment 01), OverwriteKernelspec, the kit's WorkerAutograde and master_cells
an open of the gradebook each (a dozen statements with the schema's checks), together about
a sixth of a worker's own CPU.

Here a worker reads its copy once (`remember`, when it makes the copy) into a `Snapshot` of
plain rows, and those stages ask the snapshot: `OverwriteCells` and `OverwriteKernelspec` are
nbgrader's, given the snapshot in place of the gradebook; their work on the notebook is
nbgrader's own. A gradebook nobody read so (the course's own, in a plain `nbgrader
autograde`, which writes into it as it goes) is asked as nbgrader asks it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from nbgrader import preprocessors
from nbgrader.api import Gradebook, MissingEntry


@dataclass(frozen=True)
class SourceCell:
    name: str
    cell_type: str
    locked: bool
    source: str
    checksum: str | None


@dataclass(frozen=True)
class GradedCell:  # a grade cell or a task cell: what nbgrader reads of either
    name: str
    max_score: float
    cell_type: str


@dataclass(frozen=True)
class SolutionCell:  # nbgrader reads only the names of a notebook's solution cells
    name: str


@dataclass(frozen=True)
class Notebook:
    name: str
    kernelspec: str | None
    source_cells: tuple[SourceCell, ...]
    grade_cells: tuple[GradedCell, ...]
    solution_cells: tuple[SolutionCell, ...]
    task_cells: tuple[GradedCell, ...]


class Snapshot:
    """The master notebooks of one assignment, answering as nbgrader's Gradebook answers the
    questions the grading stages ask (a missing one raises MissingEntry, with nbgrader's
    message)."""

    def __init__(self, assignment_id, notebooks):
        self.assignment_id = assignment_id
        self.notebooks = {notebook.name: notebook for notebook in notebooks}

    @classmethod
    def of(cls, gradebook: Gradebook, assignment_id):
        return cls(assignment_id, [notebook_of(n) for n in
                                   gradebook.find_assignment(assignment_id).notebooks])

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def find_notebook(self, name, assignment):
        found = self.notebook(name, assignment)
        if found is None:
            raise MissingEntry(f"No such notebook: {assignment}/{name}")
        return found

    def find_source_cell(self, name, notebook, assignment):
        return one_named(self.cells(notebook, assignment, "source_cells"), name,
                         f"No such source cell: {assignment}/{notebook}/{name}")

    def find_graded_cell(self, name, notebook, assignment):
        return one_named(self.cells(notebook, assignment, "grade_cells", "task_cells"), name,
                         f"No such grade cell: {assignment}/{notebook}/{name}")

    def notebook(self, name, assignment):
        """The notebook of that name of that assignment, or None."""
        return self.notebooks.get(name) if assignment == self.assignment_id else None

    def cells(self, notebook, assignment, *kinds):
        """The cells of these kinds of a notebook, none when there is no such notebook
        (nbgrader then names the cell it did not find, not the notebook)."""
        found = self.notebook(notebook, assignment)
        return [cell for kind in kinds for cell in getattr(found, kind, ())]


def notebook_of(notebook):
    """A Notebook of plain rows from nbgrader's Notebook (its cells in the gradebook's order)."""

    def graded(cell):
        return GradedCell(cell.name, cell.max_score, cell.cell_type)

    def source(cell):
        return SourceCell(cell.name, cell.cell_type, cell.locked, cell.source, cell.checksum)

    return Notebook(notebook.name, notebook.kernelspec,
                    tuple(map(source, notebook.source_cells)),
                    tuple(map(graded, notebook.grade_cells)),
                    tuple(SolutionCell(cell.name) for cell in notebook.solution_cells),
                    tuple(map(graded, notebook.task_cells)))


def one_named(cells, name, missing):
    """The first of `cells` named `name`; MissingEntry(`missing`, nbgrader's words) if none."""
    for cell in cells:
        if cell.name == name:
            return cell
    raise MissingEntry(missing)


_snapshots = {}  # gradebook URL -> Snapshot: the copies this process made and read


def remember(db_url, assignment_id):
    """Read the master notebooks of a gradebook this process made and never writes again."""
    with Gradebook(db_url) as gradebook:
        _snapshots[db_url] = Snapshot.of(gradebook, assignment_id)


def forget(db_url):
    _snapshots.pop(db_url, None)


def snapshot(db_url, assignment_id):
    """The snapshot of this gradebook and assignment, or None: ask the gradebook."""
    found = _snapshots.get(db_url)
    return found if found is not None and found.assignment_id == assignment_id else None


def known(resources):
    """The snapshot for the notebook an nbgrader stage's `resources` name, or None."""
    info = resources["nbgrader"]
    return snapshot(info["db_url"], info["assignment"])


def master_cells(resources) -> list[tuple[str, str, str]]:
    """(grade id, cell type, source) of every cell of the master notebook the gradebook keeps,
    for the notebook an nbgrader preprocessor's `resources` name."""
    info = resources["nbgrader"]
    with known(resources) or Gradebook(info["db_url"]) as gradebook:
        notebook = gradebook.find_notebook(info["notebook"], info["assignment"])
        return [(cell.name, cell.cell_type, cell.source) for cell in notebook.source_cells]


class AsksTheSnapshot:
    """An nbgrader stage that asks the snapshot, when there is one, in `from_snapshot(master,
    nb, notebook, assignment)`; else does as nbgrader's does."""

    def preprocess(self, nb, resources):
        master = known(resources)
        if master is None:
            return super().preprocess(nb, resources)
        info = resources["nbgrader"]
        return self.from_snapshot(master, nb, resources, info["notebook"], info["assignment"])


class OverwriteCells(AsksTheSnapshot, preprocessors.OverwriteCells):
    """nbgrader's OverwriteCells: each graded or locked cell as the master notebook has it."""

    def from_snapshot(self, master, nb, resources, notebook, assignment):
        self.notebook_id, self.assignment_id = notebook, assignment
        self.db_url = resources["nbgrader"]["db_url"]
        self.gradebook = master
        nb, resources = super(preprocessors.OverwriteCells, self).preprocess(nb, resources)
        if self.add_missing_cells:
            nb, resources = self.add_missing_grade_cells(nb, resources)
            nb, resources = self.add_missing_task_cells(nb, resources)
        return nb, resources


class OverwriteKernelspec(AsksTheSnapshot, preprocessors.OverwriteKernelspec):
    """nbgrader's OverwriteKernelspec: the master notebook's kernel, when it names one."""

    def from_snapshot(self, master, nb, resources, notebook, assignment):
        kernelspec = master.find_notebook(notebook, assignment).kernelspec
        kernelspec = json.loads(kernelspec) if kernelspec is not None else None
        if kernelspec:
            nb.metadata["kernelspec"] = kernelspec
        return nb, resources
