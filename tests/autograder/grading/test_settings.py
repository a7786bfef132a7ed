"""Is a setting of the wrong kind in nbgrader_config.py refused before anything is graded,
naming the setting, instead of failing every notebook as if the notebooks were at fault?"""

from __future__ import annotations

import pytest

from autograder.course.directory import Course
from tests.autograder.grading.test_changed_release import ID, ROOT, hand_in, kit


def graded_with(tmp_path, setting):
    """(the course, grade's run) of a course of ada's notebook with `setting` added to its
    nbgrader_config.py."""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    course.generate(ID)
    hand_in(course, "ada")
    with (course.root / "nbgrader_config.py").open("a") as config:
        config.write(f"\n{setting}\n")
    return course, kit(course, "grade")


@pytest.mark.parametrize("setting, trait", [
    ('c.GradeInSandbox.cell_timeout = "ten"', "'cell_timeout' trait of a GradeInSandbox"),
    ('c.Cluster.worker_memory_mb = "lots"', "'worker_memory_mb' trait of a Cluster"),
])
def test_a_setting_of_the_wrong_kind_stops_grade_before_any_notebook(tmp_path, setting,
                                                                     trait):
    """With a string where a number goes: does grade exit 1 with one line naming the file,
    the setting and the kind it takes, grading nothing and blaming no notebook?"""
    course, result = graded_with(tmp_path, setting)
    said = result.stdout + result.stderr
    assert result.returncode == 1, said
    assert f"nbgrader_config.py: The {trait} instance expected" in said, said
    assert "Set it to a value of that kind" in said
    assert "fix the notebook" not in said and "Traceback" not in said, said
    assert not (course.root / "autograded").exists()


@pytest.mark.parametrize("setting, said", [
    ('c.Course.langauge = "en"', "c.Course.langauge, which is no setting of c.Course (did you "
                                 "mean language?)"),
    ('c.Deadline.due_dates = {"01_attention_by_hand": "2026-12-01 00:00:00 UTC"}',
     "c.Deadline, which is no section of the kit's or nbgrader's: did you mean c.Deadlines?"),
    ("c.PercentPerDay.percent_per_days = 20", "c.PercentPerDay.percent_per_days, which is no "
                                              "setting of c.PercentPerDay (did you mean "
                                              "percent_per_day?)"),
])
def test_a_misspelt_setting_stops_grade_naming_the_one_meant(tmp_path, setting, said):
    """A misspelt setting of the kit's, which traitlets takes without a word (a due date
    under c.Deadline is never applied): does grade exit 1 naming it and the one meant,
    grading nothing?"""
    course, result = graded_with(tmp_path, setting)
    shown = " ".join((result.stdout + result.stderr).split())
    assert result.returncode == 1, shown
    assert f"nbgrader_config.py sets {said}" in shown, shown
    assert "Traceback" not in shown
    assert not (course.root / "autograded").exists()
