"""Feedback pages are rendered by an exporter that makes the finished HTML safe to open.

SanitizeStudentMarkdown (safe_markdown.py) cleans the HTML a student writes in a markdown cell,
but markdown's own syntax becomes a link only when nbconvert renders it:
`[x](javascript:...)` and `![](javascript:...)` come out as live links. So the rendered page is
read once more: every URL in an attribute keeps its place only if its scheme is on an
allow-list (web links, mail, images embedded as data), and the page carries a
Content-Security-Policy that runs no inline script at all. nbgrader's GenerateFeedback takes
its exporter from the configuration (`c.GenerateFeedback.exporter_class`), so the kit's
`feedback` and plain `nbgrader generate_feedback` write the same safe page.

The same exporter makes the page whole offline and readable: its formulas are MathML written
into it (page_math.py), so it loads no MathJax and runs no script at all, and its messages and
tables get the styles of page_style.py. It stays one file a student can open from anywhere.
"""

from __future__ import annotations

import copy
import hashlib
import html
import itertools
import re
from html.parser import HTMLParser

from jinja2 import pass_context
from nbconvert.exporters import HTMLExporter, TemplateExporter
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

from autograder.outputs.files_prefix import strip_files_prefix
from autograder.outputs.page_cache import (
    COMPILED_TEMPLATES,
    KEPT_TAGS,
    RENDERED,
    KeptHighlight,
    markdown_key,
)
from autograder.outputs.page_math import with_mathml, without_mathjax
from autograder.outputs.page_style import with_style
from autograder.plumbing import private_api

URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "poster", "background",
                  "cite", "longdesc", "data", "manifest", "icon"}
NEVER = {"srcset", "ping"}  # lists of URLs: nothing on a feedback page needs them
SCHEMES = {"href": {"http", "https", "mailto"}, "src": {"http", "https", "data"}}
DATA_IMAGE = "data:image/"
SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
HEAD = re.compile(r"<head[^>]*>", re.IGNORECASE)


def scheme_of(url: str) -> str | None:
    """The scheme a browser reads in `url` (entities already decoded): C0 controls and spaces
    around it and tabs and newlines inside it are ignored, as the URL standard says."""
    cleaned = re.sub(r"[\t\n\r]", "", url).strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b"
                                                  "\x0c\x0e\x0f\x10\x11\x12\x13\x14\x15\x16"
                                                  "\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
    match = SCHEME.match(cleaned)
    return match.group(1).lower() if match else None


def allowed(attribute: str, url: str) -> bool:
    """May `url` stay in `attribute`? Relative links and anchors may; a scheme must be on the
    attribute's allow-list, and data: only for images."""
    scheme = scheme_of(url)
    if scheme is None:
        return True
    if scheme == "data":
        return attribute == "src" and url.strip().lower().startswith(DATA_IMAGE)
    return scheme in SCHEMES.get(attribute, SCHEMES["href"])


NO_ALT = "No description has been provided for this image"  # nbconvert's (feedback.py words it)
FOCUSABLE = {"jp-Cell-inputWrapper", "jp-OutputArea-output"}  # a cell's input, each output


def accessible(tag, attributes):
    """The touches nbconvert's HTMLExporter gives a page: an image without alt text gets
    nbconvert's, and a cell's input and each of its outputs take the keyboard's focus."""
    if tag == "img" and all(key != "alt" for key, _ in attributes):
        return [("alt", NO_ALT), *attributes]  # first, where nbconvert's (sorted) page has it
    classes = next((value or "" for key, value in attributes if key == "class"), "")
    if tag == "div" and FOCUSABLE & set(classes.split()):
        return [*[(key, value) for key, value in attributes if key != "tabindex"],
                ("tabindex", "0")]
    return attributes


def start_tag(name, attributes, closed):
    shown = "".join(f" {key}" if value is None else f' {key}="{html.escape(value)}"'
                    for key, value in attributes)
    return f"<{name}{shown}{' /' if closed else ''}>"


class UnsafeTags(HTMLParser):
    """{start tag as written: the same tag without its unsafe URL attributes, made
    accessible}."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.replacements = {}

    def handle_starttag(self, tag, attrs, closed=False):
        kept = accessible(tag, [(key, value) for key, value in attrs if key not in NEVER and not (
            key in URL_ATTRIBUTES and value is not None and not allowed(key, value))])
        if kept != attrs:
            self.replacements[self.get_starttag_text()] = start_tag(tag, kept, closed)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs, closed=True)


def content_security_policy() -> str:
    """No script, no plug-in, no form, no frame, nothing fetched: styles inline, images and
    fonts embedded."""
    return ("default-src 'none'; style-src 'unsafe-inline'; font-src data:; img-src data:; "
            "base-uri 'none'; form-action 'none'")


# Where a page's pieces begin: each cell, its input, its outputs (nbconvert's templates start
# each with a <div> on a line of its own). Its literal start is found by a fast scan (a split
# on a lookahead tried it at every character of the page: 4 ms a page).
PIECE = re.compile(r"\n<div\b")
# A longer piece is kept by its digest, not its text: the page's head (its style sheet, the same
# on every page) and an output's embedded image are long, and a kept piece stays in the
# worker's memory (KEPT_PIECES of them at most).
KEPT_PIECE_CHARS = 16 << 10


def pieces_of(page: str) -> list:
    """The page cut before each PIECE (a first piece "" when it starts with one)."""
    cuts = [0, *(match.start() for match in PIECE.finditer(page)), len(page)]
    return [page[start:end] for start, end in itertools.pairwise(cuts)]


def kept_as(piece: str):
    """What KEPT_TAGS keeps `piece`'s answer by: its text, or a long one's digest."""
    if len(piece) <= KEPT_PIECE_CHARS:
        return piece
    return ("digest", hashlib.blake2b(piece.encode("utf-8", "surrogatepass")).digest())


def tags_of_piece(piece: str) -> dict | None:
    """UnsafeTags.replacements of `piece`, read as the parser reads it from a clean start;
    None unless it also ends clean (in text, nothing held back, not inside a <style>,
    <script> or any construct left open), where the next piece may start afresh."""
    parser = UnsafeTags()
    parser.feed(piece)
    clean = parser.rawdata == "" and parser.cdata_elem is None
    return parser.replacements if clean else None


def unsafe_tags(page: str) -> dict:
    """UnsafeTags.replacements of the whole page. A page is read piece by piece, each
    piece's answer kept for the next page by its text (page_cache.KEPT_TAGS): the pieces a
    class's pages share (prose, given code, tests) are read once a process. The answer is
    the whole page's: each piece starts where the one before it ended clean, so the parser
    reads it as it would on the way through; a piece that does not end clean sends the page
    to be read whole. A piece longer than KEPT_PIECE_CHARS is kept by its digest."""
    if private_api.applies("tags by piece"):
        found = {}
        for piece in pieces_of(page):
            tags = KEPT_TAGS.get(kept_as(piece), lambda piece=piece: tags_of_piece(piece))
            if tags is None:
                break
            found.update(tags)
        else:
            return found
    parser = UnsafeTags()
    parser.feed(page)
    parser.close()
    return parser.replacements


def safe_page(page: str) -> str:
    """The page without a URL off the allow-list, with its Content-Security-Policy, its
    images and cells accessible (accessible)."""
    for written, safe in unsafe_tags(page).items():
        page = page.replace(written, safe)
    policy = (f'<meta http-equiv="Content-Security-Policy" '
              f'content="{content_security_policy()}">')
    head = HEAD.search(page)
    if head is None:
        return policy + page
    return page[:head.end()] + policy + page[head.end():]


class SafeHTMLExporter(HTMLExporter):
    """nbconvert's HTML exporter whose pages have their formulas as MathML, the kit's styles,
    and went through safe_page; its templates compiled and the cells it renders alike kept
    once a process (page_cache.py)."""

    def from_notebook_node(self, nb, resources=None, **kw):
        self.environment.bytecode_cache = COMPILED_TEMPLATES  # before a template is loaded
        if private_api.applies("page in one pass"):
            page, resources = self.without_soup(nb, resources, **kw)
        else:
            page, resources = super().from_notebook_node(nb, resources, **kw)
        return safe_page(with_style(with_mathml(without_mathjax(page)))), resources

    def without_soup(self, nb, resources=None, **kw):
        """HTMLExporter.from_notebook_node but for its last pass, which parses the whole page
        with BeautifulSoup and writes it out again (half of a page's time) to make its images
        and cells accessible: safe_page does that in the pass it makes anyway."""
        language = nb.metadata.get("language_info", {})
        lexer = language.get("pygments_lexer", language.get("name", None))
        self.register_filter("highlight_code", self.filters.get(
            "highlight_code", KeptHighlight(Highlight2HTML(pygments_lexer=lexer, parent=self))))
        resources = self._init_resources(resources)
        self.register_filter("filter_data_type", WidgetsDataTypeFilter(
            notebook_metadata=self._nb_metadata, parent=self, resources=resources))
        return TemplateExporter.from_notebook_node(self, nb, resources, **kw)

    def _preprocess(self, nb, resources):
        """Exporter._preprocess without what a page need not pay again: the notebook is
        from_notebook_node's own copy already, yet nbconvert copied it twice more (once
        in nbformat's normalize) and checked it against nbformat's schema twice: some 6% of
        a page's CPU in a worker (a median of 35.8 against 38.3 ms in one process, on 01's
        pages). A page's notebook was checked as it was read from its file, and the
        template renders what the stages leave. The resources are copied, as nbconvert
        copies them."""
        if not private_api.applies("one copy of a page"):
            return super()._preprocess(nb, resources)
        resources = copy.deepcopy(resources)
        for preprocessor in self._preprocessors:
            nb, resources = preprocessor(nb, resources)
        return nb, resources

    def default_filters(self):
        """nbconvert's filters, but `strip_files_prefix` in linear time (files_prefix.py):
        nbconvert's takes time quadratic in a line of a student's markdown."""
        yield from super().default_filters()
        yield ("strip_files_prefix", strip_files_prefix)

    @pass_context
    def markdown2html(self, context, source):
        """nbconvert's markdown2html, its HTML kept by what it reads (page_cache.py)."""
        def render():
            return super(SafeHTMLExporter, self).markdown2html(context, source)

        key = markdown_key(self, context, source)
        return render() if key is None else RENDERED.get(key, render)
