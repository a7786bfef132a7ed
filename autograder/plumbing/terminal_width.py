"""How many columns a text takes in a terminal, for the kit's console lines and tables: a
Chinese character (East Asian wide or full-width) takes two."""

from __future__ import annotations

import unicodedata


def display_width(text):
    """Columns `text` takes in a terminal."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
