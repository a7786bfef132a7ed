"""Does `serve` give students their feedback as they submit through nbgrader's real exchange,
within their daily limit, never over a TA's grade, and go on after a restart without grading
anything twice? Does each student reach nothing of the other's, nor of the course, at any
stage, and does one student's 40 MB notebook hold the other's feedback up?

Played as a shared server runs it: two students, each a real user of this machine, fetch,
work and `nbgrader submit`; `python -m autograder serve` runs beside them as the instructor,
an ordinary user too, who owns the course; they `nbgrader fetch_feedback`. Creating the users
needs root (as the exchange test)."""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import nbformat
import pytest

from autograder.course.directory import nbgrader_env, open_gradebook
from autograder.tools import simulate
from tests.accounts import ensure_member, ensure_user
from tests.autograder.test_exchange import (
    COURSE_ID,
    ID,
    ROOT,
    course_with_exchange,
    nbgrader,
    run,
    student_home,
    work,
)

pytestmark = pytest.mark.long

STUDENTS = ["ada", "ben"]
INSTRUCTOR = "kit-teacher"
TA, TA_GROUP = "kit-ta1", "kit-tas"  # the course's TA and the group it is shared with


@contextlib.contextmanager
def default_exchange():
    """nbgrader's exchange in its default place (c.Exchange.root unset), made for the test
    where it is missing (every user may write it, as nbgrader requires); the test's course in
    it, and the folder where the test made it, removed after. A course of this id already
    there is never touched: the test fails instead."""
    from nbgrader.exchange.default.exchange import Exchange

    exchange = Path(Exchange.root.default_value)
    assert not (exchange / COURSE_ID).exists(), \
        f"{exchange / COURSE_ID} is there already: this test will not touch it"
    made = not exchange.exists()
    exchange.mkdir(parents=True, exist_ok=True)
    exchange.chmod(0o777)
    try:
        yield exchange
    finally:
        subprocess.run(["rm", "-rf", str(exchange / COURSE_ID)], check=False)
        if made:
            exchange.rmdir()


def shared_with_tas(root):
    """The course 0750 and the TA group's, said in its config (init --group does this)."""
    ensure_member(TA, TA_GROUP)
    with (root / "nbgrader_config.py").open("a") as config:
        config.write(f"c.Course.group = {TA_GROUP!r}\n")
    shutil.chown(root, group=TA_GROUP)
    root.chmod(0o750)


def ta_tries(root):
    """What the TA does with the course (each must work) and may not (write into it):
    (what, exit status)."""
    reads = [["ls", root], ["cat", root / "gradebook.db"],
             ["cat", root / "submitted" / "ada" / ID / f"{ID}.ipynb"],
             ["cat", root / "autograded" / "ada" / ID / f"{ID}.ipynb"]]
    found = [(" ".join(map(str, command)), subprocess.run(
        ["runuser", "-u", TA, "--", *map(str, command)], capture_output=True,
        timeout=60).returncode) for command in reads]
    written = subprocess.run(["runuser", "-u", TA, "--", "touch", str(root / "planted-by-ta")],
                             capture_output=True, timeout=60).returncode
    return found, written
PER_DAY = 2
WAIT = 60  # seconds a step may take before the test gives up on it (the goal is 10)
LARGE_MB = 40  # a notebook past c.FeedbackOnSubmit.max_notebook_mb (8)


def trespasses(root, exchange, homes, me, other):
    """What student `me` tries against `other` and the course: (what, command). Each must
    fail: the course folder is closed, nbgrader's exchange lists no one's folders, and a
    home is its student's."""
    course = [("list the course", ["ls", root]),
              ("read the solutions", ["cat", root / "source" / ID / f"{ID}.ipynb"]),
              ("read the checks", ["cat", root / "assignments" / ID / "checks.py"]),
              ("read the gradebook", ["cat", root / "gradebook.db"]),
              ("read the course's secret", ["cat", root / ".kit" / "secret"]),
              ("write into the course", ["touch", root / "planted"]),
              ("write into their own submitted/", ["touch", root / "submitted" / me / ID /
                                                   "planted"])]
    theirs = [("read the other's submission", ["cat", root / "submitted" / other / ID /
                                               f"{ID}.ipynb"]),
              ("read the other's submission secret (it names their feedback in the "
               "exchange)", ["cat", root / "submitted" / other / ID / "submission_secret.txt"]),
              ("read the other's graded notebook", ["cat", root / "autograded" / other / ID /
                                                    f"{ID}.ipynb"]),
              ("list the other's feedback", ["ls", root / "feedback" / other / ID]),
              ("list the exchange's submissions", ["ls", exchange / COURSE_ID / "inbound"]),
              ("list the exchange's feedback", ["ls", exchange / COURSE_ID / "feedback"]),
              ("read the other's notebook at home", ["cat", homes / other / ID /
                                                     f"{ID}.ipynb"]),
              ("list the other's fetched feedback", ["ls", homes / other / ID / "feedback"])]
    return course + theirs


def tried(stage, root, exchange, homes):
    """Every trespass of each student against the other, as that student: (stage, student,
    what, exit status, what it printed)."""
    found = []
    for me, other in (STUDENTS, STUDENTS[::-1]):
        for what, command in trespasses(root, exchange, homes, me, other):
            result = subprocess.run(["runuser", "-u", me, "--", *map(str, command)],
                                    capture_output=True, text=True, timeout=60)
            found.append((stage, me, what, result.returncode, result.stdout[:200]))
    return found


def padded(notebook, megabytes):
    """The notebook with a Markdown cell of `megabytes` MB (Markdown has no size bound)."""
    large = nbformat.from_dict(json.loads(nbformat.writes(notebook)))
    large.cells.append(nbformat.v4.new_markdown_cell("x" * (megabytes << 20)))
    return large


def as_instructor(home, *command):
    """(command, env): `command` run as the instructor (setpriv: the process itself becomes
    them, so a signal reaches it), with their home."""
    info = pwd.getpwnam(INSTRUCTOR)
    env = {**nbgrader_env(), "HOME": str(home), "USER": INSTRUCTOR, "LOGNAME": INSTRUCTOR}
    return ["setpriv", f"--reuid={info.pw_uid}", f"--regid={info.pw_gid}", "--init-groups",
            *map(str, command)], env


def instructor_runs(root, home, *args):
    """`python -m autograder ARGS` in the course, as the instructor."""
    command, env = as_instructor(home, sys.executable, "-m", "autograder", *args)
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True,
                          timeout=300)


class Serve:
    """`python -m autograder serve` as the instructor starts it (with `home`, the ordinary
    user INSTRUCTOR; else this test's user), its console in a file beside the course."""

    def __init__(self, root: Path, home: Path | None = None):
        self.root, self.home = root, home
        self.console = root.parent / f"{root.name}-serve-console.txt"
        self.process = None

    def start(self):
        self.console.write_text("")
        command = [sys.executable, "-m", "autograder", "serve"]
        command, env = as_instructor(self.home, *command) if self.home else (command,
                                                                           nbgrader_env())
        self.process = subprocess.Popen(command, cwd=self.root, env=env,
                                        stdout=self.console.open("a"), stderr=subprocess.STDOUT)
        self.wait_for("serving ")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=WAIT)

    def text(self):
        return self.console.read_text(encoding="utf-8")

    def wait_for(self, words, count=1):
        deadline = time.monotonic() + WAIT
        while self.text().count(words) < count:
            assert self.process.poll() is None, f"serve ended:\n{self.text()}"
            assert time.monotonic() < deadline, f"no {words!r} after {WAIT} s:\n{self.text()}"
            time.sleep(0.1)


def processes_of_course(root):
    """The processes of this course: a serve working in it, or anything naming its folder
    (another course's serve on the machine, a test's or an instructor's, is not one)."""
    found = subprocess.run(["pgrep", "-f", f"autograder serve|{root}"], capture_output=True,
                           text=True).stdout.split()
    ours = []
    for pid in found:
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue  # gone meanwhile
        where = root.resolve()
        if str(root) in command or Path(cwd) == where or where in Path(cwd).parents:
            ours.append(pid)
    return ours


def submitted_at(root, student):
    path = root / "submitted" / student / ID / "timestamp.txt"
    return path.read_text().strip() if path.exists() else None


def fetched_pages(home):
    """The texts of the feedback pages a student has fetched (a later fetch may write over a
    page: nbgrader keys a page by the secret of the student's fetched copy)."""
    return [page.read_text(encoding="utf-8")
            for page in sorted((home / ID / "feedback").glob(f"*/{ID}.html"))]


@pytest.fixture(scope="module")
def term():
    """The week, played once with serve running; each test checks one promise about it."""
    with contextlib.ExitStack() as cleanup:
        root, _, homes = cleanup.enter_context(course_with_exchange("kit-serve-", STUDENTS))
        exchange = cleanup.enter_context(default_exchange())  # the course names none
        with (root / "nbgrader_config.py").open("a") as config:
            config.write(f"\nc.FeedbackOnSubmit.assignments = [{ID!r}]\n"
                         f"c.FeedbackOnSubmit.per_day = {PER_DAY}\n"
                         "c.FeedbackOnSubmit.interval = 0.5\n")
        ensure_user(INSTRUCTOR)
        teacher = homes / INSTRUCTOR
        teacher.mkdir(mode=0o700)
        subprocess.run(["chown", "-R", f"{INSTRUCTOR}:", str(root), str(teacher)], check=True)
        shared_with_tas(root)
        as_teacher = {"user": INSTRUCTOR, "home": teacher}
        nbgrader(root, "generate_assignment", ID, "--force", **as_teacher)
        nbgrader(root, "release_assignment", ID, **as_teacher)
        release = nbformat.read(root / "release" / ID / f"{ID}.ipynb", as_version=4)
        source = nbformat.read(root / "source" / ID / f"{ID}.ipynb", as_version=4)
        correct = simulate.correct(release, source)
        wrong = simulate.with_mistake(release, source, simulate.mistakes_of(ROOT, ID)[0])
        who = {user: {"user": user, "home": student_home(homes, user, exchange)}
               for user in STUDENTS}
        for user in STUDENTS:
            nbgrader(who[user]["home"], "fetch_assignment", ID, **who[user])

        def submit(user, notebook):
            work(who[user]["home"], user, notebook)
            nbgrader(who[user]["home"], "submit", ID, **who[user])
            return time.monotonic()  # the student's command has returned

        serve = Serve(root, teacher)
        serve.start()
        cleanup.callback(lambda: serve.process.poll() is None and serve.stop())
        facts = {"root": root, "exchange": exchange, "who": who}

        submitted = submit("ada", correct)  # ada, first of the day
        serve.wait_for("ada " + ID + ": graded, ")
        facts["delay"] = time.monotonic() - submitted
        nbgrader(who["ada"]["home"], "fetch_feedback", ID, **who["ada"])
        facts["ada first pages"] = fetched_pages(who["ada"]["home"])
        facts["trespasses"] = tried("after ada's first feedback", root, exchange, homes)

        submit("ben", wrong)  # ben, then a TA grades him by hand
        serve.wait_for("ben " + ID + ": graded, ")
        with open_gradebook(root) as gradebook:
            grade = gradebook.find_submission_notebook(ID, ID, "ben").grades[0]
            grade.manual_score = 0.5
            gradebook.db.commit()
            facts["ta cell"] = grade.name
        facts["ben collected"] = submitted_at(root, "ben")
        submit("ben", correct)
        serve.wait_for("ben " + ID + ": not graded: a TA graded")

        facts["trespasses"] += tried("after ben's grade by a TA", root, exchange, homes)
        submit("ben", padded(correct, LARGE_MB))  # ada submits while it waits to be taken
        submitted = submit("ada", correct)  # the second and last of her day, then one more
        serve.wait_for("ada " + ID + ": graded, ", 2)
        facts["warm delay"] = time.monotonic() - submitted
        facts["ada collected"] = submitted_at(root, "ada")
        submit("ada", wrong)
        serve.wait_for("ada " + ID + ": not graded now")
        forged = (exchange / COURSE_ID / "inbound" /  # ben hands in a notebook as ada
                  f"ada+{ID}+{datetime.now(UTC):%Y-%m-%d %H:%M:%S.%f} UTC+forged")
        run(homes, "mkdir", forged, **who["ben"])
        run(homes, "cp", who["ben"]["home"] / ID / f"{ID}.ipynb", forged, **who["ben"])
        serve.wait_for("ada " + ID + ": refused, not collected")
        nbgrader(who["ada"]["home"], "fetch_feedback", ID, **who["ada"])
        facts["ada pages"] = fetched_pages(who["ada"]["home"])
        nbgrader(who["ben"]["home"], "fetch_feedback", ID, **who["ben"])
        facts["ben pages"] = fetched_pages(who["ben"]["home"])
        facts["trespasses"] += tried("at the end of the day", root, exchange, homes)
        facts["ta reads"], facts["ta writes"] = ta_tries(root)
        facts["stop status"] = serve.stop()
        facts["console"] = serve.text()
        facts["processes left"] = processes_of_course(root)

        record = root / ".kit" / "on_submit.json"
        facts["record"] = json.loads(record.read_text())
        facts["restart"] = instructor_runs(root, teacher, "serve", "--once")
        facts["record after restart"] = json.loads(record.read_text())
        # A crash while ada's last graded submission was graded leaves it taken, unfinished.
        entries = json.loads(record.read_text())
        last = max((name for name, entry in entries.items() if entry["student"] == "ada"
                    and entry["state"] == "released"), key=lambda name: name.split("+")[2])
        entries[last]["state"] = "grading"
        record.write_text(json.dumps(entries))
        facts["after crash"] = instructor_runs(root, teacher, "serve", "--once")
        facts["record after crash"] = json.loads(record.read_text())
        with open_gradebook(root) as gradebook:
            notebook = gradebook.find_submission_notebook(ID, ID, "ben")
            facts["ben ta score"] = {g.name: g.manual_score for g in notebook.grades}
        facts["regrade check"] = instructor_runs(root, teacher, "regrade-check", ID)
        # serve started mid-week without its record: ada's latest own submission (her
        # over-the-limit one moved out of the exchange) is the one serve graded already.
        over = next(name for name, entry in entries.items() if entry["state"] == "over the limit")
        (exchange / COURSE_ID / "inbound" / over).rename(exchange / COURSE_ID / over)
        record.rename(record.with_name("on_submit.json.aside"))
        facts["without record"] = instructor_runs(root, teacher, "serve", "--once")
        facts["record without record"] = json.loads(record.read_text())
        facts["ada collected without record"] = submitted_at(root, "ada")
        yield facts


def test_feedback_reaches_the_student_within_seconds_of_submit(term):
    """Does a student's `nbgrader fetch_feedback` find the page of what they just submitted,
    released within 10 s of their `nbgrader submit` returning, saying it was graded on
    submit?"""
    print(f"nbgrader submit returned -> feedback released: {term['delay']:.1f} s the first "
          f"time after serve started, {term['warm delay']:.1f} s warm")
    assert term["delay"] < 10, term["delay"]
    assert term["warm delay"] < 10, term["warm delay"]
    [text] = term["ada first pages"]
    assert "project_qkv" in text
    assert f"submission 1 of the {PER_DAY} graded each day" in text


def test_the_daily_limit_is_kept_and_said(term):
    """Does the last graded submission of the day say later ones wait, is the one past the
    limit left in the exchange (not collected over the graded one), and is that said on the
    console?"""
    pages = term["ada pages"]
    assert any(f"submission 2 of the {PER_DAY} graded each day" in page
               and "Later submissions today are kept" in page for page in pages), pages
    assert submitted_at(term["root"], "ada") == term["ada collected"]
    assert f"not graded now: {PER_DAY} graded submissions today already" in term["console"]
    states = sorted(e["state"] for e in term["record"].values() if e["student"] == "ada")
    assert states == ["over the limit", "refused", "released", "released"]


def test_a_submission_planted_under_another_name_is_refused(term):
    """When ben makes a folder in the exchange under ada's name, is it refused (never
    collected over ada's), and is that said?"""
    assert f"ada {ID}: refused, not collected: another user" in term["console"]
    assert submitted_at(term["root"], "ada") == term["ada collected"]


def test_a_ta_grade_is_never_touched(term):
    """After a TA graded ben by hand, is his next submission left for the instructor: not
    collected, not graded, his TA score intact?"""
    assert submitted_at(term["root"], "ben") == term["ben collected"]
    assert term["ben ta score"][term["ta cell"]] == 0.5
    assert "a TA graded this assignment by hand" in term["console"]


def test_a_stop_ends_everything_and_a_restart_grades_nothing_twice(term):
    """Does SIGTERM end serve with status 0 and no process of it left, saying only
    "stopped" when nothing was being graded, and does a restart take nothing already
    finished?"""
    assert term["stop status"] == 0, term["console"]
    assert term["console"].rstrip().endswith("stopped"), term["console"][-400:]
    assert term["processes left"] == []
    assert term["restart"].returncode == 0, term["restart"].stdout + term["restart"].stderr
    assert ": graded" not in term["restart"].stdout
    assert term["record after restart"] == term["record"]


def test_a_submission_interrupted_mid_grade_is_finished_once(term):
    """A submission left 'grading' by a crash: is it graded again at the next start, still
    counted once against the day's limit?"""
    result = term["after crash"]
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"ada {ID}: graded, 10 of 10 points, feedback released" in result.stdout
    assert f"({PER_DAY} of {PER_DAY} today)" in result.stdout
    assert term["record after crash"] == term["record"]


def test_a_start_without_its_record_grades_nothing_graded_already(term):
    """Started with its record moved aside, does serve leave the submission the gradebook
    holds graded (ada's latest) ungraded, uncounted and said, and take nothing over it?"""
    result = term["without record"]
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no record of earlier submissions" in result.stdout
    assert f"ada {ID}: not graded again: collect and grade took this very submission" \
        in result.stdout, result.stdout
    assert ": graded," not in result.stdout
    assert term["ada collected without record"] == term["ada collected"]
    states = {entry["state"] for entry in term["record without record"].values()
              if entry["student"] == "ada"}
    assert "graded before" in states and not states & {"grading", "released"}, states


def test_what_serve_graded_gets_the_same_grade_from_grade(term):
    """Graded again aside the way `grade` grades (regrade-check), does every notebook serve
    graded get the same score, the same failing cases and the same named mistakes (its
    hidden cases drawn from the course's secret, the same in serve as in grade)?"""
    check = term["regrade check"]
    assert check.returncode == 0, check.stdout[-3000:] + check.stderr[-3000:]
    assert "2 the same, 0 different, 0 not checked" in check.stdout, check.stdout


def test_neither_student_reaches_the_other_nor_the_course_at_any_stage(term):
    """At each stage of the day, as each student: is every attempt on the course (its
    listing, solutions, checks, gradebook, secret; a file written into it) and on the other
    student's work (submitted, graded, feedback, in the course, the exchange and their home)
    refused?"""
    reached = [entry for entry in term["trespasses"] if entry[3] == 0]
    assert not reached, reached
    stages = {entry[0] for entry in term["trespasses"]}
    assert len(stages) == 3 and len(term["trespasses"]) == 3 * 2 * 15
    assert not (term["root"] / "planted").exists()


def test_a_large_notebook_is_refused_at_intake_and_holds_no_one_up(term):
    """Is ben's 40 MB notebook refused at once, its size and the fix on the console, while
    ada's submission right behind it gets its feedback within 10 s?"""
    assert f"ben {ID}: refused, not collected: its notebook is {LARGE_MB}." in term["console"]
    assert "c.FeedbackOnSubmit.max_notebook_mb" in term["console"]
    assert term["warm delay"] < 10, term["warm delay"]
    assert submitted_at(term["root"], "ben") == term["ben collected"]


def test_a_refused_submission_is_said_in_the_students_own_feedback(term):
    """Does ben's `nbgrader fetch_feedback` bring him a page that says why his 40 MB notebook
    was refused and what to do, beside the feedback of his graded submission?"""
    notices = [page for page in term["ben pages"] if "was not graded" in page]
    assert len(notices) == 1, [page[:300] for page in term["ben pages"]]
    assert f"its notebook is {LARGE_MB}." in notices[0]
    assert "Restart and Clear Outputs" in notices[0]
    assert "ben " + ID + ": refused, not collected: its notebook is" in term["console"]
    assert "the student's feedback says so" in term["console"]
    assert len(term["ben pages"]) == 2  # his first graded submission's page, and the notice


def test_the_ta_group_reads_the_course_and_writes_nothing(term):
    """With the course shared with a TA group (0750), does the TA read the gradebook and the
    students' submitted and graded notebooks, while neither student can (above), and is a
    file the TA writes into the course refused?"""
    failed = [command for command, status in term["ta reads"] if status != 0]
    assert not failed, failed
    assert term["ta writes"] != 0 and not (term["root"] / "planted-by-ta").exists()
