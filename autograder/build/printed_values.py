"""The values the source documents print, written into the notebooks' code at build time.

A code cell of assignments/<id>/notebook.py writes `{{documents.NAME}}` where a notebook shows
what a document printed; the build puts there the Python literal of NAME in the assignment's
documents.py (else the course's assignments/documents.py), the one home of those values (the
hidden checks compare with the same constants). A
tensor becomes nested lists of its numbers, each written with the fewest digits that give
back the same float32 (the digits the document printed), wrapped to the line width.
"""

from __future__ import annotations

import re

import numpy as np
import torch

from autograder.build.authoring import AuthoringError
from autograder.i18n import t

PLACEHOLDER = re.compile(r"\{\{documents\.(\w+)\}\}")
WIDTH = 99  # the longest line a literal may make, as ruff's limit for the kit's code


def number(value) -> str:
    if isinstance(value, float):
        return str(np.float32(value))  # the shortest text that reads back as this float32
    return str(value)


def plain(value):
    """A tensor as nested lists of Python numbers; anything else as it is."""
    return value.tolist() if isinstance(value, torch.Tensor) else value


def one_line(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(one_line(item) for item in value) + "]"
    return number(value) if isinstance(value, (int, float)) else repr(value)


def literal(value, column) -> str:
    """`value`'s Python literal, starting at `column`: on one line when it fits, else one
    item (or entry) per line, a list of numbers wrapped, aligned after the opening bracket."""
    text = one_line(value)
    if column + len(text) <= WIDTH or not isinstance(value, (list, dict)):
        return text
    if isinstance(value, dict):
        return "{" + (",\n" + " " * (column + 1)).join(f"{key!r}: {item!r}"
                                                     for key, item in value.items()) + "}"
    if not any(isinstance(item, list) for item in value):
        return wrapped_numbers([number(item) for item in value], column)
    inner = column + 1
    return "[" + (",\n" + " " * inner).join(literal(item, inner) for item in value) + "]"


def wrapped_numbers(items, column) -> str:
    lines, line = [], ""
    for item in items:
        piece = item if not line else ", " + item
        if line and column + 1 + len(line) + len(piece) + 3 > WIDTH:  # room for "]),"
            lines.append(line + ",")
            line = item
        else:
            line += piece
    lines.append(line)
    return "[" + ("\n" + " " * (column + 1)).join(lines) + "]"


def value_of(name, assignment):
    documents = assignment.module("documents")
    if documents is None or not hasattr(documents, name):
        raise AuthoringError(t("{path}: {{{{documents.{name}}}}} names no value: neither "
                               "{documents} nor the course's assignments/documents.py defines "
                               "it; name one of their constants", path=assignment.notebook,
                               name=name, documents=assignment.folder / "documents.py"))
    return plain(getattr(documents, name))


def with_printed_values(code: str, assignment) -> str:
    """`code` with each `{{documents.NAME}}` replaced by NAME's literal (one per line)."""
    lines = []
    for line in code.split("\n"):
        found = list(PLACEHOLDER.finditer(line))
        if len(found) > 1:
            raise AuthoringError(t("{path}: {line!r}: one {{{{documents.NAME}}}} per line, so "
                                   "that a long value can be wrapped; put the others on lines "
                                   "of their own", path=assignment.notebook,
                                   line=line.strip()))
        if found:
            match = found[0]
            value = literal(value_of(match[1], assignment), match.start())
            line = line[:match.start()] + value + line[match.end():]
        lines.append(line)
    return "\n".join(lines)
