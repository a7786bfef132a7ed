"""What students handed in through nbgrader's exchange: its inbound folder, read as nbgrader's
collect reads it (a folder `student+assignment+timestamp+random` per submission)."""

from __future__ import annotations

import os
import pwd
import stat
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import dateutil.parser
import dateutil.tz
from nbgrader.utils import parse_utc

from autograder.course.deadlines import handed_in_at
from autograder.course.ids import STUDENT_ID
from autograder.i18n import t


@dataclass(frozen=True)
class HandedIn:
    name: str  # the inbound folder's name: one submission, never reused
    student: str
    assignment: str
    timestamp: object  # datetime, UTC, as nbgrader parses it

    @property
    def time_text(self) -> str:
        """The time as the folder's name writes it (date, time, zone name)."""
        return self.name.rsplit("+", 3)[2]


def inbound_folder(config) -> Path | None:
    """The course's inbound folder (c.Exchange.root / course_id / inbound: nbgrader's default
    root where the course sets none), None when the course has no course id."""
    from nbgrader.exchange.default.exchange import Exchange

    root = config.Exchange.get("root", "") or Exchange.root.default_value
    course_id = config.CourseDirectory.get("course_id", "")
    if not root or not course_id:
        return None
    return Path(root) / course_id / "inbound"


def handed_in(inbound: Path, assignments) -> list[HandedIn]:
    """The submissions in `inbound` of the given assignments, oldest first (a name that is
    not nbgrader's is passed over: collect would refuse it too)."""
    found = [handed_from(path) for path in (inbound.iterdir() if inbound.is_dir() else ())]
    return sorted((h for h in found if h is not None and h.assignment in assignments),
                  key=lambda h: (h.timestamp, h.name))


FUTURE = timedelta(minutes=5)  # a clock a little ahead of this machine's is not a forgery
# nbgrader's submit copies the notebook into the folder, then writes these two: a folder
# without them is being written, or its submit stopped half-way (a file it could not read)
WRITTEN_LAST = ("timestamp.txt", "submission_secret.txt")
SUBMIT_WRITES = timedelta(minutes=2)  # longer than a submit takes to write them
# A submit writes its folder within seconds of the time it names; a file server's clock (which
# times the changes) may be a little off the student's machine's (which times the name).
CHANGED_LATER = timedelta(minutes=5)


def unwritten(path: Path) -> str | None:
    """The first file of WRITTEN_LAST the folder `path` lacks, or None."""
    return next((name for name in WRITTEN_LAST if not (path / name).is_file()), None)


def being_written(path: Path, now=None) -> bool:
    """Whether nbgrader's submit may still be writing the folder `path`: a file it writes
    last is missing and the folder changed less than SUBMIT_WRITES ago (after that, it is
    refused by why_not_taken). Changed: its ctime, which no user sets (a modification time
    set in the future kept a folder without timestamp.txt waiting for ever)."""
    try:
        changed = datetime.fromtimestamp(path.lstat().st_ctime, UTC)
    except OSError:
        return False
    return unwritten(path) is not None and (now or datetime.now(UTC)) - changed < SUBMIT_WRITES


def why_unfinished(path: Path) -> str | None:
    """Why the folder `path` is a submit left half-way (in words, with the fix), or None:
    a file nbgrader's submit writes last is missing, and the folder is no longer being
    written. (Collected, a folder without timestamp.txt would be graded as never late.)"""
    missing = unwritten(path)
    if missing is None or being_written(path):
        return None
    return t("nbgrader submit did not finish it (it holds no {name}): submit again",
             name=missing)


def why_refused(inbound: Path, handed: HandedIn, check_owner=True,
                max_mb: float = 0, zone="UTC") -> str | None:
    """Why a submission folder is not taken (in words), or None when it is what nbgrader's
    submit makes (why_not_theirs, then why_not_taken)."""
    return (why_not_theirs(inbound, handed, check_owner, zone)
            or why_not_taken(inbound / handed.name, handed, max_mb))


def why_not_theirs(inbound: Path, handed: HandedIn, check_owner=True,
                   zone="UTC") -> str | None:
    """Why a submission folder is not the named student's own (in words), or None: a student
    id the kit accepts; a real folder (not a link) made by that student's user (nbgrader's
    collect only warns when not, and the exchange's inbound is writable by every student)."""
    if not STUDENT_ID.match(handed.student):
        return t("{name!r} is not a student id", name=handed.student)
    path = inbound / handed.name
    try:
        info = path.lstat()
    except OSError:
        return t("the folder is gone")
    if not stat.S_ISDIR(info.st_mode):
        return t("it is not a folder (a link or a file)")
    if check_owner:
        try:
            owner = pwd.getpwnam(handed.student).pw_uid
        except KeyError:
            return t("no user {student} on this machine made it", student=handed.student)
        if info.st_uid != owner:
            return t("another user ({user}) made it, not {student}",
                     user=user_name(info.st_uid),
                     student=handed.student)
    return why_not_as_submitted(path, handed, zone)


def why_not_as_submitted(path: Path, handed: HandedIn, zone="UTC") -> str | None:
    """Why the folder `path` is not as the student's nbgrader submit left it (in words, with
    the fix), or None. nbgrader reads which submission is a student's latest from the time in
    the folder's name, and its lateness from its timestamp.txt; the student writes both, and
    may write in the folder after its submit. So timestamp.txt, where there is one (a submit
    writes it last: being_written), must give the name's time, and nothing in the folder may
    have changed more than CHANGED_LATER after that time (submitted_at, read in the course's
    zone `zone`, c.Exchange.timezone): a change's time (ctime) is the one a user cannot set,
    and shows a folder made by hand under an earlier time, or a notebook edited after its
    submit."""
    try:
        stamp = (path / "timestamp.txt").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        stamp = None
    if stamp is not None and stamp != handed.time_text and \
            handed_in_at(stamp) != handed.timestamp.replace(tzinfo=UTC):
        return t("its timestamp.txt ({stamp}) does not give the time of its name ({named}), as "
                 "nbgrader submit writes them: submit again with nbgrader submit",
                 stamp=stamp[:40], named=handed.timestamp)
    named = submitted_at(handed, zone)
    changed = last_changed(path)
    if changed is not None and changed - named > CHANGED_LATER:
        return t("it changed at {changed}, later than the time of its name ({named}): a "
                 "folder made or edited by hand after its submit; submit again with nbgrader "
                 "submit", changed=changed.replace(tzinfo=None, microsecond=0),
                 named=handed.timestamp)
    return None


def submitted_at(handed: HandedIn, zone="UTC"):
    """When the folder's name says it was handed in, in UTC. nbgrader's submit writes the time
    in the zone of c.Exchange.timezone, named by that zone's abbreviation at that hour (PST,
    CEST, JST); nbgrader reads the abbreviation with the machine's zone files, which read PST
    or JST as UTC and CST as the US's Central time, hours off. So where the name carries the
    course's zone's abbreviation at that hour (`zone`), its clock time is read in that zone;
    any other name as nbgrader reads it, which its lateness uses, so that a zone written by
    hand gains nothing."""
    nbgraders = handed.timestamp.replace(tzinfo=UTC)
    parts, local = handed.time_text.split(" "), dateutil.tz.gettz(zone)
    if len(parts) == 3 and local is not None:
        try:
            clock = dateutil.parser.parse(" ".join(parts[:2])).replace(tzinfo=local)
        except (ValueError, OverflowError):
            return nbgraders
        if clock.strftime("%Z") == parts[2]:
            return clock.astimezone(UTC)
    return nbgraders


def handed_from(path: Path) -> HandedIn | None:
    """The submission a folder of inbound/ is (student+assignment+time+random, the time as
    nbgrader parses it); None for a name that is not nbgrader's, which collect refuses too."""
    parts = path.name.rsplit("+", 3)
    if len(parts) != 4:
        return None
    try:
        return HandedIn(path.name, parts[0], parts[1], parse_utc(parts[2]))
    except (ValueError, OverflowError):  # dateutil's ParserError is a ValueError
        return None


def in_true_time(record: dict, zone="UTC") -> dict:
    """nbgrader's record of an inbound folder (username, filename, timestamp) with its time
    the true one (submitted_at, naive UTC as nbgrader keeps it), so that which submission is
    latest, which is before the due date and whether a collected one is newer are all decided
    on the time true_time_written puts in the copy."""
    handed = handed_from(Path(record["filename"]))
    if handed is not None:
        record["timestamp"] = submitted_at(handed, zone).replace(tzinfo=None)
    return record


def true_time_written(dest: Path, handed: HandedIn, zone="UTC") -> bool:
    """Write the collected copy's timestamp.txt in UTC where nbgrader would misread the time
    its submit wrote (submitted_at): its lateness is then computed from the true time. Whether
    it was written."""
    true = submitted_at(handed, zone)
    if true == handed.timestamp.replace(tzinfo=UTC) or not (dest / "timestamp.txt").is_file():
        return False
    (dest / "timestamp.txt").write_text(true.strftime("%Y-%m-%d %H:%M:%S.%f UTC"))
    return True


def last_changed(path: Path):
    """The latest change time (ctime, UTC) of the folder `path` and of everything in it, links
    not followed; None when the folder is gone."""
    latest = None
    for folder, folders, files in os.walk(path):
        for entry in (folder, *(os.path.join(folder, name) for name in folders + files)):
            try:
                changed = os.lstat(entry).st_ctime
            except OSError:
                continue
            latest = changed if latest is None else max(latest, changed)
    return None if latest is None else datetime.fromtimestamp(latest, UTC)


def why_home_open(student) -> str | None:
    """Why the home of the student's user lets classmates in (in words, with the fix), or
    None: nbgrader keeps each submission's secret there, and with it another user fetches
    that student's released feedback."""
    try:
        home = Path(pwd.getpwnam(student).pw_dir)
        mode = stat.S_IMODE(home.stat().st_mode)
    except (KeyError, OSError):
        return None
    if not mode & 0o005:
        return None
    return t("{student}'s home {home} is {mode:o}: other users can read their notebooks and "
             "nbgrader's submission secret there, with which a classmate fetches their "
             "feedback; close it (chmod 0700 {home}) and make new homes 0700 "
             "(`python -m autograder guide where-courses-run`, \"Setting up a shared hub\")",
             student=student, home=home, mode=mode)


def user_name(uid: int) -> str:
    """The name of the user `uid` (its number where the machine names none)."""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def why_not_taken(path: Path, handed: HandedIn, max_mb: float = 0) -> str | None:
    """Why the student's own submission folder `path` is not taken (in words, with the fix
    the student can make), or None: the notebook and every entry regular files, none a link
    (collect copies as the instructor, following links); handed in no later than now (a
    later time would keep collect from ever taking the student's real submissions); a
    notebook of `max_mb` MB at most (0: any size), so that one large notebook holds no other
    student's feedback up."""
    for folder, folders, files in os.walk(path):
        for name in folders + files:
            entry = Path(folder) / name
            if entry.is_symlink() or not (entry.is_dir() or entry.is_file()):
                return t("it holds {name}, a link or a special file",
                         name=entry.relative_to(path))
    unfinished = why_unfinished(path)
    if unfinished:
        return unfinished
    notebook = path / f"{handed.assignment}.ipynb"
    if not notebook.is_file():
        return t("it holds no {name}", name=notebook.name)
    size = notebook.lstat().st_size
    if max_mb and size > max_mb * 2**20:
        return t("its notebook is {size:.1f} MB, more than the {limit:g} MB a submission may "
                 "be (c.FeedbackOnSubmit.max_notebook_mb): clear the notebook's outputs "
                 "(Kernel > Restart and Clear Outputs), save and submit again",
                 size=size / 2**20, limit=max_mb)
    if handed.timestamp.replace(tzinfo=UTC) > datetime.now(UTC) + FUTURE:
        return t("its time ({time}) is in the future", time=handed.timestamp)
    return None
