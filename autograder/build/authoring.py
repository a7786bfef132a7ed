"""Read an assignment's authoring file (assignments/<id>.py) into a list of cell specs.

The file is a Python script cut into cells by marker lines:

    # %% [markdown]              prose; each line starts with "# "
    # %% setup                   read-only code every later cell relies on (imports)
    # %% checks                  read-only: the public tests' helpers (build/public_checks.py)
    # %% given NAME [NAME ...]   read-only code: these helpers' source from `solutions`
    # %% solution NAME [NAME ...]  the students' cell: stubs of these names, with the
                                 reference code from `solutions` as the solution
    # %% tests NAME points=N     a graded cell: the public asserts written below the marker,
                                 then a hidden part that names the step to check
    # %% code                    ordinary code the student may change (a plot, a try-out)

Each text has its translations right after it, so a change to one is made beside the other:

    # %% [markdown zh]           the Chinese twin of the markdown cell above it
    # %% strings zh              a dict literal {"English": "中文"} of exact pieces of the code
                                 cell above it (as rendered: a solution cell's docstrings
                                 too), replaced in the Chinese notebook

A solution cell has no body in the file: its code lives only in `solutions/`. A value a
source document prints is written `{{documents.NAME}}` in a code cell, never typed again: the
build writes there the literal of autograder/checks/documents.py's NAME
(build/printed_values.py).
"""

from __future__ import annotations

import ast
import itertools
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from autograder.i18n import DEFAULT, LANGUAGES, t
from autograder.plumbing.errors import KitError

KINDS = ("markdown", "setup", "checks", "given", "solution", "tests", "code")
CODE_KINDS = KINDS[1:]
MARKER = re.compile(r"^# %%(?: \[(markdown)(?: (\w+))?\]| (\w+))?(.*)$")


class AuthoringError(KitError, ValueError):
    """An authoring file that cannot be read; the message names the file, line and fix."""


@dataclass(frozen=True)
class CellSpec:
    kind: str
    text: str
    names: tuple[str, ...] = ()
    points: int = 0
    line: int = 0
    # language -> the markdown text, or (code cells) the {English: translation} pieces
    translations: dict = field(default_factory=dict)
    body_line: int = 0  # the line of the file where `text` starts
    translation_lines: dict = field(default_factory=dict)  # language -> its marker's line


def read_assignment(path: Path) -> list[CellSpec]:
    """The cells of one authoring file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("# %%")]
    if not starts or any(line.strip() for line in lines[: starts[0]]):
        raise AuthoringError(t("{path}:1: the file must start with a '# %% ...' cell marker",
                               path=path))
    cells = []
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        number, marker, body = start + 1, lines[start], lines[start + 1 : end]
        match = MARKER.match(marker)
        translated = match and (match.group(2) or match.group(3) == "strings")
        if translated:
            cells[-1:] = [attach_translation(path, number, match, body, cells[-1:])]
        else:
            cells.append(parse_cell(path, number, marker, body))
    return cells


def attach_translation(path, number, match, body, previous):
    """The cell above, given the translation that follows it."""
    if match.group(2):  # [markdown LANG]
        code, wanted = match.group(2), "markdown"
        text = "\n".join(strip_comment(path, number + 1 + i, line)
                         for i, line in enumerate(body)).strip("\n")
    else:  # strings LANG
        code, wanted = match.group(4).strip(), "code"
        text = read_strings(path, number, body)
    if code not in LANGUAGES or code == DEFAULT:
        raise AuthoringError(t("{path}:{line}: no course language {code!r}; translations are "
                               "for {codes}", path=path, line=number, code=code,
                               codes=", ".join(k for k in LANGUAGES if k != DEFAULT)))
    above = previous[0] if previous else None
    fits = above is not None and (above.kind == "markdown") == (wanted == "markdown")
    if not fits or code in above.translations:
        raise AuthoringError(
            t("{path}:{line}: a {code} translation belongs right after an English "
              "'# %% [markdown]' cell, once; move it there", path=path, line=number, code=code)
            if wanted == "markdown" else
            t("{path}:{line}: a {code} translation belongs right after a code cell, once; "
              "move it there", path=path, line=number, code=code))
    return replace(above, translations={**above.translations, code: text},
                   translation_lines={**above.translation_lines, code: number})


def read_strings(path, number, body):
    try:
        table = ast.literal_eval("\n".join(body).strip() or "{}")
    except (SyntaxError, ValueError) as error:
        raise AuthoringError(t("{path}:{line}: a strings cell holds one dict literal "
                               "{{\"English\": \"translation\"}}: {problem}", path=path,
                               line=number, problem=error)) from None
    if not isinstance(table, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and k for k, v in table.items()):
        raise AuthoringError(t("{path}:{line}: a strings cell holds one dict literal of "
                               "non-empty strings to strings", path=path, line=number))
    return table


def parse_cell(path, number, marker, body):
    match = MARKER.match(marker)
    kind = (match.group(1) or match.group(3)) if match else None
    if kind not in KINDS:
        markers = ", ".join("# %% [markdown]" if k == "markdown" else f"# %% {k}" for k in KINDS)
        raise AuthoringError(t("{path}:{line}: unknown cell marker {marker!r}; use one of "
                               "{markers}", path=path, line=number, marker=marker,
                               markers=markers))
    words = match.group(4).split()
    names = tuple(w for w in words if "=" not in w)
    options = dict(w.split("=", 1) for w in words if "=" in w)
    text = "\n".join(body).strip("\n")
    if kind == "markdown":
        text = "\n".join(strip_comment(path, number + 1 + i, line) for i, line in enumerate(body))
        text = text.strip("\n")
    if kind in ("given", "solution", "tests") and not names:
        raise AuthoringError(t("{path}:{line}: '# %% {kind}' needs the name(s) it is about",
                               path=path, line=number, kind=kind))
    if kind == "solution" and text:
        raise AuthoringError(t("{path}:{line}: a solution cell takes its code from "
                               "reference.py; leave its body empty", path=path, line=number))
    points = 0
    if kind == "tests":
        if len(names) != 1 or "points" not in options or not options["points"].isdigit():
            raise AuthoringError(t("{path}:{line}: write '# %% tests NAME points=N'",
                                   path=path, line=number))
        points = int(options["points"])
    blank = len(body) - len(list(itertools.dropwhile(lambda line: not line, body)))  # as strip
    return CellSpec(kind, text, names, points, number, body_line=number + 1 + blank)


def strip_comment(path, number, line):
    if line == "#":
        return ""
    if not line.startswith("# "):
        if not line.strip():
            return ""
        raise AuthoringError(t("{path}:{line}: a markdown line must start with '# '",
                               path=path, line=number))
    return line[2:]
