"""Where the sandbox makes the folders that hold its Unix sockets: a kernel's scratch folder
(its five `.ipc-N` sockets, kernel.py) and a pool of templates' folder (`<pid>.<copy>.sock`,
handover.py).

Linux takes a Unix socket's path of SUN_PATH bytes at most. Under a long temporary folder (a
TMPDIR set by a cluster's job, pytest's own folders beside pytest-xdist's) every kernel
failed to start with "File name too long", and grade reported each notebook not graded,
telling the instructor to fix it. Those folders are made in the temporary folder when the
longest socket path the kit puts under it fits, and in /tmp otherwise (the kernel's sandbox
binds its scratch folder wherever it is); the kit looks for the folders dead graders left in
the same place."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from autograder.plumbing.unix_socket import SUN_PATH

# Under the folder, the longest socket path the kit makes, less the digits of a process id:
# "/kit-templates-XXXXXXXX/<pid>.<copy>.sock" (a copy's number up to 3 digits); a kernel's
# "/kit-sandbox-<pid>-XXXXXXXX/.ipc-N" is 4 shorter.
TAIL = len("/kit-templates-XXXXXXXX/" + ".999.sock")
SHORT = "/tmp"


def socket_parent(folder=None) -> str:
    """The folder to make socket-holding folders in: the temporary folder (or `folder`, a
    process's temporary folder to be), unless a socket's path under it could be too long;
    then /tmp."""
    folder = str(folder or tempfile.gettempdir())
    return folder if fits(folder) else SHORT


def fits(folder) -> bool:
    """Whether every socket path the kit makes under `folder` is short enough for Linux."""
    return len(os.fsencode(folder)) + TAIL + pid_digits() <= SUN_PATH


def pid_digits() -> int:
    """Digits of the largest process id this machine gives (7 where it cannot be read)."""
    try:
        return len(str(int(Path("/proc/sys/kernel/pid_max").read_text()) - 1))
    except (OSError, ValueError):
        return 7
