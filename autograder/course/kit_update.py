"""`python -m autograder update [ID ...] [--apply] [--take PATH ...]`: the kit's newer files of
its assignments, brought into a course that init made from them.

init copies the kit's assignments into the course, which owns them from then on, and records
in .kit/from-kit.json a digest of every file it copied. When a later kit mends one of them (a
rule a student got round, a hidden case more), the course keeps its own copy until `update`.
update compares each file of the kit's assignments the course took from it with the kit's own
and gives each a state (`States`), told from three digests: the course's file, the kit's, and
the one the record holds. A course made before the record has none; there a file that is one
of the versions the kit's history holds (PAST, beside the kit's assignments, written by
autograder/course/kit_history.py) is still as an older kit wrote it.

With --apply it takes the files newer or new in the kit (TAKEN_ALONE). A file the course
changed that the kit mended too, or one the record cannot tell, is taken only when named with
--take (ASKED: --apply then exits 1 while such a file stays the course's); a file only the
course changed, or deleted, is said and left. Nothing is lost: every file replaced is kept
first under .kit/replaced/TIME/, at its path in the course. The record then holds the kit's
digest of each file taken, and of each found the same as the kit's. A notebook's text that
changed needs its release built again (`build ID`); update names those assignments, and
`validate` to run after.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import attention_course

from autograder.checks.loader import ids_in
from autograder.course.ledger import FOLDER
from autograder.i18n import counted, t
from autograder.plumbing.errors import KitError
from autograder.plumbing.kit_command import kit_command

KIT_COURSE = Path(attention_course.__file__).resolve().parent  # the kit's own assignments/

PAST = "past_versions.json"  # in the kit's assignments/: {"files": {path: [sha256, ...]}}
RECORD = "from-kit.json"  # in the course's .kit/: {"files": {path: sha256 of what init copied}}
REPLACED = "replaced"  # in the course's .kit/: the files update replaced, one folder a run
ASSIGNMENTS = "assignments"
GRADING_ONLY = ("checks.py", "probes.py", "reference.py")  # files no release shows


class UpdateError(KitError):
    """update cannot compare or take what it was asked; the message says why and the fix."""


class States:
    """What update finds of one file (what is printed is t() of each)."""
    SAME = "the same as the kit's"
    NEWER = "newer in the kit"
    ADDED = "new in the kit"
    YOURS = "changed in the course (the kit's is as init copied it)"
    BOTH = "changed in the course, and mended in the kit since init copied it"
    DELETED = "deleted in the course"
    UNKNOWN = "not the kit's (no record says what init copied, and no kit had it so)"
    ABSENT = "not in the course (no record says whether init copied it)"


TAKEN_ALONE = (States.NEWER, States.ADDED)  # what --apply takes without --take
ASKED = (States.BOTH, States.UNKNOWN, States.ABSENT)  # taken with --take, else exit 1
SAID = (States.YOURS, States.DELETED)  # left as they are


@dataclass(frozen=True)
class FileState:
    path: str  # relative to the course root, as update lists it: assignments/06_x/checks.py
    state: str  # a States value


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def kit_files(kit: Path, ids) -> list[str]:
    """The files of the kit's assignments `ids` and the modules they share (none when `ids`
    is empty), as paths in a course (assignments/...), as copy_assignments copies them."""
    if not ids:
        return []
    shared = [f"{ASSIGNMENTS}/{path.name}" for path in sorted(kit.iterdir())
              if path.is_file() and path.suffix == ".py"]
    own = [f"{ASSIGNMENTS}/{path.relative_to(kit).as_posix()}" for assignment_id in ids
           for path in sorted((kit / assignment_id).rglob("*"))
           if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"]
    return shared + own


def past_versions(kit: Path) -> dict[str, frozenset[str]]:
    """The digests of every version of each of the kit's files its history holds, by path as
    a course has it (none for a kit without the table: a copy of the kit's assignments)."""
    path = Path(kit) / PAST
    try:
        files = json.loads(path.read_text(encoding="utf-8"))["files"]
        return {name: frozenset(digests) for name, digests in files.items()}
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise UpdateError(t("the kit's {path} cannot be read ({error}): install the kit "
                            "again", path=path, error=error)) from None


def record_path(root: Path) -> Path:
    return Path(root) / FOLDER / RECORD


def read_record(root: Path) -> dict[str, str] | None:
    """The digests init recorded, by path; None for a course made before the record."""
    try:
        files = json.loads(record_path(root).read_text(encoding="utf-8"))["files"]
        if not (isinstance(files, dict) and all(isinstance(path, str) and isinstance(value, str)
                                                for path, value in files.items())):
            raise ValueError("not a table of paths and digests")
        return files
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise UpdateError(t("{path} cannot be read ({error}): it records which files init "
                            "copied from the kit; move it away to compare without it (every "
                            "file that differs is then yours to take or keep)",
                            path=record_path(root), error=error)) from None


def write_record(root: Path, files: dict[str, str]) -> None:
    """The record, written whole (a partial file moved into place)."""
    path = record_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{RECORD}.partial")
    try:
        partial.write_text(json.dumps({"files": dict(sorted(files.items()))}, indent=1) + "\n",
                           encoding="utf-8")
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


def record_copied(root: Path, kit: Path, ids) -> None:
    """init's part: the digest of every file it copied from the kit."""
    write_record(root, {path: digest(Path(root) / path) for path in kit_files(kit, ids)})


def state_of(theirs: Path, ours: Path, recorded: str | None, has_record: bool,
             past=frozenset()) -> str:
    """The state of the course's file `theirs` against the kit's `ours`, from the digest
    the record holds of it (`recorded`; `has_record`: the course has a record at all) and
    those of the kit's past versions of it (`past`)."""
    if not theirs.exists():
        if not has_record:
            return States.ABSENT
        return States.DELETED if recorded else States.ADDED
    mine, kits = digest(theirs), digest(ours)
    if mine == kits:
        return States.SAME
    if recorded is None:
        return States.NEWER if mine in past else States.UNKNOWN
    if recorded == mine:
        return States.NEWER
    return States.YOURS if recorded == kits else States.BOTH


def states(root: Path, kit: Path, ids) -> list[FileState]:
    """The state of each file of the kit's assignments `ids` in the course at `root`."""
    recorded, past = read_record(root), past_versions(kit)
    table = recorded or {}
    return [FileState(path, state_of(Path(root) / path, kit / Path(path).relative_to(ASSIGNMENTS),
                                     table.get(path), recorded is not None,
                                     past.get(path, frozenset())))
            for path in kit_files(kit, ids)]


def taken_from_kit(root: Path, kit: Path) -> list[str]:
    """The kit's assignments the course holds and took from it: with a record, those it
    records a file of (an assignment of the instructor's named as one of the kit's is not);
    without one, every kit's id the course holds."""
    both = sorted(set(ids_in(Path(root) / ASSIGNMENTS)) & set(ids_in(kit)))
    recorded = read_record(root)
    if recorded is None:
        return both
    return [i for i in both if any(p.startswith(f"{ASSIGNMENTS}/{i}/") for p in recorded)]


def course_kit_ids(root: Path, kit: Path, ids) -> list[str]:
    """The assignments to compare: `ids` (each once), each one the course took from the kit;
    else every such one."""
    ours, taken = set(ids_in(kit)), taken_from_kit(root, kit)
    ids = list(dict.fromkeys(ids))
    for assignment_id in ids:
        if assignment_id not in ours:
            raise UpdateError(t("{id} is not one of the kit's assignments: update brings only "
                                "the kit's files (the kit's: {ids})", id=assignment_id,
                                ids=t(", ").join(sorted(ours))))
        if assignment_id not in taken:
            raise UpdateError(t("the course did not take {id} from the kit (it has no {id}, or "
                                "one of its own: init's record holds none of its files); to "
                                "add the kit's, make a course with it (`{kit} init DIR {id}`) "
                                "and copy its assignments/{id}/ folder", id=assignment_id,
                                kit=kit_command()))
    return ids or taken


def typed_paths(root: Path, take) -> list[str]:
    """The --take paths as update lists them (relative to the course root), whether typed
    so, from a subfolder, with ./, or absolute: each once."""
    base = Path(root).resolve()
    paths = []
    for typed in take:
        where = (Path.cwd() / typed).resolve()
        try:
            paths.append(where.relative_to(base).as_posix())
        except ValueError:
            raise UpdateError(t("--take {path}: not in the course {root}", path=typed,
                                root=root)) from None
    return list(dict.fromkeys(paths))


def update(root: Path, kit: Path, ids=(), apply=False, take=(), log=print) -> int:
    """Say each file's state; with `apply`, take the kit's newer and new files and those in
    `take`. 0, or 1 when files that need a decision stay the course's (said, with how)."""
    root = Path(root)
    ids = course_kit_ids(root, kit, ids)
    if not ids:
        log(t("the course holds none of the kit's assignments: nothing to compare"))
        return 0
    found = states(root, kit, ids)
    take = typed_paths(root, take)
    listed = {f.path for f in found}
    outside = [path for path in take if path not in listed]
    if outside:
        raise UpdateError(t("--take {path}: not a file of the kit's assignments {ids} (give it "
                            "as update lists it, such as assignments/{id}/checks.py)",
                            path=outside[0], ids=t(", ").join(ids), id=ids[0]))
    for state in found:
        if state.state != States.SAME:
            log(t("  {state}: {path}", state=t(state.state), path=state.path))
        if state.state in (States.YOURS, States.BOTH, States.UNKNOWN):
            log(t("    compare: diff {path} {kit}", path=root.resolve() / state.path,
                  kit=kit / Path(state.path).relative_to(ASSIGNMENTS)))
    chosen = [f for f in found if f.state in TAKEN_ALONE or
              (f.path in take and f.state != States.SAME)]
    kept = [f for f in found if f.state in ASKED and f not in chosen]
    if not apply:
        log(summary(found, chosen, kept, ids))
        return 0
    taken = take_files(root, kit, chosen, log)
    same = {f.path for f in found if f.state == States.SAME}
    write_record(root, {**(read_record(root) or {}),
                        **{path: digest(root / path) for path in same}})  # now known the kit's
    log(after_taking(taken, kept, affected(taken, taken_from_kit(root, kit))))
    return 1 if kept else 0


def affected(taken, course_ids) -> tuple[list[str], list[str]]:
    """(the assignments whose files were taken, those whose notebooks changed): a shared
    module taken touches every assignment the course took from the kit."""
    parts = [Path(path).parts for path in taken]
    shared = any(len(p) == 2 for p in parts)
    graded = sorted({p[1] for p in parts if len(p) > 2} | (set(course_ids) if shared else set()))
    shown = sorted({p[1] for p in parts if len(p) > 2 and p[-1] not in GRADING_ONLY}
                   | (set(course_ids) if shared else set()))
    return graded, shown


def summary(found, chosen, kept, ids) -> str:
    """What a dry run found and what --apply would do."""
    same = sum(f.state == States.SAME for f in found)
    lines = [t("{ids}: {same} of {count} files the same as the kit's", ids=t(", ").join(ids),
               same=same, count=len(found))]
    if chosen:
        lines.append(counted(len(chosen), "{count} file would be taken from the kit: run "
                             "update again with --apply (each file replaced is kept first "
                             "in .kit/replaced/)", "{count} files would be taken from the "
                             "kit: run update again with --apply (each file replaced is kept "
                             "first in .kit/replaced/)"))
    if kept:
        lines.append(kept_line(kept))
    return "\n".join(lines)


def kept_line(kept) -> str:
    return counted(len(kept), "{count} file differs and stays the course's until you name it "
                   "with --take PATH (compare it with the kit's first: yours may hold your own "
                   "changes)", "{count} files differ and stay the course's until you name each "
                   "with --take PATH (compare each with the kit's first: yours may hold your "
                   "own changes)")


def take_files(root: Path, kit: Path, chosen, log) -> list[str]:
    """Each chosen file replaced by the kit's (keeping the course file's mode), the course's
    kept first under .kit/replaced/TIME/ (never written over); the record updated after
    each."""
    if not chosen:
        return []
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    backup = root / FOLDER / REPLACED / stamp
    recorded = read_record(root) or {}
    for state in chosen:
        theirs, ours = root / state.path, kit / Path(state.path).relative_to(ASSIGNMENTS)
        mode = None
        if theirs.exists():
            kept = backup / state.path
            kept.parent.mkdir(parents=True, exist_ok=True)
            if not kept.exists():  # a second copy of one run is the kit's: never over it
                shutil.copy2(theirs, kept)
            mode = theirs.stat().st_mode & 0o777
        theirs.parent.mkdir(parents=True, exist_ok=True)
        partial = theirs.with_name(f".{theirs.name}.partial")
        try:
            shutil.copyfile(ours, partial)
            if mode is not None:
                os.chmod(partial, mode)
            os.replace(partial, theirs)
        finally:
            partial.unlink(missing_ok=True)
        recorded[state.path] = digest(theirs)
        write_record(root, recorded)
        log(t("took the kit's {path}", path=state.path))
    if backup.exists():
        log(t("the course's files it replaced are kept in {folder}", folder=backup))
    return [state.path for state in chosen]


def after_taking(taken, kept, ids) -> str:
    """What to run once files are taken (`ids`: affected's), and what stayed the
    course's."""
    kit = kit_command()
    graded, shown = ids
    lines = [counted(len(taken), "{count} file taken from the kit", "{count} files taken from "
                     "the kit") if taken else t("nothing to take from the kit")]
    if shown:
        lines.append(t("the notebooks of {ids} changed: build them again (`{kit} build {ids}`) "
                       "before releasing; students who fetched them keep the old text, and a "
                       "release the gradebook recorded is then named by grade with how to "
                       "record the new one", ids=" ".join(shown), kit=kit))
    if graded:
        lines.append(t("then prove them: `{kit} validate {ids}`; the hidden checks taken "
                       "apply at the next grade (`{kit} grade --force {ids}` regrades the "
                       "notebooks graded before)", kit=kit, ids=" ".join(graded)))
    if kept:
        lines.append(kept_line(kept))
    return "\n".join(lines)


def newer_in_kit(root: Path, kit: Path, ids) -> str | None:
    """The line grade ends with when update has something to say of the kit's assignments
    among `ids`: files newer or new in the kit, or mended there and changed in the course, or
    a course with no record yet (made by an older kit; one `update --apply` records it); None
    otherwise."""
    if (Path(root) / ASSIGNMENTS).resolve() == kit.resolve():  # the kit's own course
        return None
    try:
        ids = sorted(set(ids) & set(taken_from_kit(root, kit)))
        if not ids:
            return None
        if read_record(root) is None:
            return t("note: this course has no record of the files init copied from the kit "
                     "(made by an older kit), so a later kit's mended checks cannot be told "
                     "from your own changes: `{kit} update` compares them, and `update "
                     "--apply` records them", kit=kit_command())
        newer = [f for f in states(root, kit, ids) if f.state in TAKEN_ALONE + (States.BOTH,)]
    except UpdateError as error:
        return t("warning: {message}", message=error)
    if not newer:
        return None
    return counted(len(newer), "note: the kit has {count} newer file of {ids} (a mended check "
                   "or text) that the course does not: `{kit} update` lists it and how to take "
                   "it", "note: the kit has {count} newer files of {ids} (a mended check or "
                   "text) that the course does not: `{kit} update` lists them and how to take "
                   "them", kit=kit_command(),
                   ids=t(", ").join(sorted({Path(f.path).parts[1] if len(Path(f.path).parts)
                                            > 2 else f.path for f in newer})))
