"""Does the kit's page exporter compile its templates once a process, and write the same page
from the templates it kept?"""

from __future__ import annotations

import nbformat

from autograder.outputs import safe_page
from autograder.outputs.safe_page import SafeHTMLExporter


def notebook():
    cells = [nbformat.v4.new_markdown_cell("# A step\n\nThe weights $w_i$ sum to 1."),
             nbformat.v4.new_code_cell("print(1 + 1)")]
    return nbformat.v4.new_notebook(cells=cells)


def test_a_second_exporter_compiles_no_template_and_writes_the_same_page(monkeypatch):
    """nbgrader makes an exporter per command: does the second one of the process take every
    template from those kept (none compiled again) and write the page the first wrote?"""
    page = notebook()
    first, _ = SafeHTMLExporter().from_notebook_node(page)
    assert safe_page.COMPILED_TEMPLATES.kept, "the first page kept no compiled template"
    compiled = []
    monkeypatch.setattr(safe_page.COMPILED_TEMPLATES, "dump_bytecode", compiled.append)
    second, _ = SafeHTMLExporter().from_notebook_node(page)
    assert compiled == []
    assert second == first
