"""Do grade and export work against a real PostgreSQL gradebook, chosen by config alone?

The fixture starts a PostgreSQL server of Debian's package on localhost for this module
(.ci/run installs it). Without the server binaries the test is skipped, unless
KIT_REQUIRE_POSTGRES is set, as CI sets it: there it fails instead."""

from __future__ import annotations

import csv
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import nbformat
import pytest
import sqlalchemy

from autograder.course import Course
from autograder.grading.parallel import grade, submission_scores
from autograder.outputs.feedback import export_grades
from autograder.tools import simulate

ROOT = Path(__file__).resolve().parents[3]
ID = "01_attention_by_hand"
SERVER_BINARIES = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def as_postgres(*command):
    """Run a server command as the `postgres` user when we are root (the server refuses
    to run as root)."""
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run([*prefix, *map(str, command)], check=True, capture_output=True)


@pytest.fixture(scope="module")
def postgres_url():
    if not SERVER_BINARIES:
        if os.environ.get("KIT_REQUIRE_POSTGRES"):
            pytest.fail("PostgreSQL server binaries are missing; .ci/run installs Debian's "
                        "postgresql package")
        pytest.skip("no PostgreSQL server installed (apt-get install postgresql)")
    bin_dir = SERVER_BINARIES[-1].parent
    # Not under pytest's tmp folder: the postgres user cannot enter root's private folders.
    data = Path(tempfile.mkdtemp(prefix="kit-pg-"))
    if os.geteuid() == 0:
        shutil.chown(data, "postgres", "postgres")
    as_postgres(bin_dir / "initdb", "-D", data, "-A", "trust", "-U", "postgres")
    port = free_port()
    options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1"
    as_postgres(bin_dir / "pg_ctl", "-D", data, "-o", options, "-w", "-l", data / "log", "start")
    try:
        as_postgres(bin_dir / "createdb", "-h", "127.0.0.1", "-p", port, "-U", "postgres", "kit")
        yield f"postgresql+psycopg2://postgres@127.0.0.1:{port}/kit"
    finally:
        as_postgres(bin_dir / "pg_ctl", "-D", data, "-m", "immediate", "stop")
        shutil.rmtree(data, ignore_errors=True)


def test_grade_and_export_with_postgresql(postgres_url, tmp_path):
    """Does a course whose config names a PostgreSQL URL grade and export into it, with no
    SQLite file made?"""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    shutil.copytree(ROOT / "release", course.root / "release")
    with (course.root / "nbgrader_config.py").open("a") as config:
        config.write(f"\nc.CourseDirectory.db_url = {postgres_url!r}\n")
    release = nbformat.read(ROOT / "release" / ID / f"{ID}.ipynb", as_version=4)
    source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", as_version=4)
    course.submit("ada", ID, simulate.correct(release, source))
    course.submit("bob", ID, release)

    run = grade(course.root, [ID], workers=2, log=lambda _: None)
    rows = list(csv.DictReader(export_grades(course.root, tmp_path / "grades.csv").open()))

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
