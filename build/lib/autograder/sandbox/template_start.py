"""The kernel template (zygote.py) as a process: its command line, its whole environment, and
a start ahead of need.

A command about to grade one notebook starts the template first thing (`start_early`): the
template's imports (torch, ipykernel, matplotlib: about 1.7 s) then run on one core while the
command's own imports run on another, instead of after them. The grading process's template
(kernel.py's Zygote) adopts it when it asks for one of the same mechanism. A command about to
grade a class starts so the pool of templates its workers will take (`start_pool_early`,
handover.py), which the embedded cluster adopts (kernel.py's template_pool). One not adopted
is killed as the command exits (it has forked no kernel). A forked process (a grading
worker) never adopts its parent's.

Where the command was started with nothing of its user's environment (run_autograder starts
Gradescope's grader so: may_fork_template), the template is instead forked from the command
just after it imports torch (fork_template), before it reads anything of the course, so that
the two share torch's memory (about 140 MiB) instead of holding a copy each.

Light on purpose (the standard library alone), so that starting early costs the command
nothing before the template is on its way."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import runpy
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from autograder.plumbing.hash_seed import KERNEL_SEED, environment_at_start, hashes_as_kernels
from autograder.plumbing.quiet_imports import paused
from autograder.plumbing.timeline import mark

ZYGOTE = Path(__file__).with_name("zygote.py")

_early: dict[str, subprocess.Popen] = {}  # mechanism -> a template started ahead
_early_pools: dict = {}  # mechanism -> a handover.TemplatePool started ahead
_warm: list[bool] = []  # [True] once this process keeps its template warm (keep_warm)
_forked: list = []  # templates forked from this process, not yet told their mechanism


SMALL_PAGES = "--small-pages"  # zygote.py's: no move of its heap to huge pages


def template_command(mechanism, few_kernels=False):
    """The template's command line. `few_kernels`: it will fork a few kernels (one notebook),
    so it does not move its heap to huge pages first (zygote.py's huge_pages: 5 ms saved on
    each fork, 55-470 ms spent before it is ready, when Linux must compact memory)."""
    return [sys.executable, str(ZYGOTE), mechanism, *([SMALL_PAGES] if few_kernels else [])]


def template_home():
    """A home of the template's own (matplotlib keeps its font cache there, so a template does
    not rebuild it): the kit's folder in the grader's cache, or a temporary one."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    try:
        home = cache / "attention-kit" / "template"
        home.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        home = Path(tempfile.mkdtemp(prefix="kit-template-"))
        atexit.register(shutil.rmtree, home, ignore_errors=True)
    return str(home)


def template_env():
    """The template's whole environment, given rather than inherited: a kernel is forked from
    the template, so the template's initial environment is in every kernel's memory (and in
    its /proc/<pid>/environ); nothing of the grader's (tokens, passwords) may be there.
    Strings hash alike in every template (PYTHONHASHSEED): a student's code that iterates a
    set of words runs in the same order on every regrade, on any worker."""
    return {
        "PATH": os.path.dirname(sys.executable) + ":/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "OMP_NUM_THREADS": "1",
        "MPLBACKEND": "module://matplotlib_inline.backend_inline", "HOME": template_home(),
        "PYTHONHASHSEED": KERNEL_SEED,
    }


def start_template(mechanism, few_kernels=False):
    """A new template process of `mechanism`, importing; it says it is ready on stdout."""
    return subprocess.Popen(template_command(mechanism, few_kernels), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, env=template_env(), text=True,
                            process_group=0)  # not sent a terminal's Ctrl-C: see handover.py


# Besides the template's own variables (template_env) and the kit's settings (KIT_...), what
# a grader's environment at its start may hold for a template forked from it (fork_template):
# the paths the kit runs from, none of them a secret.
SHAREABLE_PATHS = {"PYTHONPATH", "TMPDIR", "XDG_CACHE_HOME"}


def may_fork_template():
    """Whether a template forked from this process would hold nothing of the grader's: it was
    started with only the template's variables, SHAREABLE_PATHS and the kit's settings
    (KIT_...), and its strings hash as every template's do (PYTHONHASHSEED=0).
    run_autograder starts the grader so."""
    start = environment_at_start()
    if start is None or start.get("PYTHONHASHSEED") != KERNEL_SEED or not hashes_as_kernels():
        return False
    shareable = {*template_env(), *SHAREABLE_PATHS}
    return all(key in shareable or key.startswith("KIT_") for key in start)


class ForkedTemplate:
    """A template forked from this process (fork_template), with what the grader asks of a
    template's subprocess.Popen: its pid, pipes, poll, wait and kill."""

    def __init__(self, pid, stdin, stdout):
        self.pid, self.stdin, self.stdout, self.returncode = pid, stdin, stdout, None

    def poll(self):
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # waited for elsewhere: ended (as Popen takes it)
                pid, status = self.pid, 0
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired("kernel template", timeout)
            time.sleep(0.01)
        return self.returncode

    def kill(self):
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)


def fork_template():
    """Import torch here, then fork a template from this process: both share torch's memory
    (about 140 MiB each when each imports it) instead of holding a copy each. None where
    torch does not import, its import left another thread running, or no process can be
    forked: the template then starts as a process of its own. Called first
    thing, before this process reads anything of the course (its memory is the template's,
    and so every kernel's), and only where may_fork_template. The template waits for its
    mechanism (start_forked) and meanwhile imports the rest of what kernels use, while this
    process goes on to import the grader's."""
    try:
        # The collector paused meanwhile (some 70 ms of torch's 1.1 s), then what exists
        # frozen: this process's collections no longer write to the pages it shares.
        with paused():
            import torch  # noqa: F401 - the point: imported once, for the grader and the template
    except ImportError:
        return None  # grading says what is missing, as it would have
    if len(os.listdir("/proc/self/task")) != 1:
        return None  # a thread of a library's (a BLAS pool): no fork, the template starts alone
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    to_template, from_template = os.pipe(), os.pipe()
    try:
        pid = os.fork()
    except OSError:  # no process left to this user: the template's own start says so
        for end in (*to_template, *from_template):
            os.close(end)
        return None
    if pid == 0:
        try:
            become_template(to_template[0], from_template[1])
        except BaseException:  # noqa: BLE001 - said, and this process never returns
            traceback.print_exc()
        finally:
            os._exit(1)
    os.close(to_template[0])
    os.close(from_template[1])
    template = ForkedTemplate(pid, open(to_template[1], "w", encoding="utf-8"),
                              open(from_template[0], encoding="utf-8"))
    _forked.append(template)
    return template


def become_template(requests, answers):
    """In the forked child: serve the grader on the pipes `requests` and `answers` as
    zygote.py does, with the command line and environment the grader sends first (its
    mechanism; an empty line: none, and this process ends)."""
    os.dup2(requests, 0)
    os.dup2(answers, 1)
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))
    sys.stdin = open(0, encoding="utf-8", closefd=False)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    line = sys.stdin.readline()
    if not line.strip():
        os._exit(0)
    start = json.loads(line)
    os.environ.clear()
    os.environ.update(start["env"])
    sys.argv = start["argv"]
    sys.path.insert(0, str(ZYGOTE.parent))
    runpy.run_path(str(ZYGOTE), run_name="__main__")  # ends the process (os._exit)


def start_forked(template: ForkedTemplate, mechanism, few_kernels=False):
    """Give the forked template its mechanism (None: it is not needed, and it ends), for this
    process's first Zygote to adopt, as one started early (start_early)."""
    _forked.remove(template)
    if mechanism is None:
        template.stdin.close()
        template.wait()
        return
    command = template_command(mechanism, few_kernels)
    template.stdin.write(json.dumps({"argv": command[1:], "env": template_env()}) + "\n")
    template.stdin.flush()
    _early[mechanism] = template
    mark(f"template: forked from the grader, pid {template.pid}")


def start_early(mechanism, few_kernels=False):
    """Start a template of `mechanism` now, for this process's first Zygote to adopt;
    `few_kernels` when it grades one notebook (template_command)."""
    if mechanism not in _early and not _warm:
        _early[mechanism] = start_template(mechanism, few_kernels)
        mark(f"template: started early, pid {_early[mechanism].pid}")


def keep_warm():
    """This process keeps its template from one grading to the next (`serve`): none is
    started early again (nothing would adopt it)."""
    _warm.append(True)


def start_early_for(setting, few_kernels=False, forked=None):
    """start_early for a course's isolation setting ("full", "limits"), when this machine can
    build it (when not, grading itself refuses, saying why); with `forked` (fork_template's),
    that template is given the mechanism instead of a new one started."""
    mechanism = buildable(setting)
    if forked is not None:
        start_forked(forked, mechanism, few_kernels)
    elif mechanism is not None:
        start_early(mechanism, few_kernels)


def start_pool_early(setting, count, log):
    """Start now the pool of templates (handover.TemplatePool: one template, `count` copies)
    for the workers of the embedded cluster this process is about to start, confined as the
    course's isolation setting says, writing its errors to the file `log`."""
    from autograder.sandbox.handover import TemplatePool

    mechanism = buildable(setting)
    if mechanism is None or mechanism in _early_pools or _warm:
        return
    try:
        pool = TemplatePool(count, template_command(mechanism), template_env(), log, mechanism)
    except (OSError, RuntimeError):  # started again with the cluster, which says what fails
        return
    _early_pools[mechanism] = pool
    mark(f"template pool: started early, pid {pool.process.pid}")


def buildable(setting):
    """The mechanism of a course's isolation setting, or None when this machine cannot build
    it (grading itself then refuses, saying why)."""
    from autograder.sandbox.isolation import NoSandbox, choose

    try:
        return choose(setting)
    except NoSandbox:
        return None


def adopt(mechanism):
    """The template started early for `mechanism`, if any and still alive; else None."""
    process = _early.pop(mechanism, None)
    if process is not None and process.poll() is not None:
        return None
    return process


def adopt_pool(mechanism):
    """The pool started early for `mechanism`, if any and its template still alive; else
    None."""
    pool = _early_pools.pop(mechanism, None)
    if pool is None:
        return None
    if pool.process.poll() is not None:
        pool.close()
        return None
    mark("template pool: adopted")
    return pool


def copy_of_early_pool(mechanism):
    """A copy of the template of the pool started early for `mechanism`, taken by this
    process for its own kernels (a class's grade that found one notebook to grade grades it
    in process), or None. The pool stays until the command exits."""
    pool = _early_pools.get(mechanism)
    if pool is None or pool.process.poll() is not None:
        return None
    from autograder.sandbox.handover import take

    copy = take(str(pool.folder), mechanism)
    if copy is not None:
        mark("template pool: a copy taken in process")
    return copy


def _kill_unadopted():
    for template in _forked:
        template.kill()
        template.wait()
    _forked.clear()
    for process in _early.values():
        process.kill()
        process.wait()
    _early.clear()
    for pool in _early_pools.values():
        pool.process.kill()  # not waited for to finish its imports: it forked no kernel
        pool.close()
    _early_pools.clear()


def _forget_after_fork():
    _early.clear()  # the parent's: its pipes are the parent's to close
    _forked.clear()
    _early_pools.clear()


atexit.register(_kill_unadopted)
os.register_at_fork(after_in_child=_forget_after_fork)
