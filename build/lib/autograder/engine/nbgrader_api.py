"""nbgrader's Python API bound to one course directory, configured by its nbgrader_config.py
(made in autograder/course/directory.py, which init uses too)."""

from __future__ import annotations

from autograder.course.directory import nbgrader_api as course_api

__all__ = ["course_api"]
