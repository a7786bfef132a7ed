"""`init --config-only DIR`: the way back to a course folder's lost nbgrader_config.py."""

from __future__ import annotations

import json

import pytest

from autograder.build import BuildError
from autograder.build.course_folder import config_text, write_config
from autograder.cli import main


def test_config_only_writes_the_config_init_writes(tmp_path):
    """Into a course folder without nbgrader_config.py, does --config-only write the config a
    new course gets, and touch nothing else there?"""
    (tmp_path / "assignments").mkdir()
    (tmp_path / "gradebook.db").write_bytes(b"grades")
    assert main(["init", "--config-only", str(tmp_path)]) == 0
    assert (tmp_path / "nbgrader_config.py").read_text(encoding="utf-8") == config_text("en")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["assignments", "gradebook.db",
                                                          "nbgrader_config.py"]
    assert (tmp_path / "gradebook.db").read_bytes() == b"grades"


def test_config_only_never_replaces_a_config(tmp_path, capsys):
    """Is an existing nbgrader_config.py kept byte for byte, with exit 1 and a line saying
    why?"""
    (tmp_path / "nbgrader_config.py").write_text("c = 1  # the instructor's\n")
    assert main(["init", "--config-only", str(tmp_path)]) == 1
    assert (tmp_path / "nbgrader_config.py").read_text() == "c = 1  # the instructor's\n"
    assert "never replaces it" in capsys.readouterr().err


def test_config_only_refuses_a_folder_that_is_not_there(tmp_path):
    """Is a DIR that does not exist refused (a new course is init's other use)?"""
    with pytest.raises(BuildError, match="not a folder"):
        write_config(tmp_path / "nowhere", log=lambda line: None)
    assert not (tmp_path / "nowhere").exists()


def test_config_only_takes_the_language_of_the_built_notebooks(tmp_path):
    """With no --language, is a course whose source/ notebooks are Chinese given a Chinese
    config, and does --language still win?"""
    folder = tmp_path / "source" / "01_a"
    folder.mkdir(parents=True)
    notebook = {"cells": [{"cell_type": "markdown", "source": ["# 手算注意力\n"]}]}
    (folder / "01_a.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    write_config(tmp_path, log=lambda line: None)
    assert 'c.Course.language = "zh"' in (tmp_path / "nbgrader_config.py").read_text("utf-8")
    (tmp_path / "nbgrader_config.py").unlink()
    write_config(tmp_path, "en", log=lambda line: None)
    assert 'c.Course.language = "en"' in (tmp_path / "nbgrader_config.py").read_text("utf-8")


def test_config_only_takes_no_ids(capsys):
    """Is `init --config-only DIR 01_a` a wrong command line (exit 2), not a silent init?"""
    with pytest.raises(SystemExit) as stopped:
        main(["init", "--config-only", "somewhere", "01_a"])
    assert stopped.value.code == 2
    assert "--config-only writes nbgrader_config.py alone" in capsys.readouterr().err
