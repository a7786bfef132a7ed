"""seccomp filters for a kernel: system calls answered with EPERM instead of run.

A rule names a system call and the shapes of its arguments that are allowed; a call of no
allowed shape is refused (with EPERM, or the rule's own errno), and a rule with no shape
refuses the call whatever its arguments:
    ("keyctl", [])                         never
    ("prlimit64", [[(0, ALL, (0,))]])      only on the caller itself (pid 0)
A shape is a list of (argument, mask, values): the argument's low 32 bits, masked, must be
one of the values. Each kernel gets (`rules_for`):
- always: the machine's keyrings (kept per user id, not per namespace, so a key added by one
  notebook would be read by the next graded under the same user); io_uring (it makes sockets
  and opens files without the calls the rules read); files in memory (memfd); fallocate but
  of mode 0 (KEEP_SIZE gives blocks past the file size limit); new namespaces (unshare, clone's
  CLONE_NEW* flags; clone3 answers ENOSYS, and the C library falls back to clone);
- where no namespace of its own hides the rest of the machine (Landlock): no socket but a unix
  one and no socket pair but a stream one (no internet, netlink, packet or datagram socket;
  Landlock also refuses TCP); no ptrace, no process_vm_readv/writev, no System V IPC (shared
  by every process of the machine), no inotify or fanotify, no process started as the
  template's child (CLONE_PARENT), and no change to another process's limits or priority;
- `late_rules`, once the kernel has started (its own sockets bound): no new socket at all (a
  unix one could reach another kernel's, or a template's, by its path), no scheduling change
  to another process, and, as the grader's own user, no change to a file's mode, owner, times
  or extended attributes (Landlock covers none).
Calls of another architecture (i386 on x86_64) and x32 calls are refused whole.

Standard library only: the kernel template (zygote.py) imports it from its own folder.
"""

import ctypes
import platform

PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC = 1, 1
AF_UNIX = 1

# Per machine: the audit architecture, whether x32 calls (numbers from 2**30) exist, and the
# numbers of the calls the rules name (a call a machine does not have is left out of its
# filter: aarch64 has no chmod, only fchmodat).
MACHINES = {
    "x86_64": (0xC000003E, True, {
        "add_key": 248, "request_key": 249, "keyctl": 250, "socket": 41, "ptrace": 101,
        "process_vm_readv": 310, "process_vm_writev": 311, "shmget": 29, "shmat": 30,
        "shmctl": 31, "semget": 64, "semop": 65, "semctl": 66, "semtimedop": 220,
        "msgget": 68, "msgsnd": 69, "msgrcv": 70, "msgctl": 71, "prlimit64": 302,
        "setpriority": 141, "ioprio_set": 251, "seccomp": 317, "unshare": 272,
        "clone": 56, "clone3": 435, "landlock_create_ruleset": 444, "landlock_add_rule": 445,
        "landlock_restrict_self": 446, "io_uring_setup": 425, "io_uring_enter": 426,
        "io_uring_register": 427, "chmod": 90, "fchmod": 91, "fchmodat": 268,
        "fchmodat2": 452, "chown": 92, "fchown": 93, "lchown": 94, "fchownat": 260,
        "utime": 132, "utimes": 235, "futimesat": 261, "utimensat": 280, "setxattr": 188,
        "lsetxattr": 189, "fsetxattr": 190, "removexattr": 197, "lremovexattr": 198,
        "fremovexattr": 199, "setxattrat": 463, "removexattrat": 466, "socketpair": 53,
        "inotify_init": 253, "inotify_add_watch": 254, "inotify_init1": 294,
        "fanotify_init": 300, "fanotify_mark": 301, "sched_setparam": 142,
        "sched_setscheduler": 144, "sched_setaffinity": 203, "sched_setattr": 314,
        "fork": 57, "vfork": 58, "execve": 59, "execveat": 322, "setitimer": 38, "alarm": 37,
        "timer_create": 222, "timer_settime": 223, "kill": 62, "tkill": 200, "tgkill": 234,
        "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297, "pidfd_send_signal": 424,
        "memfd_create": 319, "memfd_secret": 447, "fallocate": 285}),
    "aarch64": (0xC00000B7, False, {
        "add_key": 217, "request_key": 218, "keyctl": 219, "socket": 198, "ptrace": 117,
        "process_vm_readv": 270, "process_vm_writev": 271, "shmget": 194, "shmat": 196,
        "shmctl": 195, "semget": 190, "semop": 193, "semctl": 191, "semtimedop": 192,
        "msgget": 186, "msgsnd": 189, "msgrcv": 188, "msgctl": 187, "prlimit64": 261,
        "setpriority": 140, "ioprio_set": 30, "seccomp": 277, "unshare": 97,
        "clone": 220, "clone3": 435, "landlock_create_ruleset": 444, "landlock_add_rule": 445,
        "landlock_restrict_self": 446, "io_uring_setup": 425, "io_uring_enter": 426,
        "io_uring_register": 427, "fchmod": 52, "fchmodat": 53, "fchmodat2": 452,
        "fchownat": 54, "fchown": 55, "utimensat": 88, "setxattr": 5, "lsetxattr": 6,
        "fsetxattr": 7, "removexattr": 14, "lremovexattr": 15, "fremovexattr": 16,
        "setxattrat": 463, "removexattrat": 466, "socketpair": 199, "inotify_init1": 26,
        "inotify_add_watch": 27, "fanotify_init": 262, "fanotify_mark": 263,
        "sched_setparam": 118, "sched_setscheduler": 119, "sched_setaffinity": 122,
        "sched_setattr": 274, "execve": 221, "execveat": 281, "setitimer": 103,
        "timer_create": 107, "timer_settime": 110, "kill": 129, "tkill": 130, "tgkill": 131,
        "rt_sigqueueinfo": 138, "rt_tgsigqueueinfo": 240, "pidfd_send_signal": 424,
        "memfd_create": 279, "memfd_secret": 447, "fallocate": 47}),
}

ALL = 0xFFFFFFFF

KEYRINGS = [("add_key", []), ("request_key", []), ("keyctl", [])]
# io_uring makes sockets and opens files without the system calls the rules read
# (IORING_OP_SOCKET, IORING_OP_OPENAT ...): no kernel needs it.
IO_URING = [(name, []) for name in ("io_uring_setup", "io_uring_enter", "io_uring_register")]
# Files in memory with no name: what they hold is neither in the address space's limit nor
# in the process's resident size (128 of 64 MiB held 8 GiB beside a 6 GiB limit, and the
# out-of-memory killer would choose among kernels by a size that leaves them out).
MEMORY_FILES = [("memfd_create", []), ("memfd_secret", [])]
# fallocate of mode 0 only (posix_fallocate's): FALLOC_FL_KEEP_SIZE gives a file blocks past
# its size, which the file size limit (RLIMIT_FSIZE) does not bound (3 GiB in one file of
# size 0); the other modes (punching holes, zeroing ranges) no notebook needs.
FALLOCATE = [("fallocate", [[(1, ALL, (0,))]])]
SYSV_IPC = [(name, []) for name in ("shmget", "shmat", "shmctl", "semget", "semop", "semctl",
                                    "semtimedop", "msgget", "msgsnd", "msgrcv", "msgctl")]
# Allowed only on the caller itself: prlimit64(0, ...), setpriority(PRIO_PROCESS, 0, ...),
# ioprio_set(IOPRIO_WHO_PROCESS, 0, ...) (PRIO_USER, 0 would be every process of its user).
OTHER_PROCESSES = [("prlimit64", [[(0, ALL, (0,))]]),
                   ("setpriority", [[(0, ALL, (0,)), (1, ALL, (0,))]]),
                   ("ioprio_set", [[(0, ALL, (1,)), (1, ALL, (0,))]])]
# The scheduler's calls likewise, but only once the kernel has started: libzmq sets the
# policy of its own threads by thread id as ipykernel starts, which a filter cannot tell
# from another process's id; after that, another process's policy (SCHED_IDLE) or CPUs
# would slow the grader and every kernel forked after.
SCHEDULER = [(name, [[(0, ALL, (0,))]]) for name in (
    "sched_setscheduler", "sched_setparam", "sched_setattr", "sched_setaffinity")]
# No new namespace (a process in a PID namespace below the kernel's would hide from the
# search for strays) and, without namespaces, no process started as a child of the template
# (CLONE_PARENT), which would leave the kernel's tree, where what it started is found and
# killed. clone3, whose flags a filter cannot read, answers ENOSYS, and the C library falls
# back to clone.
CLONE_NEW = 0x7E020000  # CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
CLONE_PARENT, ENOSYS = 0x8000, 38


def clones(also):
    """unshare refused; clone with a new namespace's flag, or `also`, refused; clone3 ENOSYS."""
    return [("unshare", []), ("clone", [[(0, CLONE_NEW | also, (0,))]]), ("clone3", [], ENOSYS)]


# Who watches files (inotify, fanotify) would see what the grader opens where it may not read.
WATCHES = [(name, []) for name in ("inotify_init", "inotify_init1", "inotify_add_watch",
                                   "fanotify_init", "fanotify_mark")]
# A unix socket only. Refused with EOPNOTSUPP, not EPERM: libzmq, in the kernel, looks for a
# network interface of the name 127.0.0.1 before it binds ipykernel's pipe for subprocesses'
# output there, through a netlink socket; it aborts the process on any failure of that look
# but EOPNOTSUPP (kept for Windows' Linux), then finds it may not bind, and ipykernel goes on
# without the pipe, as it does in a network namespace with no interface up.
EOPNOTSUPP = 95
SOCKETS = ("socket", [[(0, ALL, (AF_UNIX,))]], EOPNOTSUPP)
# A pair of unix stream sockets (asyncio's, multiprocessing's pipes) only: a datagram one
# could be sent to any socket's path.
SOCK_TYPE, SOCK_STREAM = 0xF, 1
SOCKET_PAIRS = ("socketpair", [[(0, ALL, (AF_UNIX,)), (1, SOCK_TYPE, (SOCK_STREAM,))]],
                EOPNOTSUPP)
UNCONFINED_MACHINE = [SOCKETS, SOCKET_PAIRS, ("ptrace", []), ("process_vm_readv", []),
                      ("process_vm_writev", []), *SYSV_IPC, *OTHER_PROCESSES, *WATCHES]
# Landlock does not cover a file's mode, owner, times or extended attributes: a kernel that
# runs as the grader's own user could chmod the grader's files (its virtualenv among them).
METADATA = [(name, []) for name in (
    "chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat",
    "utime", "utimes", "futimesat", "utimensat", "setxattr", "lsetxattr", "fsetxattr",
    "removexattr", "lremovexattr", "fremovexattr", "setxattrat", "removexattrat")]


def rules_for(own_namespaces):
    """The rules of a kernel: with namespaces of its own (root, user namespaces), the
    keyrings, io_uring, files in memory and new namespaces alone; without (Landlock), the
    rest of the machine's shared reach too."""
    if own_namespaces:
        return KEYRINGS + IO_URING + MEMORY_FILES + FALLOCATE + clones(0)
    return KEYRINGS + IO_URING + MEMORY_FILES + FALLOCATE + clones(CLONE_PARENT) + \
        UNCONFINED_MACHINE


# The judging kernel (guard.py), from the guard's start on: nothing runs beside it or after it
# (no process, thread or exec: work done there would be out of the record's sight), and
# nothing interrupts it (no timer, no signal sent, even to itself: a Python signal handler of
# the student's would run inside the guard's own code); no other process's memory read or
# written either.
JUDGING = [(name, []) for name in (
    "clone", "clone3", "fork", "vfork", "execve", "execveat", "setitimer", "alarm", "timer_create",
    "timer_settime", "kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
    "pidfd_send_signal", "ptrace", "process_vm_readv", "process_vm_writev")]


def seccomp_number(machine=None):
    """The number of the seccomp system call on `machine` (this one by default)."""
    return MACHINES[machine or platform.machine()][2]["seccomp"]


def late_rules(own_user):
    """The rules added once a Landlock kernel has started (its sockets bound, IPython's
    profile folder made, which copies a file with its mode): no new socket, no scheduling
    change to another process, and, when it runs as the grader's own user, no change to any
    file's metadata (shutil.copy's copy of the mode then fails; copyfile works)."""
    return [("socket", [], EOPNOTSUPP), *SCHEDULER] + ([] if own_user else METADATA)


class SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte),
                ("k", ctypes.c_uint)]


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(SockFilter))]


LOAD, AND, JEQ, JGE, JA, RET = 0x20, 0x54, 0x15, 0x35, 0x05, 0x06  # BPF_LD|W|ABS, ALU|AND|K,
#                                          JMP|JEQ|K, JMP|JGE|K, JMP|JA, RET|K
ALLOW, ERRNO = 0x7FFF0000, 0x00050000  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO
REFUSE = ERRNO | 1  # EPERM
NR, ARCH, ARGS = 0, 4, 16  # offsets in struct seccomp_data; an argument is 8 bytes


def program(rules, machine=None):
    """The BPF program of `rules` on `machine` (this one by default): a list of
    (code, jt, jf, k). Written with labels ("allow", "refuse", "rule N", "shape N M"),
    resolved at the end to the number of instructions each jump skips."""
    arch, x32, numbers = MACHINES[machine or platform.machine()]
    code = [(LOAD, "", "", ARCH), (JEQ, "", "refuse", arch), (LOAD, "", "", NR)]
    if x32:
        code.append((JGE, "refuse", "", 0x40000000))
    errors = sorted({rule[2] for rule in rules if len(rule) > 2})
    rules = [rule for rule in rules if rule[0] in numbers]
    for index, (name, shapes, *error) in enumerate(rules):
        after = f"rule {index + 1}"
        refuse = f"refuse {error[0]}" if error else "refuse"
        code += [f"rule {index}", (LOAD, "", "", NR), (JEQ, "", after, numbers[name])]
        for number, shape in enumerate(shapes):
            other = f"shape {index} {number + 1}"
            for argument, mask, values in shape:
                code.append((LOAD, "", "", ARGS + 8 * argument))
                if mask != ALL:
                    code.append((AND, "", "", mask))
                code += [(JEQ, f"ok {index} {number} {argument} {value}", "", value)
                         for value in values[:-1]]
                code.append((JEQ, "", other, values[-1]))
                code += [f"ok {index} {number} {argument} {value}" for value in values[:-1]]
            code += [(JA, "", "", "allow"), other]
        code.append((JA, "", "", refuse))
    code += [f"rule {len(rules)}", "allow", (RET, "", "", ALLOW), "refuse", (RET, "", "", REFUSE)]
    for error in errors:
        code += [f"refuse {error}", (RET, "", "", ERRNO | error)]
    return resolved(code)


def resolved(code):
    """Labels (strings) out, jumps counted: a conditional jump's "" is the next
    instruction; an unconditional jump (JA) names its label in k."""
    places, count = {}, 0
    for item in code:
        if isinstance(item, str):
            places[item] = count
        else:
            count += 1
    out = []
    for item in code:
        if isinstance(item, str):
            continue
        here = len(out) + 1  # where a jump's count starts
        op, jt, jf, k = item
        if op == JA:
            out.append((op, 0, 0, places[k] - here))
        else:
            out.append((op, *(places[label] - here if label else 0 for label in (jt, jf)), k))
    return out


def install(rules, all_threads=False):
    """Install the filter of `rules` on this thread (and what it starts), or on every thread
    of the process with `all_threads` (a kernel that already runs ipykernel's threads);
    no_new_privs must be set."""
    code = program(rules)
    filters = (SockFilter * len(code))(*[SockFilter(*i) for i in code])
    fprog = SockFprog(len(code), filters)
    libc = ctypes.CDLL(None, use_errno=True)
    if all_threads:
        number = MACHINES[platform.machine()][2]["seccomp"]
        result = libc.syscall(ctypes.c_long(number), ctypes.c_uint(SECCOMP_SET_MODE_FILTER),
                              ctypes.c_uint(SECCOMP_FILTER_FLAG_TSYNC), ctypes.byref(fprog))
    else:
        result = libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0)
    if result != 0:
        raise OSError(ctypes.get_errno(), "seccomp: the filter was not installed")
