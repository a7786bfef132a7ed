"""`python -m autograder COMMAND`. Kept light (the command line imports what a command needs
when it runs): a spawned grading worker imports this module again, as __mp_main__. A command
the course's serve runs is handed to it before the command line (cli.py) is imported: the
command then costs this process its interpreter's start and a socket (serve/commands.py).

Once the command is done, no thread of it is working and every exit handler has run
(templates and kernels ended, temporary folders removed, the gradebook closed), the process
ends at once: Python's own teardown of what the command imported (torch, dask, nbgrader)
added 0.85 s to every grade of one notebook, and has nothing left to write
(bench/single.py). Where the interpreter has no atexit._run_exitfuncs, or a thread is still
working, it ends as Python ends a program."""

import atexit
import contextlib
import os
import sys
import threading

from autograder.plumbing.hash_seed import hash_as_kernels
from autograder.plumbing.timeline import mark
from autograder.serve.commands import served_unparsed


def working_threads():
    return [thread for thread in threading.enumerate()
            if thread is not threading.main_thread() and not thread.daemon and thread.is_alive()]


def main():
    """The command line's exit status: serve's, where it ran the command, else cli.main's.
    This process's own command runs where strings hash as the kernels do (plumbing/hash_seed.py:
    restarted so, when started otherwise, before the command line is imported). A command
    handed to serve runs in serve, which hashes so: this process only relays it, and is not
    restarted (an interpreter's start, about 30 ms of a warm grade's 0.3 s)."""
    mark("command: started")
    served = served_unparsed(sys.argv[1:])
    if served is not None:
        return served
    hash_as_kernels()
    from autograder import cli

    return cli.main(serve_asked=True)


if __name__ == "__main__":  # not when a grading worker is spawned
    code = main()
    run_exit_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_exit_handlers is None or working_threads():
        sys.exit(code)
    run_exit_handlers()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError):  # a reader gone: nothing left to say
            stream.flush()
    os._exit(code if isinstance(code, int) else 0 if code is None else 1)
