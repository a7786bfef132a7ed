"""Tests for autograder.engine.cluster: the embedded cluster's workers, as they start."""

from __future__ import annotations

import os
from pathlib import Path

import psutil
from traitlets.config import Config

from autograder.engine.cluster import close_client, start_client


def parent_of_this_worker():
    """(the parent's command line, whether torch's library is mapped in the parent)."""
    parent = os.getppid()
    command = Path(f"/proc/{parent}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    return command, "libtorch" in Path(f"/proc/{parent}/maps").read_text()


def test_the_workers_are_forked_from_one_process_that_imported_torch(tmp_path):
    """Are both workers of the embedded cluster children of multiprocessing's fork server,
    which imported torch (and the worker module) once for them, rather than each a fresh
    interpreter importing it all again; and is the fork server gone once the cluster is
    closed?"""
    client = start_client(Config(), 2, None, tmp_path / "grade.log", lambda _: None)
    try:
        client.wait_for_workers(2, timeout=60)
        parents = client.run(parent_of_this_worker)
        server = psutil.Process(client.run(os.getppid).popitem()[1])
    finally:
        close_client(client)
    assert len(parents) == 2
    for command, has_torch in parents.values():
        assert "forkserver" in command and has_torch, command
    assert not server.is_running()


def test_the_workers_do_not_profile_themselves(tmp_path):
    """Does no worker of the embedded cluster sample its own stacks for the dashboard (a
    twelfth of its CPU), while its other periodic work (heartbeats) goes on?"""
    client = start_client(Config(), 2, None, tmp_path / "grade.log", lambda _: None)
    try:
        client.wait_for_workers(2, timeout=60)
        callbacks = client.run(lambda dask_worker: sorted(dask_worker.periodic_callbacks))
    finally:
        close_client(client)
    assert len(callbacks) == 2
    for names in callbacks.values():
        assert "profile" not in names and "profile-cycle" not in names, names
        assert "heartbeat" in names, names
