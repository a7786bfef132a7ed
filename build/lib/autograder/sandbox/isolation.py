"""Which sandbox this machine can give student code, strongest first, and the line that says
so, or why none can be had.

The full sandbox (`c.GradeInSandbox.isolation = "full"`, the default) is one of:
- "namespaces": the grader is root with the right to make namespaces (a host, a container
  with SYS_ADMIN): each kernel in namespaces of its own, as a user of its own;
- "user-namespaces": an ordinary user where Linux lets one make user namespaces (as
  bubblewrap does without privileges): the same namespaces and allow-list root, inside a user
  namespace of the kernel template's;
- "landlock": where namespaces cannot be made (Docker's and Kubernetes' default seccomp
  profiles, Ubuntu's AppArmor restriction): Landlock (ABI 6 or more) and seccomp confine each
  kernel to an allow-list of folders, no network, and no signal outside itself.
Where none of them can be had, a command that would run student code refuses (`NoSandbox`),
unless the course chose "limits" knowingly (resource limits only: student code runs as the
grader's user, can read its files and use the network).

Whether namespaces can be made is tried for real, in a child process: the calls that build a
kernel's sandbox (unshare, a tmpfs, a /proc of a new PID namespace), once per process.
"""

from __future__ import annotations

import functools
import os
import stat
import subprocess
import sys

from autograder.i18n import t
from autograder.sandbox import landlock

NAMESPACES, USER_NAMESPACES, LANDLOCK, LIMITS = ("namespaces", "user-namespaces", "landlock",
                                                 "limits")
FULL = (NAMESPACES, USER_NAMESPACES, LANDLOCK)  # strongest first
SETTINGS = ("full", "limits")  # c.GradeInSandbox.isolation; "auto", of older courses, is "full"
OVERRIDE = "KIT_SANDBOX"  # a mechanism forced, for the tests of each (never weaker than full)

# Run by `python -c` as the grader's user: exit 0 when the calls that build a kernel's
# sandbox work here, else the errno of the first that failed. With "user" first, it enters a
# user namespace as the kernel template does.
PROBE = r"""
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
def check(result):
    if result != 0:
        os._exit(ctypes.get_errno() or 1)
if sys.argv[1] == "user":
    uid, gid = os.geteuid(), os.getegid()
    check(libc.unshare(0x10000000))
    for name, text in (("setgroups", "deny"), ("uid_map", f"0 {uid} 1"),
                       ("gid_map", f"0 {gid} 1")):
        try:
            with open(f"/proc/self/{name}", "w") as file:
                file.write(text)
        except OSError as error:
            os._exit(error.errno or 1)
check(libc.unshare(0x20000000))
pid = os.fork()
if pid == 0:
    check(libc.unshare(0x00020000 | 0x40000000 | 0x08000000 | 0x04000000))
    check(libc.mount(None, b"/", None, 16384 | (1 << 18), None))
    check(libc.mount(b"tmpfs", b"/tmp", b"tmpfs", 2 | 4, b"size=64k"))
    os.mkdir("/tmp/proc")
    check(libc.mount(b"proc", b"/tmp/proc", b"proc", 2 | 4 | 8, None))
    os._exit(0)
os._exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
"""


class NoSandbox(RuntimeError):
    """The full sandbox cannot be built here; the message is the one line that says what is
    missing and the two ways out."""


@functools.cache
def namespaces_refused(user):
    """None when a kernel's namespaces can be made here (in a user namespace of our own with
    `user`), else why not, in a few words."""
    try:
        # -I -S: the standard library alone (the probe's ctypes and os), without the
        # virtualenv's site and its .pth files; about half the interpreter's start, which
        # every grade waits for.
        result = subprocess.run([sys.executable, "-I", "-S", "-c", PROBE,
                                 "user" if user else "root"], capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as error:
        return str(error)
    if result.returncode == 0:
        return None
    return os.strerror(result.returncode) if result.returncode > 0 else "killed"


def available():
    """{mechanism: None when it can be had here, else why not}, strongest first."""
    abi = landlock.abi()
    return {
        NAMESPACES: t("not root") if os.geteuid() != 0 else namespaces_refused(False),
        # Linux sets no process limit for root, even in a user namespace: a fork bomb
        # would fill the machine.
        USER_NAMESPACES: t("as root, Linux sets no process limit in a user namespace")
        if os.geteuid() == 0 else namespaces_refused(True),
        LANDLOCK: (unreachable_python() if abi >= landlock.NEEDED_ABI else
                   t("Landlock ABI {abi} (ABI {needed} needed)", abi=abi,
                     needed=landlock.NEEDED_ABI) if abi else t("no Landlock")),
    }


def unreachable_python():
    """As root, a Landlock kernel runs as a user of its own on the machine's own folders: why
    that user cannot reach the Python installation or the virtualenv (a folder on the way
    that other users may not enter, as pyenv's under /root), else None."""
    if os.geteuid() != 0:
        return None
    for place in (sys.prefix, sys.base_prefix, os.path.dirname(os.path.realpath(sys.executable))):
        folder = os.path.realpath(place)
        while True:
            if not os.stat(folder).st_mode & stat.S_IXOTH:
                return t("its sandbox user cannot enter {folder} (chmod o+x {folder}, or "
                         "grade where namespaces can be made)", folder=folder)
            if folder == "/":
                break
            folder = os.path.dirname(folder)
    return None


def choose(setting):
    """The mechanism a kernel gets for the course's `setting` ("full", "limits"; "auto", of
    older courses, is "full"): the strongest this machine has, or LIMITS; NoSandbox when
    "full" cannot be had. KIT_SANDBOX names one mechanism instead (the tests of each): it
    must be a full one, and available."""
    if setting == LIMITS:
        return LIMITS
    if setting not in ("full", "auto"):
        raise NoSandbox(t("c.GradeInSandbox.isolation is {value!r}: it must be \"full\" or "
                          "\"limits\"", value=setting))
    found = available()
    forced = os.environ.get(OVERRIDE)
    if forced:
        if forced not in FULL:
            raise NoSandbox(t("{variable}={value} names no full sandbox (one of {names})",
                              variable=OVERRIDE, value=forced, names=", ".join(FULL)))
        if found[forced]:
            raise NoSandbox(t("{variable}={value}: {why}", variable=OVERRIDE, value=forced,
                              why=found[forced]))
        return forced
    for mechanism, why_not in found.items():
        if why_not is None:
            return mechanism
    raise NoSandbox(refusal(found))


def refusal(found):
    """The one line of a refusal: what is missing, and the two ways out."""
    missing = "; ".join(f"{name}: {why}" for name, why in found.items())
    return t("the full sandbox cannot be built here ({missing}). Grade where Linux offers one "
             "of them (`python -m autograder guide sandbox`), or set "
             "c.GradeInSandbox.isolation = \"limits\" in nbgrader_config.py knowing that "
             "student code then runs as you, able to read your files and use the network",
             missing=missing)


def described(mechanism):
    """The isolation in force, in words, as the console, grade.log and the report name it."""
    return {
        NAMESPACES: t("full (namespaces, as root)"),
        USER_NAMESPACES: t("full (user namespaces)"),
        LANDLOCK: t("full (Landlock ABI {abi} and seccomp)", abi=landlock.abi()),
        LIMITS: t("limits only (chosen in nbgrader_config.py: student code runs as you)"),
    }.get(mechanism, mechanism)
