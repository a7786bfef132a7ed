"""Build the course: assignments/<id>.py -> source/<id>/<id>.ipynb -> release/<id>/.

The master notebook is rendered by the kit; the student version is made by nbgrader's own
`generate_assignment`, run in a scratch course directory so that building leaves no
gradebook behind. Every write replaces a finished file, never half of one.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import nbformat

from autograder.build.authoring import read_assignment
from autograder.build.render import render
from autograder.build.standalone import SELF_CHECK, self_check_script
from autograder.course import CONFIG, check_ids, run_nbgrader, write_atomically
from autograder.errors import KitError
from autograder.i18n import DEFAULT

# The students' self-check, a standalone script (only Jupyter needed), copied beside every
# notebook: `python check_notebook.py <id>.ipynb` exits 1 naming each failing cell.


class BuildError(KitError, RuntimeError):
    """A build that could not finish; the message names what failed and how to fix it."""


def assignment_ids(root: Path) -> list[str]:
    return sorted(p.stem for p in (root / "assignments").glob("[0-9][0-9]_*.py"))


def master_notebook(root: Path, assignment_id: str, language=DEFAULT):
    return render(read_assignment(root / "assignments" / f"{assignment_id}.py"), assignment_id,
                  language)


def write_notebook(notebook, path: Path):
    """Write atomically: a reader sees the old notebook or the new one, never a torn file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, nbformat.writes(notebook) + "\n")  # as nbformat.write ends it


def build_source(root: Path, assignment_id: str, course: Path | None = None,
                 language=DEFAULT) -> Path:
    """`course`/source/<id>/ (the project's own by default): the master notebook in the
    language, and the students' self-check script beside it (nbgrader's generate_assignment
    copies both into the release)."""
    path = (course or root) / "source" / assignment_id / f"{assignment_id}.ipynb"
    write_notebook(master_notebook(root, assignment_id, language), path)
    write_atomically(path.with_name(SELF_CHECK.name), self_check_script(language) + "\n")
    return path


def generate_release(root: Path, assignment_id: str, into: Path) -> Path:
    """Run nbgrader generate_assignment on `root`/source/<id> with `root`'s config in a
    scratch course; copy its release to `into`/<id>."""
    with tempfile.TemporaryDirectory(prefix="kit-build-") as scratch:
        course = Path(scratch)
        shutil.copy(root / CONFIG, course / CONFIG)
        shutil.copytree(root / "source" / assignment_id, course / "source" / assignment_id)
        run_nbgrader(course, "generate_assignment", assignment_id, "--force")
        target = into / assignment_id
        staged = into / f".{assignment_id}.partial"
        shutil.rmtree(staged, ignore_errors=True)
        shutil.copytree(course / "release" / assignment_id, staged)
        shutil.rmtree(target, ignore_errors=True)
        staged.replace(target)
        return target


def build(root: Path, ids=(), log=print):
    """Build the given assignments (all when none given) of the project's own course, in
    English; return their ids."""
    ids = check_ids(ids, assignment_ids(root))
    for assignment_id in ids:
        build_source(root, assignment_id)
        generate_release(root, assignment_id, root / "release")
        log(f"built {assignment_id}: source/{assignment_id}/ and release/{assignment_id}/")
    return ids
