"""Gradescope: the kit's grading as a Gradescope autograder.

`python -m autograder gradescope ID` writes the zip Gradescope builds its image from
(package.py); in that image `run_autograder` grades the student's upload with the kit's own
`grade` (run.py) and writes Gradescope's results.json (results.py). The zip's two scripts are
in templates/.

Imports grading, engine, sandbox, checks, course, i18n and plumbing.
"""
