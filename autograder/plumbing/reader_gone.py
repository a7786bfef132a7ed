"""Output whose reader has gone, dropped: the command goes on to its end.

A command piped into a reader that stops early (`update --apply | head -3`, `init c | head
-1`) met the closed pipe at its next write, and Python's BrokenPipeError ended it there: a
course half made or nothing made, files half taken, exit 0 and no word. `dropped_when_gone()`
puts in sys.stdout and sys.stderr streams that, the first time each finds its pipe closed,
point the process's descriptor (1, 2) at the null device and go on: the rest of what the
command prints there is dropped, its work is done, and its exit status is its work's. Both
matter: `grade 2>&1 | head` and `grade |& less` send the progress bar (stderr) into the pipe
too. Processes it starts after that write to the null device too.

A leaf: only the standard library."""

from __future__ import annotations

import contextlib
import os
import sys


class DroppedWhenGone:
    """A text stream (`stream`) whose writes, once its reader has gone, go nowhere."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._to_nowhere()
            return len(text)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._to_nowhere()

    def _to_nowhere(self):
        nowhere = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(nowhere, self._stream.fileno())
        finally:
            os.close(nowhere)
        with contextlib.suppress(OSError):  # what the buffer still holds, to the null device
            self._stream.flush()

    def __getattr__(self, name):  # fileno, isatty, encoding, buffer ...: the stream's own
        return getattr(self._stream, name)


def dropped_when_gone():
    """From now on, what this process prints (stdout, stderr) after its reader has gone is
    dropped, and the command goes on (once per process)."""
    if not isinstance(sys.stdout, DroppedWhenGone) and sys.stdout is not None:
        sys.stdout = DroppedWhenGone(sys.stdout)
    if not isinstance(sys.stderr, DroppedWhenGone) and sys.stderr is not None:
        sys.stderr = DroppedWhenGone(sys.stderr)
