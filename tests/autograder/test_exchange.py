"""Does the course run through nbgrader's exchange as a shared server runs it, beside students
who hand in through an LMS, with deadlines, extensions and late penalties?

Played with real nbgrader commands: the instructor releases into an exchange folder the test
creates; two students, each a real user of this machine with a home of their own (nbgrader
names a student by the user running the command), fetch, work and submit; the instructor
collects them with nbgrader and a third student's file from an LMS folder with the kit,
grades with the kit, writes feedback and releases it; the students fetch their feedback.
Creating the users needs root (CI runs as root); elsewhere the test is skipped, or fails when
KIT_REQUIRE_ROOT is set, as CI sets it."""

from __future__ import annotations

import contextlib
import csv
import fcntl
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import nbformat
import pytest
from nbgrader.utils import parse_utc

from autograder.course.directory import Course, nbgrader_env
from autograder.sandbox.kernel import process_runs
from autograder.tools import simulate
from tests.accounts import ensure_user

ROOT = Path(__file__).resolve().parents[2]
ID = "01_attention_by_hand"
COURSE_ID = "self-attention"
EXCHANGE_STUDENTS = ["ada", "ben"]  # ada has a 48 h extension; ben hands in late
LMS_STUDENT = "cy"
SECRETS = ("BEGIN HIDDEN", "check_step", "use_references", "autograder")


def needs_root():
    if os.geteuid() == 0 and shutil.which("useradd") and shutil.which("runuser"):
        return
    if os.environ.get("KIT_REQUIRE_ROOT"):
        pytest.fail("the exchange test creates student users and needs root with useradd "
                    "and runuser (as in CI)")
    pytest.skip("the exchange test creates student users: run it as root")


# Tests in other processes (scripts/kit test runs files two at a time) open the same folders:
# one record of their first modes, and the pids holding them open, in this file, under a lock.
OPENED = Path(tempfile.gettempdir()) / "kit-tests-interpreter-open.json"


@contextlib.contextmanager
def interpreter_open_to_students():
    """Students run the course's Python as themselves. Where the virtualenv or the Python it
    was made from lives in a private folder (pyenv under /root, a checkout in a mktemp
    folder), let other users pass through the folders above them (search only, not list)
    while any test needs it, and put the modes back when the last one is done."""
    with opened_record() as record:
        record["holders"] = [pid for pid in record["holders"] if process_runs(pid)] + [os.getpid()]
        if not record["modes"]:  # none open now, or left open by a run that was killed
            record["modes"] = {str(folder): mode for folder, mode in closed_folders().items()}
        for folder, mode in record["modes"].items():
            Path(folder).chmod(mode | stat.S_IXOTH)
    try:
        yield
    finally:
        with opened_record() as record:
            record["holders"] = [pid for pid in record["holders"]
                                 if pid != os.getpid() and process_runs(pid)]
            if not record["holders"]:
                for folder, mode in record.pop("modes").items():
                    Path(folder).chmod(stat.S_IMODE(mode))


def closed_folders():
    """{folder: mode} of the folders above this Python that other users cannot pass."""
    places = [Path(sys.executable).absolute(), Path(os.path.realpath(sys.executable)),
              Path(sys.prefix).absolute() / "lib", Path(sys.base_prefix).resolve() / "lib"]
    folders = {folder for place in places for folder in place.parents}
    return {folder: folder.stat().st_mode for folder in folders
            if not folder.stat().st_mode & stat.S_IXOTH}


@contextlib.contextmanager
def opened_record():
    """OPENED's record ({"holders": [pid], "modes": {folder: mode}}), held under its lock and
    written back when the block ends (removed when no test holds the folders open)."""
    with open(OPENED.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        record = {"holders": [], "modes": {}}
        if OPENED.exists():
            record.update(json.loads(OPENED.read_text(encoding="utf-8")))
        yield record
        if record.get("modes"):
            OPENED.write_text(json.dumps(record), encoding="utf-8")
        else:
            OPENED.unlink(missing_ok=True)


def run(cwd, *args, user=None, home=None):
    """A command as the instructor (root) or as a student user, with the virtualenv on PATH;
    fails with its output when it fails."""
    env = nbgrader_env()
    command = [str(a) for a in args]
    if user:
        env.update(HOME=str(home), USER=user, LOGNAME=user)
        command = ["runuser", "--preserve-environment", "-u", user, "--", *command]
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, f"{' '.join(command)}\n{result.stdout}\n{result.stderr}"
    return result


def nbgrader(cwd, *args, **student):
    return run(cwd, sys.executable, "-m", "nbgrader", *args, **student)


def kit(cwd, *args):
    return run(cwd, sys.executable, "-m", "autograder", *args)


def shared_folder(prefix):
    """A folder every user can enter (pytest's tmp folders are root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    folder.chmod(0o755)
    return folder


def student_home(base, user, exchange):
    home = base / user
    home.mkdir()
    (home / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.Exchange.root = {str(exchange)!r}\n"
        f"c.CourseDirectory.course_id = {COURSE_ID!r}\n")
    shutil.chown(home, user, user)
    shutil.chown(home / "nbgrader_config.py", user, user)
    home.chmod(0o700)  # as a hub, and Debian 12's useradd, make a home
    return home


def course_config(root, exchange, due):
    """The course's nbgrader_config.py, plus where the exchange is and this week's
    deadline: due an hour ago, ada has 48 hours more."""
    with (root / "nbgrader_config.py").open("a") as config:
        config.write(f"\nc.Exchange.root = {str(exchange)!r}\n"
                     f"c.Deadlines.due_dates = {{{ID!r}: {due.isoformat(' ')!r}}}\n"
                     f"c.Deadlines.extension_hours = {{{ID!r}: {{'ada': 48}}}}\n")


def work(home, user, notebook):
    """What the student does in their fetched copy: answer, save (as themselves)."""
    path = home / ID / f"{ID}.ipynb"
    nbformat.write(notebook, path)
    shutil.chown(path, user, user)


@contextlib.contextmanager
def course_with_exchange(prefix, users):
    """(root, exchange, homes): a course of ID and an exchange every user can write to, in a
    folder every user can enter, the students `users` made real users of this machine; all
    removed after."""
    needs_root()
    for user in users:
        ensure_user(user)
    base = shared_folder(prefix)
    with contextlib.ExitStack() as cleanup:
        cleanup.callback(shutil.rmtree, base, ignore_errors=True)
        cleanup.enter_context(interpreter_open_to_students())
        root, exchange, homes = base / "course", base / "exchange", base / "homes"
        Course.create(root, ROOT, [ID])
        exchange.mkdir()
        exchange.chmod(0o777)
        homes.mkdir()
        homes.chmod(0o755)
        yield root, exchange, homes


def forge(exchange, forger, victim, notebook, home):
    """As `forger`, a folder in inbound/ under `victim`'s name, a minute later than the
    forger's own submission (nbgrader's collect takes a student's latest), holding `notebook`
    and what nbgrader's submit writes beside it; its path."""
    inbound = exchange / COURSE_ID / "inbound"
    own = next(inbound.glob(f"{forger}+{ID}+*"))
    later = datetime.now(UTC) + timedelta(minutes=1)
    stamp = later.strftime("%Y-%m-%d %H:%M:%S.%f UTC")
    path = inbound / f"{victim}+{ID}+{stamp}+forged"
    staged = home / "forgery"
    staged.mkdir()
    nbformat.write(notebook, staged / f"{ID}.ipynb")
    (staged / "timestamp.txt").write_text(stamp)
    shutil.copy(own / "submission_secret.txt", staged)
    for entry in (staged, *staged.iterdir()):
        shutil.chown(entry, forger, forger)
    run(home, "cp", "-r", staged, path, user=forger, home=home)
    return path


@pytest.fixture(scope="module")
def week():
    """The week, played once; each test below checks one promise about it."""
    with course_with_exchange("kit-exchange-", EXCHANGE_STUDENTS) as (root, exchange, homes):
        due = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=1)
        course_config(root, exchange, due)

        nbgrader(root, "generate_assignment", ID, "--force")
        nbgrader(root, "release_assignment", ID)
        release = nbformat.read(root / "release" / ID / f"{ID}.ipynb", as_version=4)
        source = nbformat.read(root / "source" / ID / f"{ID}.ipynb", as_version=4)
        answers = {"ada": simulate.correct(release, source),
                   "ben": simulate.correct(release, source),
                   LMS_STUDENT: simulate.with_mistake(release, source,
                                                      simulate.mistakes_of(ROOT, ID)[0])}
        student = {}
        for user in EXCHANGE_STUDENTS:
            home = student_home(homes, user, exchange)
            student[user] = {"user": user, "home": home}
            nbgrader(home, "fetch_assignment", ID, **student[user])
            work(home, user, answers[user])
            nbgrader(home, "submit", ID, **student[user])
        forged = forge(exchange, "ben", "ada", answers[LMS_STUDENT], student["ben"]["home"])

        inbox = root.parent / "lms"
        inbox.mkdir()
        handed_in = inbox / f"{LMS_STUDENT}_{ID}.ipynb"
        nbformat.write(answers[LMS_STUDENT], handed_in)
        on_time = (due - timedelta(hours=1)).timestamp()
        os.utime(handed_in, (on_time, on_time))

        collected = nbgrader(root, "collect", ID)
        kit(root, "collect", ID, "--from", inbox)
        graded = kit(root, "grade", ID, "--workers", "2")
        kit(root, "feedback", ID)
        nbgrader(root, "release_feedback", ID)
        for user in EXCHANGE_STUDENTS:
            nbgrader(student[user]["home"], "fetch_feedback", ID, **student[user])
        kit(root, "export", "--to", root / "grades.csv")
        nbgrader(root, "export", "--to", root / "nbgrader-export.csv")
        table = (root / "grades.csv").open(encoding="utf-8-sig")
        rows = {r["student_id"]: r for r in csv.DictReader(table) if r["assignment"] == ID}
        yield {"root": root, "exchange": exchange, "homes": homes, "rows": rows,
               "graded": graded, "due": due, "forged": forged, "collected": collected,
               "wrong": answers[LMS_STUDENT]}


def test_every_student_is_collected_from_either_path(week):
    """Do the exchange's and the LMS's students sit side by side in submitted/, each with
    the timestamp and secret nbgrader's commands need?"""
    submitted = week["root"] / "submitted"
    assert sorted(p.name for p in submitted.iterdir()) == ["ada", "ben", "cy"]
    for student in ("ada", "ben", "cy"):
        folder = submitted / student / ID
        assert (folder / f"{ID}.ipynb").exists()
        assert (folder / "timestamp.txt").read_text().strip()
        assert (folder / "submission_secret.txt").read_text().strip()


def test_a_folder_planted_under_a_classmates_name_is_not_collected(week):
    """ben puts a folder under ada's name, later than hers, in the exchange's inbound/
    (writable by every student): does plain `nbgrader collect` leave it there and say so,
    and collect ada's own notebook instead (nbgrader's own only warns and takes it)?"""
    said = week["collected"].stdout + week["collected"].stderr
    assert f"{week['forged'].name} is not collected" in said, said
    assert "The student's latest own submission is collected instead." in said
    assert week["forged"].is_dir()
    ada = nbformat.read(week["root"] / "submitted" / "ada" / ID / f"{ID}.ipynb", as_version=4)
    assert ada.cells != week["wrong"].cells, "the forged notebook was collected as ada's"


def test_every_student_is_graded(week):
    """Does the kit grade all three, whichever way they handed in?"""
    rows = week["rows"]
    assert sorted(rows) == ["ada", "ben", "cy"]
    assert {s: rows[s]["status"] for s in rows} == dict.fromkeys(rows, "graded")
    assert rows["ada"]["raw_score"] == rows["ada"]["max_score"]
    assert float(rows["cy"]["raw_score"]) < float(rows["cy"]["max_score"])


def test_late_submission_costs_ten_percent_and_an_extension_protects(week):
    """Is ben, an hour late, docked 10 % of his score, while ada (48 h extension) and cy
    (handed in to the LMS before the deadline) keep theirs?"""
    rows = week["rows"]
    ben_raw = float(rows["ben"]["raw_score"])
    assert float(rows["ben"]["late_submission_penalty"]) == pytest.approx(0.1 * ben_raw)
    assert float(rows["ben"]["score"]) == pytest.approx(0.9 * ben_raw)
    for student in ("ada", "cy"):
        assert float(rows[student]["late_submission_penalty"]) == 0
        assert rows[student]["score"] == rows[student]["raw_score"]
    due = week["due"].replace(tzinfo=None)
    assert rows["ben"]["duedate"] == due.isoformat(" ")
    assert rows["ada"]["duedate"] == (due + timedelta(hours=48)).isoformat(" ")
    assert datetime.fromisoformat(rows["ben"]["timestamp"]) > due


def test_students_fetch_their_own_feedback_without_hidden_tests(week):
    """Does each exchange student fetch a feedback page of their own, naming the steps and
    showing no hidden test?"""
    for user in EXCHANGE_STUDENTS:
        pages = list((week["homes"] / user / ID / "feedback").glob(f"*/{ID}.html"))
        assert len(pages) == 1, f"{user}: {pages}"
        page = pages[0].read_text(encoding="utf-8")
        assert "project_qkv" in page
        assert not [secret for secret in SECRETS if secret in page], user


def test_feedback_is_released_for_the_lms_student_too(week):
    """Does nbgrader's release_feedback release a page for every graded student, the LMS one
    included?"""
    released = list((week["exchange"] / COURSE_ID / "feedback").glob("*.html"))
    assert len(released) == 3


def test_plain_nbgrader_export_sees_every_submission(week):
    """Does `nbgrader export` (the kit's plugin, through nbgrader) list every student?"""
    rows = list(csv.DictReader((week["root"] / "nbgrader-export.csv").open(encoding="utf-8-sig")))
    assert sorted(r["student_id"] for r in rows if r["assignment"] == ID) == ["ada", "ben", "cy"]


def test_a_folder_backdated_by_hand_is_not_collected(week):
    """ben, an hour late, makes a folder of his own by hand under a time before the due date
    (inbound/ is his to write; its name and timestamp.txt are what nbgrader reads the time
    from): does `nbgrader collect --before-duedate`, which picks it, leave it there, say why,
    and keep his real, late submission collected? (Last in the file: it adds to the week.)"""
    root, home = week["root"], week["homes"] / "ben"
    inbound = week["exchange"] / COURSE_ID / "inbound"
    [own] = [path for path in inbound.glob(f"ben+{ID}+*") if not path.name.endswith("+early")]
    early = (week["due"] - timedelta(minutes=30)).strftime("%Y-%m-%d %H:%M:%S.%f UTC")
    staged = home / "backdated"
    shutil.copytree(own, staged)
    (staged / "timestamp.txt").write_text(early)
    for entry in (staged, *staged.iterdir()):
        shutil.chown(entry, "ben", "ben")
    backdated = inbound / f"ben+{ID}+{early}+early"
    run(home, "cp", "-r", staged, backdated, user="ben", home=home)

    collected = nbgrader(root, "collect", "--before-duedate", ID)
    said = collected.stdout + collected.stderr
    assert f"{backdated.name} is not collected" in said, said
    assert "later than the time of its name" in said and "submit again" in said, said
    assert "The student's latest own submission is collected instead." in said, said
    assert backdated.is_dir()
    kept = (root / "submitted" / "ben" / ID / "timestamp.txt").read_text().strip()
    assert parse_utc(kept) > week["due"].replace(tzinfo=None), kept


def test_a_folder_whose_name_gives_no_time_stops_no_collect(week):
    """ben makes a folder whose name gives no time (nbgrader's collect stopped for the whole
    class with a traceback on it): does collect say so and go on for every student?"""
    root, home = week["root"], week["homes"] / "ben"
    bad = week["exchange"] / COURSE_ID / "inbound" / f"ben+{ID}+not a time+x"
    run(home, "mkdir", bad, user="ben", home=home)
    collected = nbgrader(root, "collect", ID)
    said = collected.stdout + collected.stderr
    assert collected.returncode == 0, said
    assert "Traceback" not in said and "ParserError" not in said, said
    assert "Submission already exists, use --update to update: ada" in said, said
