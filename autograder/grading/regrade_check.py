"""`python -m autograder regrade-check ID`: grade the graded notebooks again, aside, and say
whether each gets the grade it has.

Each notebook the kit graded (its ledger says "graded", for the very file in submitted/) is
graded again on the grading engine, with the draw its grading had (course/draw_keys.py: the course's
secret, the student, the assignment and the reseed the ledger kept); nothing of the course is
written: the worker's autograded notebook is compared with the course's. Per student: the
score, and per test cell whether it passed and what it found (every failing case, with its
mistake's name). Exit 1 when a notebook's second grading differs, or when one could not be
checked (not graded, changed since, no longer gradable), each said with why.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbgrader.utils import determine_grade, is_grade

from autograder.course.directory import check_ids, course_config, course_ids
from autograder.course.draw_keys import (
    key_digest,
    notebook_draw,
    read_secret,
    ready_to_draw,
    secret_path,
)
from autograder.course.ledger import is_graded, read_status
from autograder.course.notebook_record import KEY
from autograder.engine.cluster import grade_all
from autograder.engine.progress import Progress
from autograder.grading.parallel import expected_tests, grading_engine
from autograder.grading.submissions import find_submissions
from autograder.i18n import config_language, counted, language, t

QUIET = logging.getLogger("kit.regrade-check")


@dataclass(frozen=True)
class Verdict:
    """What one grading gave one test cell: its points and what it found."""

    score: float | None
    found: tuple  # ((kind, text, mistake), ...) in the record's order


@dataclass
class Check:
    same: list = field(default_factory=list)  # (student, score)
    different: list = field(default_factory=list)  # (student, [lines])
    unchecked: list = field(default_factory=list)  # (student, why)

    @property
    def ok(self):
        return bool(self.same) and not self.different and not self.unchecked


def verdicts(notebook) -> dict:
    """{grade id: Verdict} of an autograded notebook's test cells."""
    found = {}
    for item in notebook.metadata.get(KEY, {}).get("findings", []):
        found.setdefault(item.get("cell"), []).append(
            (item.get("kind"), item.get("text"), item.get("mistake")))
    return {cell.metadata["nbgrader"]["grade_id"]: Verdict(
        determine_grade(cell, QUIET)[0], tuple(found.get(cell.metadata["nbgrader"]["grade_id"],
                                                         ())))
            for cell in notebook.cells if cell.cell_type == "code" and is_grade(cell)}


def total(verdicts_of):
    return sum(v.score or 0 for v in verdicts_of.values())


def differences(before: dict, after: dict) -> list:
    """The lines that say how two gradings of a notebook differ (none when they do not)."""
    lines = []
    if total(before) != total(after):
        lines.append(t("score {before:g} -> {after:g}", before=total(before),
                       after=total(after)))
    for cell in sorted(set(before) | set(after)):
        old, new = before.get(cell), after.get(cell)
        if old == new:
            continue
        if old is None or new is None:
            lines.append(t("{cell}: graded only once", cell=cell))
            continue
        if old.score != new.score:
            lines.append(t("{cell}: {before:g} -> {after:g} points", cell=cell,
                           before=old.score or 0, after=new.score or 0))
        for kind, text, mistake in old.found:
            if (kind, text, mistake) not in new.found:
                lines.append(t("{cell}: no longer found: {finding}", cell=cell, finding=text)
                             + (f" ({mistake})" if mistake else ""))
        for kind, text, mistake in new.found:
            if (kind, text, mistake) not in old.found:
                lines.append(t("{cell}: found now: {finding}", cell=cell, finding=text)
                             + (f" ({mistake})" if mistake else ""))
    return lines


def regrade_check(root: Path, assignment_id, students=(), workers=None, scheduler=None,
                  log=print) -> Check:
    """Grade again, aside, every graded notebook of the assignment (of `students`, ids or
    globs, when given), and compare (see the module's docstring)."""
    root = root.resolve()
    check_ids([assignment_id], course_ids(root))
    config = course_config(root)
    with language(config_language(config)):
        return _regrade_check(root, config, assignment_id, students, workers, scheduler, log)


def _regrade_check(root, config, assignment_id, students, workers, scheduler, log):
    check = Check()
    ready, problems = find_submissions(root, [assignment_id],
                                       expected_tests(root, [assignment_id]), students)
    for problem in problems:
        if not problem.graded_anyway:  # grade refuses it too: it is not checked, and said
            check.unchecked.append((problem.student, t("grade refuses it: {problem}",
                                                       problem=problem)))
    todo = []
    for submission in ready:
        status = read_status(root, submission.student, assignment_id) or {}
        if not is_graded(root, submission.student, assignment_id, submission.notebook):
            check.unchecked.append((submission.student, t(
                "not graded as it is in submitted/ (run grade first)")))
        elif "draws" not in status:
            check.unchecked.append((submission.student, t(
                "graded before the kit recorded draws: its hidden cases cannot be drawn "
                "again (run grade --force once, then check)")))
        else:
            todo.append(submission)
    if not ready and not problems:
        log(t("nothing to check: no notebook of {id} in submitted/{students}", id=assignment_id,
              students=t(" for {students}", students=", ".join(students)) if students else ""))
    secret = read_secret(secret_path(root), log)
    if secret and todo:
        ready_to_draw(secret, log)
    keys = {}
    for submission in list(todo):
        key = (notebook_draw(root, secret, submission.student, submission.assignment)[1]
               if secret else None)
        if key is None or key_digest(key) != read_status(
                root, submission.student, assignment_id)["draws"]:
            todo.remove(submission)
            check.unchecked.append((submission.student, t(
                "its hidden cases cannot be drawn again: the course's secret ({path}) is "
                "missing or not the one it was graded with", path=secret_path(root))))
        else:
            keys[(submission.student, assignment_id)] = key
    if todo:
        grade_aside(root, config, todo, keys, workers, scheduler, check, log)
    for student, total_score in sorted(check.same):
        log(counted(total_score, "{student}: the same grade again: {score:g} point, the same "
                    "failing cases and named mistakes", "{student}: the same grade again: "
                    "{score:g} points, the same failing cases and named mistakes",
                    student=student, score=total_score))
    for student, lines in sorted(check.different):
        log(t("{student}: DIFFERENT when graded again:", student=student))
        for line in lines:
            log(f"  - {line}")
    for student, why in sorted(check.unchecked):
        log(t("{student}: not checked: {why}", student=student, why=why))
    log(t("regrade check of {id}: {same} the same, {different} different, {unchecked} not "
          "checked", id=assignment_id, same=len(check.same), different=len(check.different),
          unchecked=len(check.unchecked)))
    return check


def grade_aside(root, config, todo, keys, workers, scheduler, check, log):
    """Grade `todo` on the engine with their keys, comparing each result with the course's
    autograded notebook instead of keeping it."""
    progress = Progress(len(todo))

    def compare(submission, graded):
        student, assignment_id = submission.student, submission.assignment
        progress.advance(f"{student}/{assignment_id}")
        if not graded.ok:
            check.different.append((student, [t("could not be graded again: {why}",
                                                why=t(graded.why))]))
            return
        name = f"{assignment_id}.ipynb"
        before = verdicts(nbformat.read(root / "autograded" / student / assignment_id / name,
                                        as_version=4))
        after = verdicts(nbformat.reads(graded.files[name].decode("utf-8"), as_version=4))
        lines = differences(before, after)
        if lines:
            check.different.append((student, lines))
        else:
            check.same.append((student, total(before)))

    with grading_engine(root, config, todo, workers, scheduler, {}, log) as client:
        grade_all(client, root, todo, {}, lambda submission: None, compare, keys)
