"""Does `serve` read the exchange's inbound folder as nbgrader's collect reads it?"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

from traitlets.config import Config

from autograder.course.handed_in import students_files
from autograder.serve.inbound import (
    CHANGED_LATER,
    SUBMIT_WRITES,
    being_written,
    handed_in,
    in_true_time,
    inbound_folder,
    why_refused,
)

ID = "01_attention_by_hand"


def test_submissions_are_read_oldest_first_and_foreign_folders_passed_over(tmp_path):
    """Are the chosen assignment's submissions listed oldest first (a student name with '+'
    kept whole), and another assignment's, a malformed name and a bad time passed over?"""
    names = [f"ada+{ID}+2026-11-28 10:00:02.000001 UTC+b",
             f"ben+x+{ID}+2026-11-28 09:00:00.000001 UTC+a",
             "ada+02_embeddings+2026-11-28 08:00:00.000001 UTC+c",
             f"ada+{ID}+not a time+d", "stray-folder"]
    for name in names:
        (tmp_path / name).mkdir()
    found = handed_in(tmp_path, {ID})
    assert [(h.student, h.name) for h in found] == [("ben+x", names[1]), ("ada", names[0])]


def test_no_course_id_means_no_inbound_folder_and_no_root_means_nbgraders():
    """Without a course id, is there no folder to watch (not the current one)? Without
    c.Exchange.root, is it under nbgrader's default root, where nbgrader's submit puts it?"""
    assert inbound_folder(Config()) is None
    config = Config({"Exchange": {"root": "/srv/exchange"},
                     "CourseDirectory": {"course_id": "sa"}})
    assert str(inbound_folder(config)) == "/srv/exchange/sa/inbound"
    default = Config({"CourseDirectory": {"course_id": "sa"}})
    assert str(inbound_folder(default)) == "/usr/local/share/nbgrader/exchange/sa/inbound"


def stamp(seconds=0):
    """A time as nbgrader's submit writes it, `seconds` after now."""
    return (datetime.now(UTC) + timedelta(seconds=seconds)).strftime("%Y-%m-%d %H:%M:%S.%f UTC")


def planted(inbound, student="root", when=None, notebook=True):
    """A submission folder as nbgrader's submit makes it (made by this test's user), under the
    time `when` (now when None)."""
    when = when or stamp()
    folder = inbound / f"{student}+{ID}+{when}+x"
    folder.mkdir()
    if notebook:
        (folder / f"{ID}.ipynb").write_text("{}")
    for name, text in (("timestamp.txt", when), ("submission_secret.txt", "s3cret")):
        (folder / name).write_text(text)
    return folder


def refusal(inbound, folder, check_owner=True, zone="UTC"):
    [handed] = [h for h in handed_in(inbound, {ID}) if h.name == folder.name]
    return why_refused(inbound, handed, check_owner, zone=zone)


def test_only_what_nbgrader_submit_makes_is_taken(tmp_path):
    """Is a folder refused, with the reason, when it holds a link (collect would copy what it
    points to as the instructor), is itself a link or a file, lacks the notebook, names
    another user than the one who made it, or is dated in the future; and is a plain one
    taken?"""
    import getpass

    me = getpass.getuser()
    assert refusal(tmp_path, planted(tmp_path, me)) is None
    linked = planted(tmp_path, me, stamp(-1), notebook=False)
    (linked / f"{ID}.ipynb").symlink_to("/etc/passwd")
    assert "a link or a special file" in refusal(tmp_path, linked)
    empty = planted(tmp_path, me, stamp(-2), notebook=False)
    assert f"no {ID}.ipynb" in refusal(tmp_path, empty)
    link = tmp_path / f"{me}+{ID}+{stamp(-3)}+x"
    link.symlink_to(empty)
    assert "not a folder" in refusal(tmp_path, link)
    other = "nobody" if me != "nobody" else "root"
    forged = planted(tmp_path, other, stamp(-4))
    assert f"not {other}" in refusal(tmp_path, forged)
    assert refusal(tmp_path, forged, check_owner=False) is None
    future = planted(tmp_path, me, "2099-01-01 00:00:00.000001 UTC")
    assert "in the future" in refusal(tmp_path, future)


def test_a_name_that_is_no_student_id_is_refused(tmp_path):
    """Is a student name the kit would not accept as an id ('..', a line break, an escape
    sequence) refused before anything is collected or printed as it is?"""
    for name in ("..", "ada\n12:00 fake", "\x1b[31mred"):
        folder = tmp_path / f"{name}+{ID}+2020-01-01 10:00:00.000001 UTC+x"
        folder.mkdir()
        [handed] = [h for h in handed_in(tmp_path, {ID}) if h.name == folder.name]
        assert "is not a student id" in why_refused(tmp_path, handed)
        folder.rmdir()


def test_a_notebook_past_the_bound_is_refused_with_the_fix(tmp_path):
    """Is a notebook larger than c.FeedbackOnSubmit.max_notebook_mb refused at intake, its
    size and the fix said, while one within it, and any size with no bound, is taken?"""
    folder = planted(tmp_path)
    handed = handed_in(tmp_path, {ID})[0]
    (folder / f"{ID}.ipynb").write_bytes(b" " * (3 * 2**20))
    why = why_refused(tmp_path, handed, check_owner=False, max_mb=2)
    assert why is not None and "3.0 MB" in why and "2 MB" in why and "Clear Outputs" in why
    assert why_refused(tmp_path, handed, check_owner=False, max_mb=4) is None
    assert why_refused(tmp_path, handed, check_owner=False, max_mb=0) is None


def test_a_folder_submit_is_writing_waits_and_one_it_left_unfinished_is_refused(
        tmp_path, monkeypatch):
    """nbgrader's submit writes timestamp.txt and the secret after the notebook: is a folder
    without them passed over while it is fresh (looked at again later), and once older, or
    when whole, judged: refused, saying submit did not finish and to submit again? Is its age
    its change time, so that a modification time set in the future keeps it waiting no
    longer (a folder without timestamp.txt is graded as never late)?"""
    from autograder.serve import inbound

    folder = planted(tmp_path)
    assert not being_written(folder)
    (folder / "submission_secret.txt").unlink()
    assert being_written(folder)
    later = datetime.now(UTC) + SUBMIT_WRITES
    assert not being_written(folder, now=later)
    future = (datetime.now(UTC) + timedelta(days=3000)).timestamp()
    os.utime(folder, (future, future))
    assert being_written(folder) and not being_written(folder, now=later)
    monkeypatch.setattr(inbound, "SUBMIT_WRITES", timedelta(0))  # older than a submit takes
    why = refusal(tmp_path, folder, check_owner=False)
    assert "did not finish it" in why and "submission_secret.txt" in why and "submit again" in why


def test_a_home_classmates_can_enter_is_said_with_the_fix(tmp_path, monkeypatch):
    """nbgrader keeps a submission's secret in the student's home: is a home others may enter
    (0755, as useradd -m makes it on many systems) named with its mode and the fix, and a
    closed one (0700), or a student with no user here, passed in silence?"""
    import pwd
    from types import SimpleNamespace

    from autograder.serve.inbound import why_home_open

    home = tmp_path / "ada"
    home.mkdir()
    monkeypatch.setattr(pwd, "getpwnam", lambda name: SimpleNamespace(pw_dir=str(home))
                        if name == "ada" else (_ for _ in ()).throw(KeyError(name)))
    home.chmod(0o755)
    why = why_home_open("ada")
    assert why is not None and "755" in why and f"chmod 0700 {home}" in why
    home.chmod(0o700)
    assert why_home_open("ada") is None
    assert why_home_open("nobody-here") is None


def test_a_folder_made_or_changed_after_the_time_of_its_name_is_refused(tmp_path):
    """nbgrader reads a submission's lateness from its timestamp.txt and which is latest from
    its name, both the student's to write: is a folder made by hand under a time a day back,
    one whose notebook changed after its submit, and one whose timestamp.txt gives another
    time than its name refused, saying so and to submit again; and a folder changed within
    CHANGED_LATER of its time, and a finished one made now, taken (owner or not checked)?"""
    import getpass

    me = getpass.getuser()
    backdated = planted(tmp_path, me, stamp(-86400))
    why = refusal(tmp_path, backdated, check_owner=False)
    assert "later than the time of its name" in why and "submit again" in why, why
    assert refusal(tmp_path, backdated) == why  # the owner's own folder, all the same
    submitted = planted(tmp_path, me, stamp(-2 * CHANGED_LATER.total_seconds()))
    (submitted / f"{ID}.ipynb").write_text('{"edited": "after the submit"}')
    assert "later than the time of its name" in refusal(tmp_path, submitted)
    restamped = planted(tmp_path, me, stamp(-5))
    (restamped / "timestamp.txt").write_text(stamp(-86400))
    assert "does not give the time of its name" in refusal(tmp_path, restamped)
    just_in = planted(tmp_path, me, stamp(-CHANGED_LATER.total_seconds() / 2))
    assert refusal(tmp_path, just_in) is None
    assert refusal(tmp_path, planted(tmp_path, me)) is None


def test_a_time_in_a_zone_nbgrader_misreads_is_read_in_the_courses_zone(tmp_path):
    """nbgrader reads "PST" as UTC, 8 hours off: is a folder made now whose name is the
    course's zone's clock (c.Exchange.timezone America/Los_Angeles, as its submit writes it)
    taken, while the same under a course in UTC, a made-up zone, and the course's own zone
    named an hour back are refused (a zone written by hand gains nothing)?"""
    import getpass

    import dateutil.tz

    me, zone = getpass.getuser(), "America/Los_Angeles"

    def pacific(hours=0):
        clock = datetime.now(dateutil.tz.gettz(zone)) + timedelta(hours=hours)
        return clock.strftime("%Y-%m-%d %H:%M:%S.%f ") + clock.strftime("%Z")

    honest = planted(tmp_path, me, pacific())
    assert refusal(tmp_path, honest, zone=zone) is None
    assert "later than the time of its name" in refusal(tmp_path, honest)
    made_up = planted(tmp_path, me, pacific(-1).rsplit(" ", 1)[0] + " XYZ")
    assert "later than the time of its name" in refusal(tmp_path, made_up, zone=zone)
    hour_back = planted(tmp_path, me, pacific(-1))
    assert "later than the time of its name" in refusal(tmp_path, hour_back, zone=zone)


def test_a_copy_is_judged_again_and_its_time_written_true(tmp_path):
    """Serve's copy of a submission: is a folder that changed after the time of its name
    (a notebook swapped between intake's check and the copy) refused after the copy, the copy
    removed? And is an honest Los Angeles folder's timestamp.txt written in UTC in the copy,
    the true time, where nbgrader would read "PST" as UTC, and is that time its record's, by
    which collect decides which is latest, before the due date, or newer than the one held?"""
    import getpass

    import dateutil.tz
    import pytest
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.utils import parse_utc

    from autograder.serve.collect_one import CollectOne

    me, zone = getpass.getuser(), "America/Los_Angeles"
    inbound = tmp_path / "inbound"
    inbound.mkdir()
    collect = CollectOne(coursedir=CourseDirectory(), config=Config(
        {"Exchange": {"timezone": zone}}))
    swapped = planted(inbound, me, stamp(-2 * CHANGED_LATER.total_seconds()))
    with pytest.raises(RuntimeError, match="later than the time of its name"):
        collect.do_copy(swapped, tmp_path / "swapped-copy")
    assert not (tmp_path / "swapped-copy").exists()

    clock = datetime.now(dateutil.tz.gettz(zone))
    honest = planted(inbound, me, clock.strftime("%Y-%m-%d %H:%M:%S.%f ") + clock.strftime("%Z"))
    collect.do_copy(honest, tmp_path / "honest-copy")
    written = parse_utc((tmp_path / "honest-copy" / "timestamp.txt").read_text())
    assert abs(written.replace(tzinfo=UTC) - clock.astimezone(UTC)) < timedelta(seconds=1)
    record = {"username": me, "filename": honest.name, "timestamp": parse_utc(honest.name
                                                                               .split("+")[2])}
    assert in_true_time(dict(record), zone)["timestamp"] == written  # latest, due, update
    assert in_true_time(dict(record))["timestamp"] == record["timestamp"]  # a UTC course


def test_a_folder_too_large_for_nbgrader_stops_no_collect(tmp_path):
    """nbgrader's copy raises for a folder past c.CourseDirectory.max_dir_size, which stopped
    the course's collect for every student after it: does the kit's collect leave that folder,
    saying why, and go on?"""
    import getpass
    import logging

    from nbgrader.coursedir import CourseDirectory

    from autograder.serve.owned_collect import OwnedCollect

    inbound = tmp_path / "inbound"
    inbound.mkdir()
    big = planted(inbound, getpass.getuser())
    (big / "data.bin").write_bytes(b"x" * 4000)
    collect = OwnedCollect(coursedir=CourseDirectory(max_dir_size=1))  # 1 KB
    said = []
    handler = logging.Handler()
    handler.emit = lambda record: said.append(record.getMessage())
    collect.log.addHandler(handler)
    collect.do_copy(big, tmp_path / "copy")
    assert not (tmp_path / "copy").exists()
    assert [line for line in said if f"{big.name} is not collected" in line
            and "too big" in line and "The others are collected." in line], said


def collected_before(course, student, when):
    """The student's copy in submitted/, collected from a submission of time `when`."""
    copy = course / "submitted" / student / ID
    copy.mkdir(parents=True)
    (copy / f"{ID}.ipynb").write_text('{"the": "copy collected before"}')
    (copy / "timestamp.txt").write_text(when)
    return copy


def collect_of(kind, exchange, course, **settings):
    """The kit's collect of `kind` (its class) for this test's user, over the course."""
    import getpass

    from nbgrader.coursedir import CourseDirectory

    coursedir = CourseDirectory(root=str(course), course_id="sa", assignment_id=ID,
                                student_id=getpass.getuser(), **settings)
    collect = kind(coursedir=coursedir, config=Config({"Exchange": {"root": str(exchange)}}))
    collect.update = True
    return collect


def test_a_newer_submission_not_collected_leaves_the_copy_collected_before(tmp_path):
    """nbgrader removes a student's collected copy before it copies a newer submission:
    where that copy then fails (a folder too large for nbgrader, in the class's collect; one
    changed after the time of its name, in serve's), is the copy collected before still in
    submitted/, byte for byte, said on the console, and nothing left aside in .kit/?"""
    import getpass
    import logging

    import pytest

    from autograder.serve.collect_one import CollectOne
    from autograder.serve.owned_collect import OwnedCollect

    me = getpass.getuser()
    exchange, course = tmp_path / "exchange", tmp_path / "course"
    inbound = exchange / "sa" / "inbound"
    inbound.mkdir(parents=True)
    earlier = collected_before(course, me, stamp(-3 * CHANGED_LATER.total_seconds()))
    before = {path.name: path.read_bytes() for path in earlier.iterdir()}
    said = []
    handler = logging.Handler()
    handler.emit = lambda record: said.append(record.getMessage())

    big = planted(inbound, me)
    (big / "data.bin").write_bytes(b"x" * 4000)
    collect = collect_of(OwnedCollect, exchange, course, max_dir_size=1)  # 1 KB
    collect.log.addHandler(handler)
    collect.init_src()
    collect.copy_files()
    assert {path.name: path.read_bytes() for path in earlier.iterdir()} == before
    assert any("too big" in line for line in said), said

    swapped = planted(inbound, me, stamp(-2 * CHANGED_LATER.total_seconds()))
    collect = collect_of(CollectOne, exchange, course)
    collect.log.addHandler(handler)
    collect.chosen = swapped.name
    collect.init_src()
    with pytest.raises(RuntimeError, match="later than the time of its name"):
        collect.copy_files()
    assert {path.name: path.read_bytes() for path in earlier.iterdir()} == before
    assert sum("the copy collected before is kept there" in line for line in said) == 2, said
    assert list((course / ".kit").iterdir()) == []


def test_a_tas_file_beside_the_copy_before_stays_with_the_newer_one(tmp_path):
    """A TA's note beside a student's collected copy: when the student's newer submission is
    collected (nbgrader removes the copy before), is the note in the new copy, the notebook
    the new one's, nothing left aside in .kit/, and the note not recorded as the student's?"""
    import getpass

    from autograder.serve.collect_one import CollectOne

    me = getpass.getuser()
    exchange, course = tmp_path / "exchange", tmp_path / "course"
    inbound = exchange / "sa" / "inbound"
    inbound.mkdir(parents=True)
    earlier = collected_before(course, me, stamp(-3 * CHANGED_LATER.total_seconds()))
    (earlier / "ta_notes.txt").write_text("asked for an extension")
    newer = planted(inbound, me)
    collect = collect_of(CollectOne, exchange, course)
    collect.chosen = newer.name
    collect.init_src()
    collect.copy_files()
    assert (earlier / "ta_notes.txt").read_text() == "asked for an extension"
    assert (earlier / f"{ID}.ipynb").read_bytes() == (newer / f"{ID}.ipynb").read_bytes()
    assert [path.name for path in (course / ".kit").iterdir()] == ["handed-in"]
    assert "ta_notes.txt" not in students_files(course, ID, me)
    assert f"{ID}.ipynb" in students_files(course, ID, me)
