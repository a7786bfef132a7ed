"""Which course a folder is in: the nearest folder, it or one above it, holding
nbgrader_config.py, as git finds its repository; and the name of the kit's folder in it. Light
(pathlib alone): the command line asks both before it hands a command to the course's serve,
and the notebook's checks ask which course they are in."""

from __future__ import annotations

import os
from pathlib import Path

CONFIG = "nbgrader_config.py"
KIT_FOLDER = ".kit"  # the kit's own folder in a course (course/ledger.py: what it keeps there)


def typed_here() -> Path:
    """The folder the user typed the command in, as the shell names it ($PWD) when that is
    this very folder: in an assignment folder that is a link into the course, the system's
    own current folder is the link's target, outside the course. Else the current folder."""
    here, shells = Path.cwd(), os.environ.get("PWD")
    if shells and os.path.isabs(shells):
        try:
            if os.path.samefile(shells, here):
                return Path(shells)
        except OSError:  # gone, or not ours to look at: the system's folder
            pass
    return here


def course_root_of(folder: Path) -> Path | None:
    """The course folder (holding nbgrader_config.py) that `folder` is in, or None."""
    for candidate in (folder, *folder.parents):
        if (candidate / CONFIG).is_file():
            return candidate
    return None
