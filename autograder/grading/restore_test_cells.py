"""Autograde's first sanitizing stage: the submission's graded cells become the release's."""

from __future__ import annotations

import copy
import functools
from pathlib import Path

import nbformat
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import NbGraderPreprocessor

from autograder.course.earlier_releases import earlier_cells, released_before
from autograder.course.notebook_record import start_record
from autograder.i18n import config_language, language, t


class RestoreTestCells(NbGraderPreprocessor):
    """First of autograde's sanitizing stages: make the submission's graded structure the
    release's again, whatever the student did to it, so that each step gets its true score.

    - a cell whose nbgrader id the release does not have (forged or renamed) becomes plain
      student code;
    - a second cell with an id already seen loses its nbgrader metadata;
    - a cell whose type or nbgrader metadata (points ...) was changed gets the release's back;
    - a locked cell (a test, the course's helpers) that was edited gets the release's source
      back, so that its checksum is the gradebook's (autograder/course/release_checksums.py)
      and nbgrader's OverwriteCells has nothing to warn about;
    - a test cell that was deleted (or renamed) is put back at the end of the notebook.
    What was changed starts the grader's record (autograder/course/notebook_record.py), for
    the report, in the course's language.
    """

    def preprocess(self, nb, resources):
        with language(config_language(self.config)):
            return self.restore(nb, resources)

    def restore(self, nb, resources):
        source = release_notebook(self.config, resources)
        known = {c.metadata["nbgrader"]["grade_id"]: c for c in source.cells
                 if "nbgrader" in c.metadata}
        earlier = earlier_cells(Path(CourseDirectory(config=self.config).root),
                                resources["nbgrader"]["assignment"])
        seen, changes = set(), []
        for index, cell in enumerate(nb.cells):
            meta = cell.metadata.get("nbgrader")
            if meta is None:
                continue
            grade_id = meta.get("grade_id") if isinstance(meta, dict) else None
            second = isinstance(grade_id, str) and grade_id in seen
            if second or not isinstance(grade_id, str) or grade_id not in known:
                del cell.metadata["nbgrader"]
                where = dict(grade_id=repr(grade_id)[:60], number=index + 1)
                changes.append(t("a second copy of cell {grade_id} (cell {number}): graded as "
                                 "student code", **where) if second else
                               t("nbgrader metadata forged on cell {grade_id} (cell {number}): "
                                 "graded as student code", **where))
                continue
            seen.add(grade_id)
            original = known[grade_id]
            # what an earlier release had is restored all the same, and not counted
            if cell.cell_type != original.cell_type:
                if not released_before(earlier, grade_id, "types", cell.cell_type):
                    changes.append(t("cell {grade_id} retyped to {cell_type}: restored",
                                     grade_id=repr(grade_id), cell_type=cell.cell_type))
                restore_type(cell, original.cell_type)
            if dict(meta) != dict(original.metadata["nbgrader"]):
                points = meta.get("points")
                if points != original.metadata["nbgrader"].get("points") and \
                        not released_before(earlier, grade_id, "points", points):
                    changes.append(t("points of {grade_id} changed: restored",
                                     grade_id=repr(grade_id)))
                cell.metadata["nbgrader"] = copy.deepcopy(original.metadata["nbgrader"])
            if original.metadata["nbgrader"].get("locked") and cell.source != original.source:
                if not released_before(earlier, grade_id, "sources", cell.source):
                    changes.append(t("locked cell {grade_id} edited: restored",
                                     grade_id=repr(grade_id)))
                cell.source = original.source
        for grade_id, original in known.items():
            if grade_id not in seen and original.metadata["nbgrader"].get("grade"):
                if not earlier or grade_id in earlier:  # else: new since a release before
                    changes.append(t("test cell {grade_id} deleted or renamed: restored at "
                                     "the end", grade_id=repr(grade_id)))
                nb.cells.append(fresh_copy(original))
        start_record(nb, changes)
        return nb, resources


def release_notebook(config, resources):
    """The notebook as students received it: its graded cells are what a submission must
    have (the hidden part of a test cell stays in the gradebook). Read once per version of
    the file and shared by the stages of every notebook a process grades (three read it per
    notebook): read it, copy what you keep, never change it."""
    info = resources["nbgrader"]
    coursedir = CourseDirectory(config=config)
    folder = coursedir.format_path(coursedir.release_directory, ".", info["assignment"])
    path = Path(folder) / f"{info['notebook']}.ipynb"
    stat = path.stat()
    return read_release(str(path), stat.st_ino, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=8)
def read_release(path, inode, modified, size):
    return nbformat.read(path, as_version=4)


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
