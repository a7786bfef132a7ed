"""A feedback page's formulas are MathML written into the page, so it shows them offline.

nbconvert's page leaves the TeX of a markdown cell as text (`$...$`, `$$...$$`, `\\(...\\)`,
`\\[...\\]`) for MathJax to typeset in the browser, and MathJax comes from a CDN: a student
who opens the page from their own folder without the network saw raw dollars. Here the
finished page is read as MathJax reads it (text outside code, pre, script, style and
textarea), each formula is turned into MathML by latex2mathml, and browsers draw MathML
themselves. latex2mathml copies `\\text{...}` through as it is, so its MathML is rebuilt with
MathML elements and plain attributes only, every text escaped: a formula a student writes
cannot bring markup into the page. A formula latex2mathml cannot read stays as its TeX.
"""

from __future__ import annotations

import functools
import html
import re
from html.parser import HTMLParser

from latex2mathml.converter import convert

from autograder.outputs.page_body import head_and_body

# What MathJax leaves alone (its skipHtmlTags), taken out whole before formulas are looked for.
SKIPPED = re.compile(r"<(script|style|pre|code|textarea)\b.*?</\1\s*>|<[^>]*>",
                     re.IGNORECASE | re.DOTALL)
# nbconvert's MathJax configuration: $...$ and \(...\) inline, $$...$$ and \[...\] displayed.
FORMULA = re.compile(r"\$\$(?P<block>.+?)\$\$|\\\[(?P<block2>.+?)\\\]"
                     r"|(?<![\\$])\$(?P<inline>[^$]+?)(?<!\\)\$|\\\((?P<inline2>.+?)\\\)",
                     re.DOTALL)
ELEMENTS = {"math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup",
            "msubsup", "mfrac", "msqrt", "mroot", "mstyle", "mpadded", "mphantom", "menclose",
            "mover", "munder", "munderover", "mtable", "mtr", "mtd", "mlabeledtr", "semantics",
            "annotation", "merror", "mfenced", "mmultiscripts", "mprescripts", "none"}
ATTRIBUTES = {"xmlns", "display", "mathvariant", "stretchy", "fence", "separator", "lspace",
              "rspace", "width", "height", "depth", "minsize", "maxsize", "accent",
              "accentunder", "movablelimits", "linethickness", "form", "symmetric",
              "largeop", "columnalign", "columnspacing", "rowspacing", "columnlines",
              "rowlines", "frame", "framespacing", "notation", "scriptlevel", "displaystyle",
              "open", "close", "separators", "align", "rowalign", "class"}


class MathMLOnly(HTMLParser):
    """latex2mathml's output rebuilt from MathML elements, plain attributes and escaped
    text; anything else it holds (a tag copied from `\\text{...}`) keeps only its text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []

    def handle_starttag(self, tag, attrs):
        if tag in ELEMENTS:
            kept = "".join(f' {key}="{html.escape(value or "")}"' for key, value in attrs
                           if key in ATTRIBUTES and not (value or "").lstrip().startswith(
                               ("javascript", "data", "vbscript")))
            self.parts.append(f"<{tag}{kept}>")

    def handle_endtag(self, tag):
        if tag in ELEMENTS:
            self.parts.append(f"</{tag}>")

    def handle_data(self, data):
        self.parts.append(html.escape(data, quote=False))


@functools.lru_cache(maxsize=4096)  # a class's pages share the assignment's formulas
def mathml(tex: str, display: bool) -> str | None:
    """The formula `tex` as MathML safe to put in a page, or None if it cannot be read."""
    try:
        written = convert(tex, display="block" if display else "inline")
    except Exception:  # noqa: BLE001 - latex2mathml raises many kinds on TeX it cannot read
        return None
    rebuilt = MathMLOnly()
    rebuilt.feed(written)
    rebuilt.close()
    return "".join(rebuilt.parts)


def formula(match) -> str:
    """A formula of the page's text (HTML-escaped TeX) as MathML, or as it was."""
    fields = match.groupdict()
    display = bool(fields["block"] or fields["block2"])
    tex = next(v for v in fields.values() if v is not None)
    return mathml(html.unescape(tex).strip(), display) or match.group(0)


def text_formulas(text: str) -> str:
    if "$" not in text and "\\" not in text:  # every FORMULA has one (most text has neither)
        return text
    return FORMULA.sub(formula, text)


# nbconvert's comments around its MathJax scripts (a pattern that began with the spaces before
# them was tried at every character of the page: 6 ms a page)
MATHJAX_FROM, MATHJAX_TO = "<!-- Load mathjax -->", "<!-- End of mathjax configuration -->"


def without_mathjax(page: str) -> str:
    """The page without nbconvert's MathJax scripts (the loader from a CDN and its
    configuration, with the spaces that indent it and the line break after it): its formulas
    are MathML already."""
    parts, done = [], 0
    while (start := page.find(MATHJAX_FROM, done)) >= 0:
        end = page.find(MATHJAX_TO, start)
        if end < 0:
            break
        end += len(MATHJAX_TO) + page.startswith("\n", end + len(MATHJAX_TO))
        indent = start
        while indent > done and page[indent - 1] in " \t":
            indent -= 1
        parts.append(page[done:indent])
        done = end
    return "".join(parts) + page[done:]


def with_mathml(page: str) -> str:
    """The page with every formula of its body's text as MathML (code, pre, script, style
    and textarea, and the markup of tags, untouched)."""
    head, page = head_and_body(page)
    parts, done = [head], 0
    for skipped in SKIPPED.finditer(page):
        parts.append(text_formulas(page[done:skipped.start()]))
        parts.append(skipped.group(0))
        done = skipped.end()
    parts.append(text_formulas(page[done:]))
    return "".join(parts)
