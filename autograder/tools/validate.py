"""Prove a course's assignments work before students see them: for each assignment, its
hidden checks are sound (they pass the reference, draw fresh inputs, catch and name every
catalogued mistake: checks/audit.py), source/ and release/ are what its folder builds, the
reference passes the public tests in a fresh kernel, and, graded by real nbgrader in a
scratch course, the solutions earn full marks and the stubs zero."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import nbformat

from autograder.build import master_notebook
from autograder.build.authoring import read_assignment
from autograder.build.proof import public_test_failures
from autograder.checks.audit import mistake_problems, step_problems, untranslated_texts
from autograder.checks.loader import GUIDE, load_assignment
from autograder.course.directory import CONFIG, Course, course_language
from autograder.course.draw_keys import course_secret
from autograder.course.notebook_record import KEY
from autograder.grading.parallel import grade, submission_scores
from autograder.i18n import t
from autograder.plumbing.errors import KitError
from autograder.tools import simulate


def validate(project: Path, ids, workers=None, log=print):
    """A list of failures (empty when every assignment is sound)."""
    if not ids:
        failures = [t("{folder} holds no assignment to validate: write one with `python -m "
                      "autograder new ID` ({guide})", folder=project / "assignments",
                      guide=t(GUIDE))]
    else:
        failures = [line for assignment_id in ids
                    for line in assignment_faults(project, assignment_id, log)]
    if not failures:
        failures = graded_faults(project, ids, workers, log)
    for failure in failures:
        log(t("FAILED: {failure}", failure=failure))
    if not failures:
        log(t("valid: {ids} (solutions full marks, stubs zero)", ids=", ".join(ids)))
    return failures


def assignment_faults(project: Path, assignment_id, log=print):
    """What is wrong with one assignment before anything is graded."""
    log(t("checking {id}: its hidden checks, its build, its public tests ...",
          id=assignment_id))
    try:
        assignment = load_assignment(project, assignment_id)
        faults = step_problems(assignment) + mistake_problems(assignment) + \
            untranslated_texts(assignment, course_language(project))
        source = project / "source" / assignment_id / f"{assignment_id}.ipynb"
        release = project / "release" / assignment_id
        if not source.exists() or not release.exists():
            return faults + [t("{id} is not built (no source/ or release/ folder): run "
                               "`python -m autograder build {id}`", id=assignment_id)]
        if json.loads(nbformat.writes(master_notebook(project, assignment_id))) != json.loads(
                source.read_text(encoding="utf-8")):
            return faults + [t("source/{id}/ is older than assignments/{id}/: run `python -m "
                               "autograder build {id}`, then validate again", id=assignment_id)]
        if faults:
            return faults
        specs = read_assignment(assignment.notebook)
        master = nbformat.read(source, as_version=4)
        return public_test_failures(assignment, specs, master, release,
                                    course_language(project))
    except KitError as error:  # an assignment that cannot be read or rendered
        return [str(error)]


# The scratch course grades solutions and stubs as they are: the course's deadlines (which may
# name assignments the scratch course does not hold) would only add late penalties.
WITHOUT_DEADLINES = "\nc.Deadlines.due_dates = {}\nc.Deadlines.extension_hours = {}\n"


def graded_faults(project: Path, ids, workers, log):
    failures = []
    with tempfile.TemporaryDirectory(prefix="kit-validate-") as scratch:
        course = Course.create(Path(scratch), project, ids)
        with (course.root / CONFIG).open("a", encoding="utf-8") as config:
            config.write(WITHOUT_DEADLINES)
        course_secret(course.root, log=lambda _: None)  # a throwaway course's: nothing to keep
        for assignment_id in ids:
            shutil.copytree(project / "release" / assignment_id,
                            course.root / "release" / assignment_id)
            release = nbformat.read(course.root / "release" / assignment_id /
                                    f"{assignment_id}.ipynb", as_version=4)
            source = nbformat.read(course.root / "source" / assignment_id /
                                   f"{assignment_id}.ipynb", as_version=4)
            course.submit("solutions", assignment_id, simulate.correct(release, source))
            course.submit("stubs", assignment_id, release)
        log(t("grading the solutions and the blank stubs of {ids} in a scratch course of "
              "validate's own (the course's gradebook is not touched; the lines below are that "
              "course's)", ids=t(", ").join(ids)))
        grade(course.root, ids, workers=workers, log=log, resumable=False)  # a scratch course
        for assignment_id in ids:
            failures += judge(course.root, assignment_id)
    return failures


def why_lost(root, assignment_id, cell):
    """What grading found in the solutions' test cell `cell` (its record's findings: a
    property's message, a rule broken), as the student's feedback page would show it."""
    path = root / "autograded" / "solutions" / assignment_id / f"{assignment_id}.ipynb"
    try:
        record = nbformat.read(path, as_version=4).metadata.get(KEY, {})
    except (OSError, ValueError):
        return []
    findings = record.get("findings", []) if isinstance(record, dict) else []
    return [str(found.get("text")) for found in findings
            if isinstance(found, dict) and found.get("cell") == cell and found.get("text")]


def judge(root, assignment_id):
    solved = submission_scores(root, assignment_id, "solutions")
    blank = submission_scores(root, assignment_id, "stubs")
    if solved is None or blank is None:
        return [t("{id}: could not be graded", id=assignment_id)]
    failures = [t("{id}: the solution loses points in {cell} ({score:g}/{most:g})",
                  id=assignment_id, cell=cell, score=s, most=m)
                + "".join(t("; {why}", why=why) for why in why_lost(root, assignment_id, cell))
                for cell, (s, m) in solved.items() if s != m]
    failures += [t("{id}: the blank stub earns points in {cell} ({score:g})",
                   id=assignment_id, cell=cell, score=s)
                 for cell, (s, _) in blank.items() if s]
    return failures
