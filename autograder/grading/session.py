"""Grade one notebook: its code runs in a sandboxed kernel, its steps are judged here.

Cells run in order. A student cell runs in the kernel as written. A test cell does not: the
grader judges the steps it names (`check_step("name", ...)` in the cell nbgrader restored from
the source), calling the student's functions in the kernel on inputs drawn for this grading and
comparing the plain numbers that come back with the reference package and the documents.

When the kernel dies or runs out of time, what it was doing scores 0: a cell is skipped, a
step fails. A fresh kernel then replays the cells that ran, so the rest of the notebook is
still graded. The whole notebook has a time budget; past it, what is left scores 0.
"""

from __future__ import annotations

import ast
import re
import time

import nbformat

from autograder.checks.hidden import references
from autograder.checks.judge import fresh_generator, step_findings, verdict_message
from autograder.checks.model import Finding
from autograder.checks.steps import STEPS
from autograder.grading.integrity import without_magics
from autograder.grading.remote_subject import RemoteSubject
from autograder.sandbox.kernel import KernelGone, SandboxedKernel
from autograder.sandbox.link import Link, StudentError

STEP_CALL = re.compile(r"""check_step\(\s*["'](\w+)["']""")


def steps_checked(source):
    return [name for name in STEP_CALL.findall(source) if name in STEPS]


def definitions(source):
    """{name: source} of the top-level functions and classes a cell defines (magics and
    shell lines are left out before parsing)."""
    text = without_magics(source)
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {}
    return {node.name: ast.get_source_segment(text, node) for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef)}


def error_output(name, message):
    return nbformat.v4.new_output("error", ename=name, evalue=message,
                                  traceback=[f"{name}: {message}"])


def stdout(text):
    return nbformat.v4.new_output("stream", name="stdout", text=text)


class Session:
    def __init__(self, folder, settings, notebook_timeout, cell_timeout):
        self.kernel = SandboxedKernel(folder, settings)
        self.deadline = time.monotonic() + notebook_timeout
        self.cell_timeout = cell_timeout
        self.link = Link(self.kernel, self.timeout)
        self.ran = []  # cells that ran, to replay after a crash
        self.sources = {}  # name -> the student's latest definition
        self.broken = None  # why the notebook cannot go on

    def timeout(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise KernelGone("the notebook's time limit was reached")
        return min(self.cell_timeout, left)

    def __enter__(self):
        try:
            self.kernel.start()
        except RuntimeError:  # once more: a start can fail for reasons of the moment
            self.kernel.stop()
            self.kernel.start()
        self.link.boot()
        return self

    def __exit__(self, *exc):
        self.kernel.stop()

    def recover(self, gone):
        """A fresh kernel with every cell that ran so far; on failure the notebook stops."""
        try:
            self.kernel.restart()
            self.link.boot()
            for source in self.ran:
                self.kernel.execute(source, self.timeout(), silent=True)
        except (KernelGone, RuntimeError) as again:
            self.broken = f"{gone.reason}, and the kernel could not be brought back ({again})"

    def run_cell(self, source):
        """(outputs, execution count or None) of a student cell."""
        if self.broken:
            return [error_output("NotRun", self.broken)], None
        self.sources.update(definitions(source))
        try:
            outputs, _ = self.kernel.execute(source, self.timeout())
        except KernelGone as gone:
            self.recover(gone)
            return [error_output("KernelDied", f"{gone.reason}; this cell was skipped")], None
        self.ran.append(source)
        count = next((o.get("execution_count") for o in outputs
                      if o.get("execution_count")), None)
        return outputs, count

    def judge(self, name):
        """The Findings of one step (empty when it passes)."""
        if self.broken:
            return [Finding("error", name, self.broken)]
        step = STEPS[name]
        subject = RemoteSubject(self.link, name, source=self.sources.get(name))
        helpers = references(step)
        try:
            self.link.boot()  # anew: the student's cells may have replaced it
            if not self.link.request("defined", {"global": "__kit__"}, name=name):
                return [Finding("error", name, f"{name} is not defined: run the cell that "
                                               "defines it, and keep its name")]
            if helpers:
                self.link.install(helpers)
            findings = step_findings(step, subject, helpers, fresh_generator())
            if helpers:
                self.link.restore()
        except KernelGone as gone:
            self.recover(gone)
            return [Finding("error", name, f"checking {name}: {gone.reason}")]
        except StudentError as error:
            return [Finding("error", name, f"the grader could not call your code: {error}")]
        return findings

    def test_cell(self, names):
        """(outputs, findings) of a test cell that names these steps: the first failing
        step's verdict as an error, else a line per step that passed."""
        findings = {name: self.judge(name) for name in names}
        outputs = []
        for name in names:
            message = verdict_message(name, findings[name])
            outputs.append(error_output("AssertionError", message) if message
                           else stdout(f"{name}: every hidden check passed\n"))
        errors = [o for o in outputs if o.output_type == "error"][:1]
        return errors or outputs, [f for name in names for f in findings[name]]
