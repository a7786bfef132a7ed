"""The course kit: build notebooks from assignments/, check steps, grade with nbgrader.

Its rooms, from the bottom up; each imports only from the rooms before it
(tests/autograder/test_layout.py reads this order from ROOMS):

    plumbing    what every process needs and no room owns: errors, timings, imports
    i18n        the course's language and the catalogs of every text
    checks      a step's checks and rules, and the recorder of what the student's code computes
    course      a course folder and its records: config, ids, deadlines, ledger, gradebook
    sandbox     the student's kernel, out of reach
    build       assignments/ into nbgrader's master notebooks and the students' files
    engine      grading processes: dask workers, the fork server, progress
    grading     nbgrader's autograde, in the sandbox, with the checks
    outputs     what grading produces for people: feedback, exports, reports
    serve       a course's service: grading on submit, commands relayed to it
    gradescope  the kit as Gradescope's autograder
    tools       the instructor's helpers: demo, scaffold, validate, speedups
    cli         the command line, on top
"""

from autograder.plumbing import deferred_imports, moved_modules

ROOMS = ("plumbing", "i18n", "checks", "course", "sandbox", "build", "engine", "grading",
         "outputs", "serve", "gradescope", "tools", "cli")

deferred_imports.defer()  # before anything imports nbformat (and so jsonschema)
moved_modules.keep_old_names()  # a course's config made before the move names them
