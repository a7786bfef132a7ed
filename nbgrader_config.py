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
