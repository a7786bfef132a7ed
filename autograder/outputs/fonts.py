"""Which font, if any, lets matplotlib draw a text: the report's plots are labelled in Chinese
only where a font on this machine has every character, else in English, never with missing
glyphs (empty boxes)."""

from __future__ import annotations

import functools
import re

from matplotlib import font_manager, ft2font

# Fonts that usually hold Chinese, tried first (any other font that has the characters will do).
LIKELY = re.compile(r"CJK|Han|Hei|Song|Kai|Ming|YaHei|WenQuanYi|Zen|PingFang|Fallback|SC\b",
                    re.IGNORECASE)
# Fonts that claim every character but draw each as a box (macOS's and matplotlib's Last Resort).
PLACEHOLDERS = re.compile(r"Last ?Resort", re.IGNORECASE)
PLAIN = 0x2FF  # Latin letters, digits and punctuation: the default font (DejaVu Sans) has them


def needs_font(text):
    """Does `text` have characters the default font may lack (Chinese, full-width marks)?"""
    return any(ord(c) > PLAIN for c in text)


@functools.cache
def characters_of(path):
    try:
        return frozenset(ft2font.FT2Font(path).get_charmap())
    except (OSError, RuntimeError, ValueError):
        return frozenset()


def first_drawing(fonts, needed):
    """The first of (name, path) pairs, likely ones first, whose font has every character."""
    usable = [(name, path) for name, path in fonts if not PLACEHOLDERS.search(name)]
    usable.sort(key=lambda font: not LIKELY.search(font[0]) and not LIKELY.search(font[1]))
    return next(((name, path) for name, path in usable if needed <= characters_of(path)), None)


@functools.cache
def unlisted_fonts():
    """The machine's fonts that matplotlib's font list lacks: its cache was made before they
    were installed (say, a Chinese font added with apt later)."""
    listed = {f.fname for f in font_manager.fontManager.ttflist}
    return [(path, path) for path in font_manager.findSystemFonts() if path not in listed]


def font_drawing(text):
    """The name of a font that has every character of `text` the default font may lack, or
    None when this machine has none (or nothing needs one). A font matplotlib's list lacks
    is added to it."""
    needed = {ord(c) for c in text if ord(c) > PLAIN}
    if not needed:
        return None
    listed = [(f.name, f.fname) for f in font_manager.fontManager.ttflist]
    found = first_drawing(listed, needed)
    if found:
        return found[0]
    found = first_drawing(unlisted_fonts(), needed)
    if found is None:
        return None
    font_manager.fontManager.addfont(found[1])
    return next(f.name for f in font_manager.fontManager.ttflist if f.fname == found[1])
