"""Does an assignment say when the similarity report flags a pair of its notebooks: its
checks.py's SIMILARITY, the kit's default without one, and an error naming the file when it
declares something else?

The assignment is the one `python -m autograder new` writes (tools/scaffold.py), in a fresh
course folder, its checks.py then edited as an instructor would."""

from __future__ import annotations

import pytest

from autograder.checks.loader import AssignmentError, load_assignment
from autograder.checks.model import Similar
from autograder.tools.scaffold import new_assignment

ID = "11_rotary"


@pytest.fixture
def course(tmp_path):
    new_assignment(tmp_path, ID, log=lambda _: None)
    return tmp_path


def declare(root, line):
    checks = root / "assignments" / ID / "checks.py"
    checks.write_text(checks.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    return checks


def test_without_a_declaration_the_kits_default_flags(course):
    """Without SIMILARITY, is the flag the kit's default: half of one notebook's code, no
    count of characters?"""
    assert load_assignment(course, ID).similar == Similar(share=0.5, characters=0)


def test_the_assignments_own_flag_is_read(course):
    """Is SIMILARITY = Similar(share=0.4, characters=120) the flag, and does it flag a pair
    only when both the share and the characters reach it?"""
    declare(course, "from autograder.checks.model import Similar\n"
                    "SIMILARITY = Similar(share=0.4, characters=120)")
    flag = load_assignment(course, ID).similar
    assert flag == Similar(0.4, 120)
    assert flag.flags(0.4, 120) and not flag.flags(0.9, 119) and not flag.flags(0.39, 500)


@pytest.mark.parametrize("line, said", [
    ("SIMILARITY = 0.4", "SIMILARITY must be Similar(share=..., characters=...)"),
    ("from autograder.checks.model import Similar\nSIMILARITY = Similar(share=40)",
     "share=40: give a share above 0 and at most 1"),
    ("from autograder.checks.model import Similar\nSIMILARITY = Similar(0.5, characters=-1)",
     "characters=-1: give a number of characters, 0 or more"),
])
def test_a_wrong_declaration_names_the_file(course, line, said):
    """Does a SIMILARITY that is no Similar, or a Similar out of its range, stop with an
    AssignmentError that names checks.py and says what to write?"""
    checks = declare(course, line)
    with pytest.raises(AssignmentError) as raised:
        load_assignment(course, ID).similar  # noqa: B018 - reading it is what is checked
    assert str(checks) in str(raised.value) and said in str(raised.value)
