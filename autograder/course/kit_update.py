"""`python -m autograder update [ID ...] [--apply] [--take PATH ...] [--keep PATH ...]`: the
kit's newer files of its assignments, brought into a course that init made from them.

init copies the kit's assignments into the course, which owns them from then on, and records
in .kit/from-kit.json a digest of every file it copied. When a later kit mends one of them (a
rule a student got round, a hidden case more), the course keeps its own copy until `update`.
update compares each file of the kit's assignments the course took from it with the kit's own
and gives each a state (`States`), told from three digests: the course's file, the kit's, and
the one the record holds. A course made before the record has none; there a file that is one
of the versions the kit's history holds (PAST, beside the kit's assignments, written by
autograder/course/kit_history.py) is still as an older kit wrote it. The first --apply in such
a course records every kit assignment it holds (`with_untold`), each file it cannot tell
marked UNTOLD, so that no later run takes one of them for the instructor's own or a new file;
so does the next --apply in a course whose record an earlier kit's update wrote of only the
assignments it compared.

With --apply it takes the files newer or new in the kit (TAKEN_ALONE). A file the course
changed that the kit mended too, or one the record cannot tell, is taken only when named with
--take, or kept as the course's own with --keep (ASKED: --apply exits 1 while such a file is
neither); a file only the course changed, or deleted, is said and left. Nothing is lost: every
file replaced is kept first under .kit/replaced/TIME/, at its path in the course. The record,
written once at the end, then holds the kit's digest of each file taken, found the same as
the kit's, or kept (the course's own against this kit: asked again when the kit mends it). A
notebook's text that changed needs its release built again (`build ID`); update names those
assignments, and `validate` to run after.
"""

from __future__ import annotations

import datetime
import hashlib
import itertools
import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import attention_course

from autograder.checks.loader import CHECKS, REFERENCE, ids_in
from autograder.course.ids import lost_notebook, without_notebook
from autograder.course.ledger import FOLDER
from autograder.i18n import counted, t
from autograder.plumbing.errors import KitError
from autograder.plumbing.kit_command import kit_command

KIT_COURSE = Path(attention_course.__file__).resolve().parent  # the kit's own assignments/

PAST = "past_versions.json"  # in the kit's assignments/: {"files": {path: [sha256, ...]}}
RECORD = "from-kit.json"  # in the course's .kit/: {"files": {path: sha256 of what init copied}}
UNTOLD = "untold"  # a record's value for a file it cannot tell (see with_untold)
REPLACED = "replaced"  # in the course's .kit/: the files update replaced, one folder a run
ASSIGNMENTS = "assignments"
GRADING_ONLY = ("checks.py", "probes.py", "reference.py")  # files no release shows
NEEDED = (CHECKS, REFERENCE)  # an assignment without one of these is neither built nor graded


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
    DELETED_MENDED = "deleted in the course, and mended in the kit since init copied it"
    UNKNOWN = "not the kit's (no record tells what init copied, and no kit had it so)"
    ABSENT = "not in the course (no record tells whether init copied it)"
    LATER = "from a later kit than this one (update it with that kit)"


TAKEN_ALONE = (States.NEWER, States.ADDED)  # what --apply takes without --take
ASKED = (States.BOTH, States.DELETED_MENDED, States.UNKNOWN,
         States.ABSENT)  # --take or --keep, else exit 1
SAID = (States.YOURS, States.DELETED, States.LATER)  # left as they are
MISSING = (States.DELETED, States.DELETED_MENDED, States.ABSENT)  # the course lacks the file


@dataclass(frozen=True)
class Record:
    """What .kit/from-kit.json holds: the digest of each file by path (or UNTOLD), and whether
    it holds every file the course had (`lists_absent`: a file it lacks is then new in the kit;
    init's, and update's since it marks absent files UNTOLD); `kept`: the paths an --apply
    kept as the course's own (--keep), until one is taken."""
    files: dict[str, str]
    lists_absent: bool = True
    kept: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Known:
    """What tells the state of one file beside its digests: the record's digest of it (None:
    none; UNTOLD: it cannot tell), whether the record speaks of its assignment and lists the
    files the course lacked, and the digests of the kit's versions of it (None: no table)."""
    recorded: str | None = None
    has_record: bool = False
    lists_absent: bool = True
    past: frozenset[str] | None = None


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
    return shared + [path for assignment_id in ids for path in own_files(kit, assignment_id)]


def own_files(kit: Path, assignment_id: str) -> list[str]:
    """The files of the kit's assignment, as paths in a course (assignments/ID/...)."""
    return [f"{ASSIGNMENTS}/{path.relative_to(kit).as_posix()}"
            for path in sorted((kit / assignment_id).rglob("*"))
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"]


def past_versions(kit: Path) -> dict[str, frozenset[str]] | None:
    """The digests of every version of each of the kit's files its history holds, by path as
    a course has it; None for a kit without the table (a copy of the kit's assignments, or an
    installation that lost it: update says so where it matters)."""
    path = Path(kit) / PAST
    try:
        files = json.loads(path.read_text(encoding="utf-8"))["files"]
        if not all(isinstance(name, str) and isinstance(digests, list) and
                   all(isinstance(one, str) for one in digests)
                   for name, digests in files.items()):
            raise ValueError("not a table of paths and lists of digests")
        return {name: frozenset(digests) for name, digests in files.items()}
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise UpdateError(t("the kit's {path} cannot be read ({error}): install the kit again "
                            "(`{pip} install --force-reinstall --no-deps` with the wheel or the "
                            "folder you installed it from)", path=path, error=error,
                            pip=pip_command())) from None


def pip_command() -> str:
    """pip of the kit's own interpreter, as a command to paste."""
    return f"{shlex.quote(sys.executable)} -m pip"


def record_path(root: Path) -> Path:
    return Path(root) / FOLDER / RECORD


def read_record(root: Path) -> Record | None:
    """The record of the files taken from the kit; None for a course made before it."""
    try:
        data = json.loads(record_path(root).read_text(encoding="utf-8"))
        files = data.get("files") if isinstance(data, dict) else None
        if not (isinstance(files, dict) and all(isinstance(path, str) and isinstance(value, str)
                                                for path, value in files.items())):
            raise ValueError(t("not a table of paths and digests under \"files\""))
        kept = data.get("kept", [])
        if not (isinstance(kept, list) and all(isinstance(path, str) for path in kept)):
            raise ValueError(t("not a list of paths under \"kept\""))
        return Record(files, data.get("lists_absent") is True, frozenset(kept))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise UpdateError(t("{path} cannot be read ({error}): it records which files the course "
                            "took from the kit; move it away and run `{kit} update --apply` to "
                            "record them again (the kit's versions are told from yours by the "
                            "kit's history, and each other file is asked of)",
                            path=record_path(root), error=error, kit=kit_command())) from None


def write_record(root: Path, files: dict[str, str], kept=()) -> None:
    """The record, written whole (a partial file moved into place), listing every file the
    course lacked, and the files kept as the course's own."""
    path = record_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{RECORD}.partial")
    data = {"lists_absent": True, "files": dict(sorted(files.items())), "kept": sorted(kept)}
    try:
        partial.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


def record_copied(root: Path, kit: Path, ids) -> None:
    """init's part: the digest of every file it copied from the kit."""
    write_record(root, {path: digest(Path(root) / path) for path in kit_files(kit, ids)})


def state_of(theirs: Path, ours: Path, known: Known = Known()) -> str:
    """The state of the course's file `theirs` against the kit's `ours`, from what else is
    `known` of it."""
    recorded = known.recorded
    if not theirs.exists():
        if not known.has_record or recorded == UNTOLD:
            return States.ABSENT
        if not recorded:
            return States.ADDED if known.lists_absent else States.ABSENT
        if known.past and recorded not in known.past:
            return States.LATER  # deleted, as a later kit's update left the record
        return States.DELETED if recorded == digest(ours) else States.DELETED_MENDED
    mine, kits = digest(theirs), digest(ours)
    if mine == kits:
        return States.SAME
    if recorded in (None, UNTOLD):
        return States.NEWER if mine in (known.past or ()) else States.UNKNOWN
    if known.past and recorded not in known.past:
        return States.LATER  # a version this kit never had: a later kit's
    if recorded == mine:
        return States.NEWER
    return States.YOURS if recorded == kits else States.BOTH


def in_kit(kit: Path, path: str) -> Path:
    """The kit's file of the course's `path` (assignments/...)."""
    return kit / Path(path).relative_to(ASSIGNMENTS)


def states(root: Path, kit: Path, ids) -> list[FileState]:
    """The state of each file of the kit's assignments `ids` in the course at `root`."""
    record, past = read_record(root), past_versions(kit)
    return [FileState(path, state_of(Path(root) / path, in_kit(kit, path),
                                     known(record, past, path)))
            for path in kit_files(kit, ids)]


def known(record: Record | None, past, path: str) -> Known:
    """What the record and the kit's table of past versions tell of `path`."""
    versions = past.get(path) if past is not None else None
    if record is None:
        return Known(past=versions)
    return Known(record.files.get(path), covers(record.files, path), record.lists_absent,
                 versions)


def assignment_of(path: str) -> str | None:
    """The assignment a course's file (assignments/ID/...) belongs to; None for a module the
    assignments share."""
    parts = Path(path).parts
    return parts[1] if len(parts) > 2 else None


def speaks_of(recorded: dict[str, str], assignment_id: str) -> bool:
    """Whether the record holds a file of the assignment: one an earlier kit's update wrote
    may hold only the assignments it compared."""
    return any(assignment_of(path) == assignment_id for path in recorded)


def covers(recorded: dict[str, str], path: str) -> bool:
    """Whether the record speaks of `path`'s assignment (of a shared module: always)."""
    owner = assignment_of(path)
    return owner is None or speaks_of(recorded, owner)


def kit_version(root: Path, kit: Path, path: str, past) -> str | None:
    """The digest of the course's file `path` when it is a version some kit wrote (the kit's
    own, or one of `past`), else None."""
    theirs = Path(root) / path
    if not theirs.exists():
        return None
    mine = digest(theirs)
    return mine if mine == digest(in_kit(kit, path)) or mine in past.get(path, ()) else None


def with_untold(root: Path, kit: Path, record: Record | None) -> dict[str, str]:
    """The record's files as an --apply starts: those `record` holds, and each file of the kit
    assignments the course took that it lacks, by the digest of the version some kit wrote,
    else UNTOLD (changed by the instructor or by an unknown kit, or absent: the course's to
    decide with --take or --keep). A file absent but new in the kit is left out (taken)."""
    past = past_versions(kit)
    files = dict(record.files) if record else {}
    for path in kit_files(kit, taken_from_kit(root, kit)):
        theirs = Path(root) / path
        if path in files or not theirs.exists() and state_of(
                theirs, in_kit(kit, path), known(record, past, path)) == States.ADDED:
            continue
        files[path] = kit_version(root, kit, path, past or {}) or UNTOLD
    return files


def taken_from_kit(root: Path, kit: Path) -> list[str]:
    """The kit's assignments the course holds and took from it: those the record holds a file
    of, and those holding a file some kit wrote (in a course made before the record, or whose
    record an earlier kit's update wrote of only the assignments it compared); not an
    assignment of the instructor's own named as one of the kit's. A folder counts without its
    notebook.py (which update then says is deleted, and can put back)."""
    both = sorted(set(folders_in(Path(root) / ASSIGNMENTS)) & set(ids_in(kit)))
    record, past = read_record(root), past_versions(kit) or {}
    return [i for i in both if record and speaks_of(record.files, i) or
            any(kit_version(root, kit, path, past) for path in own_files(kit, i))]


def folders_in(folder: Path) -> list[str]:
    """The names of the folders in `folder` (none when it is not one)."""
    return [path.name for path in folder.iterdir() if path.is_dir()] if folder.is_dir() else []


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
                                "one of its own: neither init's record nor any kit holds a "
                                "file of it as it is); to add the kit's, make a course with it "
                                "(`{kit} init DIR {id}`) and copy its assignments/{id}/ folder",
                                id=assignment_id,
                                kit=kit_command()))
    return ids or taken


def typed_paths(root: Path, typed_ones, listed, here: Path, option="--take") -> list[str]:
    """The paths given to `option` as update lists them (relative to the course root),
    whether typed so (from anywhere in the course), from a subfolder, with ./, absolute, or
    through a link: each once, the one update lists where a path may be read two ways."""
    paths = []
    for typed in typed_ones:
        found = course_paths(Path(typed), Path(here), Path(root).resolve())
        if not found:
            raise UpdateError(t("{option} {path}: not in the course {root}", option=option,
                                path=typed, root=root))
        paths.append(next((path for path in found if path in listed), found[0]))
    return list(dict.fromkeys(paths))


def course_paths(typed: Path, here: Path, base: Path) -> list[str]:
    """The paths in the course (from its root `base`) that `typed` may name: from `here` as it
    is (a link in it the course's file), through the links of its folders, and, typed from
    a folder of the course, as update lists it."""
    absolute = Path(os.path.abspath(here / typed))
    ways = [absolute, absolute.parent.resolve() / absolute.name]
    if within(here, base):
        ways.append(base / os.path.relpath(absolute, here))
    if not typed.is_absolute():
        ways.append(base / typed)  # as update lists it, typed with --root from outside
    found = []
    for way in ways:
        try:
            found.append(Path(os.path.normpath(way)).relative_to(base).as_posix())
        except ValueError:
            continue
    return list(dict.fromkeys(found))


def named_paths(root: Path, found, take, keep, ids, here) -> tuple[list[str], list[str]]:
    """The --take and --keep paths as update lists them, each refused unless it is a file
    compared (or one a later kit wrote), and when it is named by both."""
    listed = {f.path: f.state for f in found}
    take = typed_paths(root, take, listed, here)
    keep = typed_paths(root, keep, listed, here, "--keep")
    for option, paths in (("--take", take), ("--keep", keep)):
        outside = [path for path in paths if path not in listed]
        if outside:
            raise UpdateError(t("{option} {path}: not a file of the kit's assignments {ids} "
                                "(give it as update lists it, such as assignments/{id}/"
                                "checks.py)", option=option, path=outside[0],
                                ids=t(", ").join(ids), id=ids[0]))
        later = [path for path in paths if listed[path] == States.LATER]
        if later:
            raise UpdateError(t("{option} {path}: a later kit than this one wrote it; update it "
                                "with that kit (this one knows only its own older file)",
                                option=option, path=later[0]))
    both = [path for path in take if path in keep]
    if both:
        raise UpdateError(t("{path} is named with both --take and --keep: name it with one",
                            path=both[0]))
    return take, keep


def update(root: Path, kit: Path, ids=(), apply=False, take=(), keep=(), log=print,
           here=None) -> int:
    """Say each file's state; with `apply`, take the kit's newer and new files and those in
    `take`, and record those in `keep` as the course's own. 0, or 1 when files that need a
    decision stay undecided (said, with how). `here`: where the user typed the command (the
    commands printed run there)."""
    root, given = Path(root), list(ids)
    here = Path(here or Path.cwd()).resolve()
    kit_here = course_command(root, here)
    ids = course_kit_ids(root, kit, ids)
    if not ids:
        log(t("the course holds none of the kit's assignments: nothing to compare"))
        return 0
    found, record = states(root, kit, ids), read_record(root)
    take, keep = named_paths(root, found, take, keep, ids, here)
    for state in found:
        if state.state != States.SAME:
            log(t("  {state}: {path}", state=t(state.state), path=state.path)
                + kept_note(state, keep, record))
        if state.state in (States.YOURS, States.BOTH, States.UNKNOWN, States.LATER):
            log(t("    compare: diff {path} {kit}",
                  path=shlex.quote(str(root.resolve() / state.path)),
                  kit=shlex.quote(str(in_kit(kit, state.path)))))
    for f in found:
        if f.state == States.SAME and f.path in take + keep:
            log(t("{path} is already the kit's: nothing to take or keep", path=f.path))
    chosen = [f for f in found if f.state != States.SAME and f.path not in keep and
              (f.state in TAKEN_ALONE or f.path in take)]
    mine = [f for f in found if f.state != States.SAME and f.path in keep]
    asked = [f for f in found if f.state in ASKED and f not in chosen and f not in mine]
    if past_versions(kit) is None and any(f.state != States.SAME for f in found):
        log(t("warning: the kit has no {path} (the versions of its files older kits wrote), so "
              "an older kit's file shows as not the kit's, and a later kit's as newer in "
              "this one: install the kit again (`{pip} "
              "install --force-reinstall --no-deps` with the wheel or the folder you installed "
              "it from)",
              path=kit / PAST, pip=pip_command()))
    if not apply:
        log(summary(found, chosen, mine, asked, ids,
                    apply_command(root, given, take, keep, here, kit_here)))
        return 0
    files, taken = with_untold(root, kit, record), []
    try:
        take_files(root, kit, chosen, taken, log)
        files.update({f.path: digest(root / f.path) for f in found if f.state == States.SAME})
        files.update({path: digest(root / path) for path in taken})  # now the kit's
        files.update({f.path: digest(in_kit(kit, f.path)) for f in mine})  # yours, against it
        kept = (set(record.kept) if record else set()) - set(taken) | {f.path for f in mine}
        write_record(root, files, kept)
    except BaseException:
        if taken:  # the files taken stay the kit's, to build before releasing
            log(t("stopped after taking {count} of {all}; the next update finds them the "
                  "same as the kit's", count=len(taken),
                  all=counted(len(chosen), "{count} file", "{count} files")))
            log(what_next(root, kit, taken, [], kit_here))
        raise
    for f in mine:
        log(t("kept the course's {path} as its own: update asks again when the kit mends it",
              path=f.path) if (root / f.path).exists() else
            t("kept {path} deleted from the course: update asks again when the kit mends it",
              path=f.path))
        if not (root / f.path).exists() and Path(f.path).name in NEEDED:
            log(t("{id} cannot be built or graded without its {file}: write your own there, "
                  "or take the kit's (--take {path})", id=Path(f.path).parent.name,
                  file=Path(f.path).name, path=f.path))
    log(what_next(root, kit, taken, asked, kit_here))
    return 1 if asked else 0


def within(here: Path, base: Path) -> bool:
    """Whether `here` is the course root `base` or a folder of it."""
    return here == base or base in here.parents


def course_command(root: Path, here: Path) -> str:
    """The kit's command as typed `here`: with --root when here is outside the course."""
    base = root.resolve()
    return kit_command() + ("" if within(here, base) else f" --root {shlex.quote(str(base))}")


def apply_command(root: Path, ids, take, keep, here: Path, kit_here: str) -> str:
    """The command that applies what a dry run given these arguments found, to run `here`
    (the paths as typed from here inside the course, else whole)."""
    base = root.resolve()
    inside = within(here, base)
    words = [kit_here, "update", *ids, "--apply"]
    for option, paths in (("--take", take), ("--keep", keep)):
        words += [word for path in paths for word in (option, shlex.quote(
            os.path.relpath(base / path, here) if inside else str(base / path)))]
    return " ".join(words)


def affected(taken, course_ids) -> tuple[list[str], list[str]]:
    """(the assignments whose files were taken, those whose notebooks changed): a shared
    module taken touches every assignment the course took from the kit."""
    parts = [Path(path).parts for path in taken]
    shared = any(len(p) == 2 for p in parts)
    graded = sorted({p[1] for p in parts if len(p) > 2} | (set(course_ids) if shared else set()))
    shown = sorted({p[1] for p in parts if len(p) > 2 and p[-1] not in GRADING_ONLY}
                   | (set(course_ids) if shared else set()))
    return graded, shown


def kept_note(state: FileState, keep, record: Record | None) -> str:
    """What a listed file's line adds when it is the course's own by --keep: named so now, or
    kept by an earlier --apply (and not mended in the kit since)."""
    if state.path in keep:
        return t(" (named with --keep: stays the course's own)")
    if record and state.path in record.kept and state.state in SAID:
        return t(" (kept as the course's own by an earlier --keep)")
    return ""


def summary(found, chosen, mine, asked, ids, command) -> str:
    """What a dry run of `ids` found and what --apply (`command`) would do."""
    same = sum(f.state == States.SAME for f in found)
    lines = [t("{ids}: {same} of {files} the same as the kit's", ids=t(", ").join(ids),
               same=same, files=counted(len(found), "{count} file", "{count} files"))]
    if chosen:
        lines.append(counted(len(chosen), "{count} file would be taken from the kit: run "
                             "`{command}` (each file replaced is kept first in .kit/replaced/)",
                             "{count} files would be taken from the kit: run `{command}` (each "
                             "file replaced is kept first in .kit/replaced/)", command=command))
    kept = [f for f in mine if f.state not in MISSING]
    left_out = [f for f in mine if f.state in MISSING]
    if kept:
        lines.append(counted(len(kept), "{count} file would be kept as the course's own: run "
                             "`{command}`", "{count} files would be kept as the course's own: "
                             "run `{command}`", command=command))
    if left_out:
        lines.append(counted(len(left_out), "{count} file would stay out of the course: run "
                             "`{command}`", "{count} files would stay out of the course: run "
                             "`{command}`", command=command))
    if asked:
        lines.append(kept_line(asked))
    return "\n".join(lines)


def kept_line(asked) -> str:
    """What stays undecided: files that differ (to compare first), files the course lacks."""
    differ = [f for f in asked if f.state not in MISSING]
    missing = [f for f in asked if f.state in MISSING]
    lines = []
    if differ:
        lines.append(counted(
            len(differ), "{count} file differs and stays undecided until you name it with "
            "--take PATH (the kit's) or --keep PATH (yours, until the kit mends it again); "
            "compare it with the kit's first: yours may hold your own changes",
            "{count} files differ and stay undecided until you name each with --take PATH (the "
            "kit's) or --keep PATH (yours, until the kit mends it again); compare each with the "
            "kit's first: yours may hold your own changes"))
    if missing:
        lines.append(counted(
            len(missing), "{count} file the kit has is missing from the course and stays "
            "undecided until you name it with --take PATH (the kit's, put back) or --keep PATH "
            "(left out, until the kit mends it again)",
            "{count} files the kit has are missing from the course and stay undecided until you "
            "name each with --take PATH (the kit's, put back) or --keep PATH (left out, until "
            "the kit mends it again)"))
    return "\n".join(lines)


def backup_folder(root: Path) -> Path:
    """A new folder of this run's under .kit/replaced/, named by the time (and a number after
    it when a run of the same second has one)."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    for number in itertools.count(1):
        folder = root / FOLDER / REPLACED / (stamp if number == 1 else f"{stamp}-{number}")
        try:
            folder.mkdir(parents=True)
            return folder
        except FileExistsError:
            continue


def take_files(root: Path, kit: Path, chosen, taken: list, log) -> None:
    """Each chosen file replaced by the kit's (keeping the course file's mode), the course's
    kept first in a folder of this run's under .kit/replaced/; `taken` gets the path of each
    as it is taken (what a run stopped midway took)."""
    backup = None
    try:
        for state in chosen:
            theirs, ours = root / state.path, in_kit(kit, state.path)
            mode = None
            if theirs.exists():
                backup = backup or backup_folder(root)
                kept = backup / state.path
                kept.parent.mkdir(parents=True, exist_ok=True)
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
            taken.append(state.path)
            log(t("took the kit's {path}", path=state.path))
    finally:
        if backup:
            log(t("the course's files it replaced are kept in {folder}", folder=backup))


def what_next(root: Path, kit: Path, taken, asked, kit_here) -> str:
    """after_taking's lines for the course at `root`: the assignments it took from the kit
    that the files taken touch, and those that lost their notebook.py."""
    course_ids = taken_from_kit(root, kit)
    lost = [i for i in without_notebook(root / ASSIGNMENTS) if i in course_ids]
    return after_taking(taken, asked, affected(taken, course_ids), kit_here, lost)


def after_taking(taken, asked, ids, kit, lost=()) -> str:
    """What to run once files are taken (`ids`: affected's; `kit`: the kit's command as the
    user types it), and what stayed the course's; an assignment that lost its notebook.py
    (`lost`) is left out of the commands, which would refuse it, and said."""
    graded, shown = ([i for i in group if i not in lost] for group in ids)
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
    if asked:
        lines.append(kept_line(asked))
    lines += [lost_notebook(assignment_id, kit) for assignment_id in lost]
    return "\n".join(lines)


def newer_in_kit(root: Path, kit: Path, ids, here=None) -> str | None:
    """The lines grade ends with when update has something to say of the kit's assignments
    among `ids`: files newer or new in the kit, or mended there and changed in the course;
    files that differ from the kit's and that no record tells (undecided until --take or
    --keep); or a course with no record yet (made by an older kit; one `update --apply`
    records it). None otherwise. The commands it names run `here` (where grade was typed)."""
    if (Path(root) / ASSIGNMENTS).resolve() == kit.resolve():  # the kit's own course
        return None
    kit_here = course_command(Path(root), Path(here or Path.cwd()).resolve())
    try:
        ids = sorted(set(ids) & set(taken_from_kit(root, kit)))
        if not ids:
            return None
        if read_record(root) is None:
            return t("note: this course has no record of the files init copied from the kit "
                     "(made by an older kit), so a later kit's mended checks cannot be told "
                     "from your own changes: `{kit} update` compares them, and `{kit} update "
                     "--apply` records them", kit=kit_here)
        found = states(root, kit, ids)
    except UpdateError as error:
        return t("warning: {message}", message=error)
    newer = [f for f in found if f.state in TAKEN_ALONE + (States.BOTH, States.DELETED_MENDED)]
    undecided = [f for f in found if f.state in (States.UNKNOWN, States.ABSENT)]
    lines = []
    if newer:
        lines.append(counted(len(newer), "note: the kit has {count} newer file of {ids} (a "
                             "mended check or text) that the course does not: `{kit} update` "
                             "lists it and how to take it", "note: the kit has {count} newer "
                             "files of {ids} (a mended check or text) that the course does "
                             "not: `{kit} update` lists them and how to take them",
                             kit=kit_here, ids=assignments_of(newer)))
    if undecided:
        lines.append(counted(len(undecided), "note: {count} file of {ids} differs from the "
                             "kit's and no record tells whether it is yours: `{kit} update` "
                             "lists it, and --take or --keep decides", "note: {count} files of "
                             "{ids} differ from the kit's and no record tells whether they are "
                             "yours: `{kit} update` lists them, and --take or --keep decides",
                             kit=kit_here, ids=assignments_of(undecided)))
    return "\n".join(lines) or None


def assignments_of(found) -> str:
    """The assignments the files `found` belong to (a shared module by its own path)."""
    return t(", ").join(sorted({assignment_of(f.path) or f.path for f in found}))
