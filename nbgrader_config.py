"""nbgrader's settings for this course, read by nbgrader and the kit from the current folder:
run both from here. The kit's stages come first (kit_stages, imported below); the values below
are the course's own. Every trait the kit adds is listed, with its type, default and help, by
`python -m autograder guide settings`."""

from autograder.course.stages import kit_stages

c = get_config()  # noqa: F821 (nbgrader defines get_config)
c.merge(kit_stages())

c.CourseDirectory.course_id = "self-attention"
# The gradebook: SQLite in this folder, or a PostgreSQL server every grader reaches
# ("postgresql+psycopg2://user:password@host:5432/gradebook").
c.CourseDirectory.db_url = "sqlite:///gradebook.db"

# The language students and instructors read: notebooks, checks' messages, feedback, report:
# "en" (English) or "zh" (Simplified Chinese). A change takes effect at the next build.
c.Course.language = "en"
# What nbgrader leaves in place of each solution in the student's version, in that language.
STUB_COMMENT = {"en": "# YOUR CODE HERE", "zh": "# 在这里写你的代码"}[c.Course.language]
c.ClearSolutions.code_stub = {"python": STUB_COMMENT + "\nraise NotImplementedError()"}

# The sandbox: "full" (no network, course and home files out of reach, nothing outlives a
# notebook), built as root, as an ordinary user with user namespaces, or with Landlock; where
# none can be had, grading refuses and says why. "limits" (resource limits only: student code
# runs as you, can read your files and use the network) only knowingly. A cell, or one
# step's checks, may run 10 s; the student's cells 60 s in all.
c.GradeInSandbox.isolation = "full"
c.GradeInSandbox.cell_timeout = 10
c.GradeInSandbox.notebook_timeout = 60
# Sizes a notebook may reach in grading: a larger cell is not run, longer output is cut with a
# note, a larger answer of the kernel (or call of a stand-in) comes in parts, and fails its step
# only beyond 16 times max_reply_mb.
c.GradeInSandbox.max_source_kb = 256
c.GradeInSandbox.max_cell_output_kb = 256
c.GradeInSandbox.max_notebook_output_kb = 2048
c.GradeInSandbox.max_reply_mb = 4
# The release's cells that only show or measure (a plot, a printed example), left as released,
# are not run in grading: no check reads them, and the feedback page says so under each. True
# runs them, so that the page shows what they draw, at more CPU a notebook.
c.GradeInSandbox.run_unread_cells = False

# Where grade and feedback run: an embedded dask cluster of this machine's cores (--workers N,
# each worker process at most worker_memory_mb), or a running dask cluster whose workers need
# no course folder (`python -m autograder guide clusters`; also --scheduler).
# c.Cluster.scheduler = "tcp://10.0.0.5:8786"
c.Cluster.worker_memory_mb = 4096

# Feedback on submit: while `python -m autograder serve` runs, each submission of these
# assignments is graded as it lands in the exchange and its feedback released at once (the
# student runs nbgrader fetch_feedback); per_day graded submissions per student, assignment and
# day at most, later ones stay in the exchange for your own collect and grade (0: no limit).
# c.FeedbackOnSubmit.assignments = ["01_attention_by_hand"]
c.FeedbackOnSubmit.per_day = 5

# Deadlines. A submission's time is the exchange's (nbgrader submit) or, for files from an
# LMS, the file name's (a (?P<timestamp>...) group in the pattern below), else the zip entry's
# date (read in c.Exchange.timezone), else the file's modification time. Late means after the
# due date plus the student's extension; each started day late costs 10 % of the score.
# `grade --force` applies a changed date to notebooks already graded.
# c.Deadlines.due_dates = {"01_attention_by_hand": "2026-12-04 23:59:00 Europe/Berlin"}
# c.Deadlines.extension_hours = {"01_attention_by_hand": {"ada": 48}}
c.Exchange.timezone = "UTC"
c.PercentPerDay.percent_per_day = 10
c.PercentPerDay.grace_minutes = 0

# Collecting from an LMS: a file "<student>_<assignment id>.ipynb" (in a zip or a folder).
# nbgrader matches the pattern against the file's whole path, hence the leading ".*/".
c.FileNameCollectorPlugin.named_regexp = (
    r".*/(?P<student_id>[A-Za-z0-9][A-Za-z0-9.-]*)_(?P<file_id>\d\d_[a-z0-9_]+\.ipynb)$"
)
