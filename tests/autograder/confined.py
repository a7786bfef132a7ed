"""Run a command as it would run where courses run, on this machine: under a seccomp filter
like Docker's default profile, which refuses user namespaces (unshare or clone with
CLONE_NEWUSER: EPERM; clone3, whose flags a filter cannot read: ENOSYS, so that the C library
falls back to clone), optionally with Landlock's system calls answering ENOSYS as on a Linux
without it, and optionally, as root, with only Docker's default capabilities.

    python confined.py [--no-user-namespaces] [--no-landlock] [--docker-capabilities] -- CMD ...
"""

from __future__ import annotations

import argparse
import ctypes
import os

from autograder.sandbox import seccomp

CLONE_NEWUSER = 0x10000000
ENOSYS = 38
PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP = 38, 24
# Docker's default capabilities (moby's oci/caps/defaults.go), by number.
DOCKER_CAPABILITIES = {0, 1, 3, 4, 5, 6, 7, 8, 10, 13, 18, 27, 29, 31}  # chown, dac_override,
#   fowner, fsetid, kill, setgid, setuid, setpcap, net_bind_service, net_raw, sys_chroot,
#   mknod, audit_write, setfcap
LANDLOCK = ("landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self")


def rules(no_user_namespaces, no_landlock):
    found = []
    if no_user_namespaces:
        found += [("unshare", [[(0, CLONE_NEWUSER, (0,))]]),
                  ("clone", [[(0, CLONE_NEWUSER, (0,))]]), ("clone3", [], ENOSYS)]
    if no_landlock:
        found += [(name, [], ENOSYS) for name in LANDLOCK]
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-user-namespaces", action="store_true")
    parser.add_argument("--no-landlock", action="store_true")
    parser.add_argument("--docker-capabilities", action="store_true")
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()
    libc = ctypes.CDLL(None, use_errno=True)
    if args.docker_capabilities:
        last = int(open("/proc/sys/kernel/cap_last_cap").read())
        for capability in set(range(last + 1)) - DOCKER_CAPABILITIES:
            if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
                raise OSError(ctypes.get_errno(), "PR_CAPBSET_DROP")
    found = rules(args.no_user_namespaces, args.no_landlock)
    if found:
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "PR_SET_NO_NEW_PRIVS")
        seccomp.install(found)
    os.execvp(args.command[0], args.command)


if __name__ == "__main__":
    main()
