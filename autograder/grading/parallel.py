"""Autograde many submissions with nbgrader, in parallel, resumably.

nbgrader grades one kernel at a time. Here each worker process owns a disjoint set of
students and runs nbgrader's own autograde (its Python API, so the process starts once) on
their notebooks. A submission counts as graded only once its marker is written, after
nbgrader finished it; a run that is interrupted leaves no half-graded submission counted,
and the next run picks up where it stopped.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import multiprocessing.util
import os
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import torch
from nbgrader.api import MissingEntry

from autograder.course import Course, check_ids, course_ids, open_gradebook, write_atomically
from autograder.errors import KitError
from autograder.grading.submissions import find_submissions, grade_ids
from autograder.progress import Progress
from autograder.sandbox.kernel import Zygote

MARKER = ".kit-graded.json"


@dataclass
class GradeRun:
    graded: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    failed: list = field(default_factory=list)
    problems: list = field(default_factory=list)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def marker_path(root: Path, student, assignment_id) -> Path:
    return root / "autograded" / student / assignment_id / MARKER


def is_graded(root: Path, submission) -> bool:
    marker = marker_path(root, submission.student, submission.assignment)
    try:
        return json.loads(marker.read_text())["submitted_sha256"] == digest(submission.notebook)
    except (OSError, ValueError, KeyError):
        return False


def write_marker(root: Path, submission):
    marker = marker_path(root, submission.student, submission.assignment)
    write_atomically(marker, json.dumps({"submitted_sha256": digest(submission.notebook)}))


def expected_tests(root: Path, ids):
    return {
        i: grade_ids(nbformat.read(root / "source" / i / f"{i}.ipynb", as_version=4))
        for i in ids
    }


def register_assignments(root: Path, ids, log):
    """Make sure the gradebook knows each assignment and its graded cells."""
    course = Course(root)
    with open_gradebook(root) as gradebook:
        known = {a.name for a in gradebook.assignments if a.notebooks}
    for assignment_id in ids:
        if assignment_id not in known:
            log(f"registering {assignment_id} in the gradebook (nbgrader generate_assignment)")
            course.generate(assignment_id)


def forget_unfinished(root: Path, ids):
    """Remove from the gradebook every submission that has no marker: an autograde that was
    interrupted, or failed, must not count (its notebook will be graded again)."""
    removed = []
    with open_gradebook(root) as gradebook:
        for assignment_id in ids:
            for submission in list(gradebook.assignment_submissions(assignment_id)):
                student = submission.student.id
                if not marker_path(root, student, assignment_id).exists():
                    gradebook.remove_submission(assignment_id, student)
                    removed.append((student, assignment_id))
    return removed


_API = None


def _start_worker(root, timeout, isolation):
    """Worker start-up: one nbgrader API per process; kernels use one thread each, since the
    workers already fill the cores."""
    global _API
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
    """Grade one student's notebooks; return (student, assignment, ok, message) each."""
    results = []
    for submission in submissions:
        outcome = _API.autograde(submission.assignment, submission.student, force=True,
                                 create=True)
        if outcome["success"]:
            write_marker(Path(root), submission)
            results.append((submission, True, ""))
        else:
            results.append((submission, False, failure_reason(outcome)))
    return results


KNOWN_FAILURES = {
    "DeadKernelError": "the kernel died (os._exit, a crash or memory exhausted)",
    "CellTimeoutError": "a cell ran past the timeout and could not be interrupted",
    "NoSuchKernel": "the notebook's kernel is not installed",
}


def failure_reason(outcome):
    """Why nbgrader could not grade a notebook, in a few words."""
    text = (outcome.get("error") or "") + (outcome.get("log") or "")
    for name, reason in KNOWN_FAILURES.items():
        if name in text:
            return reason
    lines = [line.strip() for line in text.splitlines() if "Error" in line]
    return lines[-1] if lines else "nbgrader's autograde failed"


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


def grade(root: Path, ids=(), workers=None, force=False, timeout=None, log=print,
          isolation=None):
    """Autograde every submission of the given assignments (all when none given).
    `timeout`: seconds a cell or check may run; `isolation`: the sandbox's, when not the
    course's configured one ("full" or "limits")."""
    root = root.resolve()
    ids = check_ids(ids, course_ids(root))
    check_kernel()
    run = GradeRun()
    register_assignments(root, ids, log)
    forget_unfinished(root, ids)
    ready, run.problems = find_submissions(root, ids, expected_tests(root, ids))
    for problem in run.problems:
        log(f"warning: {problem}" if problem.graded_anyway else f"error: {problem}")
    todo = [s for s in ready if force or not is_graded(root, s)]
    run.skipped = [s for s in ready if s not in todo]
    if run.skipped:
        log(f"{len(run.skipped)} notebooks already graded (use --force to grade them again)")
    if not todo:
        return run
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
            forget_unfinished(root, ids)
            log("interrupted: every notebook graded so far is kept; run grade again to go on")
            raise
    forget_unfinished(root, ids)
    for submission, message in run.failed:
        log(f"error: {submission.notebook}: not graded: {message}; fix the notebook, then run "
            "grade again")
    return run


def submission_scores(root: Path, assignment_id, student):
    """{grade cell: (score, max)} of one graded submission, or None."""
    with open_gradebook(root) as gradebook:
        try:
            notebook = gradebook.find_submission_notebook(assignment_id, assignment_id, student)
        except MissingEntry:
            return None
        return {g.name: (g.score, g.max_score) for g in notebook.grades}
