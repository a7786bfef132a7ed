"""Is a course closed to the other users of its machine from its first moment, and does the
kit refuse to grade one opened by hand, naming the path and the fix?

Real `python -m autograder` commands on an empty course (init --empty: no build to wait
for) in a folder every user can pass through, as on a shared server's /home; another user's
attempts (runuser) are real reads and writes. Needs root for those, as in CI."""

from __future__ import annotations

import grp
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from autograder.course.directory import nbgrader_env
from tests.accounts import ensure_member, ensure_user
from tests.autograder.test_exchange import needs_root

OTHER = "kit-neighbour"


@pytest.fixture
def open_place():
    """A folder every user can enter, as /home is (pytest's tmp folders are root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="kit-access-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def kit(cwd, *args):
    return subprocess.run([sys.executable, "-m", "autograder", *args], cwd=cwd,
                          env=nbgrader_env(), capture_output=True, text=True, timeout=300)


def as_other(*command):
    return subprocess.run(["runuser", "-u", OTHER, "--", *command], capture_output=True,
                          text=True, timeout=60)


def test_init_closes_the_course_and_grade_refuses_it_opened(open_place):
    """Is a new course 0700? Opened by hand (0755, as a copy or a chmod leaves it), do grade
    and serve refuse, exit 1, with the path and `secure`, while report warns and goes on?
    Does `secure` close it, after which grade runs, and say so (and, run again, that nothing
    was left to change)?"""
    assert kit(open_place, "init", "course", "--empty").returncode == 0
    course = open_place / "course"
    assert stat.S_IMODE(course.stat().st_mode) == 0o700

    course.chmod(0o755)
    for command in (["grade"], ["serve", "--once"]):
        result = kit(course, *command)
        assert result.returncode == 1, result.stdout + result.stderr
        assert str(course) in result.stderr and "python -m autograder secure" in result.stderr
        assert "every user of this machine" in result.stderr
    report = kit(course, "report")
    assert report.returncode == 0
    assert f"warning: {course} can be read by every user" in report.stderr

    result = kit(course, "secure")
    assert result.returncode == 0 and f"{course} is now 700" in result.stdout
    assert "(1 mode changed)" in result.stdout, result.stdout
    assert stat.S_IMODE(course.stat().st_mode) == 0o700
    assert "can be read" not in kit(course, "grade").stderr
    again = kit(course, "secure")
    assert again.returncode == 0 and f"{course} was already 700" in again.stdout
    assert "nothing changed" in again.stdout and "modes changed" not in again.stdout


def test_an_open_course_is_accepted_where_the_folders_above_close_it_or_when_chosen(
        open_place):
    """Is a course 0755 inside a folder only its owner can pass (a home made 0700) left in
    peace? And one opened knowingly, c.Course.shared_readable = True?"""
    home = open_place / "home"
    home.mkdir(mode=0o700)
    assert kit(home, "init", "course", "--empty").returncode == 0
    course = home / "course"
    course.chmod(0o755)
    assert "can be read" not in kit(course, "grade").stderr

    home.chmod(0o755)
    with (course / "nbgrader_config.py").open("a") as config:
        config.write("c.Course.shared_readable = True\n")
    assert "can be read" not in kit(course, "grade").stderr


def test_another_user_reaches_nothing_of_a_course_init_made(open_place):
    """As a second ordinary user of the machine: can they list the course, read its
    config, secret or assignments, or write a file into it? Every attempt must fail."""
    needs_root()
    ensure_user(OTHER)
    assert kit(open_place, "init", "course", "--empty").returncode == 0
    course = open_place / "course"
    (course / "assignments" / "01_x").mkdir()
    (course / "assignments" / "01_x" / "reference.py").write_text("ANSWER = 42\n")
    (course / "gradebook.db").write_text("grades")
    assert as_other("ls", str(course)).returncode != 0
    for path in ["nbgrader_config.py", ".kit/secret", "assignments/01_x/reference.py",
                 "gradebook.db"]:
        result = as_other("cat", str(course / path))
        assert result.returncode != 0 and "Permission denied" in result.stderr, path
    assert as_other("touch", str(course / "planted")).returncode != 0
    assert not (course / "planted").exists()


def test_a_ta_group_reads_the_course_and_nobody_else(open_place):
    """init --group: is the course 0750 and the group's, written in its config, accepted by
    grade, and readable by a member of the group alone?"""
    needs_root()
    ensure_user(OTHER)
    group, ta = ta_group(), "kit-ta"
    assert kit(open_place, "init", "course", "--empty", "--group", group).returncode == 0
    course = open_place / "course"
    info = course.stat()
    assert stat.S_IMODE(info.st_mode) == 0o750 and grp.getgrgid(info.st_gid).gr_name == group
    assert f'c.Course.group = "{group}"' in (course / "nbgrader_config.py").read_text()
    assert "can be read" not in kit(course, "grade").stderr
    config = str(course / "nbgrader_config.py")
    read_by_ta = subprocess.run(["runuser", "-u", ta, "--", "cat", config],
                                capture_output=True, text=True, timeout=60)
    assert read_by_ta.returncode == 0, read_by_ta.stderr
    assert as_other("cat", config).returncode != 0


def ta_group():
    """The machine's group kit-tas, with the user kit-ta in it (made where missing)."""
    group = "kit-tas"
    ensure_member("kit-ta", group)
    return group


def test_secure_with_a_group_writes_it_where_grade_reads_it(open_place):
    """A course made without a group, opened to the TAs later with `secure --group`: is it
    0750 and the group's, is the group written into its config (what it held kept above, its
    mode kept) and said, and does grade then accept it instead of refusing it? Is a group the
    machine lacks refused before any mode changes?"""
    needs_root()
    assert kit(open_place, "init", "course", "--empty").returncode == 0
    course = open_place / "course"
    config = course / "nbgrader_config.py"
    before, mode = config.read_text(), stat.S_IMODE(config.stat().st_mode)

    missing = kit(course, "secure", "--group", "no-such-group-kit")
    assert missing.returncode == 1 and "groupadd" in missing.stderr
    assert stat.S_IMODE(course.stat().st_mode) == 0o700 and config.read_text() == before

    group = ta_group()
    result = kit(course, "secure", "--group", group)
    assert result.returncode == 0, result.stderr
    assert f"c.Course.group = '{group}' written" in result.stdout
    info = course.stat()
    assert stat.S_IMODE(info.st_mode) == 0o750 and grp.getgrgid(info.st_gid).gr_name == group
    after = config.read_text()
    assert after.startswith(before.rstrip("\n")) and f'c.Course.group = "{group}"' in after
    assert stat.S_IMODE(config.stat().st_mode) == mode
    graded = kit(course, "grade")
    assert "can be read" not in graded.stderr and "secure" not in graded.stderr, graded.stderr
    again = kit(course, "secure", "--group", group)
    assert again.returncode == 0 and "written" not in again.stdout
    assert config.read_text() == after


def test_init_refuses_a_group_that_does_not_exist(open_place):
    """Is a TA group the machine lacks refused, naming it and how to make it, and nothing
    written?"""
    result = kit(open_place, "init", "course", "--empty", "--group", "no-such-group-kit")
    assert result.returncode == 1
    assert "no-such-group-kit" in result.stderr and "groupadd" in result.stderr
    assert not (open_place / "course").exists()


def test_what_the_kit_writes_outside_the_course_is_the_instructors_alone(open_place):
    """Is a report written with --to outside the course (a folder anyone can read) readable
    by its owner alone?"""
    assert kit(open_place, "init", "course", "--empty").returncode == 0
    target = open_place / "report.html"
    assert kit(open_place / "course", "report", "--to", str(target)).returncode == 0
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
