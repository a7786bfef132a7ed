"""Tests for autograder.engine.fork_server and the command's start ahead of need: is the fork
server started early the one the cluster's workers are forked from, and gone once it is not
needed? Does `grade` of a class start the fork server and the workers' templates before its
own imports, use them both, and leave no process behind, even when it has nothing to grade,
or one notebook, which it grades in process?"""

from __future__ import annotations

import multiprocessing.forkserver
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
from traitlets.config import Config

from autograder.course.directory import Course, nbgrader_env
from autograder.engine import fork_server
from autograder.engine.cluster import close_client, start_client
from autograder.plumbing.timeline import VARIABLE
from autograder.tools import simulate

from ..sandbox.test_handover import ended

KIT = Path(__file__).resolve().parents[3]
ID = "01_attention_by_hand"


def test_the_workers_are_forked_from_the_server_started_early(tmp_path):
    """Started before the cluster, is the fork server the very process both workers are
    children of (not a second one), and is it gone once the cluster is closed?"""
    fork_server.start_early()
    early = multiprocessing.forkserver._forkserver._forkserver_pid
    assert early is not None
    client = start_client(Config(), 2, None, tmp_path / "grade.log", lambda _: None)
    try:
        client.wait_for_workers(2, timeout=60)
        parents = set(client.run(os.getppid).values())
    finally:
        close_client(client)
    assert parents == {early}
    assert ended(early, seconds=10)


def test_a_server_no_cluster_used_ends_with_the_process():
    """Does a process that started the fork server early and never started a cluster leave
    no server behind when it ends?"""
    script = textwrap.dedent("""
        import multiprocessing.forkserver
        from autograder.engine import fork_server
        fork_server.start_early()
        print(multiprocessing.forkserver._forkserver._forkserver_pid, flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=True)
    assert ended(int(done.stdout.split()[0]), seconds=10)


def test_a_ctrl_c_while_the_server_starts_stops_the_command_and_not_the_server(tmp_path):
    """A terminal's Ctrl-C reaches the command and the fork server alike. One that lands while
    the command starts the server (sent here to both, then): does it reach the command once
    the start is done, rather than be lost, and does the server, its imports under way, drop
    it and go on forking workers?"""
    (tmp_path / "ctrl_c_probe.py").write_text(textwrap.dedent("""
        import os, signal
        os.kill(os.getpid(), signal.SIGINT)  # the server's Ctrl-C, before any of its imports
        from autograder.engine import worker_imports  # the server's first: deaf_to_ctrl_c
    """))
    script = textwrap.dedent(f"""
        import multiprocessing, multiprocessing.forkserver, os, signal, sys
        sys.path.insert(0, {str(tmp_path)!r})
        from autograder.engine import fork_server
        multiprocessing.get_context("forkserver").set_forkserver_preload(["ctrl_c_probe"])
        start = multiprocessing.forkserver.ensure_running

        def start_under_ctrl_c():
            os.kill(os.getpid(), signal.SIGINT)  # the command's Ctrl-C, mid-start
            start()

        multiprocessing.forkserver.ensure_running = start_under_ctrl_c
        try:
            fork_server.ensure_running()
            print("started", flush=True)
        except KeyboardInterrupt:
            print("interrupted after the start", flush=True)
        worker = multiprocessing.get_context("forkserver").Process(target=os.getpid)
        worker.start()
        worker.join(60)
        print("forked", worker.exitcode, flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.splitlines() == ["interrupted after the start", "forked 0"], \
        done.stdout + done.stderr


def class_course(folder, students):
    """A course of 01 with a correct notebook of each of `students`: its root."""
    course = Course.create(folder / "course", KIT, [ID])
    course.generate(ID)
    release = nbformat.read(course.root / "release" / ID / f"{ID}.ipynb", 4)
    source = nbformat.read(KIT / "source" / ID / f"{ID}.ipynb", 4)
    for student in students:
        course.submit(student, ID, simulate.correct(release, source))
    return course.root


def grade_command(root, timeline):
    """`python -m autograder grade --workers 2` in the course, its moments in `timeline`:
    (its output, {moment: pid named in it})."""
    timeline.unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "-m", "autograder", "grade", "--workers", "2"],
                          cwd=root, env={**nbgrader_env(), VARIABLE: str(timeline)},
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    moments = {}
    for line in timeline.read_text().splitlines():
        what = line.split(" ", 2)[2]
        name, _, pid = what.partition(", pid ")
        moments[name] = int(pid) if pid else None
    return done.stdout, moments


def test_a_class_grade_uses_what_it_started_early_and_leaves_nothing(tmp_path):
    """Does `grade` of three notebooks start the fork server and the template pool before its
    imports are done, adopt that pool, grade all three, and leave neither process running?
    Run again with nothing left to grade, does it still end both?"""
    root = class_course(tmp_path, ["s1", "s2", "s3"])
    timeline = tmp_path / "timeline.txt"
    output, moments = grade_command(root, timeline)
    assert "graded 3" in output, output
    order = list(moments)
    for early in ("fork server: started early", "template pool: started early"):
        assert early in moments and order.index(early) < order.index("grade: imports done"), \
            order
    assert "template pool: adopted" in moments, order
    assert ended(moments["fork server: started early"], seconds=10)
    assert ended(moments["template pool: started early"], seconds=10)

    output, moments = grade_command(root, timeline)
    assert "already graded 3" in output, output
    assert "template pool: adopted" not in moments, list(moments)
    assert ended(moments["fork server: started early"], seconds=10)
    assert ended(moments["template pool: started early"], seconds=10)


def test_a_class_grade_of_one_notebook_takes_a_copy_of_the_early_pool(tmp_path):
    """When `grade` (no --student) finds one notebook to grade, it grades it in its own
    process: does that grading take a copy of the template the command started early, rather
    than start one more, and is that template gone after?"""
    root = class_course(tmp_path, ["s1"])
    output, moments = grade_command(root, tmp_path / "timeline.txt")
    assert "graded 1" in output, output
    assert "template pool: a copy taken in process" in moments, list(moments)
    assert ended(moments["template pool: started early"], seconds=10)
