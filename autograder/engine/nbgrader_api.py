"""nbgrader's Python API bound to one course directory, configured by its nbgrader_config.py."""

from __future__ import annotations

import os
from pathlib import Path

from nbgrader.apps import NbGraderAPI
from nbgrader.coursedir import CourseDirectory

from autograder.course import course_config, nbgrader_env


def course_api(root: Path, **overrides) -> NbGraderAPI:
    """An NbGraderAPI working on `root`. nbgrader resolves some paths from the current
    directory, so the process moves there; its PATH gets the virtualenv (for alembic)."""
    os.chdir(root)
    os.environ["PATH"] = nbgrader_env()["PATH"]
    config = course_config(root, **overrides)
    coursedir = CourseDirectory(config=config)
    coursedir.root = str(root)
    return NbGraderAPI(coursedir=coursedir, config=config)
