"""The kit's stages in nbgrader's pipelines, and the settings they rely on: what every course's
nbgrader_config.py takes first (`c.merge(kit_stages())`), so that a course's file holds only
its own values and a newer kit brings its stages to every course at once.

Light on purpose: nbgrader imports the config of every command, `--help` included.
"""

from __future__ import annotations

from traitlets.config import Config

# generate_assignment: nbgrader's stages, with the kit's ReleaseChecksums before SaveCells so
# that the gradebook stores the checksum of each cell as students receive it (hidden tests
# removed): autograde then warns about a checksum only when a student edited a locked cell.
GENERATE = [
    "nbgrader.preprocessors.IncludeHeaderFooter",
    "nbgrader.preprocessors.InstantiateTests",
    "nbgrader.preprocessors.LockCells",
    "nbgrader.preprocessors.ClearSolutions",
    "nbgrader.preprocessors.ClearOutput",
    "autograder.course.cell_metadata.CheckCellMetadata",
    "nbgrader.preprocessors.ComputeChecksums",
    "autograder.course.release_checksums.ReleaseChecksums",
    "nbgrader.preprocessors.SaveCells",
    "nbgrader.preprocessors.ClearHiddenTests",
    "nbgrader.preprocessors.ClearMarkScheme",
    "nbgrader.preprocessors.ComputeChecksums",
    "autograder.course.cell_metadata.CheckCellMetadata",
]

# Autograde: the submission's graded cells are made the source's again (RestoreTestCells),
# then, in place of nbgrader's Execute, student code runs in a sandboxed kernel and every
# verdict is computed outside it (GradeInSandbox); nbgrader's stages do the rest, with the
# due dates and extensions of the config written into the gradebook just before nbgrader
# assigns late penalties (Deadlines). nbgrader's OverwriteKernelspec and OverwriteCells ask a
# grading worker's snapshot of its gradebook copy, read once (engine/master_notebooks.py).
SANITIZE = [
    "autograder.grading.restore_test_cells.RestoreTestCells",
    "autograder.grading.submission_guard.RecordRefusal",
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.DeduplicateIds",
    "autograder.engine.master_notebooks.OverwriteKernelspec",
    "autograder.engine.master_notebooks.OverwriteCells",
    "autograder.course.cell_metadata.CheckCellMetadata",
]
# The stages that write the gradebook: the client runs them on the notebook a grading worker
# sent back, against the course's gradebook (autograder/grading/write_back.py); the worker,
# whose gradebook is a throwaway copy, skips them. Plain nbgrader runs them in place.
RECORD = [
    "nbgrader.preprocessors.SaveAutoGrades",
    "autograder.course.deadlines.Deadlines",
    "nbgrader.preprocessors.AssignLatePenalties",
]
# resources["nbgrader"][GRADED_FOLDER]: the folder GradeInSandbox grades a notebook in (its
# autograded/ folder, with the source's files) when the converter read the notebook from
# elsewhere (a grading worker's single pass, engine/worker_autograde.py); without it, the
# folder the notebook was read from (plain nbgrader's second pass reads it in autograded/).
GRADED_FOLDER = "graded_folder"
AUTOGRADE = [
    "autograder.grading.grade_in_sandbox.GradeInSandbox",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    *RECORD,
    "autograder.course.cell_metadata.CheckCellMetadata",
]

# Feedback: nbgrader's pipeline plus the kit's stages that remove hidden tests and their
# tracebacks (the check's message, written for students, stays) and sanitize the HTML of
# markdown the course did not write (no student's script runs in a reader's browser).
FEEDBACK = [
    "nbgrader.preprocessors.GetGrades",
    "autograder.outputs.hide_hidden_tests.HideHiddenTests",
    "autograder.outputs.safe_markdown.SanitizeStudentMarkdown",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]


def stage_names(stages):
    """The dotted names of a pipeline's stages (a config may list names or classes)."""
    return [s if isinstance(s, str) else f"{s.__module__}.{s.__name__}" for s in stages]


def kit_stages() -> Config:
    """The kit's part of a course's configuration: nbgrader's pipelines with the kit's stages,
    the late-penalty plugin, and how nbgrader's own kernels stop."""
    c = Config()
    c.GenerateAssignment.preprocessors = list(GENERATE)
    c.Autograde.sanitize_preprocessors = list(SANITIZE)
    c.Autograde.autograde_preprocessors = list(AUTOGRADE)
    # No link or special file of a submission is followed, no notebook the kit's grade refuses
    # is graded (autograder/grading/submission_guard.py).
    c.Autograde.exporter_class = "autograder.grading.submission_guard.SubmissionExporter"
    c.GenerateFeedback.preprocessors = list(FEEDBACK)
    c.GenerateFeedback.exporter_class = "autograder.outputs.safe_page.SafeHTMLExporter"
    # nbconvert checks the notebook against nbformat's schema once, after the last stage,
    # not after each of the dozen (a tenth of a grading worker's own CPU went there).
    c.Exporter.optimistic_validation = True
    c.AssignLatePenalties.plugin_class = "autograder.course.deadlines.PercentPerDay"
    # `nbgrader export` stays nbgrader's (scripts read its columns); `python -m autograder
    # export` asks it for the kit's CSV (outputs/feedback.py, export_grades).
    # `nbgrader collect` leaves a folder of inbound/ that its student did not make (a
    # classmate's forgery), where nbgrader's own only warns (serve/owned_collect.py).
    c.ExchangeFactory.collect = "autograder.serve.owned_collect.OwnedCollect"
    # `nbgrader zip_collect`: an LMS zip is read within bounds, its archives never opened.
    c.ZipCollectApp.extractor_plugin = "autograder.outputs.inbox.InboxExtractor"
    # Kernels nbgrader itself starts (validate, the source notebooks) stop at once when done.
    c.ExecutePreprocessor.timeout = 60
    c.ExecutePreprocessor.interrupt_on_timeout = True
    c.ExecutePreprocessor.shutdown_kernel = "immediate"
    return c
