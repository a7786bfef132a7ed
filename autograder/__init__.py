"""The course kit: build notebooks from assignments/, check steps, grade with nbgrader."""
