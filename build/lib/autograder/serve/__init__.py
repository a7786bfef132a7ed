"""`python -m autograder serve`: a course's grader kept warm, and feedback on submit.

    exchange inbound/ --(inbound.py: what was handed in)--> on_submit.py: for each new
    submission of an assignment turned on, within its per-student limit: nbgrader's collect,
    the kit's grade and feedback (on the warm engine), nbgrader's release_feedback
                      |
                      v
    .kit/on_submit.json (record.py): what became of each submission, so that a restart
    neither loses one nor grades one twice

Imports grading, engine, sandbox, outputs, course, i18n and plumbing; never the command
line: the commands it relays run with the runner the command line hands it.
"""
