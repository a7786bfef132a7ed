"""Read an inbox of handed-in notebooks (a folder or an LMS zip) without trusting it.

Only regular files whose names parse are read, each by its file name (a folder inside a zip
is the LMS's packing; no entry's path is ever used as a path, so `../` cannot leave the
course), each and all of them bounded in size, and never an archive inside the archive.
Whatever is refused is a Problem of that entry, and the rest is read. Two files of one
student and notebook keep the newest; the other is named.

The kit's `collect` and nbgrader's own `zip_collect` (through `InboxExtractor`, nbgrader's
extractor plugin, set in autograder/course/stages.py) read an inbox with this one function.
"""

from __future__ import annotations

import re
import stat
import zipfile
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from pathlib import Path, PurePosixPath

from nbgrader.plugins import ExtractorPlugin

from autograder.course.deadlines import handed_in_at
from autograder.course.ledger import Problem
from autograder.course.submission_files import NOTEBOOK_BYTES
from autograder.i18n import t

INBOX_BYTES = 2 * 2**30  # all notebooks of one inbox together
INBOX_ENTRIES = 20_000
UNIX = 3  # a zip entry's create_system when made on Unix
ARCHIVES = (".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar")


@dataclass(frozen=True)
class Handed:
    """One notebook handed in: its file name, its bytes and when it was handed in."""

    name: str
    data: bytes
    when: datetime


def refused(source, name, reason, fix, student=""):
    return Problem(Path(source) / name, reason, fix, student=student)


def named_time(match):
    """The time a file's name gives, where the pattern's (?P<timestamp>...) group reads one:
    the time zip_collect writes in timestamp.txt and grade reads (not the file's or the zip
    entry's: an export's), read as grade reads it; None where it gives none."""
    if "timestamp" not in match.re.groupindex or not match.group("timestamp"):
        return None
    return handed_in_at(match.group("timestamp"))


def entry_problem(source, name, mode, size):
    """The Problem of one inbox entry before it is read, or None when it may be read."""
    lowered = name.lower()
    if lowered.endswith(ARCHIVES):
        return refused(source, name, t("an archive inside the inbox; it is not opened"),
                       t("put the notebooks it holds in the inbox themselves"))
    if mode is not None and not stat.S_ISREG(mode):
        return refused(source, name, t("a symbolic link or special file; it is not followed"),
                       t("put the notebook itself in the inbox"))
    if size > NOTEBOOK_BYTES:
        return refused(source, name, t("larger than {mb} MB; it is not read",
                                       mb=NOTEBOOK_BYTES // 2**20),
                       t("ask the student to clear the notebook's outputs and hand it in "
                         "again"))
    return None


def bounded_read(stream):
    """The bytes of one entry, never more than NOTEBOOK_BYTES whatever its header says."""
    data = stream.read(NOTEBOOK_BYTES + 1)
    if len(data) > NOTEBOOK_BYTES:
        raise ValueError(t("larger than {mb} MB; it is not read", mb=NOTEBOOK_BYTES // 2**20))
    return data


SYSTEM_FILES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})  # an OS's, not a student's
UTF8_NAMES = 0x800  # a zip entry's flag: its name is UTF-8 (else cp437, as zipfile reads it)


def system_file(path) -> bool:
    """Whether an inbox entry is what an operating system adds when it packs or shows a
    folder (macOS's __MACOSX/ and ._ files, .DS_Store, Windows' Thumbs.db), not handed in."""
    parts = PurePosixPath(path).parts
    return "__MACOSX" in parts or (bool(parts) and (parts[-1] in SYSTEM_FILES
                                                    or parts[-1].startswith("._")))


def entry_path(info) -> str:
    """A zip entry's path as its maker wrote it: zip tools on Linux and macOS write UTF-8
    names without the flag that says so, which zipfile then reads as cp437
    ('王小明' as 'τÄïσ░ÅµÿÄ'); a name that is no UTF-8 stays cp437."""
    name = info.filename
    if not info.flag_bits & UTF8_NAMES:
        try:
            name = name.encode("cp437").decode("utf-8")
        except UnicodeError:
            pass
    return name.replace("\\", "/")


def zip_names(source: Path) -> list[str]:
    """The file names in a zip, as their maker wrote them (folders and system files left
    out)."""
    with zipfile.ZipFile(source) as archive:
        return [PurePosixPath(path).name for info in archive.infolist()
                if not info.is_dir() and not system_file(path := entry_path(info))]


def zip_entries(source: Path, zone: tzinfo):
    """Yield (file name, mode or None, size, opener, when) for each file of a zip."""
    with zipfile.ZipFile(source) as archive:
        for info in archive.infolist():
            path = entry_path(info)
            if info.is_dir() or system_file(path):
                continue
            # A Unix zip keeps the file's type in the high bits (a link is S_IFLNK); a zip made
            # elsewhere, or a mode without type bits, says nothing of it: a plain file.
            mode = info.external_attr >> 16 if info.create_system == UNIX else 0
            mode = mode if stat.S_IFMT(mode) else stat.S_IFREG
            when = datetime(*info.date_time, tzinfo=zone)
            yield (PurePosixPath(path).name, mode, info.file_size,
                   lambda info=info: archive.open(info), when)


def folder_entries(source: Path):
    """Yield the same for each entry at the top of a folder, following no link."""
    for path in sorted(source.iterdir()):
        status = path.lstat()
        if stat.S_ISDIR(status.st_mode) or system_file(path.name):
            continue
        yield (path.name, status.st_mode, status.st_size, lambda path=path: path.open("rb"),
               datetime.fromtimestamp(status.st_mtime, UTC))


def read_inbox(source: Path, regexp, zone: tzinfo = UTC):
    """([Handed] whose names match `regexp`, [Problem]) of a folder or a zip."""
    entries = folder_entries(source) if source.is_dir() else zip_entries(source, zone)
    kept, problems, total = {}, [], 0
    try:
        for count, (name, mode, size, opener, when) in enumerate(entries):
            if count >= INBOX_ENTRIES:
                problems.append(refused(source, name, t("the inbox holds more than {count} "
                                                        "files; the rest is not read",
                                                        count=INBOX_ENTRIES),
                                        t("collect the class in smaller parts")))
                break
            problem = entry_problem(source, name, mode, size)
            match = regexp.match(f"extracted/{name}")  # nbgrader matches whole paths
            if problem or match is None:  # a name that does not parse is the caller's to say
                problems += [problem] if problem else []
                continue
            try:
                with opener() as stream:
                    data = bounded_read(stream)
            except (OSError, ValueError, zipfile.BadZipFile, zlib.error, EOFError) as error:
                problems.append(refused(source, name, t("it cannot be read ({error})",
                                                        error=error),
                                        t("ask the student to hand it in again")))
                continue
            total += len(data)
            if total > INBOX_BYTES:
                problems.append(refused(source, name, t("the inbox's notebooks exceed {gb} GB "
                                                        "together; the rest is not read",
                                                        gb=INBOX_BYTES // 2**30),
                                        t("collect the class in smaller parts")))
                break
            key = (match.group("student_id"), match.group("file_id"))
            when = named_time(match) or when  # which of two is newer, who is late: as grade
            earlier = kept.get(key)
            if earlier is not None:
                newer, older = (earlier, name) if earlier.when >= when else (None, earlier.name)
                problems.append(refused(source, older,
                                        t("a second file of {student}'s {notebook}; the newer "
                                          "one is collected", student=key[0],
                                          notebook=key[1]),
                                        t("if the other one is the right one, collect it "
                                          "alone"), student=key[0]))
                if newer is not None:
                    continue
            kept[key] = Handed(name, data, when)
    except (OSError, zipfile.BadZipFile, zlib.error) as error:
        problems.append(refused(source, "", t("the inbox cannot be read ({error})",
                                              error=error),
                                t("export the class's notebooks from the LMS again")))
    return list(kept.values()), problems


def write_inbox(handed, folder: Path):
    """Write each handed-in notebook into `folder` under its own file name."""
    for notebook in handed:
        (folder / notebook.name).write_bytes(notebook.data)


class InboxExtractor(ExtractorPlugin):
    """nbgrader's extractor plugin for zip_collect: each zip and the plain files of the archive
    folder are read by `read_inbox` (the kit's bounds and refusals), never unpacked whole."""

    def extract(self, archive_path, collect_path):
        regexp = re.compile(self.parent.collector_plugin_inst.named_regexp)
        folder = Path(archive_path)
        zips = [p for p in sorted(folder.iterdir())
                if not p.is_symlink() and p.is_file() and zipfile.is_zipfile(p)]
        for source in [folder, *zips]:
            handed, problems = read_inbox(source, regexp)
            for problem in problems:
                if problem.path not in zips:
                    self.log.warning("%s", problem)
            write_inbox(handed, Path(collect_path))
