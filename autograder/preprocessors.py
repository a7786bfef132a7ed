"""nbgrader preprocessors the kit adds to nbgrader's own pipelines (see nbgrader_config.py)."""

from __future__ import annotations

import copy
import os
import re
from pathlib import Path

import nbformat
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Float, Integer, Unicode

import solutions
from autograder.integrity import scan
from autograder.sandbox.kernel import Limits, Settings
from autograder.sandbox.session import Session, steps_checked

HIDDEN = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS.*?^[ \t]*### END HIDDEN TESTS[ \t]*\n?",
                    re.MULTILINE | re.DOTALL)


def without_hidden_tests(source):
    """A test cell's source with every hidden region cut out."""
    return HIDDEN.sub("", source).strip("\n")


def short_error(output):
    """An error output reduced to its last line, 'AssertionError: message': the traceback
    would show the lines of hidden tests that raised it."""
    return {**output, "traceback": [f"{output['ename']}: {output['evalue']}"]}


class HideHiddenTests(NbGraderPreprocessor):
    """For feedback: remove hidden tests from graded cells, and tracebacks from their errors.

    nbgrader's own feedback shows a test cell as the autograder ran it, hidden tests included
    (nbgrader issues #917 and #1363). The message of a failed hidden check stays: the kit's
    checks write it for students, naming the step and any known mistake, never a value.
    """

    def preprocess_cell(self, cell, resources, index):
        grade = cell.metadata.get("nbgrader", {}).get("grade", False)
        if cell.cell_type == "code" and grade:
            cell.source = without_hidden_tests(cell.source)
            cell.outputs = [
                short_error(o) if o.get("output_type") == "error" else o for o in cell.outputs
            ]
        return cell, resources


class RestoreTestCells(NbGraderPreprocessor):
    """First of autograde's sanitizing stages: make the submission's graded structure the
    release's again, whatever the student did to it, so that each step gets its true score.

    - a cell whose nbgrader id the release does not have (forged or renamed) becomes plain
      student code;
    - a second cell with an id already seen loses its nbgrader metadata;
    - a cell whose type or nbgrader metadata (points ...) was changed gets the release's back;
    - a test cell that was deleted (or renamed) is put back at the end of the notebook.
    What was changed is kept in the notebook's metadata for the integrity report.
    """

    def preprocess(self, nb, resources):
        source = release_notebook(self.config, resources)
        known = {c.metadata["nbgrader"]["grade_id"]: c for c in source.cells
                 if "nbgrader" in c.metadata}
        seen, changes = set(), []
        for index, cell in enumerate(nb.cells):
            meta = cell.metadata.get("nbgrader")
            if meta is None:
                continue
            grade_id = meta.get("grade_id")
            if grade_id not in known or grade_id in seen:
                del cell.metadata["nbgrader"]
                why = "a second copy of" if grade_id in seen else "nbgrader metadata forged on"
                changes.append(f"{why} cell {grade_id!r} (cell {index + 1}): graded as "
                               "student code")
                continue
            seen.add(grade_id)
            original = known[grade_id]
            if cell.cell_type != original.cell_type:
                changes.append(f"cell {grade_id!r} retyped to {cell.cell_type}: restored")
                restore_type(cell, original.cell_type)
            if dict(meta) != dict(original.metadata["nbgrader"]):
                if meta.get("points") != original.metadata["nbgrader"].get("points"):
                    changes.append(f"points of {grade_id!r} changed: restored")
                cell.metadata["nbgrader"] = copy.deepcopy(original.metadata["nbgrader"])
        for grade_id, original in known.items():
            if grade_id not in seen and original.metadata["nbgrader"].get("grade"):
                changes.append(f"test cell {grade_id!r} deleted or renamed: restored at the end")
                nb.cells.append(fresh_copy(original))
        kit_metadata(nb)["tampering"] = changes
        return nb, resources


def kit_metadata(nb):
    return nb.metadata.setdefault("kit", {})


def release_notebook(config, resources):
    """The notebook as students received it: its graded cells are what a submission must
    have (nbgrader then restores their source from the gradebook)."""
    info = resources["nbgrader"]
    coursedir = CourseDirectory(config=config)
    folder = coursedir.format_path(coursedir.release_directory, ".", info["assignment"])
    return nbformat.read(Path(folder) / f"{info['notebook']}.ipynb", as_version=4)


def restore_type(cell, cell_type):
    cell.cell_type = cell_type
    if cell_type == "code":
        cell.setdefault("outputs", [])
        cell.setdefault("execution_count", None)
    else:
        cell.pop("outputs", None)
        cell.pop("execution_count", None)


def fresh_copy(cell):
    copied = copy.deepcopy(cell)
    copied.pop("id", None)
    if copied.cell_type == "code":
        copied.outputs, copied.execution_count = [], None
    return copied


def kit_folders():
    """Where the grader's code and the reference package are (the repository, or
    site-packages): a student's kernel must not see them."""
    packages = [Path(solutions.__file__).resolve().parent, Path(__file__).resolve().parent]
    return sorted({str(p) for p in packages} | {str(p.parent) for p in packages
                                                if (p.parent / "pyproject.toml").exists()})


class GradeInSandbox(NbGraderPreprocessor):
    """Autograde's execution stage, in place of nbgrader's Execute: student code runs in a
    sandboxed kernel, and every verdict is computed here (see autograder/sandbox/session.py).
    nbgrader's SaveAutoGrades then scores each test cell by the output written here."""

    isolation = Unicode("auto", help="'full' (separate user, no network, hidden files; needs "
                        "root), 'limits' (resource limits only) or 'auto' (full when root)"
                        ).tag(config=True)
    notebook_timeout = Float(60.0, help="seconds one notebook may take in all").tag(config=True)
    cell_timeout = Float(10.0, help="seconds one cell or one check may run").tag(config=True)
    sandbox_uid = Integer(61000, help="the first sandbox user id; each grading process "
                          "takes the next free one").tag(config=True)
    memory_limit_mb = Integer(6144).tag(config=True)
    cpu_limit_seconds = Integer(120).tag(config=True)
    file_limit_mb = Integer(64).tag(config=True)
    process_limit = Integer(128).tag(config=True)

    def settings(self):
        limits = Limits(cpu_seconds=self.cpu_limit_seconds,
                        memory_bytes=self.memory_limit_mb << 20,
                        file_bytes=self.file_limit_mb << 20, processes=self.process_limit)
        root = CourseDirectory(config=self.config).root
        return Settings(isolation=self.isolation, uid=self.sandbox_uid, limits=limits,
                        hidden=(root, os.getcwd(), *kit_folders()))

    def preprocess(self, nb, resources):
        folder = resources.get("metadata", {}).get("path") or "."
        with Session(folder, self.settings(), self.notebook_timeout,
                     self.cell_timeout) as session:
            for cell in nb.cells:
                if cell.cell_type != "code":
                    continue
                if cell.metadata.get("nbgrader", {}).get("grade"):
                    names = steps_checked(cell.source)
                    cell.outputs = session.test_cell_outputs(names)
                    cell.execution_count = None
                else:
                    cell.outputs, cell.execution_count = session.run_cell(cell.source)
        kit_metadata(nb)["integrity"] = scan(nb) + [
            {"cell": cell, "kind": "forbidden shortcut", "reason": reason}
            for cell, reason in session.rule_breaks]
        return nb, resources
