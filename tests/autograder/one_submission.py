"""A course of the kit's assignment 01 with one student's notebook handed in, for the tests
that grade in this process as a grading worker does (the engine's and the write-back's)."""

from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path

import nbformat

from autograder.course.directory import Course
from autograder.engine import worker
from autograder.grading.parallel import register_assignments
from autograder.tools import simulate

ROOT = Path(__file__).resolve().parents[2]
ID = "01_attention_by_hand"


def notebook_of(course, stage):
    """The course's notebook of assignment 01 in `stage` (source, release)."""
    return nbformat.read(course.root / stage / ID / f"{ID}.ipynb", as_version=4)


def course_with_ada(folder: Path, prepare=None):
    """A course of assignment 01 in `folder`, its release copied in and registered, where
    ada handed in a partly done notebook; `prepare(course)` first, before registering (the
    source's files and the configuration as a test wants them)."""
    course = Course.create(folder, ROOT, [ID])
    shutil.copytree(ROOT / "release" / ID, course.root / "release" / ID)
    if prepare:
        prepare(course)
    register_assignments(course.root, [ID], lambda _: None)
    course.submit("ada", ID, simulate.partly_done(notebook_of(course, "release"),
                                                  notebook_of(course, "source")))
    return course


@contextmanager
def as_a_worker():
    """While a test grades in this process as a grading worker does: the current folder is
    kept (a worker moves into its folder, which goes with it), and the worker's workspace
    (its folders and its kernel template) is closed after."""
    here = os.getcwd()
    try:
        yield
    finally:
        os.chdir(here)
        if worker._WORKSPACE is not None:
            worker._WORKSPACE.close()
            worker._WORKSPACE = None
