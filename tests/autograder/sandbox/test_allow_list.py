"""Does a kernel see only its allow-list, and does nothing it makes outlive it?

Real kernels from the real template. The isolation tests need root, as in CI; the others run
in whichever mode the tests run in."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from autograder.sandbox.kernel import Limits, SandboxedKernel, Settings, Zygote

ROOT = Path(__file__).resolve().parents[3]
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="the full sandbox needs root")
LIMITS = Limits(memory_bytes=4 << 30, file_bytes=1 << 20, processes=64)


def started(folder, **settings):
    kernel = SandboxedKernel(folder, Settings(hidden=(str(ROOT),), limits=LIMITS, **settings))
    kernel.start()
    return kernel


@pytest.fixture()
def kernel(tmp_path):
    (tmp_path / "data.txt").write_text("the student's own file")
    sandboxed = started(tmp_path)
    yield sandboxed
    sandboxed.stop()


def run(kernel, code):
    outputs, status = kernel.execute(code, timeout=20)
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    errors = [f"{o.ename}: {o.evalue}" for o in outputs if o.output_type == "error"]
    assert not errors, errors
    return text.strip(), outputs


def outcome(kernel, action, path):
    """What `action` ("list" or "read") of `path` gives in the kernel: "ok" or the error."""
    code = {"list": "os.listdir({!r})", "read": "open({!r}, 'rb').read(1)"}[action]
    text, _ = run(kernel, f"""
import os
try:
    {code.format(str(path))}
    print("ok")
except OSError as error:
    print(type(error).__name__)
""")
    return text


def on_the_way(folder):
    """The names in `folder` a kernel may see: the first step from it to a kept folder."""
    kept = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix)}
    return {Path(k).relative_to(folder).parts[0] for k in kept
            if k.startswith(str(folder).rstrip("/") + "/")}


@pytest.fixture()
def probe():
    """A folder with a file, outside the allow-list, that only root may read, and a file in
    the machine's /dev/shm."""
    name = f"kit-probe-{secrets.token_hex(4)}"
    folder, shared = Path("/srv") / name, Path("/dev/shm") / name
    folder.mkdir(mode=0o700, parents=True)
    (folder / "secret.txt").write_text("not for students")
    shared.write_text("not for students")
    yield folder
    shutil.rmtree(folder)
    shared.unlink()


@ROOT_ONLY
def test_kernel_cannot_reach_what_is_not_allowed(kernel, probe):
    """Can student code list or read a folder of the machine outside the allow-list, the
    machine's /dev/shm, /run, /etc, /var, the repository or root's home? (It sees none of
    them, but for the folders on the way to the Python installation and the virtualenv, and
    its own empty /run/lock and /var/tmp.)"""
    shared = Path("/dev/shm") / probe.name
    files = [probe / "secret.txt", shared, "/etc/passwd", ROOT / "pyproject.toml",
             ROOT / "solutions" / "__init__.py", ROOT / "autograder" / "sandbox" / "zygote.py",
             "/run/lock/../utmp", "/var/log"]
    folders = [probe, "/etc", "/home", "/srv", ROOT / "solutions", ROOT / "source"]
    for action, paths in [("read", files), ("list", folders)]:
        for path in filter(os.path.exists, paths):  # all of them here, as on Debian
            assert outcome(kernel, action, path) == "FileNotFoundError", path
    text, _ = run(kernel, "import os\nprint([os.listdir(f) for f in ('/run', '/run/lock', "
                          "'/var', '/var/tmp')])")
    assert text == "[['lock'], [], ['tmp'], []]"
    text, _ = run(kernel, f"import os\nprint(sorted(os.listdir({str(ROOT)!r})))\n"
                          "print(sorted(os.listdir('/root')) if os.path.isdir('/root') "
                          "else [])")
    repository, home = (set(eval(line)) for line in text.splitlines())  # noqa: S307
    assert repository <= on_the_way(ROOT) and home <= on_the_way("/root")


@ROOT_ONLY
def test_the_root_is_the_allow_list_and_read_only(kernel):
    """Is `/` only the allow-list (system folders, /dev, /proc, /tmp, /run/lock, /var/tmp and
    the ways to the Python installation, the virtualenv and the scratch folder), read-only but
    for the scratch folder and the kernel's own /tmp, /run/lock and /var/tmp, with a minimal
    /dev?"""
    text, _ = run(kernel, """
import os
print(sorted(os.listdir("/")))
print(sorted(os.listdir("/dev")))
for path in ["/usr/kit-probe", "/kit-probe", "/dev/kit-probe", "data.txt", "/tmp/kit-probe",
             "/run/lock/kit-probe", "/var/tmp/kit-probe", "/run/kit-probe"]:
    try:
        open(path, "a").close()
        print(path, "written")
    except OSError as error:
        print(path, type(error).__name__)
""")
    top, dev, *writes = text.splitlines()
    allowed = {"bin", "dev", "lib", "lib64", "proc", "run", "tmp", "usr", "var"} | {
        Path(os.path.realpath(p)).parts[1] for p in (sys.prefix, sys.base_prefix)}
    assert set(eval(top)) <= allowed, top  # noqa: S307
    assert set(eval(dev)) == {"null", "zero", "full", "random", "urandom", "fd", "stdin",  # noqa: S307
                              "stdout", "stderr", "ptmx", "pts", "shm"}
    assert writes == ["/usr/kit-probe OSError", "/kit-probe OSError", "/dev/kit-probe OSError",
                      "data.txt written", "/tmp/kit-probe written",
                      "/run/lock/kit-probe written", "/var/tmp/kit-probe written",
                      "/run/kit-probe OSError"]
    assert not any(Path(p).exists() for p in ("/tmp/kit-probe", "/run/lock/kit-probe",
                                              "/var/tmp/kit-probe"))


@ROOT_ONLY
def test_kernel_sees_only_its_own_processes(kernel):
    """Does /proc in the kernel list only the kernel (as PID 1) and what it starts?"""
    text, _ = run(kernel, """
import os, subprocess
sleeper = subprocess.Popen(["sleep", "30"])
print(os.getpid(), sleeper.pid)
print(sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))
sleeper.kill()
""")
    pids, listed = text.splitlines()
    me, sleeper = map(int, pids.split())
    assert me == 1 and eval(listed) == [1, sleeper]  # noqa: S307


@ROOT_ONLY
def test_shared_memory_and_daemons_die_with_the_kernel(kernel):
    """Are a System V shared-memory segment and a daemon the kernel made, and a zombie it left,
    all gone once the kernel is stopped, and was the segment never the machine's?"""
    key = secrets.randbelow(1 << 30) + 1
    text, _ = run(kernel, f"""
import ctypes, subprocess
libc = ctypes.CDLL(None, use_errno=True)
print(libc.shmget({key}, 4096, 0o1000 | 0o600) >= 0)
print(any(line.split()[0] == "{key}" for line in open("/proc/sysvipc/shm")))
subprocess.Popen(["sleep", "300"], start_new_session=True)
subprocess.Popen(["true"])  # never waited for: a zombie
""")
    assert text.splitlines() == ["True", "True"]

    def segments():
        with open("/proc/sysvipc/shm") as table:
            return {line.split()[0] for line in list(table)[1:]}

    assert str(key) not in segments()
    namespace = os.readlink(f"/proc/{kernel.pid}/ns/pid")
    uid = kernel.uid
    kernel.stop()
    assert str(key) not in segments()
    assert processes_of(uid, namespace) == []


def processes_of(uid, namespace):
    """The processes now running as `uid` or in the PID namespace `namespace` (a kernel's)."""
    left = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry.stat().st_uid == uid or os.readlink(
                    entry / "ns" / "pid") == namespace):
                left.append(entry.name)
        except OSError:
            continue
    return left


@ROOT_ONLY
def test_a_closed_template_ends_the_kernels_left_running_and_exits_cleanly(tmp_path):
    """Does the template, closed while a kernel still runs (its grader never stopped it),
    kill that kernel and every process it started, and exit with status 0 (it ends without
    the interpreter's teardown)?"""
    Zygote.close_shared()
    kernel = started(tmp_path)
    run(kernel, "import subprocess\nsubprocess.Popen(['sleep', '600'])")
    template = Zygote.shared().process
    namespace = os.readlink(f"/proc/{kernel.pid}/ns/pid")
    Zygote.close_shared()
    assert template.returncode == 0
    assert processes_of(kernel.uid, namespace) == []
    kernel.client.stop_channels()


def test_no_secret_of_the_grader_reaches_the_template_or_a_kernel(monkeypatch, tmp_path):
    """Is a variable of the grader's environment absent from the template's environment and
    from a kernel's, in its memory as in its /proc/<pid>/environ?"""
    token = secrets.token_hex(8)
    monkeypatch.setenv("KIT_PROBE_SECRET", token)
    Zygote.close_shared()
    kernel = started(tmp_path)
    try:
        text, _ = run(kernel, "import os\nprint('KIT_PROBE_SECRET' in os.environ)")
        assert text == "False"
        template = Zygote.shared().process.pid
        for pid in (template, kernel.pid):
            environ = Path(f"/proc/{pid}/environ").read_bytes()
            assert b"KIT_PROBE_SECRET" not in environ and token.encode() not in environ
    finally:
        kernel.stop()
        Zygote.close_shared()


@pytest.fixture()
def root_only_file(tmp_path_factory):
    secret = tmp_path_factory.mktemp("elsewhere") / "secret.txt"
    secret.write_text("the grader's secret")
    secret.chmod(0o600)
    return secret


def test_links_are_refused_not_copied(tmp_path, root_only_file):
    """Are links in the notebook's folder (to a root-only file, to a folder elsewhere, to the
    kit's solutions/) left out of the kernel's folder and listed in `refused`, while the
    regular files are copied?"""
    (tmp_path / "data.txt").write_text("the student's own file")
    (tmp_path / "notes.txt").symlink_to(root_only_file)
    (tmp_path / "outside").symlink_to(root_only_file.parent)
    (tmp_path / "solutions").symlink_to(ROOT / "solutions")
    kernel = started(tmp_path)
    try:
        assert kernel.refused == ["notes.txt: a symbolic link, not copied",
                                  "outside: a symbolic link, not copied",
                                  "solutions: a symbolic link, not copied"]
        text, _ = run(kernel, "import os\nprint(sorted(n for n in os.listdir('.') "
                              "if not n.startswith('.')))")
        assert text == "['data.txt']"
    finally:
        kernel.stop()


def test_an_oversized_file_is_refused(tmp_path):
    """Is a file past `max_file_bytes` refused, and one at the limit copied?"""
    (tmp_path / "big.bin").write_bytes(b"x" * ((1 << 20) + 1))
    (tmp_path / "fits.bin").write_bytes(b"x" * (1 << 20))
    kernel = started(tmp_path, max_file_bytes=1 << 20)
    try:
        assert kernel.refused == ["big.bin: 1,048,577 bytes, more than the 1 MiB a file may "
                                  "have, not copied"]
        text, _ = run(kernel, "import os\nprint(os.path.exists('big.bin'), "
                              "os.path.getsize('fits.bin'))")
        assert text == f"False {1 << 20}"
    finally:
        kernel.stop()


@ROOT_ONLY
def test_the_kits_packages_in_the_virtualenv_look_empty(tmp_path):
    """When the kit is installed in the kept virtualenv (a wheel), are its packages empty
    folders to the kernel? (A package of the virtualenv stands in for them here.)"""
    import hypothesis

    package = Path(hypothesis.__file__).resolve().parent
    kernel = SandboxedKernel(tmp_path, Settings(hidden=(str(ROOT), str(package)),
                                                limits=LIMITS))
    kernel.start()
    try:
        text, _ = run(kernel, f"""
import os
print(os.listdir({str(package)!r}))
import hypothesis  # an empty folder imports as an empty namespace package
print(hasattr(hypothesis, "given"))
import nbformat
print(hasattr(nbformat, "read"))
""")
        assert text.splitlines() == ["[]", "False", "True"]
    finally:
        kernel.stop()


def test_kernel_runs_torch_numpy_and_draws(kernel):
    """Can student code still import torch, numpy and matplotlib, compute with torch and show
    a figure?"""
    text, outputs = run(kernel, """%matplotlib inline
import numpy as np
import torch
import matplotlib.pyplot as plt
a = torch.randn(16, 16, dtype=torch.float64) + 16 * torch.eye(16, dtype=torch.float64)
x = torch.linalg.solve(a, torch.ones(16, dtype=torch.float64))
print(bool(torch.allclose(a @ x, torch.ones(16, dtype=torch.float64))), np.arange(4).sum())
figure, axes = plt.subplots()
axes.imshow(torch.softmax(torch.randn(4, 4), dim=-1).numpy())
figure.savefig("heatmap.png")
print(open("heatmap.png", "rb").read(4))
plt.show()
""")
    assert text == "True 6\nb'\\x89PNG'"
    assert any("image/png" in o.get("data", {}) for o in outputs if o.output_type ==
               "display_data")


def test_sigint_interrupts_the_kernel(kernel):
    """Does SIGINT to the kernel (PID 1 of its namespace in full isolation) still interrupt
    the running cell, and the kernel go on?"""
    timer = threading.Timer(1.0, os.kill, (kernel.pid, signal.SIGINT))
    timer.start()
    outputs, _ = kernel.execute("import time\ntime.sleep(15)", timeout=10)
    timer.join()
    assert [o.ename for o in outputs if o.output_type == "error"] == ["KeyboardInterrupt"]
    assert run(kernel, "print(6 * 7)")[0] == "42"


def test_the_file_limit_is_a_setting(tmp_path):
    """Does c.GradeInSandbox.max_file_mb reach the sandbox's settings?"""
    from traitlets.config import Config

    from autograder.grading.grade_in_sandbox import GradeInSandbox

    config = Config()
    config.GradeInSandbox.max_file_mb = 3
    config.CourseDirectory.root = str(tmp_path)
    assert GradeInSandbox(config=config).settings().max_file_bytes == 3 << 20
    assert GradeInSandbox().max_file_mb == 16


def test_limits_only_still_runs_and_kills_its_daemon(tmp_path):
    """With limits only (no root needed; chosen knowingly): does a kernel start, run, see the
    machine's files (no allow-list there) and lose its daemon at stop?"""
    kernel = started(tmp_path, isolation="limits")
    try:
        text, _ = run(kernel, """
import os, subprocess
daemon = subprocess.Popen(["sleep", "300"])
print(os.path.isdir("/etc"), daemon.pid)
""")
        visible, daemon = text.split()
        assert visible == "True" and kernel.uid is None
    finally:
        kernel.stop()
    assert not Path(f"/proc/{daemon}").exists()


@ROOT_ONLY
def test_a_dead_graders_scratch_folders_are_removed():
    """When a grader claims a sandbox user, are the scratch folders a dead grader left with
    that user removed, and those of other users left alone?"""
    from autograder.sandbox.kernel import claimed_uid
    from autograder.sandbox.socket_folder import socket_parent

    base = 62900 + secrets.randbelow(50)  # a user id range no other test claims
    folders = [Path(tempfile.mkdtemp(prefix="kit-sandbox-", dir=socket_parent()))
               for _ in range(2)]
    try:
        for folder in folders:
            (folder / "left.txt").write_text("left behind")
        os.chown(folders[0], base, base)
        os.chown(folders[1], base + 1000, base + 1000)
        assert claimed_uid(base) == base
        assert not folders[0].exists() and folders[1].exists()
    finally:
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
