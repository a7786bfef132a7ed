"""Does reading an inbox (autograder/outputs/inbox.py) take only what it should from a hostile
zip or folder, say why for the rest, and stay within its bounds?"""

from __future__ import annotations

import re
import stat
import zipfile
from datetime import UTC, datetime

import pytest

from autograder.outputs import inbox
from autograder.outputs.inbox import read_inbox

ID = "01_attention_by_hand"
PATTERN = re.compile(r".*/(?P<student_id>[A-Za-z0-9][A-Za-z0-9.-]*)_"
                     r"(?P<file_id>\d\d_[a-z0-9_]+\.ipynb)$")
NOTEBOOK = b'{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'


def entry(archive, name, data, hour, mode=stat.S_IFREG | 0o644):
    info = zipfile.ZipInfo(name, date_time=(2026, 12, 1, hour, 0, 0))
    info.external_attr = mode << 16
    archive.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)


def names_and_reasons(problems):
    return {p.path.name: p.reason for p in problems}


@pytest.fixture
def hostile_zip(tmp_path):
    path = tmp_path / "lms.zip"
    nested = tmp_path / "nested.zip"
    with zipfile.ZipFile(nested, "w") as inner:
        entry(inner, f"zed_{ID}.ipynb", NOTEBOOK, 9)
    with zipfile.ZipFile(path, "w") as archive:
        entry(archive, f"export/ada_{ID}.ipynb", NOTEBOOK, 8)
        entry(archive, f"bob_{ID}.zip", nested.read_bytes(), 9)
        entry(archive, f"../../cy_{ID}.ipynb", NOTEBOOK, 10)
        entry(archive, f"a/dee_{ID}.ipynb", b"older", 11)
        entry(archive, f"b/dee_{ID}.ipynb", NOTEBOOK, 12)
        entry(archive, f"eve_{ID}.ipynb", b"../../../solutions/x.py", 13,
              mode=stat.S_IFLNK | 0o777)
        entry(archive, f"fay_{ID}.ipynb", b" " * (inbox.NOTEBOOK_BYTES + 1), 14)
        entry(archive, "README.txt", b"exported by the LMS", 15)
    return path


def test_a_hostile_zip_gives_only_the_plain_notebooks(hostile_zip):
    """Are a nested archive, a link and a file past the size bound refused, each with its
    reason, while the plain notebooks (a `../` name read as its file name only) are read?"""
    handed, problems = read_inbox(hostile_zip, PATTERN)
    assert sorted(h.name for h in handed) == [f"ada_{ID}.ipynb", f"cy_{ID}.ipynb",
                                              f"dee_{ID}.ipynb"]
    reasons = names_and_reasons(problems)
    assert "archive inside the inbox" in reasons[f"bob_{ID}.zip"]
    assert "symbolic link" in reasons[f"eve_{ID}.ipynb"]
    assert "larger than 32 MB" in reasons[f"fay_{ID}.ipynb"]
    assert "README.txt" not in reasons  # a name that does not parse is the caller's to say


def test_two_files_of_one_student_keep_the_newer_and_say_so(hostile_zip):
    """Of two files of one student's notebook, is the newer one read and the other named?"""
    handed, problems = read_inbox(hostile_zip, PATTERN)
    [dee] = [h for h in handed if h.name.startswith("dee_")]
    assert dee.data == NOTEBOOK and dee.when == datetime(2026, 12, 1, 12, tzinfo=UTC)
    assert "a second file of dee's" in names_and_reasons(problems)[f"dee_{ID}.ipynb"]


def test_a_header_that_lies_about_the_size_is_read_no_further(monkeypatch, tmp_path):
    """Is an entry read no further than the bound whatever its header claims?"""
    monkeypatch.setattr(inbox, "NOTEBOOK_BYTES", 1000)
    path = tmp_path / "lms.zip"
    with zipfile.ZipFile(path, "w") as archive:
        entry(archive, f"ada_{ID}.ipynb", b" " * 5000, 8)
    info_size = zipfile.ZipFile(path).getinfo(f"ada_{ID}.ipynb").file_size
    assert info_size == 5000
    handed, problems = read_inbox(path, PATTERN)
    assert handed == [] and "larger than" in problems[0].reason


def test_the_inbox_as_a_whole_is_bounded(monkeypatch, tmp_path):
    """Does reading stop, and say so, once the inbox's notebooks exceed the total bound?"""
    monkeypatch.setattr(inbox, "INBOX_BYTES", len(NOTEBOOK) * 2)
    path = tmp_path / "lms.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for hour, student in enumerate(["ada", "bob", "cy", "dee"]):
            entry(archive, f"{student}_{ID}.ipynb", NOTEBOOK, 8 + hour)
    handed, problems = read_inbox(path, PATTERN)
    assert len(handed) == 2 and "the rest is not read" in problems[0].reason


def test_a_folder_inbox_follows_no_link(tmp_path):
    """In a folder inbox, is a symbolic link refused, not followed?"""
    (tmp_path / "secret.txt").write_text("root only")
    folder = tmp_path / "inbox"
    folder.mkdir()
    (folder / f"ada_{ID}.ipynb").write_bytes(NOTEBOOK)
    (folder / f"bob_{ID}.ipynb").symlink_to(tmp_path / "secret.txt")
    handed, problems = read_inbox(folder, PATTERN)
    assert [h.name for h in handed] == [f"ada_{ID}.ipynb"]
    assert "symbolic link" in names_and_reasons(problems)[f"bob_{ID}.ipynb"]


def without_utf8_flag(path):
    """The zip at `path` as Info-ZIP writes one on Linux: UTF-8 names, the flag that says so
    unset (in each local header and in the central directory)."""
    data = bytearray(path.read_bytes())
    for signature, at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        start = data.find(signature)
        while start != -1:
            flags = int.from_bytes(data[start + at:start + at + 2], "little") & ~0x800
            data[start + at:start + at + 2] = flags.to_bytes(2, "little")
            start = data.find(signature, start + 4)
    path.write_bytes(bytes(data))


def test_names_read_as_written_and_system_files_left_out(tmp_path):
    """A zip made on Linux or macOS (UTF-8 names without the flag), packed with macOS's
    __MACOSX/ and ._ files and a .DS_Store: is the Chinese name read as written, not as
    cp437, and are the system's files no entry at all (no name to refuse)?"""
    path = tmp_path / "lms.zip"
    with zipfile.ZipFile(path, "w") as archive:
        entry(archive, f"王小明_{ID}.ipynb", NOTEBOOK, 9)
        entry(archive, f"__MACOSX/._carl_{ID}.ipynb", b"\0\5\26\7", 9)
        entry(archive, f"class/._carl_{ID}.ipynb", b"\0\5\26\7", 9)
        entry(archive, ".DS_Store", b"\0\0\0\1Bud1", 9)
        entry(archive, f"carl_{ID}.ipynb", NOTEBOOK, 9)
    without_utf8_flag(path)
    assert zipfile.ZipFile(path).namelist()[0] != f"王小明_{ID}.ipynb"  # zipfile reads cp437
    assert inbox.zip_names(path) == [f"王小明_{ID}.ipynb", f"carl_{ID}.ipynb"]
    any_name = re.compile(r".*/(?P<student_id>[^/_]+)_(?P<file_id>\d\d_[a-z0-9_]+\.ipynb)$")
    handed, problems = read_inbox(path, any_name)
    assert sorted(h.name for h in handed) == [f"carl_{ID}.ipynb", f"王小明_{ID}.ipynb"]
    assert problems == []
    folder = tmp_path / "folder"
    folder.mkdir()
    for name in (f"carl_{ID}.ipynb", f"._carl_{ID}.ipynb", ".DS_Store"):
        (folder / name).write_bytes(NOTEBOOK)
    handed, problems = read_inbox(folder, any_name)
    assert [h.name for h in handed] == [f"carl_{ID}.ipynb"] and problems == []
