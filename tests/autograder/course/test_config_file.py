"""Is the course's nbgrader_config.py read as it is now, though a process keeps what it read
(serve reads it for every command)?"""

from __future__ import annotations

from autograder.course.config_file import course_config


def test_a_config_is_read_again_when_its_text_changes_and_each_caller_owns_its_copy(tmp_path):
    """Does a change of the file's text (same size, written at once) show at the next read,
    without the overrides or the changes of an earlier caller?"""
    config = tmp_path / "nbgrader_config.py"
    config.write_text('c = get_config()\nc.Course.language = "en"\n')
    first = course_config(tmp_path, ExecutePreprocessor={"timeout": 3})
    first.Course.language = "fr"
    assert course_config(tmp_path).Course.language == "en"
    assert "timeout" not in course_config(tmp_path).ExecutePreprocessor
    config.write_text('c = get_config()\nc.Course.language = "zh"\n')
    assert course_config(tmp_path).Course.language == "zh"
    assert first.ExecutePreprocessor.timeout == 3
