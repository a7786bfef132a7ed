"""Does the students' self-check (check_notebook.py, beside every released notebook) fail
loudly, naming each failing cell and its message, and pass a finished notebook?

Run as a student runs it: the released copy of the script, in a plain kernel, on a notebook
in a folder of its own."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from autograder.build.standalone import self_check_script
from autograder.course.directory import nbgrader_env
from autograder.tools import simulate

ROOT = Path(__file__).resolve().parents[3]
ID = "01_attention_by_hand"


def notebooks():
    release = nbformat.read(ROOT / "release" / ID / f"{ID}.ipynb", as_version=4)
    source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", as_version=4)
    return release, source


def check(folder, notebook, assignment_id=ID):
    """Write the notebook beside the released script and run the script on it."""
    shutil.copy(ROOT / "release" / assignment_id / "check_notebook.py", folder)
    nbformat.write(notebook, folder / f"{assignment_id}.ipynb")
    return subprocess.run([sys.executable, "check_notebook.py", f"{assignment_id}.ipynb"],
                          cwd=folder, capture_output=True, text=True, timeout=300,
                          env=nbgrader_env())


@pytest.mark.parametrize("assignment_id", sorted(p.name for p in (ROOT / "release").iterdir()
                                                 if p.is_dir()))
def test_every_release_carries_the_script(assignment_id):
    """Is the script in every release folder, exactly the kit's as the build copies it out?"""
    shipped = ROOT / "release" / assignment_id / "check_notebook.py"
    assert shipped.read_text() == self_check_script() + "\n", (
        f"release/{assignment_id}/check_notebook.py is stale: run python -m autograder build")


def test_stubs_fail_naming_each_test_cell(tmp_path):
    """Does the untouched release exit 1 and name every test cell, its points and its
    message?"""
    release, _ = notebooks()
    result = check(tmp_path, release)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "the test of project_qkv (2 points): NotImplementedError" in result.stdout
    assert "the test of context_vectors (1 point)" in result.stdout
    assert "0 of 5 test cells pass (0 of 10 points" in result.stdout


def test_one_wrong_step_is_named_with_the_public_message(tmp_path):
    """Does a notebook with one known mistake exit 1, naming that step's cell and the public
    test's message, and count the other steps as passing?"""
    release, source = notebooks()
    mistake = simulate.mistakes_of(ROOT, ID)[0]
    result = check(tmp_path, simulate.with_mistake(release, source, mistake))
    assert result.returncode == 1, result.stdout + result.stderr
    [line] = [x for x in result.stdout.splitlines() if x.startswith("FAILED")]
    assert f"the test of {mistake.step}" in line and "AssertionError" in line
    assert "4 of 5 test cells pass" in result.stdout


def test_a_wrong_earlier_step_is_named_under_the_step_that_calls_it(tmp_path):
    """With only scaled_softmax wrong (03), does the failing test of
    scaled_dot_product_attention, which calls it, say to fix scaled_softmax first, while the
    test of scaled_softmax itself says no such thing?"""
    assignment_id = "03_scaled_dot_product"
    release = nbformat.read(ROOT / "release" / assignment_id / f"{assignment_id}.ipynb", 4)
    source = nbformat.read(ROOT / "source" / assignment_id / f"{assignment_id}.ipynb", 4)
    mistake = next(m for m in simulate.mistakes_of(ROOT, assignment_id)
                   if m.step == "scaled_softmax")
    result = check(tmp_path, simulate.with_mistake(release, source, mistake), assignment_id)
    assert result.returncode == 1, result.stdout + result.stderr
    failures = result.stdout.split("FAILED  ")[1:]
    [own] = [f for f in failures if "the test of scaled_softmax" in f]
    [later] = [f for f in failures if "the test of scaled_dot_product_attention" in f]
    first = "scaled_dot_product_attention calls scaled_softmax, whose test above fails: " \
            "fix scaled_softmax first"
    assert first in later and "calls" not in own


def test_finished_notebook_passes(tmp_path):
    """Does a correct notebook exit 0 with every test cell passing?"""
    result = check(tmp_path, simulate.correct(*notebooks()))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 of 5 test cells pass (10 of 10 points" in result.stdout


def test_unreadable_file_exits_2_with_the_fix(tmp_path):
    """Does a path that is not a notebook exit 2, saying what to give instead?"""
    shutil.copy(ROOT / "release" / ID / "check_notebook.py", tmp_path)
    (tmp_path / "notes.ipynb").write_text("not json")
    result = subprocess.run([sys.executable, "check_notebook.py", "notes.ipynb"],
                            cwd=tmp_path, capture_output=True, text=True, env=nbgrader_env())
    assert result.returncode == 2
    assert "cannot read notes.ipynb" in result.stderr and "path of your .ipynb" in result.stderr


def test_a_known_mistake_is_named_with_the_graders_hint(tmp_path):
    """With stable_softmax taken over dim 0 (01), does the self-check name the mistake the
    public test quotes together with the hint the grader gives for it, word for word?"""
    release, source = notebooks()
    [mistake] = [m for m in simulate.mistakes_of(ROOT, ID) if m.name == "softmax over dim 0"]
    result = check(tmp_path, simulate.with_mistake(release, source, mistake))
    assert result.returncode == 1, result.stdout + result.stderr
    [line] = [x for x in result.stdout.splitlines() if x.startswith("FAILED")]
    assert "the test of stable_softmax" in line
    assert f"the known mistake 'softmax over dim 0': {mistake.hint}" in line


def test_a_ctrl_c_midway_is_an_interruption_not_a_crash(tmp_path):
    """Ctrl-C reaches the script and its kernel (one process group) while a cell runs: nbclient
    shuts the kernel down, then its own cleanup fails (an AssertionError, a CancelledError, an
    AttributeError, by timing). Is that a KeyboardInterrupt, as `build` and `validate` say it
    ("interrupted", exit 130), and no crash of a cell or of the script?"""
    import os
    import signal
    import time

    shutil.copy(ROOT / "release" / ID / "check_notebook.py", tmp_path)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import time\n"
                                                                         "time.sleep(120)")])
    nbformat.write(notebook, tmp_path / "slow.ipynb")
    script = subprocess.Popen([sys.executable, "check_notebook.py", "slow.ipynb"], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=nbgrader_env(), start_new_session=True)
    time.sleep(10)  # the kernel is up and the cell runs
    os.killpg(script.pid, signal.SIGINT)
    out, err = script.communicate(timeout=120)
    assert script.returncode == -signal.SIGINT, (script.returncode, out, err[-2000:])
    assert err.rstrip().endswith("KeyboardInterrupt"), err[-2000:]
    for other in ("AssertionError", "CancelledError", "AttributeError", "DeadKernelError"):
        assert other not in err, err[-2000:]


def test_a_cell_slower_than_grading_allows_is_named_with_both_times(tmp_path):
    """With grading's limit for a cell at 1 s, is a cell that sleeps 1.6 s named as failing,
    with the time it took and the limit (exit 1), though it raised nothing, and one that
    takes 0.1 s not? Grading would stop it: no requirement of grading's is hidden."""
    (tmp_path / "check_notebook.py").write_text(self_check_script(cell_limit=1) + "\n")
    cells = [nbformat.v4.new_code_cell("import time\ntime.sleep(0.1)"),
             nbformat.v4.new_code_cell("time.sleep(1.6)")]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), tmp_path / "slow.ipynb")
    result = subprocess.run([sys.executable, "check_notebook.py", "slow.ipynb"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300, env=nbgrader_env())
    assert result.returncode == 1, result.stdout + result.stderr
    failed = [line for line in result.stdout.splitlines() if line.startswith("FAILED")]
    assert len(failed) == 1 and failed[0].startswith("FAILED  cell 2 (time.sleep(1.6)): took "
                                                     "1."), result.stdout
    assert "s here, and grading stops a cell after 1 s: make it faster" in failed[0]
