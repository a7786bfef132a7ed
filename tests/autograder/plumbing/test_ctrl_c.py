"""Tests for autograder.plumbing.ctrl_c: does a Ctrl-C that lands in a finalizer, which Python
alone swallows, still stop the main thread; does every other unraisable exception reach the
hook there was?"""

from __future__ import annotations

import subprocess
import sys
import textwrap

# A program whose Ctrl-C lands in a __del__ (raise_signal runs the handler at once, inside
# it), as one that lands while the garbage collector runs a weakref callback does; it then
# waits on a lock for the seconds it is given, as `grade` waits for its next result:
# "stopped" and the seconds it waited if the Ctrl-C reached it, "went on" if not.
CTRL_C_IN_A_FINALIZER = textwrap.dedent("""
    import signal, sys, threading, time
    if sys.argv[1] == "hooked":
        from autograder.plumbing.ctrl_c import raised_again
        raised_again()
        raised_again()  # twice: one hook all the same

    class Finalized:
        def __del__(self):
            signal.raise_signal(signal.SIGINT)

    started = time.monotonic()
    try:
        Finalized()
        threading.Event().wait(float(sys.argv[2]))
        print("went on")
    except KeyboardInterrupt:
        print("stopped", round(time.monotonic() - started))
""")


def run(program, *args):
    return subprocess.run([sys.executable, "-c", program, *args], capture_output=True,
                          text=True, timeout=60)


def test_python_alone_swallows_a_ctrl_c_in_a_finalizer():
    """Is the fault real: without the hook, does the program go on, saying only "Exception
    ignored"?"""
    alone = run(CTRL_C_IN_A_FINALIZER, "alone", "1")
    assert alone.stdout.strip() == "went on", alone
    assert "Exception ignored" in alone.stderr and "KeyboardInterrupt" in alone.stderr, alone


def test_a_swallowed_ctrl_c_stops_the_main_thread_quietly():
    """With the hook, does the same Ctrl-C stop the program where it waits on a lock (not
    once the wait is over), without Python's "Exception ignored" traceback?"""
    hooked = run(CTRL_C_IN_A_FINALIZER, "hooked", "30")
    said, waited = hooked.stdout.split()
    assert said == "stopped" and int(waited) < 20, hooked
    assert "Exception ignored" not in hooked.stderr, hooked.stderr


def test_every_other_unraisable_exception_reaches_the_hook_there_was():
    """Does an error of a finalizer other than a Ctrl-C go to the hook in place before, and
    is nothing sent to the main thread for it?"""
    program = textwrap.dedent("""
        import sys, time
        seen = []
        sys.unraisablehook = lambda unraisable: seen.append(unraisable.exc_type.__name__)
        from autograder.plumbing.ctrl_c import raised_again
        raised_again()

        class Finalized:
            def __del__(self):
                raise ValueError("a broken finalizer")

        Finalized()
        time.sleep(0.2)
        print(seen)
    """)
    result = run(program)
    assert result.returncode == 0, result
    assert result.stdout.strip() == "['ValueError']", result
