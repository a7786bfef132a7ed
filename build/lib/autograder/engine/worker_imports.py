"""What the fork server imports once for every worker it forks (fork_server.WORKER_IMPORTS):
dask's distributed, torch and the kit's worker, with the garbage collector paused meanwhile
and their objects frozen after (plumbing/quiet_imports.py), so each forked worker inherits them set
aside: its collections neither walk them nor write to their pages (which would copy them out
of the memory the workers share)."""

from autograder.engine.fork_server import deaf_to_ctrl_c

deaf_to_ctrl_c()  # first: the server is born with SIGINT blocked (fork_server.ctrl_c_blocked)

from autograder.plumbing.quiet_imports import paused  # noqa: E402

with paused():
    import distributed  # noqa: F401
    import torch  # noqa: F401

    import autograder.engine.worker  # noqa: F401
