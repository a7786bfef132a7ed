"""Does a course made before the kit's modules moved into rooms still get the kit's stages
from its nbgrader_config.py, which names the old module (`autograder.stages`)?"""

from __future__ import annotations

import subprocess
import sys

from autograder.course.config_file import course_config
from autograder.course.stages import kit_stages
from autograder.plumbing.moved_modules import MOVED

OLD_LINE = "from autograder.stages import kit_stages\n"
NEW_LINE = "from autograder.course.stages import kit_stages\n"
CONFIG = "c = get_config()  # noqa: F821\nc.merge(kit_stages())\nc.Course.language = 'zh'\n"


def test_an_old_courses_config_gives_the_same_settings_as_a_new_one(tmp_path):
    """Does nbgrader_config.py with the old import line read as the same settings as one with
    the new line (nbgrader, failing to import, would log it and grade without the sandbox)?"""
    old, new = tmp_path / "old", tmp_path / "new"
    for folder, line in ((old, OLD_LINE), (new, NEW_LINE)):
        folder.mkdir()
        (folder / "nbgrader_config.py").write_text(line + CONFIG, encoding="utf-8")
    read = course_config(old)
    assert read == course_config(new)
    stages = kit_stages()
    assert stages and all(read[section] == stages[section] for section in stages
                          if section != "Course")
    assert read.Course.language == "zh"


def test_each_old_name_is_the_new_module_in_a_fresh_process():
    """In a process that imported nothing before, is each old name the very module of its new
    name (one module, not a copy run twice)?"""
    for old, new in MOVED.items():
        code = (f"import {old} as old, {new} as new, sys; "
                f"assert old is new and sys.modules[{old!r}] is new, (old, new)")
        subprocess.run([sys.executable, "-c", code], check=True)
