"""Does `collect` (and plain `nbgrader zip_collect` in the course) take a hostile LMS zip
without stopping the class or handing in for anyone, and say who is late, with real nbgrader
and a real gradebook?"""

from __future__ import annotations

import os
import shutil
import stat
import zipfile
from pathlib import Path

import nbformat
import pytest

from autograder.course.directory import Course, open_gradebook, run_nbgrader
from autograder.course.handed_in import students_files
from autograder.course.ledger import read_problems
from autograder.grading.parallel import grade
from autograder.i18n.zh import CATALOG
from autograder.outputs.collect import collect
from autograder.outputs.report import write_report
from autograder.outputs.roster import WARNED, roster
from autograder.tools import simulate
from tests.autograder.outputs.test_inbox import entry
from tests.autograder.outputs.test_outputs_zh import CJK

ROOT = Path(__file__).resolve().parents[3]
ID = "01_attention_by_hand"


@pytest.fixture
def course(tmp_path):
    course = Course.create(tmp_path / "course", ROOT, [ID])
    shutil.copytree(ROOT / "release" / ID, course.root / "release" / ID)
    return course


def release_bytes():
    return (ROOT / "release" / ID / f"{ID}.ipynb").read_bytes()


def solved_bytes():
    release = nbformat.read(ROOT / "release" / ID / f"{ID}.ipynb", as_version=4)
    source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", as_version=4)
    return nbformat.writes(simulate.correct(release, source)).encode()


def hostile_zip(folder: Path):
    """ada and cy hand in; bob uploads a zip holding a notebook of zed (who handed in nothing);
    dee hands in twice; eve's entry is a link; `../` tries to leave the course."""
    nested = folder / "nested.zip"
    with zipfile.ZipFile(nested, "w") as inner:
        entry(inner, f"zed_{ID}.ipynb", release_bytes(), 9)
        entry(inner, f"ada_{ID}.ipynb", release_bytes(), 9)
    path = folder / "lms.zip"
    with zipfile.ZipFile(path, "w") as archive:
        entry(archive, f"export/ada_{ID}.ipynb", release_bytes(), 8)
        entry(archive, f"bob_{ID}.zip", nested.read_bytes(), 9)
        entry(archive, f"../../cy_{ID}.ipynb", release_bytes(), 10)
        entry(archive, f"a/dee_{ID}.ipynb", release_bytes(), 11)
        entry(archive, f"b/dee_{ID}.ipynb", release_bytes(), 12)
        entry(archive, f"eve_{ID}.ipynb", b"../../../solutions/attention_by_hand.py", 13,
              mode=stat.S_IFLNK | 0o777)
    return path


def submitted(course):
    return sorted(p.parent.parent.name for p in
                  (course.root / "submitted").glob(f"*/{ID}/{ID}.ipynb"))


def test_a_hostile_zip_collects_the_class_and_names_the_rest(course, tmp_path):
    """Are the plain notebooks collected, nobody handed in for by another's archive, nothing
    written outside the course, and each refusal named?"""
    messages = []
    problems = collect(course.root, ID, hostile_zip(tmp_path), log=messages.append)
    assert submitted(course) == ["ada", "cy", "dee"]
    assert not list(tmp_path.glob(f"*cy_{ID}.ipynb")) and not (tmp_path.parent / "cy").exists()
    reasons = {p.path.name: p.reason for p in problems}
    assert "archive inside the inbox" in reasons[f"bob_{ID}.zip"]
    assert "symbolic link" in reasons[f"eve_{ID}.ipynb"]
    assert "a second file of dee's" in reasons[f"dee_{ID}.ipynb"]
    assert any(f"error: {tmp_path / 'lms.zip' / f'bob_{ID}.zip'}" in m for m in messages)


def test_plain_zip_collect_reads_the_zip_as_the_kit_does(course, tmp_path):
    """Does nbgrader's own zip_collect, with the course's configuration, take the same
    students from the same zip instead of unpacking bob's archive or stopping?"""
    archive = course.root / "downloaded" / ID / "archive"
    archive.mkdir(parents=True)
    shutil.copy(hostile_zip(tmp_path), archive / "lms.zip")
    result = run_nbgrader(course.root, "zip_collect", ID, "--force")
    assert submitted(course) == ["ada", "cy", "dee"]
    assert "archive inside the inbox" in result.stdout + result.stderr


def nested(top: Path, depth: int):
    """The folders top/d, top/d/d ... `depth` deep, deepest first."""
    folders = [top / "d"]
    for _ in range(depth - 1):
        folders.append(folders[-1] / "d")
    return folders[::-1]


@pytest.fixture
def deep_folder(course):
    """1,100 folders nested in cy's submission, made and removed one by one (mkdir with parents
    and rmtree would themselves recurse too deep, pytest's cleanup included)."""
    folders = nested(course.root / "submitted" / "cy" / ID, 1100)
    yield folders
    for folder in folders:
        if folder.exists():
            folder.rmdir()


def test_a_folder_nested_too_deep_is_that_students_problem(course, deep_folder, tmp_path):
    """Does a submission with 1,100 nested folders become a problem of that student while the
    others are graded (no RecursionError stops the class)?"""
    collect(course.root, ID, hostile_zip(tmp_path), log=lambda _: None)
    for folder in reversed(deep_folder):
        folder.mkdir()
    result = grade(course.root, [ID], workers=1, log=lambda _: None)
    assert sorted(s.student for s, _ in result.graded) == ["ada", "dee"]
    [refused] = [p for p in result.refused if p.student == "cy"]
    assert "nested more than 32 deep" in refused.reason


def test_lateness_is_said_at_collect_grade_and_report(course, tmp_path):
    """With a due date, do collect, grade and the report say who is late, by how much (and
    grade and the report what it cost), and does collect flag a zip whose every entry carries
    one time (the LMS's export time, not the students')?"""
    config = course.root / "nbgrader_config.py"
    config.write_text(config.read_text() + f"\nc.Deadlines.due_dates = {{'{ID}': "
                      "'2026-12-01 10:00:00 UTC'}\n")
    path = tmp_path / "export.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for student in ["ada", "bob", "cy"]:
            entry(archive, f"{student}_{ID}.ipynb", solved_bytes(), 12)
    messages = []
    problems = collect(course.root, ID, path, log=messages.append)
    assert [m for m in messages if m.startswith("late:")] == [
        "late: ada by 2:00:00", "late: bob by 2:00:00", "late: cy by 2:00:00"]
    [stamped] = problems
    assert stamped.graded_anyway and "the export's time" in stamped.reason
    assert "(?P<timestamp>...)" in stamped.fix
    messages = []
    grade(course.root, [ID], workers=1, log=messages.append)
    late = [m for m in messages if m.startswith("late:")]
    # 10 points, a started day late costs 10 % (c.PercentPerDay in the course's config)
    assert late == [f"late: {s} {ID} by 2:00:00, penalty 1 of 10 points" for s in
                    ["ada", "bob", "cy"]]
    page = write_report(course.root, [ID], course.root / "report.html",
                        log=lambda _: None).path.read_text()
    section = page.split("<h2 id='late'>")[1].split("<h2 ")[0]
    assert all(s in section for s in ["ada", "bob", "cy"]) and "2:00:00" in section
    with open_gradebook(course.root) as gradebook:  # the warning is a row, not a refusal
        [zip_row] = [row for row in roster(course.root, gradebook) if not row.student]
    assert zip_row.status == WARNED and "the export's time" in zip_row.note


def test_collect_speaks_the_course_language(course, tmp_path):
    """In a Chinese course, is every line collect prints Chinese: the refused file, who is
    late, how many were collected?"""
    config = course.root / "nbgrader_config.py"
    config.write_text(config.read_text().replace('c.Course.language = "en"',
                                                 'c.Course.language = "zh"')
                      + f"\nc.Deadlines.due_dates = {{'{ID}': '2026-12-01 10:00:00 UTC'}}\n")
    path = tmp_path / "lms.zip"
    with zipfile.ZipFile(path, "w") as archive:
        entry(archive, f"ada_{ID}.ipynb", release_bytes(), 9)
        entry(archive, f"bob_{ID}.ipynb", release_bytes(), 11)
        entry(archive, "notes.txt", b"not a notebook", 9)
    messages = []
    collect(course.root, ID, path, log=messages.append)
    assert CATALOG["collected {assignment}: {new} new, {newer} newer than the one held, {same} "
                   "the same as the one held (left as it is), {older} older (not collected); "
                   "{held} in submitted/"].format(
        assignment=ID, new=2, newer=0, same=0, older=0,
        held=CATALOG["{count} submissions"].format(count=2)) in messages
    assert CATALOG["late: {student} by {by}"].format(student="bob", by="1:00:00") in messages
    assert [m for m in messages if m.startswith("错误：") and "notes.txt" in m]
    assert all(CJK.search(m) for m in messages), messages


def test_an_older_export_never_puts_older_notebooks_back(course, tmp_path):
    """ada and bob are collected from a newer export; then an older export (bob's notebook in
    it older, ada's the same) is collected: is bob's newer notebook kept and that said, is
    ada's left as it is (a time set by hand in her timestamp.txt kept), and does a later
    export replace bob's, counting each kind?"""
    def export(name, hour, notebooks):
        path = tmp_path / name
        with zipfile.ZipFile(path, "w") as archive:
            for student, data in notebooks.items():
                entry(archive, f"{student}_{ID}.ipynb", data, hour)
        return path

    said = []
    collect(course.root, ID, export("newer.zip", 12, {"ada": release_bytes(),
                                                      "bob": solved_bytes()}), log=said.append)
    assert any("2 new, 0 newer" in line for line in said), said
    held = course.root / "submitted"
    (held / "ada" / ID / "timestamp.txt").write_text("2026-12-01 09:30:00 UTC")  # by hand

    said = []
    collect(course.root, ID, export("older.zip", 8, {"ada": release_bytes(),
                                                     "bob": release_bytes()}), log=said.append)
    assert (held / "bob" / ID / f"{ID}.ipynb").read_bytes() == solved_bytes()
    assert [line for line in said if line.startswith("kept bob's submission")], said
    assert any("0 new, 0 newer than the one held, 1 the same as the one held (left as it "
               "is), 1 older (not collected); 2 submissions in submitted/" in line
               for line in said), said
    assert (held / "ada" / ID / "timestamp.txt").read_text() == "2026-12-01 09:30:00 UTC"

    said = []
    collect(course.root, ID, export("latest.zip", 14, {"bob": release_bytes()}),
            log=said.append)
    assert (held / "bob" / ID / f"{ID}.ipynb").read_bytes() == release_bytes()
    assert any("0 new, 1 newer than the one held" in line for line in said), said


NAMED = r".*/(?P<student_id>\w+)--(?P<timestamp>[\d :-]+)--(?P<file_id>.+)"


def test_the_time_in_a_files_name_decides_newer_and_late(course, tmp_path):
    """With a --pattern whose timestamp group reads each time from the name (files dated by
    the copy, not the student): of two in one inbox, is the one named later taken; is a
    notebook named earlier than the one held left, one named later taken, and who is late
    said from the name's time, as grade reads it, past the due date by what grade would say,
    and within the grace minutes said as such?"""
    config = course.root / "nbgrader_config.py"
    with config.open("a", encoding="utf-8") as handle:
        handle.write(f"\nc.Deadlines.due_dates = {{{ID!r}: '2026-12-05 00:00:00 UTC'}}\n"
                     "c.PercentPerDay.grace_minutes = 30.0\n")

    def inbox(name, files):  # each file a minute later than the one before, by its date
        folder = tmp_path / name
        folder.mkdir()
        for minute, (file_name, data) in enumerate(files.items()):
            (folder / file_name).write_bytes(data)
            os.utime(folder / file_name, (1_800_000_000 + 60 * minute,) * 2)
        return folder

    said = []
    collect(course.root, ID, inbox("first", {  # yan's second file written last, named earlier
        f"yan--2026-12-04 20:00:00--{ID}.ipynb": solved_bytes(),
        f"zoe--2026-12-05 00:10:00--{ID}.ipynb": release_bytes(),
        f"kim--2026-12-06 09:00:00--{ID}.ipynb": release_bytes(),
        f"yan--2026-12-04 17:00:00--{ID}.ipynb": release_bytes()}), NAMED, log=said.append)
    assert any("yan--2026-12-04 17:00:00" in line and "a second file of yan's" in line
               for line in said), said
    assert "late: kim by 1 d 9:00:00" in said, said
    assert "late: zoe by 0:10:00, within the course's 30 minutes of grace (no penalty)" in said
    said = []
    collect(course.root, ID, inbox("second", {  # copied later, named earlier
        f"yan--2026-12-04 18:00:00--{ID}.ipynb": release_bytes()}), NAMED, log=said.append)
    held = course.root / "submitted" / "yan" / ID
    assert (held / f"{ID}.ipynb").read_bytes() == solved_bytes()
    assert any(line.startswith("kept yan's submission in submitted/") for line in said), said
    collect(course.root, ID, inbox("third", {
        f"yan--2026-12-04 21:00:00--{ID}.ipynb": release_bytes()}), NAMED, log=said.append)
    assert (held / f"{ID}.ipynb").read_bytes() == release_bytes()
    assert (held / "timestamp.txt").read_text().startswith("2026-12-04 21:00:00")


def test_a_newer_notebook_keeps_the_files_beside_the_older(course, tmp_path):
    """A TA's notes beside bob's notebook in submitted/ (a file and a folder of them): does a
    newer notebook collected in its place keep them, leave nothing aside in .kit/, record
    the notebook alone as the student's, and is a
    zip kept in the course's downloaded/ID/ (nbgrader's place for LMS zips) collected from
    there and left where it is, with the rest of that folder?"""
    def export(name, hour, data):
        path = tmp_path / name
        with zipfile.ZipFile(path, "w") as archive:
            entry(archive, f"bob_{ID}.ipynb", data, hour)
        return path

    collect(course.root, ID, export("first.zip", 8, release_bytes()), log=lambda _: None)
    held = course.root / "submitted" / "bob" / ID
    (held / "ta_notes.txt").write_text("asked for an extension")
    (held / "notes").mkdir()
    (held / "notes" / "more.txt").write_text("see the forum")
    said = []
    collect(course.root, ID, export("second.zip", 12, solved_bytes()), log=said.append)
    assert any("0 new, 1 newer than the one held" in line
               and line.endswith("; 1 submission in submitted/") for line in said), said
    assert (held / f"{ID}.ipynb").read_bytes() == solved_bytes()
    assert (held / "ta_notes.txt").read_text() == "asked for an extension"
    assert (held / "notes" / "more.txt").read_text() == "see the forum"
    assert not (course.root / ".kit" / "collect-aside").exists()
    assert students_files(course.root, ID, "bob") == {f"{ID}.ipynb"}  # not the TA's notes
    inside = course.root / "downloaded" / ID / "mine.zip"
    inside.parent.mkdir(parents=True, exist_ok=True)
    inside.write_bytes(export("third.zip", 14, release_bytes()).read_bytes())
    (inside.parent / "notes.txt").write_text("mine")
    collect(course.root, ID, inside, log=lambda _: None)
    assert (held / f"{ID}.ipynb").read_bytes() == release_bytes()
    collect(course.root, ID, course.root / "downloaded", log=lambda _: None)  # a folder of it
    assert inside.is_file() and (inside.parent / "notes.txt").read_text() == "mine"


def test_a_file_that_is_no_notebook_is_said_at_collect_and_kept(course, tmp_path):
    """Is a notebook cut short (not JSON) said at collect, one error line naming the file and
    the fix, as grade would say it, while the student's file is still collected, and does the
    count of what was collected say that one of them is no notebook?"""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / f"ada_{ID}.ipynb").write_bytes(release_bytes())
    (inbox / f"carol_{ID}.ipynb").write_bytes(release_bytes()[:5000])
    messages = []
    problems = collect(course.root, ID, inbox, log=messages.append)
    assert submitted(course) == ["ada", "carol"]
    assert [(p.path.name, p.student, p.reason) for p in problems] == \
        [(f"carol_{ID}.ipynb", "carol", "not a Jupyter notebook (NotJSONError)")]
    said = [m for m in messages if m.startswith("error: ")]
    assert len(said) == 1 and f"carol_{ID}.ipynb" in said[0] and "resubmit" in said[0]
    summary = next(m for m in messages if m.startswith(f"collected {ID}: "))
    assert "2 new" in summary and "(1 of those collected no notebook" in summary, summary


def test_a_shared_inbox_collected_for_each_assignment_leaves_no_stale_refusal(tmp_path):
    """One inbox of two assignments, collected with each id in turn: once 02's own collect
    took a student's 02 notebook, does ID's collect say nothing of that same file (kept,
    its refusal marked the graded 02 notebook 'graded with warnings'), while a file 02's
    collect did not take is still refused and kept?"""
    other = "02_embeddings"
    course = Course.create(tmp_path / "course", ROOT, [ID, other])
    for assignment_id in (ID, other):
        shutil.copytree(ROOT / "release" / assignment_id, course.root / "release" / assignment_id)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for student in ("ada", "bob"):
        (inbox / f"{student}_{ID}.ipynb").write_bytes(release_bytes())
        (inbox / f"{student}_{other}.ipynb").write_bytes(
            (ROOT / "release" / other / f"{other}.ipynb").read_bytes())
    collect(course.root, other, inbox, log=lambda _: None)
    (inbox / f"bob_{other}.ipynb").write_bytes(release_bytes())  # since changed: not held
    said = []
    collect(course.root, ID, inbox, log=said.append)
    kept = read_problems(course.root, [other])
    assert [p.student for p in kept] == ["bob"], kept
    assert not any(f"ada_{other}" in line for line in said), said


def test_a_file_of_another_assignment_is_refused_and_not_counted_as_no_notebook(course,
                                                                              tmp_path):
    """An inbox holding each student's notebook of ID and one of another assignment: is each
    other file refused, naming the id to collect it with, while the count of what was
    collected says nothing of notebooks that are none?"""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for student in ("ada", "bob"):
        (inbox / f"{student}_{ID}.ipynb").write_bytes(release_bytes())
        (inbox / f"{student}_02_embeddings.ipynb").write_bytes(release_bytes())
    messages = []
    collect(course.root, ID, inbox, log=messages.append)
    assert submitted(course) == ["ada", "bob"]
    assert sum("collect it with its own assignment id" in m for m in messages) == 2, messages
    summary = next(m for m in messages if m.startswith(f"collected {ID}: "))
    assert "2 new" in summary and "no notebook" not in summary, summary


def test_a_student_id_grade_would_refuse_is_refused_at_collect(course, tmp_path):
    """A --pattern that takes any name collects 王小明's notebook: is it refused at collect
    (grade would refuse the folder), naming the id and the fix, and ada's collected?"""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for student in ("ada", "王小明"):
        (inbox / f"{student}_{ID}.ipynb").write_bytes(release_bytes())
    said = []
    problems = collect(course.root, ID, inbox, log=said.append,
                       file_pattern=r".*/(?P<student_id>[^/_]+)_(?P<file_id>\d\d_[a-z0-9_]+"
                                    r"\.ipynb)$")
    [refused] = problems
    assert "its student id '王小明' is not one the course can use" in refused.reason
    assert not (course.root / "submitted" / "王小明").exists()
    assert (course.root / "submitted" / "ada" / ID / f"{ID}.ipynb").is_file()
