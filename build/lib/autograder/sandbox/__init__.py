"""Isolation and transport only: the warm kernel template, one sandboxed kernel, the agent
in it and the wire format. It knows nothing of steps, checks or nbgrader.

Imports of the checks only the record of what a call computes (op_record), of the
course only which files of a submission it may read (submission_files), i18n and plumbing.
"""
