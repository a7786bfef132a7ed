"""Collect students' notebooks into submitted/ with nbgrader's zip_collect.

The inbox is read by autograder/outputs/inbox.py (bounded, no archive inside it opened, every
refusal a Problem of its file); who is late, and an inbox whose times are an export's, is said.

The input is a folder of notebooks or an LMS zip; each file is named by the course's pattern
(FileNameCollectorPlugin.named_regexp in nbgrader_config.py: "alice_01_attention_by_hand.ipynb";
a (?P<timestamp>...) group, when the LMS puts the time in the name, gives the time handed in).
Names that do not parse are reported one per line, with the fix, and the rest is collected.
"""

from __future__ import annotations

import re
import secrets
import shutil
import zipfile
from contextlib import contextmanager, suppress
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import nbformat
from dateutil.tz import gettz

from autograder.course.deadlines import (
    Deadlines,
    PercentPerDay,
    duration,
    submitted_time,
    time_late,
)
from autograder.course.directory import course_config, run_nbgrader
from autograder.course.handed_in import COLLECT_WRITES, record
from autograder.course.ids import STUDENT_ID
from autograder.course.ledger import Problem, keep_problems
from autograder.course.submission_files import read_notebook
from autograder.i18n import config_language, counted, language, t
from autograder.outputs.inbox import read_inbox, system_file, write_inbox, zip_names
from autograder.plumbing.course_root import KIT_FOLDER
from autograder.plumbing.errors import KitError
from autograder.plumbing.files_beside import carry, files_beside

EXPORT_SPREAD = timedelta(minutes=2)  # files dated closer than this were stamped by an export


class CollectError(KitError, RuntimeError):
    pass


def pattern(root: Path, override=None):
    text = override or course_config(root).FileNameCollectorPlugin.named_regexp
    try:
        compiled = re.compile(text)
    except re.error as error:
        raise CollectError(t("the file-name pattern {pattern} is not a regular expression: "
                             "{error}", pattern=repr(text), error=error)) from error
    if {"student_id", "file_id"} - set(compiled.groupindex):
        raise CollectError(t("the file-name pattern {pattern} needs the groups "
                             "(?P<student_id>...) and (?P<file_id>...)", pattern=repr(text)))
    return compiled


def incoming_names(source: Path):
    """The notebook file names in a folder or a zip (folders inside a zip are ignored)."""
    if source.is_dir():
        return [p.name for p in sorted(source.iterdir()) if p.is_file() and not system_file(p)]
    if zipfile.is_zipfile(source):
        return zip_names(source)
    raise CollectError(t("{source}: neither a folder nor a zip file; give the folder of "
                         "notebooks or the zip the LMS exported", source=source))


def unparsable(source: Path, names, regexp, assignment_id):
    problems = []
    for name in names:
        match = regexp.match(f"extracted/{name}")  # nbgrader matches whole paths
        if match is None:
            problems.append(Problem(source / name, t("the file name does not match the "
                                                     "pattern {pattern}",
                                                     pattern=regexp.pattern),
                                    t("rename it <student>_{assignment}.ipynb or pass "
                                      "--pattern", assignment=assignment_id),
                                    assignment=assignment_id))
        elif match.group("file_id") != f"{assignment_id}.ipynb":
            problems.append(Problem(source / name, t("it is not a notebook of {assignment}",
                                                     assignment=assignment_id),
                                    t("collect it with its own assignment id"),
                                    student=match.group("student_id"),
                                    assignment=match.group("file_id").removesuffix(".ipynb")))
    return problems


def held_already(root: Path, problem, others) -> bool:
    """Whether a file refused as another assignment's notebook (`others`: its bytes by file
    name) is what submitted/ holds for that student and assignment already: that
    assignment's own collect took it from a shared inbox, so nothing is left to say on its
    row (kept, the refusal would mark that graded notebook 'graded with warnings')."""
    data = others.get(problem.path.name)
    if data is None or not problem.student:
        return False
    held = root / "submitted" / problem.student / problem.assignment / \
        f"{problem.assignment}.ipynb"
    return held.is_file() and held.read_bytes() == data


def no_notebooks(source: Path, handed, student_of):
    """The Problem of each notebook handed in that is no notebook (cut short, another kind of
    file under its name), as grade will find it, with its student: collected all the same
    (the student's file is kept), said now rather than at grade."""
    problems = []
    for each in handed:
        _, problem = read_notebook(source / each.name,
                                   lambda data=each.data: nbformat.reads(data.decode("utf-8"),
                                                                         as_version=4))
        if problem is not None:
            problems.append(replace(problem, student=student_of(each)))
    return problems


def exported_times(source, handed):
    """The Problem of an inbox whose files all carry nearly one time (an LMS that stamps its
    export's time on every entry: those are not the students' times), or None."""
    times = sorted(notebook.when for notebook in handed)
    if len(times) < 3 or times[-1] - times[0] > EXPORT_SPREAD:
        return None
    return Problem(source,
                   t("all {count} files are dated within {seconds} s of {time}: that is "
                     "the export's time, not when each student handed in",
                     count=len(times), seconds=int(EXPORT_SPREAD.total_seconds()),
                     time=times[0].isoformat(" ")),
                   t("if it is past the due date every student is penalised: collect with a "
                     "--pattern whose (?P<timestamp>...) group reads each time from the file "
                     "name, or set the students' times in submitted/*/<id>/timestamp.txt"),
                   graded_anyway=True)


def say_who_is_late(config, assignment_id, times, log):
    """Print each student handed in late, by how much, or that nobody is."""
    due = assignment_id in Deadlines(config=config).due_dates
    late = {student: time_late(config, assignment_id, student, when)
            for student, when in sorted(times.items())}
    late = {student: by for student, by in late.items() if by is not None}
    if not due:
        log(t("no due date for {assignment} in nbgrader_config.py (c.Deadlines.due_dates): "
              "nobody is late", assignment=assignment_id))
    grace = timedelta(minutes=PercentPerDay(config=config).grace_minutes)
    for student, by in late.items():
        log(t("late: {student} by {by}", student=student, by=duration(by.total_seconds()))
            if by > grace else
            t("late: {student} by {by}, within the course's {minutes:g} minutes of grace (no "
              "penalty)", student=student, by=duration(by.total_seconds()),
              minutes=grace.total_seconds() / 60))
    if times and due and not late:
        log(t("nobody is late"))
    return late


def stamp(root: Path, assignment_id, times):
    """Write what nbgrader's exchange writes at submit time where a submission lacks it: the
    time it was handed in (timestamp.txt, with its zone, for late penalties and the export;
    nbgrader's zip_collect already wrote it when the file name carries a time) and a secret
    (submission_secret.txt, which nbgrader release_feedback needs to name the page)."""
    for student, when in times.items():
        folder = root / "submitted" / student / assignment_id
        if not folder.is_dir():
            continue
        if not (folder / "timestamp.txt").exists():
            (folder / "timestamp.txt").write_text(when.isoformat(" "))
        if not (folder / "submission_secret.txt").exists():
            (folder / "submission_secret.txt").write_text(secrets.token_hex(16))


def against_submitted(root: Path, assignment_id, handed, student_of, log):
    """Of `handed`, those to collect: a student's first, or one handed in later than the
    submission submitted/ holds (nbgrader's zip_collect --force replaces whatever is there,
    so an older export collected after a newer one put each student's older notebook back,
    and a time set by hand in timestamp.txt was reset). A notebook the same as the one held is
    left as it is; one older than it is left, and said. Returns (to collect, counts by kind:
    new, newer, same, older)."""
    chosen, counts = [], dict.fromkeys(("new", "newer", "same", "older"), 0)
    for notebook in handed:
        student = student_of(notebook)
        folder = root / "submitted" / student / assignment_id
        held = folder / f"{assignment_id}.ipynb"
        if not held.is_file():
            kind = "new"
        elif held.read_bytes() == notebook.data:
            kind = "same"
        else:
            held_time = submitted_time(folder)
            kind = "older" if held_time and held_time > notebook.when else "newer"
        counts[kind] += 1
        if kind == "older":
            log(t("kept {student}'s submission in submitted/ (handed in {held}): this inbox's "
                  "{name} is older ({when})", student=student, held=held_time.isoformat(" "),
                  name=notebook.name, when=notebook.when.isoformat(" ")))
        elif kind != "same":
            chosen.append(notebook)
    return chosen, counts


# nbgrader's downloaded/ for the kit's zip_collect: a folder of the kit's own, which it empties
# each run (an instructor may keep their LMS zips in the course's downloaded/, as nbgrader's
# documentation has them do)
SCRATCH = f"{KIT_FOLDER}/downloaded"


@contextmanager
def files_kept(root: Path, assignment_id, students, log):
    """Around nbgrader's zip_collect --force, which replaces each of `students`' folders in
    submitted/ whole: the files in them that collect does not write (a TA's notes) are kept
    aside in the course's .kit/ and put back in the new folder; one the new folder holds too
    stays aside, and is said. What collect put in each is recorded as the student's first
    (course/handed_in.py)."""
    aside = root / KIT_FOLDER / "collect-aside" / assignment_id
    ours = {f"{assignment_id}.ipynb", *COLLECT_WRITES}
    for student in sorted(students):
        carry(root / "submitted" / student / assignment_id, aside / student, ours)
    try:
        yield
    finally:
        for student in sorted(students):
            folder = root / "submitted" / student / assignment_id
            if (folder / f"{assignment_id}.ipynb").is_file():
                record(root, assignment_id, student, folder)  # before a TA's files come back
            carry(aside / student, folder)
            for left in files_beside(aside / student):
                log(t("warning: {path} is kept in {aside}: the new submission holds a file "
                      "of that name", path=folder / left, aside=aside / student / left))
        if aside.is_dir() and not files_beside(aside):
            shutil.rmtree(aside)
            with suppress(OSError):  # another assignment's files may be kept there
                aside.parent.rmdir()


def collect(root: Path, assignment_id, source: Path, file_pattern=None, log=print):
    """Copy `source` (folder or zip) into .kit/downloaded/<id>/archive/ and run nbgrader
    zip_collect; return the problems found in the file names (in the course's language)."""
    with language(config_language(course_config(root))):
        return _collect(root, assignment_id, source, file_pattern, log)


def _collect(root: Path, assignment_id, source: Path, file_pattern, log):
    if not source.exists():
        raise CollectError(t("{source}: no such file or folder", source=source))
    regexp = pattern(root, file_pattern)
    config = course_config(root)
    zone = gettz(config.Exchange.get("timezone", "UTC"))
    handed, refusals = read_inbox(source, regexp, zone)
    refused_names = {p.path.name for p in refusals}
    problems = unparsable(source, [n for n in incoming_names(source) if n not in refused_names],
                          regexp, assignment_id)

    def named(notebook, group):  # a group of the pattern in the notebook's file name
        return regexp.match(f"extracted/{notebook.name}").group(group)

    def student_of(notebook):
        return named(notebook, "student_id")

    ours, others = [], {}  # this assignment's notebooks; the bytes of the others' by name
    for notebook in handed:
        if named(notebook, "file_id") == f"{assignment_id}.ipynb":
            ours.append(notebook)
        else:
            others[notebook.name] = notebook.data
    problems = [p for p in problems if not held_already(root, p, others)]
    # a student id grade would refuse as a folder name (a --pattern that takes any name)
    handed = [n for n in ours if STUDENT_ID.match(student_of(n))]
    problems += [Problem(source / n.name, t("its student id {student!r} is not one the course "
                                            "can use (letters, digits, '.', '_' and '-', a "
                                            "letter or a digit first)", student=student_of(n)),
                         t("rename the file, or give a --pattern whose student_id group takes "
                           "the LMS's id of the student"), assignment=assignment_id)
                 for n in ours if n not in handed]

    broken = [replace(p, assignment=assignment_id)
              for p in no_notebooks(source, handed, student_of)]  # collected all the same
    problems += [replace(p, assignment=assignment_id) for p in refusals] + broken
    if not source.is_dir() and (stamped := exported_times(source, handed)):
        problems.append(replace(stamped, assignment=assignment_id))
    keep_problems(root, "collect", [assignment_id], problems)
    for problem in problems:
        log(t("warning: {message}", message=problem) if problem.graded_anyway
            else t("error: {message}", message=problem))
    handed, counts = against_submitted(root, assignment_id, handed, student_of, log)
    archive = root / SCRATCH / assignment_id / "archive"
    shutil.rmtree(archive.parent, ignore_errors=True)  # the kit's own, never a user's
    archive.mkdir(parents=True)
    if handed:
        write_inbox(handed, archive)
        with files_kept(root, assignment_id, {student_of(h) for h in handed}, log):
            run_nbgrader(root, "zip_collect", assignment_id, "--force",
                         f"--FileNameCollectorPlugin.named_regexp={regexp.pattern}",
                         f"--ZipCollectApp.downloaded_directory={SCRATCH}")
    times = {student_of(h): h.when for h in handed}
    stamp(root, assignment_id, times)
    collected = sorted(p.parent.parent.name for p in
                       (root / "submitted").glob(f"*/{assignment_id}/{assignment_id}.ipynb"))
    unreadable = {p.student for p in broken}  # not a refusal of a file of another assignment
    taken_unreadable = sum(student_of(h) in unreadable for h in handed)
    log(t("collected {assignment}: {new} new, {newer} newer than the one held, {same} the same "
          "as the one held (left as it is), {older} older (not collected); {held} in "
          "submitted/", assignment=assignment_id, **counts,
          held=counted(len(collected), "{count} submission", "{count} submissions"))
        + (t(" ({count} of those collected no notebook, said above: grade reports each as "
             "not gradable)", count=taken_unreadable) if taken_unreadable else ""))
    say_who_is_late(config, assignment_id, times, log)
    return problems
