"""Does serve's copy of a submission take only what the student made: regular files and
folders, each read from what was opened, never through a link?"""

from __future__ import annotations

import os

import pytest

from autograder.serve.collect_one import copy_without_links


def test_links_and_special_files_are_left_out_and_ignored_names_skipped(tmp_path):
    """A submission holding a notebook, a folder with a file, a link to another student's
    work, a link to a folder, a named pipe and a checkpoint folder: are the notebook and the
    folder's file copied, byte for byte, and nothing else?"""
    other = tmp_path / "other-student.ipynb"
    other.write_text("another student's answers")
    src = tmp_path / "inbound" / "ada+01+t+x"
    (src / "data").mkdir(parents=True)
    (src / "01.ipynb").write_bytes(b'{"cells": []}' + bytes(range(256)) * 9000)
    (src / "data" / "table.csv").write_text("a,b\n1,2\n")
    (src / "stolen.ipynb").symlink_to(other)
    (src / "stolen-folder").symlink_to(tmp_path)
    os.mkfifo(src / "pipe")
    (src / ".ipynb_checkpoints").mkdir()
    (src / ".ipynb_checkpoints" / "01-checkpoint.ipynb").write_text("{}")

    dest = tmp_path / "submitted" / "ada" / "01"
    dest.parent.mkdir(parents=True)
    copy_without_links(src, dest, [".ipynb_checkpoints"])

    copied = sorted(str(path.relative_to(dest)) for path in dest.rglob("*"))
    assert copied == ["01.ipynb", "data", "data/table.csv"]
    assert (dest / "01.ipynb").read_bytes() == (src / "01.ipynb").read_bytes()
    assert (dest / "data" / "table.csv").read_text() == "a,b\n1,2\n"


def test_a_submission_folder_that_is_a_link_is_not_copied(tmp_path):
    """Is a submission folder swapped for a link refused as a whole (nothing copied)?"""
    real = tmp_path / "elsewhere"
    real.mkdir()
    (real / "01.ipynb").write_text("{}")
    link = tmp_path / "ada+01+t+x"
    link.symlink_to(real)
    dest = tmp_path / "dest"
    with pytest.raises(OSError):
        copy_without_links(link, dest)
    assert not dest.exists()
