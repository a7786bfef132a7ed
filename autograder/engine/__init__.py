"""The grading engine, on dask.distributed: the cluster and the task window (cluster.py), what a
task carries (bundle.py), a worker's half of autograde and feedback (worker.py) and nbgrader's
API bound to a worker's copy of a course (nbgrader_api.py)."""
