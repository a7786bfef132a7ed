"""Can a notebook leave something for the next notebook graded under the same sandbox user?

For each channel a kernel could write to and a later kernel read from (the machine's keyrings,
System V IPC, the shared folders /tmp, /var/tmp, /dev/shm, /run and /run/lock, an abstract
Unix socket), a first kernel plants a secret and a second one, under the same user id, looks
for it. Real kernels from the real template, in full isolation (root, as in CI)."""

from __future__ import annotations

import secrets

import pytest

from tests.autograder.sandbox.test_allow_list import ROOT_ONLY, run, started

TOKEN = secrets.token_hex(4)  # a fresh secret each run: nothing an earlier run left counts
IPC_KEY = int(TOKEN, 16) & 0x7FFFFFFF

LIBC = "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
KEYRING_PLANT = LIBC + f"""
# add_key("user", name, data, len, KEY_SPEC_USER_KEYRING): the user's keyring outlives processes
libc.syscall(248, b"user", b"kit-{TOKEN}", b"secret", 6, ctypes.c_long(-4))
"""
KEYRING_READ = LIBC + f"""
# keyctl(KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user", name, 0)
found = libc.syscall(250, ctypes.c_long(10), ctypes.c_long(-4), b"user", b"kit-{TOKEN}",
                     ctypes.c_long(0))
print("found" if found > 0 else "nothing")
"""
IPC_PLANT = LIBC + f"""
libc.shmget({IPC_KEY}, 4096, 0o1666)  # IPC_CREAT | 0o666
libc.msgget({IPC_KEY}, 0o1666)
libc.semget({IPC_KEY}, 1, 0o1666)
"""
IPC_READ = LIBC + f"""
seen = [libc.shmget({IPC_KEY}, 0, 0), libc.msgget({IPC_KEY}, 0), libc.semget({IPC_KEY}, 0, 0)]
print("found" if max(seen) >= 0 else "nothing")
"""
FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/run", "/run/lock")
# In the sandbox nothing can be written in /run; /tmp, /var/tmp and /run/lock are each the
# kernel's own tmpfs, gone with it.
READ_ONLY = ("/run",)


def file_plant(folder):
    return f"""
try:
    open("{folder}/kit-{TOKEN}", "w").write("secret")
    print("planted")
except OSError:
    print("refused")
"""


def file_read(folder):
    return f"""
import os
print("found" if os.path.exists("{folder}/kit-{TOKEN}") else "nothing")
"""


SOCKET_PLANT = f"""
import socket
listener = socket.socket(socket.AF_UNIX)
listener.bind("\\0kit-{TOKEN}")
listener.listen()
"""
SOCKET_READ = f"""
import socket
try:
    socket.socket(socket.AF_UNIX).connect("\\0kit-{TOKEN}")
    print("found")
except OSError:
    print("nothing")
"""

CHANNELS = {"keyring": (KEYRING_PLANT, KEYRING_READ, False),
            "System V IPC": (IPC_PLANT, IPC_READ, False),
            **{folder: (file_plant(folder), file_read(folder), False) for folder in FOLDERS},
            # a socket lives as long as its kernel: the next kernel looks while it lives
            "abstract socket": (SOCKET_PLANT, SOCKET_READ, True)}


@ROOT_ONLY
@pytest.mark.parametrize("channel", CHANNELS)
def test_nothing_a_notebook_plants_reaches_the_next(channel, tmp_path):
    """Does a second kernel under the same sandbox user find nothing the first one planted?"""
    plant, read, alive = CHANNELS[channel]
    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    first = started(tmp_path / "first")
    try:
        run(first, plant)
        if not alive:
            first.stop()
        second = started(tmp_path / "second")
        try:
            assert second.uid == first.uid  # the channel is between two notebooks of one user
            assert run(second, read)[0] == "nothing"
        finally:
            second.stop()
    finally:
        first.stop()


@ROOT_ONLY
@pytest.mark.parametrize("channel", [c for c in CHANNELS if c != "keyring"])
def test_a_probe_finds_what_its_own_kernel_planted(channel, tmp_path):
    """Can the probe fail: does it find the secret in the kernel that planted it, or is the
    channel not there at all (a folder no kernel can write)?"""
    plant, read, _ = CHANNELS[channel]
    kernel = started(tmp_path)
    try:
        planted = run(kernel, plant)[0]
        if channel in READ_ONLY:
            assert planted == "refused"
        else:
            assert run(kernel, read)[0] == "found"
    finally:
        kernel.stop()
