"""Is an output never written over a file of the course's own, nor over a file there already
that the command did not write, while a table or report written before is brought up to
date?"""

from __future__ import annotations

import subprocess
import sys

import pytest

from autograder.course.directory import Course
from autograder.outputs.csv_cells import csv_text
from autograder.outputs.destination import a_report, check_destination, same_table
from autograder.outputs.export import COLUMNS
from autograder.plumbing.errors import OutputError
from tests.course import ROOT

GRADES = same_table(csv_text([COLUMNS]))


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    return Course.create(tmp_path_factory.mktemp("destination") / "course", ROOT,
                         ["01_attention_by_hand"]).root


def test_the_course_s_own_files_are_never_a_destination(course):
    """The config, the gradebook and a file inside a course folder: each refused, though none
    of them needs to exist yet, a new file by the folder it would be in (it is not one of the
    course's files yet)?"""
    for path in (course / "nbgrader_config.py", course / "gradebook.db"):
        with pytest.raises(OutputError, match="one of the course's own files"):
            check_destination(course, path, GRADES)
    for path, folder in ((course / "source" / "notes.csv", "source"),
                         (course / ".kit" / "x.html", ".kit")):
        with pytest.raises(OutputError, match=f"is inside {folder}/, which holds the course's"):
            check_destination(course, path, GRADES)


def test_a_file_the_command_did_not_write_is_kept(course, tmp_path):
    """A roster CSV of other columns, and a page not the report's: refused, left as they
    were; a grade table or report written before, and a new file, are written."""
    roster = tmp_path / "roster.csv"
    roster.write_text("name,email\nada,ada@example.org\n")
    page = tmp_path / "notes.html"
    page.write_text("<html><body>my notes</body></html>")
    with pytest.raises(OutputError, match="not what this command writes"):
        check_destination(course, roster, GRADES)
    with pytest.raises(OutputError, match="not what this command writes"):
        check_destination(course, page, a_report)
    assert roster.read_text() == "name,email\nada,ada@example.org\n"
    earlier = tmp_path / "grades.csv"
    earlier.write_text(csv_text([COLUMNS, ["ada", "01", 3, 10, "graded", ""]]))
    check_destination(course, earlier, GRADES)
    report = tmp_path / "report.html"
    report.write_text("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>")
    check_destination(course, report, a_report)
    check_destination(course, tmp_path / "new.csv", GRADES)


def test_report_onto_the_course_config_is_refused_and_the_config_kept(course):
    """`report --to nbgrader_config.py`: exit 1, one line saying why, the config unchanged?"""
    config = (course / "nbgrader_config.py").read_text()
    result = subprocess.run([sys.executable, "-m", "autograder", "report", "--to",
                             "nbgrader_config.py"], cwd=course, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "one of the course's own files" in result.stdout + result.stderr
    assert (course / "nbgrader_config.py").read_text() == config
