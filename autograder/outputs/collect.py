"""Collect students' notebooks into submitted/ with nbgrader's zip_collect.

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
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

from dateutil.tz import gettz

from autograder.course import course_config, run_nbgrader
from autograder.errors import KitError
from autograder.i18n import config_language, language, t
from autograder.ledger import Problem, keep_problems


class CollectError(KitError, RuntimeError):
    pass


def pattern(root: Path, override=None):
    text = override or course_config(root).FileNameCollectorPlugin.named_regexp
    try:
        compiled = re.compile(text)
    except re.error as error:
        raise CollectError(f"the file-name pattern {text!r} is not a regular expression: "
                           f"{error}") from error
    if {"student_id", "file_id"} - set(compiled.groupindex):
        raise CollectError(f"the file-name pattern {text!r} needs the groups "
                           "(?P<student_id>...) and (?P<file_id>...)")
    return compiled


def incoming_names(source: Path):
    """The notebook file names in a folder or a zip (folders inside a zip are ignored)."""
    if source.is_dir():
        return [p.name for p in sorted(source.iterdir()) if p.is_file()]
    if zipfile.is_zipfile(source):
        with zipfile.ZipFile(source) as archive:
            return [PurePosixPath(n).name for n in archive.namelist() if not n.endswith("/")]
    raise CollectError(f"{source}: neither a folder nor a zip file; give the folder of "
                       "notebooks or the zip the LMS exported")


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


def handed_in_times(source: Path, regexp, zone):
    """{student: when the file was handed in}: the zip entry's date (a time without a zone,
    read in `zone`), or the file's modification time."""
    times = {}
    if source.is_dir():
        entries = [(p.name, datetime.fromtimestamp(p.stat().st_mtime, UTC))
                   for p in source.iterdir() if p.is_file()]
    else:
        with zipfile.ZipFile(source) as archive:
            entries = [(PurePosixPath(i.filename).name, datetime(*i.date_time, tzinfo=zone))
                       for i in archive.infolist() if not i.is_dir()]
    for name, when in entries:
        match = regexp.match(f"extracted/{name}")
        if match:
            times[match.group("student_id")] = when
    return times


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


def collect(root: Path, assignment_id, source: Path, file_pattern=None, log=print):
    """Copy `source` (folder or zip) into downloaded/<id>/archive/ and run nbgrader
    zip_collect; return the problems found in the file names (in the course's language)."""
    with language(config_language(course_config(root))):
        return _collect(root, assignment_id, source, file_pattern, log)


def _collect(root: Path, assignment_id, source: Path, file_pattern, log):
    if not source.exists():
        raise CollectError(f"{source}: no such file or folder")
    regexp = pattern(root, file_pattern)
    problems = unparsable(source, incoming_names(source), regexp, assignment_id)
    keep_problems(root, "collect", [assignment_id], problems)
    for problem in problems:
        log(f"error: {problem}")
    archive = root / "downloaded" / assignment_id / "archive"
    shutil.rmtree(archive.parent, ignore_errors=True)
    archive.mkdir(parents=True)
    if source.is_dir():
        for path in sorted(source.iterdir()):
            if path.is_file() and regexp.match(f"extracted/{path.name}"):
                shutil.copy(path, archive / path.name)
    else:
        shutil.copy(source, archive / source.name)
    run_nbgrader(root, "zip_collect", assignment_id, "--force",
                 f"--FileNameCollectorPlugin.named_regexp={regexp.pattern}")
    zone = gettz(course_config(root).Exchange.get("timezone", "UTC"))
    stamp(root, assignment_id, handed_in_times(source, regexp, zone))
    collected = sorted(p.parent.parent.name for p in
                       (root / "submitted").glob(f"*/{assignment_id}/{assignment_id}.ipynb"))
    log(f"collected {assignment_id}: {len(collected)} submissions in submitted/")
    return problems
