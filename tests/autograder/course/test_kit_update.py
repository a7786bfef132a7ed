"""Does `update` bring a later kit's mended files into a course init made, without ever
losing a file of the instructor's: taking only what is still as init copied it, keeping each
replaced file, and saying what differs and how to take it?

The later kit is a copy of the kit's course changed here (a mended check, a new file, a
reworded notebook), handed to update as the kit it compares with."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.build.course_folder import init_course
from autograder.course import kit_update
from autograder.course.directory import copy_assignments
from autograder.course.kit_update import (
    KIT_COURSE,
    PAST,
    REPLACED,
    UNTOLD,
    States,
    UpdateError,
    digest,
    newer_in_kit,
    read_record,
    record_copied,
    record_path,
    states,
    update,
)

ID = "03_scaled_dot_product"
CHECKS = f"assignments/{ID}/checks.py"
NOTEBOOK = f"assignments/{ID}/notebook.py"
PROBES = f"assignments/{ID}/probes.py"
OTHER = "01_attention_by_hand"
MENDED = "\n# a rule mended in a later kit\n"


@pytest.fixture
def kit(tmp_path):
    """A later kit: the kit's course (its shared modules and ID) to change in a test."""
    later = tmp_path / "kit" / "assignments"  # its parent a course whose assignments/ it is
    copy_assignments(KIT_COURSE, later, [ID])
    return later


def course_from(kit, folder, recorded=True):
    """A course's assignments/ as init copies them from `kit` (and its record, unless
    `recorded` is False: a course made by a kit before the record)."""
    copy_assignments(kit, folder / "assignments", [ID])
    if recorded:
        record_copied(folder, kit, [ID])
    return folder


def said_by_a_stopped_apply(root, kit):
    """What an --apply that an OSError stops says before the error."""
    said = []
    with pytest.raises(OSError):
        update(root, kit, [ID], apply=True, log=said.append)
    return said


def as_a_later_kit_took(root, path):
    """The record of `root` as a later kit's update leaves it, having taken `path` as the
    course now holds it."""
    record_path(root).write_text(json.dumps({"lists_absent": True, "files": {
        **read_record(root).files, path: digest(root / path)}}))


def state_of(root, kit, path):
    return next(f.state for f in states(root, kit, [ID]) if f.path == path)


def test_a_mended_check_is_listed_then_taken_and_the_old_one_kept(kit, tmp_path):
    """With the kit's checks.py mended after init, does a dry run list it as newer and change
    nothing, --apply take it (exit 0) and keep the course's under .kit/replaced/, and the next
    update find every file the same?"""
    root = course_from(kit, tmp_path / "course")
    before = (root / CHECKS).read_text()
    (kit / ID / "checks.py").write_text(before + MENDED)
    said = []
    assert update(root, kit, [ID], log=said.append) == 0
    assert (root / CHECKS).read_text() == before
    assert any(States.NEWER in line and CHECKS in line for line in said), said
    assert update(root, kit, [ID], apply=True, log=said.append) == 0
    assert (root / CHECKS).read_text() == before + MENDED
    kept = list((root / ".kit" / REPLACED).glob(f"*/{CHECKS}"))
    assert len(kept) == 1 and kept[0].read_text() == before
    assert {f.state for f in states(root, kit, [ID])} == {States.SAME}


def test_the_instructors_own_change_is_never_taken_unless_named(kit, tmp_path, monkeypatch):
    """A checks.py the instructor changed, and the kit's mended too: is it kept by --apply
    (exit 1, the file named with how to compare and take it), and taken only with --take, the
    instructor's kept, even when the id and the path are given twice?"""
    root = course_from(kit, tmp_path / "course")
    monkeypatch.chdir(root)  # --take's paths are typed where update runs
    theirs = (root / CHECKS).read_text() + "\n# the instructor's own case\n"
    (root / CHECKS).write_text(theirs)
    (kit / ID / "checks.py").write_text((kit / ID / "checks.py").read_text() + MENDED)
    said = []
    assert update(root, kit, [ID], apply=True, log=said.append) == 1
    assert (root / CHECKS).read_text() == theirs
    assert state_of(root, kit, CHECKS) == States.BOTH
    assert any("--take" in line for line in said) and any("diff" in line for line in said)
    assert update(root, kit, [ID, ID], apply=True, take=[CHECKS, CHECKS],
                  log=said.append) == 0
    assert MENDED in (root / CHECKS).read_text()
    assert [p.read_text() for p in (root / ".kit" / REPLACED).glob(f"*/{CHECKS}")] == [theirs]


def test_a_file_kept_with_keep_says_so_then_and_after(kit, tmp_path, monkeypatch):
    """A checks.py the instructor changed, the kit's mended too: does a dry run naming it
    with --keep say on its line that it stays the course's own; after --apply --keep, does the
    next update say it was kept by an earlier --keep (and not after it is taken)?"""
    root = course_from(kit, tmp_path / "course")
    monkeypatch.chdir(root)
    (root / CHECKS).write_text((root / CHECKS).read_text() + "\n# mine\n")
    (kit / ID / "checks.py").write_text((kit / ID / "checks.py").read_text() + MENDED)
    said = []
    assert update(root, kit, [ID], keep=[CHECKS], log=said.append) == 0
    [line] = [line for line in said if line.endswith(CHECKS + " (named with --keep: stays the "
                                                               "course's own)")]
    assert States.BOTH in line
    assert update(root, kit, [ID], apply=True, keep=[CHECKS], log=said.append) == 0
    assert read_record(root).kept == {CHECKS}
    said = []
    assert update(root, kit, [ID], log=said.append) == 0
    assert f"  {States.YOURS}: {CHECKS} (kept as the course's own by an earlier --keep)" in said
    assert update(root, kit, [ID], apply=True, take=[CHECKS], log=said.append) == 0
    assert read_record(root).kept == frozenset()


def test_a_change_of_the_course_alone_or_a_deleted_file_is_said_and_left(kit, tmp_path):
    """A reference.py only the instructor changed, and a probes.py they deleted, the kit's
    as init copied them: is each said, left as it is (not put back), and --apply still exit
    0, as nothing needs a decision?"""
    root = course_from(kit, tmp_path / "course")
    reference, probes = root / "assignments" / ID / "reference.py", \
        root / "assignments" / ID / "probes.py"
    reference.write_text(reference.read_text() + "# mine\n")
    probes.unlink()
    said = []
    assert update(root, kit, [ID], apply=True, log=said.append) == 0
    assert not probes.exists() and reference.read_text().endswith("# mine\n")
    assert state_of(root, kit, f"assignments/{ID}/probes.py") == States.DELETED
    assert state_of(root, kit, f"assignments/{ID}/reference.py") == States.YOURS
    assert newer_in_kit(root, kit, [ID]) is None


def test_keeping_a_needed_file_deleted_says_the_assignment_cannot_be_graded(
        kit, tmp_path, monkeypatch):
    """A checks.py the instructor deleted, kept deleted when the kit mends it: is the
    instructor told the assignment can be neither built nor graded, and how to mend it?"""
    root = course_from(kit, tmp_path / "course")
    monkeypatch.chdir(root)
    (root / CHECKS).unlink()
    (kit / ID / "checks.py").write_text((kit / ID / "checks.py").read_text() + MENDED)
    said = []
    assert update(root, kit, [ID], apply=True, keep=[CHECKS], log=said.append) == 0
    assert f"{ID} cannot be built or graded without its checks.py: write your own there, or " \
        f"take the kit's (--take {CHECKS})" in said, said


def test_a_deleted_file_the_kit_mended_since_is_asked_and_kept_deleted_when_so_named(
        kit, tmp_path, monkeypatch):
    """A probes.py the instructor deleted, which the kit mended since: is it asked about
    (--apply exit 1, not put back, grade's note names it), does --keep say it stays deleted
    and end the asking, and does the kit's next mend ask again, --take putting it back?"""
    root = course_from(kit, tmp_path / "course")
    monkeypatch.chdir(root)
    (root / PROBES).unlink()
    (kit / ID / "probes.py").write_text((kit / ID / "probes.py").read_text() + MENDED)
    assert state_of(root, kit, PROBES) == States.DELETED_MENDED
    said = []
    assert update(root, kit, [ID], apply=True, log=said.append) == 1
    assert not (root / PROBES).exists()
    assert f"deleted in the course, and mended in the kit since init copied it: {PROBES}" in \
        "\n".join(said), said
    assert "1 file the kit has is missing from the course and stays undecided" in \
        "\n".join(said) and "compare it with the kit's first" not in "\n".join(said), said
    assert "newer file of " + ID in newer_in_kit(root, kit, [ID])
    said = []
    assert update(root, kit, [ID], keep=[PROBES], log=said.append) == 0  # a dry run
    assert "1 file would stay out of the course" in "\n".join(said), said
    said = []
    assert update(root, kit, [ID], apply=True, keep=[PROBES], log=said.append) == 0
    assert f"kept {PROBES} deleted from the course" in "\n".join(said), said
    assert "cannot be built or graded" not in "\n".join(said), said  # probes.py is optional
    assert not (root / PROBES).exists() and state_of(root, kit, PROBES) == States.DELETED
    (kit / ID / "probes.py").write_text((kit / ID / "probes.py").read_text() + MENDED)
    assert update(root, kit, [ID], apply=True, log=lambda _: None) == 1
    assert update(root, kit, [ID], apply=True, take=[PROBES], log=lambda _: None) == 0
    assert (root / PROBES).read_text() == (kit / ID / "probes.py").read_text()


def test_an_assignment_that_lost_its_notebook_is_still_compared_and_can_have_it_back(
        kit, tmp_path, monkeypatch):
    """An assignment whose notebook.py was deleted, in a course with a record and in one made
    before it: is it still one update compares (not "the course did not take it"), its
    notebook said deleted or asked about, the folder named with its fix (not in a build
    command, which would refuse it), and the notebook put back by --take?"""
    for recorded in (True, False):
        root = course_from(kit, tmp_path / f"course-{recorded}", recorded=recorded)
        monkeypatch.chdir(root)
        (root / NOTEBOOK).unlink()
        said = []
        update(root, kit, [ID], log=said.append)
        state = States.DELETED if recorded else States.ABSENT
        assert f"{state}: {NOTEBOOK}" in "\n".join(said), said
        if recorded:  # a check mended meanwhile is taken
            (kit / ID / "checks.py").write_text((kit / ID / "checks.py").read_text() + MENDED)
            said = []
            update(root, kit, [ID], apply=True, keep=[NOTEBOOK], log=said.append)
            said = "\n".join(said)
            assert f"took the kit's {CHECKS}" in said, said
            assert f"assignments/{ID}/ has no notebook.py" in said, said
            assert f"validate {ID}" not in said, said  # it would refuse the folder
        assert update(root, kit, [], apply=True, take=[NOTEBOOK], log=lambda _: None) == 0
        assert (root / NOTEBOOK).read_text() == (kit / ID / "notebook.py").read_text()


def test_a_path_is_taken_however_it_is_typed(kit, tmp_path, monkeypatch):
    """Is a --take path typed with ./, absolute, or from inside the assignment's folder the
    file update lists, and one outside the course refused naming it?"""
    root = course_from(kit, tmp_path / "course", recorded=False)
    (kit / ID / "checks.py").write_text((kit / ID / "checks.py").read_text() + MENDED)
    (kit / ID / "reference.py").write_text((kit / ID / "reference.py").read_text() + MENDED)
    monkeypatch.chdir(root)
    assert update(root, kit, [ID], apply=True, take=[f"./{CHECKS}"], log=lambda _: None) == 1
    assert MENDED in (root / CHECKS).read_text()
    monkeypatch.chdir(root / "assignments" / ID)
    assert update(root, kit, [ID], apply=True, take=["reference.py"], log=lambda _: None) == 0
    assert MENDED in (root / "assignments" / ID / "reference.py").read_text()
    with pytest.raises(UpdateError, match="not in the course"):
        update(root, kit, [ID], apply=True, take=[str(kit / ID / "checks.py")])


def test_an_older_course_takes_nothing_it_cannot_tell_and_learns_what_is_the_same(kit,
                                                                                   tmp_path):
    """In a course made before the record, is a file that differs from the kit's left alone
    by --apply (not known whether the instructor changed it), and are the files found the
    same recorded, so that the kit's next mend of one of them is newer?"""
    root = course_from(kit, tmp_path / "course", recorded=False)
    (kit / ID / "checks.py").write_text((kit / ID / "checks.py").read_text() + MENDED)
    assert update(root, kit, [ID], apply=True, log=lambda _: None) == 1
    assert MENDED not in (root / CHECKS).read_text()
    assert state_of(root, kit, CHECKS) == States.UNKNOWN
    assert NOTEBOOK in read_record(root).files and read_record(root).files[CHECKS] == UNTOLD
    (kit / ID / "notebook.py").write_text((kit / ID / "notebook.py").read_text() + MENDED)
    assert state_of(root, kit, NOTEBOOK) == States.NEWER


def test_a_file_new_in_the_kit_is_added_and_a_changed_notebook_asks_for_a_build(kit,
                                                                                tmp_path):
    """Is a file the later kit added taken by --apply, and does a taken notebook.py name the
    build to run (its release changes), while a taken checks.py alone does not?"""
    root = course_from(kit, tmp_path / "course")
    (kit / ID / "extra_cases.py").write_text("CASES = []\n")
    (kit / ID / "notebook.py").write_text((kit / ID / "notebook.py").read_text() + MENDED)
    said = []
    assert update(root, kit, [ID], apply=True, log=said.append) == 0
    assert (root / "assignments" / ID / "extra_cases.py").exists()
    assert any(f"build {ID}" in line for line in said), said
    (kit / ID / "checks.py").write_text((kit / ID / "checks.py").read_text() + MENDED)
    said.clear()
    assert update(root, kit, [ID], apply=True, log=said.append) == 0
    assert not any("build" in line for line in said) and any("validate" in line for line in said)


@pytest.mark.parametrize("record", ['{"files": "abc"}', '{"files": {"a": 1}}', "[]", "{"])
def test_a_wrong_id_path_or_record_is_refused_before_anything_is_written(kit, tmp_path,
                                                                        monkeypatch, record):
    """Are an id the kit lacks, a --take path that is no file of the kit's, and a record
    that is no table of digests refused, naming the fix, with nothing written?"""
    root = course_from(kit, tmp_path / "course")
    monkeypatch.chdir(root)
    (kit / ID / "checks.py").write_text((kit / ID / "checks.py").read_text() + MENDED)
    recorded = record_path(root).read_text()
    with pytest.raises(UpdateError, match="not one of the kit's assignments"):
        update(root, kit, ["10_mine"], apply=True)
    with pytest.raises(UpdateError, match="as update lists it"):
        update(root, kit, [ID], apply=True, take=["checks.py"])
    record_path(root).write_text(record)
    with pytest.raises(UpdateError, match="cannot be read"):
        update(root, kit, [ID], apply=True)
    assert record_path(root).read_text() == record and MENDED not in (root / CHECKS).read_text()
    assert not (root / ".kit" / REPLACED).exists() and recorded


def test_an_assignment_of_the_courses_own_named_as_the_kits_is_not_compared(kit, tmp_path):
    """A course whose record holds none of an assignment's files (the instructor's own,
    under one of the kit's ids) or that holds none of the kit's: is nothing of it compared,
    added or noted, and an id given for it refused?"""
    root = tmp_path / "course"
    (root / "assignments" / ID).mkdir(parents=True)
    (root / "assignments" / ID / "notebook.py").write_text("# mine\n")
    record_copied(root, kit, [])
    assert update(root, kit, log=lambda _: None) == 0
    assert sorted(p.name for p in (root / "assignments" / ID).iterdir()) == ["notebook.py"]
    assert newer_in_kit(root, kit, [ID]) is None
    with pytest.raises(UpdateError, match="did not take"):
        update(root, kit, [ID])


def test_a_shared_module_taken_names_every_assignment_to_build(kit, tmp_path):
    """When the kit's shared documents.py is taken, does the advice name every assignment
    the course took from the kit (each notebook reads it), not only those compared, and is
    the mode of the course's file kept?"""
    copy_assignments(KIT_COURSE, kit, ["01_attention_by_hand"])
    root = tmp_path / "course"
    copy_assignments(kit, root / "assignments", [ID, "01_attention_by_hand"])
    record_copied(root, kit, [ID, "01_attention_by_hand"])
    documents = root / "assignments" / "documents.py"
    documents.chmod(0o444)
    (kit / "documents.py").write_text((kit / "documents.py").read_text() + MENDED)
    said = []
    assert update(root, kit, [ID], apply=True, log=said.append) == 0
    assert MENDED in documents.read_text() and documents.stat().st_mode & 0o777 == 0o444
    assert any(f"build 01_attention_by_hand {ID}" in line for line in said), said


def test_grade_tells_of_newer_files_and_of_a_course_with_no_record(kit, tmp_path):
    """Does the line grade ends with name the assignment the kit has newer files of, say
    nothing once they are taken or in the kit's own course, and tell a course with no record
    to run update, which that run then silences?"""
    root = course_from(kit, tmp_path / "course")
    assert newer_in_kit(root, kit, [ID]) is None
    (kit / ID / "checks.py").write_text((kit / ID / "checks.py").read_text() + MENDED)
    assert "1 newer file of " + ID in newer_in_kit(root, kit, [ID])
    assert newer_in_kit(root, kit, ["01_attention_by_hand"]) is None  # not this assignment
    update(root, kit, [ID], apply=True, log=lambda _: None)
    assert newer_in_kit(root, kit, [ID]) is None
    assert newer_in_kit(kit.parent, kit, [ID]) is None  # the kit's own course
    older = course_from(kit, tmp_path / "older", recorded=False)
    assert "no record" in newer_in_kit(older, kit, [ID])
    (older / CHECKS).write_text((older / CHECKS).read_text() + "# mine\n")
    update(older, kit, [ID], apply=True, log=lambda _: None)
    assert "1 file of " + ID + " differs" in newer_in_kit(older, kit, [ID])
    update(older, kit, [ID], apply=True, keep=[older / CHECKS], log=lambda _: None)
    assert newer_in_kit(older, kit, [ID]) is None


def test_a_course_init_made_is_the_kits_through_the_command(tmp_path):
    """Does init record every file it copied, and `update` run as a user runs it, in the
    course, find each the same as the kit's and exit 0?"""
    root = init_course(tmp_path / "course", "en", [ID], log=lambda _: None)
    files = json.loads(record_path(root).read_text())["files"]
    assert CHECKS in files and "assignments/documents.py" in files
    done = subprocess.run([sys.executable, "-m", "autograder", "update"], cwd=root,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(files)} of {len(files)} files the same" in done.stdout, done.stdout
    shutil.rmtree(root)


def test_an_older_course_takes_what_an_older_kit_wrote(kit, tmp_path):
    """In a course made before the record, by a kit whose checks.py its history holds: is
    that file taken by --apply without --take (the old one kept), while a reference.py the
    instructor changed stays theirs (exit 1)?"""
    root = course_from(kit, tmp_path / "course", recorded=False)
    older = (root / CHECKS).read_text()
    reference = root / "assignments" / ID / "reference.py"
    (kit / PAST).write_text(json.dumps({"files": {CHECKS: [digest(root / CHECKS)]}}))
    (kit / ID / "checks.py").write_text(older + MENDED)
    reference.write_text(reference.read_text() + "# mine\n")
    (kit / ID / "reference.py").write_text(reference.read_text() + MENDED)
    assert state_of(root, kit, CHECKS) == States.NEWER
    assert update(root, kit, [ID], apply=True, log=lambda _: None) == 1
    assert (root / CHECKS).read_text() == older + MENDED
    assert [p.read_text() for p in (root / ".kit" / REPLACED).glob(f"*/{CHECKS}")] == [older]
    assert reference.read_text().endswith("# mine\n")
    assert state_of(root, kit, f"assignments/{ID}/reference.py") == States.UNKNOWN


def test_an_unreadable_table_of_past_versions_names_the_fix(kit, tmp_path):
    """Is a kit's table of past versions that is no table refused, saying to install the kit
    again?"""
    root = course_from(kit, tmp_path / "course", recorded=False)
    (kit / PAST).write_text('{"files": [1]}')
    with pytest.raises(UpdateError, match="install the kit again.*--force-reinstall"):
        update(root, kit, [ID])
    (kit / PAST).write_text(json.dumps({"files": {CHECKS: "abc"}}))  # not a list
    with pytest.raises(UpdateError, match="install the kit again"):
        update(root, kit, [ID])


def test_a_first_apply_of_one_assignment_records_every_one_the_course_holds(kit, tmp_path):
    """In a course made before the record, with two of the kit's assignments: after `update
    ID --apply`, is the other still compared (not refused as the course's own), its newer
    file noted by grade and taken by its own --apply, and a shared module taken naming both
    to build?"""
    copy_assignments(KIT_COURSE, kit, [OTHER])
    root = tmp_path / "course"
    copy_assignments(kit, root / "assignments", [ID, OTHER])
    assert update(root, kit, [ID], apply=True, log=lambda _: None) == 0
    other_checks = f"assignments/{OTHER}/checks.py"
    assert read_record(root).files[other_checks] == digest(root / other_checks)
    (kit / OTHER / "checks.py").write_text((kit / OTHER / "checks.py").read_text() + MENDED)
    assert OTHER in newer_in_kit(root, kit, [ID, OTHER])
    (kit / "documents.py").write_text((kit / "documents.py").read_text() + MENDED)
    said = []
    assert update(root, kit, [OTHER], apply=True, log=said.append) == 0
    assert MENDED in (root / other_checks).read_text()
    assert any(f"build {OTHER} {ID}" in line for line in said), said


def test_a_file_absent_from_an_older_course_is_asked_each_time_until_kept(kit, tmp_path,
                                                                          monkeypatch):
    """In a course made before the record, a probes.py the instructor deleted: does every
    --apply ask about it (exit 1) and never put it back unasked, and --keep record it as the
    course's (deleted, said, exit 0)?"""
    root = course_from(kit, tmp_path / "course", recorded=False)
    monkeypatch.chdir(root)
    (root / PROBES).unlink()
    for _ in range(2):
        assert update(root, kit, [ID], apply=True, log=lambda _: None) == 1
        assert not (root / PROBES).exists()
        assert state_of(root, kit, PROBES) == States.ABSENT
    said = []
    assert update(root, kit, [ID], apply=True, keep=[PROBES], log=said.append) == 0
    assert not (root / PROBES).exists() and state_of(root, kit, PROBES) == States.DELETED
    assert any(f"kept {PROBES} deleted from the course" in line for line in said), said


def test_a_file_kept_as_the_courses_own_is_asked_again_when_the_kit_mends_it(kit, tmp_path,
                                                                             monkeypatch):
    """A checks.py changed in the course and mended in the kit: does --keep end the asking
    (exit 0, the file the course's), and the kit's next mend of it ask again?"""
    root = course_from(kit, tmp_path / "course")
    monkeypatch.chdir(root)
    theirs = (root / CHECKS).read_text() + "# mine\n"
    (root / CHECKS).write_text(theirs)
    (kit / ID / "checks.py").write_text((kit / ID / "checks.py").read_text() + MENDED)
    assert update(root, kit, [ID], apply=True, log=lambda _: None) == 1
    assert update(root, kit, [ID], apply=True, keep=[CHECKS], log=lambda _: None) == 0
    assert (root / CHECKS).read_text() == theirs and state_of(root, kit, CHECKS) == States.YOURS
    assert update(root, kit, [ID], apply=True, log=lambda _: None) == 0
    (kit / ID / "checks.py").write_text((kit / ID / "checks.py").read_text() + MENDED)
    assert state_of(root, kit, CHECKS) == States.BOTH
    assert update(root, kit, [ID], apply=True, log=lambda _: None) == 1
    with pytest.raises(UpdateError, match="both --take and --keep"):
        update(root, kit, [ID], apply=True, take=[CHECKS], keep=[CHECKS])


def test_a_dry_run_names_the_command_that_applies_what_it_was_given(kit, tmp_path,
                                                                   monkeypatch):
    """Does a dry run given --take and --keep advise the very command with them, to run where
    it ran (paths from a subfolder as typed there; the course and absolute paths from
    outside it), and a file named that is already the kit's say so instead of passing in
    silence?"""
    root = course_from(kit, tmp_path / "course", recorded=False)
    monkeypatch.chdir(root)
    reference = f"assignments/{ID}/reference.py"
    for path in (CHECKS, reference):
        (root / path).write_text((root / path).read_text() + "# mine\n")
    said = []
    assert update(root, kit, [ID], take=[CHECKS], keep=[reference, NOTEBOOK],
                  log=said.append) == 0
    assert any(f"update {ID} --apply --take {CHECKS} --keep {reference} --keep {NOTEBOOK}"
               in line for line in said), said
    assert any(f"{NOTEBOOK} is already the kit's" in line for line in said), said
    monkeypatch.chdir(root / "assignments" / ID)
    said.clear()
    update(root, kit, [ID], take=["checks.py"], log=said.append)
    assert any(f"update {ID} --apply --take checks.py`" in line for line in said), said
    monkeypatch.chdir(tmp_path)
    said.clear()
    update(root, kit, [ID], take=[root / CHECKS], log=said.append)
    assert any(f"--root {root.resolve()} update {ID} --apply --take {root.resolve() / CHECKS}"
               in line for line in said), said
    assert not (root / ".kit").exists()


def test_a_file_missing_from_the_kits_table_of_past_versions_is_said(kit, tmp_path):
    """When the kit has no table of past versions, is a file that differs said with the fix
    (install the kit again), not only shown as not the kit's?"""
    root = course_from(kit, tmp_path / "course", recorded=False)
    (root / CHECKS).write_text((root / CHECKS).read_text() + "# mine\n")
    said = []
    assert update(root, kit, [ID], log=said.append) == 0
    assert any("has no" in line and PAST in line and "--force-reinstall" in line
               for line in said), said


def test_two_runs_in_one_second_keep_their_files_apart_and_a_stop_records_nothing(
        kit, tmp_path, monkeypatch):
    """Do two --apply runs in the same second keep what each replaced in its own folder, and
    does a run stopped while taking files leave no partial record (the files it took then
    found the same as the kit's)?"""
    root = course_from(kit, tmp_path / "course")
    clock = kit_update.datetime.datetime(2026, 12, 4, 12, 0, 0)
    monkeypatch.setattr(kit_update.datetime, "datetime",
                        type("Fixed", (), {"now": staticmethod(lambda: clock)}))
    for _ in range(2):
        (kit / ID / "checks.py").write_text((kit / ID / "checks.py").read_text() + MENDED)
        assert update(root, kit, [ID], apply=True, log=lambda _: None) == 0
    folders = sorted(p.name for p in (root / ".kit" / REPLACED).iterdir())
    assert folders == ["20261204-120000", "20261204-120000-2"]
    recorded = read_record(root)
    for name in ("checks.py", "reference.py"):
        (kit / ID / name).write_text((kit / ID / name).read_text() + MENDED)
    copy = shutil.copyfile

    def copy_but_the_reference(source, target, **options):
        if Path(target).name == ".reference.py.partial":
            raise OSError("disk full")
        return copy(source, target, **options)

    monkeypatch.setattr(shutil, "copyfile", copy_but_the_reference)
    said = said_by_a_stopped_apply(root, kit)
    assert any("stopped after taking 1 of 2 files" in line for line in said), said
    assert any(f"validate {ID}" in line for line in said), said
    assert read_record(root) == recorded
    assert state_of(root, kit, CHECKS) == States.SAME
    assert state_of(root, kit, f"assignments/{ID}/reference.py") == States.NEWER


def test_a_record_an_earlier_update_wrote_of_one_assignment_still_lets_the_others_in(kit,
                                                                                   tmp_path):
    """A course made before the record, whose record an earlier kit's update wrote of ID's
    files alone, holding the kit's OTHER with a file deleted: is OTHER still compared (not
    refused as the instructor's own), the deleted file asked about (not put back as new in
    the kit), and OTHER recorded by the next --apply?"""
    copy_assignments(KIT_COURSE, kit, [OTHER])
    root = tmp_path / "course"
    copy_assignments(kit, root / "assignments", [ID, OTHER])
    record_copied(root, kit, [ID])  # what that update recorded: ID and the shared modules
    deleted = f"assignments/{OTHER}/probes.py"
    (root / deleted).unlink()
    assert state_of(root, kit, CHECKS) == States.SAME
    assert next(f.state for f in states(root, kit, [OTHER]) if f.path == deleted) \
        == States.ABSENT
    assert update(root, kit, [OTHER], apply=True, log=lambda _: None) == 1
    assert not (root / deleted).exists() and read_record(root).files[deleted] == UNTOLD
    other_checks = f"assignments/{OTHER}/checks.py"
    assert read_record(root).files[other_checks] == digest(root / other_checks)
    assert "1 file of " + OTHER + " differs" in newer_in_kit(root, kit, [ID, OTHER])


def test_a_file_a_later_kit_wrote_is_left_to_that_kit(kit, tmp_path):
    """A course whose record holds a checks.py this kit never had (a later kit's update took
    it): is it said to come from a later kit and left by --apply (exit 0, no note from grade),
    not taken back to this kit's older checks?"""
    root = course_from(kit, tmp_path / "course")
    (kit / PAST).write_text(json.dumps({"files": {CHECKS: [digest(kit / ID / "checks.py")]}}))
    later = (root / CHECKS).read_text() + "# mended by a later kit\n"
    (root / CHECKS).write_text(later)
    as_a_later_kit_took(root, CHECKS)
    assert state_of(root, kit, CHECKS) == States.LATER
    assert update(root, kit, [ID], apply=True, log=lambda _: None) == 0
    assert (root / CHECKS).read_text() == later
    assert newer_in_kit(root, kit, [ID]) is None


@pytest.mark.parametrize("lists_absent", [True, False])
def test_only_a_record_that_lists_absent_files_calls_a_missing_one_new(kit, tmp_path,
                                                                       lists_absent):
    """A shared documents.py missing from the course and from its record: when the record
    lists the files the course lacked (init's, and update's now), is it new in the kit and
    taken; when an earlier kit's update wrote it without that, is it asked about (the
    instructor may have deleted it before), and recorded untold by --apply?"""
    root = course_from(kit, tmp_path / "course")
    shared = "assignments/documents.py"
    (root / shared).unlink()
    files = {path: value for path, value in read_record(root).files.items() if path != shared}
    record_path(root).write_text(json.dumps({"lists_absent": lists_absent, "files": files}))
    assert state_of(root, kit, shared) == (States.ADDED if lists_absent else States.ABSENT)
    assert update(root, kit, [ID], apply=True, log=lambda _: None) == (0 if lists_absent else 1)
    assert (root / shared).exists() is lists_absent
    assert (read_record(root).files.get(shared) == UNTOLD) is not lists_absent


def test_an_instructors_own_assignment_under_a_kits_id_is_not_the_kits(kit, tmp_path):
    """In a course made before the record, an assignment of the instructor's own under one of
    the kit's ids (no file of it any kit wrote): is it left out of update and of the record,
    and an id given for it refused?"""
    copy_assignments(KIT_COURSE, kit, [OTHER])
    root = tmp_path / "course"
    copy_assignments(kit, root / "assignments", [ID])
    (root / "assignments" / OTHER).mkdir()
    (root / "assignments" / OTHER / "notebook.py").write_text("# %% [markdown]\n# mine\n")
    assert update(root, kit, apply=True, log=lambda _: None) == 0
    assert not any(path.startswith(f"assignments/{OTHER}/") for path in read_record(root).files)
    with pytest.raises(UpdateError, match="did not take"):
        update(root, kit, [OTHER])


def test_a_file_the_course_links_to_is_decided_by_its_path_in_the_course(kit, tmp_path,
                                                                        monkeypatch):
    """A checks.py that is a link to a file of the instructor's elsewhere: is --keep of it
    as listed taken as that file of the course (not refused through the link's target)?"""
    root = course_from(kit, tmp_path / "course", recorded=False)
    mine = tmp_path / "mine.py"
    mine.write_text((root / CHECKS).read_text() + "# mine\n")
    (root / CHECKS).unlink()
    (root / CHECKS).symlink_to(mine)
    monkeypatch.chdir(root)
    assert update(root, kit, [ID], apply=True, log=lambda _: None) == 1
    assert update(root, kit, [ID], apply=True, keep=[CHECKS], log=lambda _: None) == 0
    assert (root / CHECKS).is_symlink() and state_of(root, kit, CHECKS) == States.YOURS


def test_the_printed_command_runs_where_it_was_printed(tmp_path):
    """Through the command line, in an assignment's folder: is a path typed as update lists
    it taken as such, and does the --apply command a dry run prints work pasted there (the
    command line moves to the course root, the paths it prints do not)?"""
    root = tmp_path / "course"
    copy_assignments(KIT_COURSE, root / "assignments", [ID])
    record_copied(root, KIT_COURSE, [ID])
    (root / "nbgrader_config.py").write_text("")
    kept = (root / CHECKS).read_text()
    (root / CHECKS).write_text(kept + "# mine\n")
    folder = root / "assignments" / ID

    def run(*args):
        done = subprocess.run([sys.executable, "-m", "autograder", "update", *args], cwd=folder,
                              capture_output=True, text=True, timeout=300)
        return done.returncode, done.stdout + done.stderr

    code, said = run("--take", CHECKS)
    assert code == 0 and "update --apply --take checks.py`" in said, said
    command = said.split("run `")[1].split("`")[0]
    done = subprocess.run(command, shell=True, cwd=folder, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (root / CHECKS).read_text() == kept


def test_a_linked_assignment_folder_and_a_later_kits_file_are_decided_as_listed(kit, tmp_path,
                                                                              monkeypatch):
    """An assignment folder that is a link to a folder elsewhere: is its file, typed as
    update lists it, decided (not refused as outside the course)? And is --take of a file a
    later kit wrote refused, saying to update it with that kit?"""
    root = course_from(kit, tmp_path / "course")
    elsewhere = tmp_path / "elsewhere"
    (root / "assignments" / ID).rename(elsewhere)
    (root / "assignments" / ID).symlink_to(elsewhere)
    (root / CHECKS).write_text((root / CHECKS).read_text() + "# mine\n")
    (kit / ID / "checks.py").write_text((kit / ID / "checks.py").read_text() + MENDED)
    monkeypatch.chdir(root)
    assert update(root, kit, [ID], apply=True, keep=[CHECKS], log=lambda _: None) == 0
    assert state_of(root, kit, CHECKS) == States.YOURS
    (kit / PAST).write_text(json.dumps({"files": {NOTEBOOK: [digest(kit / ID / "notebook.py")]}}))
    (root / NOTEBOOK).write_text((root / NOTEBOOK).read_text() + "# a later kit's\n")
    as_a_later_kit_took(root, NOTEBOOK)
    with pytest.raises(UpdateError, match="later kit"):
        update(root, kit, [ID], apply=True, take=[NOTEBOOK])


def test_a_record_that_cannot_be_written_still_says_what_was_taken(kit, tmp_path,
                                                                   monkeypatch):
    """When the record cannot be written at the end of a run that took files, does update say
    how many it took and the build they need, rather than leave them unsaid (the next run
    finds them the same as the kit's)?"""
    root = course_from(kit, tmp_path / "course")
    (kit / ID / "notebook.py").write_text((kit / ID / "notebook.py").read_text() + MENDED)

    def full_disk(*_):
        raise OSError("No space left on device")

    monkeypatch.setattr(kit_update, "write_record", full_disk)
    said = said_by_a_stopped_apply(root, kit)
    assert any("stopped after taking 1 of 1 file;" in line for line in said), said
    assert any(f"build {ID}" in line for line in said), said


def test_from_outside_the_course_a_path_as_listed_is_read_and_grades_note_names_the_course(
        kit, tmp_path, monkeypatch):
    """Typed outside the course (with --root): is a --take path written as update lists it
    taken as the course's file, and does grade's note name the update command with --root,
    so that it runs where it was printed?"""
    root = course_from(kit, tmp_path / "course")
    (root / CHECKS).write_text((root / CHECKS).read_text() + "# mine\n")
    (kit / ID / "notebook.py").write_text((kit / ID / "notebook.py").read_text() + MENDED)
    monkeypatch.chdir(tmp_path)
    said = []
    assert update(root, kit, [ID], take=[CHECKS], here=tmp_path, log=said.append) == 0
    assert any(f"--take {root.resolve() / CHECKS}" in line for line in said), said
    assert f"--root {root.resolve()} update" in newer_in_kit(root, kit, [ID], here=tmp_path)
