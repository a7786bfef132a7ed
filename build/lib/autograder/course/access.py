"""Who besides the instructor may reach the course: on a shared server (a JupyterHub on one
machine, students and instructor Unix users of it) the course folder holds the solutions, the
checks, the gradebook and every student's work, and must be closed to the students logged in
beside it.

The course root is the one door: a user who cannot pass through it reaches nothing beneath,
whatever the modes of the files there (nbgrader's collect leaves `submitted/` open to all;
feedback pages stay readable because nbgrader's release_feedback copies their modes into the
exchange). So `init` makes the root 0700, or 0750 with the group of the course's TAs
(`--group`, `c.Course.group`), from its first moment, and every command that reads the course
looks at the root and the folders above it (`openings`): `grade` and `serve` refuse a course
another user could read or write, the others say it, each naming the path and the fix,
`python -m autograder secure`. `c.Course.shared_readable = True` opens it knowingly. What
the kit writes outside the course (an export, a report, similarity pages given --to
elsewhere) is written for the instructor (and the group) alone (`private_files`).
"""

from __future__ import annotations

import grp
import os
import pwd
import stat
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from autograder.i18n import counted, t

CLOSED, GROUP_CLOSED = 0o700, 0o750  # the course root's modes: the instructor's; and the TAs'


@dataclass(frozen=True)
class Opening:
    """A path of the course that someone besides the instructor can reach: `who`, in words."""

    path: Path
    who: str


def settings(config) -> tuple[str, bool]:
    """(the TA group's name or "", whether the course is knowingly readable by others) of a
    loaded course config (c.Course.group, c.Course.shared_readable)."""
    return str(config.Course.get("group", "") or ""), bool(config.Course.get("shared_readable",
                                                                             False))


def passable_by_others(folder: Path) -> bool:
    """Whether every folder from / down to `folder` lets other users through."""
    return all(os.stat(part).st_mode & stat.S_IXOTH for part in (folder, *folder.parents))


def other_members(gid: int, owner: int) -> list[str]:
    """The users of group `gid` besides `owner` (listed members, and those whose primary
    group it is)."""
    try:
        group = grp.getgrgid(gid)
    except KeyError:
        return []
    names = set(group.gr_mem) | {user.pw_name for user in pwd.getpwall() if user.pw_gid == gid}
    try:
        names.discard(pwd.getpwuid(owner).pw_name)
    except KeyError:
        pass
    return sorted(names)


def openings(root: Path, group: str = "", gradebook: Path | None = None) -> list[Opening]:
    """Where users besides the instructor (and the members of `group`, the TAs) can read or
    write the course: its root, and a SQLite gradebook kept outside it."""
    found = []
    for path in [root, *([gradebook] if gradebook and root not in gradebook.parents else [])]:
        try:
            info = os.stat(path)
        except OSError:
            continue
        mode = stat.S_IMODE(info.st_mode)
        if mode & 0o007 and passable_by_others(path.parent):
            found.append(Opening(path, t("every user of this machine")))
            continue
        if mode & 0o070:
            try:
                name = grp.getgrgid(info.st_gid).gr_name
            except KeyError:
                name = str(info.st_gid)
            members = other_members(info.st_gid, info.st_uid)
            if name != group and members:
                found.append(Opening(path, t("the group {group} ({users})", group=name,
                                             users=", ".join(members[:5]))))
    return found


def opening_lines(found: list[Opening]) -> list[str]:
    """Each opening in a line, and the fix."""
    lines = [t("{path} can be read by {who}: it holds the course's solutions, checks, "
               "grades or students' work", path=opening.path, who=opening.who)
             for opening in found]
    return lines + [t("close it with `python -m autograder secure` (or, knowingly, set "
                      "c.Course.shared_readable = True in nbgrader_config.py)")]


def close(root: Path, group: str = "", gradebook: Path | None = None, log=print) -> int:
    """`secure`: the root 0700 (0750 and the group's, with `group`), and a SQLite gradebook
    kept outside it the instructor's (and the group's) alone. The modes inside the root are
    left as they are: nobody else gets past the root, and nbgrader's release_feedback copies
    a feedback page's mode into the exchange, where the student must read it. The number of
    modes changed."""
    gid = grp.getgrnam(group).gr_gid if group else None
    mode = GROUP_CLOSED if group else CLOSED
    changed = 0
    outside = gradebook if gradebook and root not in gradebook.parents and gradebook.exists() \
        else None
    for path, wanted in [(root, mode), *([(outside, mode & 0o660)] if outside else [])]:
        if gid is not None and os.stat(path).st_gid != gid:
            os.chown(path, -1, gid)
            changed += 1
        if stat.S_IMODE(os.stat(path).st_mode) != wanted:
            os.chmod(path, wanted)
            changed += 1
    fields = dict(root=root, mode=mode, group=t(" (group {group})", group=group) if group
                  else "")
    if changed:
        log(counted(changed, "{root} is now {mode:o}{group}: no other user of this machine "
                    "reaches what it holds (1 mode changed)", "{root} is now {mode:o}{group}: "
                    "no other user of this machine reaches what it holds ({count} modes "
                    "changed)", **fields))
    else:
        log(t("{root} was already {mode:o}{group}: no other user of this machine reaches what "
              "it holds; nothing changed", **fields))
    return changed


@contextmanager
def private_files(group: str = ""):
    """While the block runs, what this process (and its children) creates is the
    instructor's alone (and the group's, with `group`): for exports, reports and similarity
    pages, which may be written outside the closed course."""
    previous = os.umask(0o027 if group else 0o077)
    try:
        yield
    finally:
        os.umask(previous)
