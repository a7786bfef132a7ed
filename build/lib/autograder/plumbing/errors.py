"""The kit's error base class, in a module of its own that imports nothing: the command line
catches it without importing the heavy modules (torch, nbgrader) that raise its subclasses."""


class KitError(Exception):
    """An error the kit explains to its user: the message says what failed and what to do.
    `python -m autograder` prints it and exits 1, without a traceback."""


class OutputError(KitError):
    """An output (feedback, export, report) cannot be written where it was asked to be."""


class EngineError(KitError, RuntimeError):
    """The cluster cannot grade: the message says why and what to do."""
