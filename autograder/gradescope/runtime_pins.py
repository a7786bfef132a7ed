"""The pins a Gradescope image installs from a checkout: of the versions its lock pins, only
the distributions the kit needs to run, as the installed metadata tells them: the kit's own
requirements and theirs, with the extras each asks for. The development tools the lock also
pins (pytest, selenium, mkdocs, ruff) and what only a course's own machine uses (PostgreSQL's
driver, SLURM's jobqueue) stay out of the image."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name


def kit_requirements(distribution: str, checkout: Path | None) -> list[str]:
    """The kit's own requirements: its installed metadata's, else its checkout's
    pyproject.toml (the kit run from a folder it was not installed from)."""
    try:
        return list(importlib.metadata.requires(distribution) or [])
    except importlib.metadata.PackageNotFoundError:
        if checkout is None:
            return []
        with open(checkout / "pyproject.toml", "rb") as file:
            return list(tomllib.load(file)["project"]["dependencies"])


def applies(requirement: Requirement, extra: str) -> bool:
    """Whether a requirement holds here, asked for with `extra` ("" for none)."""
    return requirement.marker is None or requirement.marker.evaluate({"extra": extra})


def needed(requirements) -> set[str]:
    """The canonical names of `requirements` and of everything they need in turn, as far as
    this environment's metadata tells (a distribution not installed here ends its branch)."""
    names, seen = set(), set()
    todo = [(text, "") for text in requirements]
    while todo:
        text, extra = todo.pop()
        try:
            requirement = Requirement(text)
        except InvalidRequirement:
            continue
        if not applies(requirement, extra):
            continue
        name = canonicalize_name(requirement.name)
        names.add(name)
        for asked in {"", *requirement.extras}:
            if (name, asked) in seen:
                continue
            seen.add((name, asked))
            try:
                own = importlib.metadata.requires(requirement.name) or []
            except importlib.metadata.PackageNotFoundError:
                break
            todo += [(child, asked) for child in own]
    return names


def runtime_pins(pins: str, distribution: str, checkout: Path | None) -> str:
    """The lines of `pins` (name==version, one a line) that name a distribution the kit
    needs to run."""
    keep = needed(kit_requirements(distribution, checkout))
    return "".join(line + "\n" for line in pins.splitlines()
                   if canonicalize_name(line.split("==")[0].strip()) in keep)
