"""Tests for autograder.sandbox.handover: the kernel template a client starts ahead, a copy of
it taken over by each grading worker."""

from __future__ import annotations

import fcntl
import json
import os
import socket
import subprocess
import sys
import tempfile
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


def copies_of(pool):
    return sorted(child.pid for child in psutil.Process(pool.process.pid).children())


def test_each_copy_is_taken_by_one_worker_and_a_worker_after_finds_none(pool):
    """Do two workers taking from a pool for two get one copy each of the one template
    started, each answering as a template does and named as its holder, and does a third
    find none (so it starts its own)?"""
    first, second = handover.take(str(pool.folder)), handover.take(str(pool.folder))
    assert handover.take(str(pool.folder)) is None
    assert sorted([first.pid, second.pid]) == copies_of(pool)
    assert handover.holder(pool.folder, first.pid) == os.getpid()
    assert handover.holder(pool.folder, second.pid) == os.getpid()
    assert handover.holder(pool.folder, os.getpid()) is None
    for template in (first, second):
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
    """Does a worker whose environment names the pool fork its kernels from a copy of the
    pool's template (the full sandbox included, as root), and does closing its template
    end that copy, so the pool closes at once with status 0?"""
    monkeypatch.setenv(handover.FOLDER_VARIABLE, str(pool.folder))
    Zygote.close_shared()
    kernel = SandboxedKernel(tmp_path, Settings(hidden=(str(ROOT),)))
    kernel.start()
    try:
        template = Zygote.shared().process
        assert isinstance(template, handover.TakenTemplate)
        assert template.pid in copies_of(pool)
        assert psutil.Process(kernel.pid).ppid() == template.pid
        assert run(kernel, "import os\nprint(6 * 7, os.getuid() != 0)") == ("42 True", [])
    finally:
        kernel.stop()
        Zygote.close_shared()
    assert ended(template.pid)
    pool.close()
    assert pool.process.returncode == 0


def test_a_template_left_by_a_dead_worker_kills_its_kernel_and_ends(pool, tmp_path):
    """Does a template whose worker died without closing it (os._exit, as a worker killed
    for its memory) kill the kernel that worker left running, and end?"""
    worker = subprocess.run([sys.executable, "-c", (
        "import os, sys\n"
        "from autograder.sandbox.kernel import SandboxedKernel, Settings, Zygote\n"
        f"kernel = SandboxedKernel({str(tmp_path)!r}, Settings())\n"
        "kernel.start()\n"
        "import psutil\n"
        "copy = Zygote.shared().process.pid\n"
        "print(copy, psutil.Process(copy).ppid(), kernel.pid, flush=True)\n"
        "os._exit(0)\n")], capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={**os.environ, handover.FOLDER_VARIABLE: str(pool.folder)})
    template, parent, kernel = map(int, worker.stdout.split())
    assert parent == pool.process.pid
    assert ended(kernel) and ended(template)


def test_copies_no_worker_took_end_when_the_pool_closes(tmp_path):
    """Does closing a pool end the copies no worker took and then the template (status 0,
    nothing killed), and remove its folder?"""
    templates = template_pool(2, tmp_path / "grade.log")
    copies, deadline = [], time.monotonic() + 60
    while len(copies) < 2 and time.monotonic() < deadline:  # forked after the imports
        copies = copies_of(templates)
        time.sleep(0.05)
    assert len(copies) == 2
    templates.close()
    assert templates.process.returncode == 0
    assert all(ended(copy, seconds=1) for copy in copies)  # reaped by the template
    assert not Path(templates.folder).exists()


def test_the_copies_and_their_kernels_end_with_the_template(pool, monkeypatch, tmp_path):
    """When the pool's template is killed (as when the client is), do the copies end, and
    the kernel a worker's copy forked with them: nothing of a sandbox outlives it?"""
    monkeypatch.setenv(handover.FOLDER_VARIABLE, str(pool.folder))
    Zygote.close_shared()
    kernel = SandboxedKernel(tmp_path, Settings(hidden=(str(ROOT),)))
    kernel.start()
    try:
        copies = copies_of(pool)  # the worker's, and one no worker took
        assert Zygote.shared().process.pid in copies and len(copies) == 2
        pool.process.kill()
        assert ended(kernel.pid)
        assert all(ended(copy) for copy in copies)
    finally:
        kernel.client.stop_channels()
        for instance in Zygote._instances.values():
            instance.process.release()
        Zygote._instances = {}


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
    Zygote._instances = {}
    kernel.client.stop_channels()
    assert ended(kernel.pid) and ended(template.pid)
    pool.close()
    assert pool.process.returncode == 0


def test_a_template_that_cannot_start_fails_the_pool_and_leaves_nothing(monkeypatch,
                                                                       tmp_path):
    """When the template exits before it listens (its command fails), does the pool say so,
    and leave no process and no folder behind?"""
    started, folders = [], []
    real_popen, real_mkdtemp = subprocess.Popen, tempfile.mkdtemp

    def popen(*args, **kwargs):
        started.append(real_popen(*args, **kwargs))
        return started[-1]

    def mkdtemp(**kwargs):
        folders.append(real_mkdtemp(**kwargs))
        return folders[-1]

    monkeypatch.setattr(handover.subprocess, "Popen", popen)
    monkeypatch.setattr(handover.tempfile, "mkdtemp", mkdtemp)
    failing = [sys.executable, "-c", "raise SystemExit(3)"]
    with pytest.raises(RuntimeError, match="did not start"):
        handover.TemplatePool(2, failing, dict(os.environ), tmp_path / "grade.log")
    assert started[0].returncode == 3
    assert not Path(folders[0]).exists()


def test_a_pool_removes_the_folders_of_dead_pools_and_no_other(tmp_path, monkeypatch):
    """Does a new pool remove the folder a killed client's pool left (its lock free, or no
    lock and old), and leave one whose client holds its lock, one still being made (no lock
    yet, new), a link to a folder and another user's?"""
    monkeypatch.setattr(handover, "socket_parent", lambda: str(tmp_path))  # where pools go

    def pool_folder(name, locked=None, age=0, owner=None):
        folder = tmp_path / f"{handover.PREFIX}{name}"
        folder.mkdir(mode=0o700)
        (folder / "1.0.free").touch()
        if locked is not None:
            lock = open(folder / handover.LOCK, "w")  # noqa: SIM115 - closed below
            if locked:
                fcntl.flock(lock, fcntl.LOCK_EX)
                held.append(lock)
            else:
                lock.close()
        if age:
            os.utime(folder, (time.time() - age, time.time() - age))
        if owner is not None:
            os.chown(folder, owner, owner)
        return folder

    held = []
    gone = pool_folder("gone", locked=False)
    lost = pool_folder("lost", age=7200)
    alive = pool_folder("alive", locked=True)
    new = pool_folder("new")
    link = tmp_path / f"{handover.PREFIX}link"
    link.symlink_to(pool_folder("target-elsewhere", locked=False).rename(
        tmp_path / "elsewhere"), target_is_directory=True)
    others = pool_folder("others", locked=False, owner=65534) if os.geteuid() == 0 else None
    try:
        handover.remove_dead_pools()
        assert not gone.exists() and not lost.exists()
        assert alive.exists() and new.exists()
        assert link.is_symlink() and (tmp_path / "elsewhere").exists()
        assert others is None or others.exists()
    finally:
        for lock in held:
            lock.close()


def test_a_copy_taken_by_a_worker_ends_when_the_client_is_killed(tmp_path):
    """When the client is killed (SIGKILL: it closes nothing), do its template and the copy a
    live worker holds end, with nothing left of the pool but its folder?"""
    client = subprocess.Popen([sys.executable, "-c", (
        "import sys, time\n"
        "from autograder.sandbox.kernel import template_pool\n"
        f"pool = template_pool(1, {str(tmp_path / 'grade.log')!r})\n"
        "print(pool.folder, pool.process.pid, flush=True)\n"
        "time.sleep(600)\n")], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        folder, template = client.stdout.readline().split()
        copy = handover.take(folder)  # this process is the worker, alive throughout
        assert copy is not None and psutil.Process(copy.pid).ppid() == int(template)
    finally:
        client.kill()
        client.wait()
    try:
        assert ended(int(template)) and ended(copy.pid)
    finally:
        copy.release()


def test_a_worker_does_not_wait_for_ever_for_a_copy_that_never_answers(tmp_path,
                                                                       monkeypatch):
    """When the copy a worker took never says it is ready (a template hung in its imports),
    does the worker give up after READY_SECONDS, say so, and find no template, so that it
    starts its own?"""
    monkeypatch.setattr(handover, "READY_SECONDS", 0.5)
    silent = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    silent.bind(str(tmp_path / "123.0.sock"))
    silent.listen(1)  # connections wait in its queue, never answered
    (tmp_path / "123.0.free").touch()
    (tmp_path / handover.MECHANISM).write_text(handover.default_mechanism())
    try:
        started = time.monotonic()
        with pytest.warns(UserWarning, match="123.0 did not say it was ready within 0.5 s"):
            assert handover.take(str(tmp_path)) is None
        assert time.monotonic() - started < 5
    finally:
        silent.close()
