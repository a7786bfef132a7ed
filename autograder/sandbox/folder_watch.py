"""A bound on what a kernel keeps in its working folder, enforced from the grader's side.

A kernel writes in its scratch folder (sandbox/kernel.py), on the grading machine's disk:
RLIMIT_FSIZE bounds each file (64 MiB), but nothing bounded their number, and a notebook
writing file after file filled the disk at some 750 MB/s while it was graded, with the
gradebook, the other students' graded folders and their pages on it. A thread of the grader
measures the folder every PERIOD s while the kernel lives (the space its files take, and how
many there are), and stops the kernel once it holds more than the limit, or more than
MAX_ENTRIES files and folders (each measure walks them all), or a folder the grader cannot
read even after giving itself the right to (the owner may; a kernel of the grader's own user
may make one unreadable): what was written past the limit in the last PERIOD is all it can
add. The kernel's code cannot reach this thread: it runs in the grader's process.

A file removed while a process holds it open, or maps it, still takes its space, and no
listing shows it (256 open files of 64 MiB each are 16 GiB, and a mapping outlives its
descriptor): each measure also asks the kernel's template what the sandbox's processes hold
so (zygote.py, `held`), and counts it against the same limit.

The kernel is stopped through its template (the same request that ends it after the
notebook, which takes every process it started); the grader, waiting on its messages, finds
it gone and says why (`reason`), as for a kernel that ran out of time.
"""

from __future__ import annotations

import errno
import os
import stat
import threading

from autograder.course.submission_files import FOLDER_ENTRIES
from autograder.i18n import t

PERIOD = 0.2  # s between two measures of the folder
# Files and folders a kernel's folder may hold: as many as the copy of the notebook's folder
# may bring in (FOLDER_ENTRIES), and as many again written by its code.
MAX_ENTRIES = 2 * FOLDER_ENTRIES


def folder_usage(folder, most_entries=MAX_ENTRIES):
    """(bytes its files take on disk, entries) of everything under `folder`, no link
    followed (a folder the kernel swaps for a link as it is read is not entered); the count
    stops past `most_entries`. None when a folder in it cannot be read, even once made
    readable again."""
    taken, entries, folders = 0, 0, [folder]
    while folders:
        path = folders.pop()
        listing = readable_listing(path)
        if listing is None:
            return None
        for name, info in listing:
            entries += 1
            if entries > most_entries:
                return taken, entries
            taken += info.st_blocks * 512
            if stat.S_ISDIR(info.st_mode):
                folders.append(os.path.join(path, name))
    return taken, entries


def readable_listing(path):
    """[(name, stat, no link followed)] of the folder at `path`: [] when it is gone or no
    longer a folder; None when it cannot be read, even after its owner's rights are given
    back to it (never through a link: a kernel may swap one in), or when its path is longer
    than a path may be (25 folders of 200 characters hid 1.5 GB)."""
    for attempt in range(2):
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW |
                                 os.O_CLOEXEC)
        except PermissionError:
            if attempt or not owner_rights_back(path):
                return None
            continue
        except OSError as error:  # gone, or a link or a file now; or nested deeper than a
            # path can name (its files would go unmeasured): not readable
            return None if error.errno == errno.ENAMETOOLONG else []
        try:
            return list(entries_of(descriptor))
        except PermissionError:  # listed, but its entries cannot be looked up (mode 0o444)
            if attempt or not owner_rights_back(path):
                return None
        finally:
            os.close(descriptor)
    return None


def owner_rights_back(path):
    """Give the folder at `path` its owner's rights back (never through a link); whether it
    could be done."""
    try:
        os.chmod(path, 0o700, follow_symlinks=False)
    except (OSError, NotImplementedError):
        return False
    return True


def entries_of(descriptor):
    """(name, stat) of each entry of the open folder, no link followed; one removed as it is
    read is passed over (the others still count). PermissionError when an entry cannot be
    looked up: a folder that can be listed but not searched would hide its files' sizes."""
    with os.scandir(descriptor) as entries:
        for entry in entries:
            try:
                yield entry.name, entry.stat(follow_symlinks=False)
            except PermissionError:
                raise
            except OSError:
                continue


class FolderWatch:
    """Measure `folder` every PERIOD s until stopped, with what `held()` says the kernel's
    processes hold of files they removed (bytes; None when the grader cannot tell); past
    `limit` bytes (or MAX_ENTRIES, or unreadable), call `stop_kernel()` once, `reason` then
    saying why."""

    def __init__(self, folder, limit, stop_kernel, held=lambda: 0):
        self.folder, self.limit, self.stop_kernel, self.held = folder, limit, stop_kernel, held
        self.reason = None
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.watch, name="kit-folder-watch", daemon=True)
        self.thread.start()

    def watch(self):
        while not self.done.wait(PERIOD):
            self.reason = over_limit(folder_usage(self.folder, MAX_ENTRIES), self.limit,
                                     self.held_now)
            if self.reason is not None:
                try:
                    self.stop_kernel()
                except Exception:  # noqa: BLE001 - ended meanwhile: the grader finds it gone
                    pass
                return

    def held_now(self):
        try:
            return self.held()
        except Exception:  # noqa: BLE001 - the template ended with the kernel: nothing held
            return 0

    def stop(self):
        self.done.set()
        if self.thread is not threading.current_thread():
            self.thread.join()


def over_limit(usage, limit, held=lambda: 0):
    """Why a folder measured `usage` (folder_usage), with the bytes of removed files its
    kernel holds (`held()`, asked only when the folder alone is within the limits), is past
    what a kernel may keep, or None."""
    if usage is None:
        return t("its code made a folder the grader cannot read in its working folder")
    taken, entries = usage
    if entries > MAX_ENTRIES:
        return t("its code made more than {count} files and folders in its working folder",
                 count=MAX_ENTRIES)
    if taken > limit:
        return t("its code wrote more than {mib} MiB into its working folder (the limit: "
                 "c.GradeInSandbox.folder_limit_mb)", mib=limit >> 20)
    removed = held()
    if removed is None:
        return t("its code hid from the grader the files it holds open (it made its "
                 "processes unreadable)")
    if taken + removed > limit:
        return t("its code kept more than {mib} MiB on disk, counting files it removed but "
                 "still holds open or mapped (the limit: c.GradeInSandbox.folder_limit_mb)",
                 mib=limit >> 20)
    return None
