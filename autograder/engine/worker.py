"""A dask worker's part of grading: one submission in, its autograded folder out.

The worker writes the assignment's bundle into a folder of its own (once per bundle), puts the
submission in that folder's submitted/, resets the bundle's gradebook (master cells only) and
runs nbgrader's own autograde there, with the course's stages (the sandbox among them), but
for the student's and the submission's rows, which the client writes (worker_autograde.py). What
comes back is data: the autograded folder as bytes, or why it could not be graded. The worker
never writes the course: the client does, once per submission (autograder/engine/cluster.py),
so a task retried after its worker died cannot grade a student twice.

Started by hand on a grading host, a worker checks first that it can build the sandbox:

    dask worker tcp://HOST:8786 --nthreads 1 --preload autograder.engine.worker

refuses to start (one line says what is missing) when it cannot build the full sandbox in
any of its ways (sandbox/isolation.py: namespaces as root, user namespaces, Landlock);
KIT_WORKER_ISOLATION=limits accepts a worker with resource limits only.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
import shutil
import sqlite3
import sys
import tempfile
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path

from distributed import WorkerPlugin
from sqlalchemy import event
from sqlalchemy.engine import Engine

from autograder.checks.loader import load_assignment
from autograder.course.directory import course_config, isolation_of
from autograder.course.stages import RECORD, stage_names
from autograder.engine.bundle import GRADEBOOK, Bundle, Submission, read_files
from autograder.engine.master_notebooks import remember
from autograder.engine.worker_autograde import autograde_in_worker
from autograder.plumbing.timeline import mark
from autograder.sandbox import isolation
from autograder.sandbox.kernel import Settings, Zygote

NOTEBOOK_KERNEL_FAILED = ("the kernel that runs the notebook could not be started on this "
                          "machine (a limit on processes or memory, or the sandbox refused it)")
JUDGING_FAILED = ("the kernel that judges the steps could not be started on this machine (a "
                  "limit on processes or memory, the sandbox refused it, or the machine was "
                  "too busy to start it within the notebook's time limit)")
KNOWN_FAILURES = {
    "DeadKernelError": "the kernel died (os._exit, a crash or memory exhausted)",
    "CellTimeoutError": "a cell ran past the timeout and could not be interrupted",
    "NoSuchKernel": "the notebook's kernel is not installed",
    "JudgingKernelError": JUDGING_FAILED,  # grading/session.py
    "NotebookKernelError": NOTEBOOK_KERNEL_FAILED,  # grading/session.py
}
AUTOGRADE_FAILED = "nbgrader's autograde failed"
TEMPLATE_DIED = ("the kernel template died each time this notebook was graded (memory "
                 "exhausted, or killed from outside): grade it again")
TEMPLATE_ATTEMPTS = 2  # gradings of a notebook the kernel template may die in
# Failures of the machine, not of the notebook: the notebook is graded once the machine allows.
MACHINE_FAILURES = (TEMPLATE_DIED, JUDGING_FAILED, NOTEBOOK_KERNEL_FAILED)


@dataclass(frozen=True)
class Graded:
    """What a worker sends back for one submission."""

    student: str
    assignment: str
    ok: bool
    why: str = ""  # in English: the client translates it into the course's language
    isolation: str = ""  # how its kernels were confined (sandbox/isolation.py)
    files: dict = field(default_factory=dict, repr=False)  # the autograded folder


@functools.cache
def kit_version():
    """The kit's version and a digest of its code (every file of the autograder package, by
    path and content): two installs of the same version number with other code differ, so a
    worker on other kit code than its client refuses (`prepared`)."""
    try:
        number = importlib.metadata.version("attention-course-kit")
    except importlib.metadata.PackageNotFoundError:
        number = "unknown"
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            digest.update(path.relative_to(package).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return f"{number}+{digest.hexdigest()[:12]}"


class WorkerRefused(RuntimeError):
    """This worker cannot grade for this course (no sandbox, another kit): it grades
    nothing."""


def failure_reason(outcome):
    """Why nbgrader could not grade a notebook, in a few words."""
    text = failure_text(outcome)
    for name, reason in KNOWN_FAILURES.items():
        if name in text:
            return reason
    return failure_line(outcome) or AUTOGRADE_FAILED


def failure_line(outcome):
    """The last line of nbgrader's error and log of a failed autograde that names an error
    (the exception and its message), "" when none does."""
    lines = [line.strip() for line in failure_text(outcome).splitlines() if "Error" in line]
    return lines[-1] if lines else ""


def failure_text(outcome):
    """nbgrader's error and log of a failed autograde, together."""
    return (outcome.get("error") or "") + (outcome.get("log") or "")


def why_no_sandbox(setting):
    """None when this process can build the sandbox of `setting` ('full', 'limits'), else
    the one line that says what is missing and the ways out."""
    try:
        isolation.choose(setting)
    except isolation.NoSandbox as error:
        return str(error)
    return None


WORKSPACE_PREFIX = "kit-worker-"


def remove_orphaned_workspaces(folder: Path | None = None):
    """Remove the workspaces this user's workers left in the temporary folder when they were
    killed (a notebook that took the worker's memory, an interrupted grade): each is named by
    its worker's process id, and one whose process is gone is no one's. A name without an id
    (an older kit's) or of a live process is left."""
    folder = Path(folder or tempfile.gettempdir())
    for path in folder.glob(f"{WORKSPACE_PREFIX}*-*"):
        pid = path.name[len(WORKSPACE_PREFIX):].split("-", 1)[0]
        try:
            if not pid.isdigit() or path.lstat().st_uid != os.getuid() or path.is_symlink():
                continue
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except OSError:  # alive under another user, or the folder is gone
            continue


class Workspace:
    """This process's grading folders: one per assignment bundle, kept while it lives."""

    def __init__(self):
        remove_orphaned_workspaces()
        self.folder = Path(tempfile.mkdtemp(prefix=f"{WORKSPACE_PREFIX}{os.getpid()}-"))
        self.courses = {}  # bundle digest -> (folder, nbgrader API)
        self.checked = set()  # isolations found possible here
        if not event.contains(Engine, "connect", unsynced_if_throwaway):
            event.listen(Engine, "connect", unsynced_if_throwaway)

    def course(self, bundle: Bundle, overrides):
        key = (bundle.digest, repr(sorted(overrides.items())))
        if key not in self.courses:
            folder = self.folder / f"course-{len(self.courses)}"
            bundle.write(folder)
            (folder / f".{GRADEBOOK}").write_bytes(bundle.files[GRADEBOOK])  # the clean copy
            from autograder.engine.nbgrader_api import course_api

            url = f"sqlite:///{folder / GRADEBOOK}"
            settings = dict(overrides, CourseDirectory={"db_url": url})
            # The stages that write the gradebook run in the client, on the course's
            # (autograder/grading/write_back.py); here they would write a throwaway copy.
            listed = course_config(folder).Autograde.get("autograde_preprocessors")
            if listed:
                settings["Autograde"] = {"autograde_preprocessors": [
                    name for name in stage_names(listed) if name not in RECORD]}
            self.courses[key] = (folder, course_api(folder, **settings))
            mark(f"worker: {bundle.assignment} copied")
            remember(url, bundle.assignment)  # the copy each notebook starts from, read once
        return self.courses[key]

    def check_sandbox(self, api):
        isolation = isolation_of(api.config)
        if isolation not in self.checked:
            why = why_no_sandbox(isolation)
            if why:
                raise WorkerRefused(why)
            self.checked.add(isolation)

    def close(self):
        Zygote.close_shared()
        shutil.rmtree(self.folder, ignore_errors=True)


_WORKSPACE = None


def unsynced_if_throwaway(connection, _record):
    """A new SQLite connection to a gradebook inside this process's workspace (a throwaway
    copy, made again from the clean one for every notebook graded and every page written)
    commits without waiting for the disk: no sync (synchronous OFF), the rollback journal in
    memory. Under a class's load a synced commit took 1-7 ms here, and a page or a grading
    commits about ten times. A crash can spoil only a copy the next task makes anew; any other
    database (the course's gradebook above all) keeps SQLite's settings."""
    if _WORKSPACE is None or not isinstance(connection, sqlite3.Connection):
        return
    _, name, file = connection.execute("PRAGMA database_list").fetchone()
    if name == "main" and file and Path(file).resolve().is_relative_to(
            _WORKSPACE.folder.resolve()):
        connection.execute("PRAGMA synchronous = OFF")
        connection.execute("PRAGMA journal_mode = MEMORY")


def workspace() -> Workspace:
    global _WORKSPACE
    if _WORKSPACE is None:
        _WORKSPACE = Workspace()
    return _WORKSPACE


def prepared(bundle: Bundle, overrides, version):
    """(this worker's folder of the bundle, its nbgrader API), once the worker was found
    able to grade for the client: the same kit, and the sandbox the course asks for."""
    if version != kit_version():
        raise WorkerRefused(f"this worker runs kit {kit_version()}, the client {version} "
                            "(a version and a digest of the kit's code): install the same kit "
                            "on every grading host")
    folder, api = workspace().course(bundle, overrides)
    workspace().check_sandbox(api)
    os.chdir(folder)  # nbgrader reads some paths from the current folder
    return folder, api


def warm_workspace(bundle: Bundle, overrides, version):
    """`serve`'s warm-up task (serve/warm_up.py): this worker's copy of the assignment made
    and its hidden checks read, as the first grading of it would make and read them, before
    a notebook of it comes."""
    folder, _ = prepared(bundle, overrides, version)
    load_assignment(folder, bundle.assignment)


def grade_submission(bundle: Bundle, submission: Submission, overrides, version) -> Graded:
    """The dask task: grade one submission in this worker's copy of its assignment; again,
    with a new kernel template, when the template died meanwhile (its kernels died with it,
    which was none of the student's doing), at most TEMPLATE_ATTEMPTS times. Not with
    resource limits only: a kernel then runs as the grader's user and can kill the template
    itself, so its notebook's grading stands, as any kernel death's does."""
    mark("worker: task started")
    folder, api = prepared(bundle, overrides, version)
    mark("worker: course prepared")
    mechanism = Settings(isolation=isolation_of(api.config)).mechanism
    apart = mechanism in isolation.FULL  # kernels cannot reach the template
    for attempt in range(1, TEMPLATE_ATTEMPTS + 1):
        deaths = Zygote.deaths_so_far()
        graded = replace(grade_once(folder, api, submission), isolation=mechanism)
        if Zygote.deaths_so_far() == deaths:
            return graded
        then = ("its grading stands (with resource limits only, its own code could have "
                "killed the template)" if not apart else
                "it is graded again with a new template" if attempt < TEMPLATE_ATTEMPTS else
                "it is not graded")
        warnings.warn(f"the kernel template died while {submission.student}'s "
                      f"{submission.assignment} was graded (memory exhausted, or killed): its "
                      f"kernels died with it; {then}", stacklevel=2)
        if not apart:
            return graded
    return Graded(submission.student, submission.assignment, False, TEMPLATE_DIED)


def grade_once(folder: Path, api, submission: Submission) -> Graded:
    """One grading of `submission` in `folder`, this worker's copy of its assignment."""
    for stage in ("submitted", "autograded"):
        shutil.rmtree(folder / stage, ignore_errors=True)
    shutil.copyfile(folder / f".{GRADEBOOK}", folder / GRADEBOOK)
    Bundle(submission.assignment, submission.files).write(
        folder / "submitted" / submission.student / submission.assignment)
    outcome = autograde_in_worker(api, submission.assignment, submission.student,
                                  submission.draw_key)
    if not outcome["success"]:
        why = failure_reason(outcome)
        if why in MACHINE_FAILURES:  # the console says what to check; the log, what failed
            warnings.warn(f"{submission.student}'s {submission.assignment} was not graded: "
                          f"{failure_line(outcome)}", stacklevel=2)
        return Graded(submission.student, submission.assignment, False, why)
    graded = folder / "autograded" / submission.student / submission.assignment
    return Graded(submission.student, submission.assignment, True, files=read_files(graded))


class KitWorker(WorkerPlugin):
    """Set up a grading worker: one thread for torch (the workers fill the cores), its
    warnings in `log` (the course's grade.log, on the embedded cluster), and at its end the
    kernel template and the folders go."""

    name = "attention-kit"

    def __init__(self, log=None):
        self.log = log

    def setup(self, worker):
        os.environ["OMP_NUM_THREADS"] = "1"  # torch imported later reads it
        torch = sys.modules.get("torch")  # a grading worker's fork server imported it
        if torch is not None:
            torch.set_num_threads(1)
        if self.log:
            fd = os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            os.dup2(fd, 2)
            os.close(fd)

    def teardown(self, worker):
        global _WORKSPACE
        if _WORKSPACE is not None:
            _WORKSPACE.close()
            _WORKSPACE = None  # a worker in the client's own process may come again


def dask_setup(worker):
    """`dask worker --preload autograder.engine.worker`: refuse to start without the
    sandbox, rather than grade student code unconfined."""
    setting = os.environ.get("KIT_WORKER_ISOLATION", "full")
    why = why_no_sandbox(setting)
    if why:
        print(f"attention-kit: this worker refuses to grade: {why}", file=sys.stderr)
        raise SystemExit(1)
    print(f"attention-kit: this worker grades in the sandbox "
          f"{isolation.described(isolation.choose(setting))}", file=sys.stderr)
    KitWorker().setup(worker)
