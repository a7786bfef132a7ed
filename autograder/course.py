"""A course directory as nbgrader sees it, and the nbgrader commands run on it.

Every command is the real `nbgrader` app in a subprocess, started in the course root (nbgrader
reads nbgrader_config.py from the current directory only).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook

CONFIG = "nbgrader_config.py"


class NbgraderError(RuntimeError):
    """An nbgrader command that failed; the message holds the end of its output."""


def nbgrader_env():
    """The environment nbgrader needs: it runs the `alembic` executable to create a gradebook,
    so the virtualenv's bin folder must be on PATH even when it is not activated."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def run_nbgrader(root: Path, *args, timeout=None):
    result = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args],
        cwd=root,
        env=nbgrader_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
        raise NbgraderError(f"nbgrader {' '.join(args)} failed in {root}:\n{tail}")
    return result


@dataclass(frozen=True)
class CellScore:
    grade_id: str
    score: float
    max_score: float


@dataclass
class Course:
    """The folders source/ release/ submitted/ autograded/ feedback/ and the gradebook."""

    root: Path

    @classmethod
    def create(cls, root: Path, project: Path, ids):
        """A new course at `root` with the project's config and master notebooks of `ids`."""
        root.mkdir(parents=True, exist_ok=True)
        shutil.copy(project / CONFIG, root / CONFIG)
        for assignment_id in ids:
            shutil.copytree(project / "source" / assignment_id, root / "source" / assignment_id,
                            dirs_exist_ok=True)
        return cls(root)

    def db_url(self):
        return f"sqlite:///{self.root / 'gradebook.db'}"

    def generate(self, assignment_id):
        """Register the assignment in the gradebook and write its student version."""
        run_nbgrader(self.root, "generate_assignment", assignment_id, "--force")

    def submit(self, student, assignment_id, notebook):
        """Place one student's notebook where nbgrader collects submissions."""
        folder = self.root / "submitted" / student / assignment_id
        folder.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, folder / f"{assignment_id}.ipynb")

    def autograde(self, assignment_id, *extra):
        run_nbgrader(self.root, "autograde", assignment_id, "--force", *extra)

    def generate_feedback(self, assignment_id, *extra):
        run_nbgrader(self.root, "generate_feedback", assignment_id, "--force", *extra)

    def feedback_html(self, student, assignment_id):
        path = self.root / "feedback" / student / assignment_id / f"{assignment_id}.html"
        return path.read_text(encoding="utf-8")

    def cell_scores(self, assignment_id, student):
        """The score of every graded cell of one student's submission."""
        with Gradebook(self.db_url()) as gradebook:
            submission = gradebook.find_submission_notebook(assignment_id, assignment_id, student)
            return {
                grade.name: CellScore(grade.name, grade.score, grade.max_score)
                for grade in submission.grades
            }
