"""A progress bar for long batches: counts, elapsed time and time left, on stderr."""

from __future__ import annotations

import sys
import time

from autograder.i18n import t

# What a bar counts, each a text of the catalogs (the number goes where the language puts it).
COUNTS = {"notebooks": "{done}/{total} notebooks", "pages": "{done}/{total} pages",
          "assignments": "{done}/{total} assignments"}


def clock(seconds):
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"


class Progress:
    """Call `advance(label)` once per finished item; the bar redraws in place on a terminal
    and prints one line per item elsewhere (logs, CI). `what` names the items, one of
    COUNTS; the bar speaks the current language."""

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
        count = t(COUNTS[self.what], done=self.done, total=self.total)
        line = t("[{bar}] {count}  {elapsed} elapsed, {left} left  {label}", bar=bar,
                 count=count, elapsed=clock(elapsed), left=clock(left), label=label)
        if self.live:
            self.stream.write("\r" + line[:150].ljust(150))
            if self.done == self.total:
                self.stream.write("\n")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
