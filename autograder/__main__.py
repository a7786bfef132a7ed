"""`python -m autograder COMMAND`. Kept light (the command line imports what a command needs
when it runs): a spawned grading worker imports this module again, as __mp_main__. A command
the course's serve runs is handed to it before the command line (cli.py) is imported: the
command then costs this process its interpreter's start and a socket (serve/commands.py).
Once the command is done, the process ends without Python's teardown (plumbing/fast_exit.py)."""

import os
import sys
from pathlib import Path


def without_the_folder_typed_in():
    """`python -m` puts the folder the command was typed in first on sys.path: typed in an
    assignment's folder, its notebook.py would then be imported for jupyter's `notebook`
    package (nbconvert imports it). That folder leaves the path, unless the kit itself was
    found there (a checkout of the kit, run from its root)."""
    if sys.path and sys.path[0] in ("", os.getcwd()) and \
            Path(__file__).resolve().parent.parent != Path.cwd().resolve():
        del sys.path[0]


def main():
    """The command line's exit status: serve's, where it ran the command, else cli.main's.
    This process's own command runs where strings hash as the kernels do (plumbing/hash_seed.py:
    restarted so, when started otherwise, before the command line is imported). A command
    handed to serve runs in serve, which hashes so: this process only relays it, and is not
    restarted (an interpreter's start, about 30 ms of a warm grade's 0.3 s). What it prints
    once its reader has gone is dropped, and the command goes on (plumbing/reader_gone.py)."""
    from autograder.plumbing.hash_seed import hash_as_kernels  # here, where a Ctrl-C is caught
    from autograder.plumbing.reader_gone import dropped_when_gone
    from autograder.plumbing.timeline import mark
    from autograder.serve.commands import served_unparsed

    mark("command: started")
    without_the_folder_typed_in()
    dropped_when_gone()
    served = served_unparsed(sys.argv[1:])
    if served is not None:
        return served
    hash_as_kernels()
    from autograder import cli

    return cli.main(serve_asked=True)


if __name__ == "__main__":  # not when a grading worker is spawned
    try:
        code = main()
    except KeyboardInterrupt:
        from autograder.plumbing.ctrl_c import interrupted

        code = interrupted()
    from autograder.plumbing.fast_exit import exit_now

    exit_now(code)
