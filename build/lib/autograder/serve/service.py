"""The `serve` process: one per course, what it keeps warm, what it does, how it stops.

It holds the course's serve lock (a second `serve` is refused, naming the first), checks
that the course's sandbox can be built here (refused, never weakened), starts the kernel
template and keeps it, the imports and an in-process engine warm (engine/cluster.py,
kept_warm), and makes what each assignment's first grade would make (warm_up.py). Then,
until Ctrl-C or SIGTERM: the commands other processes hand it (commands.py) and, for the
assignments turned on, the grading on submit (on_submit.py), one at a time.
"""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path

from autograder.course.directory import course_config, isolation_setting
from autograder.course.ledger import FOLDER, CourseLock
from autograder.i18n import config_language, language, t
from autograder.serve.on_submit import FeedbackOnSubmit, OnSubmit, ServeError


def say_now(line):
    """A line on the console at once, also when it goes to a file or a service's journal."""
    print(line, flush=True)


def serve_lock(root: Path):
    """Held by the one `serve` of a course; ServeError naming the holder when taken."""
    return CourseLock(root / FOLDER / "serve.lock", lambda holder: ServeError(t(
        "another serve runs in this course ({holder}); stop it first", holder=holder)))


def stop_on_sigterm():
    """A service manager's stop (SIGTERM) ends `serve` as Ctrl-C does: the engine, its
    template and kernels close; a submission being graded is done again at the next start."""
    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)


def opening(root, watcher, sandbox, once):
    """What `serve` says as it starts: the course, what it does, how, and where it looks."""
    if watcher is None:
        return t("serving {root}: grade, feedback and validate of this course run here, warm; "
                 "no assignment is graded on submit (c.FeedbackOnSubmit.assignments); sandbox: "
                 "{sandbox}; Ctrl-C stops", root=root, sandbox=sandbox)
    settings = watcher.settings
    limit = t("{count} graded submissions per student and day", count=settings.per_day) \
        if settings.per_day else t("no daily limit")
    return t("serving {root}: feedback on submit for {ids} ({limit}); sandbox: {sandbox}; "
             "watching {folder}{how}", root=root, ids=", ".join(settings.assignments),
             limit=limit, sandbox=sandbox, folder=watcher.inbound,
             how="" if once else t("; grade, feedback and validate of this course run here "
                                   "too; Ctrl-C stops"))


def serve(root: Path, run_command, once=False, say=say_now):
    """Serve the course until stopped (`once`: take what is in the exchange now, then stop),
    running the commands clients hand it with `run_command(argv)` (the command line's main).
    Returns the exit status: 1 when a submission could not be graded."""
    from autograder.engine.cluster import kept_warm
    from autograder.grading.parallel import check_kernel, check_sandbox, described_isolation
    from autograder.sandbox import spare_kernel
    from autograder.sandbox.template_start import keep_warm, start_early_for
    from autograder.serve.commands import CommandServer
    from autograder.serve.warm_up import WarmUp

    config = course_config(root)
    with language(config_language(config)):
        turned_on = FeedbackOnSubmit(config=config).assignments
        if once and not turned_on:
            raise ServeError(t("no assignment is graded on submit: name them in "
                               "nbgrader_config.py, c.FeedbackOnSubmit.assignments = "
                               "['ID', ...] (the exchange's c.Exchange.root and "
                               "c.CourseDirectory.course_id set too)"))
        lock = threading.Lock()  # one grading at a time: a command's or one on submit
        watcher = OnSubmit(root, say, lock) if turned_on else None
        check_kernel()
        mechanism = check_sandbox(config)  # refused here, never weakened
        with serve_lock(root):
            start_early_for(isolation_setting(root))
            keep_warm()
            spare_kernel.keep()  # a judging kernel started ahead for each next notebook
            stop_on_sigterm()
            with kept_warm(config, root / "grade.log", say) as client:
                commands = None if once else CommandServer(root, lock, run_command, say).start()
                say(opening(root, watcher, described_isolation(mechanism), once))
                warm_up = None if once else WarmUp(root, client, lock, say, turned_on).start()
                try:
                    while True:
                        if watcher is not None:
                            watcher.look()
                            spare_kernel.start_pending()  # for the next submission
                        if once:
                            break
                        time.sleep(watcher.settings.interval if watcher else 1.0)
                except KeyboardInterrupt:
                    cut = watcher.being_graded() if watcher is not None else []
                    say(t("stopped; a submission being graded is graded again at the next "
                          "start") + f" ({', '.join(cut)})" if cut else t("stopped"))
                finally:
                    if warm_up is not None:
                        warm_up.stop()
                    if commands is not None:
                        commands.close()
                    with lock:  # a command still running ends before the engine does
                        pass
    return 1 if watcher is not None and watcher.not_graded else 0
