"""Does the record of what a collect put in submitted/ tell the student's files from a TA's
put there since, and step aside where the folder is no longer the one recorded?"""

from __future__ import annotations

from autograder.course.handed_in import record, students_files

ID = "01_x"


def handed(root, files):
    folder = root / "submitted" / "ada" / ID
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def test_the_files_recorded_are_the_students_and_no_file_put_there_after(tmp_path):
    """A notebook and a data file collected, then a TA's note put beside them: are the first
    two the student's, and the note not?"""
    folder = handed(tmp_path, {f"{ID}.ipynb": "{}", "data/words.txt": "mine"})
    record(tmp_path, ID, "ada", folder)
    (folder / "ta_notes.txt").write_text("asked for an extension")
    assert students_files(tmp_path, ID, "ada") == {f"{ID}.ipynb", "data/words.txt"}


def test_no_record_or_a_notebook_changed_since_tells_nothing(tmp_path):
    """Without a record, and once the notebook is not the one recorded (put there by hand or
    by nbgrader's own collect since), is the answer None (every file taken, as before)?"""
    folder = handed(tmp_path, {f"{ID}.ipynb": "{}"})
    assert students_files(tmp_path, ID, "ada") is None
    record(tmp_path, ID, "ada", folder)
    assert students_files(tmp_path, ID, "ada") == {f"{ID}.ipynb"}
    (folder / f"{ID}.ipynb").write_text('{"cells": []}')
    assert students_files(tmp_path, ID, "ada") is None
    (folder / f"{ID}.ipynb").unlink()
    assert students_files(tmp_path, ID, "ada") is None
