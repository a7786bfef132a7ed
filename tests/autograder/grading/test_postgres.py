"""Do grade and export work against a real PostgreSQL gradebook, chosen by config alone?

The server is the session's (tests/autograder/conftest.py: Debian's package on localhost;
skipped without it, failed in CI)."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import nbformat
import sqlalchemy

from autograder.course.directory import Course
from autograder.grading.parallel import grade, submission_scores
from autograder.outputs.feedback import export_grades
from autograder.tools import simulate

ROOT = Path(__file__).resolve().parents[3]
ID = "01_attention_by_hand"


def test_grade_and_export_with_postgresql(postgres, tmp_path):
    """Does a course whose config names a PostgreSQL URL grade and export into it, with no
    SQLite file made?"""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    shutil.copytree(ROOT / "release", course.root / "release")
    postgres_url = postgres()
    with (course.root / "nbgrader_config.py").open("a") as config:
        config.write(f"\nc.CourseDirectory.db_url = {postgres_url!r}\n")
    release = nbformat.read(ROOT / "release" / ID / f"{ID}.ipynb", as_version=4)
    source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", as_version=4)
    course.submit("ada", ID, simulate.correct(release, source))
    course.submit("bob", ID, release)

    run = grade(course.root, [ID], workers=2, log=lambda _: None)
    export_grades(course.root, tmp_path / "grades.csv")
    rows = list(csv.DictReader((tmp_path / "grades.csv").open(encoding="utf-8-sig")))

    assert len(run.graded) == 2 and not run.failed
    assert all(s == m for s, m in submission_scores(course.root, ID, "ada").values())
    totals = {r["student_id"]: r["score"] for r in rows if r["assignment"] == "TOTAL"}
    assert totals == {"ada": "10", "bob": "0"}
    engine = sqlalchemy.create_engine(postgres_url)
    with engine.connect() as connection:
        count = connection.execute(sqlalchemy.text("select count(*) from submitted_assignment"))
        assert count.scalar() == 2
    engine.dispose()
    assert not (course.root / "gradebook.db").exists()
