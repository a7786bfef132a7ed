"""`init`: its closing lines, and `init --config-only DIR`, the way back to a course folder's lost
nbgrader_config.py."""

from __future__ import annotations

import json

import pytest

from autograder.build import BuildError
from autograder.build.course_folder import closing_lines, config_text, write_config
from autograder.build.render import KIT_METADATA
from autograder.cli import main
from autograder.course.directory import course_language


def test_config_only_writes_the_config_init_writes(tmp_path):
    """Into a course folder without nbgrader_config.py, does --config-only write the config a
    new course gets, and touch nothing else there?"""
    (tmp_path / "assignments").mkdir()
    (tmp_path / "gradebook.db").write_bytes(b"grades")
    assert main(["init", "--config-only", "--language", "en", str(tmp_path)]) == 0
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


def built_notebook(course, assignment_id, title, language=None):
    """A notebook in course/source/ whose first cell is `title`, recording `language` as the
    build does (none recorded: an older kit's)."""
    folder = course / "source" / assignment_id
    folder.mkdir(parents=True)
    metadata = {} if language is None else {KIT_METADATA: {"language": language}}
    notebook = {"cells": [{"cell_type": "markdown", "source": [title]}], "metadata": metadata}
    (folder / f"{assignment_id}.ipynb").write_text(json.dumps(notebook), encoding="utf-8")


def restored_language(course):
    text = (course / "nbgrader_config.py").read_text("utf-8")
    return next(line for line in text.splitlines() if line.startswith("c.Course.language"))


def test_config_only_takes_the_language_the_notebooks_record(tmp_path):
    """Does an English notebook that quotes a Chinese title come back English, a Chinese one
    Chinese, and does --language still win?"""
    english, chinese = tmp_path / "en", tmp_path / "zh"
    built_notebook(english, "01_a", "# Attention by hand (教你动手推导Self-Attention！)\n", "en")
    built_notebook(chinese, "01_a", "# 手算注意力\n", "zh")
    for course, code in ((english, "en"), (chinese, "zh")):
        write_config(course, log=lambda line: None)
        assert restored_language(course) == f'c.Course.language = "{code}"'
    (english / "nbgrader_config.py").unlink()
    write_config(english, "zh", log=lambda line: None)
    assert restored_language(english) == 'c.Course.language = "zh"'


@pytest.mark.parametrize("recorded", [None, "disagree"])
def test_config_only_asks_for_the_language_where_nothing_records_it(tmp_path, capsys,
                                                                    recorded):
    """Where no notebook records its language (an older kit's build, or two that disagree),
    is --config-only refused with exit 1 and the command that says it, nothing written?"""
    if recorded is None:
        built_notebook(tmp_path, "01_a", "# 手算注意力\n")
    else:
        built_notebook(tmp_path, "01_a", "# Attention\n", "en")
        built_notebook(tmp_path, "02_b", "# 嵌入\n", "zh")
    assert main(["init", "--config-only", str(tmp_path)]) == 1
    said = capsys.readouterr().err
    assert "records no language" in said
    assert f"init --config-only --language en {tmp_path}" in said
    assert not (tmp_path / "nbgrader_config.py").exists()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_course_made_by_init_gets_its_own_language_back(tmp_path, language):
    """An English and a Chinese course made by init lose nbgrader_config.py: does
    --config-only give each its own language back, the console saying which, and do the
    course's commands then answer in it?"""
    course = tmp_path / "course"
    assert main(["init", "--language", language, str(course), "01_attention_by_hand"]) == 0
    (course / "nbgrader_config.py").unlink()
    said = []
    write_config(course, log=said.append)
    assert restored_language(course) == f'c.Course.language = "{language}"'
    assert {"en": "(English)", "zh": "(Simplified Chinese)"}[language] in said[0]
    assert course_language(course) == language


def test_config_only_speaks_the_language_of_the_course_it_restores(tmp_path, capsys):
    """Does `init --config-only` in a Chinese course, with no --language, say what it wrote
    in Chinese (the course's language, which it writes), as every command there does?"""
    built_notebook(tmp_path, "01_a", "# 手算注意力\n", "zh")
    assert main(["init", "--config-only", str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert "简体中文" in said and "wrote" not in said, said


def test_config_only_takes_no_ids(capsys):
    """Is `init --config-only DIR 01_a` a wrong command line (exit 2), not a silent init?"""
    with pytest.raises(SystemExit) as stopped:
        main(["init", "--config-only", "somewhere", "01_a"])
    assert stopped.value.code == 2
    assert "--config-only writes nbgrader_config.py alone" in capsys.readouterr().err


@pytest.mark.parametrize("count, said", [(1, "(1 assignment, English)"),
                                         (9, "(9 assignments, English)")])
def test_init_counts_its_assignments_in_words(tmp_path, count, said):
    """Does init's closing line say "1 assignment" and "9 assignments", not "1 assignments"?"""
    assert said in closing_lines(tmp_path / "course", count, "en")


def test_nbgrader_from_a_virtualenv_not_activated_works_in_a_new_course(tmp_path):
    """An instructor who types the path of the virtualenv's nbgrader, not activated (no
    `alembic` on PATH): after init, does `nbgrader generate_assignment` run in the course and
    keep the release (nbgrader made the gradebook without its version, then removed the
    release it was generating), because init made the gradebook with it?"""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from sqlalchemy import create_engine, text

    course = tmp_path / "course"
    assert main(["init", str(course), "--language", "en", "01_attention_by_hand"]) == 0
    engine = create_engine(f"sqlite:///{course / 'gradebook.db'}")
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    engine.dispose()
    nbgrader = Path(sys.executable).parent / "nbgrader"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "KIT_"))}
    env["PATH"] = "/usr/bin:/bin"  # the login shell's: no alembic, no python of the kit
    done = subprocess.run([nbgrader, "generate_assignment", "01_attention_by_hand", "--force"],
                          cwd=course, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (course / "release" / "01_attention_by_hand" / "01_attention_by_hand.ipynb").is_file()


def test_the_self_check_tells_the_course_s_own_limit_for_a_cell(tmp_path):
    """Does a course's check_notebook.py tell the seconds its grading gives a cell: the
    default from init, and the course's own c.GradeInSandbox.cell_timeout once it is set and
    the assignment built again?"""
    course = tmp_path / "course"
    assert main(["init", str(course), "01_attention_by_hand"]) == 0
    script = course / "release" / "01_attention_by_hand" / "check_notebook.py"
    assert "\nCELL_LIMIT = 10\n" in script.read_text(encoding="utf-8")
    with open(course / "nbgrader_config.py", "a", encoding="utf-8") as config:
        config.write("\nc.GradeInSandbox.cell_timeout = 7.5\n")
    assert main(["--root", str(course), "build", "01_attention_by_hand"]) == 0
    assert "\nCELL_LIMIT = 7.5\n" in script.read_text(encoding="utf-8")
