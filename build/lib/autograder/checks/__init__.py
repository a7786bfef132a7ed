"""What is checked, with no nbgrader and no kernel in it: the step model, comparing,
recognising mistakes, the documents' values and recipes, one module of steps per assignment;
and what a call of the student's code computes, as data (op_record), with the recorder that
makes that record in this process (recorder), beside the rules on operations it feeds.
Imports i18n and the plumbing's errors and course_root alone: assignments' checks.py import
this room."""
