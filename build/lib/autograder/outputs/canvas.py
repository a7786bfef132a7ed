"""Canvas's gradebook import file (Grades > Import) from the sheet (lms_sheet.py).

Canvas's own gradebook export is the shape its import takes back: the columns Student, ID,
SIS User ID, SIS Login ID and Section, then one column per assignment titled "Name (Canvas
assignment id)"; a second row, "Points Possible", gives each assignment's points. Canvas
finds the student of a row by the ID column, its own user id: the gradebook's lms_user_id,
which every student must have (`nbgrader db student add ID --lms-user-id=N`). The SIS columns
and the section are left empty: Canvas needs the columns, not their values, once ID is
there. An assignment column without a Canvas id in its title makes Canvas create a new
assignment of that name (it shows them before it imports); c.CanvasExport.assignment_ids in
nbgrader_config.py maps the kit's ids to the assignments already in Canvas.
"""

from __future__ import annotations

from traitlets import Dict, Int, Unicode, Union
from traitlets.config import Configurable

from autograder.i18n import t
from autograder.outputs.csv_cells import points

NAME = "Canvas"
KEY = "lms_user_id"  # the Person field Canvas matches a row on
IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
POINTS_POSSIBLE = "Points Possible"


class CanvasExport(Configurable):
    """What the kit cannot know of a Canvas course, set in nbgrader_config.py."""

    assignment_ids = Dict(
        key_trait=Unicode(), value_trait=Union([Int(), Unicode()]),
        help="The Canvas assignment each of the kit's assignments goes into: {kit id: Canvas "
             "assignment id}, the number at the end of the assignment's address in Canvas "
             "(.../assignments/4711). An assignment not named here is a new assignment to "
             "Canvas.").tag(config=True)


def missing_key(students):
    """The refusal when students lack the Canvas user id."""
    return t("Canvas finds a student by their Canvas user id, and the gradebook has none for "
             "{students}: add it (`nbgrader db student add ID --lms-user-id=N`, or `nbgrader "
             "db student import students.csv` with an lms_user_id column; N is the number at "
             "the end of the student's page in Canvas, .../users/N), then export again; "
             "nothing was written", students=t(", ").join(students))


def title(assignment, canvas_ids):
    """An assignment's column title: "01_x (4711)" when its Canvas id is known."""
    known = canvas_ids.get(assignment)
    return f"{assignment} ({known})" if known not in (None, "") else assignment


def name(person):
    """The Student column: "Last, First" as Canvas writes it, else the kit's id."""
    return ", ".join(part for part in (person.last_name, person.first_name) if part) or person.id


def rows(sheet, config):
    """The file's rows: the header, Points Possible, a row per student."""
    canvas_ids = CanvasExport(config=config).assignment_ids
    names = [assignment for assignment, _ in sheet.assignments]
    header = IDENTITY + [title(a, canvas_ids) for a in names]
    most = [POINTS_POSSIBLE, "", "", "", ""] + [points(top) for _, top in sheet.assignments]
    return [header, most] + [
        [name(p), p.lms_user_id, "", "", ""] + [sheet.cells[p.id, a] for a in names]
        for p in sheet.people]
