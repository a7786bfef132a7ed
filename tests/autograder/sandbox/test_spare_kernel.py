"""Does a process that keeps a judging kernel started ahead (serve) hand the next judging a
kernel like any it would start, guarded before anything of the notebook reaches it; does it
refuse one of other settings or one that died, and end every one it started, its scratch
folder with it? Real kernels, forked from the real template."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from autograder.sandbox import spare_kernel
from autograder.sandbox.kernel import Limits, SandboxedKernel, Settings, Zygote
from tests.autograder.sandbox.conftest import ROOT, guarded, run

LIMITS = Limits(memory_bytes=4 << 30, file_bytes=1 << 20, processes=64)


@pytest.fixture()
def kept():
    """This process keeps a spare from now on, its template started by this thread as a
    grading's first kernel starts it; after the test, none is kept or left."""
    Zygote.shared(settings().mechanism)
    spare_kernel.keep()
    yield
    spare_kernel.discard()
    spare_kernel._forget_after_fork()  # back to a process that keeps none


def settings(**changes):
    return Settings(**{"hidden": (str(ROOT),), "limits": LIMITS, **changes})


def started_ahead(wanted):
    spare_kernel.prepare(wanted)
    spare_kernel.start_pending()
    spare_kernel._wait_for_start()
    return spare_kernel._state["kernel"]


def gone(pid):
    """Whether the process `pid` ended (a zombie counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_the_next_judging_takes_the_kernel_started_ahead(kept, tmp_path):
    """Is the kernel started ahead the one the next judging kernel becomes (its process, in a
    scratch folder holding nothing of a notebook's), guarded and running code as a kernel
    started for it would, and is none left waiting after it was taken?"""
    ahead = started_ahead(settings())
    assert ahead is not None and ahead.alive()
    pid, scratch = ahead.pid, ahead.scratch
    assert not [name for name in os.listdir(scratch) if not name.startswith(".")]

    judging = SandboxedKernel(tmp_path, settings())
    judging.take_over(spare_kernel.take(settings()))
    try:
        assert judging.pid == pid and judging.scratch == scratch
        assert ahead.pid is None and spare_kernel._state["kernel"] is None
        link = guarded(judging)
        assert link is not None
        assert run(judging, "print(sum(range(10)))") == ("45", [])
        assert run(judging, "open('/etc/shadow').read()")[1], "the sandbox let it read"
    finally:
        judging.stop()
    assert gone(pid) and not Path(scratch).exists()


def test_a_kernel_of_other_settings_or_dead_is_ended_not_taken(kept):
    """A judging kernel asked for with other settings (another assignment's folder hidden)
    does not get the one started ahead: that one is ended, its folder removed. And one that
    died while it waited is not taken either."""
    ahead = started_ahead(settings())
    pid, scratch = ahead.pid, ahead.scratch
    assert spare_kernel.take(settings(hidden=(str(ROOT), "/srv/other"))) is None
    assert gone(pid) and not Path(scratch).exists()

    ahead = started_ahead(settings())
    pid, scratch = ahead.pid, ahead.scratch
    ahead.template().ask({"op": "kill", "pid": pid, "uid": ahead.uid})
    deadline = time.monotonic() + 10
    while ahead.alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert spare_kernel.take(settings()) is None
    assert not Path(scratch).exists()


def test_nothing_is_started_ahead_unless_kept_and_nothing_outlives_discard(kept):
    """A process that does not keep a spare (a class's grading) starts none; one that does
    ends it on discard, its process and its folder."""
    spare_kernel._forget_after_fork()  # as a grading worker, forked: keeps none
    assert started_ahead(settings()) is None
    spare_kernel.keep()
    ahead = started_ahead(settings())
    pid, scratch = ahead.pid, ahead.scratch
    spare_kernel.discard()
    assert spare_kernel._state["kernel"] is None
    assert gone(pid) and not Path(scratch).exists()


def test_no_kernel_is_started_ahead_without_a_template_running(kept, tmp_path):
    """With no template running (it died, or none started yet), is no kernel started ahead:
    the thread that starts it would start a template, which dies as that thread ends, and the
    next judging would find its kernel dead?"""
    Zygote.close_shared()
    assert started_ahead(settings()) is None
    judging = SandboxedKernel(tmp_path, settings())  # the grading's own thread starts one
    judging.start()
    try:
        assert run(judging, "print(6 * 7)") == ("42", [])
    finally:
        judging.stop()
