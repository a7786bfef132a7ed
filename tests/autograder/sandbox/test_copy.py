"""Does the copy of a notebook's folder into its sandbox take regular files only, bounded,
without ever reading through a link? (The copy runs as root in the grader.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from autograder.course.submission_files import FOLDER_DEPTH
from autograder.sandbox import kernel as kernel_module
from autograder.sandbox.kernel import copy_regular_files
from tests.autograder.deep_folders import below, deep_folders

ROOT = Path(__file__).resolve().parents[3]
MIB = 1 << 20


@pytest.fixture()
def folders(tmp_path):
    source, target = tmp_path / "submitted", tmp_path / "scratch"
    source.mkdir()
    target.mkdir()
    return source, target


def copied(target):
    return sorted(str(p.relative_to(target)) for p in target.rglob("*"))


def test_regular_files_and_folders_are_copied(folders):
    """Are the regular files of the folder and of its subfolders copied with their content
    and mode, and the grader's own .kit-* files left out, with nothing refused?"""
    source, target = folders
    (source / "data.txt").write_text("rows")
    (source / "run.sh").write_text("echo hi")
    (source / "run.sh").chmod(0o755)
    (source / "inputs" / "more").mkdir(parents=True)
    (source / "inputs" / "more" / "x.csv").write_text("1,2")
    (source / ".kit-record").write_text("the grader's")
    assert copy_regular_files(source, target, MIB, 10 * MIB) == []
    assert copied(target) == ["data.txt", "inputs", "inputs/more", "inputs/more/x.csv",
                              "run.sh"]
    assert (target / "inputs" / "more" / "x.csv").read_text() == "1,2"
    assert (target / "run.sh").stat().st_mode & 0o777 == 0o755


def test_links_are_never_read(folders, tmp_path):
    """Are links to a root-only file, to a folder elsewhere and to the kit's solutions/
    refused (not followed, not copied), in the folder and in a subfolder?"""
    source, target = folders
    secret = tmp_path / "secret.txt"
    secret.write_text("the grader's secret")
    secret.chmod(0o600)
    (source / "notes.txt").symlink_to(secret)
    (source / "elsewhere").symlink_to(tmp_path)
    (source / "sub").mkdir()
    (source / "sub" / "solutions").symlink_to(ROOT / "solutions")
    (source / "sub" / "dangling").symlink_to(tmp_path / "nothing")
    assert copy_regular_files(source, target, MIB, 10 * MIB) == [
        "elsewhere: a symbolic link, not copied", "notes.txt: a symbolic link, not copied",
        "sub/dangling: a symbolic link, not copied", "sub/solutions: a symbolic link, not copied"]
    assert copied(target) == ["sub"]


def test_hard_links_pipes_and_sockets_are_refused(folders, tmp_path):
    """Is a hard link (which may share a file from outside the folder) refused, and so are a
    named pipe and a socket, which the copy must not even open?"""
    import socket

    source, target = folders
    secret = tmp_path / "secret.txt"
    secret.write_text("the grader's secret")
    secret.chmod(0o600)
    os.link(secret, source / "hard.txt")
    os.mkfifo(source / "pipe")
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(source / "socket"))
        refused = copy_regular_files(source, target, MIB, 10 * MIB)
    assert refused == [
        "hard.txt: a hard link (the same file as another one, maybe outside the folder), "
        "not copied", "pipe: a named pipe, not copied", "socket: a socket, not copied"]
    assert copied(target) == []


def test_sizes_are_bounded(folders):
    """Is a file past the size for one file refused, and so is any file once the copied ones
    reach the size for the whole folder?"""
    source, target = folders
    (source / "a.bin").write_bytes(b"a" * MIB)
    (source / "b.bin").write_bytes(b"b" * (MIB + 1))
    (source / "c.bin").write_bytes(b"c" * MIB)
    (source / "d.bin").write_bytes(b"d" * 10)
    assert copy_regular_files(source, target, MIB, 2 * MIB) == [
        "b.bin: 1,048,577 bytes, more than the 1 MiB a file may have, not copied",
        "d.bin: past the 2 MiB the folder's files may have in all, not copied"]
    assert copied(target) == ["a.bin", "c.bin"]


def test_depth_and_count_are_bounded(folders, monkeypatch):
    """Are folders past the depth, and entries past the count, left out with one line?"""
    source, target = folders
    monkeypatch.setattr(kernel_module, "MAX_DEPTH", 2)
    monkeypatch.setattr(kernel_module, "MAX_ENTRIES", 5)
    (source / "a" / "b" / "c").mkdir(parents=True)
    for name in "vwxyz":
        (source / name).write_text(name)
    assert copy_regular_files(source, target, MIB, 10 * MIB) == [
        "a/b/c: past 2 folders deep, not copied",
        "x and the rest: past 5 files and folders, not copied"]
    assert copied(target) == ["a", "a/b", "v", "w"]


def test_1100_nested_folders_are_copied_to_the_bound(folders):
    """With 1,100 nested folders beside the notebook, are the first FOLDER_DEPTH copied and
    the rest refused in one line, without overflowing Python's stack?"""
    source, target = folders
    with deep_folders(source):
        refused = copy_regular_files(source, target, MIB, 10 * MIB)
    assert refused == [f"{below(FOLDER_DEPTH + 1)}: past {FOLDER_DEPTH} folders deep, "
                       "not copied"]
    assert (target / below(FOLDER_DEPTH)).is_dir()
    assert not (target / below(FOLDER_DEPTH + 1)).exists()
