"""Does grading on a real SLURM cluster, its workers an ordinary user's batch jobs started by
dask-jobqueue's SLURMCluster, grade every student once, in the full sandbox (user namespaces),
when one worker's job is cancelled (scancel) mid-grade?

As the clusters page says (docs/instructors/clusters.md): the instructor keeps a SLURMCluster
running in a Python process of her own (`--nthreads 1 --preload autograder.engine.worker`, one
core a job) and runs `python -m autograder grade ID --scheduler ADDRESS` on a course made by
`init` in her home. The cluster is one node on this machine: Debian's slurm-wlm and munge
(scripts/kit installs them), a fresh munge key, munged, slurmctld and slurmd in the foreground
as children of the test, every file of theirs in one temporary folder (SLURM_CONF). Needs root,
as in CI (KIT_REQUIRE_ROOT)."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest
from distributed import Client

from autograder.course.directory import nbgrader_env, open_gradebook
from autograder.course.ledger import read_status
from autograder.grading.parallel import submission_scores
from tests.autograder.conftest import free_port
from tests.autograder.grading.test_as_any_user import (
    FULL,
    ID,
    INSTRUCTOR,
    ensure_instructor,
    hand_in,
    needs_root,
    owned_folder,
    run,
)
from tests.autograder.grading.test_engine_cluster import six_students, worker_grading
from tests.autograder.test_exchange import interpreter_open_to_students

PROGRAMS = ("mungekey", "munged", "slurmctld", "slurmd", "sinfo", "squeue", "sbatch", "scancel")
NODE = "kit-node"
JOBS = 2
# One node of 2 CPUs; what this machine lacks is left out: no systemd, so no cgroup plugins
# (processes tracked by their parents, tasks not bound), no accounting database.
SLURM_CONF = """\
ClusterName=kit
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={controller_port}
SlurmdPort={node_port}
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={folder}/munge.socket
StateSaveLocation={folder}/state
SlurmdSpoolDir={folder}/spool
SlurmctldPidFile={folder}/slurmctld.pid
SlurmdPidFile={folder}/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
KillWait=5
NodeName={node} NodeHostname={host} NodeAddr=127.0.0.1 CPUs=2 RealMemory=8192 State=UNKNOWN
PartitionName=grading Nodes={node} Default=YES MaxTime=INFINITE State=UP
"""
# The instructor's Python process on the login node: the clusters page's SLURMCluster, on loopback.
# It prints the scheduler's address once both jobs' workers have joined, and closes the
# cluster (scancel of its jobs) when its standard input closes.
INSTRUCTOR_SESSION = """\
import sys
from dask_jobqueue import SLURMCluster

jobs, logs, prologue = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
cluster = SLURMCluster(cores=1, processes=1, memory="4GiB", walltime="00:10:00",
                       log_directory=logs, job_script_prologue=prologue,
                       scheduler_options={"host": "127.0.0.1", "dashboard_address": None},
                       worker_extra_args=["--nthreads", "1", "--preload",
                                          "autograder.engine.worker"])
cluster.scale(jobs=jobs)
cluster.wait_for_workers(jobs, timeout=120)
print(cluster.scheduler_address, flush=True)
sys.stdin.read()
cluster.close()
"""


def needs_slurm():
    needs_root()
    missing = [program for program in PROGRAMS if not shutil.which(program)]
    if not missing:
        return
    if os.environ.get("KIT_REQUIRE_ROOT"):
        pytest.fail(f"SLURM or munge is missing ({', '.join(missing)}); scripts/kit installs "
                    "Debian's slurm-wlm and munge")
    pytest.skip(f"SLURM or munge is missing ({', '.join(missing)}): apt-get install "
                "slurm-wlm munge")


class Slurm:
    """A one-node SLURM cluster on this machine: munged with a fresh key, slurmctld and
    slurmd, each a child of this process in the foreground, every file of theirs in
    `folder` (open to other users: they read slurm.conf and reach munged's socket)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.conf = folder / "slurm.conf"
        self.env = dict(os.environ, SLURM_CONF=str(self.conf))
        self.daemons = {}

    def __enter__(self):
        try:
            self.start_daemons()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *_):
        self.close()

    def start_daemons(self):
        folder = self.folder
        self.write_config()
        self.start("munged", "munged", "--foreground", f"--socket={folder}/munge.socket",
                   f"--key-file={folder}/munge/munge.key", f"--pid-file={folder}/munge/pid",
                   f"--seed-file={folder}/munge/seed")
        self.wait_for(lambda: (folder / "munge.socket").exists(), "munged's socket")
        self.start("slurmctld", "slurmctld", "-D", "-i", "-f", self.conf)
        self.start("slurmd", "slurmd", "-D", "-N", NODE, "-f", self.conf)
        self.wait_for(lambda: self.node_state() == "idle", "the node idle in sinfo")

    def write_config(self):
        for name in ("munge", "state", "spool"):
            (self.folder / name).mkdir(mode=0o700)
        subprocess.run(["mungekey", "--create", f"--keyfile={self.folder}/munge/munge.key"],
                       check=True)
        self.conf.write_text(SLURM_CONF.format(
            host=socket.gethostname().split(".")[0], folder=self.folder, node=NODE,
            controller_port=free_port(), node_port=free_port()))

    def start(self, name, *command):
        with (self.folder / f"{name}.log").open("wb") as log:
            self.daemons[name] = subprocess.Popen([str(part) for part in command],
                                                  env=self.env, stdout=log,
                                                  stderr=subprocess.STDOUT)

    def wait_for(self, ready, what, timeout=60):
        deadline = time.monotonic() + timeout
        while not ready():
            dead = {name: daemon.returncode for name, daemon in self.daemons.items()
                    if daemon.poll() is not None}
            if dead or time.monotonic() > deadline:
                logs = {name: (self.folder / f"{name}.log").read_text(errors="replace")[-2000:]
                        for name in self.daemons}
                raise AssertionError(f"no {what} (exited: {dead})\n{logs}")
            time.sleep(0.2)

    def command(self, *args, user=None):
        line = ["runuser", "-u", user, "--", *args] if user else list(args)
        return subprocess.run(line, env=self.env, capture_output=True, text=True, timeout=60,
                              check=True).stdout

    def node_state(self):
        return self.command("sinfo", "--noheader", "--Node", "--format=%t").strip()

    def jobs(self):
        """{job id: state} of the jobs the controller knows."""
        lines = self.command("squeue", "--noheader", "--states=all", "--format=%i %T")
        return dict(line.split() for line in lines.splitlines())

    def close(self):
        """Cancel every job, wait until none runs, and stop the daemons (again: nothing)."""
        if self.up():
            subprocess.run(["scancel", "--partition=grading"], env=self.env, check=False)
            deadline = time.monotonic() + 30
            while self.up() and self.running() and time.monotonic() < deadline:
                time.sleep(0.5)
        for daemon in reversed(list(self.daemons.values())):
            if daemon.poll() is None:
                daemon.send_signal(signal.SIGTERM)
            try:
                daemon.wait(timeout=20)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait()

    def up(self):
        return all(name in self.daemons and self.daemons[name].poll() is None
                   for name in ("munged", "slurmctld", "slurmd"))

    def running(self):
        """Ids of the jobs not yet ended (none when the controller does not answer)."""
        ended = ("COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
                 "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE")
        try:
            jobs = self.jobs()
        except subprocess.SubprocessError:
            return []
        return [job for job, state in jobs.items() if state not in ended]


class InstructorSession:
    """The instructor's Python process running SLURMCluster (INSTRUCTOR_SESSION), as her
    user, in `folder`: its scheduler's `address` once both workers have joined. Its jobs
    inherit its environment (sbatch's default): their scratch folders and dask-jobqueue's
    configuration file go to `folder` too, not to /tmp and her home."""

    def __init__(self, slurm: Slurm, folder: Path, home: Path):
        self.output = folder / "session.log"
        activate = Path(sys.prefix) / "bin" / "activate"
        env = dict(nbgrader_env(), SLURM_CONF=str(slurm.conf), HOME=str(home), USER=INSTRUCTOR,
                   LOGNAME=INSTRUCTOR, TMPDIR=str(folder / "tmp"),
                   DASK_CONFIG=str(folder / "dask"))
        env.pop("KIT_SANDBOX", None)  # the workers' sandbox is the one their jobs give
        with self.output.open("wb") as log:
            self.process = subprocess.Popen(
                ["runuser", "-u", INSTRUCTOR, "--", sys.executable, "-c", INSTRUCTOR_SESSION,
                 str(JOBS), str(folder / "jobs"), f"source {activate}"],
                cwd=folder, env=env, stdin=subprocess.PIPE, stdout=log, stderr=log)
        self.address = self.wait_for_address()

    def wait_for_address(self, timeout=180):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            for line in self.output.read_text(errors="replace").splitlines():
                if line.startswith("tcp://"):
                    return line.strip()
            time.sleep(0.2)
        raise AssertionError("SLURMCluster gave no scheduler with two workers:\n"
                             + self.output.read_text(errors="replace"))

    def close(self):
        """Close standard input: the session closes its cluster (scancel of its jobs)."""
        self.process.stdin.close()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass
class Cancelled:
    job: str  # its SLURM job id
    keys: list  # the grading tasks its worker was processing when it was cancelled


def cancel_mid_task(slurm: Slurm, address, after=0.5):
    """scancel, as the instructor, the job of the first worker to grade a notebook, `after`
    seconds into it: a Cancelled, or None when no worker graded."""
    with Client(address, timeout="10s") as client:
        busy = worker_grading(client)
        if busy is None:
            return None
        job = client.run(os.getenv, "SLURM_JOB_ID", workers=[busy])[busy]
        time.sleep(after)
        keys = [key for key in client.processing(workers=[busy]).get(busy, [])
                if "grade-" in str(key)]
        slurm.command("scancel", job, user=INSTRUCTOR)
    return Cancelled(job, keys)


def grade_cancelling_a_job(slurm: Slurm, session: InstructorSession, course: Path):
    """`grade ID --scheduler` as the instructor, one worker's job cancelled in its first
    notebook: (the finished command, a Cancelled or None)."""
    cancelled = {}
    canceller = threading.Thread(
        target=lambda: cancelled.update(job=cancel_mid_task(slurm, session.address)))
    canceller.start()
    result = run(course, INSTRUCTOR, [], "grade", ID, "--scheduler", session.address,
                 check=False)
    canceller.join()
    return result, cancelled["job"]


def times_sent(address, key):
    """How many times the scheduler sent task `key` to a worker (its story's transitions to
    processing): twice for a task whose first worker left before it finished."""
    def sent(dask_scheduler):
        return sum(step.finish == "processing" for step in dask_scheduler.story(key))

    with Client(address, timeout="10s") as client:
        return client.run_on_scheduler(sent)


def processes_of(user):
    """The processes of `user` still running (a zombie has ended: its parent reaps it)."""
    uid = pwd.getpwnam(user).pw_uid
    return [p for p in psutil.process_iter(["uids", "cmdline", "status"])
            if p.info["uids"].real == uid and p.info["status"] != psutil.STATUS_ZOMBIE]


def left_running(user, timeout=20):
    """The command lines of `user`'s processes still running after `timeout` seconds (at
    once when none is)."""
    deadline = time.monotonic() + timeout
    while processes_of(user) and time.monotonic() < deadline:
        time.sleep(0.2)
    return [" ".join(p.info["cmdline"] or []) for p in processes_of(user)]


@dataclass
class Graded:
    course: Path
    result: subprocess.CompletedProcess  # grade's
    feedback: subprocess.CompletedProcess
    cancelled: Cancelled | None
    sent: dict  # {key of a cancelled task: times the scheduler sent it to a worker}
    jobs: dict  # {job id: state}
    job_logs: str  # the workers' jobs' output, every job's
    left_running: list  # the instructor's processes once the cluster closed


def play(slurm: Slurm, base: Path, home: Path) -> Graded:
    """A course made by init as the instructor in `base`, six students handed in, graded on
    two SLURM workers of hers, one job cancelled mid-grade; its feedback pages written on the
    worker left; her cluster closed and SLURM stopped."""
    course = base / "course"
    run(base, INSTRUCTOR, [], "init", str(course), ID)
    for student, notebook in six_students(course).items():
        hand_in(course, INSTRUCTOR, student, notebook)
    session = InstructorSession(slurm, base, home)
    try:
        result, cancelled = grade_cancelling_a_job(slurm, session, course)
        sent = {key: times_sent(session.address, key)
                for key in (cancelled.keys if cancelled else [])}
        feedback = run(course, INSTRUCTOR, [], "feedback", "--scheduler", session.address,
                       check=False)
        jobs = slurm.jobs()
    finally:
        session.close()
    slurm.close()
    logs = "\n".join(path.read_text(errors="replace")
                     for path in sorted((base / "jobs").glob("*")))
    return Graded(course, result, feedback, cancelled, sent, jobs, logs,
                  left_running(INSTRUCTOR))


@pytest.fixture(scope="module")
def graded():
    """The class played once (`play`); each test below checks one promise about it."""
    needs_slurm()
    home = ensure_instructor()
    folder = Path(tempfile.mkdtemp(prefix="kit-slurm-"))  # SLURM's: every user may read it
    folder.chmod(0o755)
    base = owned_folder(INSTRUCTOR, home, "kit-slurm")
    try:
        for name in ("jobs", "tmp", "dask"):  # InstructorSession's
            (base / name).mkdir()
            shutil.chown(base / name, INSTRUCTOR, INSTRUCTOR)
        with interpreter_open_to_students(), Slurm(folder) as slurm:
            played = play(slurm, base, home)
        yield played
    finally:
        for process in processes_of(INSTRUCTOR):
            process.kill()
        shutil.rmtree(base, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_job_was_cancelled_mid_grade_and_nothing_was_lost(graded):
    """Was a worker's job cancelled while it graded, and is every student graded once all
    the same: grade exits 0 and says so, every student's ledger says graded, the gradebook
    has six submissions and autograded/ six notebooks?"""
    assert graded.cancelled, "no worker graded a notebook to be cancelled in"
    assert graded.jobs[graded.cancelled.job] == "CANCELLED", graded.jobs
    assert graded.cancelled.keys, "the cancelled job's worker had finished its notebook"
    assert all(times == 2 for times in graded.sent.values()), graded.sent
    assert graded.result.returncode == 0, graded.result.stdout + graded.result.stderr
    assert "graded 6, already graded 0, not graded 0" in graded.result.stdout
    assert "hash strings" not in graded.result.stdout  # the nannies' seed, the same in each
    assert "Traceback" not in graded.result.stderr, graded.result.stderr
    students = six_students(graded.course)
    assert all(read_status(graded.course, s, ID)["state"] == "graded" for s in students)
    with open_gradebook(graded.course) as gradebook:
        assert len(gradebook.find_assignment(ID).submissions) == 6
    assert len(list((graded.course / "autograded").glob(f"*/{ID}/{ID}.ipynb"))) == 6


def test_scores_are_those_of_the_notebooks(graded):
    """Do the correct notebooks earn full marks, the blank one zero, and the partly done and
    mistaken ones something in between?"""
    scores = {s: sum(score for score, _ in submission_scores(graded.course, ID, s).values())
              for s in six_students(graded.course)}
    assert scores["ada"] == scores["fay"] == FULL, scores
    assert scores["bob"] == 0, scores
    assert all(0 < scores[s] < FULL for s in ("cy", "dan", "eve")), scores


def test_the_workers_graded_in_the_user_namespace_sandbox(graded):
    """Did the batch jobs' workers grade in the full sandbox of an ordinary user (user
    namespaces), as the summary line, grade.log and the workers' own logs say?"""
    summary = [line for line in graded.result.stdout.splitlines() if line.startswith("graded ")]
    assert summary and "full (user namespaces)" in summary[-1], graded.result.stdout
    assert "full (user namespaces)" in (graded.course / "grade.log").read_text()
    assert graded.job_logs.count("this worker grades in the sandbox full (user namespaces)") \
        >= JOBS, graded.job_logs


def test_the_worker_left_writes_every_feedback_page(graded):
    """Does `feedback --scheduler` on the worker left write every student's page?"""
    assert graded.feedback.returncode == 0, graded.feedback.stdout + graded.feedback.stderr
    assert len(list((graded.course / "feedback").glob(f"*/{ID}/{ID}.html"))) == 6


def test_nothing_of_the_instructors_outlives_the_cluster(graded):
    """Once the session closed its cluster and the jobs ended, is no process of the
    instructor's (a worker, a kernel, a kernel template) left running?"""
    assert graded.left_running == []
