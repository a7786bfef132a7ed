"""What comes in and goes out around grading: collect, feedback pages, the CSV export and
the class report. They read the gradebook and the grader's record
(autograder/course/notebook_record.py), never the text of a message.

Imports engine, checks, course, i18n and plumbing; never grading.
"""
