"""A warm template for kernels: it imports torch and ipykernel once, then forks one sandboxed
kernel per notebook, so a notebook does not pay for a fresh `import torch`.

Run as a script by the grader (never imported by the kernel side), it reads one JSON request
per line on stdin and answers one JSON line on stdout (started ahead by a client with
`--listen FOLDER COPIES`, it imports once and forks a copy of itself for each worker, whose
stdin and stdout are the connection of the worker that takes it: handover.py):
  {"op": "spawn", ...}  fork a kernel (see `spawn`), answer {"pid": n}
  {"op": "kill", "pid": n, "uid": u}  kill every process of the sandbox, answer {"killed": k}
  {"op": "strays", "pid": n, "uid": u}  kill every running process of the sandbox but the
      kernel itself (a fork, a daemon), answer {"killed": k}
  {"op": "held", "pid": n, "uid": u, "device": d, "file_bytes": b}  the bytes of files on
      the scratch folder's disk the sandbox's processes removed but hold open or mapped,
      answer {"bytes": b} (None: unreadable)
  {"op": "warm", "cells": [...]}  prepare IPython's work on these texts once, for every
      kernel forked after (cell_cache.py), answer {"warmed": k}
It is a child subreaper, so processes a limits-only kernel leaves behind (daemons) become its
children and are reaped here; none outlive the kill.

Only torch, numpy, ipykernel (with its debugger, debugpy), IPython, tornado and matplotlib are
imported before the fork, with cell_cache.py (IPython's work on the course's cells, done once
here for every kernel), tracebacks.py (what IPython needs to show a cell's error, likewise)
and output_streams.py (before an input() prompt, a flush of a stream holding nothing returns),
each where the library code it patches is what it was written for (plumbing/private_api.py).
Nothing of the grader's (its checks, the reference package, the documents' values) is in a
kernel's memory, and the grader starts the template with a minimal environment of its own
(template_start.py, `template_env`), so none of the grader's environment is either. On
Gradescope this script runs instead in a child the grader forked just after importing torch,
before it read anything of the course, and which the grader's own start left with nothing of
its user's environment (template_start.py, `fork_template`): the two share torch's memory.

Full isolation (a sandbox user id in the request; the template runs as root) makes each kernel
PID 1 of new PID, mount, network, IPC and UTS namespaces and pivots it into a root that holds an
allow-list only (`build_root`): its scratch folder read-write; the Python installation, the
virtualenv and the system's /usr read-only; a minimal /dev, a /proc of its own, a private /tmp.
When the kernel dies, the Linux kernel kills everything in its PID namespace, and the IPC
namespace (System V shared memory, semaphores, queues) and the network namespace (abstract
unix sockets) go with it.

Why hand-written calls (through ctypes) and not bubblewrap, which makes the same calls: bwrap
builds its sandbox around a program it executes, and it cannot wrap a process that already
exists. A kernel is not executed but forked from this template, with torch already imported
(that is the template's point); so the forked child makes the calls itself, in the order bwrap
makes them (unshare, a tmpfs root of bind mounts remounted read-only, a new /proc, pivot_root,
then the drop to the sandbox user).
"""

import contextlib
import ctypes
import gc
import importlib
import importlib.util
import json
import logging
import os
import platform
import resource
import select
import signal
import socket
import sys
import time
import traceback
from stat import S_ISREG


def check(result, what):
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def listen(argv):
    """Started ahead by a client (handover.py: `MECHANISM --listen FOLDER COPIES`): a socket
    for each copy, at FOLDER/<pid>.<copy>.sock, bound before the imports below, so that a worker can
    connect at once and wait there for the ready line. None when a worker started the
    template itself."""
    if argv[2:3] != ["--listen"]:
        return None
    listeners = []
    for copy in range(int(argv[4])):
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(os.path.join(argv[3], f"{os.getpid()}.{copy}.sock"))
        listener.listen(1)
        listeners.append(listener)
    print("listening", flush=True)
    return listeners


def enter_user_namespace():
    """Become root of a user namespace of our own, our user and group mapped to its 0 (what an
    ordinary user may do where Linux allows user namespaces): the namespaces, mounts and
    pivot_root that build a kernel's sandbox then need no privilege of the machine's. Done
    first, while the template has one thread (unshare refuses a process with more)."""
    uid, gid = os.geteuid(), os.getegid()
    check(LIBC.unshare(CLONE_NEWUSER), "unshare(CLONE_NEWUSER)")
    map_ids(inside=0, uid=uid, gid=gid)


def map_ids(inside, uid, gid):
    """In the user namespace just made: `inside` is the user and the group `uid` and `gid`
    are outside, and no supplementary group can be set (an unprivileged map needs that)."""
    for name, text in (("setgroups", "deny"), ("uid_map", f"{inside} {uid} 1"),
                       ("gid_map", f"{inside} {gid} 1")):
        with open(f"/proc/self/{name}", "w") as file:
            file.write(text)


MECHANISM = sys.argv[1]  # isolation.py: namespaces, user-namespaces, landlock or limits
LISTENERS = listen(sys.argv)
CLIENT = os.getppid()  # who started the template (its parent until it dies)
LIBC = ctypes.CDLL(None, use_errno=True)
CLONE_NEWUSER = 0x10000000
if MECHANISM == "user-namespaces":
    enter_user_namespace()

os.environ.setdefault("OMP_NUM_THREADS", "1")
gc.disable()  # while the imports below make a few hundred thousand objects that all stay:
#               the collections they would set off find no garbage (0.2 CPU s a template)
os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # debugpy's import warns on stderr

# Besides what every notebook uses, what a kernel imports as it starts (ipykernel's debugger,
# which brings debugpy and pdb; the shell's magics, completer, inspector and debugger;
# tornado's queues and event loop; faulthandler): imported once here, a kernel starts in
# about 0.05 CPU s instead of 0.22, and grading a notebook starts two kernels or more.
import encodings.idna  # noqa: E402,F401
import faulthandler  # noqa: E402,F401

import ipykernel.debugger  # noqa: E402,F401
import ipykernel.ipkernel  # noqa: E402,F401
import IPython  # noqa: E402,F401 - imported once here, inherited by every kernel
import IPython.core.completerlib  # noqa: E402,F401
import IPython.core.debugger  # noqa: E402,F401
import IPython.core.magics.execution  # noqa: E402,F401
import IPython.core.oinspect  # noqa: E402,F401
import IPython.extensions.storemagic  # noqa: E402,F401
import IPython.utils.wildcard  # noqa: E402,F401
import landlock  # noqa: E402 - this script's folder; a kernel's confinement without namespaces
import matplotlib  # noqa: E402,F401
import matplotlib.pyplot  # noqa: E402,F401 - the notebooks draw heatmaps
import matplotlib_inline.backend_inline  # noqa: E402,F401
import numpy  # noqa: E402,F401
import seccomp  # noqa: E402 - this script's folder; the system calls a kernel may not make
import torch  # noqa: E402,F401
import tornado.gen  # noqa: E402,F401
import tornado.platform.asyncio  # noqa: E402,F401
import tornado.queues  # noqa: E402,F401
from ipykernel.kernelapp import IPKernelApp  # noqa: E402
from traitlets.config import Config  # noqa: E402

# torch.vmap registers Python decompositions of a few operations with torch.library the first
# time it runs; a judging kernel's guard refuses every registration (guard.py), so an honest
# vmap failed in grading alone, where its public tests had passed. Run once here (1 ms), the
# registrations are every kernel's, made before any guard.
torch.vmap(torch.neg)(torch.zeros(1))


def plumbing_module(name):
    """A module of the kit's plumbing room (autograder/plumbing/NAME.py), loaded from its file
    under its own name: this script runs as a script, its own folder alone on the path."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "plumbing",
                        name + ".py")
    spec = importlib.util.spec_from_file_location(name, path)
    module = sys.modules[name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


private_api = plumbing_module("private_api")  # whether a speedup's patch applies


def speedup(name, module):
    """This script's folder's module `module`, which patches a library, imported and installed
    when the speedup `name` applies here; else None, the library left as it is."""
    if not private_api.applies(name):
        return None
    patch = importlib.import_module(module)
    patch.install()
    return patch


cell_cache = speedup("cell cache", "cell_cache")  # IPython's per-text work done once
speedup("tracebacks", "tracebacks")  # what a cell's error needs, once
output_streams = speedup("output streams", "output_streams")  # an empty flush, skipped
import judging  # noqa: E402,F401 - this script's folder; the judging kernel's guard, made once

# Every object made so far stays for the template's life: frozen before the collector is back,
# no collection here walks them (the first one after enable() took 0.13 s of the template's
# start, before its ready line). Each spawn freezes again what the template made since.
gc.freeze()
gc.enable()

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWPID, CLONE_NEWNET = 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
MNT_DETACH = 2
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER, PR_SET_NO_NEW_PRIVS = 1, 4, 36, 38
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}  # glibc has no pivot_root() wrapper
MADV_COLLAPSE = 25  # Linux 6.1+
THP = "/sys/kernel/mm/transparent_hugepage"
READ_ONLY = MS_RDONLY | MS_NOSUID | MS_NODEV

# The system folders a kernel sees, read-only, besides the Python installation and the
# virtualenv. On a merged-/usr system (Debian 12) the last three are links into /usr, made
# again as the same links; elsewhere they are bound read-only like /usr.
SYSTEM = (
    "/usr",  # the shared libraries the dynamic loader opens (libc, libstdc++, libgomp ...),
    #          the programs a notebook may run (`!ls`, subprocess), the system's fonts and
    #          time zones, and Debian's own Python when the kit runs on it
    "/bin",  # /bin/sh, which os.system, subprocess(shell=True) and IPython's `!` run
    "/lib",  # the libraries programs name by their /lib path
    "/lib64",  # the dynamic loader itself (/lib64/ld-linux-x86-64.so.2), named in every program
)
# No /etc: no program the kernel runs needs it (the loader falls back to its default
# folders without /etc/ld.so.cache; the sandbox user has no name anyway), and it holds the
# machine's configuration. No /run, /var, /home, /root, /srv, /sys: nothing needs them.
DEVICES = ("null", "zero", "full", "random", "urandom")
NEW_ROOT = "/tmp"  # where the new root is built: this namespace's own tmpfs covers it
TMP_SIZE = "64m"  # the kernel's private /tmp and /dev/shm, each (memory of the machine)
# The folders any program may write on a Linux system, each a private tmpfs of the kernel: a
# right answer that keeps a lock file in /run/lock works, and leaves nothing behind.
WRITABLE = ("/tmp", "/var/tmp", "/run/lock")

LIMITS = {
    "cpu_seconds": resource.RLIMIT_CPU,
    "memory_bytes": resource.RLIMIT_AS,
    "file_bytes": resource.RLIMIT_FSIZE,
    "processes": resource.RLIMIT_NPROC,
    "open_files": resource.RLIMIT_NOFILE,
}

TEMPLATE = os.pidfd_open(os.getpid())  # inherited by a kernel: readable once we are gone
pidfds = {}  # kernel pid -> pidfd, to kill it with no risk of hitting a reused pid
uids = {}  # kernel pid -> its sandbox user (None: none of its own)


def mount(source, target, fstype, flags, data=None):
    check(LIBC.mount(source and source.encode(), target.encode(), fstype and fstype.encode(),
                     ctypes.c_ulong(flags), data and data.encode()), f"mount {target}")


def inside(path, folder):
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def make_dirs(root, path):
    """Make the folders of `path` under the new root, never through a link: a link made
    there (/lib64 -> /usr/lib64) would lead out of the new root while it is built."""
    current = root
    for part in path.strip("/").split("/"):
        current = os.path.join(current, part)
        if os.path.islink(current):
            raise OSError(f"{path}: a link on the way in the new root")
        if not os.path.isdir(current):
            os.mkdir(current, 0o755)
    return current


# statvfs's flags of a mount and the mount flags that keep them: in a user namespace, a
# mount of the machine's is locked, and a remount that would drop one of these is refused.
KEPT_FLAGS = {os.ST_RDONLY: MS_RDONLY, os.ST_NOSUID: MS_NOSUID, os.ST_NODEV: MS_NODEV,
              os.ST_NOEXEC: MS_NOEXEC, os.ST_NOATIME: 1024, os.ST_NODIRATIME: 2048,
              os.ST_RELATIME: 1 << 21}


def bind(fd, target, flags):
    """Bind the folder or file open as `fd` on `target`, then remount it with `flags`
    (a bind mount takes read-only, nosuid, nodev only from a remount), and with the flags its
    mount already has (as bubblewrap does; in a user namespace they cannot be dropped)."""
    mount(f"/proc/self/fd/{fd}", target, None, MS_BIND)
    had = os.statvfs(target).f_flag
    flags |= sum(mount_flag for flag, mount_flag in KEPT_FLAGS.items() if had & flag)
    mount(None, target, None, MS_BIND | MS_REMOUNT | flags)


def tmpfs(target, flags, options):
    mount("tmpfs", target, "tmpfs", flags, options)


def build_root(read_only, scratch, hidden):
    """In the kernel's own mount namespace: build a root on a tmpfs that holds only the
    allow-list, pivot into it and detach the old one, so nothing else can be reached."""
    system = [path for path in SYSTEM if os.path.lexists(path)]
    bound = [path for path in system if not os.path.islink(path)]
    kept = {}  # real path -> read-only?
    for path in read_only:
        real = os.path.realpath(path)
        if not any(inside(real, b) for b in bound):  # Debian's Python is in /usr already
            kept[real] = True
    kept[os.path.realpath(scratch)] = False
    aliases = {os.path.abspath(p): os.path.realpath(p) for p in [*read_only, scratch]
               if os.path.abspath(p) != os.path.realpath(p)}
    # Every source is open before the new root covers anything (the scratch folder is
    # usually in /tmp, where the new root is built).
    flags = os.O_PATH | os.O_CLOEXEC
    sources = {path: os.open(path, flags) for path in [*bound, *kept]}
    devices = {name: os.open(f"/dev/{name}", flags) for name in DEVICES}
    try:
        root = NEW_ROOT
        tmpfs(root, MS_NOSUID | MS_NODEV, "mode=0755,size=1m")
        for path in system:
            if os.path.islink(path):
                os.symlink(os.readlink(path), root + path)
            else:
                bind(sources[path], make_dirs(root, path), READ_ONLY)
        for folder in WRITABLE:  # each the kernel's own: gone with it, nothing to clean
            tmpfs(make_dirs(root, folder), MS_NOSUID | MS_NODEV, f"mode=1777,size={TMP_SIZE}")
        for path in sorted(kept):  # a folder before what is inside it
            bind(sources[path], make_dirs(root, path),
                 READ_ONLY if kept[path] else MS_NOSUID | MS_NODEV)
        for alias, real in aliases.items():  # the paths sys.path names, if through links
            if not os.path.lexists(root + alias):
                make_dirs(root, os.path.dirname(alias))
                os.symlink(real, root + alias)
        for folder in map(os.path.realpath, hidden):  # the kit's packages in a kept folder
            if any(inside(folder, k) and folder != k for k in [*kept, *bound]) and \
                    os.path.isdir(root + folder):
                tmpfs(root + folder, READ_ONLY | MS_NOEXEC, "mode=0755,size=4k")
        build_dev(make_dirs(root, "/dev"), devices)
        mount("proc", make_dirs(root, "/proc"), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
        mount(None, root, None, MS_BIND | MS_REMOUNT | READ_ONLY)
    finally:
        for fd in [*sources.values(), *devices.values()]:  # none may lead out of the root
            os.close(fd)
    os.chdir(root)
    number = SYS_PIVOT_ROOT.get(platform.machine())
    if number is None:
        raise OSError(f"pivot_root: unknown system call number on {platform.machine()}")
    check(LIBC.syscall(ctypes.c_long(number), b".", b"."), "pivot_root")
    check(LIBC.umount2(b".", MNT_DETACH), "umount the old root")
    os.chdir("/")


def build_dev(dev, devices):
    """A /dev of a few harmless devices (bound from the machine's), a pseudo-terminal
    instance of its own (IPython's `!` runs commands in a pseudo-terminal) and a private
    /dev/shm."""
    tmpfs(dev, MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k")
    for name, fd in devices.items():
        os.close(os.open(os.path.join(dev, name), os.O_CREAT | os.O_WRONLY, 0o666))
        bind(fd, os.path.join(dev, name), MS_NOSUID | MS_NOEXEC)
    for name, target in [("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2"),
                         ("ptmx", "pts/ptmx")]:
        os.symlink(target, os.path.join(dev, name))
    os.mkdir(os.path.join(dev, "pts"))
    mount("devpts", os.path.join(dev, "pts"), "devpts", MS_NOSUID | MS_NOEXEC,
          "newinstance,ptmxmode=0666,mode=0620")
    os.mkdir(os.path.join(dev, "shm"))
    tmpfs(os.path.join(dev, "shm"), MS_NOSUID | MS_NODEV | MS_NOEXEC,
          f"mode=1777,size={TMP_SIZE}")
    mount(None, dev, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NOEXEC)


def jail(request):
    """PID 1 of a new PID namespace (see `spawn`): into namespaces of its own for mounts,
    the network (no interface up), System V IPC and the host name, and a root of its own."""
    check(LIBC.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS), "unshare")
    mount(None, "/", None, MS_REC | MS_PRIVATE)  # no mount of ours reaches the machine
    check(LIBC.sethostname(b"sandbox", 7), "sethostname")
    build_root(request["keep"], request["cwd"], request["hide"])


def become_kernel(request):
    """The forked child: confine itself as its mechanism says (isolation.py), then serve as
    an IPython kernel."""
    mechanism, uid = request["mechanism"], request.get("uid")
    os.setsid()
    # If the machine runs out of memory, the kernels go first, not the template every worker
    # shares (a /proc that refuses leaves the kernel as it was).
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as score:
        score.write("1000")
    log = os.open(os.path.join(request["cwd"], ".kernel.log"),
                  os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.closerange(3, TEMPLATE)
    os.closerange(TEMPLATE + 1, 1 << 16)
    own_namespaces = mechanism in ("namespaces", "user-namespaces")
    if own_namespaces:
        jail(request)
    else:  # what it starts stays below it, found and killed with it (`descendants`)
        check(LIBC.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), "prctl")
    if mechanism == "user-namespaces" and uid is None:
        # The namespace first, then the limits: Linux counts a namespace's processes against
        # the process limit in force when it is made, at every level above it, so that
        # made under the kernel's own limit, every kernel of the template would share those
        # 128 processes (one notebook's zombies kept the others from starting a thread)
        drop_to_user_namespace()
    set_limits(request["limits"], uid)
    if uid is not None:
        become_user(uid)
        # setuid made it undumpable: its /proc/PID/fd then is root's, which a template
        # without CAP_SYS_PTRACE may not read; its own user may read it again (`held`)
        check(LIBC.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), "prctl")
    check(LIBC.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl")
    if mechanism == "landlock":
        landlock.confine(*landlock_paths(request), landlock.abi())
    seccomp.install(seccomp.rules_for(own_namespaces))
    # Die with the template (set after setuid, which clears it); if the template is already
    # gone, the signal was missed: leave now.
    check(LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "prctl")
    if select.select([TEMPLATE], [], [], 0)[0]:
        os._exit(0)
    os.close(TEMPLATE)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    # PID 1 of a namespace gets only the signals it has a handler for (and SIGKILL from
    # outside): Python's handler for SIGINT keeps interrupts working.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    app = KernelApp.instance(config=kernel_config(request["connection_file"]))
    app.initialize([])
    if mechanism == "landlock":  # its own sockets are bound: no new one, on every thread
        seccomp.install(seccomp.late_rules(own_user=uid is not None), all_threads=True)
    app.start()


def set_limits(limits, uid):
    """The kernel's resource limits. Without a user of its own (Landlock as an ordinary user,
    limits only), the process limit counts every process of the grader's user: the kernel
    may start `processes` more than that user runs now."""
    limits = dict(limits)
    if uid is None and "processes" in limits and MECHANISM != "user-namespaces":
        limits["processes"] += count_processes_of(os.geteuid())
    for name, value in limits.items():
        resource.setrlimit(LIMITS[name], (value, value))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


SANDBOX_ID = 1000  # the kernel's user and group in its own user namespace


def become_user(uid):
    """Drop to the sandbox user: no supplementary group, its group and user id."""
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


def drop_to_user_namespace():
    """Leave the template's user namespace, where the kernel is root with every capability
    over its mounts, for one of its own where it is an ordinary user (SANDBOX_ID, the
    template's 0 and so the grader's user outside) with none."""
    check(LIBC.unshare(CLONE_NEWUSER), "unshare(CLONE_NEWUSER)")
    map_ids(inside=SANDBOX_ID, uid=0, gid=0)
    drop_capabilities()


class CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


def drop_capabilities():
    """No capability left, effective, permitted or inheritable (capset, version 3)."""
    data = (ctypes.c_uint32 * 6)()
    check(LIBC.capset(ctypes.byref(CapHeader(0x20080522, 0)), data), "capset")


DEVICES_RW = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
              "/dev/ptmx", "/dev/pts", "/dev/tty")
NAMESPACED = ("namespaces", "user-namespaces")
MACHINE_FACTS = ("/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/sys/devices/system/cpu")


TERMINALS = ("/dev/ptmx", "/dev/pts", "/dev/tty")


def landlock_paths(request):
    """(read, write, devices) of a Landlock kernel: the system's folders, the Python
    installation and the virtualenv (the kit's packages in it left out, entry by entry), its
    own /proc folder and a few facts of the machine; its scratch folder; a few devices. Not
    the pseudo-terminals when it runs as the grader's own user: they would include the
    grader's own terminal (IPython's `!command`, which needs one, then fails)."""
    kept = [path for path in (*SYSTEM, *request["keep"]) if reachable(path)]
    read = landlock.readable_beneath(kept, request["hide"])
    read += [f"/proc/{os.getpid()}", *MACHINE_FACTS]
    devices = [d for d in DEVICES_RW if request.get("uid") is not None or d not in TERMINALS]
    return read, [request["cwd"]], devices


def reachable(path):
    """Whether `path` exists, seen as the kernel's user; an error that says what to do when
    that user cannot reach it (a Python installation in a folder only its owner may enter,
    as pyenv's under /root)."""
    try:
        os.stat(path)
    except FileNotFoundError:
        return False
    except PermissionError:
        raise OSError(f"the sandbox's user cannot reach {path}: let every user pass through "
                      "the folders on its way (chmod o+x), or grade where namespaces can be "
                      "made") from None
    return True


def kernel_config(connection_file):
    """A kernel's settings: its connection file, no history, figures shown as PNG images (the
    template imported the inline backend before any IPython shell existed, so it could not
    hook itself in then), messages copied as they are sent, and GradingKernel."""
    config = Config()
    config.IPKernelApp.connection_file = connection_file
    config.IPKernelApp.quiet = True
    config.HistoryManager.enabled = False
    if output_streams is not None:
        # ipykernel pauses 0.5 ms before each reply, so that text still in the pipe of file
        # descriptors 1 and 2 is likely read by then: output_streams.py's flush waits for it.
        config.IPythonKernel._execute_sleep = 0.0
    config.InteractiveShellApp.matplotlib = "inline"
    # pyzmq sends a large message without copying it, and then starts a thread of its own to
    # learn when the frame is free: a judging kernel may start no thread (its guard, guard.py,
    # refuses every one), so every message is copied.
    config.Session.copy_threshold = 1 << 62
    config.IPKernelApp.kernel_class = GradingKernel
    return config


class KernelApp(IPKernelApp):
    """ipykernel's application, given its settings as a Config (kernel_config): it parses no
    command line, since building that parser (every option of every class) took a fifth of
    a kernel's start."""

    def parse_command_line(self, argv=None):
        self.argv, self.extra_args = [], []

    def _configure_logging(self):
        """traitlets' logging set-up (a handler on stderr, the kernel's log, with the app's
        format and level) for the app's own logger alone. traitlets runs logging's
        dictConfig for it, which also writes to every other logger of the process (167 with
        torch's), each on a page of the template's memory that the kernel then copies: 670
        page faults and 2.4 ms of each kernel's start. The logger's level is the handler's:
        traitlets left it at DEBUG, so every debug line of every message was made, then
        dropped."""
        if not private_api.applies("kernel logging"):
            return super()._configure_logging()
        handler = logging.StreamHandler(sys.stderr)
        handler.setLevel(self.log_level)
        handler.setFormatter(self._log_formatter_cls(self.log_format, self.log_datefmt))
        logger = logging.getLogger(type(self).__name__)  # the app's `log`, as traitlets names it
        logger.handlers = [handler]
        logger.setLevel(self.log_level)
        self._logging_configured = True


class SysWithoutModules:
    """`sys` as ipykernel's kernel sees it while it starts: sys's own attributes, but no
    modules (see GradingKernel)."""

    modules = {}

    def __getattr__(self, name):
        return getattr(sys, name)


class GradingKernel(ipykernel.ipkernel.IPythonKernel):
    """ipykernel's kernel, without the list of every module's file that it makes as it starts
    for its debugger (which no grading starts; it gets an empty list). With torch, that is
    some 1,500 modules, and reading each wrote to its object, on a page of the template's
    memory that the kernel then had to copy: about 2,300 page faults and 8 ms of every
    kernel's start. Only the name `sys` of ipykernel's module changes, for the time of the
    kernel's __init__, where that list is its only use."""

    def __init__(self, **kwargs):
        if not private_api.applies("kernel module list"):
            return super().__init__(**kwargs)
        ipykernel.ipkernel.sys = SysWithoutModules()
        try:
            super().__init__(**kwargs)
        finally:
            ipykernel.ipkernel.sys = sys


def spawn(request):
    """Fork a kernel; answer its pid. As root with namespaces it is PID 1 of a new PID
    namespace: unshare(CLONE_NEWPID) puts the template's next child there, and setns back to
    the template's own namespace puts the later ones (other kernels, `kill_as`) back where
    they were. In a user namespace, whose template may not setns back, a go-between child
    makes the namespace and forks the kernel into it, then leaves (`through_go_between`).
    Either way the kernel is the template's own child: its pid is known here, it is reaped
    here, and signals reach it without a go-between."""
    if request["mechanism"] != MECHANISM:  # the template's user namespace is for one only
        raise ValueError(f"a template of {MECHANISM} asked for a kernel of "
                         f"{request['mechanism']}")
    # Everything the template holds goes to the collector's permanent generation: a
    # kernel's collections then never walk the template's objects (torch, IPython,
    # matplotlib), which would cost the time and copy the memory pages they touch.
    gc.freeze()
    if MECHANISM == "user-namespaces":
        pid = through_go_between(request)
    else:
        pid = forked_kernel(request, new_pid_namespace=MECHANISM == "namespaces")
    try:
        pidfds[pid] = os.pidfd_open(pid)
    except OSError:  # a Linux older than 5.3: the kill by user still works
        pass
    uids[pid] = request.get("uid")
    return {"pid": pid}


def forked_kernel(request, new_pid_namespace):
    home = None
    if new_pid_namespace:
        home = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
        if LIBC.unshare(CLONE_NEWPID) != 0:
            os.close(home)
            check(-1, "unshare")
    try:
        pid = os.fork()
        if pid == 0:
            run_kernel(request)
    finally:
        if home is not None:
            restored = LIBC.setns(home, CLONE_NEWPID)
            os.close(home)
            if restored != 0:  # later children would land in the kernel's namespace
                print(json.dumps({"error": "setns failed, the template stops"}), flush=True)
                os._exit(71)
    return pid


def through_go_between(request):
    """A child makes a new PID namespace and forks the kernel into it, tells its pid, and
    leaves: the kernel, PID 1 of that namespace, is re-parented to the template (a child
    subreaper) and waits for the go-between to be gone before it arms its parent-death
    signal, which would otherwise fire at the go-between's exit. The kernel cannot be
    reaped before its pidfd is opened: this process reaps only between requests."""
    told, tell = os.pipe()
    gone, going = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            os.close(told)
            check(LIBC.unshare(CLONE_NEWPID), "unshare(CLONE_NEWPID)")
            kernel = os.fork()
            if kernel == 0:
                os.close(going)
                os.read(gone, 1)  # the end of the pipe: the go-between left
                os.close(gone)
                run_kernel(request)
            os.write(tell, str(kernel).encode())
        except BaseException:  # noqa: BLE001 - the template's log says why
            traceback.print_exc()
        os._exit(0)
    for end in (tell, gone, going):
        os.close(end)
    told_pid = os.read(told, 32)
    os.close(told)
    os.waitpid(child, 0)
    if not told_pid:
        raise OSError("the go-between could not fork the kernel (the template's log says why)")
    return int(told_pid)


def run_kernel(request):
    """In the forked child: become the kernel, and never return."""
    try:
        become_kernel(request)
    except BaseException:  # noqa: BLE001 - the kernel's log says why it could not start
        traceback.print_exc()
        sys.stderr.flush()
    os._exit(70)


def count_processes_of(uid):
    """How many processes `uid` runs (the owner of a process's /proc folder is its user)."""
    count = 0
    for entry in os.listdir("/proc"):
        with contextlib.suppress(OSError):
            count += entry.isdigit() and os.stat(f"/proc/{entry}").st_uid == uid
    return count


def processes_of(uid):
    """Pids of the processes of a user, zombies included: a killed kernel's thread-group
    leader shows as a zombie before its other threads are gone and it can be reaped."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
        except (OSError, ValueError):
            continue
        if int(fields["Uid"].split()[0]) == uid:
            found.append(int(entry))
    return found


def parents():
    """{pid: its parent's pid} of every process on the machine."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                found[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return found


def child_pids(pid):
    """The children of `pid`, from the `children` file of each of its threads (a few small
    files, where scanning /proc reads one per process of the machine); None when Linux keeps
    no such file (CONFIG_PROC_CHILDREN) or `pid` is gone."""
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as children_file:
                found += map(int, children_file.read().split())
    except (OSError, ValueError):
        return None
    return found


def descendants(kernel):
    """Pids of every process below `kernel`, zombies included. A kernel without namespaces is
    a child subreaper: what it started, at any depth, is re-parented to it when its own
    parent dies, so nothing below it leaves its tree while it lives."""
    found, todo = [], [kernel]
    while todo:
        below = child_pids(todo.pop())
        if below is None:
            return descendants_by_scan(kernel)
        found += below
        todo += below
    return found


def descendants_by_scan(kernel):
    below = {}
    for pid, parent in parents().items():
        below.setdefault(parent, []).append(pid)
    found, todo = [], list(below.get(kernel, ()))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += below.get(pid, ())
    return found


def in_namespace_of(kernel):
    """Pids of the processes of `kernel`'s PID namespace but itself (user namespaces: they
    run as the grader's own user, told apart by their namespace)."""
    try:
        namespace = os.stat(f"/proc/{kernel}/ns/pid").st_ino
    except OSError:
        return []
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != kernel:
            with contextlib.suppress(OSError):
                if os.stat(f"/proc/{entry}/ns/pid").st_ino == namespace:
                    found.append(int(entry))
    return found


def children():
    """This template's children."""
    me = os.getpid()
    found = child_pids(me)
    if found is not None:
        return found
    return [pid for pid, parent in parents().items() if parent == me]


def reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def kill_as(uid):
    """kill(-1) as the sandbox user reaches every process of that user, however many forks,
    in every PID namespace below the template's."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setuid(uid)
            os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def kill_each(pids):
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def kill_until_none(find, kill_them):
    """Kill what `find()` lists, with `kill_them(listed)`, until it lists nothing (a fork
    bomb forks on between two rounds): (the most processes one round found, how many the
    last round still found)."""
    killed, alive = 0, []
    for _ in range(200):
        alive = find()
        if not alive:
            break
        killed = max(killed, len(alive))
        kill_them(alive)
        reap()
        time.sleep(0.01)
    return killed, len(alive)


def kill(request):
    """Kill and reap every process of the sandbox; answer once none is left, not even a
    zombie, so nothing of it outlives the answer.

    With namespaces, the kernel itself first, through its pidfd: that reaches it even while
    it still builds its root, and as PID 1 of its namespace its death takes every process in
    it (the Linux kernel reaps them all before the kernel's own exit is seen). Then what is
    still there of its user's processes, when it has a user of its own: usually nothing,
    found in one look at /proc, with no kill or pause. Without namespaces, the kernel is
    stopped first, so that nothing below it can leave its tree, and what is below it is
    killed until nothing is; then the kernel."""
    uid, kernel = request.get("uid"), request["pid"]
    pidfd = pidfds.pop(kernel, None)
    uids.pop(kernel, None)
    killed, left = 0, 0
    if MECHANISM not in NAMESPACED and signal_kernel(pidfd, signal.SIGSTOP):  # it lives
        killed, left = kill_until_none(
            lambda: [p for p in descendants(kernel) if running(p)], kill_each)
    if pidfd is not None:
        signal_kernel(pidfd, signal.SIGKILL)
        try:  # the kernel, also when it died before it became the sandbox user
            os.waitid(os.P_PIDFD, pidfd, os.WEXITED)
        except ChildProcessError:  # reaped already
            pass
        os.close(pidfd)
    if MECHANISM not in NAMESPACED:  # what kernels that died by themselves left to us
        more, left = kill_until_none(lambda: [p for p in orphans() if running(p)], kill_each)
        killed += more
    if uid is not None:
        more, left = kill_until_none(lambda: processes_of(uid), lambda _: kill_as(uid))
        killed += more
    reap()
    if left and uid is not None:  # the rounds ran out: count what is there now
        left = len(processes_of(uid))
    return {"killed": killed + (pidfd is not None), "left": left}


def signal_kernel(pidfd, number):
    """Send a signal through the kernel's pidfd; whether the kernel was there to get it."""
    if pidfd is None:
        return False
    try:
        signal.pidfd_send_signal(pidfd, number)
    except ProcessLookupError:
        return False
    return True


def orphans():
    """This template's children that are no live kernel, and everything below them: what a
    kernel without namespaces started and left behind when it died by itself (re-parented
    here, the template being a child subreaper)."""
    found = []
    for pid in children():
        if pid not in pidfds:
            found += [pid, *descendants(pid)]
    return found


def running(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def alone(kernel):
    """Whether a fully isolated kernel is the only process of its PID namespace: that
    namespace's own /proc, seen through the kernel's root, lists no other pid (a process of
    a namespace below it is listed too). Reading one folder instead of every process's
    status on the machine, after every cell. False when it cannot be read."""
    try:
        return [e for e in os.listdir(f"/proc/{kernel}/root/proc") if e.isdigit()] == ["1"]
    except OSError:
        return False


def sandbox_processes(kernel, uid):
    """Pids of the running or dead processes of the kernel's sandbox, the kernel among them:
    without namespaces, its tree and what kernels that died left here; with a user of its
    own, that user's; else those of its PID namespace."""
    if MECHANISM not in NAMESPACED:  # its tree holds all it started (a child subreaper)
        return [kernel, *descendants(kernel), *orphans()]
    if alone(kernel):
        return [kernel]
    if uid is not None:
        return processes_of(uid)
    return [kernel, *in_namespace_of(kernel)]


def strays(request):
    """Kill every running process of the sandbox except the kernel: what a cell or a check
    left behind (a copy of the kernel made by os.fork, a daemon). Zombies stay until their
    parent, the kernel, reaps them or dies."""
    uid, kernel = request.get("uid"), request["pid"]
    killed, _ = kill_until_none(
        lambda: [p for p in sandbox_processes(kernel, uid) if p != kernel and running(p)],
        kill_each)
    return {"killed": killed}


def held(request):
    """The bytes of files on the scratch folder's disk (`device`) that the sandbox's
    processes removed but still hold: open (the blocks each takes) or only mapped (then
    `file_bytes`, the most a file may have, as nothing says its size); the folder watch adds
    them to the folder's (folder_watch.py). Files elsewhere (shared memory in /dev/shm, a
    lock of multiprocessing's) are memory, not this disk's. Answer {"bytes": None} when a
    process's /proc cannot be read (its code made it undumpable) or reads unlike Linux's.
    A template that is root without CAP_SYS_PTRACE (Docker's default capabilities) may not
    read another user's /proc/PID/fd: a child of its, become the sandbox's user, reads
    them then (the kernel keeps itself dumpable for it, become_kernel)."""
    uid = request.get("uid")
    pids = sandbox_processes(request["pid"], uid)
    try:
        found = removed_by(pids, request["device"])
    except PermissionError:
        if uid is None or os.geteuid() != 0:
            return {"bytes": None}
        found = removed_as(uid, pids, request["device"])
    if found is None:
        return {"bytes": None}
    opened, mapped = found
    return {"bytes": sum(opened.values()) + request["file_bytes"] * len(mapped - set(opened))}


def removed_by(pids, device):
    """({inode: bytes} open, {inode} mapped) of the removed files on `device` that the
    processes `pids` hold; None when one's /proc reads unlike Linux's. PermissionError when
    one's may not be read."""
    opened, mapped = {}, set()
    for pid in pids:
        try:
            opened.update(removed_open(pid, device))
            mapped.update(removed_mapped(pid, device))
        except (FileNotFoundError, ProcessLookupError):
            continue  # gone meanwhile
        except (ValueError, IndexError):
            return None
    return opened, mapped


def removed_as(uid, pids, device):
    """removed_by, read by a child of the template that is the user `uid`; None when it
    could not read them either."""
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            os.close(read)
            become_user(uid)
            found = removed_by(pids, device)
            answer = None if found is None else [list(found[0].items()), list(found[1])]
            os.write(write, json.dumps(answer).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        text = pipe.read()
    os.waitpid(child, 0)
    answer = json.loads(text) if text else None
    return None if answer is None else (dict(answer[0]), set(answer[1]))


def removed_open(pid, device):
    """{inode: bytes on disk} of the removed regular files on `device` that `pid` holds
    open."""
    found = {}
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            info = os.stat(f"/proc/{pid}/fd/{fd}")  # the open file itself, removed or not
        except (FileNotFoundError, ProcessLookupError):
            continue
        if S_ISREG(info.st_mode) and info.st_nlink == 0 and info.st_dev == device:
            found[info.st_ino] = info.st_blocks * 512
    return found


def removed_mapped(pid, device):
    """The inodes of removed files on `device` mapped into `pid`'s memory (a mapping
    outlives the file's descriptor, and keeps the whole file)."""
    with open(f"/proc/{pid}/maps", "rb") as maps:
        listed = maps.read()  # some 500 lines with torch: one look for the word first
    if b" (deleted)\n" not in listed:
        return set()
    found = set()
    for line in listed.splitlines():
        if line.endswith(b" (deleted)"):
            fields = line.split(maxsplit=5)  # range, permissions, offset, device, inode
            major, minor = (int(part, 16) for part in fields[3].split(b":"))
            if fields[4] != b"0" and os.makedev(major, minor) == device:
                found.add(int(fields[4]))
    return found


def warm(request):
    return {"warmed": cell_cache.warm(request["cells"]) if cell_cache is not None else 0}


def huge_pages(least=0.9):
    """Move the template's own memory (the heap and the other private anonymous mappings:
    the objects of torch, IPython and matplotlib) to huge pages (2 MiB on x86_64), where Linux can
    (MADV_COLLAPSE; an older Linux refuses and nothing changes). Forking a kernel then
    copies one page-table entry for 2 MiB instead of 512, and the kernel's exit releases as
    few; a kernel that writes to a page still copies only that 4 KiB page. Only the ranges
    of a huge page of which at least `least` is in memory: collapsing fills a range whole.
    The number of bytes moved."""
    try:
        with open(f"{THP}/hpage_pmd_size") as size:
            huge_page = int(size.read())
    except (OSError, ValueError):  # no huge pages on this machine
        return 0
    small = os.sysconf("SC_PAGE_SIZE")
    in_memory = (ctypes.c_ubyte * (huge_page // small))()
    moved = 0
    with open("/proc/self/maps") as maps:
        ranges = [line.split() for line in maps]
    for fields in ranges:  # address range, permissions, offset, device, inode, [path]
        if fields[1] != "rw-p" or fields[4] != "0" or fields[5:] not in ([], ["[heap]"]):
            continue
        start, end = (int(address, 16) for address in fields[0].split("-"))
        for huge in range(-(-start // huge_page) * huge_page, end - huge_page + 1, huge_page):
            address, size = ctypes.c_void_p(huge), ctypes.c_size_t(huge_page)
            if LIBC.mincore(address, size, in_memory) != 0 or \
                    sum(page & 1 for page in in_memory) < least * len(in_memory):
                continue
            if LIBC.madvise(address, size, MADV_COLLAPSE) == 0:
                moved += huge_page
    return moved


def fork_copies(listeners):
    """The template a client started ahead: a copy of it for each worker, forked once the
    imports are done (the copies share the memory of torch, IPython and matplotlib instead of
    each importing them), each with one of the sockets; this process waits for them all
    and leaves, with status 1 when one of them did not end cleanly. In a copy: its listener,
    the copy being a template of its own from here."""
    global TEMPLATE
    die_with(CLIENT)
    template = os.getpid()
    for listener in listeners:
        if os.fork() == 0:
            try:
                die_with(template)
                for other in listeners:
                    if other is not listener:
                        other.close()
                os.close(TEMPLATE)  # its kernels watch the copy, not the template
                TEMPLATE = os.pidfd_open(os.getpid())
                return listener
            except BaseException:  # noqa: BLE001 - the client's log says why
                traceback.print_exc()
                os._exit(70)
    for listener in listeners:
        listener.close()
    os._exit(0 if wait_for_children() else 1)


def die_with(parent):
    """Be killed when `parent` dies; leave now if it already died (before the signal was
    set, which is then never sent)."""
    check(LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "prctl")
    if os.getppid() != parent:
        os._exit(0)


def wait_for_children():
    """Reap every child as it ends, in any order (none waits as a zombie for another), until
    none is left; whether each ended with status 0."""
    status = 0
    while True:
        try:
            status |= os.wait()[1]
        except ChildProcessError:
            return status == 0


def take_worker(listener):
    """Serve the first worker that connects, that connection as stdin and stdout; leave if
    the client ends stdin first (no worker came for this template)."""
    if listener not in select.select([listener, sys.stdin], [], [])[0]:
        os._exit(0)
    connection, _ = listener.accept()
    listener.close()
    os.dup2(connection.fileno(), 0)
    os.dup2(connection.fileno(), 1)
    connection.close()


def requests():
    """The grader's requests, a line each, until it closes our stdin, or until reading fails
    (its worker died, resetting the connection): then too the kernels are killed (serve)."""
    with contextlib.suppress(OSError):
        yield from sys.stdin


def serve():
    check(LIBC.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), "prctl")
    LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # die with the grader
    try:
        print(json.dumps({"ready": os.getpid()}), flush=True)
    except OSError:  # the worker went away before it was served
        return
    for line in requests():
        request = json.loads(line)
        reap()
        try:
            answer = {"spawn": spawn, "kill": kill, "strays": strays, "held": held,
                      "warm": warm}[
                request["op"]](request)
        except Exception as error:  # noqa: BLE001 - reported to the grader
            answer = {"error": f"{type(error).__name__}: {error}"}
        try:
            print(json.dumps(answer), flush=True)
        except OSError:  # the grader went away while its request ran (a worker killed)
            break
    for pid in list(pidfds):  # kernels of a grader that stopped without killing them
        kill({"pid": pid, "uid": uids.get(pid)})
    for pid in children():  # and anything else left to us
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)  # a kernel leads a group of its own
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)  # a daemon left to this process may lead none
    wait_for_children()


SMALL_PAGES = "--small-pages"  # a template for one notebook: ready sooner, a few kernels forked


if __name__ == "__main__":
    if SMALL_PAGES not in sys.argv[2:]:
        huge_pages()
    if LISTENERS is not None:
        take_worker(fork_copies(LISTENERS))
    serve()
    # Every answer was flushed and every kernel reaped: nothing is left to do that the
    # interpreter's own teardown (every module of torch, matplotlib, IPython) would do, and
    # it took 0.8 s of each grading worker's close.
    with contextlib.suppress(OSError):  # an answer the grader did not stay for
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(0)
