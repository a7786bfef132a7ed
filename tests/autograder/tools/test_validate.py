"""Does `validate` judge an assignment on its solutions and stubs alone, whatever else the
course's config says?"""

from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import nbformat

from autograder.build import build_assignment
from autograder.checks.loader import load_assignment
from autograder.course.directory import CONFIG, Course
from autograder.tools.validate import validate, why_lost

ROOT = Path(__file__).resolve().parents[3]
ID, OTHER = "01_attention_by_hand", "02_embeddings"


def test_a_course_with_deadlines_validates_one_assignment(tmp_path):
    """With due dates for two assignments (one past), does `validate ID` pass the one asked
    for, say nothing of its throwaway course's secret, say that what it registers and grades
    is in a scratch course (not the course's gradebook), and leave the config as it was?"""
    course = Course.create(tmp_path / "course", ROOT, [ID, OTHER]).root
    shutil.copytree(ROOT / "release" / ID, course / "release" / ID)
    past = (datetime.now(UTC) - timedelta(days=1)).strftime("%Y-%m-%d %H:%M:%S")
    with (course / CONFIG).open("a", encoding="utf-8") as config:
        config.write(f"\nc.Deadlines.due_dates = {{{ID!r}: {past!r}, "
                     f"{OTHER!r}: '2099-01-01 00:00:00'}}\n"
                     f"c.Deadlines.extension_hours = {{{OTHER!r}: {{'ada': 24}}}}\n")
    before = (course / CONFIG).read_text(encoding="utf-8")
    said = []
    assert validate(course, [ID], workers=1, log=said.append) == [], said
    assert not [line for line in said if "secret" in line], said
    scratch = [i for i, line in enumerate(said) if "scratch course" in line]
    registering = [i for i, line in enumerate(said) if "registering" in line]
    assert scratch and registering and scratch[0] < registering[0], said
    assert (course / CONFIG).read_text(encoding="utf-8") == before


def test_validate_and_build_never_write_the_course_gradebook_its_config_names(tmp_path):
    """A course whose config names its gradebook by a whole path (as a PostgreSQL URL names
    a server): does `validate` leave the course's gradebook without its students "solutions"
    and "stubs", and does `build` (run by validate's caller as an instructor would, then
    refused on a public test that fails) leave it as it was?"""
    course = Course.create(tmp_path / "course", ROOT, [ID]).root
    shutil.copytree(ROOT / "release" / ID, course / "release" / ID)
    gradebook = course / "elsewhere" / "gradebook.db"
    gradebook.parent.mkdir()
    with (course / CONFIG).open("a", encoding="utf-8") as config:
        config.write(f"\nc.CourseDirectory.db_url = 'sqlite:///{gradebook}'\n")
    assert validate(course, [ID], workers=1, log=lambda _: None) == []
    assert not gradebook.exists() or students_in(gradebook) == []
    assert build_assignment(course, load_assignment(course, ID), "en", log=lambda _: None) \
        is None
    assert not gradebook.exists() or assignments_in(gradebook) == []


def students_in(path):
    with sqlite3.connect(path) as db:
        return [row[0] for row in db.execute("SELECT id FROM student")]


def assignments_in(path):
    with sqlite3.connect(path) as db:
        return [row[0] for row in db.execute("SELECT name FROM assignment")]


def test_a_solution_losing_points_is_said_with_what_grading_found(tmp_path):
    """The solutions' autograded notebook, its record holding a property's words for one
    test cell (a property that the reference passes in build's audit but no notebook passes
    graded, as one asking isinstance of what grading stands in for): does validate read the
    words of that cell alone, which before appeared only in a feedback page?"""
    folder = tmp_path / "autograded" / "solutions" / ID
    folder.mkdir(parents=True)
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kit"] = {"schema": 1, "tampering": [], "integrity": [], "findings": [
        {"cell": "test_project_qkv", "kind": "property", "step": "project_qkv",
         "text": "property: it should be an nn.Module"},
        {"cell": "test_context_vectors", "kind": "value", "step": "context_vectors",
         "text": "another cell's"}]}
    nbformat.write(notebook, folder / f"{ID}.ipynb")
    assert why_lost(tmp_path, ID, "test_project_qkv") == ["property: it should be an nn.Module"]
    assert why_lost(tmp_path, "02_embeddings", "test_project_qkv") == []
