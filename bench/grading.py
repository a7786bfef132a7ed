"""Benchmark: plain sequential `nbgrader autograde` against the kit's parallel `grade`.

One simulated class (default 100 notebooks of assignment 01: correct, partly done, blank and
each catalogued mistake) is graded from identical copies of the course: by nbgrader's own
command with nbgrader's own autograde pipeline (a fresh kernel per notebook, the checks in
it), then by the kit (warm kernels forked from a template, verdicts outside the kernel) in
its full sandbox and with limits only. Prints notebooks per minute and their ratio, CPU
seconds per notebook beside a bare `python -c "import torch"`, the sandbox's cost per
notebook (full minus limits only), and the peak memory of each kit worker (the worker, its
kernel template and the kernels forked from it; shared pages are counted in each).

    .venv/bin/python bench/grading.py [--students 100] [--workers 2] [--assignment ID]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat
import psutil
from nbgrader.converters import Autograde

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.course import Course, run_nbgrader  # noqa: E402
from autograder.grading.parallel import grade, register_assignments  # noqa: E402
from autograder.tools import simulate  # noqa: E402


def nbgrader_pipeline():
    """Config lines that put back nbgrader's own autograde stages (the checks then run in the
    student's kernel): the benchmark's baseline, read from nbgrader's defaults."""
    traits = Autograde.class_traits()
    lines = ["# The benchmark's baseline: nbgrader's own autograde stages."]
    for name in ("sanitize_preprocessors", "autograde_preprocessors"):
        stages = [f"{stage.__module__}.{stage.__name__}" for stage in traits[name].default()]
        lines.append(f"c.Autograde.{name} = {stages!r}")
    return "\n".join(lines) + "\n"


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def make_class(root: Path, assignment_id, students, rng):
    course = Course.create(root, ROOT, [assignment_id])
    shutil.copytree(ROOT / "release" / assignment_id, root / "release" / assignment_id)
    release = nbformat.read(root / "release" / assignment_id / f"{assignment_id}.ipynb", 4)
    source = nbformat.read(root / "source" / assignment_id / f"{assignment_id}.ipynb", 4)
    mistakes = simulate.mistakes_of(ROOT, assignment_id)
    kinds = ["correct", "correct", "partly_done", "blank", "mistake"]
    for n in range(students):
        kind = rng.choice(kinds)
        if kind == "correct":
            notebook = simulate.correct(release, source)
        elif kind == "partly_done":
            notebook = simulate.partly_done(release, source)
        elif kind == "blank":
            notebook = release
        else:
            notebook = simulate.with_mistake(release, source, mistakes[n % len(mistakes)])
        course.submit(f"s{n:03d}", assignment_id, notebook)
    register_assignments(root, [assignment_id], log=lambda _: None)
    return course


class PeakMemory:
    """Samples the RSS of each direct child process tree (a worker and its kernels)."""

    def __init__(self, interval=0.2):
        self.interval, self.peaks, self.running = interval, {}, True
        self.thread = threading.Thread(target=self.sample, daemon=True)

    def sample(self):
        me = psutil.Process()
        while self.running:
            for child in me.children():
                try:
                    tree = [child, *child.children(recursive=True)]
                    rss = sum(p.memory_info().rss for p in tree)
                except psutil.Error:
                    continue
                self.peaks[child.pid] = max(self.peaks.get(child.pid, 0), rss)
            time.sleep(self.interval)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.running = False
        self.thread.join()


def timed(action):
    cpu, wall = children_cpu(), time.monotonic()
    action()
    return time.monotonic() - wall, children_cpu() - cpu


def import_torch_cpu(repeat=3):
    _, cpu = timed(lambda: [subprocess.run([sys.executable, "-c", "import torch"], check=True)
                            for _ in range(repeat)])
    return cpu / repeat


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--assignment", default="01_attention_by_hand")
    args = parser.parse_args()
    n, assignment_id = args.students, args.assignment
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as scratch:
        plain = make_class(Path(scratch) / "plain", assignment_id, n, random.Random(0))
        with open(plain.root / "nbgrader_config.py", "a") as config:
            config.write(nbgrader_pipeline())
        kit = make_class(Path(scratch) / "kit", assignment_id, n, random.Random(0))
        limits = make_class(Path(scratch) / "limits", assignment_id, n, random.Random(0))
        print(f"{n} notebooks of {assignment_id}; {os.cpu_count()} cores")
        plain_wall, plain_cpu = timed(lambda: run_nbgrader(plain.root, "autograde",
                                                            assignment_id))
        print(f"plain nbgrader autograde: {plain_wall:.0f} s")
        with PeakMemory() as memory:
            kit_wall, kit_cpu = timed(lambda: grade(kit.root, [assignment_id],
                                                    workers=args.workers, log=lambda _: None))
        print(f"kit grade --workers {args.workers} (full sandbox): {kit_wall:.0f} s")
        limits_wall, limits_cpu = timed(lambda: grade(
            limits.root, [assignment_id], workers=args.workers, log=lambda _: None,
            isolation="limits"))
        print(f"kit grade --workers {args.workers} (limits only): {limits_wall:.0f} s")
        torch_cpu = import_torch_cpu()
    plain_rate, kit_rate = 60 * n / plain_wall, 60 * n / kit_wall
    per_worker = args.workers / n  # each worker grades n / workers notebooks in a row
    print()
    print(f"notebooks per minute   plain nbgrader {plain_rate:6.1f}   kit {kit_rate:6.1f}   "
          f"ratio {kit_rate / plain_rate:.2f}x")
    print(f"CPU s per notebook     plain nbgrader {plain_cpu / n:6.2f}   kit {kit_cpu / n:6.2f}"
          f"   bare `python -c 'import torch'` {torch_cpu:.2f}")
    print(f"sandbox cost per notebook (full minus limits only): "
          f"{(kit_wall - limits_wall) * per_worker:+.2f} s wall, "
          f"{(kit_cpu - limits_cpu) / n:+.2f} CPU s")
    peaks = sorted(memory.peaks.values(), reverse=True)[: args.workers]
    print("peak memory per worker (worker + its kernel): "
          + ", ".join(f"{p / 2**20:.0f} MiB" for p in peaks))


if __name__ == "__main__":
    main()
