"""Tests for autograder.engine.run_size and the feedback runs it places: is a run too small to
be worth worker processes written in the command's own process, page for page as workers
write it, and does the command then leave the workers' fork server unstarted? Does a process
that imported what pages need before the run (serve) weigh the workers' start as more?"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap

import pytest

from autograder.course.directory import nbgrader_env
from autograder.engine import run_size
from autograder.engine.run_size import (
    PAGES_A_START_COSTS,
    PAGES_A_WARM_START_COSTS,
    page_workers,
    pages_in_this_process,
)
from autograder.grading.parallel import grade
from autograder.outputs.feedback import write_feedback
from autograder.plumbing.timeline import VARIABLE

from .test_fork_server import ID, class_course

STUDENTS = ["s1", "s2", "s3"]
EARLY = "fork server: started early"


def test_workers_start_only_where_they_save_more_than_their_start():
    """Are the pages written here when the workers would take no more than their start's worth
    of pages off this process, and on workers past that; never on one worker alone; and is the
    count of workers no more than the largest assignment's pages?"""
    most_here = 2 * PAGES_A_START_COSTS  # on two workers, the second takes half
    assert pages_in_this_process([most_here], 2)
    assert not pages_in_this_process([most_here + 2], 2)
    assert pages_in_this_process([PAGES_A_START_COSTS, PAGES_A_START_COSTS], 2)
    assert pages_in_this_process([10 * PAGES_A_START_COSTS], 1)
    assert not pages_in_this_process([10 * PAGES_A_START_COSTS], None if os.cpu_count() > 1
                                     else 2)
    warm_most_here = 2 * PAGES_A_WARM_START_COSTS
    assert warm_most_here > most_here + 2
    assert pages_in_this_process([most_here + 2], 2, warm=True)
    assert pages_in_this_process([warm_most_here], 2, warm=True)
    assert not pages_in_this_process([warm_most_here + 2], 2, warm=True)
    assert page_workers([3, 1], 8) == 3
    assert page_workers([], None) == 1
    assert page_workers([100], None) == os.cpu_count()


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A course of 01 whose three correct notebooks are graded: its root."""
    root = class_course(tmp_path_factory.mktemp("run-size"), STUDENTS)
    run = grade(root, [ID], workers=2, log=lambda _: None)
    assert len(run.graded) == len(STUDENTS) and not run.failed, run
    return root


def pages_written(root, timeline, monkeypatch):
    """write_feedback of the class: ({page file: its digest}, the pids that copied the
    assignment to write them)."""
    timeline.unlink(missing_ok=True)
    monkeypatch.setenv(VARIABLE, str(timeline))
    write_feedback(root, [ID], workers=2, log=lambda _: None)
    monkeypatch.delenv(VARIABLE)
    pages = {str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
             for path in sorted((root / "feedback").rglob("*")) if path.is_file()}
    writers = {int(line.split()[1]) for line in timeline.read_text().splitlines()
               if "worker: " in line and line.endswith(" copied")}
    return pages, writers


def test_a_small_class_s_pages_are_written_here_as_workers_write_them(graded, tmp_path,
                                                                       monkeypatch):
    """Are three pages written in this process, and are they, byte for byte, the pages two
    worker processes write when told the class is worth them?"""
    here, writers_here = pages_written(graded, tmp_path / "here.txt", monkeypatch)
    assert writers_here == {os.getpid()}
    assert len([page for page in here if page.endswith(".html")]) == len(STUDENTS), here
    monkeypatch.setattr(run_size, "PAGES_A_START_COSTS", -1)
    monkeypatch.setattr(run_size, "PAGES_A_WARM_START_COSTS", -1)
    on_workers, writers_there = pages_written(graded, tmp_path / "workers.txt", monkeypatch)
    assert writers_there and os.getpid() not in writers_there
    assert on_workers == here


def test_feedback_of_a_small_class_starts_no_fork_server(graded, tmp_path):
    """Does `python -m autograder feedback` of three pages write them all without starting the
    workers' fork server it would not use?"""
    timeline = tmp_path / "timeline.txt"
    done = subprocess.run([sys.executable, "-m", "autograder", "feedback"], cwd=graded,
                          env={**nbgrader_env(), VARIABLE: str(timeline)}, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(STUDENTS)} pages in feedback/" in done.stdout, done.stdout
    assert EARLY not in timeline.read_text()


@pytest.mark.parametrize("worth_workers", [True, False], ids=["large", "small"])
def test_the_command_starts_the_workers_early_only_for_a_class_worth_them(tmp_path,
                                                                          worth_workers):
    """Given a class of autograded notebooks one past what this process writes sooner (and one
    within it), does the command start the workers' fork server early (and not)?"""
    students = 2 * PAGES_A_START_COSTS + (2 if worth_workers else 0)
    root = tmp_path / "course"
    (root / "nbgrader_config.py").parent.mkdir()
    (root / "nbgrader_config.py").write_text("c = get_config()\n")
    for n in range(students):
        notebook = root / "autograded" / f"s{n:03d}" / ID / f"{ID}.ipynb"
        notebook.parent.mkdir(parents=True)
        notebook.write_text("{}")
    timeline = tmp_path / "timeline.txt"
    script = textwrap.dedent("""
        import sys
        from pathlib import Path
        from autograder.cli import start_page_workers_early
        start_page_workers_early(Path(sys.argv[1]), [sys.argv[2]], 2, False)
    """)
    subprocess.run([sys.executable, "-c", script, str(root), ID], check=True, timeout=120,
                   env={**os.environ, VARIABLE: str(timeline)})
    marks = timeline.read_text() if timeline.exists() else ""
    assert (EARLY in marks) == worth_workers, marks


@pytest.mark.parametrize("warm", [False, True], ids=["alone", "warm"])
def test_the_command_weighs_the_start_by_what_its_process_imported_before(graded, tmp_path,
                                                                          warm):
    """Given thresholds that send this class to workers from a command run alone and keep it
    in a process that imported what pages need before (as serve has), does `feedback` run
    alone start the fork server early and write its pages on workers, and run in a process
    that imported them first, write them itself, with no fork server?"""
    timeline = tmp_path / "timeline.txt"
    script = textwrap.dedent("""
        import os, sys
        from autograder.engine import run_size
        run_size.PAGES_A_START_COSTS, run_size.PAGES_A_WARM_START_COSTS = -1, 10**6
        if sys.argv[2] == "warm":
            import autograder.outputs.feedback
        from autograder.cli import main
        print("pid", os.getpid())
        sys.exit(main(["--root", sys.argv[1], "feedback"]))
    """)
    done = subprocess.run([sys.executable, "-c", script, str(graded),
                           "warm" if warm else "alone"], capture_output=True, text=True,
                          timeout=300, env={**nbgrader_env(), VARIABLE: str(timeline)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(STUDENTS)} pages in feedback/" in done.stdout, done.stdout
    pid = int(done.stdout.split("pid ", 1)[1].split()[0])
    marks = timeline.read_text()
    writers = {int(line.split()[1]) for line in marks.splitlines()
               if "worker: " in line and line.endswith(" copied")}
    assert (writers == {pid}) == warm, (pid, writers)
    assert writers and (EARLY in marks) != warm, marks
