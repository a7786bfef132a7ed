"""Does every walk over a student's folder keep the bounds submission_files declares, with its
one walker, so that 1,100 nested folders or too many files cost that student alone (said,
with the reason) and never overflow Python's stack?"""

from __future__ import annotations

import pytest

from autograder.course.submission_files import (
    FOLDER_DEPTH,
    FOLDER_ENTRIES,
    Unwalkable,
    entries_of,
    unfollowable,
)
from autograder.engine.bundle import read_files
from autograder.gradescope.run import NotGradable, find_notebook
from tests.autograder.deep_folders import deep_folders

ID = "01_attention_by_hand"
TOO_DEEP = f"its folders are nested more than {FOLDER_DEPTH} deep"


@pytest.fixture
def deep(tmp_path):
    """A student's folder: the notebook, and 1,100 nested folders beside it."""
    folder = tmp_path / "submitted" / "cy" / ID
    folder.mkdir(parents=True)
    (folder / f"{ID}.ipynb").write_text("{}")
    with deep_folders(folder):
        yield folder


def test_the_walker_refuses_a_folder_too_deep(deep):
    """Does the walker stop at the bound with the reason, and the rule of what grade and the
    similarity report read say it?"""
    with pytest.raises(Unwalkable, match=TOO_DEEP):
        list(entries_of(deep))
    assert TOO_DEEP in unfollowable(deep / f"{ID}.ipynb")


def test_the_walker_refuses_a_folder_too_full(tmp_path):
    """Does a folder of more than FOLDER_ENTRIES files stop the walk with the reason?"""
    for number in range(FOLDER_ENTRIES + 1):
        (tmp_path / f"{number}.txt").touch()
    with pytest.raises(Unwalkable, match=f"more than {FOLDER_ENTRIES} files"):
        list(entries_of(tmp_path))


def test_a_task_reads_a_folder_within_the_bounds(deep, tmp_path):
    """Do the files a grading or feedback task sends come through the walker (a folder too
    deep raises Unwalkable, which the engine keeps as that student's), and a plain folder's
    regular files, links left out, as before?"""
    with pytest.raises(Unwalkable, match=TOO_DEEP):
        read_files(deep)
    plain = tmp_path / "plain"
    (plain / "data" / ".ipynb_checkpoints").mkdir(parents=True)
    (plain / "data" / "x.csv").write_text("1,2")
    (plain / "data" / ".ipynb_checkpoints" / "x.ipynb").write_text("{}")
    (plain / "link.csv").symlink_to(plain / "data" / "x.csv")
    assert read_files(plain, "p/") == {"p/data/x.csv": b"1,2"}


def test_a_gradescope_upload_too_deep_is_the_students_to_fix(deep):
    """Is a Gradescope upload beyond the bounds not gradable, saying what is wrong and what to
    upload instead (never the autograder's own failure)?"""
    with pytest.raises(NotGradable) as refused:
        find_notebook(deep, ID)
    assert str(refused.value) == (
        f"your upload cannot be looked through: {TOO_DEEP}; upload only this assignment's "
        f"notebook, {ID}.ipynb, without the folders around it")
