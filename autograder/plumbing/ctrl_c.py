"""A Ctrl-C that Python swallowed, raised again a moment later.

Python runs its SIGINT handler between two steps of whatever Python code runs then. When that
code is a finalizer (a weakref callback, a `__del__`, which the garbage collector may run in
the middle of anything), the KeyboardInterrupt it raises has nowhere to go: Python prints
"Exception ignored in ..." and goes on. A `grade` that a Ctrl-C reached so graded its whole
class and ended as if never interrupted. Python hands every such exception to
`sys.unraisablehook`; `raised_again` puts one there that sends a swallowed Ctrl-C to the
main thread once more, as a signal (`signal.pthread_kill`: it also wakes a main thread that
waits on a lock, which `_thread.interrupt_main` does not), from a timer thread, so that it
lands after the finalizer and its hook are done. Should it land in another finalizer, it is
sent again. Every other unraisable exception goes to the hook there was.

A leaf: the standard library alone."""

from __future__ import annotations

import signal
import sys
import threading

AGAIN_AFTER = 0.02  # s: the finalizer and the hook are long done by then


def raised_again():
    """From now on, a Ctrl-C a finalizer swallowed reaches the main thread again (once per
    process: a second call keeps the hook in place)."""
    if getattr(sys.unraisablehook, "raises_ctrl_c_again", False):
        return
    sys.unraisablehook = ctrl_c_raised_again(sys.unraisablehook)


def ctrl_c_raised_again(previous):
    """An unraisable hook: a KeyboardInterrupt is sent again, anything else to `previous`."""
    def hook(unraisable):
        if issubclass(unraisable.exc_type, KeyboardInterrupt):
            timer = threading.Timer(AGAIN_AFTER, signal.pthread_kill,
                                    (threading.main_thread().ident, signal.SIGINT))
            timer.daemon = True
            timer.start()
            return
        previous(unraisable)
    hook.raises_ctrl_c_again = True
    return hook


def interrupted():
    """130, having said "interrupted" as the command line says it (cli.py), for a Ctrl-C
    that came before the command line could catch it: while Python imported it or it parsed
    the command (the course's language not known yet). Python's traceback of the import it
    stopped was what a Ctrl-C in a command's first 0.3 s printed. A second Ctrl-C stops
    nothing half-said."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    print("interrupted", file=sys.stderr)
    return 130
