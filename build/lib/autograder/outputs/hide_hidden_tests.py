"""Feedback's stage: hidden tests and their tracebacks leave the page, the message stays; the
helper cell shows its docstring alone; of every cell's output, only text and bounded PNG
images reach the page."""

from __future__ import annotations

import ast
import re

from nbgrader.preprocessors import NbGraderPreprocessor

from autograder.course.directory import HELPER_CELL
from autograder.course.shown_outputs import MAX_IMAGE_KB, MAX_IMAGES, image_count, shown_outputs
from autograder.i18n import config_language, language, t

HIDDEN = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS.*?^[ \t]*### END HIDDEN TESTS[ \t]*\n?",
                    re.MULTILINE | re.DOTALL)




def without_hidden_tests(source):
    """A test cell's source with every hidden region cut out."""
    return HIDDEN.sub("", source).strip("\n")


def helpers_folded(source):
    """The helper cell as a page shows it: its docstring (what the helpers are, in the
    course's language) and a line saying where the code is."""
    try:
        docstring = ast.get_docstring(ast.parse(source), clean=False)
    except (SyntaxError, ValueError):
        docstring = None
    note = "# " + t("the helpers' code is left out here; it is in your notebook's helper cell")
    return f'"""{docstring}"""\n{note}' if docstring else note


def short_error(output):
    """An error output reduced to its last line, 'AssertionError: message': the traceback
    would show the lines of hidden tests that raised it."""
    return {**output, "traceback": [f"{output['ename']}: {output['evalue']}"]}


class HideHiddenTests(NbGraderPreprocessor):
    """For feedback: remove hidden tests from graded cells, and tracebacks from their errors.

    nbgrader's own feedback shows a test cell as the autograder ran it, hidden tests included
    (nbgrader issues #917 and #1363). The message of a failed hidden check stays: the kit's
    checks write it for students, naming the step and any known mistake, never a value.

    Every code cell's outputs are reduced once more to what grading keeps (text, and PNG
    images within the course's bounds: autograder/grading/shown_outputs.py), so that no
    markup from a kernel (HTML, JavaScript, SVG) reaches the page, whatever the notebook
    holds.
    """

    def preprocess(self, nb, resources):
        sandbox = self.config.GradeInSandbox
        image_limit = sandbox.get("max_image_kb", MAX_IMAGE_KB) << 10
        max_images = sandbox.get("max_images", MAX_IMAGES)
        shown = 0
        with language(config_language(self.config)):
            for index, cell in enumerate(nb.cells):
                nb.cells[index], resources = self.preprocess_cell(cell, resources, index)
                if cell.cell_type == "code":
                    cell.outputs = shown_outputs(cell.outputs, image_limit, max_images, shown)
                    shown += image_count(cell.outputs)
        return nb, resources

    def preprocess_cell(self, cell, resources, index):
        meta = cell.metadata.get("nbgrader", {})
        grade = meta.get("grade", False)
        if cell.cell_type == "code" and meta.get("grade_id") == HELPER_CELL:
            cell.source = helpers_folded(cell.source)
        if cell.cell_type == "code" and grade:
            cell.source = without_hidden_tests(cell.source)
            cell.outputs = [
                short_error(o) if o.get("output_type") == "error" else o for o in cell.outputs
            ]
        return cell, resources
