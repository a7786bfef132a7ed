"""Does `validate` judge an assignment on its solutions and stubs alone, whatever else the
course's config says?"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

from autograder.course.directory import CONFIG, Course
from autograder.tools.validate import validate

ROOT = Path(__file__).resolve().parents[3]
ID, OTHER = "01_attention_by_hand", "02_embeddings"


def test_a_course_with_deadlines_validates_one_assignment(tmp_path):
    """With due dates for two assignments (one past), does `validate ID` pass the one asked
    for, say nothing of its throwaway course's secret, say that what it registers and grades
    is in a scratch course (not the course's gradebook), and leave the config as it was?"""
    course = Course.create(tmp_path / "course", ROOT, [ID, OTHER]).root
    shutil.copytree(ROOT / "release" / ID, course / "release" / ID)
    past = (datetime.now(UTC) - timedelta(days=1)).strftime("%Y-%m-%d %H:%M:%S")
    with (course / CONFIG).open("a", encoding="utf-8") as config:
        config.write(f"\nc.Deadlines.due_dates = {{{ID!r}: {past!r}, "
                     f"{OTHER!r}: '2099-01-01 00:00:00'}}\n"
                     f"c.Deadlines.extension_hours = {{{OTHER!r}: {{'ada': 24}}}}\n")
    before = (course / CONFIG).read_text(encoding="utf-8")
    said = []
    assert validate(course, [ID], workers=1, log=said.append) == [], said
    assert not [line for line in said if "secret" in line], said
    scratch = [i for i, line in enumerate(said) if "scratch course" in line]
    registering = [i for i, line in enumerate(said) if "registering" in line]
    assert scratch and registering and scratch[0] < registering[0], said
    assert (course / CONFIG).read_text(encoding="utf-8") == before
