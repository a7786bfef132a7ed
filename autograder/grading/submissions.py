"""Find the submissions of a course and refuse bad ones with a one-line reason and fix, in the
course's language (the caller sets it: autograder/grading/parallel.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

import nbformat

from autograder.course.deadlines import handed_in_at
from autograder.course.ids import STUDENT_ID
from autograder.course.ledger import Problem, chosen
from autograder.course.submission_files import (
    CELL_CODE_BYTES,
    CODE_CHARACTERS,
    NOTEBOOK_BYTES,
    Unwalkable,
    holds_links,
    linked_folder,
    read_notebook,
)
from autograder.i18n import t


@dataclass(frozen=True)
class Submission:
    student: str
    assignment: str
    notebook: Path


def grade_ids(notebook):
    """The grade ids of the graded cells (cells whose nbgrader metadata is not a dict, or
    whose id is not a string, are not graded cells: RestoreTestCells makes them plain code)."""
    ids = []
    for cell in notebook.cells:
        meta = cell.metadata.get("nbgrader")
        if isinstance(meta, dict) and meta.get("grade") and isinstance(meta.get("grade_id"), str):
            ids.append(meta["grade_id"])
    return ids


ASSIGNMENT_NOTEBOOK = re.compile(r"^\d\d_\w+\.ipynb$")


def missing_notebook(path, assignment_id):
    """The Problem of a submission folder without the assignment's notebook, with the fix
    that fits what the folder holds."""
    found = sorted(p.name for p in path.parent.glob("*.ipynb"))
    others = [name for name in found if ASSIGNMENT_NOTEBOOK.match(name)]
    if others:
        fix = t("the folder holds {other}, another assignment's notebook: ask the student to "
                "hand in their {notebook}", other=others[0], notebook=path.name)
    elif found:
        fix = t("if {found} is the student's work on {assignment}, rename it {notebook}",
                found=found[0], assignment=assignment_id, notebook=path.name)
    else:
        fix = t("put the student's notebook there as {notebook}", notebook=path.name)
    return Problem(path, t("no notebook of that name"), fix)


WRITTEN_TIME = "2026-12-03 14:00:00.000000 UTC"  # how nbgrader writes a timestamp.txt


def unreadable_time(stamp):
    """The Problem of a timestamp.txt whose text is no time (nbgrader's reader would fail, and
    no late penalty could be told), else None; an empty one is nbgrader's "no time"."""
    if not stamp.is_file():
        return None
    text = stamp.read_text(encoding="utf-8", errors="replace").strip()
    if not text or handed_in_at(text) is not None:
        return None
    return Problem(stamp, t("it gives no time the kit can read: {found!r}",
                            found=text if len(text) <= 40 else text[:37] + "..."),
                   t("write the time the student handed in, as nbgrader writes it ({example}), "
                     "or empty the file if no one knows it, then run grade again",
                     example=WRITTEN_TIME))


def inspect_submission(path, assignment_id, expected_tests):
    """None when the notebook can be graded, else the Problem."""
    try:
        links = holds_links(path.parent)
    except (Unwalkable, OSError) as error:
        return Problem(path.parent, t("the submission folder cannot be looked through: "
                                      "{error}", error=error),
                       t("keep the notebook and remove the rest of the folder, then run grade "
                         "again"))
    if links:
        # nbgrader copies a submission's files following links, as the grader's user: a link
        # to a file only that user can read would come back in the student's feedback.
        return Problem(path, links, t("the kit never follows links in a submission: replace "
                                      "it by the file itself, or remove it, then run grade "
                                      "again"))
    if not path.exists():
        return missing_notebook(path, assignment_id)
    timeless = unreadable_time(path.parent / "timestamp.txt")
    if timeless is not None:
        return timeless
    size = path.stat().st_size
    if size > NOTEBOOK_BYTES:
        return Problem(path, t("the notebook is {size:.1f} MB, more than the {limit} MB the kit "
                               "reads", size=size / 2**20, limit=NOTEBOOK_BYTES // 2**20),
                       t("ask the student to clear the notebook's outputs (Kernel > Restart "
                         "and Clear Outputs), save it and hand it in again"))
    notebook, problem = read_notebook(path, lambda: nbformat.read(path, as_version=4))
    if problem is not None:
        return problem
    code = sum(len(cell.source) for cell in notebook.cells  # a larger cell is not run
               if cell.cell_type == "code" and len(cell.source) <= CELL_CODE_BYTES)
    if code > CODE_CHARACTERS:
        return Problem(path, t("its code cells hold {count:,} characters, more than the "
                               "{limit:,} the kit judges (a notebook of the course holds some "
                               "50,000)", count=code, limit=CODE_CHARACTERS),
                       t("ask the student to remove the generated or pasted code, save the "
                         "notebook and hand it in again"))
    present = grade_ids(notebook)
    missing = [t for t in expected_tests if t not in present]
    doubled = sorted({t for t in present if present.count(t) > 1})
    unknown = [t for t in present if t not in expected_tests]
    if unknown and len(missing) == len(expected_tests):
        return Problem(path, t("this is not the notebook of {assignment} (its test cells are "
                               "{cells})", assignment=assignment_id, cells=", ".join(unknown)),
                       t("ask the student to hand in their {assignment}.ipynb",
                         assignment=assignment_id))
    if missing or doubled or unknown:
        parts = ([t("test cells deleted or renamed: {cells}", cells=", ".join(missing))]
                 if missing else []) + \
                ([t("test cells duplicated: {cells}", cells=", ".join(doubled))]
                 if doubled else []) + \
                ([t("unknown test cells: {cells}", cells=", ".join(unknown))] if unknown else [])
        return Problem(path, t("; ").join(parts),
                       t("graded anyway (nbgrader restores test cells by id); if points are "
                         "missing, ask for the code in a fresh copy of the release notebook"),
                       graded_anyway=True)
    return None


def inspected(path, assignment_id, expected_tests):
    """inspect_submission, with any error it meets a Problem of this submission alone."""
    try:
        return inspect_submission(path, assignment_id, expected_tests)
    except Exception as error:  # noqa: BLE001 - one submission never stops the class
        return Problem(path, t("the submission cannot be inspected ({error})",
                               error=f"{type(error).__name__}: {error}"),
                       t("look at the submission folder, fix or remove what is odd in it, "
                         "then run grade again"))


def find_submissions(root: Path, assignment_ids, expected_tests, students=()):
    """(submissions ready to grade, problems), over submitted/<student>/<assignment>/, of the
    given students (ids or globs, ledger.chosen; all when none given): a regrade of one student
    reads one notebook, not the class's."""
    ready, problems = [], []
    submitted = root / "submitted"
    folders = sorted(p for p in submitted.iterdir()
                     if p.is_dir() and chosen(p.name, students)) if submitted.exists() else []
    for folder in folders:
        if not STUDENT_ID.match(folder.name):
            problems.append(Problem(folder, t("the folder name is not a valid student id"),
                                    t("rename the folder to the student's id (letters, "
                                      "digits, '.', '_' or '-' only)"), student=folder.name))
            continue
        for assignment_id in assignment_ids:
            if not (folder / assignment_id).is_dir():
                continue
            path = folder / assignment_id / f"{assignment_id}.ipynb"
            linked = linked_folder(path.parent)
            if linked:
                problem = Problem(path.parent, linked, t(
                    "the kit never follows links in a submission: put the student's files "
                    "there instead"))
            else:
                problem = inspected(path, assignment_id, expected_tests[assignment_id])
            if problem:
                problems.append(replace(problem, student=folder.name, assignment=assignment_id))
            if problem is None or problem.graded_anyway:
                ready.append(Submission(folder.name, assignment_id, path))
    return ready, problems
