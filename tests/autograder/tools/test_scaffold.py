"""Does `new` write an assignment that a Chinese course holding the kit's nine loads as it
is?"""

from __future__ import annotations

import shutil
from pathlib import Path

from autograder.checks.audit import untranslated_texts
from autograder.checks.loader import assignment_ids, load_assignment
from autograder.checks.model import Similar
from autograder.tools.scaffold import ZH_TITLE, new_assignment, scaffold_files

ROOT = Path(__file__).resolve().parents[3]


def test_a_new_chinese_assignment_agrees_with_every_text_of_the_course(tmp_path):
    """Do the new assignment's Chinese texts agree with those the course's nine assignments
    and their shared zh.py give the same English (a text given two translations is refused,
    so `build` of the new assignment would fail)?"""
    course = tmp_path / "course"
    shutil.copytree(ROOT / "assignments", course / "assignments",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "nbgrader_config.py", course)
    new_assignment(course, "10_new_topic", language="zh", log=lambda _: None)
    ids = assignment_ids(course)
    assert "10_new_topic" in ids and len(ids) == 10
    for assignment_id in ids:
        load_assignment(course, assignment_id)  # raises on a text with two translations


def test_a_new_chinese_notebook_has_a_chinese_title(tmp_path):
    """Does the Chinese notebook of `new 10_my_topic` in a Chinese course get a Chinese title
    to write, numbered as the id (not the id's English words), and the English one the id's
    words; and does a --title name both?"""
    (tmp_path / "nbgrader_config.py").write_text("", encoding="utf-8")
    folder = new_assignment(tmp_path, "10_my_topic", language="zh", log=lambda _: None)
    text = (folder / "notebook.py").read_text(encoding="utf-8")
    titles = [line for line in text.splitlines() if line.startswith("# # ")]
    assert titles == ["# # My topic", f"# # {ZH_TITLE.format(number=10)}"], titles
    named = scaffold_files("11_keys", language="zh", title="键与值")["notebook.py"]
    assert [line for line in named.splitlines() if line.startswith("# # ")] == ["# # 键与值"] * 2


def test_a_new_assignment_says_its_one_line_steps_cannot_tell_a_copy(tmp_path):
    """Does the scaffold declare that its short code tells no copy (Similar(tells=False)), so
    that the similarity report does not flag every pair of a class that wrote the same line?"""
    (tmp_path / "nbgrader_config.py").write_text("", encoding="utf-8")
    new_assignment(tmp_path, "10_my_topic", log=lambda _: None)
    declared = load_assignment(tmp_path, "10_my_topic").similar
    assert declared == Similar(tells=False), declared


def test_a_new_chinese_assignment_leaves_no_text_in_english(tmp_path):
    """Does `new` in a Chinese course give every text of its hidden checks a Chinese one, so
    that `validate` passes it as written (untranslated_texts finds none)?"""
    (tmp_path / "nbgrader_config.py").write_text("", encoding="utf-8")
    new_assignment(tmp_path, "10_my_topic", language="zh", log=lambda _: None)
    assert untranslated_texts(load_assignment(tmp_path, "10_my_topic"), "zh") == []
