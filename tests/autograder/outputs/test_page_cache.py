"""Does a process render the cells a class's pages share once, and still show each student
their own cells, page for page as if nothing were kept?"""

from __future__ import annotations

import re

import nbformat
import pytest
from jinja2 import DictLoader, Environment
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.filters.markdown_mistune import MarkdownWithMath

from autograder.outputs import page_cache
from autograder.outputs.safe_page import SafeHTMLExporter


def page_of(answer: str, written: str, magics: str | None = None):
    """An assignment's page: its prose and test shared, the student's answer and written
    response their own."""
    answer_cell = nbformat.v4.new_code_cell(answer)
    if magics:
        answer_cell.metadata["magics_language"] = magics
    cells = [nbformat.v4.new_markdown_cell("# Softmax\n\nThe weights $w_i$ sum to 1."),
             answer_cell,
             nbformat.v4.new_markdown_cell(written),
             nbformat.v4.new_code_cell("assert softmax([0.0]) == [1.0]")]
    for number, cell in enumerate(cells):
        cell.id = f"cell-{number}"  # the page carries the ids: the same on both pages
    notebook = nbformat.v4.new_notebook(cells=cells, metadata={"language_info": {
        "name": "python", "pygments_lexer": "ipython3"}})
    return SafeHTMLExporter().from_notebook_node(notebook)[0]


@pytest.fixture
def counted(monkeypatch):
    """Empty kept pieces, and the count of cells highlighted and markdown rendered."""
    monkeypatch.setattr(page_cache, "RENDERED", page_cache.RenderedPieces())
    monkeypatch.setattr("autograder.outputs.safe_page.RENDERED", page_cache.RENDERED)
    calls = {"code": 0, "markdown": 0}
    highlight, render = Highlight2HTML.__call__, MarkdownWithMath.render

    def counted_highlight(self, *args, **kwargs):
        calls["code"] += 1
        return highlight(self, *args, **kwargs)

    def counted_render(self, *args, **kwargs):
        calls["markdown"] += 1
        return render(self, *args, **kwargs)

    monkeypatch.setattr(Highlight2HTML, "__call__", counted_highlight)
    monkeypatch.setattr(MarkdownWithMath, "render", counted_render)
    return calls


def test_shared_cells_are_rendered_once(counted):
    """Does the second student's page render only their own two cells?"""
    page_of("def softmax(x): return x", "I used exp.")
    first = dict(counted)
    page_of("def softmax(x): return [1.0]", "I used max.")
    assert first == {"code": 2, "markdown": 2}
    assert counted == {"code": 3, "markdown": 3}


def test_each_page_shows_its_own_cells_as_rendered_alone(counted, monkeypatch):
    """Is a page rendered after others the page rendered in a fresh process, and does it
    show its student's code and words, not the student's before?"""
    page_of("def softmax(x): return x", "I used exp.")
    warm = page_of("def softmax(x): return [1.0]", "I used max.")
    monkeypatch.setattr(page_cache, "RENDERED", page_cache.RenderedPieces())
    monkeypatch.setattr("autograder.outputs.safe_page.RENDERED", page_cache.RENDERED)
    fresh = page_of("def softmax(x): return [1.0]", "I used max.")
    assert warm == fresh
    assert "I used max." in warm and "I used exp." not in warm
    text = re.sub(r"<[^>]+>", "", warm)
    assert "return [1.0]" in text and "return x" not in text


def test_the_magics_language_is_part_of_the_key(counted):
    """Is the same code in a cell marked as another language highlighted again?"""
    page_of("SELECT 1", "same")
    page_of("SELECT 1", "same", magics="sql")
    assert counted["code"] == 3


def test_kept_pieces_are_bounded():
    """Does a process keep at most the pieces it was told (KEPT_PIECES unless told),
    starting again past it?"""
    assert page_cache.RenderedPieces().most == page_cache.KEPT_PIECES
    pieces = page_cache.RenderedPieces(most=3)
    for number in range(7):
        assert pieces.get(("k", number), lambda n=number: f"<p>{n}</p>") == f"<p>{number}</p>"
    assert len(pieces.kept) <= 3


def test_a_template_is_compiled_once_a_process_and_again_when_its_source_changes():
    """Does a new exporter's environment take a template kept compiled (rendering as the
    compiled one does), and is a template whose source changed compiled anew, never the old
    one used?"""
    kept, sources, compiled = page_cache.CompiledTemplates(), {"page.html": "Hi {{ n }}"}, []

    def environment():
        made = Environment(loader=DictLoader(sources), bytecode_cache=kept)
        compile_source = made.compile

        def counted(source, *args, **kwargs):
            compiled.append(source)
            return compile_source(source, *args, **kwargs)

        made.compile = counted
        return made

    assert environment().get_template("page.html").render(n="ada") == "Hi ada"
    assert environment().get_template("page.html").render(n="ben") == "Hi ben"
    assert compiled == ["Hi {{ n }}"]
    sources["page.html"] = "Bye {{ n }}"
    assert environment().get_template("page.html").render(n="ada") == "Bye ada"
    assert compiled == ["Hi {{ n }}", "Bye {{ n }}"]
