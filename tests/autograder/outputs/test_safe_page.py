"""Does the kit's page exporter compile its templates once a process, and write the same page
from the templates it kept? Is its page in one pass the page nbconvert writes in two, and from
one copy of the notebook the page nbconvert writes from three?"""

from __future__ import annotations

import copy
import os

import nbformat
import nbgrader
import pytest
from bs4 import BeautifulSoup
from nbconvert.exporters import HTMLExporter
from nbconvert.preprocessors import Preprocessor
from traitlets.config import Config

from autograder.outputs import page_cache
from autograder.outputs import safe_page as safe_page_module
from autograder.outputs.safe_page import NO_ALT, SafeHTMLExporter
from autograder.outputs.safe_page import safe_page as made_safe
from autograder.plumbing import private_api

FORMGRADER = os.path.join(os.path.dirname(nbgrader.__file__), "server_extensions", "formgrader")
BOOTSTRAP = os.path.join(FORMGRADER, "static", "node_modules", "bootstrap", "dist", "css")
PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJ"
       "RU5ErkJggg==")


def notebook():
    cells = [nbformat.v4.new_markdown_cell("# A step\n\nThe weights $w_i$ sum to 1."),
             nbformat.v4.new_code_cell("print(1 + 1)")]
    return nbformat.v4.new_notebook(cells=cells)


def test_a_second_exporter_compiles_no_template_and_writes_the_same_page(monkeypatch):
    """nbgrader makes an exporter per command: does the second one of the process take every
    template from those kept (none compiled again) and write the page the first wrote?"""
    page = notebook()
    first, _ = SafeHTMLExporter().from_notebook_node(page)
    assert page_cache.COMPILED_TEMPLATES.kept, "the first page kept no compiled template"
    compiled = []
    monkeypatch.setattr(page_cache.COMPILED_TEMPLATES, "dump_bytecode", compiled.append)
    second, _ = SafeHTMLExporter().from_notebook_node(page)
    assert compiled == []
    assert second == first


def every_kind_of_cell():
    """Markdown with and without an image's alt text, code, its printed output, a plot (an
    image no one described), an HTML output and a raw cell."""
    plot = nbformat.v4.new_output("display_data", data={"image/png": PNG, "text/plain": "<Fig>"})
    table = nbformat.v4.new_output("execute_result", execution_count=2, data={
        "text/html": "<table><tr><td>1</td></tr></table><img src='data:image/png;base64,"
                     f"{PNG}'>", "text/plain": "t"})
    printed = nbformat.v4.new_output("stream", name="stdout", text="2\n")
    cells = [nbformat.v4.new_markdown_cell(f"# Step\n\n![a dot](data:image/png;base64,{PNG})"
                                           f" and ![](data:image/png;base64,{PNG}) & $x_i$"),
             nbformat.v4.new_code_cell("print(1 + 1)  # <b>&nbsp;", outputs=[printed]),
             nbformat.v4.new_code_cell("plot()", outputs=[plot, table]),
             nbformat.v4.new_raw_cell("raw <i>text</i>")]
    cells[1].metadata.nbgrader = {"solution": True, "grade": False, "grade_id": "answer",
                                  "comment": "No response."}
    cells[2].metadata.nbgrader = {"solution": False, "grade": True, "grade_id": "test_a",
                                  "points": 2, "score": 1}
    return nbformat.v4.new_notebook(cells=cells, metadata={"language_info": {
        "name": "python", "pygments_lexer": "ipython3"}})


GRADES = {"nbgrader": {"notebook": "step", "score": 1, "max_score": 2, "late_penalty": 0}}


@pytest.mark.parametrize("template", ["lab", "feedback"])
def test_the_page_in_one_pass_is_nbconverts_page(template):
    """With nbconvert's own template and with nbgrader's feedback template, is the page the
    kit renders without nbconvert's BeautifulSoup pass, once made safe, the same document as
    nbconvert's page made safe: the same elements, attributes and text, images given
    nbconvert's alt text and cells their tabindex?"""
    assert private_api.applies("page in one pass"), private_api.why_not("page in one pass")
    config = Config()
    if template == "feedback":
        config.HTMLExporter.template_name = "feedback"
        config.HTMLExporter.extra_template_basedirs = [os.path.join(FORMGRADER, "templates")]
        config.HTMLExporter.extra_template_paths = [BOOTSTRAP]  # as nbgrader sets both
    notebook = every_kind_of_cell()
    theirs, _ = HTMLExporter.from_notebook_node(SafeHTMLExporter(config=config), notebook,
                                                {**GRADES})  # what nbgrader's GetGrades adds
    ours, _ = SafeHTMLExporter(config=config).without_soup(notebook, {**GRADES})
    assert "BeautifulSoup" not in ours and ours != theirs  # not nbconvert's page again
    theirs, ours = (str(BeautifulSoup(made_safe(page), "html.parser"))
                    for page in (theirs, ours))
    assert ours == theirs
    assert ours.count(f'alt="{NO_ALT}"') == 2, "the plot and the HTML output's image"
    assert 'alt="a dot"' in ours
    if template == "lab":  # nbgrader's feedback template has nbconvert's classic cells
        assert ours.count('tabindex="0"') >= 3, "the cells' inputs and outputs"


class Seen(Preprocessor):
    """A stage that changes every cell it is given and counts it in `resources["seen"]`."""

    def preprocess_cell(self, cell, resources, index):
        cell.source += " SEEN-BY-A-STAGE"
        resources["seen"].append(index)
        return cell, resources


def test_a_page_from_one_copy_is_the_page_nbconvert_copies_and_checks(monkeypatch):
    """Does the page's notebook go through the stages once, without nbformat's normalize and
    schema check, the caller's notebook left as it was, and is the page the one nbconvert
    writes where it copies and checks the notebook (the speedup stepped aside)?"""
    assert private_api.applies("one copy of a page"), private_api.why_not("one copy of a page")
    checks = []
    monkeypatch.setattr(nbformat, "validate", lambda *a, **k: checks.append("validate"))
    normalize = nbformat.validator.normalize
    monkeypatch.setattr(nbformat.validator, "normalize",
                        lambda *a, **k: checks.append("normalize") or normalize(*a, **k))
    cells = every_kind_of_cell()  # its cells made, and checked each (nbformat.v4), once

    def page():
        exporter = SafeHTMLExporter()
        exporter.register_preprocessor(Seen(), enabled=True)
        given, kept = copy.deepcopy(cells), copy.deepcopy(cells)
        checks.clear()
        seen = []
        written, resources = exporter.from_notebook_node(given, {**GRADES, "seen": seen})
        assert resources["seen"] == list(range(len(cells.cells))), "each cell once, in order"
        assert "SEEN-BY-A-STAGE" in written
        assert given == kept, "the caller's notebook changed"
        assert seen == [], "the caller's resources changed"
        return written

    ours = page()
    assert checks == []
    applies = private_api.applies
    monkeypatch.setattr(private_api, "applies",
                        lambda name: name != "one copy of a page" and applies(name))
    theirs = page()
    assert {"normalize", "validate"} <= set(checks)  # where nbconvert copies and checks
    assert ours == theirs


def test_a_page_made_safe_twice_is_the_same():
    """Does safe_page leave a page it made alone (nbconvert's alt and tabindex not doubled)?"""
    page, _ = SafeHTMLExporter().from_notebook_node(every_kind_of_cell())
    assert made_safe(page).count(f'alt="{NO_ALT}"') == page.count(f'alt="{NO_ALT}"') == 2
    assert made_safe(page).count('tabindex="0"') == page.count('tabindex="0"')


# Pieces that end where the parser is not back in plain text: inside a comment, a style, a
# script, a start tag's attribute, a character reference, a half-written tag. Each is followed
# by a piece whose link is unsafe only if it is read as markup.
OPEN_ENDINGS = ["<!-- a comment", "<style>p {}", "<script>var a = 1;", '<a title="x',
                "text &amp", "text &", "<", "<a", "</", "<!", "<?pi", "<![CDATA[ x"]
UNSAFE = '<a href="javascript:kitOwned()">x</a>'


@pytest.mark.parametrize("ending", OPEN_ENDINGS)
def test_a_page_read_in_pieces_is_made_safe_as_if_read_whole(monkeypatch, ending):
    """Where a piece of the page ends with a construct left open, is the page made safe
    exactly as the parser reads it whole, the first time and with every piece kept from
    before, and a link that is markup read whole removed?"""
    assert private_api.applies("tags by piece"), private_api.why_not("tags by piece")
    monkeypatch.setattr(safe_page_module, "KEPT_TAGS", page_cache.RenderedPieces())
    page = ("<html><head></head><body>\n<div>" + UNSAFE + "</div>\n<div>" + ending
            + "\n<div>" + UNSAFE + " -->--></style></script>\">\n<div>" + UNSAFE
            + "</div>\n<div><img src='data:image/png;base64,'></div></body></html>")
    assert safe_page_module.tags_of_piece("\n<div>" + ending) is None  # the page read whole
    whole = safe_page_module.UnsafeTags()
    whole.feed(page)
    whole.close()
    assert safe_page_module.unsafe_tags(page) == whole.replacements
    assert safe_page_module.unsafe_tags(page) == whole.replacements  # pieces kept
    kept = made_safe(page)
    assert "<div><a>x</a></div>" in kept  # the first link, read before any open construct
    monkeypatch.setattr(private_api, "applies", lambda name: False)
    assert made_safe(page) == kept


def test_the_pieces_a_class_shares_are_read_once(monkeypatch):
    """Are the pieces two students' pages share read once, and each student's own piece,
    with its unsafe link, read and made safe?"""
    monkeypatch.setattr(safe_page_module, "KEPT_TAGS", page_cache.RenderedPieces())
    read = []
    tags_of_piece = safe_page_module.tags_of_piece
    monkeypatch.setattr(safe_page_module, "tags_of_piece",
                        lambda piece: read.append(piece) or tags_of_piece(piece))
    shared = "\n<div class='prose'><p>Softmax</p></div>\n<div class='test'><pre>x</pre></div>"

    def page(own):
        return f"<html><head></head><body>{shared}\n<div class='answer'>{own}</div></body></html>"

    first = made_safe(page("<p>mine</p>"))
    read.clear()
    second = made_safe(page(f"<p>{UNSAFE}</p>"))
    assert [piece for piece in read if "answer" not in piece] == []
    assert len(read) == 1 and "javascript:" not in second
    assert first.count("Softmax") == second.count("Softmax") == 1


def test_a_long_piece_is_kept_by_its_digest_not_its_text(monkeypatch):
    """Is a piece longer than KEPT_PIECE_CHARS (a page's style sheet, an embedded image) read
    once, kept by its digest rather than its text (a kept piece stays in the worker's memory),
    and its unsafe link removed on every page?"""
    monkeypatch.setattr(safe_page_module, "KEPT_TAGS", page_cache.RenderedPieces())
    read = []
    tags_of_piece = safe_page_module.tags_of_piece
    monkeypatch.setattr(safe_page_module, "tags_of_piece",
                        lambda piece: read.append(piece) or tags_of_piece(piece))
    long = "x" * (safe_page_module.KEPT_PIECE_CHARS + 1)
    page = f"<html><head></head><body>\n<div>{long}{UNSAFE}</div>\n<div>short</div></body></html>"
    for _ in range(2):
        assert "javascript:" not in made_safe(page)
    assert len([piece for piece in read if long in piece]) == 1
    kept = safe_page_module.KEPT_TAGS.kept
    assert not any(isinstance(key, str) and long in key for key in kept)
    assert any(isinstance(key, str) and "short" in key for key in kept)


def test_a_page_is_cut_where_each_piece_begins():
    """Is a page cut before each line that opens a <div>, and nowhere else, its pieces
    together the page?"""
    page = "\n<div>a</div>\n<divider>\n<div class='b'>b\n<span>"
    assert safe_page_module.pieces_of(page) == [
        "", "\n<div>a</div>\n<divider>", "\n<div class='b'>b\n<span>"]
    assert safe_page_module.pieces_of("") == [""]
