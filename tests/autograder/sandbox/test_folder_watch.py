"""Does a kernel's working folder stay within its bound, whatever its code writes there, and
is the student told why the kernel was stopped?"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from autograder.sandbox import folder_watch
from autograder.sandbox.folder_watch import folder_usage, over_limit
from autograder.sandbox.kernel import KernelGone, Limits, SandboxedKernel, Settings

ROOT = Path(__file__).resolve().parents[3]
NOBODY = 65534


def test_the_measure_counts_what_files_take_and_follows_no_link(tmp_path):
    """Are the files of nested folders counted by the space they take, and a link to a large
    folder elsewhere counted as the link alone?"""
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "weights.pt").write_bytes(b"x" * (256 << 10))
    (tmp_path / "sparse").write_bytes(b"")
    os.truncate(tmp_path / "sparse", 1 << 30)  # 1 GiB long, nothing written: no space taken
    elsewhere = tmp_path.parent / f"{tmp_path.name}-elsewhere"
    elsewhere.mkdir()
    (elsewhere / "big").write_bytes(b"y" * (1 << 20))
    (tmp_path / "link").symlink_to(elsewhere)
    try:
        taken, entries = folder_usage(tmp_path)
    finally:
        shutil.rmtree(elsewhere)
    assert entries == 5  # a, a/b, weights.pt, sparse, link
    assert (256 << 10) <= taken < (256 << 10) + (64 << 10)


def test_folders_nested_past_a_paths_length_are_not_read_as_gone(tmp_path):
    """A tree of 25 folders with names of 200 characters, a file at the bottom: is it not
    read as gone (its files uncounted, 1.5 GB hidden from the limit) but as a folder the
    grader cannot read, which stops the kernel?"""
    here = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(25):
            os.mkdir("d" * 200, dir_fd=here)
            inner = os.open("d" * 200, os.O_RDONLY | os.O_DIRECTORY, dir_fd=here)
            os.close(here)
            here = inner
        file = os.open("hidden", os.O_CREAT | os.O_WRONLY, 0o600, dir_fd=here)
        os.write(file, b"x" * 4096)
        os.close(file)
    finally:
        os.close(here)
    usage = folder_usage(tmp_path)
    assert usage is None
    assert "cannot read" in over_limit(usage, 1 << 30)
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_a_limit_is_said_with_its_setting():
    """Is a folder past its bytes, or its count of entries, or unreadable, each said, and one
    within all three left alone?"""
    assert over_limit((10 << 20, 3), 16 << 20) is None
    assert "16 MiB" in over_limit((17 << 20, 3), 16 << 20)
    assert "folder_limit_mb" in over_limit((17 << 20, 3), 16 << 20)
    assert str(folder_watch.MAX_ENTRIES) in over_limit((0, folder_watch.MAX_ENTRIES + 1),
                                                       16 << 20)
    assert "cannot read" in over_limit(None, 16 << 20)


def never_asked():
    raise AssertionError("what the kernel holds was asked after the folder was over already")


def test_files_removed_but_held_count_against_the_same_limit():
    """Do the bytes of removed files the kernel still holds count with the folder's, said as
    such; is a kernel whose holdings cannot be read stopped as hiding them; and are they not
    asked for when the folder alone is over?"""
    assert over_limit((10 << 20, 3), 16 << 20, lambda: 6 << 20) is None
    said = over_limit((10 << 20, 3), 16 << 20, lambda: 7 << 20)
    assert "16 MiB" in said and "removed but still holds" in said, said
    assert "hid" in over_limit((0, 3), 16 << 20, lambda: None)
    assert "16 MiB" in over_limit((17 << 20, 3), 16 << 20, never_asked)


def measured_as_nobody(top):
    """In `top` (world-writable), as an ordinary user (the grader's own, where it is not
    root): a folder of its own made unreadable and one made listable only, with a file in
    each, and one of root's it may not enter. {"own": (bytes, entries) of its own folder,
    "mode", "listable": the two folders' modes after, "other": the measure of root's}."""
    def measure():
        own = Path(tempfile.mkdtemp(dir=top))
        (own / "hidden").mkdir()
        (own / "hidden" / "data").write_bytes(b"z" * (64 << 10))
        os.chmod(own / "hidden", 0)
        (own / "listable").mkdir()  # listed, but its entries cannot be looked up
        (own / "listable" / "data").write_bytes(b"z" * (64 << 10))
        os.chmod(own / "listable", 0o444)
        found = {"own": folder_usage(own), "mode": os.stat(own / "hidden").st_mode & 0o777,
                 "listable": os.stat(own / "listable").st_mode & 0o777,
                 "other": folder_usage(top / "root's")}
        shutil.rmtree(own)
        return found

    if os.geteuid() != 0:
        return measure()
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        try:
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            os.write(write, json.dumps(measure()).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as answer:
        text = answer.read()
    os.waitpid(child, 0)
    return json.loads(text)


def test_an_unreadable_folder_is_read_by_its_owner_and_one_of_another_stops_the_kernel():
    """As an ordinary user: is a folder its kernel made unreadable, or listable but not
    searchable (0o444: its files' sizes hidden), given its owner's rights back and counted,
    and one it cannot give them to (another user's) measured as unreadable (a kernel hiding
    what it wrote is stopped)?"""
    top = Path(tempfile.mkdtemp())
    os.chmod(top, 0o777)
    (top / "root's").mkdir()
    (top / "root's" / "inside").mkdir()
    if os.geteuid() == 0:
        os.chmod(top / "root's" / "inside", 0)
    try:
        found = measured_as_nobody(top)
    finally:
        shutil.rmtree(top)
    taken, entries = found["own"]
    assert entries == 4 and taken >= 128 << 10, found
    assert found["mode"] == found["listable"] == 0o700, found
    if os.geteuid() == 0:
        assert found["other"] is None


def test_a_kernel_writing_past_its_folder_limit_is_stopped_and_says_why(tmp_path):
    """Is a kernel that writes file after file (each within the file size limit) stopped once
    its folder holds more than folder_limit_bytes, the cell ending with that reason, and its
    folder removed, long before its code would have ended?"""
    limits = Limits(memory_bytes=4 << 30, file_bytes=1 << 20, processes=64)
    kernel = SandboxedKernel(tmp_path, Settings(hidden=(str(ROOT),), limits=limits,
                                                folder_limit_bytes=8 << 20))
    kernel.start()
    scratch = kernel.scratch
    started = time.monotonic()
    try:
        with pytest.raises(KernelGone) as gone:
            kernel.execute("import time\n"
                           "for i in range(200):\n"  # 200 MiB in 10 s, unless stopped
                           "    with open(f'part{i}', 'wb') as part:\n"
                           "        part.write(b'0' * (1 << 20))\n"
                           "    time.sleep(0.05)\n", timeout=60)
    finally:
        kernel.stop()
    assert "8 MiB" in gone.value.reason and "folder_limit_mb" in gone.value.reason
    assert time.monotonic() - started < 8
    assert not os.path.exists(scratch)


# Files written, then removed while held: open (each descriptor kept), or mapped (a page of
# each, its descriptor closed: the mapping keeps the whole file; Python's mmap would keep a
# descriptor of its own).
HELD_OPEN = """import os, time
held = []
for i in range(12):
    part = open(f'part{i}', 'wb+')
    part.write(b'0' * (1 << 20))
    part.flush()
    os.unlink(f'part{i}')
    held.append(part)
time.sleep(10)
"""
HELD_MAPPED = """import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
for i in range(12):
    with open(f'part{i}', 'wb+') as part:
        part.write(b'0' * (1 << 20))
        part.flush()
        assert libc.mmap(None, 4096, 1, 1, part.fileno(), 0) not in (None, 2**64 - 1)
    os.unlink(f'part{i}')
time.sleep(10)
"""


# A file of a name that is no UTF-8, mapped, beside files held open: /proc/PID/maps then
# names it in bytes that decode as no text.
ODD_NAME = """import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
odd = os.open(b'\\xff.bin', os.O_CREAT | os.O_RDWR, 0o600)
os.write(odd, b'0' * 4096)
libc.mmap(None, 4096, 1, 1, odd, 0)
"""


@pytest.mark.parametrize("code", [HELD_OPEN, HELD_MAPPED, ODD_NAME + HELD_OPEN],
                         ids=["open", "mapped", "beside a mapped file of an odd name"])
def test_a_kernel_holding_removed_files_past_the_limit_is_stopped(tmp_path, code):
    """A kernel that removes what it wrote but holds it open, or mapped, its folder empty to
    a listing: is it stopped once what it holds passes folder_limit_bytes (a mapped file
    counting as large as a file may be), saying so?"""
    limits = Limits(memory_bytes=4 << 30, file_bytes=1 << 20, processes=64)
    kernel = SandboxedKernel(tmp_path, Settings(hidden=(str(ROOT),), limits=limits,
                                                folder_limit_bytes=8 << 20))
    kernel.start()
    started = time.monotonic()
    try:
        with pytest.raises(KernelGone) as gone:
            kernel.execute(code, timeout=60)
    finally:
        kernel.stop()
    assert "removed but still holds" in gone.value.reason, gone.value.reason
    assert time.monotonic() - started < 8
