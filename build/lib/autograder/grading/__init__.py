"""nbgrader's autograde, extended: one stage per file (RestoreTestCells, GradeInSandbox), the
per-notebook session, the remote subject, submissions and the parallel `grade`.

Imports engine, checks, course, sandbox, i18n and plumbing.
"""
