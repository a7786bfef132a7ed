"""Whether a run of feedback pages is written in the command's own process or on the embedded
cluster's worker processes.

Worker processes cost a start before their first page: the fork server's imports (about 1 s
of a core, begun early by the command line, beside its own imports), dask's scheduler and
nannies, then each worker's first page (Jinja compiling the templates, Pygments' lexers).
Measured on two cores (2026-12-03, `python -m autograder feedback` of a graded class of 01,
wall from launch to exit, two runs each): 4 pages 1.75 s in this process against 2.06-2.12 s
on two workers; 15 pages 2.16-2.18 against 2.37-2.43; 30 pages 2.78-2.81 against 2.68-2.70;
60 pages 3.86-3.96 against 3.32-3.60: a page cost about 40 ms here. Since a worker in this
process is handed the next page while it writes one (cluster.run_all, LOOK_AHEAD), a page costs
about 22 ms here and 17 on two workers, and their start some 1.6 s (2026-12-06, the same
command, two runs each): 30 pages 1.85 s here against 2.07-2.18 s on workers; 60 pages
2.57-2.63 against 3.03-3.12; 100 pages 3.24-3.63 against 3.26-3.39. So this process writes
them when what the workers would save (the pages beyond one worker's share) is no more than
some 45 pages: up to 90 pages on two workers.

A process that imported what pages need before the run (`warm`: serve, which writes pages
on submit, running a `feedback` handed to it; a script calling write_feedback) has no
imports of its own left for the workers' start to overlap, and that start weighs more.
Measured so (2026-12-03, write_feedback in a process that had graded the class, three runs
each): 30 pages 1.34-1.60 s in this process against 3.41-3.48 s on two workers; 60 pages
2.42-2.73 against 4.23-4.53; 100 pages 4.25-4.68 against 5.35-5.44: some 44 ms a page
here, 28 ms and a start of 2.6 s on two workers, even at about 165 pages (since the look-ahead,
some 24 ms a page here: 30 pages in 0.71-0.78 s once the first run of a process compiled the
templates; the bar is left where it was). Such a process writes them when the workers would
save no more than PAGES_A_WARM_START_COSTS.

Light on purpose (the standard library alone): the command line asks before it imports what
pages need, to start the workers' fork server early only when they will be used.
"""

from __future__ import annotations

import os

PAGES_A_START_COSTS = 45  # pages saved on workers that no more than pay for their start
PAGES_A_WARM_START_COSTS = 80  # the same, where this process imported what pages need before


def page_workers(counts, asked: int | None) -> int:
    """The workers of a run of pages, `counts` a page count for each assignment (its pages are
    written one assignment after another): as many as `asked` (all cores when None), no more
    than the largest assignment has pages."""
    return max(1, min(asked or os.cpu_count() or 1, max(counts, default=1)))


def pages_in_this_process(counts, asked: int | None, warm=False) -> bool:
    """Whether the pages (`counts` as page_workers takes them) are written sooner in this
    process than on new worker processes (one worker process never is: it saves nothing and
    starts as slowly); `warm`: this process imported what pages need before the run."""
    pages = sum(counts)
    saved = pages - pages / page_workers(counts, asked)  # what the other workers take on
    return saved <= (PAGES_A_WARM_START_COSTS if warm else PAGES_A_START_COSTS)
