"""Autograde many submissions with nbgrader on dask.distributed, resumably, one run per course.

Each submission is one task of the grading engine (autograder/engine/cluster.py: an embedded
LocalCluster, or an existing cluster), graded by nbgrader's own autograde on a worker that
needs no course folder; this process writes every result into the course. Before a run the
kit marks what it will grade "grading" in its own ledger (`.kit/status/`), and "graded" (or
"failed") as each result is written: an interrupted run leaves "grading", and the next run
grades those again. Nothing in the gradebook is ever removed for this, so a TA's manual scores
and comments survive every run, every Ctrl-C and every crash.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

import nbformat
from nbgrader.api import MissingEntry

from autograder.checks.audit import unchecked_steps
from autograder.checks.loader import AssignmentError, load_assignment
from autograder.course.deadlines import (
    check_deadlines,
    grace_seconds,
    late_lines,
    late_terms,
    lateness,
    penalised_score,
)
from autograder.course.directory import (
    check_ids,
    course_config,
    course_ids,
    generate_with,
    isolation_of,
    nbgrader_api,
    open_gradebook,
)
from autograder.course.draw_keys import (
    course_secret,
    new_reseed,
    notebook_draw,
    ready_to_draw,
    recorded,
)
from autograder.course.gradebook_guard import check_gradebook
from autograder.course.ids import removed_ids
from autograder.course.ledger import (
    REGRADE,
    GradeLock,
    Problem,
    chosen,
    digest,
    is_graded,
    keep_problems,
    mark,
    read_status,
)
from autograder.course.release_checksums import changed_since_recorded
from autograder.engine.cluster import Cluster, close_client, grade_all, start_client
from autograder.engine.progress import Progress
from autograder.engine.worker import MACHINE_FAILURES
from autograder.engine.worker_watch import cluster_threads
from autograder.grading.checks_changed import checks_digest, graded_with_other_checks
from autograder.grading.session import steps_checked
from autograder.grading.submissions import find_submissions, grade_ids
from autograder.grading.write_back import keep_graded
from autograder.i18n import config_language, counted, language, t
from autograder.plumbing import private_api, timeline
from autograder.plumbing.errors import KitError
from autograder.plumbing.kit_command import kit_command


@dataclass
class GradeRun:
    graded: list = field(default_factory=list)  # (submission, "")
    skipped: list = field(default_factory=list)  # submissions already graded
    failed: list = field(default_factory=list)  # (submission, why)
    problems: list = field(default_factory=list)  # Problems of the input
    changes: list = field(default_factory=list)  # (student, assignment, before, after)
    isolations: set = field(default_factory=set)  # how the graded notebooks' kernels were confined
    unchecked: list = field(default_factory=list)  # Problems: test cells with no checks
    stale: list = field(default_factory=list)  # Problems: a release the gradebook lacks
    held: list = field(default_factory=list)  # submissions of those assignments, not graded
    empty: bool = False  # nothing in submitted/ to grade

    @property
    def refused(self):
        return [p for p in self.problems if not p.graded_anyway]

    @property
    def ok(self):
        """True when there was something to grade, every input was graded (warnings
        allowed), every test cell had hidden checks to grade with and every release was the
        one the gradebook recorded."""
        return not (self.empty or self.failed or self.refused or self.unchecked or self.stale)


def expected_tests(root: Path, ids):
    return {
        i: grade_ids(nbformat.read(root / "source" / i / f"{i}.ipynb", as_version=4))
        for i in ids
    }


def unchecked_cells(root: Path, ids):
    """A Problem per test cell of the course's master notebooks (source/) whose step has no
    hidden checks in assignments/<id>/ (or whose assignment's checks cannot be read): every
    student scores 0 there, so grade says so and exits 1."""
    problems = []
    for assignment_id in ids:
        path = root / "source" / assignment_id / f"{assignment_id}.ipynb"
        master = nbformat.read(path, as_version=4)
        named = [(f"{path.relative_to(root)} ({cell.metadata['nbgrader']['grade_id']})", name)
                 for cell in master.cells if cell.metadata.get("nbgrader", {}).get("grade")
                 for name in (steps_checked(cell.source) or [None])]
        try:
            lines = unchecked_steps(load_assignment(root, assignment_id), named)
        except AssignmentError as error:
            lines = [str(error)]
        problems += [Problem(path, line, t("every student scores 0 on that test until the "
                                           "assignment is fixed; then run grade --force"),
                             assignment=assignment_id) for line in lines]
    return problems


def stale_releases(root: Path, ids):
    """A Problem per assignment whose release/ is not the one the gradebook recorded (`build`
    rewrote it since: a step's points or text changed). nbgrader would refuse each of its
    notebooks ("Inconsistent checksums") as if the student had broken it; grade holds them
    back instead, names the cells and says how to record the new release."""
    problems = []
    for assignment_id in ids:
        changed = changed_since_recorded(root, assignment_id)
        if changed:
            problems.append(Problem(
                root / "release" / assignment_id,
                t("not the release the gradebook recorded: cells {cells} changed since (build "
                  "rewrote it); its notebooks are not graded", cells=", ".join(changed)),
                t("record this release with `nbgrader generate_assignment {id} --force` in the "
                  "course, then run grade again (with --force to regrade the notebooks graded "
                  "before)", id=assignment_id),
                assignment=assignment_id))
    return problems


def register_assignments(root: Path, ids, log):
    """Make sure the gradebook knows each assignment and its graded cells: nbgrader's
    generate_assignment for each one it does not know yet, all in this process (an nbgrader
    process took about 10 s to start for each), a line before and after each."""
    with open_gradebook(root) as gradebook:
        known = {a.name for a in gradebook.assignments if a.notebooks}
    missing = [assignment_id for assignment_id in ids if assignment_id not in known]
    if not missing:
        return
    here = Path.cwd()
    try:
        api = nbgrader_api(root)
        for number, assignment_id in enumerate(missing, 1):
            started = time.monotonic()
            log(t("[{number}/{count}] registering {id} in the gradebook (nbgrader "
                  "generate_assignment) ...", number=number, count=len(missing),
                  id=assignment_id))
            generate_with(api, root, assignment_id)
            log(t("[{number}/{count}] {id} registered ({seconds:.1f} s)", number=number,
                  count=len(missing), id=assignment_id, seconds=time.monotonic() - started))
    finally:
        os.chdir(here)  # nbgrader_api moved to the course


class GradeError(KitError, RuntimeError):
    """Grading cannot start; the message says why and what to do."""


def check_kernel(module="ipykernel"):
    """Every kernel is forked from the kit's template, which imports ipykernel in this Python
    (sandbox/zygote.py): without it nothing can be graded. Found, not imported. (Not Jupyter's
    kernelspec: no kernel is started from one, and finding the python3 spec imported IPython,
    some 30 ms of a cold grade's command.)"""
    if importlib.util.find_spec(module) is None:
        raise GradeError(t("no {module} in this Python, and every kernel needs it: install "
                           "it ({python} -m pip install {module})", module=module,
                           python=sys.executable))


def check_settings(config):
    """Refuse, before anything is graded, a setting of nbgrader_config.py of the wrong kind (a
    string where a number goes) for the kit's grading stages and cluster: each worker would
    otherwise fail every notebook with it, and the fix said would be the notebooks'. GradeError
    naming the setting and the kind it takes."""
    from traitlets import TraitError

    from autograder.course.deadlines import Deadlines
    from autograder.grading.grade_in_sandbox import GradeInSandbox

    for configurable in (GradeInSandbox, Deadlines, Cluster):
        try:
            configurable(config=config)
        except TraitError as error:
            raise GradeError(t("nbgrader_config.py: {error} Set it to a value of that kind, "
                               "then run grade again", error=error)) from None
    check_setting_names(config)


# The settings of the course's own section, c.Course (read as they are, by no class)
COURSE_SETTINGS = frozenset({"language", "group", "shared_readable"})


def kit_settings():
    """{section: its setting names} of the kit's sections of nbgrader_config.py that grading
    reads (those of the outputs and serve are theirs to check)."""
    from autograder.course.deadlines import Deadlines, PercentPerDay
    from autograder.grading.grade_in_sandbox import GradeInSandbox

    sections = {cls.__name__: set(cls.class_trait_names(config=True)) for cls in (
        GradeInSandbox, Deadlines, PercentPerDay, Cluster)}
    return {**sections, "Course": set(COURSE_SETTINGS)}


def say_unmatched_students(root, students, log):
    """Say each --student that names no folder of submitted/ (a typo, or an id from another
    list): with the closest ids there, or how many there are."""
    import difflib

    submitted = root / "submitted"
    folders = sorted(p.name for p in submitted.iterdir() if p.is_dir()) \
        if submitted.is_dir() else []
    for pattern in students:
        if any(chosen(folder, [pattern]) for folder in folders):
            continue
        close = difflib.get_close_matches(pattern, folders, n=3)
        log(t("warning: {message}", message=t(
            "--student {pattern}: no student of submitted/ is {pattern} ({known}); check the "
            "id", pattern=pattern, known=t("did you mean {names}?", names=t(", ").join(close))
            if close else counted(len(folders), "it holds {count} student",
                                  "it holds {count} students"))))


def check_setting_names(config):
    """Refuse a misspelt setting of the kit's (c.Course.langauge), or a section whose name is
    one letter or so from one of the kit's (c.Deadline): traitlets takes both without a word,
    and the setting meant is not set (a due date not applied, every student on time)."""
    import difflib

    known = kit_settings()
    for section in sorted(name for name in config if name[:1].isupper()):
        if section in known:
            wrong = sorted(set(config[section]) - known[section])
            if wrong:
                close = difflib.get_close_matches(wrong[0], known[section], n=1)
                raise GradeError(t(
                    "nbgrader_config.py sets c.{section}.{name}, which is no setting of "
                    "c.{section}{close}: correct its name (c.{section}'s settings: {settings})",
                    section=section, name=wrong[0],
                    close=t(" (did you mean {name}?)", name=close[0]) if close else "",
                    settings=", ".join(sorted(known[section]))))
            continue
        close = difflib.get_close_matches(section, known, n=1, cutoff=0.85)
        if close:
            raise GradeError(t("nbgrader_config.py sets c.{section}, which is no section of "
                               "the kit's or nbgrader's: did you mean c.{name}? Correct it, "
                               "then run grade again", section=section, name=close[0]))


def check_sandbox(config, override=None):
    """Refuse, before anything is graded, when the course's sandbox (or `override`, the
    command line's) cannot be built on this machine: GradeError with the one line that says
    what is missing and the two ways out."""
    from autograder.sandbox.isolation import NoSandbox, choose

    try:
        return choose(override or isolation_of(config))
    except NoSandbox as error:
        raise GradeError(str(error)) from None


def isolation_line(isolations):
    """The sandbox student code ran in, as the console and grade.log say it."""
    return t("sandbox: {isolation}", isolation="; ".join(
        described_isolation(i) for i in sorted(isolations)))


def described_isolation(mechanism):
    """A sandbox's name in words (sandbox/isolation.py), as the console, grade.log and the
    report (from each notebook's status) show it; "" for none."""
    from autograder.sandbox.isolation import described

    return described(mechanism) if mechanism else ""


def note_in_log(log_file: Path, line):
    """A line of the client's own in grade.log, beside the workers' warnings."""
    with open(log_file, "a", encoding="utf-8") as log:
        log.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {line}\n")


def scores_of(root: Path, submissions):
    """{(student, assignment): total score, its late penalty taken off, or None} from the
    gradebook (a regrade that changes only the penalty, a due date moved, changes it too)."""
    scores = {}
    with open_gradebook(root) as gradebook:
        for s in submissions:
            try:
                found = gradebook.find_submission(s.assignment, s.student)
            except MissingEntry:
                scores[(s.student, s.assignment)] = None
                continue
            scores[(s.student, s.assignment)] = penalised_score(found)
    return scores


def grade(root: Path, ids=(), workers=None, force=False, timeout=None, log=print,
          isolation=None, students=(), scheduler=None, reseed=False, resumable=True):
    """Autograde every submission of the given assignments (all when none given) of the
    given students (ids or globs; all when none given). `timeout`: seconds a cell or check
    may run; `isolation`: the sandbox's, when not the course's configured one; `workers`:
    processes of the embedded cluster; `scheduler`: the address of a dask scheduler to grade
    on instead (else c.Cluster.scheduler); `reseed`: draw new hidden cases for every notebook
    graded (and grade them all again); `resumable`: a Ctrl-C says how to go on (not in a
    scratch course, validate's). The problems kept for the report are written in the
    course's language."""
    force = force or reseed
    timeline.mark("grade: imports done")
    root = root.resolve()
    asked = list(ids)
    ids = check_ids(ids, course_ids(root))
    if not asked:
        ids = handed_in(root, ids, log)
    config = course_config(root)
    check_settings(config)
    check_deadlines(config, course_ids(root), removed_ids(root))
    check_kernel()
    if not (scheduler or Cluster(config=config).scheduler):  # a cluster's workers check theirs
        check_sandbox(config, isolation)
    check_gradebook(root, complete=not force)  # a forced grade writes every record again
    timeline.mark("grade: course checked")
    with GradeLock(root), language(config_language(config)):
        try:
            return _grade(root, ids, workers, force, timeout, log, isolation, students,
                          scheduler, reseed)
        except KeyboardInterrupt:
            if resumable:
                log(t("interrupted: every notebook graded so far is kept; run grade again to "
                      "go on"))
            raise


def fix_for(why):
    """What to do about a notebook not graded for `why`: a failure of the machine's
    (MACHINE_FAILURES) asks for another grade once it allows one, any other for the notebook
    to be fixed."""
    if why in MACHINE_FAILURES:
        return t("the machine failed, not the notebook: check its limits (processes, memory) "
                 "and run grade again")
    return t("fix the notebook (or ask the student to), then run grade again")


def handed_in(root: Path, ids, log):
    """Of `ids` (every assignment of the course, none named), those someone handed in: an
    assignment with no submission is not registered in the gradebook, where every export
    would then give each student a 0 for work never asked of them; the console says which
    were left out (`grade ID` registers one all the same)."""
    submitted = root / "submitted"
    kept = [i for i in ids if any(submitted.glob(f"*/{i}"))]
    left = [i for i in ids if i not in kept]
    if left and kept:
        log(t("no submission of {ids} yet: not graded, nor registered in the gradebook "
              "(`python -m autograder grade ID` registers one all the same)",
              ids=t(", ").join(left)))
    return kept or ids


def _grade(root, ids, workers, force, timeout, log, isolation, students, scheduler, reseed):
    run = GradeRun()
    register_assignments(root, ids, log)
    run.unchecked = unchecked_cells(root, ids)
    timeline.mark("grade: assignments registered")
    run.stale = stale_releases(root, ids)
    ready, run.problems = find_submissions(root, ids, expected_tests(root, ids), students)
    timeline.mark("grade: submissions found")
    stale = {problem.assignment: problem for problem in run.stale}
    run.held = [s for s in ready if s.assignment in stale]
    ready = [s for s in ready if s.assignment not in stale]
    held = [replace(stale[s.assignment], path=s.notebook, student=s.student) for s in run.held]
    kept = run.unchecked + run.stale + held + run.problems
    keep_problems(root, "grade", ids, kept, students)
    for problem in run.unchecked:
        log(t("error: {message}", message=f"{problem.reason}; {problem.fix}"))
    for problem in run.stale:
        log(t("error: {message}", message=problem))
    for problem in run.problems:
        log(t("warning: {message}" if problem.graded_anyway else "error: {message}",
              message=problem))
    say_unmatched_students(root, students, log)
    if not ready and not run.problems and not run.held:
        log(t("nothing to grade: submitted/ holds no notebook of {ids}{students}; collect "
              "them first ({kit} collect ID --from FOLDER_OR_ZIP)",
              ids=t(", ").join(ids), students=t(" for {students}",
                                                 students=t(", ").join(students))
              if students else "", kit=kit_command()))
        run.empty = True
        return run
    todo = [s for s in ready
            if force or not is_graded(root, s.student, s.assignment, s.notebook)]
    run.skipped = [s for s in ready if s not in todo]
    checks = {assignment_id: checks_digest(root, assignment_id) for assignment_id in ids}
    if run.skipped:
        log(counted(len(run.skipped), "{count} notebook already graded (use --force to grade "
                    "it again)", "{count} notebooks already graded (use --force to grade them "
                    "again)"))
        say_other_checks(graded_with_other_checks(root, run.skipped, checks), log)
        say_other_terms(graded_under_other_terms(root, course_config(root), run.skipped), log)
    unfinished = [s for s in todo if not force
                  and (read_status(root, s.student, s.assignment) or {}).get("state") == REGRADE]
    if unfinished:
        log(counted(len(unfinished), "finishing an interrupted grade --force: {count} "
                    "notebook it had not graded again is graded now", "finishing an "
                    "interrupted grade --force: {count} notebooks it had not graded again are "
                    "graded now"))
    fresh = new_reseed() if reseed and todo else None
    if fresh:
        log(t("--reseed: new hidden cases are drawn for the {notebooks} graded now (reseed "
              "{reseed}, kept in .kit/status/); each keeps this draw on every later regrade",
              notebooks=counted(len(todo), "{count} notebook", "{count} notebooks"),
              reseed=fresh))
    secret = course_secret(root, log) if todo else None
    if todo:
        ready_to_draw(secret, log)
    draws = {(s.student, s.assignment): notebook_draw(root, secret, s.student, s.assignment,
                                                      fresh) for s in todo}
    if force:  # until each is graded again, an interruption leaves it to the next grade
        for s in todo:  # (a new draw is kept at once: the next grade finishes with it)
            mark(root, s.student, s.assignment, s.notebook, REGRADE,
                 draw=recorded(*draws[(s.student, s.assignment)]) if fresh else None)
    resubmitted = [s for s in todo if (read_status(root, s.student, s.assignment) or {})
                   .get("sha256") not in (None, digest(s.notebook))]
    if todo:
        before = scores_of(root, todo)
        _run_engine(root, todo, workers, scheduler, sandbox_overrides(timeout, isolation), force,
                    run, log, draws, checks)
        after = scores_of(root, todo)
        run.changes = [(*key, before[key], after[key]) for key in before
                       if before[key] is not None and before[key] != after[key]]
    if run.isolations:
        note_in_log(root / "grade.log", isolation_line(run.isolations))
    if todo:
        for line in private_api.stepped_aside():  # this process's libraries, as workers' here
            note_in_log(root / "grade.log", line)
    failures = [Problem(s.notebook, t("not graded: {why}", why=t(why)), fix_for(why),
                        student=s.student, assignment=s.assignment) for s, why in run.failed]
    keep_problems(root, "autograde", ids, failures, students)
    for submission, why in run.failed:
        log(t("error: {notebook}: not graded: {why}; {fix}", notebook=submission.notebook,
              why=t(why), fix=fix_for(why)))
    graded = {(s.student, s.assignment) for s, _ in run.graded}
    outliving = manual_scores_kept(root, [s for s in resubmitted
                                          if (s.student, s.assignment) in graded])
    if outliving:
        run.problems += outliving
        keep_problems(root, "grade", ids, kept + outliving, students)
    for problem in outliving:
        log(t("warning: {message}", message=problem))
    for student, assignment_id, old, new in run.changes:
        log(t("score changed: {student} {id}: {old:g} -> {new:g}", student=student,
              id=assignment_id, old=old, new=new))
    for line in late_lines(lateness_of(root, [s for s, _ in run.graded])):
        log(line)
    return run


def manual_scores_kept(root: Path, submissions):
    """A warning Problem for each of `submissions` (handed in again since its last grading)
    whose gradebook holds a score a person gave: nbgrader keeps it over the new notebook's
    own, though it was given to the earlier one. Never cleared here (a TA's grade is theirs):
    said, with where to look."""
    problems = []
    with open_gradebook(root) as gradebook:
        for s in submissions:
            try:
                notebook = gradebook.find_submission_notebook(s.assignment, s.assignment,
                                                              s.student)
            except MissingEntry:
                continue
            manual = sorted(f"{grade.name} ({grade.manual_score:g})" for grade in notebook.grades
                            if grade.manual_score is not None)
            if manual:
                problems.append(Problem(
                    s.notebook, t("handed in again, it keeps the scores a person gave the "
                                  "earlier notebook: {cells}", cells=", ".join(manual)),
                    t("check them in nbgrader's formgrader against this notebook, and change "
                      "or clear those that no longer fit"),
                    graded_anyway=True, student=s.student, assignment=s.assignment))
    return problems


def lateness_of(root: Path, submissions):
    """[(student, assignment, Lateness)] of graded submissions, from the gradebook."""
    rows, grace = [], grace_seconds(course_config(root))
    with open_gradebook(root) as gradebook:
        for s in submissions:
            try:
                rows.append((s.student, s.assignment,
                             lateness(gradebook.find_submission(s.assignment, s.student),
                                      grace)))
            except MissingEntry:
                continue
    return rows


def sandbox_overrides(timeout, isolation):
    """The command line's sandbox settings over the course's, as the workers take them."""
    sandbox = {"cell_timeout": timeout} if timeout else {}
    if isolation:
        sandbox["isolation"] = isolation
    return {"GradeInSandbox": sandbox} if sandbox else {}


@contextmanager
def grading_engine(root: Path, config, todo, workers, scheduler, overrides, log):
    """A client of the engine to grade `todo` on: the cluster at `scheduler` (or the
    course's), else an embedded one of `workers` processes, its sandbox checked first; said
    on the console; closed at the end."""
    workers = max(1, min(workers or os.cpu_count() or 1, len(todo)))
    external = scheduler or Cluster(config=config).scheduler  # its workers check their own
    mechanism = None if external else check_sandbox(
        config, overrides.get("GradeInSandbox", {}).get("isolation"))
    # One notebook (a Gradescope upload, a TA's regrade of one student) is graded in this
    # process: a worker process would cost more time and memory than the notebook.
    client = start_client(config, workers, scheduler, root / "grade.log", log,
                          kernels=mechanism, in_process=len(todo) == 1)
    timeline.mark("grade: engine ready")
    try:
        count, workers = len(todo), cluster_threads(client)
        log((t("grading {count} notebook", count=count) if count == 1
             else t("grading {count} notebooks", count=count))
            + (t(" on {workers} worker", workers=workers) if workers == 1
               else t(" on {workers} workers", workers=workers))
            + (t(" of {address}", address=client.scheduler.address)
               if client.cluster is None else ""))
        yield client
    finally:
        close_client(client)


def say_other_checks(stale, log):
    """A line for the graded notebooks left as they are whose hidden checks changed since."""
    if stale:
        log(counted(len(stale), "warning: {count} of them was graded with hidden checks that "
                    "changed since (checks.py, probes.py, reference.py or a module they share "
                    "in assignments/): run {command} to grade it with the current ones",
                    "warning: {count} of them were graded with hidden checks that changed "
                    "since (checks.py, probes.py, reference.py or a module they share in "
                    "assignments/): run {command} to grade them with the current ones",
                    command=regrade_command(stale)))


def graded_under_other_terms(root, config, submissions) -> list:
    """Of `submissions` (graded), those whose grading recorded other late-penalty terms than
    the config gives now (a due date set or moved, an extension); one graded before the kit
    recorded them is not told."""
    return [s for s in submissions
            if (recorded := (read_status(root, s.student, s.assignment) or {}).get("terms"))
            and recorded != late_terms(config, s.assignment, s.student)]


def say_other_terms(stale, log):
    """A line for the graded notebooks left as they are whose due date, extension or late
    penalty changed since: their late penalty is the old one until they are graded again."""
    if stale:
        students = t(", ").join(sorted({s.student for s in stale}))
        log(counted(len(stale), "warning: {count} of them was graded under another due date, "
                    "extension or late penalty than nbgrader_config.py gives now ({students}): "
                    "its penalty is the old one until {command} grades it again", "warning: "
                    "{count} of them were graded under another due date, extension or late "
                    "penalty than nbgrader_config.py gives now ({students}): their penalties "
                    "are the old ones until {command} grades them again", students=students,
                    command=regrade_command(stale)))


def regrade_command(stale) -> str:
    """The command that grades the assignments of `stale` (submissions) again."""
    return f"{kit_command()} grade --force {' '.join(sorted({s.assignment for s in stale}))}"


def _run_engine(root, todo, workers, scheduler, overrides, force, run, log, draws, checks):
    """Grade `todo` on the engine, each with its draw (`draws`: (student, assignment) ->
    (reseed, key)), writing each result into the course as it comes back, with the digest
    of the checks it was graded with (`checks`: {assignment: checks_digest})."""
    config = course_config(root)
    with grading_engine(root, config, todo, workers, scheduler, overrides, log) as client:
        progress = Progress(len(todo))

        def started(submission):
            mark(root, submission.student, submission.assignment, submission.notebook,
                 "grading")

        def keep(submission, graded):
            timeline.mark("grade: result back")
            keep_graded(root, config, graded)
            timeline.mark("grade: result kept")
            mark(root, submission.student, submission.assignment, submission.notebook,
                 "graded" if graded.ok else "failed", described_isolation(graded.isolation),
                 draw=recorded(*draws[(submission.student, submission.assignment)]),
                 checks=checks[submission.assignment],
                 terms=late_terms(config, submission.assignment, submission.student))
            (run.graded if graded.ok else run.failed).append((submission, graded.why))
            if graded.isolation:
                run.isolations.add(graded.isolation)
            progress.advance(f"{submission.student}/{submission.assignment}")

        try:
            grade_all(client, root, todo, overrides, started, keep,
                      {item: key for item, (_, key) in draws.items()})
        except BaseException:  # Ctrl-C, a cluster left without a worker, ...
            if force:  # what the forced run had not finished: still to grade again
                for s in todo:
                    if (read_status(root, s.student, s.assignment) or {}).get("state") == (
                            "grading"):
                        mark(root, s.student, s.assignment, s.notebook, REGRADE)
            raise


def submission_scores(root: Path, assignment_id, student):
    """{grade cell: (score, max)} of one graded submission, or None."""
    with open_gradebook(root) as gradebook:
        try:
            notebook = gradebook.find_submission_notebook(assignment_id, assignment_id, student)
        except MissingEntry:
            return None
        return {g.name: (g.score, g.max_score) for g in notebook.grades}
