"""Does the kit's ledger keep its own books without touching anyone else's: one grading run
at a time, unfinished work recognised, refused inputs kept until their stage runs again?"""

from __future__ import annotations

import fcntl
import os
import socket

import pytest

from autograder.course.ledger import (
    CourseBusy,
    GradeLock,
    Problem,
    grade_running,
    is_graded,
    keep_problems,
    mark,
    read_problems,
    read_status,
    recorded_reseed,
)
from autograder.i18n import language


def test_a_second_lock_is_refused_naming_the_first(tmp_path):
    """While one run holds the course, is a second refused at once, with the holder named?"""
    with GradeLock(tmp_path), pytest.raises(CourseBusy, match="another grade is running"):
        with GradeLock(tmp_path):
            pass


def test_the_holder_is_named_in_the_course_language(tmp_path):
    """Is the holder a second run names said in the current language (a Chinese course's
    refusal had "pid 10717 on vm, started ..." in English), and an older kit's line as is?"""
    with GradeLock(tmp_path), language("zh"), pytest.raises(CourseBusy) as refused:
        with GradeLock(tmp_path):
            pass
    assert f"进程 {os.getpid()}，在 {socket.gethostname()} 上，开始于 " in str(refused.value)
    assert " on " not in str(refused.value) and "started" not in str(refused.value)
    with open(tmp_path / ".kit" / "grade.lock", "w") as older, pytest.raises(CourseBusy) as said:
        fcntl.flock(older, fcntl.LOCK_EX | fcntl.LOCK_NB)
        older.write("pid 7 on an older kit\n")
        older.flush()
        with GradeLock(tmp_path):
            pass
    assert "(pid 7 on an older kit)" in str(said.value)


def test_a_running_grade_is_seen_by_the_commands_that_read_its_results(tmp_path):
    """While a grade holds the course, is it seen (with its holder), and not before or after,
    and does seeing it leave the lock free for the next grade?"""
    assert grade_running(tmp_path) is None  # no lock file yet
    with GradeLock(tmp_path):
        assert f"pid {os.getpid()} on " in grade_running(tmp_path)
    assert grade_running(tmp_path) is None
    with GradeLock(tmp_path):
        pass


def test_a_lock_is_free_again_after_its_run(tmp_path):
    """Once a run ends, can the next take the lock, even with the old holder's line left?"""
    with GradeLock(tmp_path):
        pass
    (tmp_path / ".kit" / "grade.lock").write_text("pid 1 on a crashed machine\n")
    with GradeLock(tmp_path) as lock:
        assert "pid" in lock.path.read_text()


def submission(tmp_path, text="{}"):
    notebook = tmp_path / "submitted" / "ada" / "01_a" / "01_a.ipynb"
    notebook.parent.mkdir(parents=True, exist_ok=True)
    notebook.write_text(text)
    graded = tmp_path / "autograded" / "ada" / "01_a" / "01_a.ipynb"
    graded.parent.mkdir(parents=True, exist_ok=True)
    graded.write_text("{}")
    return notebook


@pytest.mark.parametrize("state", ["grading", "failed"])
def test_unfinished_grading_is_not_graded(tmp_path, state):
    """Is a submission whose grading started but did not finish counted as not graded?"""
    notebook = submission(tmp_path)
    mark(tmp_path, "ada", "01_a", notebook, state)
    assert not is_graded(tmp_path, "ada", "01_a", notebook)


def test_a_changed_file_is_not_graded(tmp_path):
    """After the student's file changes, is the old grading no longer this file's?"""
    notebook = submission(tmp_path)
    mark(tmp_path, "ada", "01_a", notebook, "graded")
    assert is_graded(tmp_path, "ada", "01_a", notebook)
    notebook.write_text('{"changed": true}')
    assert not is_graded(tmp_path, "ada", "01_a", notebook)


def test_a_notebook_keeps_its_draw_through_every_later_state(tmp_path):
    """Once a grading recorded a notebook's draw, do the states that follow (grading again,
    regrade, failed) keep it until a grading records another, so that the next regrade
    draws what the last one did?"""
    notebook = submission(tmp_path)
    mark(tmp_path, "ada", "01_a", notebook, "graded", draw={"reseed": "r1", "draws": "d1"})
    for state in ("regrade", "grading", "failed"):
        mark(tmp_path, "ada", "01_a", notebook, state)
        assert (read_status(tmp_path, "ada", "01_a")["draws"],
                recorded_reseed(tmp_path, "ada", "01_a")) == ("d1", "r1")
    mark(tmp_path, "ada", "01_a", notebook, "graded", draw={"reseed": "", "draws": "d2"})
    assert (read_status(tmp_path, "ada", "01_a")["draws"],
            recorded_reseed(tmp_path, "ada", "01_a")) == ("d2", "")
    assert recorded_reseed(tmp_path, "bo", "01_a") == ""  # never graded: the first draw


def test_problems_are_kept_until_their_stage_runs_again(tmp_path):
    """Does a new run of one stage on one assignment replace only that stage's problems of
    that assignment (and of the students it looked at)?"""
    old_collect = Problem(tmp_path / "x.ipynb", "bad name", "rename it", assignment="01_a")
    old_grade = Problem(tmp_path / "y", "not a notebook", "resubmit", student="bob",
                        assignment="01_a")
    other = Problem(tmp_path / "z", "not a notebook", "resubmit", student="cy",
                    assignment="02_b")
    keep_problems(tmp_path, "collect", ["01_a"], [old_collect])
    keep_problems(tmp_path, "grade", ["01_a", "02_b"], [old_grade, other])
    keep_problems(tmp_path, "grade", ["01_a"], [], students=["bob"])
    kept = read_problems(tmp_path)
    assert [(p.stage, p.path.name) for p in kept] == [("collect", "x.ipynb"), ("grade", "z")]
    assert read_problems(tmp_path, ["02_b"])[0].student == "cy"


def test_keeping_the_same_problem_twice_keeps_it_once(tmp_path):
    """Does collecting the same bad file twice list it once?"""
    problem = Problem(tmp_path / "x", "bad", "fix", student="s", assignment="02_b")
    keep_problems(tmp_path, "collect", ["01_a"], [problem])
    keep_problems(tmp_path, "collect", ["01_a"], [problem])
    assert len(read_problems(tmp_path)) == 1
