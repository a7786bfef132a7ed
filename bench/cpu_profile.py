"""Profile: where one notebook's CPU goes when the kit grades it.

One simulated class of an assignment (01 unless --assignment; as bench/grading.py makes it) is
graded by the grading task itself (autograder/engine/worker.py's grade_submission, the code a
dask worker runs), here in this process set up as a grading worker is (torch on one thread: a
second one spins between torch's calls and doubled the figure of 08), one notebook after
another, after one notebook to warm the kernel template; then graded again under cProfile. The
first run gives the CPU of each process: this one (the grader), the kernels and the kernel
template (the forks), read from /proc. The profiled run splits the grader's own CPU: every
function's own time is counted under the part of the work its module belongs to, and the
grader's CPU of the first run is shared out in those proportions (cProfile's own cost, which
grows with the number of calls, is left out: it about doubled the grader's figure). Prints a
table: CPU seconds per notebook and share of each part.

    .venv/bin/python bench/cpu_profile.py [--students 30] [--assignment ID] [--top 15]
        [--stats FILE]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from grading import make_class  # noqa: E402

from autograder.engine.bundle import assignment_bundle, submission_of  # noqa: E402
from autograder.engine.worker import KitWorker, grade_submission, kit_version, workspace  # noqa: E402
from autograder.sandbox import kernel as kernel_module  # noqa: E402

# The part of the work a function belongs to, by the path of its module (first match).
PARTS = [
    ("kernel messages (zmq, jupyter_client)", ("zmq/", "jupyter_client/", "tornado/")),
    ("sandbox (kernel start, stop, strays)", ("autograder/sandbox/",)),
    ("the checks (references, comparisons)", ("autograder/checks/", "torch/", "assignments/",
                                             "solutions/")),
    ("grading session (cells, judging)", ("autograder/grading/",)),
    ("gradebook (sqlalchemy, sqlite)", ("sqlalchemy/", "sqlite3", "nbgrader/api.py",
                                        "alembic/")),
    ("nbformat (read, validate, write)", ("nbformat/", "jsonschema/", "fastjsonschema/",
                                          "referencing/", "rpds/", "json/")),
    ("nbconvert (exporter, preprocessors)", ("nbconvert/", "traitlets/", "jinja2/")),
    ("nbgrader converter and preprocessors", ("nbgrader/",)),
    ("engine task (bundle, files)", ("autograder/engine/", "shutil.py", "pathlib")),
]
OTHER = "other (Python, logging, regex, ...)"


def part_of(filename):
    for name, markers in PARTS:
        if any(marker in filename for marker in markers):
            return name
    return OTHER


def cpu_of(pid):
    """CPU seconds of a process so far (user + system), 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class KernelCpu:
    """Adds up the CPU of every sandboxed kernel, read just before it is stopped."""

    def __init__(self):
        self.seconds, self.count = 0.0, 0
        self.stop = kernel_module.SandboxedKernel.stop

    def __enter__(self):
        meter = self

        def stop(kernel):
            if kernel.pid is not None:
                meter.seconds += cpu_of(kernel.pid)
                meter.count += 1
            return meter.stop(kernel)

        kernel_module.SandboxedKernel.stop = stop
        return self

    def __exit__(self, *exc):
        kernel_module.SandboxedKernel.stop = self.stop


def template_cpu():
    """The CPU of the kernel templates (one per isolation mechanism) so far."""
    return sum(cpu_of(zygote.process.pid)
               for zygote in kernel_module.Zygote._instances.values() if zygote is not None)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--assignment", default="01_attention_by_hand")
    parser.add_argument("--top", type=int, default=15, help="functions listed by own CPU")
    parser.add_argument("--stats", metavar="FILE",
                        help="also write the profile there (pstats), to read its callers")
    args = parser.parse_args()
    KitWorker().setup(None)  # torch on one thread, as on a grading worker (a second one spins)
    with tempfile.TemporaryDirectory(prefix="kit-profile-") as scratch:
        root = make_class(Path(scratch) / "course", args.assignment, args.students + 1,
                          random.Random(0)).root
        bundle = assignment_bundle(root, args.assignment)
        students = sorted(p.name for p in (root / "submitted").iterdir())
        submissions = [submission_of(root, s, args.assignment) for s in students]
        version = kit_version()
        try:
            grade_submission(bundle, submissions[0], {}, version)  # the template, the workspace
            template_before, cpu, wall = template_cpu(), time.process_time(), time.monotonic()
            with KernelCpu() as kernels:
                graded = [grade_submission(bundle, s, {}, version) for s in submissions[1:]]
            cpu, wall = time.process_time() - cpu, time.monotonic() - wall
            forks = template_cpu() - template_before
            profiler = cProfile.Profile(time.process_time)
            profiler.enable()
            for s in submissions[1:]:
                grade_submission(bundle, s, {}, version)
            profiler.disable()
        finally:
            workspace().close()  # its folder and template, as a worker's teardown does
    n = len(graded)
    stats = pstats.Stats(profiler)
    if args.stats:
        stats.dump_stats(args.stats)
    parts = {}
    for (filename, _, _), (_, _, own, _, _) in stats.stats.items():
        parts[part_of(filename)] = parts.get(part_of(filename), 0.0) + own
    profiled = sum(parts.values())
    rows = sorted(((name, cpu * own / profiled) for name, own in parts.items()),
                  key=lambda item: -item[1])
    rows += [(f"the kernels ({kernels.count / n:.1f} a notebook: student code, agent)",
              kernels.seconds),
             ("the kernel template (forks)", forks)]
    total = cpu + kernels.seconds + forks
    print(f"{n} notebooks of {args.assignment} graded one after another in one process "
          f"({sum(g.ok for g in graded)} graded), {wall / n:.2f} s wall each; the grader's "
          f"own CPU {cpu / n:.3f} s a notebook ({profiled / n:.3f} under cProfile)")
    print(f"{'part of the work':48} {'CPU s/notebook':>14} {'share':>7}")
    for name, seconds in rows:
        print(f"{name:48} {seconds / n:14.3f} {100 * seconds / total:6.1f}%")
    print(f"{'total':48} {total / n:14.3f} {100.0:6.1f}%")
    print(f"\nthe {args.top} functions of the grader with the most CPU of their own:")
    stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
