"""Tests for autograder.sandbox.handover: kernel templates a client starts ahead, each taken
over by one grading worker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from autograder.sandbox import handover
from autograder.sandbox.kernel import SandboxedKernel, Settings, Zygote, template_pool

from .conftest import ROOT, run


@pytest.fixture()
def pool(tmp_path):
    templates = template_pool(2, tmp_path / "grade.log")
    yield templates
    templates.close()


def ended(pid, seconds=20):
    """Whether the process `pid` is gone (or a zombie) within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.05)
    return False


def test_each_template_is_taken_by_one_worker_and_a_worker_after_finds_none(pool):
    """Do two workers taking from a pool of two templates get one each, each answering as a
    template does and named as its holder, and does a third find none (so it starts its
    own)?"""
    first, second = handover.take(str(pool.folder)), handover.take(str(pool.folder))
    assert handover.take(str(pool.folder)) is None
    assert sorted([first.pid, second.pid]) == sorted(p.pid for p in pool.processes)
    assert handover.holder(pool.folder, first.pid) == os.getpid()
    assert handover.holder(pool.folder, os.getpid()) is None
    for template in (first, second):
        assert json.loads(template.stdout.readline()) == {"ready": template.pid}
        template.stdin.write(json.dumps({"op": "warm", "cells": ["x = 1"]}) + "\n")
        template.stdin.flush()
        assert json.loads(template.stdout.readline()) == {"warmed": 1}
        assert template.poll() is None
        template.stdin.close()
        assert template.wait(timeout=20) == 0


def test_no_template_comes_of_a_folder_that_is_not_a_pool(tmp_path):
    """Does a worker without a pool (an external cluster's: no KIT_TEMPLATES) or with a
    folder of something else take nothing?"""
    (tmp_path / "123.free").touch()
    assert handover.take(None) is None
    assert handover.take(str(tmp_path / "missing")) is None
    assert handover.take(str(tmp_path)) is None


def test_a_worker_grades_with_the_template_it_took_and_its_close_ends_it(pool, monkeypatch,
                                                                         tmp_path):
    """Does a worker whose environment names the pool fork its kernels from one of the
    pool's templates (the full sandbox included, as root), and does closing its template
    end that template, so the pool closes at once with status 0?"""
    monkeypatch.setenv(handover.FOLDER_VARIABLE, str(pool.folder))
    Zygote.close_shared()
    kernel = SandboxedKernel(tmp_path, Settings(hidden=(str(ROOT),)))
    kernel.start()
    try:
        template = Zygote.shared().process
        assert isinstance(template, handover.TakenTemplate)
        assert template.pid in [p.pid for p in pool.processes]
        assert psutil.Process(kernel.pid).ppid() == template.pid
        assert run(kernel, "import os\nprint(6 * 7, os.getuid() != 0)") == ("42 True", [])
    finally:
        kernel.stop()
        Zygote.close_shared()
    assert ended(template.pid)
    taken = next(p for p in pool.processes if p.pid == template.pid)
    assert taken.wait(timeout=5) == 0


def test_a_template_left_by_a_dead_worker_kills_its_kernel_and_ends(pool, tmp_path):
    """Does a template whose worker died without closing it (os._exit, as a worker killed
    for its memory) kill the kernel that worker left running, and end?"""
    worker = subprocess.run([sys.executable, "-c", (
        "import os, sys\n"
        "from autograder.sandbox.kernel import SandboxedKernel, Settings, Zygote\n"
        f"kernel = SandboxedKernel({str(tmp_path)!r}, Settings())\n"
        "kernel.start()\n"
        "print(Zygote.shared().process.pid, kernel.pid, flush=True)\n"
        "os._exit(0)\n")], capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={**os.environ, handover.FOLDER_VARIABLE: str(pool.folder)})
    template, kernel = map(int, worker.stdout.split())
    assert template in [p.pid for p in pool.processes]
    assert ended(kernel) and ended(template)


def test_a_template_no_worker_took_ends_when_the_pool_closes(tmp_path):
    """Does closing a pool end the templates no worker took (status 0, nothing killed), and
    remove its folder?"""
    templates = template_pool(1, tmp_path / "grade.log")
    templates.close()
    assert [p.returncode for p in templates.processes] == [0]
    assert not Path(templates.folder).exists()


def test_a_template_whose_worker_left_mid_request_kills_its_kernel_and_ends_cleanly(
        pool, monkeypatch, tmp_path):
    """Does a template whose worker went away while a request ran (its answer then has no
    reader) still kill the kernel that worker left, and end with status 0 rather than on
    the broken connection's error?"""
    monkeypatch.setenv(handover.FOLDER_VARIABLE, str(pool.folder))
    Zygote.close_shared()
    kernel = SandboxedKernel(tmp_path, Settings(hidden=(str(ROOT),)))
    kernel.start()
    template = Zygote.shared().process
    template.stdin.write(json.dumps({"op": "warm", "cells": ["y = 2"]}) + "\n")
    template.stdin.flush()
    template.release()  # gone before the answer, as a worker killed mid-request
    Zygote._instance = None
    kernel.client.stop_channels()
    assert ended(kernel.pid)
    taken = next(p for p in pool.processes if p.pid == template.pid)
    assert taken.wait(timeout=20) == 0


def test_a_pool_that_cannot_start_all_its_templates_ends_those_it_started(monkeypatch,
                                                                          tmp_path):
    """When the second template of a pool cannot be started (the machine refuses a process),
    does the first end with the failure rather than wait, forgotten, for a worker?"""
    started = []
    real = subprocess.Popen

    def second_refused(*args, **kwargs):
        if started:
            raise OSError("no more processes")
        started.append(real(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(handover.subprocess, "Popen", second_refused)
    with pytest.raises(OSError):
        template_pool(2, tmp_path / "grade.log")
    assert started[0].poll() is not None
