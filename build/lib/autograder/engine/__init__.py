"""The grading engine, on dask.distributed: the cluster and the task window (cluster.py), what a
task carries (bundle.py), a worker's half of autograde and feedback (worker.py), nbgrader's
API bound to a worker's copy of a course (nbgrader_api.py) and the progress bar of a batch
(progress.py). Imports checks, course, sandbox, i18n and plumbing."""
