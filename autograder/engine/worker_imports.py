"""What the fork server imports once for every worker it forks (fork_server.WORKER_IMPORTS):
dask's distributed, torch and the kit's worker, with the garbage collector paused meanwhile
and their objects frozen after (plumbing/quiet_imports.py), so each forked worker inherits them set
aside: its collections neither walk them nor write to their pages (which would copy them out
of the memory the workers share)."""

from autograder.plumbing.quiet_imports import paused

with paused():
    import distributed  # noqa: F401
    import torch  # noqa: F401

    import autograder.engine.worker  # noqa: F401
