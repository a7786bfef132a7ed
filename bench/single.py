"""Benchmark: one notebook, cold. How long from `python -m autograder grade --student S` to its
score in the gradebook, where that time goes, and the same notebook by plain nbgrader.

A course with one assignment (default 01) and a correct notebook for each run is made in a
scratch folder. Each run is a new process tree with nothing warm (no template, no cluster, no
cache of the kit's); the kit's modules are compiled first, as installing it compiles them
(grading.compile_kit). Printed per run: the wall time from the command's launch to its exit,
the CPU seconds of every process it started, and the timeline the kit's processes wrote
(autograder/plumbing/timeline.py: KIT_TIMELINE), each moment in seconds since the launch. Then plain
`nbgrader autograde` of another correct notebook of the same course, with nbgrader's own
autograde stages (bench/grading.py's baseline), as many times. Between the two, warm:
`python -m autograder serve` is started in the course (and waited for), and as many more
notebooks are graded with the same command, which hands itself to serve
(serve/commands.py); printed per run: its wall time and the CPU of the command and of serve's
processes. Last, the floor no cold grade goes under: a new Python that only imports torch,
as many times (every kernel runs the student's torch code, so some process of a cold grade
imports it before the first cell can run).

Memory is sampled on one more run of each kind, which is not timed: the peak of the
proportional set size summed over the command's processes (or serve's), shared pages divided
among them, every 20 ms. Sampling reads each process's whole /proc/PID/smaps, which for a
process holding torch costs enough CPU to slow a timed run by 0.4-0.7 s on two cores.

    .venv/bin/python bench/single.py [--assignment ID] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
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
sys.path.insert(0, str(ROOT / "bench"))

from grading import compile_kit, make_class, nbgrader_pipeline  # noqa: E402

from autograder.plumbing.timeline import VARIABLE  # noqa: E402


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class PeakMemory:
    """The peak, over samples every 20 ms, of the PSS summed over a process and its
    descendants (the kernel template and its kernels included)."""

    def __init__(self, pid):
        self.pid, self.peak, self.done = pid, 0, threading.Event()
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self):
        while not self.done.is_set():
            try:
                top = psutil.Process(self.pid)
                processes = [top, *top.children(recursive=True)]
            except psutil.Error:
                break
            total = 0
            for process in processes:
                try:
                    total += process.memory_full_info().pss
                except psutil.Error:
                    continue
            self.peak = max(self.peak, total)
            time.sleep(0.02)

    def stop(self):
        self.done.set()
        self.thread.join()
        return self.peak


def timed(command, cwd, env):
    """(start time, wall s, CPU s) of `command`, not observed while it runs; it must exit
    0."""
    cpu, started = children_cpu(), time.time()
    done = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    wall = time.time() - started
    if done.returncode:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}")
    return started, wall, children_cpu() - cpu


def peak_of(command, cwd, env):
    """The peak PSS in MiB over the processes of `command` (PeakMemory), on a run of its own,
    not timed; it must exit 0."""
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    memory = PeakMemory(process.pid)
    output = process.communicate()[0]
    peak = memory.stop()
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} exited {process.returncode}:\n{output}")
    return peak / 2**20


def timeline(path: Path, started):
    """The moments the kit's processes marked, in seconds since the launch."""
    if not path.exists():
        return []
    pids, rows = {}, []
    for line in path.read_text().splitlines():
        moment, pid, what = line.split(" ", 2)
        pids.setdefault(pid, len(pids))
        rows.append((float(moment) - started, pids[pid], what))
    return sorted(rows)


def make_course(folder: Path, assignment_id, runs):
    from autograder.tools import simulate  # not at the top: grading.py says why

    course = make_class(folder, assignment_id, 0, random.Random(0))
    release = nbformat.read(folder / "release" / assignment_id / f"{assignment_id}.ipynb", 4)
    source = nbformat.read(folder / "source" / assignment_id / f"{assignment_id}.ipynb", 4)
    for n in range(3 * runs + 3):  # and one more of each kind, sampled for memory
        course.submit(f"s{n}", assignment_id, simulate.correct(release, source))


def tree_cpu(process):
    """CPU seconds of a process and its children so far."""
    total = 0.0
    for each in [process, *process.children(recursive=True)]:
        try:
            times = each.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def warm_runs(course: Path, env, students, sampled):
    """[(wall s, CPU s of the command and of serve)] of grading each of `students` through a
    `serve` started here first, and serve's peak PSS in MiB while it grades `sampled` after
    them (not timed)."""
    serve = subprocess.Popen([sys.executable, "-m", "autograder", "serve"], cwd=course,
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
    try:
        if "serving " not in serve.stdout.readline():
            raise SystemExit("serve did not start")
        time.sleep(3)  # its template imports: a serve runs for hours before such a command
        server, rows = psutil.Process(serve.pid), []
        for student in students:
            before = tree_cpu(server)
            _, wall, cpu = timed(grade_command(student), course, env)
            rows.append((wall, cpu + tree_cpu(server) - before))
            print(f"kit grade, one notebook, warm (serve running): {wall:.2f} s wall, "
                  f"{rows[-1][1]:.2f} CPU s with serve's")
        memory = PeakMemory(serve.pid)
        timed(grade_command(sampled), course, env)
        return rows, memory.stop() / 2**20
    finally:
        serve.terminate()
        serve.wait(timeout=60)


IMPORT_TORCH = [sys.executable, "-c", "import torch"]


def grade_command(student):
    return [sys.executable, "-m", "autograder", "grade", "--student", student]


def measure(assignment_id, runs):
    """The figures of one notebook of `assignment_id`, printed as they come: {"cold": [(wall
    s, CPU s)] of the kit's grade, one a run; "plain": the same of plain nbgrader's
    autograde; "warm": the same of grades handed to serve; "torch": the same of a new Python
    importing torch; "cold peak", "plain peak", "serve": the peak PSS in MiB of a cold grade's
    processes, of plain nbgrader's and of serve's while it grades, each sampled on a run of
    its own}."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    students = [f"s{n}" for n in range(3 * runs + 3)]
    cold, warm, plain = students[:runs], students[runs:2 * runs], students[2 * runs:3 * runs]
    with tempfile.TemporaryDirectory(prefix="kit-single-") as scratch:
        course = Path(scratch) / "course"
        make_course(course, assignment_id, runs)
        figures = {"cold": [], "plain": []}
        for n, student in enumerate(cold):
            path = Path(scratch) / f"timeline-{n}.txt"
            started, wall, cpu = timed(grade_command(student), course,
                                       dict(env, **{VARIABLE: str(path)}))
            figures["cold"].append((wall, cpu))
            print(f"kit grade, one notebook, cold: {wall:.2f} s wall, {cpu:.2f} CPU s")
            for moment, process, what in timeline(path, started):
                print(f"    {moment:6.2f} s  process {process}  {what}")
        figures["cold peak"] = peak_of(grade_command(students[-3]), course, env)
        print(f"kit grade, one notebook, cold, one more run sampled for memory: peak "
              f"{figures['cold peak']:.0f} MiB PSS over its processes")
        figures["warm"], figures["serve"] = warm_runs(course, env, warm, students[-2])
        print(f"serve's peak while it grades one more: {figures['serve']:.0f} MiB PSS over "
              "its processes")
        config = course / "nbgrader_config.py"
        config.write_text(config.read_text() + "\n" + nbgrader_pipeline())
        for student in plain:
            _, wall, cpu = timed(nbgrader_autograde(assignment_id, student), course, env)
            figures["plain"].append((wall, cpu))
            print(f"plain nbgrader autograde, one notebook: {wall:.2f} s wall, {cpu:.2f} CPU "
                  "s")
        figures["plain peak"] = peak_of(nbgrader_autograde(assignment_id, students[-1]),
                                        course, env)
        print(f"plain nbgrader autograde, one more run sampled for memory: peak "
              f"{figures['plain peak']:.0f} MiB PSS")
        figures["torch"] = []
        for _ in range(runs):
            _, wall, cpu = timed(IMPORT_TORCH, course, env)
            figures["torch"].append((wall, cpu))
            print(f"a new Python importing torch, nothing else: {wall:.2f} s wall, {cpu:.2f} "
                  "CPU s")
    return figures


def nbgrader_autograde(assignment_id, student):
    return ["nbgrader", "autograde", assignment_id, "--student", student]


def best_line(figures):
    """The best of each kind of run, in one line."""
    kit, plain, warm = min(figures["cold"]), min(figures["plain"]), min(figures["warm"])
    return (f"best of {len(figures['cold'])}: kit {kit[0]:.2f} s wall ({kit[1]:.2f} CPU s, "
            f"{figures['cold peak']:.0f} MiB), plain nbgrader {plain[0]:.2f} s wall "
            f"({plain[1]:.2f} CPU s, {figures['plain peak']:.0f} MiB); kit / nbgrader wall "
            f"{kit[0] / plain[0]:.2f}; warm through serve {warm[0]:.2f} s wall ({warm[1]:.2f} "
            f"CPU s), serve {figures['serve']:.0f} MiB; torch's import alone "
            f"{min(figures['torch'])[0]:.2f} s wall")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--assignment", default="01_attention_by_hand")
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    compile_kit()
    print("\n" + best_line(measure(arguments.assignment, arguments.runs)))


if __name__ == "__main__":
    main()
