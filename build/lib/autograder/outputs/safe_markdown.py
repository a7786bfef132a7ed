"""Feedback's stage: a student's markdown reaches the page as text and harmless markup only.

nbgrader's feedback template renders markdown cells as they are, raw HTML included, so a
`<script>` or an `<img onerror=...>` a student writes in a markdown cell would run in the
browser of whoever opens the page (the instructor too). Every markdown or raw cell that is
not, word for word, one of the course's own (the gradebook's source cells of the notebook)
goes through nbconvert's SanitizeHTML (bleach): allowed tags stay, scripts, event handlers
and frames do not. What the cell's metadata claims is not trusted; only the course's text is.
Code cells need nothing here: their source is shown as highlighted text and their outputs
are text and PNG images only (HideHiddenTests).
"""

from __future__ import annotations

from nbconvert.preprocessors.sanitize import SanitizeHTML
from nbgrader.preprocessors import NbGraderPreprocessor

from autograder.engine.master_notebooks import master_cells


def course_text(resources) -> set[str]:
    """The source of every markdown cell of the notebook as the course wrote it."""
    if not resources.get("nbgrader", {}).get("db_url"):
        return set()  # no gradebook named: nothing counts as the course's
    return {source for _, kind, source in master_cells(resources) if kind == "markdown"}


class SanitizeStudentMarkdown(NbGraderPreprocessor):
    """Sanitize the HTML of every markdown and raw cell the course did not write."""

    def preprocess(self, nb, resources):
        trusted = course_text(resources)
        cleaner = SanitizeHTML(parent=self)
        for cell in nb.cells:
            if cell.cell_type in ("markdown", "raw") and cell.source not in trusted:
                cell.source = cleaner.sanitize_html_tags(cell.source)
        return nb, resources
