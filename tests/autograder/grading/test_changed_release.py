"""When `build` rewrites an assignment the gradebook recorded (a step's points changed), does
grade hold its notebooks back, naming the assignment, the cells and the fix, instead of
refusing each notebook as the student's fault; and does the fix it names work?"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat

from autograder.course.directory import Course, nbgrader_env, run_nbgrader
from autograder.course.ledger import read_problems
from autograder.tools import simulate

ROOT = Path(__file__).resolve().parents[3]
ID = "01_attention_by_hand"


def kit(course, *args):
    return subprocess.run([sys.executable, "-m", "autograder", *args], cwd=course.root,
                          env=nbgrader_env(), capture_output=True, text=True, timeout=600)


def hand_in(course, student):
    release = nbformat.read(course.root / "release" / ID / f"{ID}.ipynb", as_version=4)
    source = nbformat.read(course.root / "source" / ID / f"{ID}.ipynb", as_version=4)
    course.submit(student, ID, simulate.correct(release, source))


def test_a_rebuilt_release_holds_grading_back_and_says_how_to_record_it(tmp_path):
    """ada is graded; then the first step's points go from 2 to 3 and build runs: does build
    say the gradebook recorded an earlier release, does grade exit 1 grading neither ada nor
    ben, saying once which cells changed and the command to run, with each one's status kept
    for the report; and after that command, does grade --force give both the new total?"""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    course.generate(ID)
    hand_in(course, "ada")
    first = kit(course, "grade")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "(of 10 points): ada 10" in first.stdout

    notebook = course.root / "assignments" / ID / "notebook.py"
    text = notebook.read_text(encoding="utf-8")
    assert "# %% tests project_qkv points=2\n" in text
    notebook.write_text(text.replace("# %% tests project_qkv points=2\n",
                                     "# %% tests project_qkv points=3\n"), encoding="utf-8")
    built = kit(course, "build", ID)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "the gradebook recorded an earlier release of" in built.stdout, built.stdout
    assert f"nbgrader generate_assignment {ID} --force" in built.stdout

    hand_in(course, "ben")
    held = kit(course, "grade", "--force")
    said = held.stdout + held.stderr
    assert held.returncode == 1, said
    assert said.count("not the release the gradebook recorded") == 1, said
    assert "test_project_qkv" in said and f"nbgrader generate_assignment {ID} --force" in said
    assert "Inconsistent checksums" not in said and "fix the notebook" not in said, said
    assert "held back by a changed release 2" in said and "graded 0," in said, said
    statuses = {p.student for p in read_problems(course.root)
                if "not the release the gradebook recorded" in p.reason}
    assert statuses >= {"ada", "ben"}, statuses

    run_nbgrader(course.root, "generate_assignment", ID, "--force")
    regraded = kit(course, "grade", "--force")
    assert regraded.returncode == 0, regraded.stdout + regraded.stderr
    assert "(of 11 points): ada 11, ben 11" in regraded.stdout, regraded.stdout
