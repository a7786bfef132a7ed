"""Is one message a kernel sends the grader held to its limit (sandbox/kernel.py,
`max_message_bytes`), before the grader holds it, and is the kernel that sent it stopped with a
reason that says so, while a kernel that dies is still said to have died?"""

from __future__ import annotations

import pytest

from autograder.sandbox.kernel import MESSAGE_BYTES, KernelGone, message_bytes


def resident(field):
    """This process's VmRSS or VmHWM (its peak since clear_peak), in bytes."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) << 10
    raise AssertionError(f"no {field} in /proc/self/status")


def clear_peak():
    """Start this process's VmHWM again from its present size (Linux's clear_refs 5)."""
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")


def test_a_print_past_the_limit_is_dropped_and_said(kernel):
    """Does a cell that prints 200 MB end with its kernel stopped, saying a message was too
    large, while this process never holds as much as the message?"""
    clear_peak()
    before = resident("VmRSS")
    with pytest.raises(KernelGone, match=f"more than {MESSAGE_BYTES >> 20} MB"):
        kernel.execute("print('x' * 200_000_000)\nprint('after')", timeout=120)
    assert resident("VmHWM") - before < 100 << 20
    assert not kernel.alive()


def test_a_kernel_that_exits_is_said_to_have_died(kernel):
    """Does a kernel whose process ends (its connections dropped with it) still get the
    reason of a death, not that of a message too large?"""
    with pytest.raises(KernelGone) as gone:
        kernel.execute("import os\nos._exit(3)", timeout=30)
    assert "MB" not in gone.value.reason


def test_the_limit_leaves_room_for_every_part_of_a_reply():
    """Is the limit on a message above twice a reply's part (its characters escaped again in
    the message that carries it), and never under the default?"""
    assert message_bytes(4 << 20) == MESSAGE_BYTES
    assert message_bytes(64 << 20) > 2 * (64 << 20)
