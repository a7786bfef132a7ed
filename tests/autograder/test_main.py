"""Tests for autograder/__main__.py: does a Ctrl-C in a command's first moments, before the
command line catches one, end the command as a later one does?"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder.course.directory import Course, nbgrader_env
from autograder.plumbing.timeline import VARIABLE

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
        timeline = tmp_path / f"timeline{delay}"
        run = subprocess.Popen([*COMMANDS[command], "grade", ID],
                               cwd=course.root, text=True, start_new_session=True,
                               env={**nbgrader_env(), VARIABLE: str(timeline)},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while not (timeline.exists() and timeline.read_text()):
            assert run.poll() is None and time.monotonic() < deadline, run.communicate()
            time.sleep(0.002)
        time.sleep(delay)
        os.killpg(run.pid, signal.SIGINT)
        _, err = run.communicate(timeout=120)
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, (delay, err[-3000:])
        assert run.returncode == 130 and err.strip().endswith("interrupted"), (
            delay, run.returncode, err)
