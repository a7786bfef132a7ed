"""The CJK font the kit ships: Noto Sans CJK SC, the font file of the pip package
noto-cjk-sans-otc (SIL Open Font License), pinned in requirements.lock. The build draws the
Chinese course's figures with it (build/figures.py) and the outputs draw the report's plots and
embed it in every page they write (outputs/fonts.py, outputs/page_font.py), so a leaf both may
use.
"""

from __future__ import annotations

import functools
import os

PLAIN = 0x2FF  # Latin letters, digits and punctuation: the default font (DejaVu Sans) has them
KIT_FONT = "Noto Sans CJK SC"  # the face for Simplified Chinese in the package's collection


@functools.cache
def characters_of(path):
    from matplotlib import ft2font

    try:
        return frozenset(ft2font.FT2Font(path).get_charmap())
    except (OSError, RuntimeError, ValueError):
        return frozenset()


@functools.cache
def kit_font_file():
    """The kit's own CJK font file, or None when the package that ships it is not installed
    (matplotlib not asked: a page embeds the font without drawing anything)."""
    try:
        from noto_cjk_sans_otc import FONT_PATH
    except ImportError:
        return None
    path = str(FONT_PATH)
    return path if os.path.isfile(path) else None


@functools.cache
def kit_font_path():
    """The kit's own CJK font file, added to matplotlib's list, or None when the package that
    ships it is not installed or its file is not a font."""
    from matplotlib import font_manager

    path = kit_font_file()
    if path is None or not characters_of(path):
        return None
    if not any(f.fname == path for f in font_manager.fontManager.ttflist):
        font_manager.fontManager.addfont(path)  # every face of the collection, by its name
    return path
