"""Benchmark: what recording a step's calls costs (autograder/checks/recorder.py, for the rules on
operations). Each function step of the repository's course that has such rules is checked
in-process on its reference, `--rounds` times with each call recorded as grading's agent
records it in the kernel (a Recorder around the call alone, the earlier steps apart) and as
many without (the rules on operations then left out); prints the CPU seconds of each and the
recorder's share. (A class step's calls go through its instances, which only the kernel's
agent sees one by one: those steps are left out.) Then the cost of one torch function (and the
operation it dispatches) three ways: bare, under the notebook's Recorder, and under the
judging kernel's guard (autograder/sandbox/guard.py, installed as a judging kernel installs
it, in a child process: its audit hook and seccomp filter cannot be taken off again).

    .venv/bin/python bench/recorder.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import secrets
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.checks.draws import Draws  # noqa: E402
from autograder.checks.hidden import references  # noqa: E402
from autograder.checks.judge import step_findings  # noqa: E402
from autograder.checks.loader import assignment_ids, load_assignment  # noqa: E402
from autograder.checks.recorder import Recorder, watched  # noqa: E402
from autograder.checks.subject import LocalSubject, namespace_of  # noqa: E402


class RecordedCalls(LocalSubject):
    """A subject whose every call, while a step records, is recorded as the agent records a
    call in the kernel."""

    def __init__(self, target):
        super().__init__(target)
        self.watching = None

    def recording(self, apart, counted, measure=False):
        self.watching, self.records = watched(namespace_of(self._target), apart, counted), []
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.watching = None

    def __call__(self, *args, **kwargs):
        if self.watching is None:
            return self._target(*args, **kwargs)
        recorder = Recorder(None, *self.watching, arguments=args)
        self.records.append(recorder.records[0])
        with recorder:
            return self._target(*args, **kwargs)

    def seeded(self, seed, *args, burn=0, **kwargs):
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            if burn:
                torch.rand(burn)
            return self(*args, **kwargs)


def cpu_seconds(step, helpers, rounds):
    """CPU seconds of `rounds` hidden checks of the step on its reference (the same draws)."""
    started = time.process_time()
    for index in range(rounds):
        findings = step_findings(step, RecordedCalls(step.reference), helpers,
                                 Draws.seeded(index))
        if findings:
            raise SystemExit(f"{step.name}: the reference fails its checks: {findings[0].text}")
    return time.process_time() - started


LOOP_STEPS = 200  # a loop of small torch work, 6 functions a step
PER_OPERATION = """
import json, sys, time
import torch
torch.set_num_threads(1)
sys.path.insert(0, {sandbox!r})
import judging
from autograder.checks.recorder import Recorder

def work(x):
    for _ in range({steps}):
        x = torch.exp(x - x.amax(dim=-1, keepdim=True)) @ x.transpose(-2, -1) / 3.0
    return x

def best(run, repeats=20):
    times = []
    for _ in range(repeats):
        started = time.process_time()
        run()
        times.append(time.process_time() - started)
    return min(times)

x = torch.randn(4, 4)
def recorded():
    with Recorder():
        work(x)
figures = {{"bare": best(lambda: work(x)), "recorder": best(recorded)}}
exec({guard_cell!r}, {{"input": lambda prompt="": {settings!r}}})  # as a judging kernel does
figures["guard"] = best(lambda: work(x))
print(json.dumps(figures))
"""


def per_operation():
    """{way: CPU microseconds a torch function with its operation}, bare, under the
    notebook's Recorder and under the guard (in a child process)."""
    from autograder.sandbox.link import GUARD_CELL, guard_settings

    code = PER_OPERATION.format(sandbox=str(ROOT / "autograder" / "sandbox"), steps=LOOP_STEPS,
                                guard_cell=GUARD_CELL,
                                settings=guard_settings(secrets.token_bytes(32), 0))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    return {way: 1e6 * seconds / (LOOP_STEPS * 6) for way, seconds in figures.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="checks of each step each way")
    rounds = parser.parse_args(argv).rounds
    torch.set_num_threads(1)
    print(f"{'step':26} {'recorded':>9} {'not':>9} {'share':>7}")
    totals = [0.0, 0.0]
    for assignment_id in assignment_ids(ROOT):
        steps = load_assignment(ROOT, assignment_id).steps
        for step in steps.values():
            if not step.recorded or isinstance(step.reference, type):
                continue
            helpers = references(step, steps)
            plain = replace(step, rules=tuple(r for r in step.rules if not r.recorded))
            cpu_seconds(step, helpers, 1)  # warm: first calls, imports
            recorded, bare = cpu_seconds(step, helpers, rounds), cpu_seconds(plain, helpers,
                                                                              rounds)
            totals[0] += recorded
            totals[1] += bare
            print(f"{step.name:26} {recorded / rounds:8.3f}s {bare / rounds:8.3f}s "
                  f"{100 * (recorded - bare) / recorded:6.1f}%")
    print(f"{'all':26} {totals[0] / rounds:8.3f}s {totals[1] / rounds:8.3f}s "
          f"{100 * (totals[0] - totals[1]) / totals[0]:6.1f}%  (CPU s per check of every "
          "such step; share: the recorder's)")
    figures = per_operation()
    print("CPU us a torch function with its operation: " + ", ".join(
        f"{way} {value:.1f}" for way, value in figures.items()))


if __name__ == "__main__":
    main()
