"""What comes in and goes out around grading: collect, feedback pages, the CSV export and
the class report. They read the gradebook and the grader's record (autograder/record.py),
never the text of a message."""
