"""The files of a folder the kit replaces that it did not write there: a TA's notes beside a
student's notebook in submitted/, autograded/ or feedback/. nbgrader's commands replace such
a folder whole; the kit carries these files into the new one instead, so that none is lost."""

from __future__ import annotations

import os
from pathlib import Path


def files_beside(folder: Path, ours=()) -> list[Path]:
    """The files under `folder`, as paths relative to it, but those named in `ours` (relative
    POSIX paths of the files the kit writes there itself)."""
    if not folder.is_dir():
        return []
    return sorted(path.relative_to(folder) for path in folder.rglob("*")
                  if (path.is_file() or path.is_symlink())
                  and path.relative_to(folder).as_posix() not in ours)


def carry(old: Path, new: Path, ours=()) -> list[Path]:
    """Move the files of `old` that `new` lacks (files_beside: but those in `ours`) into `new`,
    on the same file system; those `new` holds too stay in `old`. Returns the files moved."""
    moved = []
    for relative in files_beside(old, ours):
        target = new / relative
        if target.exists() or target.is_symlink():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(old / relative, target)
        moved.append(relative)
    return moved
