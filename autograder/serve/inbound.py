"""What students handed in through nbgrader's exchange: its inbound folder, read as nbgrader's
collect reads it (a folder `student+assignment+timestamp+random` per submission)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from nbgrader.utils import parse_utc


@dataclass(frozen=True)
class HandedIn:
    name: str  # the inbound folder's name: one submission, never reused
    student: str
    assignment: str
    timestamp: object  # datetime, UTC, as nbgrader parses it


def inbound_folder(config) -> Path | None:
    """The course's inbound folder (c.Exchange.root / course_id / inbound), None when the
    course has no exchange configured."""
    root = config.Exchange.get("root", "")
    course_id = config.CourseDirectory.get("course_id", "")
    if not root or not course_id:
        return None
    return Path(root) / course_id / "inbound"


def handed_in(inbound: Path, assignments) -> list[HandedIn]:
    """The submissions in `inbound` of the given assignments, oldest first (a name that is
    not nbgrader's is passed over: collect would refuse it too)."""
    found = []
    for path in inbound.iterdir() if inbound.is_dir() else ():
        parts = path.name.rsplit("+", 3)
        if len(parts) != 4 or parts[1] not in assignments:
            continue
        try:
            timestamp = parse_utc(parts[2])
        except ValueError:
            continue
        found.append(HandedIn(path.name, parts[0], parts[1], timestamp))
    return sorted(found, key=lambda h: (h.timestamp, h.name))
