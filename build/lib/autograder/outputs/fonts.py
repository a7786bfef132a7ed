"""Which font, if any, lets matplotlib draw a text: the report's plots are labelled in Chinese
only where a font has every character, else in English, never with missing glyphs (empty
boxes).

The kit brings its own: Noto Sans CJK SC, the font file of the pip package noto-cjk-sans-otc
(SIL Open Font License), pinned in requirements.lock, so the Chinese report draws the same on
any machine `bash scripts/kit setup` set up, without root or a system font. Where that package
is missing (the kit installed some other way), any font of the machine that has the characters
is used; with none, `missing_font_advice` says what to install.
"""

from __future__ import annotations

import functools
import re

from matplotlib import font_manager

from autograder.i18n import t
from autograder.plumbing.kit_font import KIT_FONT, PLAIN, characters_of, kit_font_path

# Fonts that usually hold Chinese, tried first (any other font that has the characters will do).
LIKELY = re.compile(r"CJK|Han|Hei|Song|Kai|Ming|YaHei|WenQuanYi|Zen|PingFang|Fallback|SC\b",
                    re.IGNORECASE)
# Fonts that claim every character but draw each as a box (macOS's and matplotlib's Last Resort).
PLACEHOLDERS = re.compile(r"Last ?Resort", re.IGNORECASE)


def needs_font(text):
    """Does `text` have characters the default font may lack (Chinese, full-width marks)?"""
    return any(ord(c) > PLAIN for c in text)


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


def missing_font_advice():
    """What to do on a machine where no font draws the course's language."""
    return t("no font on this machine draws Chinese, so the report's charts are labelled in "
             "English: run `bash scripts/kit setup` (it installs the font package "
             "noto-cjk-sans-otc of requirements.lock) or install a CJK font "
             "(apt-get install fonts-wqy-microhei)")


def font_drawing(text):
    """The name of a font that has every character of `text` the default font may lack, or
    None when this machine has none (or nothing needs one): the kit's own first, then the
    machine's. A font matplotlib's list lacks is added to it."""
    needed = {ord(c) for c in text if ord(c) > PLAIN}
    if not needed:
        return None
    kit = kit_font_path()
    if kit is not None and needed <= characters_of(kit):
        return KIT_FONT
    listed = [(f.name, f.fname) for f in font_manager.fontManager.ttflist]
    found = first_drawing(listed, needed)
    if found:
        return found[0]
    found = first_drawing(unlisted_fonts(), needed)
    if found is None:
        return None
    font_manager.fontManager.addfont(found[1])
    return next(f.name for f in font_manager.fontManager.ttflist if f.fname == found[1])
