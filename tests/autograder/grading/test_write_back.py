"""Does the client write a worker's graded notebook into the course's gradebook whole, in
one transaction: every score when it succeeds, nothing of the notebook when a stage fails
midway?"""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest
from nbgrader.api import MissingEntry
from nbgrader.preprocessors import AssignLatePenalties

from autograder.course.directory import course_config, open_gradebook
from autograder.engine import worker
from autograder.engine.bundle import assignment_bundle, submission_of
from autograder.grading.parallel import submission_scores
from autograder.grading.write_back import keep_graded
from tests.autograder.one_submission import ID, as_a_worker, course_with_ada


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A course and what a grading worker sent back for ada's partly done notebook."""
    course = course_with_ada(tmp_path_factory.mktemp("course"))
    with as_a_worker():
        result = worker.grade_submission(assignment_bundle(course.root, ID),
                                         submission_of(course.root, "ada", ID), {},
                                         worker.kit_version())
    assert result.ok, result.why
    return course.root, result


def fresh_copy(graded, tmp_path):
    root, result = graded
    copy = tmp_path / "course"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("autograded"))
    return copy, result


def has_submission(root):
    with open_gradebook(root) as gradebook:
        try:
            gradebook.find_submission(ID, "ada")
        except MissingEntry:
            return False
        return True


def test_the_notebook_is_scored_whole(graded, tmp_path):
    """Does every graded cell get its automatic score, some but not all of the points (the
    notebook is partly done), and is the autograded folder the worker's?"""
    root, result = fresh_copy(graded, tmp_path)
    keep_graded(root, course_config(root), result)
    scores = submission_scores(root, ID, "ada")
    assert scores and all(score is not None for score, _ in scores.values())
    assert 0 < sum(score for score, _ in scores.values()) < sum(m for _, m in scores.values())
    assert (root / "autograded" / "ada" / ID / f"{ID}.ipynb").read_bytes() == (
        result.files[f"{ID}.ipynb"])


def test_a_tas_file_in_autograded_outlives_a_regrade(graded, tmp_path):
    """A TA's file beside ada's autograded notebook: is it kept when her regrade writes the
    folder anew, and when the regrade could not grade her notebook (whose autograded
    notebook goes, as with nbgrader)?"""
    root, result = fresh_copy(graded, tmp_path)
    keep_graded(root, course_config(root), result)
    folder = root / "autograded" / "ada" / ID
    (folder / "ta_mark.txt").write_text("checked by hand")
    keep_graded(root, course_config(root), result)
    assert (folder / "ta_mark.txt").read_text() == "checked by hand"
    assert (folder / f"{ID}.ipynb").read_bytes() == result.files[f"{ID}.ipynb"]
    keep_graded(root, course_config(root), replace(result, ok=False, files={}))
    assert (folder / "ta_mark.txt").read_text() == "checked by hand"
    assert not (folder / f"{ID}.ipynb").exists() and not (folder / "timestamp.txt").exists()
    (folder / "ta_mark.txt").unlink()
    keep_graded(root, course_config(root), result)
    keep_graded(root, course_config(root), replace(result, ok=False, files={}))
    assert not folder.exists()  # nothing of anyone else's: the folder goes, as with nbgrader


def test_a_stage_failing_midway_writes_nothing_of_the_notebook(graded, tmp_path, monkeypatch):
    """nbgrader's SaveAutoGrades has set every score when the late-penalty stage fails: does
    the gradebook keep none of them, nor the submission the write began with, and is the same
    notebook written whole once the stage works again?"""
    root, result = fresh_copy(graded, tmp_path)

    def fails(self, nb, resources):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(AssignLatePenalties, "preprocess", fails)
    with pytest.raises(RuntimeError, match="went away"):
        keep_graded(root, course_config(root), result)
    assert not has_submission(root)
    assert submission_scores(root, ID, "ada") is None
    monkeypatch.undo()
    keep_graded(root, course_config(root), result)
    assert has_submission(root)
    assert all(score is not None for score, _ in submission_scores(root, ID, "ada").values())
