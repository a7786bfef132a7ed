"""Is the embedded cluster closed to the machine's other users: no connection without its
key, no page served, nothing listening beyond 127.0.0.1?"""

from __future__ import annotations

import subprocess
import sys
import urllib.error
import urllib.request

import psutil
from traitlets.config import Config

from autograder.engine.cluster import close_client, start_client
from autograder.engine.cluster_security import private_security

INTRUDER = """
import sys
from distributed import Client
address = sys.argv[1]
for tried in (address, address.replace("tls://", "tcp://")):
    try:
        client = Client(tried, timeout="5s")
        print("ran", client.run_on_scheduler(lambda: __import__("os").getcwd()))
    except BaseException as error:
        print("refused", type(error).__name__)
"""


def listening(process):
    """(address, port) of every socket the process and its descendants listen on."""
    found = []
    for each in [process, *process.children(recursive=True)]:
        try:
            found += [(c.laddr.ip, c.laddr.port) for c in each.net_connections(kind="inet")
                      if c.status == psutil.CONN_LISTEN]
        except psutil.Error:
            continue
    return found


def page_at(port):
    """What the server at `port` answers for the page another user read (the worker list,
    its folder); None when it serves none."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/identity.json",
                                    timeout=5) as answer:
            return answer.read()
    except (urllib.error.URLError, OSError):  # 404, or a TLS server closing on HTTP
        return None


def test_the_embedded_cluster_takes_no_one_without_its_key_and_serves_no_page(tmp_path):
    """Does a process without the cluster's key fail to run anything on its scheduler (the
    address as given, and as plain TCP), while the kit's own client still does; and does
    every server of the cluster listen on 127.0.0.1 alone, serving no page?"""
    client = start_client(Config(), 2, None, tmp_path / "grade.log", lambda _: None)
    try:
        address = client.scheduler.address
        intruder = subprocess.run([sys.executable, "-c", INTRUDER, address],
                                  capture_output=True, text=True, timeout=120)
        assert client.submit(sum, [40, 2]).result() == 42
        sockets = listening(psutil.Process())
    finally:
        close_client(client)
    assert address.startswith("tls://127.0.0.1:")
    lines = intruder.stdout.splitlines()
    assert len(lines) == 2 and all(line.startswith("refused") for line in lines), \
        intruder.stdout + intruder.stderr[-2000:]
    assert sockets and {ip for ip, _ in sockets} == {"127.0.0.1"}


def test_the_embedded_cluster_pages_say_nothing(tmp_path):
    """Does no HTTP server of the cluster (the scheduler's, each worker's) answer the page
    another user read its workers and folders from?"""
    client = start_client(Config(), 1, None, tmp_path / "grade.log", lambda _: None)
    try:
        answers = [page_at(port) for _, port in listening(psutil.Process())]
    finally:
        close_client(client)
    assert answers and answers == [None] * len(answers)


def test_each_cluster_has_a_key_of_its_own():
    """Are two clusters' keys different, each asking TLS both ways?"""
    first, second = private_security(), private_security()
    assert first.require_encryption and second.require_encryption
    assert first.tls_client_key != second.tls_client_key
    assert first.tls_ca_file == first.tls_scheduler_cert == first.tls_worker_cert
