"""What a feedback page adds to nbgrader's styles so that everything on it can be read.

- A hidden check's message is one long line (the step, the case, the shapes it was called
  with, a hint): nbconvert shows outputs in <pre>, which never wraps, so the end of the
  message ran off the page. Every <pre> wraps, between words (bootstrap's break-all cut
  words at the edge), inside a word only where one is wider than the page.
- A markdown table's cells had no padding in nbgrader's template, so the header of the
  steps table read "stepyou writepoints". Cells get padding and rules.
- A heading's anchor (¶) shows only under the pointer, as in Jupyter.
- Formulas are MathML (page_math.py): a displayed one on its own line, none wider than the
  page.
- Bootstrap's style sheet, which nbgrader's feedback template writes into every page, declares
  the Glyphicons font from ../fonts/ files a page alone does not have (no element of a feedback
  page uses it, and the page's policy fetches no font): a font face read from a file is taken
  out, so a page names no file it lacks. The kit's own font is embedded (page_font.py).
"""

from __future__ import annotations

import re

READABLE = """
<style type="text/css">
pre, div.output_area pre, div.output_subarea pre, div.input_area pre {
  white-space: pre-wrap;
  word-break: normal;
  overflow-wrap: anywhere;
}
div.output_subarea, div.output_area, div.inner_cell { min-width: 0; max-width: 100%; }
div.output_subarea { overflow-x: visible; }
.rendered_html table, div.text_cell_render table { border-collapse: collapse; margin: 0.6em 0; }
.rendered_html th, .rendered_html td, div.text_cell_render th, div.text_cell_render td {
  padding: 0.25em 0.8em;
  border-bottom: 1px solid #ddd;
  text-align: left;
  vertical-align: top;
}
.rendered_html th, div.text_cell_render th { border-bottom: 2px solid #999; }
a.anchor-link { visibility: hidden; margin-left: 0.3em; }
:hover > a.anchor-link { visibility: visible; }
math[display="block"] { display: block; margin: 0.6em 0; max-width: 100%; overflow-x: auto; }
</style>
"""
HEAD_END = re.compile(r"</head\s*>", re.IGNORECASE)
FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}")
FROM_FILE = re.compile(r"url\(\s*['\"]?(?!data:)", re.IGNORECASE)  # a url that is no data: url


def without_file_fonts(head: str) -> str:
    """The page's head without the font faces that read a file (any url of theirs not
    data:); the body, the student's text among it, is not read."""
    return FONT_FACE.sub(lambda face: "" if FROM_FILE.search(face[0]) else face[0], head)


def with_style(page: str) -> str:
    """The page with READABLE as its last style (after nbgrader's, so it wins), its head
    without font faces read from files."""
    end = HEAD_END.search(page)
    if end is None:
        return READABLE + page
    return without_file_fonts(page[:end.start()]) + READABLE + page[end.start():]
