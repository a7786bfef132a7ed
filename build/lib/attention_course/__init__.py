"""The course of the self-attention kit: nine assignments, one folder each (notebook.py,
reference.py, checks.py ...), and the modules they share: documents.py (every value the
source documents print), recipes.py (how each document draws its tensors) and zh.py.

The kit's engine (autograder/) names none of them: it finds them here, as it finds the
assignments of any course made by `python -m autograder init`. The wheel ships this folder as
the package `attention_course`, which `init` copies into a new course.
"""
