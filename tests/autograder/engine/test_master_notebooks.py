"""A worker's master notebooks, read once (autograder/engine/master_notebooks.py)."""

from __future__ import annotations

import copy
import json

import nbformat
import pytest
from nbgrader import preprocessors
from nbgrader.api import Gradebook, MissingEntry

from autograder.course.directory import db_url
from autograder.engine import master_notebooks, worker
from autograder.engine.bundle import assignment_bundle, submission_of
from autograder.engine.master_notebooks import OverwriteCells, OverwriteKernelspec, Snapshot
from tests.autograder.one_submission import ID, as_a_worker, course_with_ada


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A registered course of assignment 01 whose master notebook names a kernel and has a
    task cell (manually graded), with one student's partly done notebook handed in."""
    course = course_with_ada(tmp_path_factory.mktemp("course"))
    with Gradebook(db_url(course.root)) as gradebook:
        gradebook.update_or_create_notebook(ID, ID, kernelspec=json.dumps(
            {"name": "python3", "display_name": "Python 3 (the course's)", "language": "python"}))
        gradebook.update_or_create_task_cell("task_extra", ID, ID, max_score=3,
                                             cell_type="markdown")
        gradebook.update_or_create_source_cell("task_extra", ID, ID, cell_type="markdown",
                                               locked=True, source="Say why.", checksum="0")
    with as_a_worker():
        yield course


@pytest.fixture()
def remembered(course):
    """The course's gradebook read into a snapshot, as a worker reads its copy."""
    url = db_url(course.root)
    master_notebooks.remember(url, ID)
    yield url
    master_notebooks.forget(url)


def answer(book, question, *args):
    try:
        found = getattr(book, question)(*args)
    except MissingEntry as missing:
        return f"missing: {missing}"
    return {name: getattr(found, name) for name in
            ("name", "cell_type", "locked", "source", "checksum", "max_score")
            if hasattr(found, name)}


def test_the_snapshot_answers_as_the_gradebook(course):
    """For every cell of the master notebook and for names it does not have: the same source
    cell (type, lock, source, checksum), the same graded cell's points, the same cells in the
    same order, the same kernel, and MissingEntry where the gradebook has none, in its
    words?"""
    with Gradebook(db_url(course.root)) as gradebook:
        snapshot = Snapshot.of(gradebook, ID)
        notebook = gradebook.find_notebook(ID, ID)
        names = [cell.name for cell in notebook.source_cells] + ["no_such_cell"]
        assert len(names) > 20 and notebook.grade_cells and notebook.task_cells
        assert notebook.kernelspec
        for name in names:
            for question in ("find_source_cell", "find_graded_cell"):
                for where in ((ID, ID), (ID, "another"), ("another", ID)):
                    assert answer(snapshot, question, name, *where) == \
                        answer(gradebook, question, name, *where)
        kept = snapshot.find_notebook(ID, ID)
        assert kept.kernelspec == notebook.kernelspec
        for kind in ("source_cells", "grade_cells", "solution_cells", "task_cells"):
            assert [c.name for c in getattr(kept, kind)] == \
                   [c.name for c in getattr(notebook, kind)]
        assert answer(snapshot, "find_notebook", "another", ID) == \
            answer(gradebook, "find_notebook", "another", ID) == \
            f"missing: No such notebook: {ID}/another"


def tampered(course):
    """The release, as a student may change it: a locked cell's code, a test cell's points,
    a test cell deleted, the notebook's kernel."""
    notebook = nbformat.read(course.root / "release" / ID / f"{ID}.ipynb", as_version=4)
    graded = [c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("grade")]
    locked = next(c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("locked")
                  and not c.metadata["nbgrader"].get("grade"))
    locked.source = "print('changed')"
    graded[0].metadata["nbgrader"]["points"] = 100
    notebook.cells.remove(graded[1])
    notebook.metadata["kernelspec"] = {"name": "other", "display_name": "Other"}
    return notebook


def resources_of(course):
    return {"nbgrader": {"db_url": db_url(course.root), "assignment": ID, "notebook": ID}}


def stage(kind):
    return kind(add_missing_cells=True) if issubclass(kind, preprocessors.OverwriteCells) \
        else kind()


@pytest.mark.parametrize(("nbgraders", "kits"), [
    (preprocessors.OverwriteCells, OverwriteCells),
    (preprocessors.OverwriteKernelspec, OverwriteKernelspec)])
def test_a_stage_asking_the_snapshot_changes_the_notebook_as_nbgraders(course, remembered,
                                                                         monkeypatch,
                                                                         nbgraders, kits):
    """A tampered notebook through nbgrader's stage (asking the gradebook) and through the
    kit's (asking the snapshot, never the gradebook): the very same notebook, with the
    missing test cell added back as nbgrader adds it?"""
    notebook = tampered(course)
    theirs, _ = stage(nbgraders).preprocess(copy.deepcopy(notebook), resources_of(course))
    for module in ("overwritecells", "overwritekernelspec"):
        monkeypatch.setattr(f"nbgrader.preprocessors.{module}.Gradebook", None)
    ours, _ = stage(kits).preprocess(copy.deepcopy(notebook), resources_of(course))
    assert ours == theirs
    assert ours != notebook  # the tampering was undone


def test_without_a_snapshot_the_kits_stages_ask_the_gradebook(course):
    """A gradebook no worker read (the course's own in a plain nbgrader autograde): do the
    kit's stages undo the tampering as nbgrader's do?"""
    notebook = tampered(course)
    for nbgraders, kits in ((preprocessors.OverwriteCells, OverwriteCells),
                            (preprocessors.OverwriteKernelspec, OverwriteKernelspec)):
        theirs, _ = stage(nbgraders).preprocess(copy.deepcopy(notebook), resources_of(course))
        ours, _ = stage(kits).preprocess(copy.deepcopy(notebook), resources_of(course))
        assert ours == theirs != notebook


def test_a_worker_grades_a_notebook_without_opening_a_gradebook(course, monkeypatch):
    """Once a worker made and read its copy of the assignment: is the next notebook graded
    with no gradebook opened, and does it keep the master notebook's kernel as nbgrader's
    autograde keeps it?"""
    bundle = assignment_bundle(course.root, ID)
    submission = submission_of(course.root, "ada", ID)
    first = worker.grade_submission(bundle, submission, {}, worker.kit_version())
    opened, original = [], Gradebook.__init__
    monkeypatch.setattr(Gradebook, "__init__",
                        lambda self, *a, **k: opened.append(a) or original(self, *a, **k))
    second = worker.grade_submission(bundle, submission, {}, worker.kit_version())
    assert first.ok and second.ok and opened == []
    graded = nbformat.reads(second.files[f"{ID}.ipynb"].decode(), as_version=4)
    assert graded.metadata.kernelspec.display_name == "Python 3 (the course's)"
