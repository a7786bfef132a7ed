"""Does the gradebook store, for each cell, the checksum students' notebooks carry, so that
plain `nbgrader autograde` warns only about cells a student really changed?"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat

from autograder.course.directory import Course, open_gradebook

ROOT = Path(__file__).resolve().parents[3]
ID = "01_attention_by_hand"


def released_checksums(course):
    notebook = nbformat.read(course.root / "release" / ID / f"{ID}.ipynb", as_version=4)
    return {cell.metadata.nbgrader["grade_id"]: cell.metadata.nbgrader["checksum"]
            for cell in notebook.cells if "nbgrader" in cell.metadata}


def stored(course):
    with open_gradebook(course.root) as gradebook:
        notebook = gradebook.find_notebook(ID, ID)
        return {cell.name: (cell.checksum, cell.source) for cell in notebook.source_cells}


def test_gradebook_keeps_release_checksums_and_master_sources(tmp_path):
    """After generate_assignment, is every stored checksum the release's, while the stored
    source of a test cell keeps its hidden part (which grading reads)?"""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    course.generate(ID)
    released, kept = released_checksums(course), stored(course)
    assert {name: checksum for name, (checksum, _) in kept.items()} == released
    assert "### BEGIN HIDDEN TESTS" in kept["test_project_qkv"][1]


def test_plain_autograde_of_an_untouched_release_warns_about_nothing(tmp_path):
    """Does plain `nbgrader autograde` of a notebook handed in as released run without one
    checksum warning (nbgrader's own order warns for every test cell with a hidden part)?"""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    course.generate(ID)
    release = nbformat.read(course.root / "release" / ID / f"{ID}.ipynb", as_version=4)
    course.submit("ada", ID, release)
    run = subprocess.run([sys.executable, "-m", "nbgrader", "autograde", ID],
                         cwd=course.root, capture_output=True, text=True, check=True)
    assert "checksum" not in run.stderr.lower(), run.stderr
    assert "has changed" not in run.stderr, run.stderr
    assert set(course.cell_scores(ID, "ada")) == {name for name in released_checksums(course)
                                                  if name.startswith("test_")}
