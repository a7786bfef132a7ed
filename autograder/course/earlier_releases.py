"""The cells of an assignment's earlier releases (`.kit/released/<id>.json`: for each
grade_id, the digests of the sources it had, its points and its cell types), kept by `build`
as it replaces a release.

A student who fetched the release before a rebuild (a step's points or words changed) hands
in the cells of that release, which are not the release's now. Grading gives them the
release's cells back as it does any changed cell (grading/restore_test_cells.py), but what an
earlier release had (a locked cell's words, a test's points, a test cell that release did not
have yet) is not the student's edit: it is not recorded as tampering, and the report does not
flag it. A course rebuilt before this record was kept, or a release rewritten by nbgrader's
own generate_assignment alone, has no record of it: its cells are judged against the release
as it is now, as before.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import nbformat

from autograder.course.directory import write_atomically
from autograder.plumbing.course_root import KIT_FOLDER

FOLDER = "released"
KINDS = ("sources", "points", "types")


def record_path(root: Path, assignment_id) -> Path:
    return root / KIT_FOLDER / FOLDER / f"{assignment_id}.json"


def source_digest(source) -> str:
    return hashlib.sha256(str(source).encode()).hexdigest()


def remember_release(root: Path, assignment_id):
    """Add the cells of release/<id>/<id>.ipynb as it is now to the record (before a build
    replaces it); nothing when there is no release yet."""
    path = root / "release" / assignment_id / f"{assignment_id}.ipynb"
    try:
        notebook = nbformat.read(path, as_version=4)
    except (OSError, ValueError):
        return
    kept = earlier_cells(root, assignment_id)
    for cell in notebook.cells:
        meta = cell.metadata.get("nbgrader")
        if isinstance(meta, dict) and isinstance(meta.get("grade_id"), str):
            known = kept.setdefault(meta["grade_id"], {kind: [] for kind in KINDS})
            for kind, value in (("sources", source_digest(cell.source)),
                                ("points", meta.get("points")), ("types", cell.cell_type)):
                if value not in known[kind]:
                    known[kind].append(value)
    write_atomically(record_path(root, assignment_id),
                     json.dumps(kept, indent=1, sort_keys=True))


def earlier_cells(root: Path, assignment_id) -> dict:
    """{grade_id: {"sources": [digest, ...], "points": [...], "types": [...]}} of the earlier
    releases; {} without a record."""
    try:
        data = json.loads(record_path(root, assignment_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {name: {kind: list(entry.get(kind, [])) for kind in KINDS}
            for name, entry in data.items() if isinstance(entry, dict)}


def released_before(earlier, grade_id, kind, value) -> bool:
    """Whether an earlier release gave cell `grade_id` this `kind` of value (its source,
    points or cell type)."""
    if kind == "sources":
        value = source_digest(value)
    return value in earlier.get(grade_id, {}).get(kind, ())
