"""run_autograder's Python half: grade the student's upload with the kit's own `grade`, write
Gradescope's results.json.

Gradescope lays out /autograder (the zip in source/, the upload in submission/, results/ for
the answer); KIT_GRADESCOPE_ROOT moves that root elsewhere (the tests lay out a fake one). The
course the zip carries (source/course/: nbgrader_config.py, assignments/, source/ and release/
of the assignment, a gradebook of its master cells) is copied into a scratch folder, the
notebook is put in its submitted/ folder, and `autograder.grading.parallel.grade` grades it as
it grades a class: the same checks, the same sandbox, nbgrader's scores. Whatever happens,
results.json is written: the points, or why the notebook could not be graded. Exit 0 when the
notebook was graded or the student's upload could not be (results.json says why), 1 when the
kit itself failed (results.json says so, the traceback is in the run's output).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, replace
from pathlib import Path

import autograder
from autograder.course.submission_files import Unwalkable, entries_of
from autograder.gradescope.results import (
    VISIBILITIES,
    Graded,
    GradedCell,
    graded_results,
    not_graded_results,
)
from autograder.i18n import DEFAULT, counted, language, t
from autograder.plumbing.errors import KitError
from autograder.plumbing.quiet_imports import paused

ROOT_VARIABLE = "KIT_GRADESCOPE_ROOT"
SETTINGS = "gradescope.json"  # in the zip's course folder: which assignment, what is shown
STUDENT = "gradescope"  # the student's id in the scratch course, when Gradescope names none
METADATA = "submission_metadata.json"  # Gradescope's, beside submission/: who submitted
SKIPPED = {"__MACOSX", ".ipynb_checkpoints"}
MAX_BYTES = 32 * 2**20  # the largest notebook read, as `collect` reads an LMS's


class NotGradable(Exception):
    """The student's upload cannot be graded; the message says why, for the student."""


@dataclass(frozen=True)
class Settings:
    assignment: str
    visibility: str = "visible"


def autograder_root() -> Path:
    return Path(os.environ.get(ROOT_VARIABLE) or "/autograder")


def read_settings(course: Path) -> Settings:
    data = json.loads((course / SETTINGS).read_text(encoding="utf-8"))
    settings = Settings(data["assignment"], data.get("visibility", "visible"))
    if settings.visibility not in VISIBILITIES:
        raise ValueError(f"{SETTINGS}: visibility {settings.visibility!r} is not one of "
                         f"{VISIBILITIES}")
    return settings


def test_cells(course: Path, assignment_id) -> list[GradedCell]:
    """The graded test cells of the assignment's master notebook, with their steps and
    points, in the notebook's order."""
    import nbformat

    from autograder.grading.session import steps_checked

    master = nbformat.read(course / "source" / assignment_id / f"{assignment_id}.ipynb",
                           as_version=4)
    return [GradedCell(meta["grade_id"], tuple(steps_checked(cell.source)),
                     float(meta.get("points", 0)))
            for cell in master.cells
            for meta in [cell.metadata.get("nbgrader", {})] if meta.get("grade")]


def student_of(root: Path) -> str:
    """The student id an upload is graded as, from Gradescope's submission_metadata.json:
    "gs-" and the Gradescope user id (a group's ids, sorted, joined by "-"), so that every
    submission of one student draws the same hidden cases (course/draw_keys.py); "gradescope" when
    the file names nobody (said on the run's output)."""
    try:
        users = json.loads((root / METADATA).read_text(encoding="utf-8"))["users"]
        ids = sorted(str(int(user["id"])) for user in users)
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(t("{file} names no student ({error}): the hidden cases are drawn for the id "
                "{student!r}", file=root / METADATA, error=type(error).__name__,
                student=STUDENT))
        return STUDENT
    return "gs-" + "-".join(ids) if ids else STUDENT


def find_notebook(submission: Path, assignment_id) -> Path:
    """The student's notebook in Gradescope's submission folder: the one named
    <assignment id>.ipynb, else the only notebook there (in a subfolder too). The folder is
    walked within the bounds of every walk over a submission (submission_files)."""
    wanted = f"{assignment_id}.ipynb"
    try:
        entries = [Path(relative) for relative, _ in entries_of(submission)]
    except Unwalkable as error:
        raise NotGradable(t("your upload cannot be looked through: {error}; upload only this "
                            "assignment's notebook, {notebook}, without the folders around it",
                            error=error, notebook=wanted)) from error
    found = sorted(submission / path for path in entries
                   if path.name.endswith(".ipynb") and not SKIPPED & set(path.parts))
    named = [path for path in found if path.name == wanted]
    if len(named) == 1 or len(found) == 1:
        return (named or found)[0]
    if not found:
        raise NotGradable(t("your upload holds no notebook (.ipynb); upload {notebook}, the "
                            "notebook you worked in, as Jupyter saved it", notebook=wanted))
    raise NotGradable(t("your upload holds {count} notebooks, so the grader cannot tell which "
                        "to grade: upload only this assignment's notebook, {notebook}",
                        count=len(found), notebook=wanted))


def notebook_bytes(path: Path) -> bytes:
    """The notebook's bytes, read without following a link and within MAX_BYTES."""
    info = os.lstat(path)
    if not stat.S_ISREG(info.st_mode):
        raise NotGradable(t("{name} is not a regular file (a link or a folder); upload the "
                            "notebook itself", name=path.name))
    if info.st_size > MAX_BYTES:
        raise NotGradable(t("{name} is larger than {mb} MB; clear its outputs (Kernel > "
                            "Restart Kernel and Clear Outputs of All Cells), save it and upload "
                            "it again", name=path.name, mb=MAX_BYTES // 2**20))
    return path.read_bytes()


def message_of(cell) -> str:
    """What a graded test cell of the autograded notebook says: its verdict."""
    lines = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            lines.append(str(output.get("evalue", "")))
        elif output.get("output_type") == "stream":
            lines.append(str(output.get("text", "")).rstrip("\n"))
    return "\n".join(lines)


def findings_by_cell(notebook) -> dict:
    """{grade id: [line, ...]}: every finding the grader recorded, as the student reads them
    (the record's data: autograder/course/notebook_record.py)."""
    from autograder.checks.judge import problem_lines
    from autograder.checks.model import Finding
    from autograder.course.notebook_record import KEY, has_record

    if not has_record(notebook):
        return {}
    grouped = {}
    for data in notebook.metadata[KEY].get("findings", []):
        grouped.setdefault(data.get("cell", ""), []).append(Finding.from_data(data))
    return {cell: problem_lines(findings) for cell, findings in grouped.items()}


def read_graded(course: Path, assignment_id, cells, student) -> Graded:
    """The scores (the gradebook's), verdicts and findings (the autograded notebook's) of the
    graded submission."""
    import nbformat

    from autograder.course.notebook_record import read_record
    from autograder.grading.parallel import submission_scores

    scores = submission_scores(course, assignment_id, student) or {}
    notebook = nbformat.read(course / "autograded" / student / assignment_id /
                             f"{assignment_id}.ipynb", as_version=4)
    graded_cells = {cell.metadata.get("nbgrader", {}).get("grade_id"): cell
                    for cell in notebook.cells}
    findings = findings_by_cell(notebook)
    done = tuple(replace(cell, score=float(scores.get(cell.cell, (0.0,))[0] or 0.0),
                         message=message_of(graded_cells.get(cell.cell, {})),
                         findings=tuple(findings.get(cell.cell, ())))
                 for cell in cells)
    record = read_record(notebook)
    flags = tuple(f"{t(flag.get('kind', ''))}: {flag.get('reason', '')}"
                  for flag in record.integrity)
    return Graded(done, tuple(record.tampering), flags)


def grade_upload(root: Path, course_source: Path, settings: Settings, cells, started) -> dict:
    """Grade the upload in a scratch copy of the zip's course; results.json's object."""
    from autograder.grading.parallel import grade, isolation_line

    assignment_id = settings.assignment
    notebook = find_notebook(root / "submission", assignment_id)
    data = notebook_bytes(notebook)
    with tempfile.TemporaryDirectory(prefix="kit-gradescope-") as scratch:
        course = Path(scratch) / "course"
        shutil.copytree(course_source, course)
        student = student_of(root)
        target = course / "submitted" / student / assignment_id / f"{assignment_id}.ipynb"
        target.parent.mkdir(parents=True)
        target.write_bytes(data)
        print(t("grading {notebook} with the kit in {kit}", notebook=notebook,
                kit=Path(autograder.__file__).parent))
        run = grade(course, [assignment_id], workers=1, log=print)
        if run.isolations:
            print(isolation_line(run.isolations))
        log_file = course / "grade.log"  # goes with the scratch course: shown here instead
        if log_file.exists():
            print(t("grade.log of this run:"))
            print(log_file.read_text(encoding="utf-8", errors="replace").rstrip())
        if run.refused:
            raise NotGradable(t("{reason}; upload the notebook you worked in, {notebook}, as "
                                "Jupyter saved it", reason=run.refused[0].reason,
                                notebook=f"{assignment_id}.ipynb"))
        if run.failed:
            raise NotGradable(t(run.failed[0][1]))
        graded = read_graded(course, assignment_id, cells, student)
    return graded_results(graded, time.monotonic() - started, settings.visibility)


def course_language_of(course: Path) -> str:
    try:
        from autograder.course.config_file import course_language

        return course_language(course)
    except Exception:  # noqa: BLE001 - an unreadable config is reported by grading itself
        return DEFAULT


def write_results(root: Path, results: dict):
    path = root / "results" / "results.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(".results.json.partial")
    partial.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    partial.replace(path)


def results_of(root: Path, started):
    """(results.json's object, exit code) of grading the upload, whatever happens."""
    course = root / "source" / "course"
    cells = []
    try:
        with paused():  # the collector, while dask, nbgrader and the grader are imported
            import autograder.grading.parallel  # noqa: F401 - the first of them, test_cells'
        settings = read_settings(course)
        cells = test_cells(course, settings.assignment)
        return grade_upload(root, course, settings, cells, started), 0
    except NotGradable as error:
        return not_graded_results(cells, str(error), time.monotonic() - started), 0
    except KitError as error:  # the course or this machine cannot grade (no sandbox ...)
        print(t("error: {message}", message=error), file=sys.stderr)
        why = t("the autograder cannot grade on this machine, so your notebook was not graded; "
                "this is not your mistake: tell your instructor, and submit again once it is "
                "fixed")
        return not_graded_results(cells, why, time.monotonic() - started), 1
    except BaseException as error:  # noqa: BLE001 - the kit's own failure: said, then exit 1
        traceback.print_exc()
        why = t("the autograder itself failed ({error}); your instructor can read the details "
                "in its output: tell them, and submit again once it is fixed",
                error=type(error).__name__)
        return not_graded_results(cells, why, time.monotonic() - started), 1


def main() -> int:
    started = time.monotonic()
    from autograder.sandbox import template_start

    # The kernel template shares torch with this process, forked from it before anything of
    # the course is read, where run_autograder started it with nothing of the grader's; else
    # it starts now as a process of its own, importing while this process imports.
    forked = template_start.fork_template() if template_start.may_fork_template() else None
    root = autograder_root()
    from autograder.course.config_file import isolation_setting  # one notebook, graded in process

    template_start.start_early_for(isolation_setting(root / "source" / "course"),
                                   few_kernels=True, forked=forked)
    with language(course_language_of(root / "source" / "course")):
        results, code = results_of(root, started)
        write_results(root, results)
        print(counted(results["score"], "results: {path} ({score:g} point)",
                      "results: {path} ({score:g} points)",
                      path=root / "results" / "results.json", score=results["score"]))
    return code


if __name__ == "__main__":
    from autograder.plumbing.fast_exit import exit_now

    exit_now(main())
