"""Tests for autograder.plumbing.quiet_imports: while heavy imports run, does the garbage collector
collect nothing, and afterwards set aside what they made and collect again as before?"""

from __future__ import annotations

import gc

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
