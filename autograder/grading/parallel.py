"""Autograde many submissions with nbgrader, in parallel, resumably, one run per course.

nbgrader grades one kernel at a time. Here each worker process owns a disjoint set of
students and runs nbgrader's own autograde (its Python API, so the process starts once) on
their notebooks. Before nbgrader starts on a submission the kit marks it "grading" in its own
ledger (`.kit/status/`), after nbgrader finished it "graded": an interrupted run leaves
"grading", and the next run grades those again. Nothing in the gradebook is ever removed for
this, so a TA's manual scores and comments survive every run, every Ctrl-C and every crash
(nbgrader keeps them when it grades a submission again).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import os
import signal
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import torch
from nbgrader.api import MissingEntry

from autograder.checks.audit import unchecked_steps
from autograder.checks.loader import AssignmentError, load_assignment
from autograder.course import Course, check_ids, course_config, course_ids, open_gradebook
from autograder.deadlines import check_deadlines, late_lines, lateness
from autograder.errors import KitError
from autograder.gradebook_guard import check_gradebook
from autograder.grading.session import steps_checked
from autograder.grading.submissions import find_submissions, grade_ids
from autograder.i18n import config_language, language, t
from autograder.ledger import (
    REGRADE,
    GradeLock,
    Problem,
    chosen,
    is_graded,
    keep_problems,
    mark,
    read_status,
)
from autograder.progress import Progress
from autograder.sandbox.kernel import Zygote


@dataclass
class GradeRun:
    graded: list = field(default_factory=list)  # (submission, "")
    skipped: list = field(default_factory=list)  # submissions already graded
    failed: list = field(default_factory=list)  # (submission, why)
    problems: list = field(default_factory=list)  # Problems of the input
    changes: list = field(default_factory=list)  # (student, assignment, before, after)
    unchecked: list = field(default_factory=list)  # Problems: test cells with no checks
    empty: bool = False  # nothing in submitted/ to grade

    @property
    def refused(self):
        return [p for p in self.problems if not p.graded_anyway]

    @property
    def ok(self):
        """True when there was something to grade, every input was graded (warnings
        allowed) and every test cell had hidden checks to grade with."""
        return not self.empty and not self.failed and not self.refused and not self.unchecked


def expected_tests(root: Path, ids):
    return {
        i: grade_ids(nbformat.read(root / "source" / i / f"{i}.ipynb", as_version=4))
        for i in ids
    }


def unchecked_cells(root: Path, ids):
    """A Problem per test cell of the course's master notebooks (source/) whose step has no
    hidden checks in assignments/<id>/ (or whose assignment's checks cannot be read): every
    student scores 0 there, so grade says so and exits 1."""
    problems = []
    for assignment_id in ids:
        path = root / "source" / assignment_id / f"{assignment_id}.ipynb"
        master = nbformat.read(path, as_version=4)
        named = [(f"{path.relative_to(root)} ({cell.metadata['nbgrader']['grade_id']})", name)
                 for cell in master.cells if cell.metadata.get("nbgrader", {}).get("grade")
                 for name in (steps_checked(cell.source) or [None])]
        try:
            lines = unchecked_steps(load_assignment(root, assignment_id), named)
        except AssignmentError as error:
            lines = [str(error)]
        problems += [Problem(path, line, t("every student scores 0 on that test until the "
                                           "assignment is fixed; then run grade --force"),
                             assignment=assignment_id) for line in lines]
    return problems


def register_assignments(root: Path, ids, log):
    """Make sure the gradebook knows each assignment and its graded cells."""
    course = Course(root)
    with open_gradebook(root) as gradebook:
        known = {a.name for a in gradebook.assignments if a.notebooks}
    for assignment_id in ids:
        if assignment_id not in known:
            log(f"registering {assignment_id} in the gradebook (nbgrader generate_assignment)")
            course.generate(assignment_id)


_API = None
_INTERRUPTED = False  # Ctrl-C reached this worker (the terminal signals the whole group)


def _note_interrupt(signum, frame):
    global _INTERRUPTED
    _INTERRUPTED = True
    raise KeyboardInterrupt


def _start_worker(root, timeout, isolation):
    """Worker start-up: one nbgrader API per process; kernels use one thread each, since the
    workers already fill the cores."""
    global _API
    signal.signal(signal.SIGINT, _note_interrupt)
    os.environ["OMP_NUM_THREADS"] = "1"
    torch.set_num_threads(1)
    # Kernels and nbgrader write warnings to stderr; keep them in the course's grade.log so
    # the progress bar stays readable.
    log = os.open(Path(root) / "grade.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(log, 2)
    os.close(log)
    sandbox = {"cell_timeout": timeout} if timeout else {}
    if isolation:
        sandbox["isolation"] = isolation
    overrides = {"GradeInSandbox": sandbox} if sandbox else {}
    # The kernel template ends with the worker, after its kernels (so their CPU time is
    # accounted to the worker, and nothing is left behind).
    multiprocessing.util.Finalize(None, Zygote.close_shared, exitpriority=10)
    from autograder.grading.nbgrader_api import course_api

    _API = course_api(Path(root), **overrides)


def _grade_student(root, submissions):
    """Grade one student's notebooks; return (submission, ok, why) each."""
    root = Path(root)
    results = []
    for submission in submissions:
        before = (read_status(root, submission.student, submission.assignment) or {}).get("state")
        mark(root, submission.student, submission.assignment, submission.notebook, "grading")
        try:
            outcome = _API.autograde(submission.assignment, submission.student, force=True,
                                     create=True)
        except KeyboardInterrupt:
            outcome = None
        if _INTERRUPTED or outcome is None:
            # Stopped by Ctrl-C, not by the notebook: never "failed"; the next grade takes it
            # up again ("grading"), as the forced run it belonged to would have ("regrade").
            if before == REGRADE:
                mark(root, submission.student, submission.assignment, submission.notebook,
                     REGRADE)
            break
        if outcome["success"]:
            mark(root, submission.student, submission.assignment, submission.notebook, "graded")
            results.append((submission, True, ""))
        else:
            mark(root, submission.student, submission.assignment, submission.notebook, "failed")
            results.append((submission, False, failure_reason(outcome)))
    return results


KNOWN_FAILURES = {
    "DeadKernelError": "the kernel died (os._exit, a crash or memory exhausted)",
    "CellTimeoutError": "a cell ran past the timeout and could not be interrupted",
    "NoSuchKernel": "the notebook's kernel is not installed",
}
AUTOGRADE_FAILED = "nbgrader's autograde failed"


def failure_reason(outcome):
    """Why nbgrader could not grade a notebook, in a few words (in English: a worker does not
    know the course's language; the problem made of it is translated)."""
    text = (outcome.get("error") or "") + (outcome.get("log") or "")
    for name, reason in KNOWN_FAILURES.items():
        if name in text:
            return reason
    lines = [line.strip() for line in text.splitlines() if "Error" in line]
    return lines[-1] if lines else AUTOGRADE_FAILED


class GradeError(KitError, RuntimeError):
    """Grading cannot start; the message says why and what to do."""


def check_kernel(name="python3"):
    """nbgrader runs every notebook in the course's kernel; without it nothing can be graded."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        KernelSpecManager().get_kernel_spec(name)
    except NoSuchKernel as error:
        raise GradeError(f"no Jupyter kernel named {name!r}: install ipykernel in this "
                         f"environment ({sys.executable} -m pip install ipykernel)") from error


def scores_of(root: Path, submissions):
    """{(student, assignment): total score or None} from the gradebook."""
    scores = {}
    with open_gradebook(root) as gradebook:
        for s in submissions:
            try:
                scores[(s.student, s.assignment)] = gradebook.find_submission(
                    s.assignment, s.student).score
            except MissingEntry:
                scores[(s.student, s.assignment)] = None
    return scores


def grade(root: Path, ids=(), workers=None, force=False, timeout=None, log=print,
          isolation=None, students=()):
    """Autograde every submission of the given assignments (all when none given) of the
    given students (ids or globs; all when none given). `timeout`: seconds a cell or check
    may run; `isolation`: the sandbox's, when not the course's configured one. The problems
    kept for the report are written in the course's language."""
    root = root.resolve()
    ids = check_ids(ids, course_ids(root))
    config = course_config(root)
    check_deadlines(config, course_ids(root))
    check_kernel()
    check_gradebook(root, complete=not force)  # a forced grade writes every record again
    with GradeLock(root), language(config_language(config)):
        return _grade(root, ids, workers, force, timeout, log, isolation, students)


def _grade(root, ids, workers, force, timeout, log, isolation, students):
    run = GradeRun()
    register_assignments(root, ids, log)
    run.unchecked = unchecked_cells(root, ids)
    ready, problems = find_submissions(root, ids, expected_tests(root, ids))
    run.problems = [p for p in problems if chosen(p.student, students)]
    keep_problems(root, "grade", ids, run.unchecked + run.problems, students)
    for problem in run.unchecked:
        log(f"error: {problem.reason}; {problem.fix}")
    for problem in run.problems:
        log(f"warning: {problem}" if problem.graded_anyway else f"error: {problem}")
    ready = [s for s in ready if chosen(s.student, students)]
    if not ready and not run.problems:
        log(f"nothing to grade: submitted/ holds no notebook of {', '.join(ids)}"
            + (f" for {', '.join(students)}" if students else "")
            + "; collect them first (python -m autograder collect ID --from FOLDER_OR_ZIP)")
        run.empty = True
        return run
    todo = [s for s in ready
            if force or not is_graded(root, s.student, s.assignment, s.notebook)]
    run.skipped = [s for s in ready if s not in todo]
    if run.skipped:
        log(f"{len(run.skipped)} notebooks already graded (use --force to grade them again)")
    unfinished = [s for s in todo if not force
                  and (read_status(root, s.student, s.assignment) or {}).get("state") == REGRADE]
    if unfinished:
        log(f"finishing an interrupted grade --force: {len(unfinished)} notebooks it had not "
            "graded again are graded now")
    if force:  # until each is graded again, an interruption leaves it to the next grade
        for s in todo:
            mark(root, s.student, s.assignment, s.notebook, REGRADE)
    if todo:
        before = scores_of(root, todo)
        _run_workers(root, todo, workers, timeout, isolation, run, log)
        after = scores_of(root, todo)
        run.changes = [(*key, before[key], after[key]) for key in before
                       if before[key] is not None and before[key] != after[key]]
    failures = [Problem(s.notebook, t("not graded: {why}", why=t(why)),
                        t("fix the notebook (or ask the student to), then run grade again"),
                        student=s.student, assignment=s.assignment) for s, why in run.failed]
    keep_problems(root, "autograde", ids, failures, students)
    for submission, why in run.failed:
        log(f"error: {submission.notebook}: not graded: {why}; fix the notebook, then run "
            "grade again")
    for student, assignment_id, old, new in run.changes:
        log(f"score changed: {student} {assignment_id}: {old:g} -> {new:g}")
    for line in late_lines(lateness_of(root, [s for s, _ in run.graded])):
        log(line)
    return run


def lateness_of(root: Path, submissions):
    """[(student, assignment, Lateness)] of graded submissions, from the gradebook."""
    rows = []
    with open_gradebook(root) as gradebook:
        for s in submissions:
            try:
                rows.append((s.student, s.assignment,
                             lateness(gradebook.find_submission(s.assignment, s.student))))
            except MissingEntry:
                continue
    return rows


def _run_workers(root, todo, workers, timeout, isolation, run, log):
    by_student = defaultdict(list)
    for submission in todo:
        by_student[submission.student].append(submission)
    workers = max(1, min(workers or os.cpu_count() or 1, len(by_student)))
    log(f"grading {len(todo)} notebooks of {len(by_student)} students with {workers} workers")
    progress = Progress(len(todo))
    # Workers are spawned, not forked: the checks run torch in the worker, and torch's
    # OpenMP threads, once started in this process, would deadlock a forked child.
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                             initializer=_start_worker,
                             initargs=(str(root), timeout, isolation)) as pool:
        futures = [pool.submit(_grade_student, str(root), subs) for subs in by_student.values()]
        try:
            for future in as_completed(futures):
                for submission, ok, message in future.result():
                    (run.graded if ok else run.failed).append((submission, message))
                    progress.advance(f"{submission.student}/{submission.assignment}")
        except KeyboardInterrupt:
            pool.shutdown(wait=False, cancel_futures=True)
            log("interrupted: every notebook graded so far is kept; run grade again to go on")
            raise


def submission_scores(root: Path, assignment_id, student):
    """{grade cell: (score, max)} of one graded submission, or None."""
    with open_gradebook(root) as gradebook:
        try:
            notebook = gradebook.find_submission_notebook(assignment_id, assignment_id, student)
        except MissingEntry:
            return None
        return {g.name: (g.score, g.max_score) for g in notebook.grades}
