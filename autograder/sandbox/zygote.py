"""A warm template for kernels: it imports torch and ipykernel once, then forks one sandboxed
kernel per notebook, so a notebook does not pay for a fresh `import torch`.

Run as a script by the grader (never imported by the kernel side), it reads one JSON request
per line on stdin and answers one JSON line on stdout:
  {"op": "spawn", ...}  fork a kernel (see `spawn`), answer {"pid": n}
  {"op": "kill", "pid": n, "uid": u}  kill every process of the sandbox, answer {"killed": k}
It is a child subreaper, so processes the kernel leaves behind (daemons) become its children
and are reaped here; none outlive the kill.

Only torch, numpy, ipykernel, IPython and matplotlib are imported before the fork: nothing of the
grader's (its checks, the reference package, the documents' values) is in a kernel's memory.
"""

import ctypes
import json
import os
import resource
import signal
import sys
import time
import traceback

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"

import ipykernel.ipkernel  # noqa: E402,F401
import IPython  # noqa: E402,F401 - imported once here, inherited by every kernel
import matplotlib  # noqa: E402,F401
import matplotlib.pyplot  # noqa: E402,F401 - the notebooks draw heatmaps
import matplotlib_inline.backend_inline  # noqa: E402,F401
import numpy  # noqa: E402,F401
import torch  # noqa: E402,F401
from ipykernel.kernelapp import IPKernelApp  # noqa: E402

LIBC = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNS, CLONE_NEWNET = 0x00020000, 0x40000000
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
PR_SET_CHILD_SUBREAPER, PR_SET_PDEATHSIG = 36, 1

LIMITS = {
    "cpu_seconds": resource.RLIMIT_CPU,
    "memory_bytes": resource.RLIMIT_AS,
    "file_bytes": resource.RLIMIT_FSIZE,
    "processes": resource.RLIMIT_NPROC,
}


def check(result, what):
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def mount(source, target, fstype, flags, data=None):
    check(LIBC.mount(source and source.encode(), target.encode(), fstype and fstype.encode(),
                     ctypes.c_ulong(flags), data and data.encode()), f"mount {target}")


def hide(hidden, kept):
    """In a private mount namespace: cover each hidden folder with an empty tmpfs, then put
    back the kept folders inside them (the virtualenv, the notebook's scratch folder)."""
    check(LIBC.unshare(CLONE_NEWNS | CLONE_NEWNET), "unshare")
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    handles = {k: os.open(k, os.O_PATH) for k in kept}
    for folder in hidden:
        if os.path.isdir(folder):
            mount("tmpfs", folder, "tmpfs", 0, "mode=0755,size=16m")
    for path, fd in handles.items():
        if any(inside(path, h) for h in hidden):
            os.makedirs(path, exist_ok=True)
            mount(f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)
        os.close(fd)
    for folder in hidden:  # e.g. the reference package installed in a kept virtualenv
        if any(inside(folder, k) and k != folder for k in kept) and os.path.isdir(folder):
            mount("tmpfs", folder, "tmpfs", 0, "mode=0755,size=16m")


def inside(path, folder):
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def become_kernel(request):
    """The forked child: jail itself, drop to the sandbox user, serve as an IPython kernel."""
    os.setsid()
    log = os.open(os.path.join(request["cwd"], ".kernel.log"), os.O_WRONLY | os.O_CREAT, 0o600)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.closerange(3, 1 << 16)
    uid = request.get("uid")
    if uid is not None:
        hide(request["hide"], request["keep"])
    for name, value in request["limits"].items():
        resource.setrlimit(LIMITS[name], (value, value))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if uid is not None:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    app = IPKernelApp.instance()
    app.initialize(["-f", request["connection_file"], "--HistoryManager.enabled=False",
                    "--IPKernelApp.quiet=True"])
    app.start()


def spawn(request):
    pid = os.fork()
    if pid == 0:
        try:
            become_kernel(request)
        except BaseException:  # noqa: BLE001 - the kernel's log says why it could not start
            traceback.print_exc()
            sys.stderr.flush()
        os._exit(70)
    return {"pid": pid}


def processes_of(uid=None, session=None):
    """Pids of the processes of a user (or of a session, when there is no user), zombies
    included: a killed kernel's thread-group leader shows as a zombie before its other
    threads are gone and it can be reaped."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
            sid = os.getsid(int(entry))
        except (OSError, ValueError):
            continue
        if (uid is not None and int(fields["Uid"].split()[0]) == uid) or (
                uid is None and sid == session):
            found.append(int(entry))
    return found


def children():
    me, found = os.getpid(), []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rsplit(")", 1)[1].split()[1]) == me:
                    found.append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    return found


def reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def kill_as(uid):
    """kill(-1) as the sandbox user reaches every process of that user, however many forks."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setuid(uid)
            os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def kill(request):
    """Kill and reap every process of the sandbox; answer once none is left, not even a
    zombie, so nothing of it outlives the answer."""
    uid, session = request.get("uid"), request["pid"]
    killed = 0
    for _ in range(200):
        alive = processes_of(uid, session)
        if not alive:
            break
        killed = max(killed, len(alive))
        if uid is not None:
            kill_as(uid)
        else:
            for pid in alive:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        reap()
        time.sleep(0.01)
    reap()
    return {"killed": killed, "left": len(processes_of(uid, session))}


def serve():
    check(LIBC.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), "prctl")
    LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # die with the grader
    print(json.dumps({"ready": os.getpid()}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        reap()
        try:
            answer = {"spawn": spawn, "kill": kill}[request["op"]](request)
        except Exception as error:  # noqa: BLE001 - reported to the grader
            answer = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps(answer), flush=True)
    for pid in children():  # kernels of a grader that stopped without killing them
        os.killpg(pid, signal.SIGKILL)
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


if __name__ == "__main__":
    serve()
