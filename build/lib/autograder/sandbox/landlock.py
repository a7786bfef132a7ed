"""Landlock, Linux's unprivileged access control (linux/landlock.h), through its three system
calls: which version this Linux offers, and a ruleset that confines the calling thread and
every process it starts to an allow-list of folders, no TCP, and no signal or abstract unix
socket outside its own domain.

A process restricts itself; nothing needs root. Standard library only: the kernel template
(zygote.py) imports it as a module of its own folder, the grader as autograder.sandbox.landlock.
"""

import ctypes
import os

CREATE_RULESET, ADD_RULE, RESTRICT_SELF = 444, 445, 446  # the same on every architecture
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1

# Rights on files (ABI 1, then REFER in 2, TRUNCATE in 3, IOCTL_DEV in 5).
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR = 1 << 4, 1 << 5, 1 << 6, 1 << 7
MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = 1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 4: (1 << 15) - 1,
             5: (1 << 16) - 1}
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6
NEEDED_ABI = 6  # the scopes: no signal (kill(-1) included) and no abstract socket outside

READ = EXECUTE | READ_FILE | READ_DIR
READ_FILE_ONLY = EXECUTE | READ_FILE  # a rule on a file takes file rights only
DEVICE = READ_FILE | WRITE_FILE | IOCTL_DEV  # /dev/null, a pseudo-terminal ...

LIBC = ctypes.CDLL(None, use_errno=True)


class RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def abi():
    """The Landlock version this Linux offers; 0 when none (too old, turned off at boot, or
    its system calls refused, as a seccomp profile may)."""
    version = LIBC.syscall(ctypes.c_long(CREATE_RULESET), None, ctypes.c_size_t(0),
                           ctypes.c_uint32(CREATE_RULESET_VERSION))
    return max(version, 0)


def _check(result, what):
    if result < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"landlock {what}: {os.strerror(errno)}")
    return result


def confine(read, write, devices, version):
    """Restrict this thread, and all it starts, to reading (and executing) under the paths of
    `read`, reading and writing under those of `write` and the device files of `devices`; to
    no TCP bind or connect; to signals and abstract unix sockets within its own domain.
    Landlock `version` (abi()) must be NEEDED_ABI or more. The caller has set no_new_privs.
    A path that does not exist is skipped."""
    if version < NEEDED_ABI:
        raise OSError(f"Landlock ABI {version} lacks the scopes of ABI {NEEDED_ABI}")
    handled = FS_BY_ABI.get(version, FS_BY_ABI[5])
    attr = RulesetAttr(handled, NET_BIND_TCP | NET_CONNECT_TCP,
                       SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL)
    ruleset = _check(LIBC.syscall(ctypes.c_long(CREATE_RULESET), ctypes.byref(attr),
                                  ctypes.c_size_t(ctypes.sizeof(attr)), ctypes.c_uint32(0)),
                     "create_ruleset")
    try:
        for paths, rights in ((read, READ), (write, handled), (devices, DEVICE & handled)):
            for path in paths:
                _allow(ruleset, path, rights)
        _check(LIBC.syscall(ctypes.c_long(RESTRICT_SELF), ctypes.c_int(ruleset),
                            ctypes.c_uint32(0)), "restrict_self")
    finally:
        os.close(ruleset)


def _allow(ruleset, path, rights):
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except FileNotFoundError:
        return
    try:
        if not os.path.isdir(path):
            rights &= READ_FILE_ONLY | WRITE_FILE | TRUNCATE | IOCTL_DEV
        rule = PathBeneathAttr(rights, fd)
        _check(LIBC.syscall(ctypes.c_long(ADD_RULE), ctypes.c_int(ruleset),
                            ctypes.c_int(RULE_PATH_BENEATH), ctypes.byref(rule),
                            ctypes.c_uint32(0)), f"add_rule {path}")
    finally:
        os.close(fd)


def readable_beneath(kept, hidden):
    """The paths that together give read access to every folder of `kept` except the ones of
    `hidden` inside them: a kept folder with nothing hidden inside is one path; one with a
    hidden folder inside is replaced by its entries, each treated the same way (Landlock
    cannot take a folder back out of an allowed one, so site-packages is allowed entry by
    entry around the kit's own packages)."""
    hidden = {os.path.realpath(folder) for folder in hidden}
    paths = []

    def walk(folder):
        real = os.path.realpath(folder)
        if real in hidden:
            return
        if not any(h.startswith(real.rstrip("/") + "/") for h in hidden):
            paths.append(real)
            return
        for name in sorted(os.listdir(real)):
            walk(os.path.join(real, name))

    for folder in kept:
        if os.path.isdir(folder):
            walk(folder)
    return paths
