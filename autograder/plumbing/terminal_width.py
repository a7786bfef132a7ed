"""How many columns a text takes in a terminal, for the kit's console lines and tables: a
Chinese character (East Asian wide or full-width) takes two."""

from __future__ import annotations

import unicodedata


def wide(char):
    """Whether a character takes two columns (East Asian wide or full-width)."""
    return unicodedata.east_asian_width(char) in "WF"


def display_width(text):
    """Columns `text` takes in a terminal."""
    return sum(2 if wide(c) else 1 for c in text)
