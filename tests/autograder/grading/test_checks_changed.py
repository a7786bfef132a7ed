"""Does grade, leaving a graded notebook as it is, say so when the hidden checks it was graded
with changed since (an instructor's mend), and only then?"""

from __future__ import annotations

from autograder.grading.checks_changed import checks_digest
from autograder.grading.parallel import grade
from tests.autograder.one_submission import ID, course_with_ada


def test_a_notebook_graded_before_a_mended_check_is_named(tmp_path):
    """ada's notebook graded, then checks.py mended: is the next grade's "already graded"
    followed by a warning naming the command that regrades it, and is the warning gone
    once it is graded again (and absent before the mend)?"""
    course = course_with_ada(tmp_path / "course")
    root = course.root
    said = []
    grade(root, [ID], workers=1, log=said.append)
    said.clear()
    grade(root, [ID], workers=1, log=said.append)
    assert "1 notebook already graded (use --force to grade it again)" in said, said
    assert not any("changed since" in line for line in said), said
    before = checks_digest(root, ID)
    checks = root / "assignments" / ID / "checks.py"
    checks.write_text(checks.read_text(encoding="utf-8") + "\n# a check mended\n",
                      encoding="utf-8")
    assert checks_digest(root, ID) != before
    said.clear()
    grade(root, [ID], workers=1, log=said.append)
    assert any(line.startswith("warning: 1 of them was graded with hidden checks that changed "
                               "since") and f"grade --force {ID}" in line for line in said), said
    grade(root, [ID], workers=1, force=True, log=lambda _: None)
    said.clear()
    grade(root, [ID], workers=1, log=said.append)
    assert not any("changed since" in line for line in said), said


def test_a_notebook_graded_before_its_due_date_was_set_is_named(tmp_path):
    """ada's notebook graded, then a due date set in nbgrader_config.py: does the next grade
    say her penalty is the old one until `grade --force` grades her again, naming her; does
    that regrade say her score changed (the penalty alone changed it); and is the warning
    gone once it has (and absent before the change)?"""
    course = course_with_ada(tmp_path / "course")
    root = course.root
    (root / "submitted" / "ada" / ID / "timestamp.txt").write_text("2026-06-01 00:00:00 UTC")
    grade(root, [ID], workers=1, log=lambda _: None)
    said = []
    grade(root, [ID], workers=1, log=said.append)
    assert not any("late penalty" in line for line in said), said
    with (root / "nbgrader_config.py").open("a", encoding="utf-8") as config:
        config.write(f"\nc.Deadlines.due_dates = {{{ID!r}: '2026-01-01 00:00:00 UTC'}}\n")
    said.clear()
    grade(root, [ID], workers=1, log=said.append)
    assert any(line.startswith("warning: 1 of them was graded under another due date, "
                               "extension or late penalty") and "(ada)" in line
               and f"grade --force {ID}" in line for line in said), said
    said.clear()
    grade(root, [ID], workers=1, force=True, log=said.append)
    assert any(line.startswith(f"score changed: ada {ID}: ") and line.endswith("-> 0")
               for line in said), said  # handed in months late: the whole score
    said.clear()
    grade(root, [ID], workers=1, log=said.append)
    assert not any("late penalty" in line for line in said), said
