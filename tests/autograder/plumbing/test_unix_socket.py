"""Is a Unix socket whose path passes Linux's limit bound and reached all the same, at its own
place, and does the way there leave no descriptor open?"""

from __future__ import annotations

import os
import socket

import pytest

from autograder.plumbing.unix_socket import SUN_PATH, socket_address


def open_descriptors():
    """This process's open descriptors (with the one that lists them)."""
    return sorted(os.listdir("/proc/self/fd"))


def test_a_socket_deeper_than_the_limit_is_bound_and_reached_at_its_place(tmp_path):
    """A socket path of SUN_PATH + 40 bytes: does binding it put the socket in its folder,
    does connecting reach it, and is every descriptor the addresses took closed after?"""
    folder = tmp_path / ("deep" * 40)
    folder.mkdir()
    path = folder / "serve.sock"
    assert len(os.fsencode(str(path))) > SUN_PATH + 40
    with socket.socket(socket.AF_UNIX) as plain, pytest.raises(OSError, match="too long"):
        plain.bind(str(path))
    before = open_descriptors()
    with socket.socket(socket.AF_UNIX) as server, socket.socket(socket.AF_UNIX) as client:
        with socket_address(path) as address:
            server.bind(address)
        server.listen(1)
        assert path.is_socket()
        with socket_address(path) as address:
            client.connect(address)
        accepted, _ = server.accept()
        with accepted:
            client.sendall(b"ping")
            assert accepted.recv(4) == b"ping"
    assert open_descriptors() == before  # no folder's descriptor left open


def test_a_short_path_is_its_own_address(tmp_path):
    """Is a path within the limit used as it is?"""
    with socket_address(tmp_path / "s.sock") as address:
        assert address == str(tmp_path / "s.sock")
