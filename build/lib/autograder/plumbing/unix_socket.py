"""Linux's limit on a Unix socket's path, and the way past it for a socket in a deep folder.

A socket's path is SUN_PATH bytes at most: binding or connecting to a longer one fails with
"AF_UNIX path too long". The sandbox keeps its own sockets under a short folder
(sandbox/socket_folder.py); a socket whose place is fixed (serve's, in the course's .kit/) is
reached instead through a descriptor of its folder, /proc/self/fd/N/NAME, which Linux resolves
to the same file."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

SUN_PATH = 107  # bytes of a Unix socket's path (sockaddr_un's 108, less the final NUL)


@contextlib.contextmanager
def socket_address(path: Path):
    """`path` as an address to bind or connect to, while the block runs: itself when it fits
    in SUN_PATH bytes, else the same file through a descriptor of its folder (open until the
    block ends; a socket bound so keeps its place after)."""
    if len(os.fsencode(str(path))) <= SUN_PATH:
        yield str(path)
        return
    folder = os.open(path.parent, os.O_PATH | os.O_DIRECTORY)
    try:
        yield f"/proc/self/fd/{folder}/{path.name}"
    finally:
        os.close(folder)
