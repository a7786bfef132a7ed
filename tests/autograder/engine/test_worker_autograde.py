"""Does a grading worker's autograde (autograder/engine/worker_autograde.py) give the
autograded folder nbgrader's own autograde gives, while it writes no student into its
throwaway gradebook; and does it refuse what nbgrader refuses?"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from autograder.course.directory import nbgrader_api
from autograder.engine import worker
from autograder.engine.bundle import GRADEBOOK, assignment_bundle, submission_of
from autograder.engine.worker_autograde import autograde_in_worker
from tests.autograder.one_submission import ID, as_a_worker, course_with_ada, notebook_of


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A course whose source has two files besides the notebook, one of them kept as the
    student left it; one student handed in a partly done notebook, both files and a
    notebook the assignment does not have."""

    def two_files(course):
        for name in ("table.csv", "notes.txt"):
            (course.root / "source" / ID / name).write_text(f"the course's {name}\n")
        with (course.root / "nbgrader_config.py").open("a") as config:
            config.write(f"\nc.Autograde.exclude_overwriting = {{{ID!r}: ['notes.txt']}}\n")

    course = course_with_ada(tmp_path_factory.mktemp("course"), prepare=two_files)
    nbformat.write(notebook_of(course, "release"),
                   course.root / "submitted" / "ada" / ID / "scratch.ipynb")
    for name in ("table.csv", "notes.txt"):
        (course.root / "submitted" / "ada" / ID / name).write_text(f"ada's {name}\n")
    with as_a_worker():
        yield course


def cells_of(data):
    notebook = nbformat.reads(data.decode(), as_version=4)
    return [(cell.cell_type, cell.source, cell.get("outputs")) for cell in notebook.cells]


def test_a_worker_grades_as_nbgrader_without_recording_the_student(course):
    """The same notebook (sources, outputs) and the same files as nbgrader's own autograde
    of the course; the source's table over the student's, the notes the course keeps as the
    student left them, no notebook the assignment does not have; and no student nor
    submission in the worker's gradebook?"""
    graded = worker.grade_submission(assignment_bundle(course.root, ID),
                                     submission_of(course.root, "ada", ID), {},
                                     worker.kit_version())
    assert graded.ok, graded.why
    outcome = nbgrader_api(course.root).autograde(ID, "ada", force=True, create=True)
    assert outcome["success"], outcome.get("log")
    folder = course.root / "autograded" / "ada" / ID
    assert sorted(graded.files) == sorted(p.name for p in folder.iterdir())
    notebook = f"{ID}.ipynb"
    assert cells_of(graded.files[notebook]) == cells_of((folder / notebook).read_bytes())
    assert graded.files["table.csv"] == b"the course's table.csv\n"
    assert graded.files["notes.txt"] == b"ada's notes.txt\n"
    assert "scratch.ipynb" not in graded.files
    (throwaway, _), = worker.workspace().courses.values()
    with Gradebook(f"sqlite:///{throwaway / GRADEBOOK}") as gradebook:
        assert gradebook.students == []
        assert [a.name for a in gradebook.assignments] == [ID]


def test_a_worker_refuses_an_assignment_its_gradebook_does_not_know(course):
    """Does grading an assignment the gradebook does not know fail, saying so as nbgrader
    says it?"""
    folder, api = worker.prepared(assignment_bundle(course.root, ID), {}, worker.kit_version())
    handed_in = folder / "submitted" / "ada" / "99_unknown"
    handed_in.mkdir(parents=True)
    shutil.copy(course.root / "submitted" / "ada" / ID / f"{ID}.ipynb", handed_in)
    outcome = autograde_in_worker(api, "99_unknown", "ada")
    assert not outcome["success"]
    assert "No assignment with ID '99_unknown' exists in the database" in outcome["log"]


def test_a_worker_reads_each_notebook_once_and_grades_it_in_its_graded_folder(
        course, monkeypatch):
    """Does a worker run nbgrader's two passes (sanitize, then autograde) as one, reading the
    submitted notebook once, and grade it in the autograded folder, where the source's files
    are over the student's?"""
    from autograder.grading.session import Session
    from autograder.grading.submission_guard import SubmissionExporter

    read, folders = [], []
    from_filename, start_session = SubmissionExporter.from_filename, Session.__init__
    monkeypatch.setattr(SubmissionExporter, "from_filename", lambda self, filename, *args,
                        **kwargs: read.append(filename) or from_filename(self, filename, *args,
                                                                         **kwargs))
    monkeypatch.setattr(Session, "__init__", lambda self, folder, *args: folders.append(
        folder) or start_session(self, folder, *args))
    graded = worker.grade_submission(assignment_bundle(course.root, ID),
                                     submission_of(course.root, "ada", ID), {},
                                     worker.kit_version())
    assert graded.ok, graded.why
    assert [Path(name).parts[-3:] for name in read] == [("ada", ID, f"{ID}.ipynb")]
    assert "submitted" in Path(read[0]).parts
    (folder,) = folders
    assert Path(folder).parts[-3:] == ("autograded", "ada", ID)
    assert (Path(folder) / "table.csv").read_text() == "the course's table.csv\n"


def test_a_worker_on_other_kit_code_refuses_naming_both_versions(course):
    """Is the kit's version its number and a digest of its code, and does a worker whose
    kit differs from the client's (same number, other code) refuse, naming both?"""
    number, digest = worker.kit_version().split("+")
    assert len(digest) == 12 and int(digest, 16) >= 0
    other = f"{number}+{'0' * 12}"
    with pytest.raises(worker.WorkerRefused) as refused:
        worker.prepared(assignment_bundle(course.root, ID), {}, other)
    assert f"this worker runs kit {worker.kit_version()}, the client {other}" in str(
        refused.value)
