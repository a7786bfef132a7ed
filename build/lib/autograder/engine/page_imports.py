"""What the fork server imports once for every worker that writes feedback pages
(fork_server.PAGE_IMPORTS): dask's distributed, nbgrader's feedback and the kit's worker,
without torch (about 1.6 CPU s of a grading worker's imports, and no page needs it), set
aside as worker_imports.py sets them."""

from autograder.engine.fork_server import deaf_to_ctrl_c

deaf_to_ctrl_c()  # first: the server is born with SIGINT blocked (fork_server.ctrl_c_blocked)

from autograder.plumbing.quiet_imports import paused  # noqa: E402

with paused():
    import distributed  # noqa: F401
    import nbconvert.exporters  # noqa: F401
    import nbgrader.converters.generate_feedback  # noqa: F401

    import autograder.engine.worker  # noqa: F401
