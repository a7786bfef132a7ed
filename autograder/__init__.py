"""The course kit: build notebooks from assignments/, check steps, grade with nbgrader."""

from autograder import deferred_imports

deferred_imports.defer()  # before anything imports nbformat (and so jsonschema)
