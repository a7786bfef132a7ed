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

Light on purpose (the standard library alone), so that starting early costs the command
nothing before the template is on its way."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from autograder.plumbing.timeline import mark

ZYGOTE = Path(__file__).with_name("zygote.py")

_early: dict[str, subprocess.Popen] = {}  # mechanism -> a template started ahead
_early_pools: dict = {}  # mechanism -> a handover.TemplatePool started ahead
_warm: list[bool] = []  # [True] once this process keeps its template warm (keep_warm)


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
        "PYTHONHASHSEED": "0",
    }


def start_template(mechanism, few_kernels=False):
    """A new template process of `mechanism`, importing; it says it is ready on stdout."""
    return subprocess.Popen(template_command(mechanism, few_kernels), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, env=template_env(), text=True)


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


def start_early_for(setting, few_kernels=False):
    """start_early for a course's isolation setting ("full", "limits"), when this machine can
    build it (when not, grading itself refuses, saying why)."""
    mechanism = buildable(setting)
    if mechanism is not None:
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
    _early_pools.clear()


atexit.register(_kill_unadopted)
os.register_at_fork(after_in_child=_forget_after_fork)
