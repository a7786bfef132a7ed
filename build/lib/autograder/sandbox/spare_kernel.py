"""A judging kernel started ahead, for a process that grades one notebook at a time and waits
between them (`serve`, which turns it on: keep).

The kernel that judges a notebook's steps runs in a folder with none of the notebook's files
(grading/session.py, begin_judging): nothing of the notebook is in it until its guard, its
seed and the course's cells are sent, after it has started. So one can be started before its
notebook is known: once a notebook is graded (prepare) and its command has answered
(start_pending, in a thread of its own), the next notebook's judging takes it (take) instead
of waiting for a start, about 60 ms of a warm grade.

It is a kernel as any other: forked from the same template, in the same sandbox, with the same
settings, nothing run in it. One started with other settings (another assignment's folder to
hide, another course setting), or that died, is not taken: it is ended, and the judging starts
its own. Where kernels run as a sandbox user of their own (the grader runs as root), ending a
kernel ends every process of that user, the one waiting too: a notebook whose cells ran in a
kernel before judging finds none, and its judging starts one as before. A class's grading never
keeps one: its workers have no time to wait in. At most one waits; it ends with the process's
templates (discard), and a forked process forgets its parent's.
"""

from __future__ import annotations

import os
import shutil
import threading

from autograder.plumbing.timeline import mark
from autograder.sandbox.kernel import (
    SCRATCH_PREFIXES,
    SandboxedKernel,
    Zygote,
    new_scratch,
    remove_scratch,
)

_lock = threading.Lock()
_state = {"kept": False, "wanted": None, "kernel": None, "starting": None}
# kept: turned on (keep); wanted: the settings of the kernel to start next (prepare)


def keep():
    """This process keeps a judging kernel started ahead from now on."""
    _state["kept"] = True


def prepare(settings):
    """A judging kernel of `settings` is to be started ahead (start_pending), when this process
    keeps one."""
    with _lock:
        if _state["kept"]:
            _state["wanted"] = settings


def start_pending():
    """Start in the background the kernel prepare asked for, when none waits or is being
    started: called once the command that graded has answered (serve), so that the start does
    not take the cores from that command's end."""
    with _lock:
        settings, _state["wanted"] = _state["wanted"], None
        if settings is None or _state["kernel"] is not None or _state["starting"]:
            return
        _state["starting"] = threading.Thread(target=_start, args=(settings,), daemon=True,
                                              name="kit spare kernel")
        _state["starting"].start()


class AheadKernel(SandboxedKernel):
    """A kernel started ahead, by a thread of its own, from the template that runs: that
    thread never starts a template, which would die as the thread ends (zygote.py: the parent's
    death signal), its kernels with it."""

    def template(self):
        running = Zygote.running(self.mechanism)
        if running is None:
            raise RuntimeError("no kernel template runs in this process")
        return running


def _start(settings):
    empty = new_scratch(SCRATCH_PREFIXES[1])
    kernel = AheadKernel(empty, settings)
    try:
        kernel.start()
    except (RuntimeError, OSError):  # none waits: the next judging starts its own
        _end(kernel)
        kernel = None
    finally:
        shutil.rmtree(empty, ignore_errors=True)
    with _lock:
        _state["kernel"], _state["starting"] = kernel, None


def take(settings):
    """The kernel started ahead, when it has these settings and lives (one still starting is
    waited for); else None, and one that waited is ended."""
    kernel = _waiting()
    if kernel is None:
        return None
    if kernel.settings != settings or not kernel.alive():
        _end(kernel)
        return None
    mark("kernel: spare taken")
    return kernel


def discard():
    """End the kernel waiting (or being started): before the process's templates end, which
    kill their kernels but leave their scratch folders."""
    kernel = _waiting()
    if kernel is not None:
        _end(kernel)


def _waiting():
    """The kernel waiting, which the state no longer holds (one being started is waited for),
    or None."""
    _wait_for_start()
    with _lock:
        kernel, _state["kernel"] = _state["kernel"], None
    return kernel


def _wait_for_start():
    with _lock:
        starting = _state["starting"]
    if starting is not None:
        starting.join()


def _end(kernel):
    """Stop a kernel; its scratch folder goes even when its template cannot be asked to kill
    it (grading was stopped: the template's end kills it), which leaves stop before it."""
    try:
        kernel.stop()
    except (RuntimeError, OSError):
        if kernel.scratch:
            remove_scratch(kernel.scratch)


def _forget_after_fork():
    """A forked process (a grading worker) keeps no kernel of its parent's."""
    global _lock
    _lock = threading.Lock()  # the parent's may have been held by another of its threads
    _state.update(kept=False, wanted=None, kernel=None, starting=None)


os.register_at_fork(after_in_child=_forget_after_fork)
