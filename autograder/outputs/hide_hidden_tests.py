"""Feedback's stage: hidden tests and their tracebacks leave the page, the message stays."""

from __future__ import annotations

import re

from nbgrader.preprocessors import NbGraderPreprocessor

HIDDEN = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS.*?^[ \t]*### END HIDDEN TESTS[ \t]*\n?",
                    re.MULTILINE | re.DOTALL)


def without_hidden_tests(source):
    """A test cell's source with every hidden region cut out."""
    return HIDDEN.sub("", source).strip("\n")


def short_error(output):
    """An error output reduced to its last line, 'AssertionError: message': the traceback
    would show the lines of hidden tests that raised it."""
    return {**output, "traceback": [f"{output['ename']}: {output['evalue']}"]}


class HideHiddenTests(NbGraderPreprocessor):
    """For feedback: remove hidden tests from graded cells, and tracebacks from their errors.

    nbgrader's own feedback shows a test cell as the autograder ran it, hidden tests included
    (nbgrader issues #917 and #1363). The message of a failed hidden check stays: the kit's
    checks write it for students, naming the step and any known mistake, never a value.
    """

    def preprocess_cell(self, cell, resources, index):
        grade = cell.metadata.get("nbgrader", {}).get("grade", False)
        if cell.cell_type == "code" and grade:
            cell.source = without_hidden_tests(cell.source)
            cell.outputs = [
                short_error(o) if o.get("output_type") == "error" else o for o in cell.outputs
            ]
        return cell, resources
