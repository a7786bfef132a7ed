"""1,100 folders nested in a student's folder, as a hostile submission holds them, made and
removed without recursion: os.makedirs, shutil.rmtree and pytest's own cleanup of old
temporary folders recurse once a folder, and would overflow Python's stack themselves."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

DEPTH = 1100
NAME = "d"


def below(depth):
    """The relative path of the folder `depth` levels down: d/d/.../d."""
    return "/".join([NAME] * depth)


@contextlib.contextmanager
def deep_folders(top: Path, depth=DEPTH):
    """top/d/d/... `depth` deep while the block runs (each made and removed by a path relative
    to an open `top`: 2 characters a level, far below the system's path limit)."""
    top.mkdir(parents=True, exist_ok=True)
    handle = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    made = 0
    try:
        for made in range(1, depth + 1):
            os.mkdir(below(made), dir_fd=handle)
        yield top / NAME
    finally:
        for level in range(made, 0, -1):
            with contextlib.suppress(FileNotFoundError):
                os.rmdir(below(level), dir_fd=handle)
        os.close(handle)
