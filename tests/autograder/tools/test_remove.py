"""`python -m autograder remove ID`: out of nbgrader's gradebook (its own API) and out of the
course, every file kept, refused while grades exist unless --force."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from nbgrader.api import MissingEntry

from autograder.build.course_folder import write_config
from autograder.cli import main
from autograder.course.directory import open_gradebook
from autograder.plumbing.kit_command import kit_command


def files(root):
    """{path relative to the course: bytes} of every file but the kit's books and gradebook."""
    return {p.relative_to(root): p.read_bytes() for p in root.rglob("*")
            if p.is_file() and ".kit" not in p.parts and p.name != "gradebook.db"}


@pytest.fixture
def course(tmp_path):
    """A course with two assignments in its folders and its gradebook: 10_gone, which ada
    handed in (a TA gave her cell 2 points by hand and a note file beside her notebook), and
    11_kept, handed in by bob."""
    root = tmp_path / "course"
    root.mkdir()
    write_config(root, "en", log=lambda line: None)
    for assignment_id, student in (("10_gone", "ada"), ("11_kept", "bob")):
        (root / "assignments" / assignment_id).mkdir(parents=True)
        (root / "assignments" / assignment_id / "notebook.py").write_text("# %% [markdown]\n")
        for top in ("source", "release"):
            (root / top / assignment_id).mkdir(parents=True)
            (root / top / assignment_id / f"{assignment_id}.ipynb").write_text("{}")
        for top in ("submitted", "autograded", "feedback"):
            (root / top / student / assignment_id).mkdir(parents=True)
            (root / top / student / assignment_id / f"{assignment_id}.ipynb").write_text(top)
        status = root / ".kit" / "status" / student / f"{assignment_id}.json"
        status.parent.mkdir(parents=True)
        status.write_text('{"state": "graded"}')
    (root / "submitted" / "ada" / "10_gone" / "notes.txt").write_text("the TA's note")
    with open_gradebook(root) as gradebook:
        for assignment_id, student in (("10_gone", "ada"), ("11_kept", "bob")):
            gradebook.add_assignment(assignment_id)
            gradebook.add_notebook(assignment_id, assignment_id)
            gradebook.add_grade_cell("cell", assignment_id, assignment_id, max_score=3,
                                     cell_type="code")
            gradebook.add_student(student)
            gradebook.add_submission(assignment_id, student)
        grade = gradebook.find_grade("cell", "10_gone", "10_gone", "ada")
        grade.manual_score = 2
        gradebook.db.commit()
    return root


def assignments_in(root):
    with open_gradebook(root) as gradebook:
        return sorted(a.name for a in gradebook.assignments)


def test_grades_in_the_gradebook_refuse_removal(course, capsys):
    """With ada's submission (and a TA's score) in the gradebook, is `remove 10_gone` refused
    (exit 1) in one line that counts them and names --force, with nothing changed?"""
    before = files(course)
    assert main(["--root", str(course), "remove", "10_gone"]) == 1
    said = capsys.readouterr().err
    assert said.count("\n") == 1, said
    assert "10_gone has grades in the gradebook: 1 submission, 1 of them with a score or " \
        "comment given by hand; nothing was changed" in said
    assert f"`{kit_command()} remove 10_gone --force`" in said
    assert assignments_in(course) == ["10_gone", "11_kept"]
    assert files(course) == before


def test_force_removes_it_from_the_gradebook_and_keeps_every_file(course, capsys):
    """With --force, is 10_gone out of nbgrader's gradebook (11_kept and bob's grade kept),
    out of the course's folders, and is every one of its files, ada's submission and the TA's
    note among them, kept byte for byte under removed/10_gone/, and the gradebook's rows of
    it (the TA's score by hand among them) in removed/10_gone/gradebook.json?"""
    before = files(course)
    assert main(["--root", str(course), "remove", "10_gone", "--force"]) == 0
    said = capsys.readouterr().out
    assert "10_gone: out of the gradebook (1 submission and its grades with it)" in said
    assert "10_gone: 6 folders moved, as they were, under removed/10_gone/" in said
    assert assignments_in(course) == ["11_kept"]
    with open_gradebook(course) as gradebook:
        assert gradebook.find_submission("11_kept", "bob") is not None
        with pytest.raises(MissingEntry):
            gradebook.find_submission("10_gone", "ada")
    after = files(course)
    moved = {path: data for path, data in before.items() if "10_gone" in path.parts}
    assert len(moved) == 7  # the TA's note among them
    kept_rows = json.loads(after.pop(Path("removed", "10_gone", "gradebook.json")))
    assert {p: d for p, d in after.items() if p.parts[0] == "removed"} == {
        Path("removed", "10_gone", p): d for p, d in moved.items()}
    # the TA's score, which lived only in the gradebook, kept, and said where
    [row] = kept_rows
    assert row["student"] == "ada" and row["notebooks"][0]["grades"] == [{
        "cell": "cell", "auto_score": None, "manual_score": 2.0, "extra_credit": None,
        "max_score": 3.0}]
    assert "10_gone: every score and comment the gradebook held of it, those given by hand " \
        "among them (1 submission), is kept in removed/10_gone/gradebook.json" in said
    assert {p: d for p, d in after.items() if p.parts[0] != "removed"} == {
        p: d for p, d in before.items() if p not in moved}
    assert not (course / ".kit" / "status" / "ada" / "10_gone.json").exists()
    assert (course / ".kit" / "status" / "bob" / "11_kept.json").exists()


def test_an_assignment_without_grades_goes_without_force(course, capsys):
    """Is an assignment the gradebook holds no submission of removed without --force, and a
    second removal of the same id kept beside the first (removed/ID-2)?"""
    with open_gradebook(course) as gradebook:
        gradebook.remove_submission("10_gone", "ada")
    assert main(["--root", str(course), "remove", "10_gone"]) == 0
    assert assignments_in(course) == ["11_kept"]
    (course / "source" / "10_gone").mkdir()
    assert main(["--root", str(course), "remove", "10_gone"]) == 0
    assert (course / "removed" / "10_gone-2" / "source" / "10_gone").is_dir()


def test_an_unknown_id_is_refused_naming_the_known(course, capsys):
    """Is an id neither the gradebook nor the course has refused, naming those they have?"""
    assert main(["--root", str(course), "remove", "99_none"]) == 1
    said = capsys.readouterr().err
    assert "unknown assignment id '99_none'" in said and "10_gone, 11_kept" in said
    assert main(["--root", str(course), "remove", "../course"]) == 1


def test_export_says_how_to_remove_an_assignment_the_course_lost(course, capsys):
    """After an assignment's folders are deleted by hand (the gradebook still has it), does
    export say on the console, and in the CSV's note of each row without a grade, how to
    remove it (not "run grade", which cannot grade it)?"""
    import shutil

    with open_gradebook(course) as gradebook:
        gradebook.remove_submission("10_gone", "ada")
    for folder in ("assignments", "source", "release", "autograded/ada", "feedback/ada"):
        shutil.rmtree(course / folder / "10_gone")
    assert main(["--root", str(course), "export", "--to", str(course / "grades.csv")]) == 0
    said = capsys.readouterr().out
    hint = ("10_gone is in the gradebook but no longer in the course (no source/10_gone/); "
            f"`{kit_command()} remove 10_gone` takes it out of the gradebook")
    assert f"warning: {hint}" in said
    with open(course / "grades.csv", newline="", encoding="utf-8-sig") as table:
        rows = [row for row in csv.DictReader(table) if row["assignment"] == "10_gone"]
    assert {row["student_id"]: row["status"] for row in rows} == {
        "ada": "not graded yet", "bob": "missing"}  # her notebook is still in submitted/
    assert all(row["note"] == hint for row in rows)


def test_a_due_date_of_the_removed_assignment_is_named_and_stops_no_grade(course, capsys):
    """With a due date of 10_gone in nbgrader_config.py, does remove say to delete that
    entry, and does grade's check of the deadlines then let the entry be (an id of neither
    the course nor removed/ still stops it, saying how to fix it)?"""
    from autograder.course.config_file import course_config
    from autograder.course.deadlines import DeadlineError, check_deadlines
    from autograder.course.ids import course_ids, removed_ids

    with open(course / "nbgrader_config.py", "a", encoding="utf-8") as config:
        config.write('\nc.Deadlines.due_dates = {"10_gone": "2026-12-04 23:59:00 UTC", '
                     '"11_kept": "2026-12-04 23:59:00 UTC"}\n')
    assert main(["--root", str(course), "remove", "10_gone", "--force"]) == 0
    said = capsys.readouterr().out
    assert "10_gone: nbgrader_config.py still names it in c.Deadlines.due_dates: delete " \
        "those entries" in said, said
    config = course_config(course)
    check_deadlines(config, course_ids(course), removed_ids(course))
    with pytest.raises(DeadlineError, match="10_gone.*correct the id, or delete its entry"):
        check_deadlines(config, course_ids(course))
