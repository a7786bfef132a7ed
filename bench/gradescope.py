"""Benchmark: one Gradescope run, cold, its wall time and its memory.

The zip of `python -m autograder gradescope 01_attention_by_hand` is laid out as Gradescope's
/autograder in a scratch folder with a correct upload, and run_autograder grades it --runs
times, each a new process tree with nothing warm (as every upload on Gradescope is), each in
a memory cgroup of its own (cgroup v1 or v2, as root). Printed for each run: the wall time, the
score, and the memory three ways:
  - the cgroup's peak (what a container's limit is held against; it counts files read into
    the page cache, which the kernel reclaims before refusing memory);
  - the peak of the processes' own memory (anonymous pages, the cgroup's rss/anon, sampled);
  - the peak of their resident sizes summed (shared pages counted in each process).
Then, with --limit-mb (default 768, Gradescope's default container), one more run whose
cgroup may not use more: does the upload still get its 10 points?

By default run_autograder uses this environment's Python (KIT_GRADESCOPE_PYTHON), the lock's
versions; --setup builds the image with the zip's own setup.sh and Debian's python3.11 first
(a few minutes), as tests/autograder/gradescope/test_image.py does.

    .venv/bin/python bench/gradescope.py [--runs 3] [--limit-mb 768] [--setup]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.tools import simulate  # noqa: E402
from tests.autograder.gradescope.conftest import (  # noqa: E402
    ID,
    gradescope_zip,
    lay_out,
    notebooks,
    scratch_course,
)
from tests.autograder.gradescope.test_image import clean_env  # noqa: E402

MIB = 1 << 20
NOT_ROOT = ("bench/gradescope.py makes memory cgroups: run it as root, as Gradescope runs "
            "run_autograder")


class MemoryCgroup:
    """A memory cgroup of its own below this process's (v2 where mounted so, else v1)."""

    def __init__(self, name, limit=None):
        v2 = Path("/sys/fs/cgroup/cgroup.controllers").exists()
        base = Path("/sys/fs/cgroup") if v2 else Path("/sys/fs/cgroup/memory")
        own = own_cgroup("" if v2 else "memory")
        self.v2, self.path = v2, base / own.lstrip("/") / name
        self.path.mkdir()
        if limit is not None:
            self.write("memory.max" if v2 else "memory.limit_in_bytes", str(limit))

    def write(self, name, value):
        (self.path / name).write_text(value)

    def read(self, name):
        return (self.path / name).read_text()

    def peak(self):
        name = "memory.peak" if self.v2 else "memory.max_usage_in_bytes"
        return int(self.read(name)) if (self.path / name).exists() else 0

    def anon(self):
        stat = dict(line.split() for line in self.read("memory.stat").splitlines())
        return int(stat.get("anon" if self.v2 else "total_rss", 0))

    def processes(self):
        return [int(p) for p in self.read("cgroup.procs").split()]

    def remove(self):
        for _ in range(50):
            try:
                self.path.rmdir()
                return
            except OSError:
                time.sleep(0.1)


def own_cgroup(controller):
    """This process's cgroup path for `controller` ("" for v2's unified one)."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controllers.split(",") == [controller] or (not controller and not controllers):
            return path
    raise RuntimeError(f"no cgroup of {controller or 'v2'} for this process")


def summed_rss(pids):
    total = 0
    for pid in pids:
        try:
            total += psutil.Process(pid).memory_info().rss
        except psutil.Error:
            pass
    return total


def one_run(image, env, number, limit=None):
    """Grade the upload once in a cgroup of its own: (seconds, score, cgroup peak, anon peak,
    summed RSS peak), the memory in bytes."""
    for folder in ("results",):
        for path in (image / folder).glob("*"):
            path.unlink()
    cgroup = MemoryCgroup(f"kit-bench-{os.getpid()}-{number}", limit)
    peaks = {"anon": 0, "rss": 0}
    done = threading.Event()

    def sample():
        while not done.is_set():
            peaks["anon"] = max(peaks["anon"], cgroup.anon())
            peaks["rss"] = max(peaks["rss"], summed_rss(cgroup.processes()))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    started = time.perf_counter()
    process = subprocess.Popen(["sh", "-c", f'echo $$ > {cgroup.path}/cgroup.procs && '
                                f'exec "{image}/run_autograder"'], cwd=image, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sampler.start()
    output = process.communicate(timeout=900)[0]
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    peak = cgroup.peak()
    cgroup.remove()
    results = image / "results" / "results.json"
    score = json.loads(results.read_text())["score"] if results.exists() else None
    if process.returncode != 0 or score is None:
        print(output[-2000:])
    return seconds, score, peak, peaks["anon"], peaks["rss"]


def build_image(folder, archive, course, setup):
    release, source = notebooks(course)
    upload = nbformat.writes(simulate.correct(release, source)).encode()
    image = lay_out(folder / "autograder", archive, {f"{ID}.ipynb": upload})
    if not setup:
        return image, {**os.environ, "KIT_GRADESCOPE_ROOT": str(image),
                       "KIT_GRADESCOPE_PYTHON": sys.executable}
    env = clean_env(image)
    started = time.perf_counter()
    subprocess.run(["bash", str(image / "source" / "setup.sh")], cwd=image, env=env,
                   check=True, capture_output=True, timeout=1800)
    print(f"setup.sh built the image in {time.perf_counter() - started:.0f} s")
    return image, env


def measure(runs, limit_mb=0, setup=False):
    """Cold runs of one upload, printed as they come: (the best wall s, the largest memory
    of the processes' own in bytes); with `limit_mb`, one more run within that limit."""
    with tempfile.TemporaryDirectory(prefix="kit-bench-gradescope-") as scratch:
        folder = Path(scratch)
        folder.chmod(0o755)
        course = scratch_course(folder / "course")
        archive = gradescope_zip(course, folder / "autograder.zip")
        image, env = build_image(folder, archive, course, setup)
        print(f"{'run':>5} {'wall s':>7} {'score':>6} {'cgroup peak':>12} {'own memory':>11} "
              f"{'summed RSS':>11}")
        figures = []
        for number in range(1, runs + 1):
            seconds, score, peak, anon, rss = one_run(image, env, number)
            figures.append((seconds, peak, anon))
            print(f"{number:>5} {seconds:>7.1f} {score!s:>6} {peak / MIB:>8.0f} MiB "
                  f"{anon / MIB:>7.0f} MiB {rss / MIB:>7.0f} MiB", flush=True)
        best, own = min(figures)[0], max(f[2] for f in figures)
        print(f"cold run: best {best:.1f} s wall; memory at most "
              f"{max(f[1] for f in figures) / MIB:.0f} MiB in the cgroup, "
              f"{own / MIB:.0f} MiB of the processes' own")
        if limit_mb:
            seconds, score, peak, anon, rss = one_run(image, env, "limited", limit_mb * MIB)
            verdict = "graded, 10 points" if score == 10 else f"score {score}"
            print(f"within {limit_mb} MB: {verdict} in {seconds:.1f} s "
                  f"(own memory {anon / MIB:.0f} MiB)")
    return best, own


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit-mb", type=int, default=768)
    parser.add_argument("--setup", action="store_true",
                        help="build the image with the zip's setup.sh and Debian's python3.11")
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit(NOT_ROOT)
    measure(args.runs, args.limit_mb, args.setup)


if __name__ == "__main__":
    main()
