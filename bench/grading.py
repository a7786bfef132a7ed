"""Benchmark: plain sequential `nbgrader autograde` against the kit's `grade` on dask.

One simulated class (default 100 notebooks of assignment 01: correct, partly done, blank and
each catalogued mistake) is graded from identical copies of the course: by nbgrader's own
command with nbgrader's own autograde pipeline (a fresh kernel per notebook, the checks in
it), then by the kit (warm kernels forked from a template, verdicts outside the kernel) on its
embedded cluster with 1 worker and with --workers, in its full sandbox and with limits only,
and on an external cluster (a `dask scheduler` and --workers `dask worker` processes started
here). Prints notebooks per minute of each, CPU seconds per notebook beside a bare
`python -c "import torch"`, the sandbox's cost per notebook (full minus limits only), the
engine's own cost per task (a task that does nothing, carrying what a grading task carries,
through the same window), feedback pages per minute of `nbgrader generate_feedback`
and of the kit's `feedback`, and the peak memory of each kit worker (the worker, its
kernel template and the kernels forked from it; shared pages are counted in each), sampled on
one more grade of its own, which is not timed. Then each way of the full sandbox this machine
has (namespaces as root, user namespaces, Landlock) and limits only, each a `grade` command of
its own, against the first (--modes-only: only these).

--every-assignment: only plain nbgrader against the kit's grade --workers (full sandbox), on
a class of --students notebooks of each of the course's assignments in turn (made as above,
the same class each way); a row per assignment: notebooks per minute of each, the ratio (the
kit's over plain's), CPU seconds per notebook of each and the peak memory of the kit's largest
worker (sampled on one more grade, not timed); then the lowest ratio and its assignment.

--feedback: only feedback pages, of a class of --students notebooks of --assignment graded
by plain nbgrader in one course and by the kit in another: pages a minute of `nbgrader
generate_feedback` and of the kit's `feedback`, then one page, cold, by each command as a new
process (three times; the best is the figure). The kit's class is written by write_feedback
in this process, its imports done, as `serve` writes a `feedback` handed to it: up to some
160 pages on two workers, that is in this process itself (engine/run_size.py; the line says
which), where `python -m autograder feedback` run alone takes workers from 26 pages on.

--mixed: only plain nbgrader against the kit on one class of every assignment: --students
students, each handing in all of them, each notebook drawn in the demo's shares (correct,
partly done, blank, a catalogued mistake; autograder/tools/demo.py), and one notebook, picked
at random, whose last function never returns. Plain nbgrader autogrades each assignment in
turn, a cell limited to the kit's c.GradeInSandbox.cell_timeout of the course's config (as
ExecutePreprocessor.timeout; the kit's limit on a notebook's cells in all has no counterpart
there); the kit grades them all in one grade --workers. Prints the class's make-up, the wall
time and CPU seconds per notebook of each, and the ratio.

    .venv/bin/python bench/grading.py [--students 100] [--workers 2] [--assignment ID]
    .venv/bin/python bench/grading.py --modes-only [--students 100] [--workers 2] [--assignment ID]
    .venv/bin/python bench/grading.py --every-assignment [--students 100] [--workers 2]
    .venv/bin/python bench/grading.py --mixed [--students 100] [--workers 2]
    .venv/bin/python bench/grading.py --feedback [--students 100] [--workers 2] [--assignment ID]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat
import psutil
from distributed import Client, as_completed
from nbgrader.converters import Autograde, GenerateFeedback

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.checks.loader import assignment_ids  # noqa: E402
from autograder.course.directory import Course, course_config, run_nbgrader  # noqa: E402
from autograder.engine.bundle import assignment_bundle, submission_of  # noqa: E402
from autograder.engine.cluster import close_client, sent_once, start_client  # noqa: E402
from autograder.grading.grade_in_sandbox import GradeInSandbox  # noqa: E402
from autograder.grading.parallel import grade, register_assignments  # noqa: E402
from autograder.sandbox.handover import holder  # noqa: E402

# The embedded cluster's workers import this script again, as __mp_main__ (multiprocessing's
# fork server runs the main module in each), as they import the kit's light __main__ when the
# kit runs as a command: what only the bench uses is imported where it is used (the demo and
# the feedback pages bring matplotlib: 0.34 s a worker), so that no worker pays for it.


def compile_kit():
    """The kit's own modules compiled, as pip compiles a wheel's as it installs it (and as
    Python does at the kit's first run where bytecode may be written): in a shell with
    PYTHONDONTWRITEBYTECODE set, every run of the bench would compile them from source again
    (some 50 ms of a cold grade), which nothing the kit's users run does. nbgrader's and the
    other libraries' were compiled when they were installed."""
    import compileall

    for package in ("autograder", "assignments", "solutions"):
        compileall.compile_dir(ROOT / package, quiet=1)


def nbgrader_pipeline():
    """Config lines that put back nbgrader's own autograde and feedback stages (the checks
    then run in the student's kernel, the page is nbgrader's HTML): the benchmark's baseline,
    read from nbgrader's defaults."""
    lines = ["# The benchmark's baseline: nbgrader's own autograde and feedback stages."]
    for converter, names in ((Autograde, ("sanitize_preprocessors", "autograde_preprocessors")),
                             (GenerateFeedback, ("preprocessors",))):
        traits = converter.class_traits()
        for name in names:
            stages = [f"{s.__module__}.{s.__name__}" for s in traits[name].default()]
            lines.append(f"c.{converter.__name__}.{name} = {stages!r}")
    lines.append("c.GenerateFeedback.exporter_class = 'nbconvert.exporters.HTMLExporter'")
    return "\n".join(lines) + "\n"


def grade_with_nbgrader_pipeline(root: Path, cell_timeout=None):
    """Make the course at `root` the baseline: nbgrader_pipeline in its config, and, when
    given, nbgrader's limit on a cell (ExecutePreprocessor.timeout, whole seconds)."""
    lines = nbgrader_pipeline()
    if cell_timeout is not None:
        lines += f"c.ExecutePreprocessor.timeout = {math.ceil(cell_timeout)}\n"
    with open(root / "nbgrader_config.py", "a") as config:
        config.write(lines)


def kit_cell_timeout(root: Path):
    """Seconds the kit lets a cell, or one step's checks, run when it grades the course at
    `root`: its c.GradeInSandbox.cell_timeout, else the setting's default."""
    default = GradeInSandbox.class_traits()["cell_timeout"].default()
    return course_config(root).GradeInSandbox.get("cell_timeout", default)


def used_cpu():
    """CPU seconds of this process (the kit's client) and its finished children."""
    return sum(u.ru_utime + u.ru_stime for u in (resource.getrusage(resource.RUSAGE_SELF),
                                                  resource.getrusage(resource.RUSAGE_CHILDREN)))


def new_course(root: Path, ids):
    """A course at `root` with the repository's config and master notebooks of `ids`, and
    their student versions copied from release/ (building them is not what is measured)."""
    course = Course.create(root, ROOT, ids)
    for assignment_id in ids:
        shutil.copytree(ROOT / "release" / assignment_id, root / "release" / assignment_id)
    return course


def versions(root: Path, assignment_id):
    """(student version, master notebook) of one assignment of the course at `root`."""
    return tuple(nbformat.read(root / top / assignment_id / f"{assignment_id}.ipynb", 4)
                 for top in ("release", "source"))


def hand_in_class(course, ids, plan):
    """Each notebook of `plan` ({(student, assignment): (kind, mistake)}, as the demo plans
    its class) in submitted/, made as the demo makes it, then the assignments registered in
    the gradebook, so that no timed run pays for that."""
    from autograder.tools import demo

    notebooks = {assignment_id: versions(course.root, assignment_id) for assignment_id in ids}
    for (student, assignment_id), (kind, mistake) in sorted(plan.items()):
        course.submit(student, assignment_id,
                      demo.hand_in(kind, mistake, *notebooks[assignment_id]))
    register_assignments(course.root, ids, log=lambda _: None)
    return course


def one_assignment_plan(assignment_id, students, rng):
    """The default class: `students` notebooks of one assignment, two in five correct, one in
    five each partly done, blank and with a mistake (each catalogued mistake in turn)."""
    from autograder.tools import simulate

    mistakes = simulate.mistakes_of(ROOT, assignment_id)
    kinds = ["correct", "correct", "partly_done", "blank", "mistake"]
    plan = {}
    for n in range(students):
        kind = rng.choice(kinds)
        plan[(f"s{n:03d}", assignment_id)] = (
            kind, mistakes[n % len(mistakes)] if kind == "mistake" else None)
    return plan


def make_class(root: Path, assignment_id, students, rng):
    return hand_in_class(new_course(root, [assignment_id]), [assignment_id],
                         one_assignment_plan(assignment_id, students, rng))


def worker_processes(client):
    """{a worker: the processes it grades with}: the client's children, but
    multiprocessing's fork server, which the embedded cluster's workers are forked from, in
    its children's place (its own memory is shared with them, counted in each); each worker
    with its copy of the kernel template and the copy's kernels, whether the worker started a
    template or took a copy of the one the client started (autograder/sandbox/handover.py;
    the copies share that template's memory, counted in each)."""
    workers, copies = {}, []
    for child in client.children():
        try:
            command = child.cmdline()
            if "--listen" in command:
                pool = command[command.index("--listen") + 1]
                copies += [(copy, pool) for copy in child.children()]
            elif "multiprocessing.forkserver" in " ".join(command):
                workers.update((worker, []) for worker in child.children())
            else:
                workers[child] = []
        except psutil.Error:
            continue
    for copy, pool in copies:
        owner = next((w for w in workers if w.pid == holder(pool, copy.pid)), None)
        if owner is not None:
            workers[owner].append(copy)
    return workers


class PeakMemory:
    """Samples the memory of each worker with its template and kernels (worker_processes):
    the RSS summed (pages the processes share counted in each) and the PSS summed (each shared
    page divided among the processes that share it, those of other workers included: what the
    worker costs the machine), and keeps each one's peak in the first and in the second half of
    the run: a worker whose memory grew with the notebooks it graded peaks higher in the
    second."""

    def __init__(self, interval=0.2):
        self.interval, self.samples, self.running = interval, [], True
        self.thread = threading.Thread(target=self.sample, daemon=True)

    def sample(self):
        me = psutil.Process()
        while self.running:
            for child, templates in worker_processes(me).items():
                try:
                    tree = [process for root in (child, *templates)
                            for process in (root, *root.children(recursive=True))]
                    used = [p.memory_full_info() for p in tree]
                except psutil.Error:
                    continue
                self.samples.append((time.monotonic(), child.pid, sum(u.rss for u in used),
                                     sum(u.pss for u in used)))
            time.sleep(self.interval)

    def peaks(self, half=None, pss=False):
        """{pid: peak RSS, or PSS} over the run, or over its first (half=0) or second (1)
        half."""
        if not self.samples:
            return {}
        middle = (self.samples[0][0] + self.samples[-1][0]) / 2
        peaks = {}
        for at, pid, rss, proportional in self.samples:
            if half is None or (at >= middle) == bool(half):
                peaks[pid] = max(peaks.get(pid, 0), proportional if pss else rss)
        return peaks

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.running = False
        self.thread.join()


def timed(action):
    cpu, wall = used_cpu(), time.monotonic()
    action()
    return time.monotonic() - wall, used_cpu() - cpu


class ExternalCluster:
    """A `dask scheduler` and `workers` `dask worker` processes on loopback, as the clusters
    page (docs/instructors/clusters.md) starts them on grading hosts."""

    def __init__(self, folder: Path, workers):
        dask = str(Path(sys.executable).with_name("dask"))
        address_file = folder / "scheduler.json"
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        self.processes = [subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(address_file)], **quiet)]
        while not address_file.exists():
            time.sleep(0.2)
        self.address = json.loads(address_file.read_text())["address"]
        self.processes += [subprocess.Popen(
            [dask, "worker", self.address, "--nthreads", "1", "--no-dashboard",
             "--preload", "autograder.engine.worker"], cwd=folder, **quiet)
            for _ in range(workers)]
        with Client(self.address) as client:
            client.wait_for_workers(workers, timeout=120)

    def close(self):
        for process in reversed(self.processes):
            process.send_signal(signal.SIGINT)
            process.wait(timeout=60)


def noop(bundle, submission, overrides, version):
    """A task that carries what a grading task carries and does nothing."""


def engine_cost(root: Path, assignment_id, workers, tasks=200):
    """(wall ms, CPU ms) per task of the engine alone: `tasks` tasks that do nothing, with a
    real bundle (sent once, as grading sends it) and submission, kept in flight as grading
    keeps them."""
    client = start_client(course_config(root), workers, None, root / "grade.log",
                          lambda _: None)
    try:
        bundle = sent_once(client, assignment_bundle(root, assignment_id))  # as grade_all
        student = sorted(p.name for p in (root / "submitted").iterdir())[0]
        submission = submission_of(root, student, assignment_id)
        client.submit(noop, bundle, submission, {}, "", pure=False).result()  # warm up
        cpu, wall = used_cpu(), time.monotonic()
        flow, sent = as_completed(), 0
        while sent < min(tasks, workers):
            flow.add(client.submit(noop, bundle, submission, {}, "", pure=False))
            sent += 1
        for _ in flow:
            if sent < tasks:
                flow.add(client.submit(noop, bundle, submission, {}, "", pure=False))
                sent += 1
        wall, cpu = time.monotonic() - wall, used_cpu() - cpu
    finally:
        close_client(client)
    return 1000 * wall / tasks, 1000 * cpu / tasks


def import_torch_cpu(repeat=3):
    _, cpu = timed(lambda: [subprocess.run([sys.executable, "-c", "import torch"], check=True)
                            for _ in range(repeat)])
    return cpu / repeat


def sandbox_modes(course, assignment_id, workers, n):
    """Notebooks per minute and CPU s per notebook of each way of building the full sandbox
    this machine has (sandbox/isolation.py; KIT_SANDBOX names it), and of limits only: a
    `python -m autograder grade --force` of its own each, on the same course, so that each
    starts as a user's command does."""
    from autograder.sandbox.isolation import FULL, available

    found = available()
    rows = {}

    def run(command, env):
        subprocess.run(command, cwd=course, env=env, capture_output=True)  # 1: a refused input

    grade_command = [sys.executable, "-m", "autograder", "grade", "--force", "--workers",
                     str(workers)]
    run(grade_command, os.environ)  # untimed: the assignment's registration, once
    config = course / "nbgrader_config.py"
    for mode in [m for m in FULL if found[m] is None] + ["limits"]:
        env = dict(os.environ, **({"KIT_SANDBOX": mode} if mode != "limits" else {}))
        if mode == "limits":  # chosen in the course's settings, as an instructor would
            config.write_text(config.read_text() + '\nc.GradeInSandbox.isolation = "limits"\n')
        wall, cpu = timed(lambda env=env: run(grade_command, env))
        rows[mode] = (60 * n / wall, cpu / n)
        print(f"kit grade --workers {workers} ({mode}): {wall:.0f} s")
    base = rows[next(iter(rows))][0]
    print("sandbox ways           " + "   ".join(
        f"{mode} {rate:6.1f}/min {cpu:.2f} CPU s ({rate / base - 1:+.0%})"
        for mode, (rate, cpu) in rows.items()))


def memory_of_a_grade(root: Path, ids, workers):
    """The PeakMemory of a grade of `ids` in the course at `root`, a run of its own, not
    timed: reading every process's memory five times a second took CPU from the workers
    (about 9% of a timed run's wall time)."""
    with PeakMemory() as memory:
        grade(root, ids, workers=workers, log=lambda _: None)
    return memory


def plain_then_kit(plain: Path, kit: Path, ids, workers):
    """((wall s, CPU s) of plain `nbgrader autograde` of each of `ids` in turn in the course
    `plain`, (wall s, CPU s) of one kit grade of them all in the course `kit`, the kit's
    GradeRun)."""
    plain_times = timed(lambda: [run_nbgrader(plain, "autograde", a) for a in ids])
    runs = []
    kit_times = timed(lambda: runs.append(grade(kit, ids, workers=workers,
                                                log=lambda _: None)))
    return plain_times, kit_times, runs[0]


ROW = "{:<30} {:>9} {:>9} {:>8} {:>14} {:>12} {:>17}"


def assignment_row(scratch: Path, assignment_id, students, workers):
    """(ratio, the largest worker's peak PSS in bytes, the printed row) of one assignment for
    --every-assignment: its class of `students` notebooks graded by plain nbgrader and by the
    kit, each on a copy of its own, and the largest peak memory of a kit worker on a third
    copy."""
    def course(name):
        return make_class(scratch / name, assignment_id, students, random.Random(0)).root

    plain, kit = course("plain"), course("kit")
    grade_with_nbgrader_pipeline(plain)
    (plain_wall, plain_cpu), (kit_wall, kit_cpu), _ = plain_then_kit(
        plain, kit, [assignment_id], workers)
    memory = memory_of_a_grade(course("memory"), [assignment_id], workers)
    rss, pss = (max(memory.peaks(pss=pss).values(), default=0) for pss in (False, True))
    ratio = plain_wall / kit_wall
    return ratio, pss, ROW.format(assignment_id, f"{60 * students / plain_wall:.1f}",
                             f"{60 * students / kit_wall:.1f}", f"{ratio:.2f}x",
                             f"{plain_cpu / students:.2f}", f"{kit_cpu / students:.2f}",
                             f"{rss / 2**20:.0f} / {pss / 2**20:.0f}")


def every_assignment(students, workers):
    """--every-assignment: a row per assignment of the course as it is graded, then the
    lowest ratio. Each assignment's courses are deleted before the next is made. Returns
    {assignment: (ratio, its largest worker's peak PSS in bytes)}."""
    print(f"{students} notebooks of each assignment; {os.cpu_count()} cores; kit grade "
          f"--workers {workers}, full sandbox")
    print("ratio: the kit's notebooks per minute over plain nbgrader's; the kit's peak: its "
          "largest worker's, with its template and kernels, on one more grade, not timed, as "
          "RSS summed (shared pages counted in each process) / PSS summed")
    print(ROW.format("assignment", "plain/min", "kit/min", "ratio", "plain CPU s/nb",
                     "kit CPU s/nb", "peak RSS/PSS MiB"))
    figures = {}
    for assignment_id in assignment_ids(ROOT):
        with tempfile.TemporaryDirectory(prefix="kit-bench-") as scratch:
            *figures[assignment_id], row = assignment_row(Path(scratch), assignment_id,
                                                          students, workers)
        print(row, flush=True)
    lowest = min(figures, key=lambda a: figures[a][0])
    print(f"lowest ratio: {figures[lowest][0]:.2f}x ({lowest})")
    return figures


def kit_pages_where(pages, workers):
    """How write_feedback, called in this process (its imports done), writes `pages` pages
    with `workers` asked (engine/run_size.py), as the figures' lines say it."""
    from autograder.engine.run_size import page_workers, pages_in_this_process

    where = ("in this process" if pages_in_this_process([pages], workers, warm=True)
             else f"on {page_workers([pages], workers)} workers")
    return f"kit write_feedback, --workers {workers} asked, {where}"


def page_commands(assignment_id, student):
    """The command lines that write one student's feedback page as a new process: plain
    nbgrader's, the kit's."""
    plain = [str(Path(sys.executable).with_name("nbgrader")), "generate_feedback",
             assignment_id, "--student", student, "--force"]
    kit = [sys.executable, "-m", "autograder", "feedback", assignment_id, "--student", student]
    return plain, kit


def feedback_figures(scratch: Path, assignment_id, students, workers, runs=3):
    """--feedback: a class of `students` notebooks of `assignment_id` graded by plain nbgrader
    in one course and by the kit in another, then every page of each written by
    `nbgrader generate_feedback` and by the kit's `feedback` (`workers` workers), then one
    page, cold, by each command as a new process, `runs` times (the best taken). Printed as
    they come; returns {"plain", "kit": pages a minute; "plain page", "kit page": the best
    wall s of one page}."""
    from autograder.outputs.feedback import write_feedback

    def course(name):
        return make_class(scratch / name, assignment_id, students, random.Random(0)).root

    plain, kit = course("plain"), course("kit")
    grade_with_nbgrader_pipeline(plain)
    run_nbgrader(plain, "autograde", assignment_id)
    grade(kit, [assignment_id], workers=workers, log=lambda _: None)
    plain_wall, _ = timed(lambda: run_nbgrader(plain, "generate_feedback", assignment_id))
    kit_wall, _ = timed(lambda: write_feedback(kit, [assignment_id], workers=workers,
                                               log=lambda _: None))
    figures = {"plain": 60 * students / plain_wall, "kit": 60 * students / kit_wall}
    print(f"{students} pages of {assignment_id}: plain nbgrader generate_feedback "
          f"{figures['plain']:.1f} a minute, {kit_pages_where(students, workers)} "
          f"{figures['kit']:.1f} a minute ({figures['kit'] / figures['plain']:.2f}x)",
          flush=True)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    walls = {"plain page": [], "kit page": []}
    for n in range(runs):
        for key, command, root in zip(walls, page_commands(assignment_id, f"s{n:03d}"),
                                      (plain, kit), strict=True):
            started = time.monotonic()
            subprocess.run(command, cwd=root, env=env, check=True, capture_output=True)
            walls[key].append(time.monotonic() - started)
    for key, seen in walls.items():
        figures[key] = min(seen)
        print(f"one page, cold, {key.split()[0]}: " + ", ".join(f"{s:.2f} s" for s in seen),
              flush=True)
    return figures


def mixed_plan(ids, students, rng):
    """The --mixed class: each of `students` hands in every one of `ids`, each notebook drawn
    as the demo draws one (demo.drawn: correct, partly done, blank, a catalogued mistake), then
    one notebook, picked at random, replaced by one whose last function never returns."""
    from autograder.tools import demo, simulate

    mistakes = {assignment_id: simulate.mistakes_of(ROOT, assignment_id) for assignment_id in ids}
    plan = {(f"s{n:03d}", assignment_id): demo.drawn(rng, mistakes[assignment_id])
            for n in range(students) for assignment_id in ids}
    plan[rng.choice(sorted(plan))] = ("looping_forever", None)
    return plan


def make_up(plan):
    """'correct 17, partly_done 8, ...; the endless loop: s002's 05_multi_head'."""
    kinds = [kind for kind, _ in plan.values()]
    looping = [f"{student}'s {a}" for (student, a), (kind, _) in plan.items()
               if kind == "looping_forever"]
    return (", ".join(f"{kind} {kinds.count(kind)}" for kind in dict.fromkeys(sorted(kinds)))
            + f"; the endless loop: {', '.join(looping)}")


def mixed(scratch: Path, students, workers):
    """--mixed: the class of mixed_plan, each assignment autograded in turn by plain nbgrader
    (a cell limited as the kit limits one, or the endless loop would never end), all of them
    in one kit grade. Returns the ratio."""
    ids = assignment_ids(ROOT)
    plan = mixed_plan(ids, students, random.Random(0))
    plain, kit = (hand_in_class(new_course(scratch / name, ids), ids, plan).root
                  for name in ("plain", "kit"))
    cell_timeout = kit_cell_timeout(kit)
    grade_with_nbgrader_pipeline(plain, cell_timeout)
    n = len(plan)
    print(f"{students} students x {len(ids)} assignments = {n} notebooks; {os.cpu_count()} "
          f"cores; {make_up(plan)}; a cell may run {cell_timeout} s in both")
    (plain_wall, plain_cpu), (kit_wall, kit_cpu), run = plain_then_kit(plain, kit, ids,
                                                                       workers)
    print(f"plain nbgrader autograde, each assignment in turn: {plain_wall:.0f} s wall, "
          f"{plain_cpu / n:.2f} CPU s per notebook")
    print(f"kit grade of all {len(ids)} in one call, --workers {workers}, full sandbox: "
          f"{kit_wall:.0f} s wall, {kit_cpu / n:.2f} CPU s per notebook ({len(run.graded)} "
          f"graded, {len(run.failed)} not graded)")
    print(f"ratio (plain wall over kit wall): {plain_wall / kit_wall:.2f}x")
    return plain_wall / kit_wall


def arguments(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=100,
                        help="notebooks of the assignment (with --every-assignment: of each "
                        "assignment; with --mixed: students, each handing in every "
                        "assignment)")
    parser.add_argument("--workers", type=int, default=os.cpu_count(),
                        help="the kit's workers (default: the number of cores)")
    parser.add_argument("--assignment", default="01_attention_by_hand",
                        help="the assignment of the class (not with --every-assignment or "
                        "--mixed, which take every assignment of the course)")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--modes-only", action="store_true",
                      help="only each way of the sandbox against the others")
    only.add_argument("--every-assignment", action="store_true",
                      help="only plain nbgrader against the kit, one row per assignment, "
                      "then the lowest ratio")
    only.add_argument("--mixed", action="store_true",
                      help="only plain nbgrader against the kit on one class of every "
                      "assignment, in the demo's shares, with one endless loop")
    only.add_argument("--feedback", action="store_true",
                      help="only feedback pages: a class's by plain nbgrader and by the kit, "
                      "then one page, cold, by each command")
    return parser.parse_args(argv)


def main():
    args = arguments()
    compile_kit()
    n, assignment_id, workers = args.students, args.assignment, args.workers
    if args.every_assignment:
        every_assignment(n, workers)
        return
    if args.mixed:
        with tempfile.TemporaryDirectory(prefix="kit-bench-") as scratch:
            mixed(Path(scratch), n, workers)
        return
    if args.feedback:
        with tempfile.TemporaryDirectory(prefix="kit-bench-") as scratch:
            feedback_figures(Path(scratch), assignment_id, n, workers)
        return
    if args.modes_only:
        with tempfile.TemporaryDirectory(prefix="kit-bench-") as scratch:
            sandbox_modes(make_class(Path(scratch) / "modes", assignment_id, n,
                                     random.Random(0)).root, assignment_id, workers, n)
        return
    quiet = {"log": lambda _: None}
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as scratch:
        scratch = Path(scratch)

        def course(name):
            return make_class(scratch / name, assignment_id, n, random.Random(0)).root

        plain = course("plain")
        grade_with_nbgrader_pipeline(plain)
        print(f"{n} notebooks of {assignment_id}; {os.cpu_count()} cores")
        plain_wall, plain_cpu = timed(lambda: run_nbgrader(plain, "autograde", assignment_id))
        print(f"plain nbgrader autograde: {plain_wall:.0f} s")
        one = course("one")
        one_wall, one_cpu = timed(lambda: grade(one, [assignment_id], workers=1, **quiet))
        print(f"kit grade --workers 1 (embedded cluster, full sandbox): {one_wall:.0f} s")
        kit = course("kit")
        kit_wall, kit_cpu = timed(lambda: grade(kit, [assignment_id], workers=workers,
                                                **quiet))
        print(f"kit grade --workers {workers} (embedded cluster, full sandbox): "
              f"{kit_wall:.0f} s")
        memory = memory_of_a_grade(course("memory"), [assignment_id], workers)
        plain_pages, _ = timed(lambda: run_nbgrader(plain, "generate_feedback", assignment_id))
        print(f"plain nbgrader generate_feedback: {plain_pages:.0f} s")
        from autograder.outputs.feedback import write_feedback

        kit_pages, _ = timed(lambda: write_feedback(kit, [assignment_id], workers=workers,
                                                    **quiet))
        kit_pages_said = kit_pages_where(n, workers)
        print(f"{kit_pages_said}: {kit_pages:.0f} s")
        limits = course("limits")
        limits_wall, limits_cpu = timed(lambda: grade(limits, [assignment_id],
                                                      workers=workers, isolation="limits",
                                                      **quiet))
        print(f"kit grade --workers {workers} (limits only): {limits_wall:.0f} s")
        external = course("external")
        (scratch / "cluster").mkdir()
        cluster = ExternalCluster(scratch / "cluster", workers)
        try:
            external_wall, _ = timed(lambda: grade(external, [assignment_id],
                                                   scheduler=cluster.address, **quiet))
        finally:
            cluster.close()
        print(f"kit grade --scheduler ({workers} external workers): {external_wall:.0f} s")
        sandbox_modes(kit, assignment_id, workers, n)
        task_ms, task_cpu_ms = engine_cost(kit, assignment_id, workers)
        torch_cpu = import_torch_cpu()
    rate = {name: 60 * n / wall for name, wall in
            (("plain", plain_wall), ("one", one_wall), ("kit", kit_wall),
             ("external", external_wall))}
    per_worker = workers / n  # each worker grades n / workers notebooks in a row
    print()
    print(f"notebooks per minute   plain nbgrader {rate['plain']:6.1f}   "
          f"kit 1 worker {rate['one']:6.1f}   kit {workers} workers {rate['kit']:6.1f} "
          f"({rate['kit'] / rate['plain']:.2f}x plain)   "
          f"{workers} external workers {rate['external']:6.1f}")
    print(f"feedback pages/minute  plain nbgrader generate_feedback {60 * n / plain_pages:6.1f}"
          f"   {kit_pages_said} {60 * n / kit_pages:6.1f}")
    print(f"CPU s per notebook     plain nbgrader {plain_cpu / n:6.2f}   "
          f"kit 1 worker {one_cpu / n:6.2f}   kit {workers} workers {kit_cpu / n:6.2f}   "
          f"bare `python -c 'import torch'` {torch_cpu:.2f}")
    print(f"sandbox cost per notebook (full minus limits only): "
          f"{(kit_wall - limits_wall) * per_worker:+.2f} s wall, "
          f"{(kit_cpu - limits_cpu) / n:+.2f} CPU s")
    print(f"engine cost per task (a task doing nothing, carrying what a grading task "
          f"carries): {task_ms:.1f} ms wall, {task_cpu_ms:.1f} ms CPU")
    workers_seen = sorted(memory.peaks(), key=memory.peaks().get, reverse=True)[:workers]

    def mib(peaks):
        return ", ".join(f"{peaks.get(pid, 0) / 2**20:.0f} MiB" for pid in workers_seen)

    print(f"peak memory per worker (worker, template, kernel), RSS summed: "
          f"{mib(memory.peaks())}; first half of the run {mib(memory.peaks(0))}, second half "
          f"{mib(memory.peaks(1))}; PSS summed: {mib(memory.peaks(pss=True))}")


if __name__ == "__main__":
    main()
