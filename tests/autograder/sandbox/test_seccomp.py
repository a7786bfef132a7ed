"""Does a kernel's seccomp filter refuse what it says, and let the rest through?

Each case installs the filter in a new process (a filter cannot be taken off) and makes the
calls through ctypes, as student code could."""

from __future__ import annotations

import errno
import subprocess
import sys
import textwrap

import pytest

from autograder.sandbox import seccomp

CALLS = textwrap.dedent("""
    import ctypes, os, socket, sys
    from autograder.sandbox import seccomp
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(38, 1, 0, 0, 0)
    rules = seccomp.rules_for(own_namespaces=sys.argv[1] == "namespaces")
    seccomp.install(rules)
    if sys.argv[2] == "late":
        seccomp.install(seccomp.late_rules(own_user=False), all_threads=True)
    numbers = seccomp.MACHINES[os.uname().machine][2]
    def raw(name, *args):
        result = libc.syscall(numbers[name], *args)
        return 0 if result >= 0 else ctypes.get_errno()
    def clone_parent():
        pid = libc.syscall(numbers["clone"], 0x8000 | 17, 0, 0, 0, 0)  # CLONE_PARENT|SIGCHLD
        if pid == 0:  # the child (of our parent's): gone at once
            os._exit(0)
        return 0 if pid > 0 else ctypes.get_errno()
    def fallocate(mode):
        fd = os.open(sys.argv[3], os.O_RDWR)
        try:
            result = libc.fallocate(fd, mode, ctypes.c_long(0), ctypes.c_long(1 << 20))
            return 0 if result == 0 else ctypes.get_errno()
        finally:
            os.close(fd)
    def call(action):
        try:
            action()
            return 0
        except OSError as error:
            return error.errno
    found = {
        "keyctl": raw("keyctl", 0, 0),
        "io_uring_setup": raw("io_uring_setup", 1, 0),
        "memfd_create": call(lambda: os.close(os.memfd_create("held"))),
        "udp": call(lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close()),
        "unix": call(lambda: socket.socket(socket.AF_UNIX).close()),
        "socketpair": call(lambda: [s.close() for s in socket.socketpair()]),
        "setpriority self": call(lambda: os.setpriority(os.PRIO_PROCESS, 0, 1)),
        "setpriority user": call(lambda: os.setpriority(os.PRIO_USER, 0, 1)),
        "prlimit parent": call(lambda: __import__("resource").prlimit(os.getppid(), 7)),
        "clone parent": clone_parent(),
        "shmget": raw("shmget", 0, 4096, 0o1600),
        "chmod": call(lambda: os.chmod(sys.argv[3], 0o600)),
        "dgram pair": call(lambda: [s.close() for s in socket.socketpair(
            socket.AF_UNIX, socket.SOCK_DGRAM)]),
        "unshare": raw("unshare", 0x10000000),
        "inotify": raw("inotify_init1", 0),
        "sched parent": call(lambda: os.sched_setaffinity(os.getppid(),
                                                          os.sched_getaffinity(0))),
        "sched self": call(lambda: os.sched_setaffinity(0, os.sched_getaffinity(0))),
        "fallocate keep size": fallocate(0x01),  # FALLOC_FL_KEEP_SIZE
        "posix_fallocate": fallocate(0),
    }
    print(repr(found))
""")
REFUSED_ALWAYS = {"keyctl": errno.EPERM, "io_uring_setup": errno.EPERM,
                  "unshare": errno.EPERM, "memfd_create": errno.EPERM,
                  "fallocate keep size": errno.EPERM}
REFUSED_WITHOUT_NAMESPACES = {"udp": errno.EOPNOTSUPP, "setpriority user": errno.EPERM,
                              "prlimit parent": errno.EPERM, "clone parent": errno.EPERM,
                              "shmget": errno.EPERM, "dgram pair": errno.EOPNOTSUPP,
                              "inotify": errno.EPERM}
NEEDED = {"unix", "socketpair", "setpriority self", "chmod", "sched self",
          "posix_fallocate"}  # early on


def calls(mode, stage, tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    result = subprocess.run([sys.executable, "-c", CALLS, mode, stage, str(target)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return eval(result.stdout)  # noqa: S307 - our own child's repr of a dict of strings


@pytest.mark.parametrize("mode", ["namespaces", "landlock"])
def test_the_filter_refuses_what_it_names(mode, tmp_path):
    """With namespaces, only the keyrings, io_uring, files in memory (memfd_create: beside
    the memory limit), fallocate's KEEP_SIZE (blocks past the file size limit) and new
    namespaces are refused; without,
    also every socket but a unix one, a datagram socket pair, another process's priority
    (PRIO_USER, 0 is every process of the user) and limits, a child of the template
    (CLONE_PARENT), System V IPC and inotify; what a notebook needs (a unix stream socket
    pair, its own priority and CPUs, chmod before the late rules) works."""
    found = calls(mode, "early", tmp_path)
    refused = dict(REFUSED_ALWAYS, **(REFUSED_WITHOUT_NAMESPACES if mode == "landlock" else {}))
    assert {name: found[name] for name in refused} == refused
    allowed = NEEDED | (set(REFUSED_WITHOUT_NAMESPACES) - {"clone parent"}
                        if mode == "namespaces" else set())
    assert {name: found[name] for name in allowed} == dict.fromkeys(allowed, 0), found


def test_the_late_rules_refuse_new_sockets_and_metadata(tmp_path):
    """Once a Landlock kernel has started: is a new unix socket refused, another process's
    CPUs, and, as the grader's own user, a change to a file's mode, while a socket pair and
    its own CPUs still work?"""
    found = calls("landlock", "late", tmp_path)
    assert (found["unix"], found["chmod"], found["socketpair"]) == (errno.EOPNOTSUPP,
                                                                    errno.EPERM, 0)
    assert (found["sched parent"], found["sched self"]) == (errno.EPERM, 0)


def test_jumps_fit_and_missing_calls_are_left_out():
    """Does every jump of the largest filter fit in BPF's 8 bits, on both machines, with the
    calls a machine lacks (aarch64 has no chmod) left out?"""
    rules = seccomp.rules_for(False) + seccomp.late_rules(own_user=False)
    for machine in seccomp.MACHINES:
        program = seccomp.program(rules, machine)
        assert max(max(jt, jf) for _, jt, jf, _ in program) < 256
        assert program[-1][3] & 0xFFFF0000 == seccomp.ERRNO
