"""The grading engine: dask.distributed, on this machine or on a cluster.

By default `grade` starts an embedded LocalCluster (worker processes with one thread each, a
memory limit per worker from nbgrader_config.py); `--scheduler tcp://HOST:8786`, or
c.Cluster.scheduler, sends the work to an existing cluster instead. Either way a task is a
function of data (autograder/engine/bundle.py in, autograder/engine/worker.py's `Graded`
out), and only this process, the client, writes the course: every result once, as it comes.

    client (the course folder, the gradebook, the ledger, the lock)
       | bundle of each assignment (once) + one submission per task
       v
    scheduler --> worker --> worker ...   (each: its own folder, nbgrader, the sandbox)
       | Graded: the autograded folder as bytes, or why not
       v
    client: autograded/<student>/<id>/, the gradebook (nbgrader's SaveAutoGrades ...), ledger

A worker that dies mid-task (SIGKILL, memory) has its task retried on another by the
scheduler; a notebook that kills `allowed-failures` workers comes back as KilledWorker and is
not gradable, with that reason. Ctrl-C cancels the tasks not finished; what came back is kept.
"""

from __future__ import annotations

import contextlib
import copy
import logging
import multiprocessing
import os
import shutil
import tempfile
import time
import uuid
import warnings
from collections import Counter
from pathlib import Path

import dask
from distributed import Client, KilledWorker, LocalCluster, as_completed
from distributed.comm.core import CommClosedError
from distributed.utils import get_mp_context
from traitlets import Integer, Unicode
from traitlets.config import Configurable

from autograder.checks.loader import load_assignment
from autograder.course.submission_files import NOTEBOOK_BYTES, Unwalkable
from autograder.engine import fork_server
from autograder.engine.bundle import (
    Bundle,
    assignment_bundle,
    submission_of,
)
from autograder.engine.cluster_security import CLOSED_HTTP, HOST, private_security
from autograder.engine.worker import (
    Graded,
    KitWorker,
    WorkerRefused,
    grade_submission,
    kit_version,
    remove_orphaned_workspaces,
    warm_workspace,
)
from autograder.engine.worker_watch import WORKERLESS_WAIT, WorkerWatch
from autograder.i18n import t
from autograder.plumbing import timeline
from autograder.plumbing.errors import EngineError
from autograder.plumbing.hash_seed import seed_of_this_process
from autograder.plumbing.quiet_imports import ctrl_c_held
from autograder.sandbox import handover, spare_kernel
from autograder.sandbox.kernel import (
    Zygote,
    descends_from_this_process,
    process_runs,
    remove_scratch_of,
    scratch_owners,
    template_pool,
)

WORKER_HINT = ("PYTHONHASHSEED=0 dask worker {address} --nthreads 1 "
               "--preload autograder.engine.worker")


class Cluster(Configurable):
    """Where grading runs (nbgrader_config.py: c.Cluster....)."""

    scheduler = Unicode("", help="address of a running dask scheduler to grade on, e.g. "
                        "'tcp://10.0.0.5:8786' (workers started with `" + WORKER_HINT.format(
                            address="ADDRESS") + "`); empty: a cluster of this machine's cores"
                        ).tag(config=True)
    worker_memory_mb = Integer(4096, help="memory of one worker process of the embedded "
                               "cluster, in MiB (its kernels have their own limit, "
                               "GradeInSandbox.memory_limit_mb); a worker past it is restarted "
                               "and its notebook graded again elsewhere").tag(config=True)
    allowed_failures = Integer(3, help="how many workers may die grading one notebook before "
                               "it is reported not gradable (embedded cluster; an external "
                               "scheduler has its own distributed.scheduler.allowed-failures)"
                               ).tag(config=True)


def start_client(config, workers, scheduler, log_file: Path, say, kernels=None,
                 in_process=False):
    """A dask Client on the course's cluster: the one at `scheduler` (or c.Cluster.scheduler)
    or a new embedded LocalCluster of `workers` processes; with `kernels` (to grade: the
    mechanism that confines them, sandbox/isolation.py), a kernel template for each of its
    workers starts with it (sandbox/handover.py). `in_process` (embedded only): one worker,
    a thread of this process (in_process_cluster)."""
    settings = Cluster(config=config)
    address = scheduler or settings.scheduler
    if in_process and not address and KeptWarm.client is not None:
        return KeptWarm.client  # `serve` keeps it, its template and the imports warm
    if in_process and not address:
        client = in_process_client(log_file)
        plugin = KitWorker()  # no log: this process's stderr stays the console
    elif address:
        try:
            client = Client(address, timeout="10s")
        except (OSError, TimeoutError) as error:
            raise EngineError(t("no dask scheduler answers at {address} ({error}); start one "
                                "with `dask scheduler` or correct --scheduler", address=address,
                                error=error)) from error
        except TypeError as error:  # tls:// without dask's TLS settings: no ssl context
            raise EngineError(t("the scheduler at {address} speaks TLS, and this command has no "
                                "TLS settings of dask's ({error}); give it the cluster's "
                                "distributed.comm.tls certificates (python -m autograder guide "
                                "clusters)", address=address, error=error)) from error
        try:
            client.wait_for_workers(1, timeout=WORKERLESS_WAIT)
        except TimeoutError as error:
            client.close()
            raise EngineError(t("the scheduler at {address} has no worker after {seconds:.0f} "
                                "s; start some with `{command}`", address=address,
                                seconds=WORKERLESS_WAIT,
                                command=WORKER_HINT.format(address=address))) from error
        if not encrypted(address):
            say(t("warning: the scheduler at {address} speaks without TLS: whoever can reach "
                  "it (on a shared machine, every user: 127.0.0.1 is theirs too) can connect "
                  "and run code as its workers' user, reading the course's secret and "
                  "reference answers; give the cluster dask's TLS settings (python -m "
                  "autograder guide clusters)", address=address))
        plugin = KitWorker()
    else:
        templates = template_pool(workers, log_file, kernels) if kernels else None
        env = {"OMP_NUM_THREADS": "1"}
        if templates:
            env[handover.FOLDER_VARIABLE] = str(templates.folder)
        try:
            with forked_workers(fork_server.WORKER_IMPORTS if kernels else
                                fork_server.PAGE_IMPORTS):
                cluster = local_cluster({"distributed.scheduler.allowed-failures":
                                         settings.allowed_failures},
                                        n_workers=workers, threads_per_worker=1,
                                        processes=True, host=HOST, security=private_security(),
                                        memory_limit=f"{settings.worker_memory_mb}MiB",
                                        dashboard_address=f"{HOST}:0",
                                        worker_dashboard_address=f"{HOST}:0",
                                        silence_logs=logging.CRITICAL, env=env)
        except BaseException:
            close_cluster(None, templates)
            raise
        try:
            client = Client(cluster)
        except BaseException:
            close_cluster(cluster, templates)
            raise
        client.kit_templates = templates  # closed with the cluster (close_client)
        plugin = KitWorker(log=str(log_file))
    try:
        register(client, plugin, say)
        if client.run_on_scheduler(has_dashboard):
            say(t("dashboard: {link}", link=client.dashboard_link) if address else
                t("dashboard: {link} (bokeh is installed; the page is open to every user of "
                  "this machine while grading runs)", link=client.dashboard_link))
    except BaseException:
        close_client(client)  # the embedded cluster and its templates with it
        raise
    return client


def encrypted(address) -> bool:
    """Whether dask speaks TLS to `address` (tls:// or wss://; a bare HOST:PORT is tcp)."""
    return address.split("://", 1)[0] in ("tls", "wss") if "://" in address else False


class KeptWarm:
    """The in-process client `serve` keeps from one grading to the next (kept_warm): a
    command that would start one (a notebook or a page at a time) takes it instead, its
    kernel template already running, and close_client leaves it open."""

    client = None


@contextlib.contextmanager
def kept_warm(config, log_file: Path, say):
    """An in-process client kept open while the block runs (KeptWarm); closed after it,
    its template and kernels with it."""
    client = start_client(config, 1, None, log_file, say, in_process=True)
    KeptWarm.client = client
    try:
        yield client
    finally:
        KeptWarm.client = None
        close_client(client)


def in_process_client(log_file: Path):
    """A Client on an embedded cluster whose one worker is a thread of this process: for one
    notebook, no worker process to start, nor a fork server, nor a template copy for it (a
    cold Gradescope run's processes held 785 MiB of their own memory with them, 465 without).
    The worker's template is its own (kernel.py's Zygote, started at its first kernel, ended
    with the client); no memory limit of its own (the kernels have theirs); its folder changes
    (worker.py, `prepared`) are undone as the client closes."""
    Zygote.stop_all(stopped=False)  # an earlier grading in this process may have stopped
    cluster = local_cluster({}, n_workers=1, threads_per_worker=1,  # inproc: no port
                            processes=False, memory_limit=0,  # but the pages'
                            dashboard_address=f"{HOST}:0", silence_logs=logging.CRITICAL)
    try:
        client = Client(cluster)
    except BaseException:
        close_cluster(cluster, None)
        raise
    client.kit_cwd = os.getcwd()
    # The worker's warnings (a template that died, a notebook graded again) go to grade.log,
    # as a worker process's stderr does, until the client closes.
    client.kit_warnings = warnings.showwarning
    warnings.showwarning = warnings_to(log_file)
    return client


def warnings_to(log_file: Path):
    """A warnings.showwarning that appends each warning to `log_file`, as Python prints it."""

    def show(message, category, filename, lineno, file=None, line=None):
        with contextlib.suppress(OSError), open(log_file, "a", encoding="utf-8") as log:
            log.write(warnings.formatwarning(message, category, filename, lineno, line))

    return show


REGISTER_ATTEMPTS = 3


def register(client, plugin, say):
    """Set the kit up on every worker (the plugin). A worker that dies meanwhile breaks the
    scheduler's broadcast (CommClosedError): the plugin is registered again, on the workers
    left, as long as one is; a worker that joins later gets it from the scheduler."""
    for attempt in range(1, REGISTER_ATTEMPTS + 1):
        try:
            client.register_plugin(plugin)
            say_unsteady_hashing(client, say)
            return
        except (CommClosedError, OSError) as error:
            if attempt == REGISTER_ATTEMPTS or not client.scheduler_info().get("workers"):
                raise EngineError(t("the kit could not be set up on the cluster's workers: "
                                    "{error}; check that they run (`{command}`)", error=error,
                                    command=WORKER_HINT.format(address="ADDRESS"))) from error
            say(t("a worker left while the kit was set up on the cluster ({error}); setting it "
                  "up again on the others", error=type(error).__name__))


def say_unsteady_hashing(client, say):
    """Say which workers hash strings at random, or with another seed than most workers
    (plumbing/hash_seed.py): a catalogued mistake whose code iterates a set may then be named
    on one regrade and not on the next (the scores hold)."""
    seeds = client.run(seed_of_this_process)
    common = Counter(seed for seed in seeds.values() if seed is not None).most_common(1)
    unsteady = sorted(address for address, seed in seeds.items()
                      if seed is None or seed != common[0][0])
    if unsteady:
        say(t("{count} of the cluster's workers ({workers}) hash strings at random or unlike "
              "the others: a mistake named to a student whose code iterates a set may be "
              "named on one regrade and not on the next; start every worker alike, with "
              "PYTHONHASHSEED=0 (`{command}`)", count=len(unsteady),
              workers=", ".join(unsteady), command=WORKER_HINT.format(address="ADDRESS")))


# The embedded cluster's periodic work, cut to what grading uses. Its workers do not sample
# their own stacks for the dashboard's profile page (every 10 ms in each worker, about a
# twelfth of a worker's CPU); each server (the scheduler, nannies, workers) checks that its
# event loop is not blocked every 500 ms rather than every 20 ms, and samples the machine's
# CPU, memory and network for the dashboard every 2 s rather than every 0.5 s; and the
# scheduler does not try to move tasks between workers (each holds only the notebook it
# grades: there is nothing to move). An idle cluster of two workers used 7% of a core, now
# 3%. The memory limit of a worker is watched as often as before.
QUIET_CLUSTER = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.scheduler.work-stealing": False,
}


@contextlib.contextmanager
def forked_workers(imports):
    """While the embedded cluster starts: its workers are forked from one process
    (multiprocessing's fork server, started by the first, or before it by the command:
    fork_server.py), which imported `imports` (a grading worker's, or a page writer's), so
    the workers share them instead of each importing them anew (about 2.5 CPU s a worker)."""
    with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):
        get_mp_context()  # dask sets the server's imports once, at its first call: ours after
        multiprocessing.get_context("forkserver").set_forkserver_preload(imports)
        with contextlib.suppress(OSError, ValueError):  # else started by the cluster, as ever
            fork_server.ensure_running()  # deaf to Ctrl-C, as one started early
        yield


def has_dashboard():
    """Whether the scheduler serves its dashboard (it needs bokeh)."""
    import importlib.util

    return importlib.util.find_spec("bokeh") is not None


def close_client(client):
    """Close `client`, and the cluster started with it (close_cluster); a Ctrl-C meanwhile
    is held until all is closed, then raised."""
    if client is KeptWarm.client:
        return  # kept for the next command of `serve`; kept_warm closes it
    with ctrl_c_held():
        _close_client(client)


def _close_client(client):
    cluster = client.cluster
    if in_process(client):
        stop_in_process(cluster)
        os.chdir(client.kit_cwd)
        warnings.showwarning = client.kit_warnings
    with contextlib.suppress(Exception), closing_quietly():
        client.close()
    close_cluster(cluster, getattr(client, "kit_templates", None))
    if in_process(client):  # its task has ended: kernels may start
        Zygote.stop_all(stopped=False)  # again in this process (the next grade, a caller's)


def in_process(client) -> bool:
    """Whether `client`'s one worker is a thread of this process (in_process_client)."""
    return getattr(client, "kit_cwd", None) is not None


IN_PROCESS_WAIT = 30  # seconds a stopped in-process task has to end


def stop_in_process(cluster):
    """Stop the in-process worker's grading before its folders go: its template ends (its
    kernels with it) and no other starts, so a task still running (the client was
    interrupted) fails at once; it is waited for, so that nothing writes into the worker's
    folders once they are removed."""
    with contextlib.suppress(Exception):
        spare_kernel.discard()  # while its template can still be asked to end it
    with contextlib.suppress(Exception):
        Zygote.stop_all()
    deadline = time.monotonic() + IN_PROCESS_WAIT
    workers = list(getattr(cluster, "workers", {}).values())
    while time.monotonic() < deadline and any(getattr(w, "active_threads", None)
                                              for w in workers):
        time.sleep(0.05)


def local_cluster(config, **options):
    """An embedded LocalCluster of `options`, started under dask's `config` (and the kit's
    quiet, closed one), its scheduler and workers writing dask's scratch files (spill files,
    locks) in a folder of its own, removed with it by close_cluster: dask's default, a
    dask-scratch-space folder in the temporary folder, would stay there after every run.
    A Ctrl-C while it starts (some 0.2 s, longer on a busy machine) is held until it has
    started, then the cluster is closed and the Ctrl-C raised: raised inside the start, it
    left a worker half started, which dask's exit handler then failed to close (a traceback
    under the command's own word), or it was lost in dask's event loop and the grade went
    on to its end."""
    scratch = tempfile.mkdtemp(prefix="kit-dask-")
    timeline.mark("cluster: starting")
    cluster = None
    try:
        with dask.config.set({**config, "temporary-directory": scratch, **QUIET_CLUSTER,
                              **CLOSED_HTTP}), ctrl_c_held():
            cluster = LocalCluster(local_directory=scratch, **options)
    except BaseException:
        if cluster is not None:
            with contextlib.suppress(Exception), closing_quietly():
                cluster.close()
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    cluster.kit_scratch = scratch
    return cluster


def close_cluster(cluster, templates):
    """End the embedded cluster (None: an external one, left running), the fork server of its
    workers, then the kernel template started with it (its copies end with the workers that
    took them). A worker of its that was killed left its folder behind: it goes now, and the
    cluster's scratch folder with it. A Ctrl-C meanwhile is held until all is closed, then
    raised: raised inside dask's close, it left the cluster's scratch folder in
    the temporary folder for good, and the command took 10 s more to end."""
    timeline.mark("cluster: closing")
    with ctrl_c_held():
        _close_cluster(cluster, templates)


def _close_cluster(cluster, templates):
    graders = []  # the cluster's workers that were grading a notebook (a Ctrl-C came)
    if cluster is not None:
        graders = [pid for pid in scratch_owners() if descends_from_this_process(pid)]
        with contextlib.suppress(Exception), closing_quietly():
            cluster.close()
        fork_server.stop()
        remove_orphaned_workspaces()
        scratch = getattr(cluster, "kit_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    if templates is not None:
        templates.close()
    if graders:
        remove_graders_scratch(graders)


GRADERS_END_WAIT = 5  # seconds the closed cluster's workers have to end before their folders go


def remove_graders_scratch(graders):
    """The scratch folders of the notebooks the workers `graders` (process ids) were grading
    as their cluster was closed: they go once the workers have ended (waited for up to
    GRADERS_END_WAIT s; dask's close returns before), rather than wait for the next grade."""
    deadline = time.monotonic() + GRADERS_END_WAIT
    while any(map(process_runs, graders)) and time.monotonic() < deadline:
        time.sleep(0.02)
    remove_scratch_of(set(graders))


UNRETRIEVED = ("Future exception was never retrieved", "Task exception was never retrieved")


@contextlib.contextmanager
def closing_quietly():
    """While the block closes a cluster, neither dask nor asyncio prints on the console: the
    cluster's own silence (silence_logs) ends before its event loop does, and a comm closed
    under a message still being sent printed dask's "Batched Comm Closed" with its traceback
    under the command's own word (a Ctrl-C as feedback wrote its pages in this process);
    closed just after it started (a Ctrl-C held while it started), a scheduler still telling
    its workers something left futures failed and unread, whose CommClosedError asyncio
    printed. Anything else asyncio logs, it logs."""
    logger = logging.getLogger("asyncio")
    unread = _UnretrievedFilter()
    logger.addFilter(unread)
    handlers = [h for h in logging.getLogger("distributed").handlers
                if isinstance(h, logging.StreamHandler)]
    levels = [h.level for h in handlers]
    for handler in handlers:
        handler.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for handler, level in zip(handlers, levels, strict=True):
            handler.setLevel(level)
        logger.removeFilter(unread)


class _UnretrievedFilter(logging.Filter):
    def filter(self, record):
        return not str(record.msg).startswith(UNRETRIEVED)


def grade_all(client, root: Path, todo, overrides, started, keep, keys):
    """Grade every submission of `todo` on the cluster, each with its draw key (`keys`:
    (student, assignment) -> bytes): `started(submission)` as its task is sent,
    `keep(submission, Graded)` in this process as it comes back."""
    bundles = {a: sent_once(client, assignment_bundle(root, a))
               for a in sorted({s.assignment for s in todo})}

    def task(submission):
        started(submission)
        student, assignment_id = submission.student, submission.assignment
        return client.submit(
            grade_submission, bundles[assignment_id],
            submission_of(root, student, assignment_id, keys[(student, assignment_id)]),
            overrides, kit_version(), pure=False, key=f"grade-{student}-{uuid.uuid4().hex}")

    run_all(client, todo, task, keep)


def warm_assignment(client, root: Path, assignment_id):
    """What the first grade of an assignment makes and reads, now (`serve`'s warm-up): its
    checks (which grade reads to check the master notebook's test cells) and its bundle in
    this process, and the worker's copy of it with its checks read (warm_workspace), for a
    grade with the course's own sandbox settings (no --timeout nor --isolation)."""
    load_assignment(root, assignment_id)
    bundle = assignment_bundle(root, assignment_id)
    client.submit(warm_workspace, bundle, {}, kit_version(), pure=False,
                  key=f"warm-{assignment_id}-{uuid.uuid4().hex}").result()


def sent_once(client, bundle: Bundle):
    """`bundle` on the cluster, as a future every task of a run takes in its place: sent
    with each task, its bytes (an assignment's files, about 0.7 MB) cost some 5 ms of this
    process's CPU a task (bench/grading.py, the engine's cost per task), an eighth of a
    feedback page's time. A task makes it, so it has a lineage: when the worker that holds it
    dies, the scheduler makes it again on another. The task is the standard library's
    copy.copy, which every worker has: a worker of another kit (without a function of the
    kit's own that it would have to find) still reaches the tasks' check of the kit's
    version (worker.prepared), which says so."""
    return client.submit(copy.copy, bundle, pure=False,
                         key=f"bundle-{bundle.assignment}-{uuid.uuid4().hex}")


# A task carries one notebook (NOTEBOOK_BYTES at most; its assignment's bundle is sent once,
# sent_once), by design: dask's warning of a "large graph" past its 10 MB default told
# instructors of a notebook with big outputs to load data with dask instead.
LARGE_TASK = {"distributed.admin.large-graph-warning-threshold": 2 * NOTEBOOK_BYTES}


LOOK_AHEAD = 1  # tasks queued on a worker in this process beyond the one it runs


def run_all(client, items, task, keep):
    """`task(item)` (a future) for every item, `keep(item, Graded)` as each finishes.

    As many tasks are in flight as the cluster has threads (counted again as workers come
    and go, WorkerWatch), each placed on a worker with a free thread (free_worker), so a
    worker holds only the notebook it works on: one that dies takes no other notebook's
    chances with it, and the scheduler holds a few notebooks, not the class. A worker in this
    process holds one more (LOOK_AHEAD): it cannot die without the run, and its thread then
    starts the next task at once, rather than after the round trip through the client, some
    10 ms a task (a feedback page is 20-30 ms of work). A cluster left
    without a worker ends the run (WorkerWatch) rather than keep it waiting in silence. An
    item whose folder cannot be read to be sent (beyond the bounds of a walk over a
    submission) is kept as not done, with why, and the others go on."""
    queue = list(items)
    running = {}  # future -> item
    placed = {}  # future -> the address of the worker it was placed on (None: any)
    flow = as_completed()
    watch = WorkerWatch(client, running.copy, workers_advice(client))
    look_ahead = LOOK_AHEAD if in_process(client) else 0

    def fill():
        while queue and len(running) < watch.threads + look_ahead:
            item = queue.pop(0)
            worker = free_worker(watch.workers, placed.values())
            try:
                with on_worker(worker):
                    future = task(item)
            except Unwalkable as error:
                keep(item, not_done(item, t("the submission folder cannot be looked "
                                            "through: {error}", error=error)))
                continue
            running[future], placed[future] = item, worker
            flow.add(future)

    try:
        with dask.config.set(LARGE_TASK), watch:
            fill()
            for future in flow:
                watch.check()  # the cluster without a worker: its tasks were cancelled
                item = running.pop(future)
                del placed[future]
                fill()  # before writing this result, so that no worker waits for it
                keep(item, outcome(future, item))
    except BaseException:
        client.cancel(list(running), force=True)
        raise


def free_worker(workers: dict, placed) -> str | None:
    """The address of the worker of `workers` ({address: threads}) with the most threads not
    taken by a task `placed` on it (addresses), the first in order on a tie; None when there
    is no worker (the task then waits for any)."""
    taken = Counter(placed)
    return max(sorted(workers), key=lambda address: workers[address] - taken[address],
               default=None)


def on_worker(worker):
    """Tasks sent in this block are placed on `worker` (an address; None: anywhere), or on
    another worker if it is gone. Without it the scheduler sends every task of a run where
    the assignment's bundle (sent_once) is, until other workers copied it: a worker held two
    notebooks while another waited, and a worker that died took both with it (in a 2-worker
    class of 0.5 s tasks: 3.6 s, against 2.6 s placed)."""
    if worker is None:
        return contextlib.nullcontext()
    return dask.annotate(workers=[worker], allow_other_workers=True)


def workers_advice(client):
    """What to do when the cluster of `client` has no worker (WorkerWatch)."""
    if client.cluster is None:
        return t("start workers with `{command}`",
                 command=WORKER_HINT.format(address=client.scheduler.address))
    return t("its workers ended and did not start again: grade.log says why")


def outcome(future, item) -> Graded:
    """The Graded of a finished task; a task that could not finish is a Graded too (of the
    student `item` names: a submission or a student id)."""
    error = future.exception() if future.status == "error" else None
    if error is None:
        return future.result()
    if isinstance(error, WorkerRefused):
        raise EngineError(t("a grading worker refused: {why}", why=error))
    if isinstance(error, KilledWorker):
        why = t("the grading worker died each time it graded this notebook (memory "
                "exhausted, or the process was killed)")
    else:
        why = t("the grader failed on this notebook ({error})",
                error=f"{type(error).__name__}: {error}")
    return not_done(item, why)


def not_done(item, why) -> Graded:
    """The Graded of a task that could not finish, of the student `item` names (a submission
    or a student id)."""
    return Graded(getattr(item, "student", item), getattr(item, "assignment", ""), False, why)
