"""Tests for autograder/__main__.py: does a Ctrl-C in a command's first moments, before the
command line catches one, end the command as a later one does?"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from autograder.course.directory import Course
from tests.autograder.ctrl_c_at import ctrl_c_at, said_interrupted

KIT = Path(__file__).resolve().parents[2]
ID = "01_attention_by_hand"


COMMANDS = {"python -m autograder": (sys.executable, "-m", "autograder"),
            "attention-kit": (str(Path(sys.executable).with_name("attention-kit")),)}


@pytest.mark.parametrize("command", COMMANDS)
def test_a_ctrl_c_while_the_command_line_starts_says_interrupted(tmp_path, command):
    """Pressed from the moment the command starts (its timeline's first mark) to half a
    second later, while it restarts itself to hash as the kernels do, Python imports the
    command line and it parses the command (a grade imports for some 2 s more): does the
    command end with 130 and the word "interrupted", and no traceback of the import it
    stopped?"""
    course = Course.create(tmp_path / "course", KIT, [ID])
    for delay in (0.0, 0.03, 0.06, 0.1, 0.15, 0.2, 0.3, 0.5):
        said_interrupted(*ctrl_c_at([*COMMANDS[command], "grade", ID], course.root, delay,
                                    tmp_path, mark=""), delay)
