"""`nbgrader export` as the kit wants it: a row per known student and assignment with its
status (in the course's language, as the report shows it), then a TOTAL row per student, and
a row for each refused file whose student is unknown.

Every student the course knows is there (autograder/outputs/roster.py): one whose file could
not be graded appears with the status "not gradable", the reason and the fix, so an LMS upload
never skips a student in silence.
"""

from __future__ import annotations

from pathlib import Path

from nbgrader.coursedir import CourseDirectory
from nbgrader.plugins import ExportPlugin

from autograder.i18n import config_language, language, t
from autograder.outputs.csv_cells import csv_text, points
from autograder.outputs.roster import roster

# The grade first; then, under nbgrader's own names, when it was due and handed in (UTC) and
# what lateness cost: score = raw_score - late_submission_penalty.
COLUMNS = ["student_id", "assignment", "score", "max_score", "status", "note",
           "duedate", "timestamp", "raw_score", "late_submission_penalty"]


def when(moment):
    return moment.isoformat(" ", "seconds") if moment else ""


def late_columns(late):
    if late is None:
        return ["", "", "", ""]
    return [when(late.due), when(late.timestamp), points(late.raw_score), points(late.penalty)]


def csv_rows(entries):
    """The CSV rows of roster entries: each student's rows, then their TOTAL row; the rows of
    files whose student is unknown come last."""
    rows = []
    students = sorted({e.student for e in entries if e.student})
    for student in students:
        own = [e for e in entries if e.student == student]
        rows += [[e.student, e.assignment, points(e.score or 0), points(e.max_score),
                  t(e.status), e.note, *late_columns(e.late)] for e in own]
        total, most = sum(e.score or 0 for e in own), sum(e.max_score for e in own)
        rows.append([student, "TOTAL", points(total), points(most), "", "", *late_columns(None)])
    rows += [["", e.assignment, "", "", t(e.status), e.note, *late_columns(None)]
             for e in entries if not e.student]
    return rows


class ClassCsvExport(ExportPlugin):
    """CSV with a row per known student and assignment (score, status, note) and a TOTAL row
    per student."""

    def export(self, gradebook):
        destination = Path(self.to or "grades.csv")
        root = Path(CourseDirectory(config=self.config).root)
        with language(config_language(self.config)):  # statuses and notes
            rows = csv_rows(roster(root, gradebook, self.assignment or None))
        # utf-8-sig: the byte-order mark tells Excel the file is UTF-8 (without it, Excel on
        # a Chinese Windows reads a name as GBK, on others as the machine's code page)
        with open(destination, "w", newline="", encoding="utf-8-sig") as handle:
            handle.write(csv_text([COLUMNS, *rows]))  # no cell a spreadsheet runs
        self.log.info("Exported %d rows to %s", len(rows), destination)
