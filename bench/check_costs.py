"""Where the grading of one correct notebook of an assignment spends its CPU: per cell and
per hidden check.

The notebook is the master rendered in memory from assignments/<id>/ (so an edit of
notebook.py or checks.py shows without a build), each solution cell holding the reference's
code, each test cell its public part only: a correct student's notebook.

In process (always): every code cell runs in order in a fresh IPython shell (the public
tests read its history, as in Jupyter), torch on one thread as kernels have it, a figure a
cell leaves open rendered to PNG as the inline backend does and counted in the cell; each run
in a child forked from this process, as a kernel is forked from the template, so that what a
cell pays on first use (an import, a first allocation) counts as in every graded notebook.
The template does IPython's work on the course's cells once for every kernel, so a large
locked cell (the public checks' helpers) costs less in grading than here. Test cells run too,
marked: grading never runs them (plain nbgrader does). Then each step's hidden checks run on
the notebook's own function, piece by piece: drawing the random cases, each case (the
reference's output, the subject's call, recorded call by call as the sandbox's agent records
it when the step has rules on operations, and the comparison), each property, the rules. The
median over --seeds draws.

With --graded N: N gradings of the same notebook through the grader's own Session (a
sandboxed kernel, the grader in this process): the CPU of the kernel (read from /proc, 10 ms
ticks) and of the grader for each cell the kernel runs, for the judging kernel's course cells,
and for each step's test cell, split into its text and cases, each property, and its rules
and verdict (the stand-ins' calls included where they happen). The mean of N.

    .venv/bin/python bench/check_costs.py ID [--seeds 5] [--graded 0] [--language en]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import statistics
import sys
import tempfile
import time
import traceback
from contextlib import contextmanager, redirect_stdout
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

os.environ.setdefault("MPLBACKEND", "Agg")
import matplotlib.pyplot as plt  # noqa: E402 - imported before timing, as the template does
import torch  # noqa: E402

from autograder.build import master_notebook  # noqa: E402
from autograder.build.proof import SOLUTION_FENCE  # noqa: E402
from autograder.checks.code_rules import HIDDEN_TESTS, closure, course_key  # noqa: E402
from autograder.checks.common import seeded_as  # noqa: E402
from autograder.checks.compare import compare  # noqa: E402
from autograder.checks.draws import CASES, PROBES, Draws  # noqa: E402
from autograder.checks.hidden import references  # noqa: E402
from autograder.checks.judge import expected_output, step_findings  # noqa: E402
from autograder.checks.loader import load_assignment  # noqa: E402
from autograder.checks.operation_rules import kept_tampering  # noqa: E402
from autograder.checks.probes import probed  # noqa: E402
from autograder.checks.recorder import Recorder, codes_of, namespace_of  # noqa: E402
from autograder.checks.subject import LocalSubject  # noqa: E402
from autograder.grading.session import judging_order, steps_checked  # noqa: E402
from autograder.i18n import language  # noqa: E402

HIDDEN = re.compile(rf"^[ \t]*{HIDDEN_TESTS[0]}.*?{HIDDEN_TESTS[1]}[ \t]*\n?",
                    re.MULTILINE | re.DOTALL)


# The notebook ----------------------------------------------------------------------------


def kind_of(cell):
    meta = cell.metadata.get("nbgrader") or {}
    if meta.get("grade"):
        return "test"
    if meta.get("solution"):
        return "solution"
    if meta.get("locked"):
        return "locked"
    return "code"


def correct_cells(master):
    """[(kind, label, source, steps a test cell checks)] of the master's code cells, as a
    correct student's notebook holds them."""
    cells = []
    for index, cell in enumerate(master.cells):
        if cell.cell_type != "code":
            continue
        kind = kind_of(cell)
        meta = cell.metadata.get("nbgrader") or {}
        label = meta.get("grade_id") or f"cell {index}"
        source = SOLUTION_FENCE.sub("", cell.source) if kind == "solution" else cell.source
        checked = steps_checked(cell.source) if kind == "test" else []
        if kind == "test":
            source = HIDDEN.sub("", source)
        first = next((line for line in source.splitlines() if line.strip()
                      and not line.startswith(("#", '"""', "def ", "class "))), "")
        if kind == "code":
            label = f"{label}: {first.strip()[:40]}"
        cells.append((kind, label, source, checked))
    return cells


def rendered_figures():
    """Render every open figure to PNG as the inline backend does after a cell, and close
    them: a plot's cost is its drawing."""
    for number in plt.get_fignums():
        plt.figure(number).savefig(io.BytesIO(), format="png", bbox_inches="tight")
    plt.close("all")


def run_cells(cells):
    """(the namespace, [CPU seconds of each cell]) of one run of the cells in order, in a
    fresh IPython shell of this process (the public tests read its history, as in Jupyter)."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    InteractiveShell.clear_instance()
    shell = InteractiveShell.instance(config=config)
    seconds = []
    for _, _, source, _ in cells:
        shell.compile.cache(source)  # the template's work on a cell's text, done beforehand
        started = time.process_time()
        with redirect_stdout(io.StringIO()):  # what the cell prints is not the point here
            result = shell.run_cell(source, store_history=True)
            rendered_figures()
        seconds.append(time.process_time() - started)
        result.raise_error()
    return shell.user_ns, seconds


def cells_in_a_fresh_process(cells):
    """[CPU seconds of each cell] of one run in a child forked from this process before any
    cell ran here, as a kernel is forked from the template (torch, IPython and matplotlib
    imported): what a cell pays on first use (an import, a first allocation) counts, as it
    does in every graded notebook."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run the cells, write the seconds, leave without cleaning up
        os.close(reader)
        try:
            answer = {"seconds": run_cells(cells)[1]}
        except BaseException:  # noqa: BLE001 - said to the parent, which raises it
            answer = {"error": traceback.format_exc()}
        os.write(writer, json.dumps(answer).encode())
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader) as pipe:
        answer = json.loads(pipe.read() or '{"error": "the child wrote nothing"}')
    os.waitpid(pid, 0)
    if "error" in answer:
        raise RuntimeError(f"running the cells failed:\n{answer['error']}")
    return answer["seconds"]


# The checks ------------------------------------------------------------------------------


class AgentLike:
    """The notebook's function (or class, or an object it made) called as the grader calls
    it in the kernel: during a step's recording, each call is recorded on its own by a
    Recorder around that call (sandbox/agent.py's `recorded`), the earlier steps' references
    apart. What a call returns that is no tensor nor number is answered as another AgentLike,
    as the link answers a handle."""

    def __init__(self, target, source=None, state=None):
        self._target, self.source = target, source
        self._state = state if state is not None else {"on": None, "records": []}

    @property
    def records(self):
        return self._state["records"]

    @contextmanager
    def recording(self, apart, counted, measure=None):
        namespace = namespace_of(self._target)
        self._state["on"] = ({name: codes_of(namespace.get(name)) for name in apart},
                             {name: codes_of(namespace.get(name)) for name in counted},
                             measure)
        self._state["records"] = []
        try:
            yield
        finally:
            self._state["on"] = None

    def answer(self, value):
        if value is None or isinstance(value, torch.Tensor | int | float | bool | str):
            return value
        if isinstance(value, tuple | list) and all(
                isinstance(v, torch.Tensor | int | float) for v in value):
            return value
        if isinstance(value, dict) and all(  # a state_dict() comes back as data
                isinstance(v, torch.Tensor | int | float) for v in value.values()):
            return dict(value)
        return AgentLike(value, state=self._state)

    def __call__(self, *args, **kwargs):
        if self._state["on"] is None:
            return self.answer(self._target(*args, **kwargs))
        apart, counted, measure = self._state["on"]
        recorder = Recorder(None, apart, counted, arguments=args,
                            measure=measure is not None and measure(args))
        self._state["records"].append(recorder.records[0])
        with recorder:
            value = self._target(*args, **kwargs)
        return self.answer(value)

    def seeded(self, seed, *args, burn=0, **kwargs):
        with seeded_as(seed):
            if burn:
                torch.rand(burn)
            return self(*args, **kwargs)

    def perturbed(self, spec):
        """A probe's change, made in this process as the kernel's guard makes it there."""
        return LocalSubject(self._target).perturbed(spec)

    def __getattr__(self, name):
        return self.answer(getattr(self._target, name))

    def __iter__(self):  # as the link's handle: its items, each answered
        return iter([self.answer(value) for value in self._target])


def cpu(function, *args):
    started = time.process_time()
    value = function(*args)
    return time.process_time() - started, value


def check_costs(step, subject, seed):
    """[(check, CPU seconds)] of one grading's hidden checks of `step` on `subject`."""
    draws = Draws.seeded(seed)
    rows = []
    with (subject.recording(step.uses, step.counted, measure=step.measured)
          if step.recorded else _nothing()):
        spent, cases = cpu(lambda: [*step.document_cases(), *step.fixed_cases(),
                                    *step.random_cases(draws.of(step.name, CASES))])
        rows.append(("drawing the cases", spent))
        right = []
        for number, case in enumerate(cases, start=1):
            spent_ref, want = cpu(expected_output, case, step)
            spent_sub, got = cpu(case.run, subject)
            spent_cmp, _ = cpu(compare, got, want)
            right.append((case, got))
            rows.append((f"case {number}: {case.label[:60]}",
                         spent_ref + spent_sub + spent_cmp))
        for prop in step.properties:
            rows.append((f"property {prop.__name__}",
                         cpu(prop, subject, draws.of_property(step.name, prop))[0]))
        if any(rule.probe for rule in step.rules):
            rows.append(("the rules' probes",
                         cpu(probed, step, subject, right, draws.of(step.name, PROBES))[0]))
    kept_tampering.cache_clear()  # the step's first rule reads its text, as in grading
    for rule in step.rules:
        spent, broken = cpu(rule.violation, subject)
        assert broken is None, f"{step.name}: the reference breaks {rule.name}: {broken}"
        rows.append((f"rule {rule.name}", spent))
    return rows


@contextmanager
def _nothing():
    yield


def step_costs(assignment, namespace, ran, course_keys, seeds):
    """{step: [(check, median CPU s)]} and {step: median CPU s of the whole step_findings}."""
    table, whole = {}, {}
    for name, step in assignment.steps.items():
        helpers = references(step, assignment.steps)
        saved = {used: namespace[used] for used in helpers}
        namespace.update(helpers)  # the references stand in for the earlier steps
        source = closure(ran, name, course_keys, apart=step.uses)
        try:
            runs = [check_costs(step, AgentLike(namespace[name], source), seed)
                    for seed in range(seeds)]
            totals = []
            for seed in range(seeds):
                kept_tampering.cache_clear()
                spent, findings = cpu(step_findings, step, AgentLike(namespace[name], source),
                                      helpers, Draws.seeded(seed))
                assert not findings, f"{name}: {findings}"
                totals.append(spent)
        finally:
            namespace.update(saved)
        labels = [label for label, _ in runs[0]]
        table[name] = [(label, statistics.median(run[i][1] for run in runs))
                       for i, label in enumerate(labels)]
        whole[name] = statistics.median(totals)
    return table, whole


# Grading through the Session ---------------------------------------------------------------


def proc_cpu(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, TypeError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed_properties(step, lap):
    """The step with each property calling `lap` before it runs (what ran since the last lap
    was the step's text and cases, or the property before) and after it."""

    def timed(prop):
        def run(subject, gen):
            lap(f"  {step.name}: its text in the kernel, then its cases" if prop is
                step.properties[0] else None)
            try:
                return prop(subject, gen)
            finally:
                lap(f"  {step.name}: property {prop.__name__}")

        run.__name__, run.__doc__ = prop.__name__, prop.__doc__
        return run

    return replace(step, properties=tuple(timed(p) for p in step.properties))


def graded_costs(assignment, cells, runs):
    """[(what, kernel CPU s, grader CPU s)] per cell the kernel runs, per step and per part
    of a step, the mean of `runs` gradings of the notebook through grading/session.py's
    Session."""
    from autograder.grading.grade_in_sandbox import course_helpers, kit_folders
    from autograder.grading.session import Session
    from autograder.sandbox.kernel import Settings

    course_cells = [s for kind, _, s, _ in cells if kind == "locked"]
    course_texts = [s for kind, _, s, _ in cells if kind != "solution"]
    settings = Settings(hidden=(str(ROOT), os.getcwd(), *kit_folders()))
    totals = {}
    mark = {}

    def lap(what, session=None):
        """Count what ran since the last lap under `what` (None: count it nowhere)."""
        pid = (session or mark["session"]).kernel.pid
        kernel, grader = proc_cpu(pid), time.process_time()
        if what is not None:
            k, g = totals.get(what, (0.0, 0.0))
            totals[what] = (k + kernel - mark["kernel"], g + grader - mark["grader"])
        mark.update(kernel=kernel, grader=grader)

    steps = {name: timed_properties(step, lap) for name, step in assignment.steps.items()}
    for _ in range(runs):
        kept_tampering.cache_clear()  # each notebook of a class has texts of its own
        with tempfile.TemporaryDirectory(prefix="kit-costs-") as folder, \
                Session(folder, settings, 60.0, 10.0, steps=steps, course_cells=course_cells,
                        course_texts=course_texts,
                        course_helpers=course_helpers(course_cells)) as session:
            mark["session"] = session
            begun = session.begin_judging

            def begin_judging(begun=begun):
                lap(None)
                begun()  # a new kernel: its CPU so far is the course's cells
                mark["kernel"] = 0.0
                lap("judging kernel: start, the course's cells again")

            session.begin_judging = begin_judging
            for kind, label, source, _ in cells:
                if kind == "test":
                    continue
                lap(None)
                outputs, _ = session.run_cell(source)
                errors = [o for o in outputs if o.get("output_type") == "error"]
                assert not errors, f"{label}: {errors}"
                lap(f"{kind} {label}")
            tests = [(label, checked) for kind, label, _, checked in cells if kind == "test"]
            for index in judging_order([checked for _, checked in tests], steps):
                label, checked = tests[index]
                lap(None)
                _, findings = session.test_cell(checked, label)
                assert not findings, f"{label}: {findings}"
                lap(f"  {', '.join(checked)}: its rules, the verdict")
    return [(what, kernel / runs, grader / runs) for what, (kernel, grader) in totals.items()]


# The tables ------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("assignment", metavar="ID")
    parser.add_argument("--seeds", type=int, default=5, help="draws of the hidden checks "
                        "(and runs of the cells) whose median is printed (default 5)")
    parser.add_argument("--graded", type=int, default=0, metavar="N",
                        help="also grade the notebook N times through the Session")
    parser.add_argument("--language", default="en")
    args = parser.parse_args()
    torch.set_num_threads(1)  # as in a kernel and a grading worker (OMP_NUM_THREADS=1)
    with language(args.language):
        assignment = load_assignment(ROOT, args.assignment)
        master = master_notebook(ROOT, args.assignment, args.language)
        cells = correct_cells(master)
        import IPython.core.interactiveshell  # noqa: F401 - imported, as the template has it

        runs = [cells_in_a_fresh_process(cells) for _ in range(max(1, min(args.seeds, 3)))]
        cell_seconds = [statistics.median(run[i] for run in runs) for i in range(len(cells))]
        namespace, _ = run_cells(cells)  # the notebook's functions, for the checks
        print(f"{args.assignment}: CPU ms of each code cell of a correct notebook, each run "
              f"in a fresh process forked from this one (median of {len(runs)} runs)")
        print(f"{'kind':9} {'cell':58} {'CPU ms':>8}")
        graded = 0.0
        for (kind, label, _, _), seconds in zip(cells, cell_seconds, strict=True):
            note = "  (not run in grading)" if kind == "test" else ""
            graded += 0.0 if kind == "test" else seconds
            print(f"{kind:9} {label[:58]:58} {1000 * seconds:8.1f}{note}")
        print(f"{'':9} {'the cells grading runs':58} {1000 * graded:8.1f}")
        ran = [source for kind, _, source, _ in cells if kind != "test"]
        course_keys = frozenset(course_key(s) for kind, _, s, _ in cells if kind != "solution")
        table, whole = step_costs(assignment, namespace, ran, course_keys, args.seeds)
        print(f"\nCPU ms of each hidden check, in process (median of {args.seeds} draws)")
        print(f"{'step / check':68} {'CPU ms':>8}")
        total = 0.0
        for name, rows in table.items():
            print(f"{name}")
            for label, seconds in rows:
                print(f"  {label[:66]:66} {1000 * seconds:8.1f}")
            print(f"  {'the step as the judge runs it (step_findings)':66} "
                  f"{1000 * whole[name]:8.1f}")
            total += whole[name]
        print(f"{'every step (step_findings)':68} {1000 * total:8.1f}")
        if args.graded:
            rows = graded_costs(assignment, cells, args.graded)
            print(f"\nCPU ms in grading through the Session (mean of {args.graded})")
            print(f"{'what':62} {'kernel':>8} {'grader':>8}")
            for what, kernel, grader in rows:
                step = next((name for name in assignment.steps
                             if what.startswith(f"  {name}: ")), None)
                if step and what.endswith(": its text in the kernel, then its cases"):
                    parts = [(k, g) for w, k, g in rows if w.startswith(f"  {step}: ")]
                    print(f"{'step ' + step:62} {1000 * sum(k for k, _ in parts):8.0f} "
                          f"{1000 * sum(g for _, g in parts):8.0f}")
                if step:
                    what = "  " + what.removeprefix(f"  {step}: ")
                print(f"{what[:62]:62} {1000 * kernel:8.1f} {1000 * grader:8.1f}")
            print(f"{'total':62} {1000 * sum(k for _, k, _ in rows):8.0f} "
                  f"{1000 * sum(g for _, _, g in rows):8.0f}")


if __name__ == "__main__":
    main()
