"""A progress bar for long batches: counts, elapsed time and time left, on stderr."""

from __future__ import annotations

import sys
import time


def clock(seconds):
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"


class Progress:
    """Call `advance(label)` once per finished item; the bar redraws in place on a terminal
    and prints one line per item elsewhere (logs, CI)."""

    def __init__(self, total, what="notebooks", stream=None, width=28):
        self.total, self.what, self.width = total, what, width
        self.stream = stream or sys.stderr
        self.done = 0
        self.started = time.monotonic()
        self.live = self.stream.isatty()

    def advance(self, label=""):
        self.done += 1
        elapsed = time.monotonic() - self.started
        left = elapsed / self.done * (self.total - self.done)
        filled = self.width * self.done // max(self.total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        line = (f"[{bar}] {self.done}/{self.total} {self.what}  {clock(elapsed)} elapsed, "
                f"{clock(left)} left  {label}")
        if self.live:
            self.stream.write("\r" + line[:150].ljust(150))
            if self.done == self.total:
                self.stream.write("\n")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
