"""What `grade` says before it grades (grading/parallel.py)."""

from __future__ import annotations

from autograder.grading.parallel import say_unmatched_students
from autograder.i18n import language


def test_a_student_named_but_not_handed_in_is_said_with_the_closest_ids(tmp_path):
    """Does `--student adaa` (a typo) say that no student of submitted/ is adaa, naming ada;
    one with no close id say how many there are; and a glob that matches, or an exact id,
    say nothing?"""
    for student in ("ada", "ben", "cy"):
        (tmp_path / "submitted" / student).mkdir(parents=True)
    said = []
    say_unmatched_students(tmp_path, ["adaa", "zzzzzz", "b*", "cy"], said.append)
    assert said == [
        "warning: --student adaa: no student of submitted/ is adaa (did you mean ada?); "
        "check the id",
        "warning: --student zzzzzz: no student of submitted/ is zzzzzz (it holds 3 "
        "students); check the id"]
    with language("zh"):
        said = []
        say_unmatched_students(tmp_path, ["adaa"], said.append)
    assert "是不是 ada" in said[0], said


def test_no_submitted_folder_says_it_holds_none(tmp_path):
    """Without a submitted/ folder, is a named student said to be none of its 0 students?"""
    said = []
    say_unmatched_students(tmp_path, ["ada"], said.append)
    assert said == ["warning: --student ada: no student of submitted/ is ada (it holds 0 "
                    "students); check the id"]
