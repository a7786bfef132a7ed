"""Does `regrade-check` say, per student, that a grade holds when the notebook is graded again,
and name what differs when it does not; does `grade --reseed` draw new hidden cases, say so,
and keep the new draw for later regrades?

One small course, graded as an instructor grades it: the real command line, real nbgrader,
the real sandbox."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import pytest

from autograder.course.directory import Course
from autograder.course.draw_keys import make_secret, secret_path
from autograder.course.ledger import read_status
from autograder.course.notebook_record import read_record
from autograder.grading.regrade_check import Verdict, differences
from autograder.tools import simulate
from tests.autograder.test_course_week import kit

ROOT = Path(__file__).resolve().parents[3]
ID = "01_attention_by_hand"
STUDENTS = ("solved", "wrong")


def autograded_path(root, student):
    return root / "autograded" / student / ID / f"{ID}.ipynb"


def findings_of(root, student):
    return [(f.kind, f.text, f.mistake)
            for f in read_record(nbformat.read(autograded_path(root, student), 4)).findings]


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = Course.create(tmp_path_factory.mktemp("regrade") / "course", ROOT, [ID])
    course.generate(ID)
    release = nbformat.read(course.root / "release" / ID / f"{ID}.ipynb", 4)
    source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", 4)
    course.submit("solved", ID, simulate.correct(release, source))
    course.submit("wrong", ID, simulate.with_mistake(
        release, source, simulate.mistakes_of(ROOT, ID)[0]))
    graded = kit(course.root, "grade", ID)
    assert graded.returncode == 0, graded.stdout + graded.stderr
    assert "made the course's secret" in graded.stdout  # an older course: the first grade
    return course.root


def test_a_regraded_class_keeps_every_grade(course):
    """Does regrade-check find each student's grade, failing cases and named mistakes the
    same when graded again, say so per student, and exit 0?"""
    checked = kit(course, "regrade-check", ID)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "solved: the same grade again" in checked.stdout
    assert "wrong: the same grade again" in checked.stdout
    assert "2 the same, 0 different, 0 not checked" in checked.stdout
    assert findings_of(course, "wrong")  # the wrong student's findings were compared


def test_plain_nbgrader_draws_what_grade_drew(course):
    """Does nbgrader's own `autograde`, run in the course with its config (the kit's stages,
    no draw key given), draw each notebook's hidden cases from the course's secret as `grade`
    did: the very same findings?"""
    before = findings_of(course, "wrong")
    Course(course).autograde(ID, "--student", "wrong")
    assert findings_of(course, "wrong") == before


def test_reseed_draws_anew_says_so_and_later_regrades_keep_it(course):
    """Does grade --reseed grade every notebook again with new hidden cases (the failing
    cases drawn anew), say so with the reseed, keep it in the ledger, and does a regrade
    check afterwards find the new grades holding?"""
    before = {s: read_status(course, s, ID) for s in STUDENTS}
    wrong_before = findings_of(course, "wrong")
    reseeded = kit(course, "grade", ID, "--reseed")
    assert reseeded.returncode == 0, reseeded.stdout + reseeded.stderr
    assert "--reseed: new hidden cases are drawn for the 2 notebooks" in reseeded.stdout
    after = {s: read_status(course, s, ID) for s in STUDENTS}
    for student in STUDENTS:
        assert after[student]["reseed"] and after[student]["reseed"] in reseeded.stdout
        assert after[student]["draws"] != before[student]["draws"]
    assert findings_of(course, "wrong") != wrong_before  # other sizes drawn, other labels
    checked = kit(course, "regrade-check", ID)
    assert checked.returncode == 0 and "2 the same" in checked.stdout, checked.stdout
    again = kit(course, "grade", ID, "--force")
    assert again.returncode == 0 and "--reseed" not in again.stdout
    assert {s: read_status(course, s, ID)["draws"] for s in STUDENTS} == {
        s: after[s]["draws"] for s in STUDENTS}


def test_a_grade_changed_since_is_named_and_exits_1(course):
    """When the course's autograded notebook no longer holds what grading gives it (here
    edited by hand: a finding gone), does regrade-check name the student, the cell and the
    finding, and exit 1?"""
    path = autograded_path(course, "wrong")
    kept = path.read_bytes()
    notebook = json.loads(kept)
    finding = notebook["metadata"]["kit"]["findings"].pop()
    path.write_text(json.dumps(notebook))
    try:
        checked = kit(course, "regrade-check", ID, "--student", "wrong")
    finally:
        path.write_bytes(kept)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "wrong: DIFFERENT when graded again:" in checked.stdout
    assert f"{finding['cell']}: found now: {finding['text']}" in checked.stdout


def test_another_secret_is_said_and_nothing_is_checked(course):
    """With the course's secret replaced (a lost .kit/), does regrade-check say that the
    notebooks' cases cannot be drawn again, for each student, and exit 1?"""
    path = secret_path(course)
    kept = path.with_name("kept-secret")
    shutil.move(path, kept)
    make_secret(path)
    try:
        checked = kit(course, "regrade-check", ID)
    finally:
        shutil.move(kept, path)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert checked.stdout.count("cannot be drawn again") == 2
    assert "0 the same, 0 different, 2 not checked" in checked.stdout


def test_a_submission_grade_refuses_is_named_and_exits_1(course):
    """With a third student's file in submitted/ that is not a notebook, does regrade-check
    name that student among those not checked, with grade's reason and fix, and exit 1, the
    others still checked?"""
    folder = course / "submitted" / "broken" / ID
    folder.mkdir(parents=True)
    (folder / f"{ID}.ipynb").write_text("not json")
    try:
        checked = kit(course, "regrade-check", ID)
    finally:
        shutil.rmtree(folder.parent)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "broken: not checked: grade refuses it: " in checked.stdout
    assert "2 the same, 0 different, 1 not checked" in checked.stdout


def test_differences_name_the_score_the_cell_and_each_finding():
    """Do two gradings of one notebook differ in words that name the total, the cell's
    points and every finding gone or new (with its mistake), and in none when alike?"""
    first = {"test_a": Verdict(2.0, (("value", "case 1: wrong", "swap"),)),
             "test_b": Verdict(1.0, ())}
    second = {"test_a": Verdict(0.0, (("value", "case 2: wrong", None),)),
              "test_b": Verdict(1.0, ())}
    assert differences(first, first) == []
    assert differences(first, second) == [
        "score 3 -> 1", "test_a: 2 -> 0 points", "test_a: no longer found: case 1: wrong (swap)",
        "test_a: found now: case 2: wrong"]
