"""serve's first grade of an assignment as quick as its next: what that grade would make once
for the process, made as serve starts.

The first grade of an assignment in a process makes its bundle (the files the worker needs,
and a gradebook of its own, about 0.3 s), the worker's copy of it (0.2 s) and reads its
checks; later grades reuse all three (engine/bundle.py, engine/worker.py). serve makes them
for every assignment of the course's gradebook as it starts, in a thread of its own: the
assignments graded on submit first, then the one released last. The gradebook is read and
each assignment made under the grading lock, so a command that comes meanwhile waits for
one assignment at most, then runs; the warm-up then goes on. It writes nothing in the course
(without a gradebook, it has nothing to make: no assignment is registered).

An assignment that cannot be made ready is said on the console, with why: its first grade
will meet the same problem and say it to whoever grades.
"""

from __future__ import annotations

import threading
from pathlib import Path

from autograder.course.config_file import db_url, sqlite_file
from autograder.course.directory import open_gradebook
from autograder.course.ids import course_ids
from autograder.i18n import t
from autograder.plumbing.timeline import mark


def registered(root: Path) -> list[str]:
    """The course's assignments its gradebook holds with their notebooks: the ones a grade
    can make a bundle of. None without a gradebook file (reading would make one)."""
    file = sqlite_file(db_url(root))
    if file is not None and not file.is_file():
        return []
    with open_gradebook(root) as gradebook:
        known = {a.name for a in gradebook.assignments if a.notebooks}
    return [i for i in course_ids(root) if i in known]


def in_order(root: Path, ids, first=()):
    """`ids`, those of `first` (graded on submit) leading, then the last released first."""
    def released(assignment_id):
        try:
            return (root / "release" / assignment_id).stat().st_mtime
        except OSError:  # not released (yet)
            return 0.0

    return sorted(ids, key=lambda i: (i not in first, -released(i)))


class WarmUp:
    """The warm-up thread of a serve: `start`, then `stop` before the engine closes (the
    assignment being made is finished; no other is begun)."""

    def __init__(self, root: Path, client, lock, say, first=()):
        self.root = root.resolve()  # as a grade names it: the bundles are kept by it
        self.client, self.lock, self.say, self.first = client, lock, say, first
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, name="kit-serve-warm-up", daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.stopping.set()

    def run(self):
        from autograder.engine.cluster import warm_assignment
        from autograder.plumbing import private_api

        private_api.stepped_aside()  # each speedup's check, which the first grade reports
        try:
            with self.lock:  # not beside a command's grade, which may be making the gradebook
                ids = in_order(self.root, registered(self.root), self.first)
        except Exception as error:  # noqa: BLE001 - said; serve goes on
            self.say(t("warm-up: the gradebook cannot be read ({error}); each assignment's "
                       "first grade makes what it needs", error=error))
            return
        for assignment_id in ids:
            with self.lock:
                if self.stopping.is_set():
                    return
                try:
                    warm_assignment(self.client, self.root, assignment_id)
                except Exception as error:  # noqa: BLE001 - said; serve goes on
                    if not self.stopping.is_set():
                        self.say(t("warm-up of {assignment}: {error}; its first grade will "
                                   "meet it too", assignment=assignment_id,
                                   error=f"{type(error).__name__}: {error}"))
                    continue
            mark(f"serve: {assignment_id} warmed")
        mark("serve: warm-up done")
