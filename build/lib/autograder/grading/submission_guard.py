"""What plain `nbgrader autograde` may read of a submission: no link, no special file, no
notebook that the kit's `grade` would refuse.

nbgrader copies a submission into autograded/ before any stage runs, following links, as the
grader's user (root, in the full sandbox): a link to the course's solutions/ would reach the
student's kernel as a regular file, a link to a root-only file would put its text into
autograded/, a named pipe stops the copy with a traceback and a link to /dev/zero never ends.
The kit's `grade` refuses such a submission before nbgrader sees it (grading/submissions.py);
this module gives plain nbgrader the same rule, through two of its extension points that the
course's configuration names (autograder/course/stages.py):

- `c.Autograde.exporter_class = SubmissionExporter`. nbgrader's converter makes its exporter
  once it has listed the submissions and before it copies any, with itself as the parent. The
  exporter then adds every link and special file of those submissions to the converter's
  ignore list (so the copy passes them by: replaced by nothing), leaves out a submission whose
  folder is itself a link or whose timestamp.txt is not a plain file (nbgrader opens that file
  before any stage: it is named in the log as not graded), and reads a notebook only when the
  kit's own inspection (submissions.inspected) has nothing that stops grading. A refused
  notebook is read as the release, and the reason goes to the stages in `resources`.
- `RecordRefusal`, the sanitizing stage after RestoreTestCells, writes that reason into the
  notebook's record (autograder/course/notebook_record.py, key "refused"); GradeInSandbox
  then runs no kernel and fails every test cell with it (refuse_tests), so no point is earned
  and the report and the feedback page say why.
"""

from __future__ import annotations

import glob
import os
import stat
from pathlib import Path

from nbconvert.exporters import NotebookExporter
from nbgrader.preprocessors import NbGraderPreprocessor

from autograder.checks.model import Finding
from autograder.course.notebook_record import KEY, add_findings, set_integrity
from autograder.course.submission_files import Unwalkable, odd_entries
from autograder.grading.restore_test_cells import release_notebook
from autograder.grading.session import error_output, steps_checked
from autograder.grading.submissions import grade_ids, inspected
from autograder.i18n import config_language, language, t

REFUSAL = "kit_refusal"  # the key of resources that carries a refusal to RecordRefusal
TIMESTAMP = "timestamp.txt"  # the one file of a submission nbgrader opens itself


def untouchable(folder):
    """Why nbgrader must not open anything of this submission folder (it would follow a link
    before any stage runs), or None."""
    folder = Path(folder)
    if folder.is_symlink() or folder.parent.is_symlink():
        return t("the submission folder is a symbolic link")
    stamp = folder / TIMESTAMP
    if os.path.lexists(stamp) and not stat.S_ISREG(stamp.lstat().st_mode):
        return t("the submission holds {entry}, a symbolic link or special file", entry=TIMESTAMP)
    return None


def odd_paths(folder):
    """(every link or special file of a submission folder as an absolute path, None), or
    (None, why) when the folder cannot be looked through (too deep, too full)."""
    try:
        return [os.path.join(folder, relative)
                for relative in odd_entries(folder, limit=10_000)], None
    except (Unwalkable, OSError) as error:
        return None, t("the submission folder cannot be looked through: {error}", error=error)


def ignore_patterns(paths):
    """nbgrader's ignore list matches each entry as a glob joined to the folder it walks; an
    absolute, escaped path matches that one file only."""
    return [glob.escape(os.path.abspath(path)) for path in paths]


class SubmissionExporter(NotebookExporter):
    """nbgrader's notebook exporter for autograde, reading a submission as the kit's `grade`
    would accept it (see the module's docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.submissions = set()  # the folders of the submissions this run grades
        converter = self.parent
        if isinstance(getattr(converter, "assignments", None), dict) and \
                getattr(converter, "coursedir", None) is not None:
            with language(config_language(self.config)):
                self.guard(converter)

    def guard(self, converter):
        """Before nbgrader copies anything: leave out what it must not touch, and add every
        link and special file of the rest to its ignore list."""
        patterns = []
        for folder in sorted(converter.assignments):
            odd, why = (None, untouchable(folder))
            if why is None:
                odd, why = odd_paths(folder)
            if why:
                self.log.error("%s", t("not graded: {why}", why=f"{folder}: {why}"))
                del converter.assignments[folder]
                continue
            self.submissions.add(os.path.abspath(folder))
            patterns += ignore_patterns(odd)
        if patterns:
            converter.coursedir.ignore = [*converter.coursedir.ignore, *patterns]

    def from_filename(self, filename, resources=None, **kwargs):
        """The submission's notebook, or the release in its place with the reason of its
        refusal in `resources` (a notebook of autograded/ is read as nbgrader reads it)."""
        folder = os.path.dirname(os.path.abspath(filename))
        if folder not in self.submissions or resources is None or "nbgrader" not in resources:
            return super().from_filename(filename, resources, **kwargs)
        with language(config_language(self.config)):
            release = release_notebook(self.config, resources)
            problem = inspected(Path(filename), resources["nbgrader"]["assignment"],
                                grade_ids(release))
        if problem is None or problem.graded_anyway:
            return super().from_filename(filename, resources, **kwargs)
        self.log.error("%s: %s (%s)", filename, problem.reason, problem.fix)
        resources[REFUSAL] = {"reason": problem.reason, "fix": problem.fix}
        return self.from_notebook_node(release, resources, **kwargs)


class RecordRefusal(NbGraderPreprocessor):
    """Sanitizing stage, after RestoreTestCells (which starts the record): the reason
    SubmissionExporter refused the notebook for goes into the record, where GradeInSandbox
    finds it. Nothing a student writes reaches `resources`."""

    def preprocess(self, nb, resources):
        refusal = resources.get(REFUSAL)
        if refusal:
            nb.metadata[KEY]["refused"] = dict(refusal)
        return nb, resources


def refusal_of(nb):
    """The refusal the record holds ({"reason", "fix"}), or None."""
    refusal = nb.metadata.get(KEY, {}).get("refused")
    return refusal if isinstance(refusal, dict) else None


def refuse_tests(nb, refusal, masters):
    """Every test cell of a refused notebook fails with the reason, each of its steps has it
    as a finding, and the report's integrity section lists it; no kernel starts. `masters`:
    the master source of each test cell by grade id (it names the cell's steps)."""
    text = t("not graded: {why}", why=f"{refusal['reason']} ({refusal['fix']})")
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader")
        if cell.cell_type != "code" or not (isinstance(meta, dict) and meta.get("grade")):
            continue
        cell.outputs = [error_output("NotGraded", text)]
        cell.execution_count = None
        steps = steps_checked(masters.get(meta["grade_id"], "")) or [meta["grade_id"]]
        add_findings(nb, meta["grade_id"], [Finding("error", step, text) for step in steps])
    set_integrity(nb, [{"cell": "", "kind": "refused submission", "reason": refusal["reason"]}])
    return nb

