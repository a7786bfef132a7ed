"""Is a setting of the wrong kind in nbgrader_config.py refused before anything is graded,
naming the setting, instead of failing every notebook as if the notebooks were at fault?"""

from __future__ import annotations

import pytest

from autograder.course.directory import Course
from tests.autograder.grading.test_changed_release import ID, ROOT, hand_in, kit


@pytest.mark.parametrize("setting, trait", [
    ('c.GradeInSandbox.cell_timeout = "ten"', "'cell_timeout' trait of a GradeInSandbox"),
    ('c.Cluster.worker_memory_mb = "lots"', "'worker_memory_mb' trait of a Cluster"),
])
def test_a_setting_of_the_wrong_kind_stops_grade_before_any_notebook(tmp_path, setting,
                                                                     trait):
    """With a string where a number goes: does grade exit 1 with one line naming the file,
    the setting and the kind it takes, grading nothing and blaming no notebook?"""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    course.generate(ID)
    hand_in(course, "ada")
    with (course.root / "nbgrader_config.py").open("a") as config:
        config.write(f"\n{setting}\n")
    result = kit(course, "grade")
    said = result.stdout + result.stderr
    assert result.returncode == 1, said
    assert f"nbgrader_config.py: The {trait} instance expected" in said, said
    assert "Set it to a value of that kind" in said
    assert "fix the notebook" not in said and "Traceback" not in said, said
    assert not (course.root / "autograded").exists()
