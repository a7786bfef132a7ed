"""Where a page's body starts. A pass over a page's words or formulas reads its body alone:
the head of a feedback page is mostly nbconvert's style sheet, half the page's characters,
and a browser shows none of it (MathJax, too, typesets the body alone)."""

from __future__ import annotations


def head_and_body(page: str) -> tuple[str, str]:
    """(what comes before the page's first `<body`, the rest); ("", page) where it has none.
    A `<body` written earlier than the tag (in the head) only makes the body read longer."""
    start = page.find("<body")
    return (page[:start], page[start:]) if start >= 0 else ("", page)
