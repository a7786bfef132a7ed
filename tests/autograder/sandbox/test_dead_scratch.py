"""Does a grader remove the scratch folders a stopped grader of the same user left (a serve
or grade killed in the middle of a notebook), and nothing else?"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from autograder.sandbox import kernel
from autograder.sandbox.socket_folder import socket_parent


def dead_pid():
    """The id of a process that ran and is gone."""
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_only_the_folders_of_gone_graders_are_removed():
    """Among scratch folders named by a gone process, by this live one, and by an older kit
    (no process id), and a link named as a dead one's: are the gone process's folders (a
    kernel's and a judging kernel's) removed, each with what it held, and the others kept?"""
    tmp = Path(socket_parent())  # where the kit makes them
    gone = dead_pid()
    made = {
        "dead kernel": Path(tempfile.mkdtemp(prefix=f"kit-sandbox-{gone}-", dir=tmp)),
        "dead judge": Path(tempfile.mkdtemp(prefix=f"kit-judge-{gone}-", dir=tmp)),
        "live": Path(tempfile.mkdtemp(prefix=f"kit-sandbox-{os.getpid()}-", dir=tmp)),
        "older kit": Path(tempfile.mkdtemp(prefix="kit-sandbox-", dir=tmp)),
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


def as_ordinary_user(code):
    """Run `code` with the kit importable, as a grader that is no root: root here runs it
    without the rights to pass over a folder's modes (setpriv), as an ordinary user has none."""
    root = Path(__file__).resolve().parents[3]
    prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"] \
        if os.geteuid() == 0 else []
    subprocess.run([*prefix, sys.executable, "-c", code], cwd=root, check=True, timeout=60)


def test_a_folder_its_kernel_made_unreadable_goes_with_the_scratch_folder(tmp_path):
    """A kernel's code made a folder of its scratch folder unreadable (chmod 000) inside one it
    may only enter (chmod 100), with a file in each, and a link to a folder outside: does a
    grader that is no root remove the scratch folder whole (rmtree alone leaves them, and
    the files with them), and leave the folder the link points to as it was?"""
    outside = tmp_path / "outside"
    outside.mkdir(mode=0o750)
    (outside / "kept.txt").write_text("kept")
    outside.chmod(0o750)
    folders = []
    for _ in ("rmtree alone", "remove_scratch"):
        scratch = Path(tempfile.mkdtemp(prefix=f"kit-sandbox-{os.getpid()}-"))
        inner = scratch / "trap" / "inner"
        inner.mkdir(parents=True)
        (inner / "f").write_text("x" * 1000)
        (scratch / "trap" / "g").write_text("y")
        (scratch / "out").symlink_to(outside)
        inner.chmod(0)
        inner.parent.chmod(0o100)
        folders.append(scratch)
    try:
        as_ordinary_user(f"import shutil; shutil.rmtree({str(folders[0])!r}, "
                         "ignore_errors=True)")
        assert folders[0].exists(), "rmtree removes it all: this test no longer shows the case"
        as_ordinary_user("from autograder.sandbox.kernel import remove_scratch; "
                         f"remove_scratch({str(folders[1])!r})")
        assert not folders[1].exists()
        assert oct(outside.stat().st_mode & 0o777) == "0o750"
        assert (outside / "kept.txt").read_text() == "kept"
    finally:
        for scratch in folders:
            kernel.remove_scratch(scratch)


def test_folders_nested_past_a_paths_length_go_with_the_scratch_folder(tmp_path):
    """A kernel's code nested 2,100 folders (made each inside the last, past what a path can
    name and Python's recursion), with files at the bottom, one folder unreadable and a link
    to a folder outside: does a grader that is no root remove the scratch folder whole, and
    leave what the link points to?"""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "kept.txt").write_text("kept")
    scratch = Path(tempfile.mkdtemp(prefix=f"kit-sandbox-{os.getpid()}-"))
    here = os.open(scratch, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for depth in range(2100):
            os.mkdir("d", dir_fd=here)
            if depth == 1000:
                os.symlink(outside, "out", dir_fd=here)
            inner = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=here)
            os.close(here)
            here = inner
        for number in range(3):
            file = os.open(f"f{number}", os.O_CREAT | os.O_WRONLY, 0o600, dir_fd=here)
            os.write(file, b"x" * 4096)
            os.close(file)
        os.mkdir("shut", dir_fd=here)
        os.chmod("shut", 0, dir_fd=here)
    finally:
        os.close(here)
    try:
        as_ordinary_user("from autograder.sandbox.kernel import remove_scratch; "
                         f"remove_scratch({str(scratch)!r})")
        assert not scratch.exists()
        assert (outside / "kept.txt").read_text() == "kept"
    finally:
        kernel.remove_scratch(scratch)
