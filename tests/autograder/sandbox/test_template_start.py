"""Tests for autograder.sandbox.template_start: is a kernel template started ahead of need
adopted by the process's first template of its mechanism, killed when nothing adopts it, and
left alone by a forked worker? And does a command that grades one notebook start it before
its own imports, and leave no process behind?"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from autograder.sandbox import template_start
from autograder.sandbox.kernel import Zygote

from .test_handover import ended
from .test_sandbox import memory_sizes, needs_collapse


@pytest.fixture()
def no_templates():
    Zygote.close_shared()
    yield
    Zygote.close_shared()
    template_start._kill_unadopted()


def test_the_first_template_adopts_the_one_started_early(no_templates):
    """Is the template a Zygote of the same mechanism uses the very process started early
    (no second template), and one of another mechanism not handed it?"""
    template_start.start_early("limits")
    early = template_start._early["limits"].pid
    assert template_start.adopt("namespaces") is None
    assert Zygote.shared("limits").process.pid == early
    assert "limits" not in template_start._early


def test_a_template_no_one_adopts_is_killed_at_exit(tmp_path):
    """Does a process that started a template early and never graded leave no template behind
    when it ends?"""
    script = textwrap.dedent("""
        from autograder.sandbox import template_start
        template_start.start_early("limits")
        print(template_start._early["limits"].pid, flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=True)
    assert ended(int(done.stdout.split()[0]), seconds=5)


def test_a_forked_worker_does_not_adopt_its_parents(no_templates):
    """Does a process forked after the early start (an embedded cluster's worker) find no
    early template of its parent's to adopt (its pipes are the parent's)?"""
    template_start.start_early("limits")
    pid = os.fork()
    if pid == 0:
        os._exit(0 if template_start.adopt("limits") is None else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    ours = template_start.adopt("limits")
    assert ours is not None
    ours.kill()
    ours.wait()


def test_a_template_for_one_notebook_is_ready_without_huge_pages(no_templates):
    """Does a template started for a few kernels (one notebook's grade) say it is ready
    without first moving its heap to huge pages, which a template for a class does
    (test_sandbox) and which can take Linux half a second of compacting memory?"""
    needs_collapse()
    with open("/sys/kernel/mm/transparent_hugepage/enabled") as enabled:
        if "[always]" in enabled.read():
            pytest.skip("every heap may get huge pages here, collapsed or not")
    template_start.start_early("limits", few_kernels=True)
    process = template_start._early["limits"]
    assert '"ready"' in process.stdout.readline()
    sizes = memory_sizes(process.pid)
    assert sizes["Anonymous"] > 100 << 10  # KiB: torch, IPython and matplotlib imported
    assert sizes["AnonHugePages"] < sizes["Anonymous"] / 4
