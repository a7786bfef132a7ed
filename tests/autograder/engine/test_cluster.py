"""Tests for autograder.engine.cluster: the embedded cluster's workers, as they start, and
where run_all places its tasks."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import psutil
import pytest
from traitlets.config import Config

from autograder.course.directory import Course, nbgrader_env
from autograder.engine.cluster import close_client, start_client
from autograder.grading.parallel import grade
from autograder.sandbox.isolation import choose
from autograder.sandbox.kernel import Zygote
from autograder.sandbox.socket_folder import socket_parent
from autograder.tools import simulate
from tests.autograder.ctrl_c_at import ctrl_c_at, said_interrupted

# alone: its tests interrupt grade at a moment a sleep picks, and were not tried two files at
# a time since a Ctrl-C while grade starts its fork server stopped being lost
# (docs/not-done.md: a Ctrl-C lost).
pytestmark = pytest.mark.alone

KIT = Path(__file__).resolve().parents[3]
ID = "01_attention_by_hand"


def parent_of_this_worker():
    """(the parent's command line, whether torch's library is mapped in the parent)."""
    parent = os.getppid()
    command = Path(f"/proc/{parent}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    return command, "libtorch" in Path(f"/proc/{parent}/maps").read_text()


@pytest.mark.parametrize("grading", [True, False], ids=["grading", "pages"])
def test_the_workers_are_forked_from_one_process_that_imported_what_they_need(tmp_path,
                                                                              grading):
    """Are both workers of the embedded cluster children of multiprocessing's fork server,
    which imported what they need once for them (torch for grading; for feedback pages, no
    torch, which no page needs), rather than each a fresh interpreter importing it all again;
    and is the fork server gone once the cluster is closed?"""
    client = start_client(Config(), 2, None, tmp_path / "grade.log", lambda _: None,
                          kernels=choose("limits") if grading else None)
    try:
        client.wait_for_workers(2, timeout=60)
        # first, and with a builtin: running a function of this module imports it, and torch
        imported = client.run(eval, "'torch' in __import__('sys').modules")
        parents = client.run(parent_of_this_worker)
        server = psutil.Process(client.run(os.getppid).popitem()[1])
    finally:
        close_client(client)
    assert len(parents) == 2
    for command, has_torch in parents.values():
        assert "forkserver" in command and has_torch == grading, command
    assert list(imported.values()) == [grading, grading]
    assert not server.is_running()


def periodic(dask_worker=None, dask_scheduler=None, nanny=None):
    """{name: interval in ms} of a dask server's periodic callbacks (as client.run and
    run_on_scheduler name the server they run it on)."""
    server = dask_worker or dask_scheduler or nanny
    return {name: callback.callback_time for name, callback in server.periodic_callbacks.items()}


def test_the_cluster_does_only_the_periodic_work_grading_uses(tmp_path):
    """Does no worker of the embedded cluster sample its own stacks for the dashboard (a
    twelfth of its CPU), does no server check its event loop every 20 ms nor sample the
    machine every 0.5 s, and does the scheduler not steal work, while the heartbeats and
    the watch of each worker's memory go on as before?"""
    client = start_client(Config(), 2, None, tmp_path / "grade.log", lambda _: None)
    try:
        client.wait_for_workers(2, timeout=60)
        workers = client.run(periodic)
        scheduler = client.run_on_scheduler(periodic)
        stealing = client.run_on_scheduler(lambda dask_scheduler: "stealing" in
                                           dask_scheduler.extensions)
        nannies = [periodic(nanny=nanny) for nanny in client.cluster.workers.values()]
    finally:
        close_client(client)
    assert len(workers) == 2 and len(nannies) == 2
    for callbacks in workers.values():
        assert "profile" not in callbacks and "profile-cycle" not in callbacks, callbacks
        assert "heartbeat" in callbacks, callbacks
    for callbacks in [*workers.values(), scheduler, *nannies]:
        assert callbacks["tick"] == 500, callbacks
        assert callbacks.get("monitor", 2000) == 2000, callbacks
    assert not stealing
    assert all(callbacks["memory_monitor"] == 100 for callbacks in nannies), nannies


def template_of_this_worker():
    from autograder.sandbox.kernel import Zygote

    return Zygote.shared().process.pid


def test_a_grading_cluster_starts_a_template_for_each_worker_and_ends_them_all(tmp_path):
    """Does a cluster started to grade (kernels: their sandbox's mechanism) hand each of its
    workers a copy of the one template the client started with it (not one the worker starts
    at its first notebook), and does closing it end the template and its copies, remove
    their folder, and end the fork server?"""
    client = start_client(Config(), 2, None, tmp_path / "grade.log", lambda _: None,
                          kernels=choose("full"))
    try:
        client.wait_for_workers(2, timeout=60)
        pool = client.kit_templates
        taken = client.run(template_of_this_worker)
        copies = [psutil.Process(pid) for pid in taken.values()]
        parents = {copy.ppid() for copy in copies}
        server = psutil.Process(client.run(os.getppid).popitem()[1])
    finally:
        close_client(client)
    assert len(set(taken.values())) == 2
    assert parents == {pool.process.pid}
    assert pool.process.returncode == 0
    assert not any(copy.is_running() for copy in copies)
    assert not pool.folder.exists()
    assert not server.is_running()


def one_notebook_course(folder, student, notebook_of):
    """A course of 01 with one submission, `notebook_of(release, source)`: its root."""
    course = Course.create(folder / "course", KIT, [ID])
    course.generate(ID)
    release = nbformat.read(course.root / "release" / ID / f"{ID}.ipynb", 4)
    source = nbformat.read(KIT / "source" / ID / f"{ID}.ipynb", 4)
    course.submit(student, ID, notebook_of(release, source))
    return course.root


def grade_started(root, scratch, *args):
    """`grade` in a process of its own, its temporary folders in `scratch`, once one of its
    kernels runs the student's cells."""
    scratch.mkdir()
    run = subprocess.Popen([sys.executable, "-m", "autograder", "grade", *args], cwd=root,
                           env={**nbgrader_env(), "TMPDIR": str(scratch)}, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sockets = Path(socket_parent(scratch))  # where its kernels' folders go
    deadline = time.monotonic() + 120
    while not list(sockets.glob(f"kit-sandbox-{run.pid}-*")) and time.monotonic() < deadline:
        assert run.poll() is None, run.communicate()
        time.sleep(0.1)
    return run


def templates_of(pid):
    """The kernel templates (zygote.py) among a process's descendants."""
    return [p for p in psutil.Process(pid).children(recursive=True)
            if "zygote.py" in " ".join(p.cmdline())]


def test_an_interrupted_one_notebook_grade_stops_its_grading(tmp_path):
    """One notebook is graded by a worker that is a thread of `grade` itself. Ctrl-C (SIGINT
    to `grade` alone) while a cell loops: does grade end within seconds, start no template
    after the interrupt, and leave no worker folder (which held the autograded notebook)?"""
    root = one_notebook_course(tmp_path, "looper", simulate.looping_forever)
    scratch = tmp_path / "tmp"
    run = grade_started(root, scratch)
    time.sleep(1)
    templates = {p.pid for p in templates_of(run.pid)}
    interrupted = time.monotonic()
    assert run.poll() is None, "grade ended before the interrupt"
    run.send_signal(signal.SIGINT)
    started = set()
    while run.poll() is None and time.monotonic() - interrupted < 60:
        try:
            started |= {p.pid for p in templates_of(run.pid)} - templates
        except psutil.Error:
            pass
        time.sleep(0.05)
    _, err = run.communicate(timeout=60)
    seconds = time.monotonic() - interrupted
    assert run.returncode != 0 and "interrupted" in err, err[-2000:]
    assert not started, f"templates started after the interrupt: {started}"
    assert not list(scratch.glob("kit-worker-*")), list(scratch.iterdir())
    assert seconds < 30, f"grade ended {seconds:.0f} s after the interrupt"


def test_closing_the_cluster_removes_the_folders_of_killed_workers(tmp_path, monkeypatch):
    """A worker killed while it grades (its memory taken, an operator's kill) leaves its
    folder, a student's notebook in it, in the temporary folder; a worker started later
    removes it at its first task, but none may have one. Once the embedded cluster is closed,
    is such a folder gone, and one of a live process kept? And do the workers keep dask's
    scratch files in a folder of the run's own, gone with it (not dask's dask-scratch-space,
    left in the temporary folder after every run)?"""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = subprocess.Popen(["true"])
    ended.wait()
    dead = tmp_path / f"kit-worker-{ended.pid}-abc"
    (dead / "autograded").mkdir(parents=True)
    live = tmp_path / f"kit-worker-{os.getpid()}-def"
    live.mkdir()
    client = start_client(Config(), 2, None, tmp_path / "grade.log", lambda _: None)
    try:
        client.wait_for_workers(2, timeout=60)
        scratch = Path(client.cluster.kit_scratch)
        folders = client.run(lambda dask_worker: dask_worker.local_directory)
    finally:
        close_client(client)
    assert scratch.parent == tmp_path and len(folders) == 2
    assert all(Path(folder).is_relative_to(scratch) for folder in folders.values()), folders
    assert not scratch.exists() and not list(tmp_path.glob("dask-scratch-space*"))
    assert not dead.exists()
    assert live.exists()


def test_ctrl_c_in_a_terminal_prints_no_traceback_of_the_processes_grade_starts(tmp_path):
    """A terminal's Ctrl-C reaches every process of the command's group. Pressed at moments
    of a class's grade where its fork server and kernel template import (they start first
    thing), does grade end with its own word alone, no traceback of a process it started?
    (bo's notebook loops until its cell's limit, so that the grade is still running at each
    moment on a machine fast enough to grade two notebooks in 2.5 s.)"""
    root = one_notebook_course(tmp_path, "ada", simulate.correct)
    release = nbformat.read(root / "release" / ID / f"{ID}.ipynb", 4)
    source = nbformat.read(KIT / "source" / ID / f"{ID}.ipynb", 4)
    Course(root).submit("bo", ID, simulate.looping_forever(release, source))
    for delay in (0.4, 1.2, 2.5):
        said_interrupted(*ctrl_c_at([sys.executable, "-m", "autograder", "grade", ID, "--force"],
                                    root, delay, tmp_path), delay)


def short_scratch():
    """A temporary folder for a command, its path short enough for the Unix sockets made in
    it (the fork server's listener: under pytest-xdist, tmp_path's was too long, and dask's
    workers failed to start); the test removes it."""
    return Path(tempfile.mkdtemp(prefix="ctrlc-"))


def test_ctrl_c_while_the_cluster_starts_prints_no_traceback(tmp_path):
    """A Ctrl-C pressed as grade starts its cluster's workers (its timeline's mark says when),
    or moments later, as they are up (some 0.2 s here): does grade end with its own word, 130,
    no traceback (dask's exit handler closed a cluster whose worker was still starting and
    printed its AssertionError; a scheduler closed as it started printed its unread
    CommClosedError), and no scratch folder of the cluster's left behind?"""
    root = one_notebook_course(tmp_path, "ada", simulate.correct)
    release = nbformat.read(root / "release" / ID / f"{ID}.ipynb", 4)
    source = nbformat.read(KIT / "source" / ID / f"{ID}.ipynb", 4)
    Course(root).submit("bo", ID, simulate.correct(release, source))
    for delay in (0.0, 0.1, 0.2, 0.3):
        scratch = short_scratch()
        said_interrupted(*ctrl_c_at([sys.executable, "-m", "autograder", "grade", ID, "--force"],
                                    root, delay, tmp_path, mark="cluster: starting",
                                    env={"TMPDIR": str(scratch)}), delay)
        assert not list(scratch.glob("kit-dask-*")), (delay, list(scratch.iterdir()))
        shutil.rmtree(scratch)


def test_ctrl_c_while_notebooks_are_graded_or_the_cluster_closes_leaves_no_folder(tmp_path):
    """A Ctrl-C as grade's workers grade a notebook that loops (its kernel's folders in the
    temporary folder), or as grade closes its cluster at the end of a class (its timeline's
    marks say when): does grade say "interrupted", 130, and leave none of its temporary
    folders (the cluster's scratch folder, the notebooks' scratch and judging folders)? A
    Ctrl-C inside dask's close left the cluster's folder for good, and the command took 10 s
    more to end; the folders of the notebooks its ended workers graded stayed until the next
    grade."""
    root = one_notebook_course(tmp_path, "ada", simulate.correct)
    release = nbformat.read(root / "release" / ID / f"{ID}.ipynb", 4)
    source = nbformat.read(KIT / "source" / ID / f"{ID}.ipynb", 4)
    course = Course(root)
    course.submit("bo", ID, simulate.looping_forever(release, source))
    moments = [("grade: result kept", delay) for delay in (0.0, 0.3)]
    moments += [("cluster: closing", delay) for delay in (0.0, 0.01, 0.03)]
    for mark, delay in moments:
        if mark == "cluster: closing":  # a class that ends soon
            course.submit("bo", ID, simulate.correct(release, source))
        scratch = short_scratch()
        sockets = Path(socket_parent(scratch))  # the kernels' folders: /tmp, where scratch's
        before = set(sockets.glob("kit-*"))  # path is too long for a socket's (alone: no
        said_interrupted(*ctrl_c_at([sys.executable, "-m", "autograder", "grade", ID, "--force"],
                                    root, delay, tmp_path, mark=mark,  # other test's there)
                                    env={"TMPDIR": str(scratch)}), (mark, delay))
        left = [*scratch.glob("kit-*"), *(set(sockets.glob("kit-*")) - before)]
        assert not left, (mark, delay, left)
        shutil.rmtree(scratch)


CLOSING = """
import logging, sys
import distributed
from autograder.engine.cluster import closing_quietly
with closing_quietly():
    logging.getLogger("distributed.batched").info("Batched Comm Closed, unsaid")
    logging.getLogger("asyncio").error("Future exception was never retrieved, unsaid")
logging.getLogger("distributed.batched").info("Batched Comm Closed, said after")
logging.getLogger("asyncio").error("Future exception was never retrieved, said after")
"""


def test_a_cluster_closes_without_a_word_of_dask_s_or_asyncio_s():
    """While a cluster closes, are dask's logs (its console handler's, at INFO) and
    asyncio's unread futures kept off the console, and said again once it is closed?"""
    closing = subprocess.run([sys.executable, "-c", CLOSING], capture_output=True, text=True,
                             timeout=60)
    assert closing.returncode == 0, closing.stderr
    assert "unsaid" not in closing.stderr, closing.stderr
    assert closing.stderr.count("said after") == 2, closing.stderr


def test_a_one_notebook_grade_keeps_its_workers_warnings_in_grade_log(tmp_path):
    """The template of a one-notebook grade (its worker a thread of `grade`) is killed from
    outside while the notebook is graded: is the worker's warning, that the notebook is
    graded again with a new template, in grade.log as a worker process's would be?"""
    root = one_notebook_course(tmp_path, "looper", simulate.looping_forever)
    run = grade_started(root, tmp_path / "tmp", "--timeout", "3")
    for process in templates_of(run.pid):
        if process.ppid() == run.pid:
            process.send_signal(signal.SIGKILL)
    out, err = run.communicate(timeout=300)
    log = (root / "grade.log").read_text(encoding="utf-8")
    assert "the kernel template died while looper's 01_attention_by_hand" in log, (
        log[-2000:] + out[-1000:] + err[-2000:])


def test_kernels_start_again_in_a_process_after_its_one_notebook_grade(tmp_path):
    """A one-notebook grade stops grading in its process as its client closes: can the same
    process (a later grade, a caller's own kernels) start a kernel template afterwards?"""
    root = one_notebook_course(tmp_path, "ada", simulate.correct)
    run = grade(root, [ID], log=lambda _: None)
    assert len(run.graded) == 1
    try:
        assert Zygote.shared().process.poll() is None
    finally:
        Zygote.close_shared()


def test_a_notebook_with_big_outputs_brings_no_large_graph_warning():
    """A task carries its notebook, up to 32 MB with its outputs: does sending one of 20 MB
    through run_all (every grading and feedback task goes through it) say nothing, where
    dask's own submit of the same warns of a large graph?"""
    import warnings

    from distributed import Client

    from autograder.engine.cluster import run_all

    payload = b"x" * (20 * 2**20)
    kept = []
    with Client(processes=False, n_workers=1, threads_per_worker=1,
                dashboard_address=None) as client:
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            run_all(client, ["ada"], lambda item: client.submit(len, payload, pure=False),
                    lambda item, result: kept.append((item, result)))
        assert kept == [("ada", len(payload))]
        assert not [w for w in said if "large graph" in str(w.message)], said
        with pytest.warns(UserWarning, match="large graph"):
            client.submit(len, payload, pure=False).result()


def test_a_bundle_sent_once_reaches_each_task_even_after_the_worker_holding_it_dies():
    """Does a bundle sent once for a run (sent_once) reach each task in place of its future,
    and is it made again when the worker that held it dies, so the run's next tasks still get
    it whole?"""
    import contextlib
    import operator

    from distributed import Client, LocalCluster

    from autograder.engine.bundle import Bundle
    from autograder.engine.cluster import sent_once

    bundle = Bundle(ID, {"source/a.py": os.urandom(100_000)}, "digest")
    files = operator.attrgetter("files")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        sent = sent_once(client, bundle)
        assert client.submit(files, sent, pure=False).result() == bundle.files
        holders = set(client.who_has([sent])[sent.key])
        assert holders
        with contextlib.suppress(Exception):  # each dies without answering; its nanny starts
            client.run(os._exit, 1, workers=list(holders))  # another
        deadline = time.monotonic() + 60
        while holders & set(client.scheduler_info()["workers"]):
            assert time.monotonic() < deadline, "a worker told to exit is still there"
            time.sleep(0.1)
        assert client.submit(files, sent, pure=False).result(timeout=60) == bundle.files


def test_a_task_goes_to_the_worker_with_the_most_free_threads():
    """Is a task placed on the worker with the most threads its run's tasks do not take, the
    first address on a tie, and nowhere in particular when the cluster has no worker?"""
    from autograder.engine.cluster import free_worker

    workers = {"tcp://b:1": 1, "tcp://a:1": 1, "tcp://c:1": 2}
    assert free_worker(workers, []) == "tcp://c:1"
    assert free_worker(workers, ["tcp://c:1"]) == "tcp://a:1"
    assert free_worker(workers, ["tcp://c:1", "tcp://a:1"]) == "tcp://b:1"
    assert free_worker(workers, ["tcp://gone:1", "tcp://c:1", "tcp://c:1"]) == "tcp://a:1"
    assert free_worker({}, ["tcp://gone:1"]) is None


def tasks_held_here(bundle, seconds):
    """(this worker's name, how many of the run's tasks it holds not yet done), `seconds` into
    a task of the run."""
    from distributed import get_worker

    time.sleep(seconds)
    worker = get_worker()
    return worker.name, sum(1 for key, task in worker.state.tasks.items()
                            if str(key).startswith("held-")
                            and task.state not in ("memory", "released", "forgotten"))


@pytest.mark.parametrize("stealing", [False, True], ids=["embedded", "dask's default"])
def test_each_worker_holds_only_the_task_it_works_on(stealing):
    """Every task of a run takes the assignment's bundle, which one worker holds at first: does
    run_all still place each task on a worker with a free thread, so that no worker holds a
    second notebook behind the one it grades (which its death would take with it) while
    another waits, with work stealing off (the embedded cluster) or on (dask's default)?"""
    import copy
    import uuid

    import dask
    from distributed import Client, LocalCluster

    from autograder.engine.cluster import run_all

    held = []
    with dask.config.set({"distributed.scheduler.work-stealing": stealing}):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=":0")
    with cluster, Client(cluster) as client:
        client.wait_for_workers(2, timeout=60)
        bundle = client.submit(copy.copy, os.urandom(700_000), pure=False)
        run_all(client, range(6),
                lambda item: client.submit(tasks_held_here, bundle, 0.5, pure=False,
                                           key=f"held-{item}-{uuid.uuid4().hex}"),
                lambda item, result: held.append(result))
    assert len(held) == 6
    assert all(count == 1 for _, count in held), held
    assert {name for name, _ in held} == {0, 1}, held


def test_a_worker_in_this_process_holds_the_next_task_behind_the_one_it_runs(tmp_path):
    """A worker that is a thread of this process cannot die alone: does run_all hand it the
    next task while it runs one (LOOK_AHEAD), so that its thread does not wait for the round
    trip through the client between two feedback pages, and still hand it no more than that?"""
    import uuid

    from autograder.engine.cluster import (
        LOOK_AHEAD,
        close_client,
        in_process,
        in_process_client,
        run_all,
    )

    held = []
    client = in_process_client(tmp_path / "grade.log")
    try:
        assert in_process(client)
        run_all(client, range(5),
                lambda item: client.submit(tasks_held_here, None, 0.2, pure=False,
                                           key=f"held-{item}-{uuid.uuid4().hex}"),
                lambda item, result: held.append(result))
    finally:
        close_client(client)
    counts = [count for _, count in held]
    assert LOOK_AHEAD == 1
    assert counts[:-1] == [2] * 4, held  # the one it runs and the next; the last has none
    assert counts[-1] == 1, held
