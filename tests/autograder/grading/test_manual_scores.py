"""When a student hands in again after a TA scored a cell by hand, does grade say that the TA's
score (which nbgrader keeps over the new notebook's own) was given to the earlier notebook,
keeping it?"""

from __future__ import annotations

import nbformat

from autograder.course.directory import Course, open_gradebook
from tests.autograder.grading.test_changed_release import ID, ROOT, hand_in, kit


def test_a_resubmission_names_the_scores_a_person_gave_the_earlier_notebook(tmp_path):
    """ada is graded, a TA gives test_project_qkv 0.5 by hand, ada hands in again: does grade
    warn naming the cell and the score, count it among the warnings, keep the TA's score, and
    say nothing when the same notebook is graded again?"""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    course.generate(ID)
    hand_in(course, "ada")
    assert kit(course, "grade").returncode == 0
    with open_gradebook(course.root) as gradebook:
        gradebook.find_grade("test_project_qkv", ID, ID, "ada").manual_score = 0.5
        gradebook.db.commit()

    path = course.root / "submitted" / "ada" / ID / f"{ID}.ipynb"
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_markdown_cell("handed in again"))
    nbformat.write(notebook, path)
    again = kit(course, "grade")
    said = again.stdout + again.stderr
    assert again.returncode == 0, said
    assert "handed in again, it keeps the scores a person gave the earlier notebook: " \
        "test_project_qkv (0.5)" in said, said
    assert "graded with warnings 1" in said, said
    with open_gradebook(course.root) as gradebook:
        assert gradebook.find_grade("test_project_qkv", ID, ID, "ada").manual_score == 0.5

    regraded = kit(course, "grade", "--force")
    assert regraded.returncode == 0 and "a person gave" not in regraded.stdout + regraded.stderr
