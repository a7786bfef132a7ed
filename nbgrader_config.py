"""nbgrader's settings for this course. nbgrader reads this file from the current directory,
so run nbgrader (and the kit) from the repository root."""

c = get_config()  # noqa: F821 (nbgrader defines get_config)

c.CourseDirectory.course_id = "self-attention"
c.CourseDirectory.db_url = "sqlite:///gradebook.db"
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.release_directory = "release"
c.CourseDirectory.submitted_directory = "submitted"
c.CourseDirectory.autograded_directory = "autograded"
c.CourseDirectory.feedback_directory = "feedback"

# A notebook's cells may not run longer than this; the kernel is stopped at once afterwards.
c.ExecutePreprocessor.timeout = 60
c.ExecutePreprocessor.interrupt_on_timeout = True
c.ExecutePreprocessor.shutdown_kernel = "immediate"

# Feedback: nbgrader's pipeline plus the kit's stage that removes hidden tests and their
# tracebacks (the check's message, written for students, stays).
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "autograder.preprocessors.HideHiddenTests",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]

# `nbgrader export`: a row per student and assignment, then a TOTAL row per student.
c.ExportApp.plugin_class = "autograder.export.ClassCsvExport"

# Collecting from an LMS: a file "<student>_<assignment id>.ipynb" (in a zip or a folder).
# nbgrader matches the pattern against the file's whole path, hence the leading ".*/".
c.FileNameCollectorPlugin.named_regexp = (
    r".*/(?P<student_id>[A-Za-z0-9][A-Za-z0-9.-]*)_(?P<file_id>\d\d_[a-z_]+\.ipynb)$"
)
