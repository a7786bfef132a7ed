"""Does grading on a real dask cluster (a scheduler and workers started as separate processes,
each worker in a folder of its own that cannot see the course) grade every student exactly
once, with the embedded cluster's scores, when a worker is SIGKILLed mid-task?

The workers run `PYTHONHASHSEED=0 dask worker ... --preload autograder.engine.worker`, as
docs/instructors/clusters.md says; as root each is also in a mount namespace where the course's
folder is an empty tmpfs, so a task that read the course folder would fail."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat
import psutil
import pytest
from distributed import Client, WorkerPlugin

from autograder.course.directory import Course, open_gradebook
from autograder.course.ledger import read_status
from autograder.engine import worker_watch
from autograder.engine.cluster import register
from autograder.engine.worker_watch import WorkerlessError
from autograder.grading.parallel import grade, submission_scores
from autograder.plumbing.kit_command import tool_command
from autograder.tools import simulate
from tests.autograder.grading.test_as_any_user import CONFINED
from tests.autograder.test_exchange import interpreter_open_to_students

# alone: a test counts every kernel template and kernel on the machine.
pytestmark = pytest.mark.alone

ROOT = Path(__file__).resolve().parents[3]
ID = "01_attention_by_hand"
DASK = str(Path(sys.executable).with_name("dask"))
ROOT_USER = os.geteuid() == 0


def six_students(course_root: Path):
    """{student: notebook} of six students: correct twice, blank, partly done and two
    catalogued mistakes, made from the course's release and source."""
    release = nbformat.read(course_root / "release" / ID / f"{ID}.ipynb", as_version=4)
    source = nbformat.read(course_root / "source" / ID / f"{ID}.ipynb", as_version=4)
    mistakes = simulate.mistakes_of(ROOT, ID)
    return {"ada": simulate.correct(release, source), "bob": release,
            "cy": simulate.partly_done(release, source),
            "dan": simulate.with_mistake(release, source, mistakes[0]),
            "eve": simulate.with_mistake(release, source, mistakes[-1]),
            "fay": simulate.correct(release, source)}


def make_class(folder: Path, db_url=None):
    """A new course with the six students of `six_students` handed in."""
    course = Course.create(folder, ROOT, [ID])
    shutil.copytree(ROOT / "release" / ID, course.root / "release" / ID)
    if db_url:
        with (course.root / "nbgrader_config.py").open("a") as config:
            config.write(f"\nc.CourseDirectory.db_url = {db_url!r}\n")
    for student, notebook in six_students(course.root).items():
        course.submit(student, ID, notebook)
    return course


def scores(course):
    return {student: submission_scores(course.root, ID, student)
            for student in ("ada", "bob", "cy", "dan", "eve", "fay")}


class DaskCluster:
    """A `dask scheduler` and `dask worker`s, each a process of its own on loopback."""

    def __init__(self, folder: Path, hidden: Path, env=None):
        self.folder, self.hidden = folder, hidden
        self.env = dict(os.environ, PYTHONHASHSEED="0", **(env or {}))
        self.file = folder / "scheduler.json"
        self.processes = {}
        self.processes["scheduler"] = self.spawn(
            "scheduler", [DASK, "scheduler", "--host", "127.0.0.1", "--port", "0",
                          "--no-dashboard", "--scheduler-file", str(self.file)])
        for _ in range(100):
            if self.file.exists():
                break
            time.sleep(0.2)
        self.client = Client(scheduler_file=str(self.file), timeout="30s")
        self.address = self.client.scheduler.address

    def spawn(self, name, command, env=None):
        cwd = self.folder / name
        cwd.mkdir(exist_ok=True)
        if ROOT_USER and name != "scheduler":  # the course's folder is empty in here
            command = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                       f'mount -t tmpfs none "{self.hidden}" && exec "$@"', "sh", *command]
        log = (cwd / "log").open("wb")
        return subprocess.Popen(command, cwd=cwd, env=dict(self.env, **(env or {})),
                                stdout=log, stderr=log)

    def start_worker(self, name, env=None):
        self.processes[name] = self.spawn(name, [
            DASK, "worker", self.address, "--name", name, "--nthreads", "1", "--no-nanny",
            "--no-dashboard", "--local-directory", str(self.folder / name),
            "--preload", "autograder.engine.worker"], env)
        deadline = time.monotonic() + 60
        while name not in self.names().values():
            assert time.monotonic() < deadline, (self.folder / name / "log").read_text()
            time.sleep(0.2)

    def names(self):
        return worker_names(self.client)

    def kill_mid_task(self, name, after=1.0):
        """SIGKILL worker `name` `after` seconds into a grading task of its own."""
        if not worker_grading(self.client, lambda named: named == name):
            return False
        time.sleep(after)
        self.processes[name].send_signal(signal.SIGKILL)
        self.processes[name].wait()
        return True

    def close(self):
        """Stop the workers, then the scheduler: a worker stopping says goodbye to the
        scheduler, and waited out its connect timeout (30 s) when both stopped at once."""
        self.client.close()
        workers = [p for name, p in self.processes.items() if name != "scheduler"]
        for group in (workers, [self.processes["scheduler"]]):
            for process in group:
                if process.poll() is None:
                    process.send_signal(signal.SIGINT)
            for process in group:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()


def worker_names(client):
    """{address: name} of the client's cluster's workers."""
    return {address: info["name"]
            for address, info in client.scheduler_info()["workers"].items()}


def worker_grading(client, wanted=lambda name: True, timeout=300):
    """The address of a worker of the client's cluster, one whose name `wanted` accepts, as
    soon as it grades a notebook; None when none did within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        names = worker_names(client)
        for address, keys in client.processing().items():
            if wanted(names.get(address)) and any("grade-" in str(k) for k in keys):
                return address
        time.sleep(0.05)
    return None


def kernels_and_templates():
    """Processes of the sandbox (kernel templates, kernels) alive on this machine."""
    found = set()
    for process in psutil.process_iter(["pid", "cmdline"]):
        line = " ".join(process.info["cmdline"] or [])
        if "zygote.py" in line or "kit-sandbox" in line:
            found.add(process.info["pid"])
    return found


@pytest.fixture
def cluster(tmp_path):
    (tmp_path / "courses").mkdir()
    (tmp_path / "dask").mkdir()
    before = kernels_and_templates()
    dask = DaskCluster(tmp_path / "dask", tmp_path / "courses")
    yield dask
    dask.close()
    deadline = time.monotonic() + 20
    while kernels_and_templates() - before and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not kernels_and_templates() - before, "a kernel or template outlived its worker"


def grade_on(cluster, course):
    return subprocess.run([sys.executable, "-m", "autograder", "grade", "--force",
                           "--scheduler", cluster.address], cwd=course.root,
                          capture_output=True, text=True, timeout=600)


def grade_killing_a_worker(cluster, course):
    """`grade --force` on workers A and B of the cluster, A SIGKILLed in its first task:
    (the finished command, whether A was killed)."""
    cluster.start_worker("A")
    cluster.start_worker("B")
    outcome = {}
    killer = threading.Thread(target=lambda: outcome.update(killed=cluster.kill_mid_task("A")))
    killer.start()
    result = grade_on(cluster, course)
    killer.join()
    return result, outcome["killed"]


def give_manual_grade(course, student):
    """A TA's manual score and comment on the student's first graded cell."""
    with open_gradebook(course.root) as gradebook:
        notebook = gradebook.find_submission_notebook(ID, ID, student)
        cell = notebook.grades[0]
        cell.manual_score = 0.5
        comment = notebook.comments[0]
        comment.manual_comment = "see me after class"
        gradebook.db.commit()
        return cell.name, comment.name


def manual_grade(course, student, names):
    grade_name, comment_name = names
    with open_gradebook(course.root) as gradebook:
        return (gradebook.find_grade(grade_name, ID, ID, student).manual_score,
                gradebook.find_comment(comment_name, ID, ID, student).manual_comment)


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_killed_worker_loses_no_student_and_no_manual_grade(cluster, tmp_path, database,
                                                            request):
    """Graded on the embedded cluster, then regraded with --force on an external cluster
    whose worker A is SIGKILLed mid-task: is every student graded once, with the same
    scores, a TA's manual grade kept, no SQLite file made for a PostgreSQL course and the
    cluster's lack of TLS said; and do the same workers write every feedback page, with the
    TA's comment?"""
    db_url = request.getfixturevalue("postgres")() if database == "postgresql" else None
    course = make_class(tmp_path / "courses" / "course", db_url)
    embedded = grade(course.root, [ID], workers=2, log=lambda _: None)
    assert len(embedded.graded) == 6 and embedded.ok
    manual = give_manual_grade(course, "ada")
    expected = scores(course)  # the manual score counts in ada's
    result, killed = grade_killing_a_worker(cluster, course)

    assert killed, "worker A never had a task to be killed in"
    assert result.returncode == 0, result.stdout + result.stderr
    assert "graded 6, already graded 0, not graded 0" in result.stdout
    assert f"the scheduler at {cluster.address} speaks without TLS" in \
        result.stdout + result.stderr  # loopback is every user's of the machine
    assert scores(course) == expected
    assert manual_grade(course, "ada", manual) == (0.5, "see me after class")
    assert all(read_status(course.root, s, ID)["state"] == "graded" for s in expected)
    with open_gradebook(course.root) as gradebook:
        assert len(gradebook.find_assignment(ID).submissions) == 6
    assert (course.root / "gradebook.db").exists() == (database == "sqlite")

    pages = subprocess.run([sys.executable, "-m", "autograder", "feedback", "--scheduler",
                            cluster.address], cwd=course.root, capture_output=True, text=True,
                           timeout=600)
    assert pages.returncode == 0, pages.stdout + pages.stderr
    ada = (course.root / "feedback" / "ada" / ID / f"{ID}.html").read_text()
    assert "see me after class" in ada  # the TA's comment, from the course's gradebook
    assert len(list((course.root / "feedback").glob(f"*/{ID}/{ID}.html"))) == 6


def test_a_notebook_that_kills_its_workers_is_not_gradable_and_the_class_goes_on(tmp_path):
    """With no failure allowed, does the notebook whose worker died come back 'not graded'
    with the reason, while the others are graded?"""
    (tmp_path / "courses").mkdir()
    (tmp_path / "dask").mkdir()
    strict = DaskCluster(tmp_path / "dask", tmp_path / "courses",
                         env={"DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"})
    try:
        course = make_class(tmp_path / "courses" / "course")
        result, killed = grade_killing_a_worker(strict, course)
    finally:
        strict.close()
    assert killed
    assert result.returncode == 1
    assert "graded 5, already graded 0, not graded 1" in result.stdout, result.stdout
    assert "the grading worker died each time it graded this notebook" in result.stdout
    states = [read_status(course.root, s, ID)["state"] for s in scores(course)]
    assert sorted(states) == ["failed"] + ["graded"] * 5


def test_a_grade_whose_cluster_loses_its_only_worker_stops_and_the_next_grade_goes_on(
        cluster, tmp_path, monkeypatch):
    """A forced regrade on a cluster whose only worker is SIGKILLed mid-task: does grade stop
    once the cluster has had no worker for WORKERLESS_WAIT s, with an error that says how to
    start workers, leave every notebook it did not grade to the next grade, and does that
    grade, given a worker, grade them all?"""
    monkeypatch.setattr(worker_watch, "WORKERLESS_WAIT", 3.0)
    course = make_class(tmp_path / "courses" / "course")
    cluster.start_worker("A")
    assert grade(course.root, [ID], scheduler=cluster.address, log=lambda _: None).ok
    expected = scores(course)
    killer = threading.Thread(target=lambda: cluster.kill_mid_task("A"))
    killer.start()
    started = time.monotonic()
    with pytest.raises(WorkerlessError, match=re.escape(
            f"start workers with `PYTHONHASHSEED=0 {tool_command('dask')} worker "
            f"{cluster.address} ")):
        grade(course.root, [ID], force=True, scheduler=cluster.address, log=lambda _: None)
    killer.join()
    assert time.monotonic() - started < 120
    states = {s: read_status(course.root, s, ID)["state"] for s in expected}
    assert "regrade" in states.values(), states  # the one graded when A died, at least

    cluster.start_worker("B")
    result = subprocess.run([sys.executable, "-m", "autograder", "grade", "--scheduler",
                             cluster.address], cwd=course.root, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    regraded = sum(state == "regrade" for state in states.values())
    assert f"graded {regraded}, already graded {6 - regraded}, not graded 0" in result.stdout, (
        result.stdout)
    assert scores(course) == expected
    assert all(read_status(course.root, s, ID)["state"] == "graded" for s in expected)


@pytest.mark.skipif(not ROOT_USER, reason="needs root to start a worker as another user")
def test_a_worker_without_the_sandbox_refuses_to_start():
    """Does a worker that cannot build the full sandbox in any way (an ordinary user, user
    namespaces refused as Docker's profile refuses them, no Landlock) stop at start, with one
    line saying what is missing, instead of grading?"""
    folder = Path(tempfile.mkdtemp(prefix="kit-nobody-"))  # pytest's own is root's only
    folder.chmod(0o777)
    with interpreter_open_to_students():
        result = subprocess.run(
            ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups",
             sys.executable, str(CONFINED), "--no-user-namespaces", "--no-landlock", "--",
             DASK, "worker", "tcp://127.0.0.1:9", "--nthreads", "1", "--no-nanny",
             "--local-directory", str(folder), "--preload", "autograder.engine.worker"],
            cwd=folder, capture_output=True, text=True, timeout=120,
            env=dict(os.environ, HOME=str(folder)))
    shutil.rmtree(folder)
    assert result.returncode != 0
    refusals = [re.sub(r"`\S+ -m autograder guide", "`KIT guide", line)  # the worker's python
                for line in result.stderr.splitlines() if "refuses to grade" in line]
    assert refusals == ["attention-kit: this worker refuses to grade: the full sandbox cannot "
                        "be built here (namespaces: not root; user-namespaces: Operation not "
                        "permitted; landlock: no Landlock). Grade where Linux offers one of "
                        "them (`KIT guide sandbox`), or set "
                        "c.GradeInSandbox.isolation = "
                        "\"limits\" in nbgrader_config.py knowing that student code then "
                        "runs as you, able to read your files and use the network"], (
        result.stderr)


class DiesInSetup(WorkerPlugin):
    """A plugin whose set-up kills the worker named "doomed", as a worker dies (killed, out
    of memory) while `grade` sets the kit up on the cluster."""

    name = "dies-in-setup"

    def setup(self, worker):
        if worker.name == "doomed":
            os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_dying_while_the_kit_is_set_up_stops_nothing(tmp_path):
    """When a worker dies while the kit's plugin is registered, is it registered again on
    the workers left, said on the console, instead of the whole grade stopping with
    CommClosedError?"""
    (tmp_path / "courses").mkdir()
    (tmp_path / "dask").mkdir()
    dask = DaskCluster(tmp_path / "dask", tmp_path / "courses",
                       env={"PYTHONPATH": str(Path(__file__).resolve().parents[3])})
    try:
        dask.start_worker("alive")
        dask.start_worker("doomed")
        said = []
        register(dask.client, DiesInSetup(), said.append)
        assert said == ["a worker left while the kit was set up on the cluster "
                        "(CommClosedError); setting it up again on the others"]
        assert dask.processes["doomed"].wait(timeout=30) == -signal.SIGKILL
        assert list(dask.names().values()) == ["alive"]
        assert dask.client.run(lambda dask_worker: "dies-in-setup" in dask_worker.plugins)
    finally:
        dask.close()


class Nothing(WorkerPlugin):
    name = "nothing"


def test_a_worker_hashing_at_random_is_named_with_the_fix(tmp_path):
    """When one worker was started with strings hashing at random (no seed, no nanny to give
    it one), does setting the kit up on the cluster say which one, and how to start it, while
    the worker started as the clusters page says is not named?"""
    (tmp_path / "courses").mkdir()
    (tmp_path / "dask").mkdir()
    dask = DaskCluster(tmp_path / "dask", tmp_path / "courses", env={"PYTHONPATH": str(ROOT)})
    try:
        dask.start_worker("seeded")
        dask.start_worker("random", env={"PYTHONHASHSEED": "random"})
        said = []
        register(dask.client, Nothing(), said.append)
        random = next(a for a, name in dask.names().items() if name == "random")
        assert said == [f"1 of the cluster's workers ({random}) hash strings at random or "
                        "unlike the others: a mistake named to a student whose code iterates "
                        "a set may be named on one regrade and not on the next; start every "
                        "worker alike, with PYTHONHASHSEED=0 (`PYTHONHASHSEED=0 "
                        f"{tool_command('dask')} worker ADDRESS --nthreads 1 --preload "
                        "autograder.engine.worker`)"]
    finally:
        dask.close()


def test_a_tls_scheduler_without_tls_settings_is_one_line(tmp_path):
    """grade --scheduler tls://... from a command without dask's TLS settings (the next step
    after the warning of a scheduler without TLS): is it an error of one line naming the
    address and the settings to give, not dask's 70-line traceback?"""
    from traitlets.config import Config

    from autograder.engine.cluster import start_client
    from autograder.plumbing.errors import KitError

    with pytest.raises(KitError, match=r"tls://127\.0\.0\.1:1 speaks TLS.*distributed\.comm\.tls"):
        start_client(Config(), 1, "tls://127.0.0.1:1", tmp_path / "grade.log", lambda _: None)
