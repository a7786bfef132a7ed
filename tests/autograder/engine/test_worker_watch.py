"""Does a run read its cluster's thread count from a watch that asks the scheduler once a
second, and does a run whose cluster is left without a worker end, saying what to do, instead
of waiting for ever?"""

from __future__ import annotations

import threading
import time

from distributed import Client, LocalCluster

from autograder.engine import worker_watch
from autograder.engine.cluster import run_all
from autograder.engine.worker_watch import PERIOD, WorkerlessError, WorkerWatch
from autograder.plumbing.kit_command import tool_command


def test_run_all_asks_the_cluster_its_threads_once_a_second_and_sees_a_worker_join():
    """Does run_all ask the scheduler how many threads the cluster has about once a second,
    not twice a task (each asking is a round trip to the scheduler), and does its count still
    see a worker that joins?"""
    with Client(processes=False, n_workers=1, threads_per_worker=1,
                dashboard_address=None) as client:
        asked = []
        nthreads = client.nthreads
        client.nthreads = lambda *args, **kwargs: asked.append(1) or nthreads(*args, **kwargs)
        kept = []
        started = time.monotonic()
        run_all(client, range(200), lambda item: client.submit(abs, -item, pure=False),
                lambda item, result: kept.append(result))
        took = time.monotonic() - started
        assert sorted(kept) == list(range(200))
        assert 1 <= len(asked) <= 1 + took / PERIOD, (len(asked), took)

        with WorkerWatch(client, list, "") as watch:
            assert watch.threads == 1
            client.cluster.scale(2)
            client.wait_for_workers(2)
            time.sleep(2 * PERIOD)
            assert watch.threads == 2


def test_a_run_whose_cluster_loses_every_worker_ends_and_says_what_to_do(monkeypatch):
    """Tasks in flight on a scheduler whose only worker leaves wait for a worker that may
    never come: does run_all end once the cluster has had none for WORKERLESS_WAIT s, with an
    error naming the scheduler and the command that starts workers, keeping nothing it did
    not finish? And does a run go on as before while a worker is there?"""
    monkeypatch.setattr(worker_watch, "WORKERLESS_WAIT", 2.0)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, \
            Client(cluster.scheduler_address) as client:  # as an existing cluster's client
        kept = []
        run_all(client, [0.5, 0.5], lambda item: client.submit(time.sleep, item, pure=False),
                lambda item, result: kept.append(item))
        assert kept == [0.5, 0.5]

        started = time.monotonic()
        threading.Timer(1.0, cluster.scale, [0]).start()  # its only worker leaves, mid-task
        ended = []

        def run():
            try:
                run_all(client, ["ada", "bo"],
                        lambda item: client.submit(time.sleep, 60, pure=False),
                        lambda item, result: kept.append(item))
            except Exception as error:  # noqa: BLE001 - the point: what the run raised
                ended.append(error)

        runner = threading.Thread(target=run, daemon=True)
        runner.start()
        runner.join(timeout=30)
        took = time.monotonic() - started
        assert not runner.is_alive(), "the run still waits for a worker after 30 s"
        assert kept == [0.5, 0.5]
        assert 3.0 <= took < 30, took
        assert [type(error) for error in ended] == [WorkerlessError], ended
        address = client.scheduler.address
        said = str(ended[0])
        assert f"the cluster at {address} has had no worker for 2 s" in said, said
        assert f"start workers with `PYTHONHASHSEED=0 {tool_command('dask')} worker {address} " \
            in said, said
        assert not client.processing() or not any(client.processing().values())
