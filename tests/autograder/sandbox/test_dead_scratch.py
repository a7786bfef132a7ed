"""Does a grader remove the scratch folders a stopped grader of the same user left (a serve
or grade killed in the middle of a notebook), and nothing else?"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from autograder.sandbox import kernel


def dead_pid():
    """The id of a process that ran and is gone."""
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_only_the_folders_of_gone_graders_are_removed():
    """Among scratch folders named by a gone process, by this live one, and by an older kit
    (no process id), and a link named as a dead one's: are the gone process's folders (a
    kernel's and a judging kernel's) removed, each with what it held, and the others kept?"""
    tmp = Path(tempfile.gettempdir())
    gone = dead_pid()
    made = {
        "dead kernel": Path(tempfile.mkdtemp(prefix=f"kit-sandbox-{gone}-")),
        "dead judge": Path(tempfile.mkdtemp(prefix=f"kit-judge-{gone}-")),
        "live": Path(tempfile.mkdtemp(prefix=f"kit-sandbox-{os.getpid()}-")),
        "older kit": Path(tempfile.mkdtemp(prefix="kit-sandbox-")),
    }
    (made["dead kernel"] / "answer.ipynb").write_text("{}")
    target = Path(tempfile.mkdtemp(prefix="kit-test-target-"))
    (target / "keep.txt").write_text("kept")
    link = tmp / f"kit-sandbox-{gone}-link"
    link.symlink_to(target)
    try:
        kernel.remove_dead_scratch()
        assert not made["dead kernel"].exists() and not made["dead judge"].exists()
        assert made["live"].is_dir() and made["older kit"].is_dir()
        assert (target / "keep.txt").read_text() == "kept"
    finally:
        link.unlink(missing_ok=True)
        for folder in [*made.values(), target]:
            subprocess.run(["rm", "-rf", str(folder)], check=False)


def test_a_new_scratch_folder_is_named_by_its_process():
    """Is a scratch folder named with the id of the process that made it, so that a later
    grader can tell it is gone?"""
    folder = Path(kernel.new_scratch("kit-sandbox-"))
    try:
        assert folder.name.startswith(f"kit-sandbox-{os.getpid()}-")
        assert oct(folder.stat().st_mode & 0o777) == "0o700"
    finally:
        folder.rmdir()
