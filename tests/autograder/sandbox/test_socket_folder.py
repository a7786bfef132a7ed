"""Under a temporary folder whose path is too long for a Unix socket's (a cluster job's TMPDIR,
pytest-xdist's folders), do kernels and templates still start, with their sockets in /tmp, and
is nothing of theirs left there after them?"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from autograder.plumbing.unix_socket import SUN_PATH
from autograder.sandbox import handover, socket_folder
from autograder.sandbox.kernel import SandboxedKernel, Settings, Zygote, template_pool
from autograder.sandbox.socket_folder import SHORT, fits, socket_parent

from .conftest import ROOT, run


@pytest.fixture
def long_tmpdir(tmp_path, monkeypatch):
    """A temporary folder of about 100 bytes, the process's own from now on."""
    folder = tmp_path / ("t" * max(1, 100 - len(str(tmp_path)) - 1))
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_the_longest_socket_path_is_counted_to_the_byte(monkeypatch):
    """Is a folder accepted exactly while the longest socket path the kit makes under it (a
    template pool's, with a process id of the machine's most digits) fits in SUN_PATH?"""
    monkeypatch.setattr(socket_folder, "pid_digits", lambda: 7)
    longest = len("/kit-templates-XXXXXXXX/" + "1234567" + ".999.sock")
    assert fits("/" + "x" * (SUN_PATH - longest - 1))
    assert not fits("/" + "x" * (SUN_PATH - longest))


def test_a_kernel_under_a_too_long_temporary_folder_starts_with_its_sockets_in_tmp(
        long_tmpdir, tmp_path):
    """A kernel's five sockets are in its scratch folder: under a temporary folder of 100
    bytes their paths passed Linux's limit and every kernel failed ("File name too long").
    Does one start and run code there, its scratch folder in /tmp, gone once it stops?"""
    assert not fits(long_tmpdir)
    assert socket_parent() == SHORT
    notebook = tmp_path / "notebook"
    notebook.mkdir()
    (notebook / "data.txt").write_text("seven")
    kernel = SandboxedKernel(notebook, Settings(hidden=(str(ROOT),)))
    kernel.start()
    scratch = Path(kernel.scratch)
    try:
        assert scratch.parent == Path(SHORT)
        assert run(kernel, "print(open('data.txt').read())") == ("seven", [])
    finally:
        kernel.stop()
        Zygote.close_shared()
    assert not scratch.exists()
    assert not list(long_tmpdir.glob("kit-*"))


def test_a_template_pool_under_a_too_long_temporary_folder_serves_its_copies(long_tmpdir):
    """A pool's sockets are in its folder: is it made in /tmp when the temporary folder is
    too long, does a worker take a copy from it, and is it gone once the pool closes?"""
    pool = template_pool(1, long_tmpdir / "grade.log")
    try:
        assert pool.folder.parent == Path(SHORT)
        copy = handover.take(str(pool.folder))
        assert copy is not None
        copy.stdin.close()
    finally:
        pool.close()
    assert not pool.folder.exists()
