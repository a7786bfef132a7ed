"""Build a course: assignments/<id>/ -> source/<id>/<id>.ipynb -> release/<id>/.

The master notebook is rendered by the kit from the assignment's folder, in the course's
language; the student version is made by nbgrader's own `generate_assignment`, run in a
scratch course directory so that building leaves no gradebook behind. Before anything is
written, the build proves the assignment (build/proof.py): every test cell names a step with
hidden checks, the checks pass the reference and draw fresh inputs, and the reference passes
the public tests in a fresh kernel. source/ and release/ are then replaced whole, never half.

Imports checks, course, i18n and plumbing.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import nbformat

from autograder.build.authoring import read_assignment
from autograder.build.english_left import LANGUAGE_NAMES, RUN, WHOLE, english_left
from autograder.build.proof import prove
from autograder.build.render import render
from autograder.build.standalone import (
    HELPERS_FILE,
    SELF_CHECK,
    self_check_script,
    unpacked_helpers,
)
from autograder.checks.loader import GUIDE, Assignment, assignment_ids, load_assignment
from autograder.course.config_file import course_config
from autograder.course.directory import (
    HELPER_CELL,
    check_ids,
    copy_config,
    course_language,
    run_nbgrader,
    write_atomically,
)
from autograder.course.earlier_releases import remember_release
from autograder.course.gradebook_guard import check_gradebook
from autograder.course.ids import lost_notebook, without_notebook
from autograder.course.kit_update import backup_folder
from autograder.course.ledger import digest
from autograder.course.time_limits import cell_seconds
from autograder.i18n import t
from autograder.plumbing.course_root import KIT_FOLDER
from autograder.plumbing.errors import KitError


class BuildError(KitError, RuntimeError):
    """A build that could not finish; the message names what failed and how to fix it."""


def master_notebook(root: Path, assignment_id: str, language=None):
    """The master notebook of the course's assignment, in `language` (the course's when
    None)."""
    assignment = load_assignment(root, assignment_id)
    return render(read_assignment(assignment.notebook), assignment,
                  language or course_language(root))


def write_notebook(notebook, path: Path):
    """Write atomically: a reader sees the old notebook or the new one, never a torn file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, nbformat.writes(notebook) + "\n")  # as nbformat.write ends it


def write_source(folder: Path, assignment_id, notebook, language, cell_limit):
    """`folder`/<id>/: the master notebook, and beside it the students' self-check script
    (telling `cell_limit`, the seconds grading gives a cell) and the helper cell's code,
    readable (nbgrader's generate_assignment copies all three into the release)."""
    write_notebook(notebook, folder / assignment_id / f"{assignment_id}.ipynb")
    write_atomically(folder / assignment_id / SELF_CHECK.name,
                     self_check_script(language, cell_limit) + "\n")
    write_atomically(folder / assignment_id / HELPERS_FILE, helpers_of(notebook))


def helpers_of(notebook) -> str:
    """The code the notebook's helper cell runs, as it unpacks it."""
    helper = next(cell for cell in notebook.cells
                  if cell.metadata.get("nbgrader", {}).get("grade_id") == HELPER_CELL)
    return unpacked_helpers(helper.source)


def replace_folder(staged: Path, target: Path):
    """Put the finished folder `staged` at `target`, replacing what was there."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    shutil.copytree(staged, partial)
    shutil.rmtree(target, ignore_errors=True)
    partial.replace(target)


NOT_CARRIED = {"__pycache__", ".ipynb_checkpoints"}


def carry_over(old: Path, new: Path):
    """Copy into `new` every file of `old` that `new` lacks (a data file the instructor put
    in source/<id>/ or release/<id>/: the build replaces those folders, and must lose none of
    theirs); symbolic links stay links."""
    for folder, subfolders, files in os.walk(old):
        subfolders[:] = [name for name in subfolders if name not in NOT_CARRIED]
        for name in files:
            path = Path(folder) / name
            target = new / path.relative_to(old)
            if target.exists() or target.is_symlink():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if path.is_symlink():
                os.symlink(os.readlink(path), target)
            else:
                shutil.copy2(path, target)


def build_assignment(root: Path, assignment: Assignment, language, log=print):
    """Render, release and prove one assignment in a scratch course with `root`'s config,
    then replace root's source/<id>/ and release/<id>/ with what was proven. Files of the
    instructor's own in them are carried over: those of source/<id>/ into the release too, as
    nbgrader releases them. English its strings cells left in the code is said."""
    specs = read_assignment(assignment.notebook)
    notebook = render(specs, assignment, language)
    for left in english_left(specs, assignment, language):
        log(english_warning(left, language))
    with tempfile.TemporaryDirectory(prefix="kit-build-") as scratch:
        course = Path(scratch)
        copy_config(root, course)
        write_source(course / "source", assignment.id, notebook, language,
                     cell_seconds(course_config(root)))
        carry_over(root / "source" / assignment.id, course / "source" / assignment.id)
        run_nbgrader(course, "generate_assignment", assignment.id, "--force")
        carry_over(root / "release" / assignment.id, course / "release" / assignment.id)
        prove(assignment, specs, notebook, course / "release" / assignment.id, language)
        keep_hand_edits(root, assignment.id, log)
        remember_release(root, assignment.id)  # students may hand in its cells
        replace_folder(course / "source" / assignment.id, root / "source" / assignment.id)
        replace_folder(course / "release" / assignment.id, root / "release" / assignment.id)
        record_built(root, assignment.id)


BUILT = "built.json"  # in the course's .kit/: {path: sha256} of the notebooks build wrote last


def built_notebooks(root: Path, assignment_id) -> list[Path]:
    """The notebooks build writes for an assignment, in source/ and release/."""
    return [root / stage / assignment_id / f"{assignment_id}.ipynb"
            for stage in ("source", "release")]


def read_built(root: Path) -> dict:
    try:
        record = json.loads((root / KIT_FOLDER / BUILT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def keep_hand_edits(root: Path, assignment_id, log):
    """A notebook of source/ or release/ changed since build wrote it (nbgrader's users edit
    source/) is copied to .kit/replaced/ before the build replaces it, and said; one build
    has no record of (a course built before the record) is replaced as before."""
    record, backup = read_built(root), None
    for path in built_notebooks(root, assignment_id):
        relative = path.relative_to(root).as_posix()
        if path.is_file() and relative in record and digest(path) != record[relative]:
            backup = backup or backup_folder(root)
            kept = backup / relative
            kept.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, kept)
            log(t("warning: {path} was changed since build wrote it; build writes it anew from "
                  "assignments/{id}/ (write changes there), and keeps yours in {kept}",
                  path=path, id=assignment_id, kept=kept))


def record_built(root: Path, assignment_id):
    """The notebooks just written, as keep_hand_edits reads them at the next build."""
    record = read_built(root)
    record.update({path.relative_to(root).as_posix(): digest(path)
                   for path in built_notebooks(root, assignment_id) if path.is_file()})
    (root / KIT_FOLDER).mkdir(exist_ok=True)
    write_atomically(root / KIT_FOLDER / BUILT, json.dumps(record, indent=1, sort_keys=True))


def english_warning(left, language) -> str:
    """The warning of English `left` in the notebook in `language` (english_left.py)."""
    name = t(LANGUAGE_NAMES[language])
    if left.twin == RUN:
        return t("warning: {path}:{line}: {words!r} stays English in this `# %% [markdown "
                 "{code}]` twin: write it in {language}, or quote it (“...”, 《...》 or `...`) "
                 "if it is a title or a text kept in English", path=left.path, line=left.line,
                 words=left.words, code=language, language=name)
    if left.twin == WHOLE:
        return t("warning: {path}:{line}: this `# %% [markdown {code}]` cell, the twin of the "
                 "markdown cell above it, holds no {language} ({words!r} ...): write it in "
                 "{language}", path=left.path,
                 line=left.line, code=language, language=name, words=left.words)
    return t("warning: {path}:{line}: {words!r} stays English in the {language} notebook: "
             "translate it in its cell's `# %% strings {code}` (a key holding these words), "
             "or map it to itself there if it is data kept in English", path=left.path,
             line=left.line, words=left.words, language=name, code=language)


def build(root: Path, ids=(), log=print):
    """Build the given assignments of the course at `root` (all when none is given, each
    folder that lost its notebook.py said after them), in the course's language; return
    their ids."""
    known = assignment_ids(root)
    if not known:
        raise BuildError(t("{folder} holds no assignment: write one with `python -m "
                           "autograder new ID` ({guide})", folder=root / "assignments",
                           guide=t(GUIDE)))
    lost = without_notebook(root / "assignments")
    every = not ids
    ids = check_ids(ids, known, lost)
    language = course_language(root)
    check_gradebook(root, complete=False)  # one line, before anything is written, if it fails
    for number, assignment_id in enumerate(ids, 1):
        log(t("[{number}/{count}] building {id} ...", number=number, count=len(ids),
              id=assignment_id))
        build_assignment(root, load_assignment(root, assignment_id), language, log)
        log(t("[{number}/{count}] built {id}: source/{id}/ and release/{id}/", number=number,
              count=len(ids), id=assignment_id))
        changed = changed_in_gradebook(root, assignment_id)
        if changed:
            log(t("the gradebook recorded an earlier release of {id} (cells {cells} differ): "
                  "grade holds its notebooks back until you record this one with `nbgrader "
                  "generate_assignment {id} --force` (then `grade --force` regrades those "
                  "graded before)", id=assignment_id, cells=", ".join(changed)))
    for lost_id in lost if every else ():  # not built: said last, to be seen
        log(t("warning: {message}", message=lost_notebook(lost_id)))
    return ids


def changed_in_gradebook(root: Path, assignment_id):
    """The cells of the assignment's new release that the course's gradebook recorded
    otherwise ([] where it has no gradebook yet, or one without nbgrader's tables: none is
    made here)."""
    from autograder.course.config_file import db_url, sqlite_file
    from autograder.course.gradebook_guard import has_tables
    from autograder.course.release_checksums import changed_since_recorded

    url = db_url(root)
    gradebook = sqlite_file(url)
    if gradebook is not None and not gradebook.exists() or not has_tables(url):
        return []
    return changed_since_recorded(root, assignment_id)
