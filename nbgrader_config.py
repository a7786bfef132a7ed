"""nbgrader's settings for this course. nbgrader reads this file from the current directory,
so run nbgrader (and the kit) from the repository root."""

c = get_config()  # noqa: F821 (nbgrader defines get_config)

c.CourseDirectory.course_id = "self-attention"
# The language students and instructors read: notebooks, checks' messages, feedback, report.
# "en" here, the repository's own course; `python -m autograder init DIR --language zh`
# writes a Simplified Chinese course folder with "zh" on this line.
c.Course.language = "en"
# What nbgrader leaves in place of each solution in the student's version, in that language.
STUB_COMMENT = {"en": "# YOUR CODE HERE", "zh": "# 在这里写你的代码"}[c.Course.language]
c.ClearSolutions.code_stub = {"python": STUB_COMMENT + "\nraise NotImplementedError()"}
c.CourseDirectory.db_url = "sqlite:///gradebook.db"
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.release_directory = "release"
c.CourseDirectory.submitted_directory = "submitted"
c.CourseDirectory.autograded_directory = "autograded"
c.CourseDirectory.feedback_directory = "feedback"

# generate_assignment: nbgrader's stages, with the kit's ReleaseChecksums before SaveCells so
# that the gradebook stores the checksum of each cell as students receive it (hidden tests
# removed): autograde then warns about a checksum only when a student edited a locked cell.
c.GenerateAssignment.preprocessors = [
    "nbgrader.preprocessors.IncludeHeaderFooter",
    "nbgrader.preprocessors.InstantiateTests",
    "nbgrader.preprocessors.LockCells",
    "nbgrader.preprocessors.ClearSolutions",
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.CheckCellMetadata",
    "nbgrader.preprocessors.ComputeChecksums",
    "autograder.build.release_checksums.ReleaseChecksums",
    "nbgrader.preprocessors.SaveCells",
    "nbgrader.preprocessors.ClearHiddenTests",
    "nbgrader.preprocessors.ClearMarkScheme",
    "nbgrader.preprocessors.ComputeChecksums",
    "nbgrader.preprocessors.CheckCellMetadata",
]

# Autograde: the submission's graded cells are made the source's again (RestoreTestCells),
# then, in place of nbgrader's Execute, student code runs in a sandboxed kernel and every
# verdict is computed outside it (GradeInSandbox); nbgrader's stages do the rest.
c.Autograde.sanitize_preprocessors = [
    "autograder.grading.restore_test_cells.RestoreTestCells",
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.DeduplicateIds",
    "nbgrader.preprocessors.OverwriteKernelspec",
    "nbgrader.preprocessors.OverwriteCells",
    "nbgrader.preprocessors.CheckCellMetadata",
]
c.Autograde.autograde_preprocessors = [
    "autograder.grading.grade_in_sandbox.GradeInSandbox",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "autograder.grading.deadlines.Deadlines",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]
# 'full' isolation (own user, no network, course files hidden) when grading as root, else
# resource limits only, with a warning. A cell, or one step's checks, may run 10 s; the
# student's cells 60 s in all.
c.GradeInSandbox.isolation = "auto"
c.GradeInSandbox.cell_timeout = 10
c.GradeInSandbox.notebook_timeout = 60
# Sizes a notebook may reach in grading: a larger cell is not run, longer output is cut with a
# note, a larger answer of the kernel (or call of a stand-in) fails its step.
c.GradeInSandbox.max_source_kb = 256
c.GradeInSandbox.max_cell_output_kb = 256
c.GradeInSandbox.max_notebook_output_kb = 2048
c.GradeInSandbox.max_reply_mb = 64

# Deadlines. A submission's time is the exchange's (nbgrader submit) or, for files from an
# LMS, the file name's (a (?P<timestamp>...) group in the pattern below), else the zip entry's
# date (read in c.Exchange.timezone), else the file's modification time. Late means after the
# due date plus the student's extension; each started day late costs 10 % of the score.
# `grade --force` applies a changed date to notebooks already graded.
# c.Deadlines.due_dates = {"01_attention_by_hand": "2026-12-04 23:59:00 Europe/Berlin"}
# c.Deadlines.extension_hours = {"01_attention_by_hand": {"ada": 48}}
c.Exchange.timezone = "UTC"
c.AssignLatePenalties.plugin_class = "autograder.grading.deadlines.PercentPerDay"
c.PercentPerDay.percent_per_day = 10
c.PercentPerDay.grace_minutes = 0

# Kernels nbgrader itself starts (validate, the source notebooks) stop at once when done.
c.ExecutePreprocessor.timeout = 60
c.ExecutePreprocessor.interrupt_on_timeout = True
c.ExecutePreprocessor.shutdown_kernel = "immediate"

# Feedback: nbgrader's pipeline plus the kit's stages that remove hidden tests and their
# tracebacks (the check's message, written for students, stays) and sanitize the HTML of
# markdown the course did not write (no student's script runs in a reader's browser).
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "autograder.outputs.hide_hidden_tests.HideHiddenTests",
    "autograder.outputs.safe_markdown.SanitizeStudentMarkdown",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]

# `nbgrader export`: a row per student and assignment, then a TOTAL row per student.
c.ExportApp.plugin_class = "autograder.outputs.export.ClassCsvExport"

# Collecting from an LMS: a file "<student>_<assignment id>.ipynb" (in a zip or a folder).
# nbgrader matches the pattern against the file's whole path, hence the leading ".*/".
c.FileNameCollectorPlugin.named_regexp = (
    r".*/(?P<student_id>[A-Za-z0-9][A-Za-z0-9.-]*)_(?P<file_id>\d\d_[a-z_]+\.ipynb)$"
)
