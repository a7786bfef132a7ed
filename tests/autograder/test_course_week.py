"""Does a week of a real course lose no grade and no student, whatever runs beside the kit?

Played as an instructor and a TA would, with the real command line in subprocesses, real
nbgrader and the real gradebook (SQLite, and PostgreSQL on a local server): collect an inbox
with bad files, grade, a TA's manual score, extra credit and comment written through
nbgrader's own API (as formgrader writes them), a plain `nbgrader autograde --force` of one
student, Ctrl-C (SIGINT to the process group) in the middle of `grade --force`, two
overlapping `grade` runs, a regrade of one student. After each, every manual score and
comment must be there, every student must have exactly one submission, and at the end every
student has a row with a status in the export and in the report.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from autograder.course.directory import Course, db_url, nbgrader_env
from autograder.tools import simulate

pytestmark = pytest.mark.long

ROOT = Path(__file__).resolve().parents[2]
ID = "01_attention_by_hand"
GRADED = ["ada", "bob", "cy", "dee"]  # students whose notebook can be graded
MANUAL = {"score": 1.5, "extra": 0.5, "comment": "Right idea; see me about the max."}


def kit(root, *args, timeout=600):
    return subprocess.run([sys.executable, "-m", "autograder", *args], cwd=root, text=True,
                          capture_output=True, timeout=timeout, env=nbgrader_env())


def start_kit(root, *args):
    """A kit command in a process group of its own, as a terminal starts it (Ctrl-C reaches
    the whole group)."""
    return subprocess.Popen([sys.executable, "-m", "autograder", *args], cwd=root, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=nbgrader_env(), start_new_session=True)


def inbox(folder):
    """An LMS export: good, blank and mistaken notebooks, a truncated one, another
    assignment's notebook under this one's name, and a file whose name tells no student."""
    release = nbformat.read(ROOT / "release" / ID / f"{ID}.ipynb", as_version=4)
    source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", as_version=4)
    mistake = simulate.mistakes_of(ROOT, ID)[0]
    folder.mkdir()
    for student, notebook in {"ada": simulate.correct(release, source), "bob": release,
                              "cy": simulate.with_mistake(release, source, mistake),
                              "dee": simulate.correct(release, source)}.items():
        nbformat.write(notebook, folder / f"{student}_{ID}.ipynb")
    (folder / f"eve_{ID}.ipynb").write_text('{"cells": [{"cell_type": "code", "sou')
    shutil.copy(ROOT / "release" / "02_embeddings" / "02_embeddings.ipynb",
                folder / f"fay_{ID}.ipynb")
    (folder / "homework final(2).ipynb").write_text("{}")
    return folder


def give_manual_grade(url):
    """What a TA does in formgrader, through nbgrader's API: a manual score and extra credit
    on cy's stable_softmax test cell, a comment on cy's stable_softmax answer."""
    with Gradebook(url) as gradebook:
        grade = gradebook.find_grade("test_stable_softmax", ID, ID, "cy")
        grade.manual_score, grade.extra_credit = MANUAL["score"], MANUAL["extra"]
        comment = gradebook.find_comment("stable_softmax", ID, ID, "cy")
        comment.manual_comment = MANUAL["comment"]
        gradebook.db.commit()


def assert_nothing_lost(url):
    """Is the TA's work intact, and does every gradable student have exactly one
    submission?"""
    with Gradebook(url) as gradebook:
        grade = gradebook.find_grade("test_stable_softmax", ID, ID, "cy")
        assert (grade.manual_score, grade.extra_credit) == (MANUAL["score"], MANUAL["extra"])
        comment = gradebook.find_comment("stable_softmax", ID, ID, "cy")
        assert comment.manual_comment == MANUAL["comment"]
        owners = [s.student.id for s in gradebook.find_assignment(ID).submissions]
    for student in GRADED:
        assert owners.count(student) == 1, f"{student} has {owners.count(student)} submissions"


def statuses(root):
    return {s.parent.name + "/" + s.stem: json.loads(s.read_text())["state"]
            for s in (root / ".kit" / "status").glob("*/*.json")}


def wait_for(condition, seconds=120, every=0.2):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(every)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def week(request, tmp_path_factory):
    """A course with the project's config and assignment 01, its gradebook SQLite or
    PostgreSQL, and an inbox."""
    tmp = tmp_path_factory.mktemp(f"week-{request.param}")
    root = Course.create(tmp / "course", ROOT, [ID]).root
    shutil.copytree(ROOT / "release", root / "release")
    if request.param == "postgresql":
        url = request.getfixturevalue("postgres")()
        with (root / "nbgrader_config.py").open("a") as config:
            config.write(f"\nc.CourseDirectory.db_url = {url!r}\n")
    return {"root": root, "url": db_url(root), "inbox": inbox(tmp / "inbox")}


@pytest.fixture(scope="module")
def monday(week):
    """Collect and grade, then the TA's manual grade."""
    root = week["root"]
    week["collect"] = kit(root, "collect", ID, "--from", str(week["inbox"]))
    week["grade"] = kit(root, "grade", "--workers", "2")
    give_manual_grade(week["url"])
    return week


def test_collect_and_grade_say_what_they_refused(monday):
    """Do collect and grade exit 1 when they refused an input, naming each file and a fix?"""
    assert monday["collect"].returncode == 1, monday["collect"].stderr
    assert "homework final(2).ipynb" in monday["collect"].stdout
    assert monday["grade"].returncode == 1, monday["grade"].stderr
    out = monday["grade"].stdout
    assert "eve" in out and "not a Jupyter notebook" in out
    assert "fay" in out and f"not the notebook of {ID}" in out
    assert sorted(statuses(monday["root"])) == [f"{s}/{ID}" for s in GRADED]


def test_plain_nbgrader_autograde_keeps_the_manual_grade(monday):
    """After a plain `nbgrader autograde --force` of that student, and then the kit's grade,
    are the manual score, extra credit and comment still there?"""
    root = monday["root"]
    subprocess.run([sys.executable, "-m", "nbgrader", "autograde", ID, "--force",
                    "--student=cy"], cwd=root, env=nbgrader_env(), check=True,
                   capture_output=True, timeout=600)
    assert_nothing_lost(monday["url"])
    again = kit(root, "grade", "--workers", "2")
    assert "already graded" in again.stdout
    assert_nothing_lost(monday["url"])


def interrupted_mid_grade(root, attempts=3):
    """A `grade --force` of the class that Ctrl-C reached (its whole process group, as a
    terminal sends it) while a notebook was being graded. The four take about a second, and
    on a busy machine this process may wake too late: the run is frozen (SIGSTOP) once the
    ledger shows a notebook grading, and interrupted if one still is; else it is let finish
    and started again."""
    for _ in range(attempts):
        run = start_kit(root, "grade", "--force", "--workers", "2")
        wait_for(lambda run=run: "grading" in statuses(root).values() or run.poll() is not None,
                 every=0.02)
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGSTOP)
            grading = "grading" in statuses(root).values()
            if grading:
                os.killpg(run.pid, signal.SIGINT)
            os.killpg(run.pid, signal.SIGCONT)
            if grading:
                return run
        run.communicate(timeout=600)
    raise AssertionError(f"no notebook was still grading in {attempts} runs")


def test_ctrl_c_in_the_middle_of_grade_force_loses_nothing(monday):
    """Ctrl-C while `grade --force` is grading: is every manual grade kept, is no submission
    lost, is no notebook the interrupt stopped called failed, and does the next run grade
    again what the forced run had not finished (on their old results until then), saying so?"""
    root = monday["root"]
    run = interrupted_mid_grade(root)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err, err
    assert_nothing_lost(monday["url"])
    assert "failed" not in statuses(root).values(), statuses(root)
    not_reached = [k for k, state in statuses(root).items() if state == "regrade"]
    assert not_reached, statuses(root)
    report = kit(root, "report")
    assert "a grade --force stopped before this notebook; run grade" in (
        root / "report.html").read_text(), report.stdout + report.stderr
    resumed = kit(root, "grade", "--workers", "2")
    assert resumed.returncode == 1  # eve and fay are still refused, and said so
    assert f"finishing an interrupted grade --force: {len(not_reached)} notebooks" in (
        resumed.stdout)
    assert set(statuses(root).values()) == {"graded"}
    assert_nothing_lost(monday["url"])


def test_a_second_grade_refuses_while_one_runs(monday):
    """While one `grade` runs, does a second refuse at once naming the running one, and
    does the first finish untouched?"""
    root = monday["root"]
    first = start_kit(root, "grade", "--force", "--workers", "2")
    lock = root / ".kit" / "grade.lock"
    wait_for(lambda: lock.exists() and lock.read_text().strip())
    # The first is held (not its workers) while the second runs: four notebooks are graded
    # in about the time the second takes to import, so it could otherwise find them done.
    os.kill(first.pid, signal.SIGSTOP)
    try:
        second = kit(root, "grade")
    finally:
        os.kill(first.pid, signal.SIGCONT)
    out, err = first.communicate(timeout=600)
    assert second.returncode == 1
    assert "another grade is running" in second.stderr and f"pid {first.pid}" in second.stderr
    assert "graded 4" in out, out + err
    assert_nothing_lost(monday["url"])


def test_a_lock_left_by_a_dead_run_does_not_block(monday):
    """Does a lock file that still names a run which died (a crash, a kill -9: the system
    released its lock) let the next run start?"""
    root = monday["root"]
    lock = root / ".kit" / "grade.lock"
    lock.write_text("pid 999999 on a machine that crashed, started 2026-01-01 00:00:00\n")
    after = kit(root, "grade", "--workers", "2")
    assert "another grade is running" not in after.stderr
    assert "already graded" in after.stdout
    assert_nothing_lost(monday["url"])


def test_regrading_one_student(monday):
    """Does `grade --student cy --force` grade cy alone, and `feedback --student cy` write
    only cy's page, naming each step in its summary?"""
    root = monday["root"]
    shutil.rmtree(root / "feedback", ignore_errors=True)
    regrade = kit(root, "grade", "--force", "--student", "cy")
    assert "graded 1," in regrade.stdout, regrade.stdout + regrade.stderr
    feedback = kit(root, "feedback", "--student", "cy")
    assert feedback.returncode == 0, feedback.stderr
    pages = sorted(p.parts[-3] for p in (root / "feedback").glob(f"*/{ID}/*.html"))
    assert pages == ["cy"]
    page = (root / "feedback" / "cy" / ID / f"{ID}.html").read_text()
    assert ">Test cell<" not in page and ">stable_softmax</a>" in page
    assert MANUAL["comment"] in page
    assert_nothing_lost(monday["url"])


def test_every_student_has_a_row_in_the_export_and_the_report(monday, tmp_path):
    """Does the export (and the report) list every student, refused ones with the reason and
    a fix, and the file that names no student, and say on the console, exit 1, that the
    refused ones show 0 until graded?"""
    root = monday["root"]
    assert kit(root, "grade").returncode == 1  # the refused inputs are still refused
    feedback = kit(root, "feedback")  # eve's and fay's notebooks are not graded: no page
    assert feedback.returncode == 1 and "2 handed-in notebooks have no feedback page" in (
        feedback.stderr), feedback.stdout + feedback.stderr
    assert f"feedback {ID}: no page for eve, fay: handed in, not graded" in feedback.stdout
    exported = kit(root, "export", "--to", str(tmp_path / "grades.csv"))
    assert exported.returncode == 1, exported.stderr  # eve's and fay's rows say 0 until graded
    warned = [line for line in exported.stdout.splitlines() if line.startswith("warning: ")]
    assert [line.split(":")[1].split()[0] for line in warned] == ["eve", "fay"], warned
    assert all("not gradable, its score in the file is not final until it is graded" in line
               for line in warned), warned
    table = (tmp_path / "grades.csv").open(encoding="utf-8-sig")
    rows = [r for r in csv.DictReader(table) if r["assignment"] == ID]
    status = {r["student_id"]: r["status"] for r in rows}
    assert status == {"ada": "graded", "bob": "graded", "cy": "graded", "dee": "graded",
                      "eve": "not gradable", "fay": "not gradable", "": "not gradable"}
    notes = {r["student_id"]: r["note"] for r in rows}
    assert "ask the student to resubmit" in notes["eve"]
    assert f"ask the student to hand in their {ID}.ipynb" in notes["fay"]
    assert "homework final(2).ipynb" in notes[""]
    cy = next(r for r in rows if r["student_id"] == "cy")
    with Gradebook(monday["url"]) as gradebook:
        assert float(cy["score"]) == gradebook.find_submission(ID, "cy").score
    report = kit(root, "report", "--to", str(tmp_path / "report.html"))
    assert report.returncode == 0, report.stderr
    page = (tmp_path / "report.html").read_text()
    for student in ["ada", "bob", "cy", "dee", "eve", "fay"]:
        assert f"<td>{student}</td>" in page


def test_outputs_on_a_course_with_nothing_graded(tmp_path):
    """On a new course, do grade, feedback, export and report say what there is to do (exit
    codes that tell the truth) instead of a traceback, and refuse a missing folder?"""
    root = Course.create(tmp_path / "course", ROOT, [ID]).root
    graded = kit(root, "grade")
    assert graded.returncode == 1 and "collect them first" in graded.stdout
    suggested = re.search(r"collect them first \((.+?) collect ID", graded.stdout).group(1)
    assert subprocess.run([*shlex.split(suggested), "collect", "--help"], cwd=root,
                          capture_output=True, env=nbgrader_env(), timeout=120).returncode == 0
    feedback = kit(root, "feedback")
    assert feedback.returncode == 0 and "skipped, nothing graded yet" in feedback.stdout
    report = kit(root, "report", "--to", "report.html")
    assert report.returncode == 0 and "Traceback" not in report.stderr
    assert "Nothing graded yet" in (root / "report.html").read_text()
    missing = kit(root, "export", "--to", "no/such/folder/grades.csv")
    assert missing.returncode == 1 and "Traceback" not in missing.stderr
    assert "no such folder" in missing.stderr


def pages_of(root):
    """{feedback page: its text} of a course."""
    return {p: p.read_text() for p in (root / "feedback").glob("*/*/*.html")}


def refused_in_one_line(result, *words):
    """Did a command exit 1 with one line (no traceback) holding `words`?"""
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    for word in words:
        assert word in result.stderr, result.stderr


def set_db_url(root, url):
    with (root / "nbgrader_config.py").open("a") as config:
        config.write(f"\nc.CourseDirectory.db_url = {url!r}\n")


@pytest.fixture
def graded_copy(monday, tmp_path):
    """A copy of the graded course (its pages written), whose gradebook the test may break;
    the copy of a PostgreSQL course keeps reading the module's database, untouched."""
    written = kit(monday["root"], "feedback")  # exit 1: eve's and fay's have no page
    assert "4 pages in feedback/" in written.stdout, written.stdout + written.stderr
    root = tmp_path / "course"
    shutil.copytree(monday["root"], root, ignore=shutil.ignore_patterns(".kit"))
    return root


def test_a_missing_gradebook_is_refused_before_anything_is_read_or_deleted(graded_copy,
                                                                           tmp_path):
    """With the gradebook gone, do export, report, feedback and grade refuse in one line naming
    db_url (no empty CSV, no empty report, no new gradebook, no page deleted)?"""
    root = graded_copy
    set_db_url(root, "sqlite:///moved-away.db")
    pages = pages_of(root)
    assert pages
    for command in (["export", "--to", str(tmp_path / "grades.csv")],
                    ["report", "--to", str(tmp_path / "report.html")], ["feedback"], ["grade"]):
        refused_in_one_line(kit(root, *command), "db_url", "does not exist", "autograded/")
    assert not (tmp_path / "grades.csv").exists() and not (tmp_path / "report.html").exists()
    assert not (root / "moved-away.db").exists()
    assert pages_of(root) == pages


def test_another_courses_gradebook_is_refused(graded_copy, tmp_path):
    """Is a gradebook that exists but records none of autograded/'s notebooks (another
    course's, an empty one) refused, naming what it lacks, with every page kept?"""
    root = graded_copy
    other = tmp_path / "other.db"
    with Gradebook(f"sqlite:///{other}"):
        pass  # an empty gradebook of nbgrader's schema
    set_db_url(root, f"sqlite:///{other}")
    pages = pages_of(root)
    for command in (["export", "--to", str(tmp_path / "grades.csv")], ["feedback"]):
        refused_in_one_line(kit(root, *command), "has no record of", f"autograded/ada/{ID}",
                            "db_url")
    assert pages_of(root) == pages and not (tmp_path / "grades.csv").exists()


# The URL under test replaces the course's own, so one gradebook kind is enough.
@pytest.mark.parametrize("week", ["sqlite"], indirect=True)
@pytest.mark.parametrize("url, words", [
    ("postgres://kit@localhost/course", ["'postgresql://'", "db_url"]),
    ("postgresql+psycopg2://kit:s3cret@127.0.0.1:1/course",
     ["cannot open the gradebook", "db_url", "kit:***@127.0.0.1"]),
    ("postgresql://kit:s3cret@127.0.0.1:1/course",
     ["driver psycopg is not installed", "-m pip install 'psycopg[binary]'", "kit:***@"]),
])
def test_a_database_url_that_cannot_work_is_one_line(graded_copy, tmp_path, url, words):
    """Is a `postgres://` URL, a driver not installed (with the pip command that installs it)
    or an unreachable server one line naming db_url, not 16 lines of SQLAlchemy, from export
    and from build (before it rewrites the release), and the URL's password never on the
    console?"""
    set_db_url(graded_copy, url)
    result = kit(graded_copy, "export", "--to", str(tmp_path / "g.csv"))
    refused_in_one_line(result, *words)
    assert "s3cret" not in result.stderr + result.stdout
    release = (graded_copy / "release" / ID / f"{ID}.ipynb").stat().st_mtime_ns
    built = kit(graded_copy, "build", ID)  # refused before it writes anything
    refused_in_one_line(built, *words)
    assert (graded_copy / "release" / ID / f"{ID}.ipynb").stat().st_mtime_ns == release
