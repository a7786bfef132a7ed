"""A run's watch on its cluster's workers: which there are, how many threads each has, and
whether any is left.

run_all keeps as many tasks in flight as the cluster has threads (one more on a worker in its
own process), each placed on a worker with a free thread, and workers come and go. A thread
beside the run asks the scheduler for them every PERIOD s (each asking a round trip to the
scheduler, about 0.6 ms of this process's CPU where the embedded cluster's scheduler runs,
and run_all reads them twice a task), so the run reads the last answer for free.

The same count sees a cluster left without a worker: a scheduler whose workers all left
(stopped by an operator, ended by a job's time limit on a cluster, closed by dask when a task
names a function they cannot import) keeps the run's tasks until a worker comes, and the run
waited with them, saying nothing. Once none has been there for WORKERLESS_WAIT s (as long as
start_client waits for a first worker), the watch cancels the tasks in flight and the run
raises its error, which names the scheduler and what to do. What was kept stays kept; the
next run does the rest."""

from __future__ import annotations

import threading
import time

from autograder.i18n import t
from autograder.plumbing.errors import EngineError

PERIOD = 1.0  # s between two counts of the cluster's threads
WORKERLESS_WAIT = 30.0  # s with no worker before the run stops


class WorkerlessError(EngineError):
    """The cluster has had no worker for WORKERLESS_WAIT s: the message says what to do."""


def cluster_threads(client):
    """Threads of the cluster's workers now (0 when it has none)."""
    return sum(client.nthreads().values())


class WorkerWatch:
    """Watch `client`'s cluster while a run's tasks (`in_flight()`: their futures) wait:
    `workers` is the last answer of the scheduler ({address: threads}), `threads` their sum
    (at least 1: tasks wait for a worker); `check()` raises the watch's error, which ends
    with `advice` (what to do), once it has cancelled them. A context manager: the thread
    ends with the block."""

    def __init__(self, client, in_flight, advice):
        self.client, self.in_flight, self.advice = client, in_flight, advice
        self.workers = client.nthreads()
        self.error = None
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.watch, name="kit-worker-watch", daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()

    @property
    def threads(self):
        return max(1, sum(self.workers.values()))

    def check(self):
        """Raise the watch's error, once it has found the cluster without a worker."""
        if self.error is not None:
            raise self.error

    def watch(self):
        since = None  # when the cluster was first seen without a worker
        while not self.done.wait(PERIOD):
            try:
                self.workers = self.client.nthreads()
            except Exception:  # noqa: BLE001 - the client closing: the run says why
                return
            now = time.monotonic()
            if self.workers:
                since = None
            elif since is None:
                since = now
            elif now - since >= WORKERLESS_WAIT:
                self.stop()
                return

    def stop(self):
        """The error, then the tasks in flight cancelled: the run, woken by them, raises it."""
        self.error = WorkerlessError(t(
            "the cluster at {address} has had no worker for {seconds:.0f} s, so its tasks "
            "cannot run: what was finished is kept, and the next run does the rest; {advice}",
            address=self.client.scheduler.address, seconds=WORKERLESS_WAIT,
            advice=self.advice))
        self.client.cancel(list(self.in_flight()), force=True)
