"""Tools on top of the pipeline: validate an assignment, simulate a class, the demo.

Imports build, checks, course, grading, outputs, sandbox, i18n and plumbing.
"""
