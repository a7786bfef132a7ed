"""Tests for autograder.sandbox.template_start: is a kernel template started ahead of need
adopted by the process's first template of its mechanism, killed when nothing adopts it, and
left alone by a forked worker? And does a command that grades one notebook start it before
its own imports, and leave no process behind?"""

from __future__ import annotations

import json
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


def clean_start(tmp_path, **extra):
    """The environment run_autograder starts a Gradescope grader with (and `extra`)."""
    return {"PATH": os.path.dirname(sys.executable) + ":/usr/bin:/bin", "LANG": "C.UTF-8",
            "HOME": str(tmp_path), "PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1", **extra}


def test_a_template_forked_from_the_grader_shares_torch_and_serves(tmp_path):
    """Where the grader started with nothing of its own (run_autograder), is its template
    forked from it after torch's import: the grader's child, sharing torch's pages (shared
    dirty memory, which a template started alone has none of), with the environment the
    grader started with, and answering as a template does?"""
    script = textwrap.dedent("""
        import json, os
        from autograder.sandbox import template_start
        from autograder.sandbox.kernel import Zygote
        assert template_start.may_fork_template()
        template = template_start.fork_template()
        template_start.start_forked(template, "limits", few_kernels=True)
        zygote = Zygote.shared("limits")
        assert zygote.process is template
        with open(f"/proc/{template.pid}/status") as status:
            parent = int(status.read().split("PPid:")[1].split()[0])
        with open(f"/proc/{template.pid}/smaps_rollup") as rollup:
            shared = sum(int(line.split()[1]) for line in rollup
                         if line.startswith("Shared_Dirty:"))
        with open(f"/proc/{template.pid}/environ", "rb") as environ:
            seen = sorted(item.split(b"=")[0].decode() for item in environ.read().split(b"\\0")
                          if item)
        print(json.dumps({"parent": parent == os.getpid(), "shared_kib": shared,
                          "seen": seen, "answer": zygote.ask({"op": "warm", "cells": ["x = 1"]})}))
        Zygote.close_shared()
        print(json.dumps({"ended": template.poll()}))
    """)
    done = subprocess.run([sys.executable, "-c", script], env=clean_start(tmp_path),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    first, last = map(json.loads, done.stdout.splitlines()[-2:])
    assert first["parent"]
    assert first["shared_kib"] > 100 << 10, first  # torch's objects, shared with the grader
    assert first["seen"] == sorted(clean_start(tmp_path)), first
    assert first["answer"] == {"warmed": 1}, first
    assert last["ended"] == 0


@pytest.mark.parametrize("extra", [{"GRADESCOPE_TOKEN": "s3cret"}, {"PYTHONHASHSEED": "7"}])
def test_a_grader_started_with_more_starts_its_template_alone(tmp_path, extra):
    """A grader whose environment at start holds anything of its own (a token) or hashes its
    strings otherwise than a template does: is a template forked from it refused, so that
    none of it reaches a kernel (the template then starts as a process of its own)?"""
    script = ("from autograder.sandbox import template_start\n"
              "print(template_start.may_fork_template())")
    done = subprocess.run([sys.executable, "-c", script], env=clean_start(tmp_path, **extra),
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["False"]
    done = subprocess.run([sys.executable, "-c", script], env=clean_start(tmp_path),
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["True"]


def test_a_forked_template_not_needed_ends(tmp_path):
    """Is a template forked from the grader, then told that no mechanism can be built here,
    ended and waited for (no process left)?"""
    script = textwrap.dedent("""
        from autograder.sandbox import template_start
        template = template_start.fork_template()
        template_start.start_forked(template, None)
        print(template.pid, template.returncode, flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", script], env=clean_start(tmp_path),
                          capture_output=True, text=True, timeout=60, check=True)
    pid, code = done.stdout.split()
    assert code == "0"
    assert ended(int(pid), seconds=5)
