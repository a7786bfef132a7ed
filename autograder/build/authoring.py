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

A solution cell has no body in the file: its code lives only in `solutions/`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from autograder.errors import KitError

KINDS = ("markdown", "setup", "checks", "given", "solution", "tests", "code")
MARKER = re.compile(r"^# %%(?: \[(markdown)\]| (\w+))?(.*)$")


class AuthoringError(KitError, ValueError):
    """An authoring file that cannot be read; the message names the file, line and fix."""


@dataclass(frozen=True)
class CellSpec:
    kind: str
    text: str
    names: tuple[str, ...] = ()
    points: int = 0
    line: int = 0


def read_assignment(path: Path) -> list[CellSpec]:
    """The cells of one authoring file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("# %%")]
    if not starts or any(line.strip() for line in lines[: starts[0]]):
        raise AuthoringError(f"{path}:1: the file must start with a '# %% ...' cell marker")
    cells = []
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        cells.append(parse_cell(path, start + 1, lines[start], lines[start + 1 : end]))
    return cells


def parse_cell(path, number, marker, body):
    match = MARKER.match(marker)
    kind = (match.group(1) or match.group(2)) if match else None
    if kind not in KINDS:
        markers = ", ".join("# %% [markdown]" if k == "markdown" else f"# %% {k}" for k in KINDS)
        raise AuthoringError(
            f"{path}:{number}: unknown cell marker {marker!r}; use one of {markers}"
        )
    words = match.group(3).split()
    names = tuple(w for w in words if "=" not in w)
    options = dict(w.split("=", 1) for w in words if "=" in w)
    text = "\n".join(body).strip("\n")
    if kind == "markdown":
        text = "\n".join(strip_comment(path, number + 1 + i, line) for i, line in enumerate(body))
        text = text.strip("\n")
    if kind in ("given", "solution", "tests") and not names:
        raise AuthoringError(f"{path}:{number}: '# %% {kind}' needs the name(s) it is about")
    if kind == "solution" and text:
        raise AuthoringError(
            f"{path}:{number}: a solution cell takes its code from solutions/; "
            "leave its body empty"
        )
    points = 0
    if kind == "tests":
        if len(names) != 1 or "points" not in options or not options["points"].isdigit():
            raise AuthoringError(f"{path}:{number}: write '# %% tests NAME points=N'")
        points = int(options["points"])
    return CellSpec(kind, text, names, points, number)


def strip_comment(path, number, line):
    if line == "#":
        return ""
    if not line.startswith("# "):
        if not line.strip():
            return ""
        raise AuthoringError(f"{path}:{number}: a markdown line must start with '# '")
    return line[2:]
