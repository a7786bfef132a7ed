"""A command of the kit's, interrupted as a terminal's Ctrl-C interrupts it: SIGINT to every
process of its group, at a moment its timeline says (plumbing/timeline.py) or a delay after
its start."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from autograder.course.directory import nbgrader_env
from autograder.plumbing.timeline import VARIABLE


def ctrl_c_at(command, cwd, delay, folder: Path, mark=None, env=None):
    """(exit status, stderr) of `command` run in `cwd`, interrupted `delay` s after its
    timeline (written in `folder`) shows `mark` (any line, for ""), or after its start (None).
    `env`: more of the environment."""
    timeline = folder / f"timeline-{delay}"
    timeline.unlink(missing_ok=True)  # an earlier run's marks are not this one's
    run = subprocess.Popen(command, cwd=cwd, text=True, start_new_session=True,
                           env={**nbgrader_env(), VARIABLE: str(timeline), **(env or {})},
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while mark is not None and not marked(timeline, mark):
        assert run.poll() is None and time.monotonic() < deadline, run.communicate()
        time.sleep(0.002)
    time.sleep(delay)
    os.killpg(run.pid, signal.SIGINT)
    _, err = run.communicate(timeout=120)
    return run.returncode, err


def marked(timeline: Path, mark):
    """Whether a line of `timeline` has `mark` in it."""
    return timeline.exists() and any(mark in line for line in timeline.read_text().splitlines())


def said_interrupted(returncode, err, delay):
    """Did the command end as an interrupted one: 130, "interrupted" its last word, and no
    traceback?"""
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, (delay, err[-3000:])
    assert returncode == 130 and err.strip().endswith("interrupted"), (delay, returncode, err)
