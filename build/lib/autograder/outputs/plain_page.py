"""A whole page the kit writes outside nbconvert (similarity pages, the notice of a refused
submission): its styles inline, the glyphs of its Chinese words embedded (page_font.py), no
script, and a Content-Security-Policy that loads nothing (safe_page.py), in the current
language."""

from __future__ import annotations

import html

from autograder.i18n import html_lang
from autograder.outputs.destination import KIT_PAGE_START
from autograder.outputs.page_font import font_css
from autograder.outputs.safe_page import safe_page


def plain_page(title, body, style):
    """The page titled `title` (plain text, escaped here) around `body` (HTML, escaped by the
    caller), styled by the CSS `style`."""
    heading = html.escape(title)
    head = (f"{KIT_PAGE_START}{html_lang()}'><head>"
            f"<meta charset='utf-8'><title>{heading}</title>"
            f"<style>{style}{font_css(heading + body)}</style></head><body>")
    return safe_page(f"{head}<h1>{heading}</h1>{body}</body></html>")
