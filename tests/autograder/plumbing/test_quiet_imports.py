"""Tests for autograder.plumbing.quiet_imports: while heavy imports run, does the garbage collector
collect nothing, and afterwards set aside what they made and collect again as before; is a
Ctrl-C meanwhile held until they are done?"""

from __future__ import annotations

import gc
import os
import signal
import time

import pytest

from autograder.plumbing.quiet_imports import paused


def test_nothing_is_collected_inside_and_what_exists_is_frozen_after():
    """Is collection off inside the block, on again after it, and is every object that
    existed then (one made inside among them) in the permanent generation?"""
    assert gc.isenabled()
    try:
        with paused():
            assert not gc.isenabled()
            made_inside = [[] for _ in range(1000)]
        assert gc.isenabled()
        assert gc.get_freeze_count() >= len(made_inside)
        assert not any(made_inside[0] is o for o in gc.get_objects())  # frozen: not tracked
    finally:
        gc.unfreeze()


def test_a_collector_already_off_stays_off():
    """Where the caller had turned collection off, does the block leave it off?"""
    gc.disable()
    try:
        with paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()


def interrupt_this_process():
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.05)  # Python runs its handler at the next instruction, surely by then


def test_a_ctrl_c_while_importing_comes_once_the_imports_are_done():
    """Does a Ctrl-C inside the block let the block finish (an import broken half way was
    lost, or could not be done again), then raise KeyboardInterrupt, Python's own handler
    back in place?"""
    went_on = []
    with pytest.raises(KeyboardInterrupt), paused():
        interrupt_this_process()
        went_on.append(True)
    assert went_on == [True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_block_not_interrupted_raises_nothing():
    """Without a Ctrl-C, does the block end quietly and leave Python's handler in place?"""
    with paused():
        pass
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_an_ignored_ctrl_c_stays_ignored():
    """In a process that ignores SIGINT (the fork server, whose preload imports in this block),
    is a Ctrl-C still ignored, during the block and after it?"""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with paused():
            interrupt_this_process()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
