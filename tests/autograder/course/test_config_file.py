"""Is the course's nbgrader_config.py read as it is now, though a process keeps what it read
(serve reads it for every command), and is a file that cannot run said in one line?"""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.course.config_file import ConfigError, course_config


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


def test_a_config_that_cannot_run_is_one_error_naming_its_file_and_line(tmp_path):
    """A due date's dictionary left unclosed, or a misspelt name: is each a ConfigError that
    names the file and the line where it is, rather than traitlets' traceback?"""
    config = tmp_path / "nbgrader_config.py"
    config.write_text('c = get_config()\nc.Deadlines.extension_hours = {"ada": 3\n')
    with pytest.raises(ConfigError, match=r"nbgrader_config.py, line 2: '\{' was never closed"):
        course_config(tmp_path)
    config.write_text("c = get_config()\n\nc.Course.language = englsh\n")
    with pytest.raises(ConfigError, match="nbgrader_config.py, line 3: NameError: .*englsh"):
        course_config(tmp_path)
    config.write_text('c = get_config()\nc.Course.language = "en"\n')
    assert course_config(tmp_path).Course.language == "en"


def test_the_exchange_is_read_as_nbgrader_reads_it(tmp_path, monkeypatch):
    """With the exchange set in a Jupyter config folder (as a hub sets it in /etc/jupyter for
    every user; here JUPYTER_CONFIG_DIR), does serve's inbound folder follow it, as the
    students' nbgrader does, the course's own file still over it (its course id, over the
    folder's); and does grading's config (course_config) read the course's file alone?"""
    from autograder.course.config_file import as_nbgrader_reads, course_config
    from autograder.serve.inbound import inbound_folder

    hub = tmp_path / "jupyter"
    hub.mkdir()
    (hub / "nbgrader_config.py").write_text(
        "c = get_config()\nc.Exchange.root = '/srv/hub-exchange'\n"
        "c.CourseDirectory.course_id = 'hub-default'\nc.Exchange.timezone = 'Asia/Shanghai'\n")
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "nbgrader_config.py").write_text(
        "c = get_config()\nc.CourseDirectory.course_id = 'self-attention'\n")
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(hub))
    read = as_nbgrader_reads(tmp_path / "course")
    assert inbound_folder(read) == Path("/srv/hub-exchange/self-attention/inbound")
    assert read.Exchange.timezone == "Asia/Shanghai"
    assert "root" not in course_config(tmp_path / "course").Exchange
    (hub / "nbgrader_config.py").write_text("c = get_config()\nc.Exchange.root = (\n")
    with pytest.raises(ConfigError, match=r"nbgrader_config.py: SyntaxError.*nbgrader reads "
                                          r"this file too"):
        as_nbgrader_reads(tmp_path / "course")
