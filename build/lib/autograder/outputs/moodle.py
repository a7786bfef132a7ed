"""Moodle's CSV grade import file (Grades > Import > CSV file) from the sheet (lms_sheet.py).

Moodle's import takes any header: in its preview the instructor maps one column to a user
field and each other column to a grade item. The kit writes First name, Last name and Email
address, then one column per assignment titled by its id, points with a full stop for the
decimal point (Moodle reads it in every language). The column to map is "Email address", to
the user field email: every student needs one in the gradebook (`nbgrader db student add ID
--email=...`), the address their Moodle account has, and no two students the same. Each
assignment column maps to its grade item, whose maximum grade must be at least the
assignment's points.
"""

from __future__ import annotations

from autograder.i18n import t

NAME = "Moodle"
KEY = "email"  # the Person field the instructor maps to Moodle's user field
IDENTITY = ["First name", "Last name", "Email address"]


def missing_key(students):
    """The refusal when students lack an email address."""
    return t("Moodle's import finds a student by their email address, and the gradebook has "
             "none for {students}: add the address of their Moodle account (`nbgrader db "
             "student add ID --email=ADDRESS`, or `nbgrader db student import students.csv` "
             "with an email column), then export again; nothing was written",
             students=t(", ").join(students))


def rows(sheet, config):
    """The file's rows: the header, then a row per student."""
    names = [assignment for assignment, _ in sheet.assignments]
    return [IDENTITY + names] + [
        [p.first_name, p.last_name, p.email] + [sheet.cells[p.id, a] for a in names]
        for p in sheet.people]
