"""What a process keeps from one feedback page to the next: the templates as Jinja compiled
them, the HTML of the cells every page of a class shows alike, and what the safety pass read
in each piece of a page (safe_page.py).

A worker writes page after page of one assignment, and nbgrader makes a new exporter for each.
Most of a page is the same on every student's: the assignment's prose, its given code, its
test cells. Rendering it again is most of a page's time (highlighting code with Pygments,
markdown with mistune). Each piece is kept here by everything its HTML depends on, so a cell
is rendered once a process and a student's own cell, which differs, is rendered as it is.
"""

from __future__ import annotations

import json
import threading

from jinja2 import BytecodeCache

KEPT_PIECES = 4096  # rendered cells a process keeps; past it, it starts again


class CompiledTemplates(BytecodeCache):
    """The page templates as Jinja compiled them, kept for this process. nbgrader makes a new
    exporter for every command, so a worker writing page after page would otherwise parse
    and compile the same nine templates for each (a quarter of a page's time). Each is kept
    as its code object, with the checksum of the source it was compiled from, and used only
    for that same source; kept as bytes, every page unmarshalled all nine again."""

    def __init__(self):
        self.kept = {}  # bucket key -> (source checksum, code object)

    def load_bytecode(self, bucket):
        checksum, code = self.kept.get(bucket.key, (None, None))
        if checksum == bucket.checksum:
            bucket.code = code

    def dump_bytecode(self, bucket):
        self.kept[bucket.key] = (bucket.checksum, bucket.code)


COMPILED_TEMPLATES = CompiledTemplates()


class RenderedPieces:
    """HTML by the key of everything it was made from, at most KEPT_PIECES of them."""

    def __init__(self, most=KEPT_PIECES):
        self.kept = {}
        self.most = most
        self.lock = threading.Lock()

    def get(self, key, render):
        """The HTML kept for `key`, else `render()`'s, kept."""
        with self.lock:
            found = self.kept.get(key)
        if found is None:
            found = render()
            with self.lock:
                if len(self.kept) >= self.most:
                    self.kept.clear()
                self.kept[key] = found
        return found


RENDERED = RenderedPieces()
# A page's pieces (safe_page.PIECE: about a hundred a page of 01) -> the tags the safety pass
# changes in each, or None
KEPT_TAGS = RenderedPieces()


class KeptHighlight:
    """nbconvert's highlight_code filter (a Highlight2HTML), its HTML kept by what it depends
    on: the code, the language asked for or the notebook's lexer, the cell's magics language
    (the only part of the cell's metadata it reads) and the formatter's settings."""

    def __init__(self, highlight):
        self.highlight = highlight
        self.settings = (highlight.pygments_lexer, json.dumps(  # the same for every cell
            highlight.extra_formatter_options, sort_keys=True, default=repr))

    def __call__(self, source, language=None, metadata=None):
        key = ("code", source, language, (metadata or {}).get("magics_language"),
               *self.settings)
        return RENDERED.get(key, lambda: self.highlight(source, language, metadata))


def markdown_key(exporter, context, source):
    """What nbconvert's markdown2html reads to render `source` (HTMLExporter.markdown2html):
    the cell's attachments and the exporter's settings; None when it embeds images, which it
    reads from files in the notebook's folder (the one use of that folder: each student's
    differs), files that may change between pages."""
    if exporter.embed_images:
        return None
    attachments = context.get("cell", {}).get("attachments", {})
    return ("markdown", source, json.dumps(attachments, sort_keys=True, default=repr),
            exporter.anchor_link_text, exporter.exclude_anchor_links,
            json.dumps(exporter.lexer_options, sort_keys=True, default=repr))
