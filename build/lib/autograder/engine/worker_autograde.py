"""nbgrader's autograde as a grading worker runs it: in a throwaway copy of the gradebook.

nbgrader's Autograde begins by writing the student and the submission into the gradebook (a
row for every graded cell of every notebook, five gradebook connections, a commit each) and
by scoring 0 there a notebook the student did not hand in. A worker's gradebook is a copy of
the assignment's master cells that is thrown away after the notebook is graded: the client
records the student and the submission in the course's gradebook
(autograder/grading/write_back.py), so in a worker those writes were about a fifth of its
own CPU for rows nobody reads.

WorkerAutograde leaves them out and prepares the rest as nbgrader does: the submission's own
files, then the source's files (but notebooks and what the course excludes from overwriting)
over the student's, then only the notebooks the gradebook knows. An assignment the gradebook
does not know, or no known notebook, fails the grading as it fails nbgrader's. The stages
(the sandbox among them) and the conversions are nbgrader's own, unchanged.
"""

from __future__ import annotations

import copy
import os
import shutil
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.converters import Autograde
from nbgrader.converters.base import BaseConverter, NbGraderException
from nbgrader.utils import capture_log, find_all_files, setenv, temp_attrs

from autograder.course.stages import GRADED_FOLDER
from autograder.engine.master_notebooks import snapshot
from autograder.plumbing import private_api


class WorkerAutograde(Autograde):
    def init_assignment(self, assignment_id, student_id):
        BaseConverter.init_assignment(self, assignment_id, student_id)  # its own files
        known = self.known_notebooks(assignment_id)
        self.copy_source_files(assignment_id, student_id)
        graded = []
        for notebook in self.notebooks:
            if Path(notebook).stem in known:
                graded.append(notebook)
            else:
                self.log.warning("Skipping unknown notebook: %s", notebook)
        self.notebooks = graded
        if not self.notebooks:
            raise self.failure("No notebooks found, did you forget to run 'nbgrader "
                               "generate_assignment'?")

    def known_notebooks(self, assignment_id):
        master = snapshot(self.coursedir.db_url, assignment_id)
        if master is not None:  # this worker's copy, read once (engine/master_notebooks.py)
            return set(master.notebooks)
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gradebook:
            try:
                assignment = gradebook.find_assignment(assignment_id)
            except MissingEntry:
                raise self.failure(f"No assignment with ID '{assignment_id}' exists in the "
                                   "database") from None
            return {notebook.name for notebook in assignment.notebooks}

    def copy_source_files(self, assignment_id, student_id):
        """The source's files, but notebooks and those the course keeps as the student left
        them (c.Autograde.exclude_overwriting), over the student's."""
        source = Path(self.coursedir.format_path(self.coursedir.source_directory, ".",
                                                 assignment_id))
        graded = Path(self._format_dest(assignment_id, student_id))
        kept = {source / name for name in self.exclude_overwriting.get(assignment_id, [])}
        for path in map(Path, find_all_files(str(source), [*self.coursedir.ignore, "*.ipynb"])):
            if path in kept:
                continue
            target = graded / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.unlink(missing_ok=True)  # a link the student left is not written through
            self.log.info("Copying %s -> %s", path, target)
            shutil.copy(path, target)

    def convert_single_notebook(self, notebook_filename):
        """nbgrader's two passes over a notebook, sanitizing then autograding, as one: the
        same stages in the same order, with the same resources, but the notebook is read,
        copied and written once. nbgrader writes the sanitized notebook into autograded/ and
        reads it back for the second pass (a read, two deep copies and a write more, about
        12 ms of a worker's 75 a notebook). The grading stage is told the folder that pass
        would have read it from, where the source's files are (GRADED_FOLDER)."""
        if not private_api.applies("one pass"):
            return super().convert_single_notebook(notebook_filename)
        self.log.info("Sanitizing and autograding %s", notebook_filename)
        self.exporter._preprocessors = []
        for stage in [*self.sanitize_preprocessors, *self.autograde_preprocessors]:
            self.exporter.register_preprocessor(stage)
        resources = self.init_single_notebook_resources(notebook_filename)
        info = resources["nbgrader"]
        info[GRADED_FOLDER] = os.path.abspath(self._format_dest(info["assignment"],
                                                                info["student"]))
        with setenv(NBGRADER_EXECUTION="autograde"):
            output, resources = self.exporter.from_filename(notebook_filename,
                                                            resources=resources)
        self.write_single_notebook(output, resources)

    def failure(self, message):
        self.log.error(message)
        return NbGraderException(message)


def autograde_in_worker(api, assignment_id, student_id, draw_key=""):
    """What nbgrader's NbGraderAPI.autograde(assignment_id, student_id, force=True) answers,
    with WorkerAutograde (which records no student: `create` does not apply), the notebook's
    hidden cases drawn from `draw_key` (GradeInSandbox.draw_key)."""
    config = copy.deepcopy(api.config)  # this notebook's: the draw key is its own
    config.GradeInSandbox.draw_key = draw_key
    with temp_attrs(api.coursedir, assignment_id=assignment_id, student_id=student_id):
        converter = WorkerAutograde(coursedir=api.coursedir, parent=api, config=config)
        converter.force = True
        return capture_log(converter)
