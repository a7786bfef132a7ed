"""Tools on top of the pipeline: validate an assignment, simulate a class, the demo."""
