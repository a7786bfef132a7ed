"""Does RestoreTestCells give a submission the release's graded cells back, whatever the
student did to them, and record what it changed?

In nbgrader's own style: each test builds a release notebook (written in a course folder
under tmp_path, where the stage reads it through CourseDirectory) and a submission with
nbformat.v4 cells, runs the stage's preprocess, and looks at the result. No kernel starts."""

from __future__ import annotations

import copy

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output
from traitlets.config import Config

from autograder.grading.restore_test_cells import RestoreTestCells
from tests.autograder.cells import nbgrader_cell

ASSIGNMENT = "ps0"
NOTEBOOK = "problem"


# -- helpers --------------------------------------------------------------------------------


def graded_cell(source, grade_id, points=1):
    return nbgrader_cell(source, grade_id, grade=True, locked=True, points=points)


def solution_cell(source, grade_id):
    return nbgrader_cell(source, grade_id, solution=True)


def locked_cell(source, grade_id, cell_type="markdown"):
    return nbgrader_cell(source, grade_id, cell_type=cell_type, locked=True)


def release():
    """The notebook as released: instructions, a solution cell, two test cells."""
    return new_notebook(cells=[
        locked_cell("# Step 1", "intro"),
        solution_cell("def f(x):\n    # YOUR CODE HERE\n    raise NotImplementedError()",
                      "answer"),
        graded_cell("assert f(1) == 2", "test_f", points=2),
        graded_cell("assert f(2) == 4", "test_f_again", points=1),
    ])


def submission(source_notebook):
    """What a student hands back when they touch nothing but the solution."""
    nb = copy.deepcopy(source_notebook)
    nb.cells[1].source = "def f(x):\n    return 2 * x"
    return nb


def course(tmp_path, released):
    """A course folder with release/<assignment>/<notebook>.ipynb, and the stage's config
    and resources pointing at it."""
    folder = tmp_path / "release" / ASSIGNMENT
    folder.mkdir(parents=True)
    nbformat.write(released, folder / f"{NOTEBOOK}.ipynb")
    config = Config()
    config.CourseDirectory.root = str(tmp_path)
    resources = {"nbgrader": {"assignment": ASSIGNMENT, "notebook": NOTEBOOK,
                              "student": "alice"}}
    return config, resources


def restore(tmp_path, nb, released=None):
    config, resources = course(tmp_path, released or release())
    nb, _ = RestoreTestCells(config=config).preprocess(nb, resources)
    return nb


def changes(nb):
    """The stage's record of what it changed (one place to edit if the storage moves)."""
    return list(nb.metadata["kit"]["tampering"])


def cell_with(nb, grade_id):
    [cell] = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id]
    return cell


# -- the release's structure comes back -----------------------------------------------------


def test_untouched_notebook_is_unchanged(tmp_path):
    """Is a submission that kept the release's structure left as it is, with no change
    recorded?"""
    nb = submission(release())
    before = copy.deepcopy(nb.cells)
    nb = restore(tmp_path, nb)
    assert nb.cells == before
    assert changes(nb) == []


def test_forged_metadata_becomes_student_code(tmp_path):
    """Does a student cell given nbgrader metadata of its own (a test cell worth 100 points)
    become plain student code, and is that recorded?"""
    nb = submission(release())
    forged = graded_cell("assert True", "bonus", points=100)
    nb.cells.insert(2, forged)
    nb = restore(tmp_path, nb)
    assert "nbgrader" not in nb.cells[2].metadata
    assert nb.cells[2].source == "assert True"
    [change] = changes(nb)
    assert "forged" in change and "'bonus'" in change and "cell 3" in change


def test_renamed_test_cell_is_student_code_and_the_original_comes_back(tmp_path):
    """Does a test cell whose grade id was renamed lose its metadata, while the release's
    cell is put back at the end?"""
    nb = submission(release())
    nb.cells[3].metadata.nbgrader["grade_id"] = "renamed"
    nb = restore(tmp_path, nb)
    assert "nbgrader" not in nb.cells[3].metadata
    assert nb.cells[-1].source == "assert f(2) == 4"
    assert nb.cells[-1].metadata.nbgrader["grade_id"] == "test_f_again"
    assert len(changes(nb)) == 2


def test_second_copy_of_a_grade_id_loses_its_metadata(tmp_path):
    """Is a second cell carrying a grade id already seen graded as student code, while the
    first keeps its metadata?"""
    nb = submission(release())
    copied = copy.deepcopy(nb.cells[2])
    copied.source = "assert True"
    nb.cells.append(copied)
    nb = restore(tmp_path, nb)
    assert nb.cells[2].metadata.nbgrader["grade_id"] == "test_f"
    assert "nbgrader" not in nb.cells[-1].metadata
    [change] = changes(nb)
    assert "second copy" in change and "'test_f'" in change


def test_changed_points_are_restored(tmp_path):
    """Are a test cell's points, raised by the student, set back to the release's?"""
    nb = submission(release())
    nb.cells[2].metadata.nbgrader["points"] = 100
    nb = restore(tmp_path, nb)
    assert cell_with(nb, "test_f").metadata.nbgrader["points"] == 2
    [change] = changes(nb)
    assert "points" in change and "'test_f'" in change


def test_other_metadata_changes_are_restored(tmp_path):
    """Is a test cell turned into a non-graded one (grade: false) graded again, and a solution
    cell's extra flag dropped?"""
    nb = submission(release())
    nb.cells[2].metadata.nbgrader["grade"] = False
    nb.cells[1].metadata.nbgrader["locked"] = True
    nb = restore(tmp_path, nb)
    assert cell_with(nb, "test_f").metadata.nbgrader == release().cells[2].metadata.nbgrader
    assert cell_with(nb, "answer").metadata.nbgrader == release().cells[1].metadata.nbgrader
    assert nb.cells[1].source == "def f(x):\n    return 2 * x"


def test_cell_retyped_to_markdown_is_code_again(tmp_path):
    """Is a test cell the student turned into markdown (so that it never runs) a code cell
    again, with the fields a code cell needs?"""
    nb = submission(release())
    retyped = new_markdown_cell(nb.cells[2].source, metadata=nb.cells[2].metadata)
    nb.cells[2] = retyped
    nb = restore(tmp_path, nb)
    cell = nb.cells[2]
    assert cell.cell_type == "code"
    assert cell.outputs == [] and cell.execution_count is None
    nbformat.validate(nb)
    [change] = changes(nb)
    assert "retyped to markdown" in change and "'test_f'" in change


def test_locked_markdown_retyped_to_code_is_markdown_again(tmp_path):
    """Is a locked markdown cell the student turned into code markdown again, without a code
    cell's fields?"""
    nb = submission(release())
    retyped = new_code_cell("print('hi')", metadata=nb.cells[0].metadata)
    retyped.outputs = [new_output("stream", name="stdout", text="hi\n")]
    nb.cells[0] = retyped
    nb = restore(tmp_path, nb)
    cell = nb.cells[0]
    assert cell.cell_type == "markdown"
    assert "outputs" not in cell and "execution_count" not in cell
    assert "retyped to code" in changes(nb)[0]


def test_deleted_test_cell_is_put_back_at_the_end(tmp_path):
    """Is a deleted test cell appended at the end, as released, with empty outputs?"""
    released = release()
    released.cells[2].outputs = [new_output("stream", name="stdout", text="passed\n")]
    released.cells[2].execution_count = 7
    nb = submission(released)
    del nb.cells[2]
    nb = restore(tmp_path, nb, released)
    last = nb.cells[-1]
    assert len(nb.cells) == 4
    assert last.source == "assert f(1) == 2"
    assert last.metadata.nbgrader == released.cells[2].metadata.nbgrader
    assert last.outputs == [] and last.execution_count is None
    [change] = changes(nb)
    assert "deleted" in change and "'test_f'" in change


def test_all_deleted_test_cells_come_back_in_release_order(tmp_path):
    """Do two deleted test cells both come back, in the release's order?"""
    nb = submission(release())
    del nb.cells[2:]
    nb = restore(tmp_path, nb)
    assert [c.metadata.nbgrader["grade_id"] for c in nb.cells[2:]] == ["test_f", "test_f_again"]
    assert len(changes(nb)) == 2


def test_deleted_non_graded_cell_is_not_put_back(tmp_path):
    """Is a deleted solution or instruction cell left out (only test cells carry points)?"""
    nb = submission(release())
    del nb.cells[:2]
    nb = restore(tmp_path, nb)
    assert [c.metadata.nbgrader["grade_id"] for c in nb.cells] == ["test_f", "test_f_again"]
    assert changes(nb) == []


def test_changes_are_recorded_in_order_of_the_notebook(tmp_path):
    """Is every change recorded, one description each, in the notebook's order, deleted
    cells last?"""
    nb = submission(release())
    nb.cells[3].metadata.nbgrader["points"] = 50
    nb.cells.insert(1, graded_cell("assert True", "forged"))
    del nb.cells[3]  # test_f
    nb = restore(tmp_path, nb)
    recorded = changes(nb)
    assert len(recorded) == 3
    assert "forged" in recorded[0]
    assert "points of 'test_f_again'" in recorded[1]
    assert "'test_f' deleted" in recorded[2]
    assert all(isinstance(change, str) for change in recorded)


def test_changes_of_an_earlier_run_are_replaced(tmp_path):
    """Does a record forged by the student (or left by an earlier run) give way to this run's
    findings?"""
    nb = submission(release())
    nb.metadata["kit"] = {"tampering": ["made up"]}
    nb = restore(tmp_path, nb)
    assert changes(nb) == []


# -- malformed input ------------------------------------------------------------------------


@pytest.mark.parametrize("metadata", [["grade", True], "grade", 3],
                         ids=["list", "string", "number"])
def test_nbgrader_metadata_that_is_not_a_dict(tmp_path, metadata):
    """Does a cell whose nbgrader metadata is not a mapping become student code, without
    crashing the grader?"""
    nb = submission(release())
    nb.cells.insert(2, new_code_cell("x = 1", metadata={"nbgrader": metadata}))
    nb = restore(tmp_path, nb)
    assert "nbgrader" not in nb.cells[2].metadata
    assert cell_with(nb, "test_f").metadata.nbgrader["points"] == 2
    assert len(changes(nb)) == 1


def test_unhashable_grade_id(tmp_path):
    """Does a cell whose grade id is a list become student code, without crashing the
    grader?"""
    nb = submission(release())
    nb.cells.insert(2, graded_cell("assert True", ["test_f"], points=100))
    nb = restore(tmp_path, nb)
    assert "nbgrader" not in nb.cells[2].metadata
    assert cell_with(nb, "test_f").metadata.nbgrader["points"] == 2
    assert len(changes(nb)) == 1


def test_nbgrader_metadata_without_grade_id(tmp_path):
    """Does a cell with nbgrader metadata but no grade id become student code?"""
    nb = submission(release())
    nb.cells.insert(2, new_code_cell("x = 1", metadata={"nbgrader": {"grade": True,
                                                                      "points": 5}}))
    nb = restore(tmp_path, nb)
    assert "nbgrader" not in nb.cells[2].metadata
    assert len(changes(nb)) == 1


def test_edited_locked_cell_gets_the_release_source_back(tmp_path):
    """Does a test cell whose locked source the student edited (say, to weaken an assert) get
    the release's source back before nbgrader compares checksums, and is that recorded?"""
    nb = submission(release())
    nb.cells[2].source = "assert True"
    nb = restore(tmp_path, nb)
    assert cell_with(nb, "test_f").source == "assert f(1) == 2"
    assert changes(nb) == ["locked cell 'test_f' edited: restored"]
    assert nb.cells[1].source == "def f(x):\n    return 2 * x"


def test_a_cell_as_an_earlier_release_had_it_is_restored_and_not_counted(tmp_path):
    """A release rebuilt with test_f worth 3 points, its intro reworded and a test cell added:
    does a student who handed in the release before get the new cells back with nothing
    counted as their edit, while one who edited a cell of that release is still counted, for
    that edit alone?"""
    from autograder.course.earlier_releases import remember_release

    before = release()
    rebuilt = release()
    rebuilt.cells[0].source = "# Step 1, reworded"
    rebuilt.cells[2].metadata["nbgrader"]["points"] = 3
    rebuilt.cells.append(graded_cell("assert f(3) == 6", "test_f_more"))
    edited = submission(before)
    edited.cells[2].source = "assert True"
    for name, handed, expected in (("honest", submission(before), []),
                                   ("edited", edited, ["locked cell 'test_f' edited: restored"])):
        root = tmp_path / name
        folder = root / "release" / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(before, folder / f"{ASSIGNMENT}.ipynb")
        remember_release(root, ASSIGNMENT)  # as build does before it replaces the release
        (folder / f"{ASSIGNMENT}.ipynb").unlink()
        folder.rmdir()
        graded = restore(root, handed, rebuilt)
        assert changes(graded) == expected, name
        assert graded.cells[0].source == "# Step 1, reworded"
        assert graded.cells[2].metadata["nbgrader"]["points"] == 3
        assert graded.cells[2].source == "assert f(1) == 2"
        assert graded.cells[-1].source == "assert f(3) == 6"
