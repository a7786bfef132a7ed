"""Does `export --format canvas|moodle` refuse, with the fix and without writing anything, a
class where a student lacks the field the LMS finds them by (or shares it), leave out (and
say) each student with a notebook awaiting a grade, and speak the course's language? And on a
class graded for real, through the command line: is every student there with the kit CSV's
score, the late one's penalty included?"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from autograder.course.directory import Course, db_url, nbgrader_env
from autograder.course.ledger import Problem, keep_problems, mark
from autograder.i18n import language
from autograder.plumbing.errors import OutputError
from autograder.tools import simulate
from tests.autograder.outputs import lms_class
from tests.autograder.outputs.lms_class import CANVAS_IDENTITY, MOODLE_IDENTITY, enrol, export, read
from tests.autograder.test_cli import CJK, english_left

pytestmark = pytest.mark.filterwarnings(
    "ignore:Object of type <Submitted:sqlalchemy.exc.SAWarning")
gradebook, course = lms_class.gradebook, lms_class.course  # the class's fixtures


def test_a_student_without_canvas_id_writes_nothing(course, gradebook):
    """Is a student without a Canvas user id refused, named with the fix, the old file left
    as it was and no temporary file left behind?"""
    gradebook.update_or_create_student("bob", lms_user_id=None)
    (course / "canvas.csv").write_text("the old file\n", encoding="utf-8")
    with pytest.raises(OutputError, match=r"none for bob: .*--lms-user-id=N.*nothing was "
                                          r"written"):
        export(course, "canvas")
    assert (course / "canvas.csv").read_text(encoding="utf-8") == "the old file\n"
    assert sorted(p.name for p in course.iterdir() if "canvas" in p.name) == ["canvas.csv"]


def test_a_student_only_in_submitted_needs_a_gradebook_record(course):
    """Is a student known from submitted/ alone (no gradebook record, so no Canvas id)
    refused rather than left out?"""
    (course / "submitted" / "dan" / "01_attention").mkdir(parents=True)
    (course / "submitted" / "dan" / "01_attention" / "01_attention.ipynb").write_text("{}")
    with pytest.raises(OutputError, match="none for dan"):
        export(course, "canvas")
    assert not (course / "canvas.csv").exists()


def test_a_notebook_not_graded_yet_leaves_its_student_out_and_is_said(course, gradebook):
    """Is a student with a submitted notebook without a grade left out of the file (an empty
    cell would clear a grade the LMS holds, and no 0 the student may not deserve is written),
    said on a line of its own, counted so that the command exits 1, and no cell of the file
    empty?"""
    enrol(gradebook, {"dan": ("Dan", "Brown", "dan@example.org", "104")})
    (course / "submitted" / "dan" / "01_attention").mkdir(parents=True)
    (course / "submitted" / "dan" / "01_attention" / "01_attention.ipynb").write_text("{}")
    for form in ("canvas", "moodle"):
        rows, said, empty = export(course, form)
        assert not any("Dan" in row or "104" in row for row in rows), rows
        assert len(rows) > 2 and all(all(row[5 if form == "canvas" else 3:]) for row in rows)
        assert empty == 1
        assert said[0] == "dan 01_attention: student left out of the file, not graded yet: " \
            "run grade"
        assert said[-1].startswith("1 student is left out of the file until 1 notebook has "
                                   "a grade")


def test_a_failed_grading_whose_reason_was_lost_exports_no_earlier_score(course, gradebook):
    """bob's notebook was graded once (1 point), then a new grading of it failed and grade was
    interrupted before it kept why (the ledger says failed, no problem recorded): is bob left
    out rather than given the earlier grading's score, and said, exit 1?"""
    notebook = course / "submitted" / "bob" / "01_attention" / "01_attention.ipynb"
    notebook.parent.mkdir(parents=True)
    notebook.write_text("{}")
    mark(course, "bob", "01_attention", notebook, "failed")
    rows, said, empty = export(course, "canvas")
    assert not any("102" in row for row in rows), rows
    assert empty == 1
    assert said[0] == ("bob 01_attention: student left out of the file, not graded yet: its "
                       "last grading failed and grade was interrupted before saying why; run "
                       "grade")


def test_a_refused_file_of_no_known_student_makes_the_export_exit_1(course, gradebook):
    """A file collect refused whose student could not be told: is it said, and counted so
    that the command exits 1 (a submission the file cannot hold)?"""
    keep_problems(course, "collect", ["01_attention"], [Problem(
        Path("inbox/Ada Lovelace_01.ipynb"), "the file name does not say whose it is",
        "rename it", assignment="01_attention")])
    rows, said, empty = export(course, "moodle")
    assert empty == 1
    assert said[0].startswith("not in the file, no student could be told"), said


def test_moodle_needs_an_email(course, gradebook):
    """Is a student without an email address refused, with the fix, and nothing written?"""
    gradebook.update_or_create_student("carol", email="")
    with pytest.raises(OutputError, match=r"none for carol: .*--email=ADDRESS"):
        export(course, "moodle")
    assert not (course / "moodle.csv").exists()


def test_two_students_with_one_email_are_refused(course, gradebook):
    """Would two students' grades land on one Moodle account? Then nothing is written."""
    gradebook.update_or_create_student("carol", email="bob@example.org")
    with pytest.raises(OutputError, match="bob@example.org: bob, carol"):
        export(course, "moodle")
    assert not (course / "moodle.csv").exists()


# -- the course's language ------------------------------------------------------------------


def test_chinese_course_says_it_in_chinese(course, gradebook):
    """In a Chinese course, are the lines said (an empty cell, the file written) and a
    refusal in Chinese, the file's columns still the ones the LMS reads?"""
    enrol(gradebook, {"dan": ("Dan", "Brown", "dan@example.org", "104")})
    (course / "submitted" / "dan" / "01_attention").mkdir(parents=True)
    (course / "submitted" / "dan" / "01_attention" / "01_attention.ipynb").write_text("{}")
    with language("zh"):
        rows, said, _ = export(course, "moodle")
        gradebook.update_or_create_student("carol", lms_user_id="")
        with pytest.raises(OutputError) as refused:
            export(course, "canvas")
    assert rows[0] == MOODLE_IDENTITY + ["01_attention", "02_heads"]
    assert said[0] == "dan 01_attention：此学生未写入文件，尚未评分：请运行 grade"
    assert said[1] == f"Moodle 成绩：{course / 'moodle.csv'}，3 个学生，2 次作业"  # dan left out
    lines = [*said, str(refused.value)]
    assert all(CJK.search(line) for line in lines) and not english_left("\n".join(lines))


# -- a real graded class, through the command line ------------------------------------------

KIT = Path(__file__).resolve().parents[3]

ID = "01_attention_by_hand"
HANDED_IN = {"ada": "2026-12-04 11:00:00+00:00",  # on time
             "bob": "2026-12-05 13:00:00+00:00",  # 1 d 1 h late: two started days, 20 %
             "cy": "2026-12-04 10:00:00+00:00"}   # on time, the blank release
ENROLLED = {"ada": ("Ada", "Lovelace", "ada@example.org", "201"),
            "bob": ("Bob", "Kahn", "bob@example.org", "202"),
            "cy": ("Cy", "Young", "cy@example.org", "203"),
            "dee": ("Dee", "Dee", "dee@example.org", "204")}  # hands in nothing


def kit(root, *args):
    return subprocess.run([sys.executable, "-m", "autograder", *args], cwd=root, text=True,
                          capture_output=True, timeout=900, env=nbgrader_env())


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """Assignment 01 graded with `grade`: ada correct on time, bob correct a day late (10 %
    a started day), cy the blank notebook, dee nothing; all four enrolled in the gradebook
    with names, email and Canvas user id."""
    root = Course.create(tmp_path_factory.mktemp("lms") / "course", KIT, [ID]).root
    shutil.copytree(KIT / "release", root / "release")
    with (root / "nbgrader_config.py").open("a", encoding="utf-8") as config:
        config.write(f"\nc.Deadlines.due_dates = {{{ID!r}: '2026-12-04 12:00:00 UTC'}}\n"
                     "c.PercentPerDay.percent_per_day = 10\n")
    release = nbformat.read(KIT / "release" / ID / f"{ID}.ipynb", as_version=4)
    source = nbformat.read(KIT / "source" / ID / f"{ID}.ipynb", as_version=4)
    notebooks = {"ada": simulate.correct(release, source),
                 "bob": simulate.correct(release, source), "cy": release}
    for student, notebook in notebooks.items():
        folder = root / "submitted" / student / ID
        folder.mkdir(parents=True)
        nbformat.write(notebook, folder / f"{ID}.ipynb")
        (folder / "timestamp.txt").write_text(HANDED_IN[student], encoding="utf-8")
    with Gradebook(db_url(root)) as gb:
        enrol(gb, ENROLLED)
    graded = kit(root, "grade", ID, "--workers", "1")
    assert graded.returncode == 0, graded.stdout + graded.stderr
    assert kit(root, "export", "--to", "grades.csv").returncode == 0
    return root


def test_real_class_canvas_file(graded_class):
    """In a graded class, is the Canvas file every enrolled student's row, each cell the kit
    CSV's score (bob's after his late penalty), dee's 0, and does export exit 0?"""
    done = kit(graded_class, "export", "--format", "canvas")
    assert done.returncode == 0, done.stdout + done.stderr
    rows = read(graded_class / "canvas.csv")
    kit_rows = {row[0]: row for row in read(graded_class / "grades.csv")[1:]
                if row[1] == ID}
    assert rows[0] == CANVAS_IDENTITY + [ID]
    assert rows[1][0] == "Points Possible" and rows[1][5] == kit_rows["ada"][3]
    by_id = {row[1]: row[5] for row in rows[2:]}
    assert by_id == {ENROLLED[s][3]: kit_rows[s][2] for s in ENROLLED}
    bob = dict(zip(read(graded_class / "grades.csv")[0], kit_rows["bob"], strict=True))
    assert float(bob["late_submission_penalty"]) > 0
    assert float(by_id["202"]) == pytest.approx(float(bob["raw_score"])
                                                - float(bob["late_submission_penalty"]))
    assert by_id["204"] == "0" and float(by_id["201"]) > 0 and by_id["203"] == "0"


def test_real_class_kit_csv_of_one_assignment(graded_class):
    """Does `export --to F ID` write the kit's CSV of that assignment alone, through
    nbgrader's own export, as `--format canvas ID` takes the id?"""
    done = kit(graded_class, "export", "--to", "one.csv", ID)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = read(graded_class / "one.csv")
    assert {row[1] for row in rows[1:]} == {ID, "TOTAL"}
    every = [row for row in read(graded_class / "grades.csv")[1:] if row[1] == ID]
    assert [row for row in rows[1:] if row[1] == ID] == every


def test_real_class_moodle_file(graded_class):
    """Is the Moodle file every student by email with the kit CSV's scores?"""
    done = kit(graded_class, "export", "--format", "moodle", "--to", "moodle.csv", ID)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = read(graded_class / "moodle.csv")
    kit_rows = {row[0]: row[2] for row in read(graded_class / "grades.csv")[1:]
                if row[1] == ID}
    assert rows[0] == MOODLE_IDENTITY + [ID]
    assert {row[2]: row[3] for row in rows[1:]} == {ENROLLED[s][2]: kit_rows[s]
                                                     for s in ENROLLED}


def test_real_class_command_line_refusals(graded_class):
    """Does the command exit 1 with the fix when a student lacks the field, writing
    nothing, and exit 1 naming the known ids for an unknown one?"""
    with Gradebook(db_url(graded_class)) as gb:
        gb.update_or_create_student("cy", email="")
    try:
        refused = kit(graded_class, "export", "--format", "moodle", "--to", "refused.csv")
    finally:
        with Gradebook(db_url(graded_class)) as gb:
            gb.update_or_create_student("cy", email=ENROLLED["cy"][2])
    assert refused.returncode == 1 and "none for cy" in refused.stderr
    assert not (graded_class / "refused.csv").exists()
    wrong = kit(graded_class, "export", "99_nothing")
    assert wrong.returncode == 1 and "unknown assignment id '99_nothing'" in wrong.stderr


def test_real_class_a_notebook_not_graded_yet(graded_class):
    """Does a submitted notebook not graded yet leave its student out of the file, say so,
    and make the command exit 1, the file still written with everyone else?"""
    folder = graded_class / "submitted" / "eve" / ID
    folder.mkdir(parents=True)
    shutil.copy(KIT / "release" / ID / f"{ID}.ipynb", folder)
    with Gradebook(db_url(graded_class)) as gb:
        enrol(gb, {"eve": ("Eve", "Ng", "eve@example.org", "205")})
    try:
        done = kit(graded_class, "export", "--format", "canvas", "--to", "pending.csv")
    finally:
        shutil.rmtree(graded_class / "submitted" / "eve")
        with Gradebook(db_url(graded_class)) as gb:
            gb.remove_student("eve")
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"eve {ID}: student left out of the file, not graded yet: run grade" in done.stdout
    written = read(graded_class / "pending.csv")
    assert not any("Ng, Eve" in row for row in written)
    assert {row[1] for row in written[2:]} == {"201", "202", "203", "204"}


def test_real_class_in_chinese(graded_class):
    """With c.Course.language = "zh", does the command say in Chinese what it wrote and what
    it refused?"""
    config = graded_class / "nbgrader_config.py"
    kept = config.read_text(encoding="utf-8")
    config.write_text(kept + 'c.Course.language = "zh"\n', encoding="utf-8")
    try:
        done = kit(graded_class, "export", "--format", "canvas", "--to", "canvas-zh.csv")
        with Gradebook(db_url(graded_class)) as gb:
            gb.update_or_create_student("dee", lms_user_id="")
        refused = kit(graded_class, "export", "--format", "canvas", "--to", "refused.csv")
    finally:
        config.write_text(kept, encoding="utf-8")
        with Gradebook(db_url(graded_class)) as gb:
            gb.update_or_create_student("dee", lms_user_id=ENROLLED["dee"][3])
    assert done.returncode == 0 and refused.returncode == 1
    assert "Canvas 成绩：canvas-zh.csv，4 个学生，1 次作业" in done.stdout
    assert "没有写出任何文件" in refused.stderr
    assert not english_left(done.stdout + refused.stdout + refused.stderr)
