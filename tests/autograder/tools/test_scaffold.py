"""Does `new` write an assignment that a Chinese course holding the kit's nine loads as it
is?"""

from __future__ import annotations

import shutil
from pathlib import Path

from autograder.checks.loader import assignment_ids, load_assignment
from autograder.tools.scaffold import new_assignment

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
