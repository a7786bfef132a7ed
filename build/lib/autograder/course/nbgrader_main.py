"""nbgrader's own command line, in a process that spares what the kit spares its own: the
imports the kit defers (plumbing/deferred_imports: rfc3987_syntax's parser and nbgrader's
server extensions, 1.5-2 s of every `python -m nbgrader` here, none of which a command uses),
and the `alembic` executable a new gradebook runs (gradebook_version: 3.5-4 s). Importing
this module imports the kit's package first, which defers those imports; what runs is
nbgrader's `main`, with this process's arguments, where strings hash as in the kernels (an
`autograde` judges: plumbing/hash_seed.py).

    python -m autograder.course.nbgrader_main generate_assignment ID --force
"""

from autograder.course import gradebook_version
from autograder.plumbing.hash_seed import hash_as_kernels

if __name__ == "__main__":
    hash_as_kernels()
    gradebook_version.read_in_process()

    from nbgrader.apps.nbgraderapp import main

    main()
