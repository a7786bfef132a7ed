"""Can a student fool the grader, harm it, or lose more than the step they broke?

Every notebook of the attack catalogue (tests/autograder/grading/attacks.py) is graded in
the kit's grade, with the real sandbox: root is needed for it, as in CI. Then each must have
its score, and the batch must have left nothing behind.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import threading
import time
from contextlib import nullcontext
from pathlib import Path

import nbformat
import pytest
from bs4 import BeautifulSoup

from autograder.course.directory import Course
from autograder.grading.parallel import grade, submission_scores
from autograder.outputs.feedback import write_feedback
from autograder.outputs.report import read_results
from autograder.plumbing.errors import OutputError
from autograder.sandbox.socket_folder import socket_parent
from tests.autograder.grading.attacks import ATTACKS, ID, LEAK_LENGTH, LEAK_MARK, filled

ROOT = Path(__file__).resolve().parents[3]
SANDBOX_UIDS = range(61000, 61000 + 1000)
SECRET = "kit-secret-7f3a9c"  # in a root-only file a submission links to

# alone: the checks that nothing is left look at every process and file of the sandbox's users.
pytestmark = [pytest.mark.alone,
              pytest.mark.skipif(os.geteuid() != 0, reason="the full sandbox needs root "
                                 "(CI runs as root)")]


class Listener:
    """A TCP server on the grader's loopback that records anyone who connects."""

    def __init__(self):
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.connections = []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            self.connections.append(connection.recv(100))


def grades(root):
    with sqlite3.connect(root / "gradebook.db") as db:
        return sorted(db.execute("SELECT id, auto_score, manual_score FROM grade"))


def sandbox_processes():
    found = []
    for entry in Path("/proc").iterdir():
        try:
            uid = entry.stat().st_uid
        except OSError:
            continue
        if entry.name.isdigit() and uid in SANDBOX_UIDS:
            found.append(entry.name)
    return found


def process_state(pid):
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split("\n")[0].strip()
    except (OSError, IndexError):
        return "gone"


def scratch_folders():
    return sorted(Path(socket_parent()).glob("kit-sandbox-*"))


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    listener = Listener()
    course = Course.create(tmp_path_factory.mktemp("attacks"), ROOT, [ID])
    course.generate(ID)
    release = nbformat.read(course.root / "release" / ID / f"{ID}.ipynb", 4)
    source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", 4)
    secret = tmp_path_factory.mktemp("secret") / "secret.txt"
    secret.write_text(SECRET)
    secret.chmod(0o600)
    env = {"root": course.root, "repo": ROOT, "port": listener.port, "secret": secret}
    for attack in ATTACKS:
        course.submit(attack.name, ID, attack.build(release, source, env))
        folder = course.root / "submitted" / attack.name / ID
        for name, build in attack.extra.items():
            nbformat.write(build(release, source, env), folder / name)
        for name, target in attack.links.items():
            os.symlink(filled(target, env), folder / name)
    scratch_before = scratch_folders()
    files_before = set(files_of_the_sandbox(*LEFTOVER_PLACES))
    started = time.monotonic()
    run = grade(course.root, [ID], workers=2, timeout=5, log=lambda _: None)
    seconds = time.monotonic() - started
    right_after = grades(course.root)
    time.sleep(5)  # the daemons of the catalogue wake after 3 s
    return {"course": course, "run": run, "right_after": right_after, "seconds": seconds,
            "listener": listener, "scratch_before": scratch_before,
            "files_before": files_before}


def total(root, student):
    scores = submission_scores(root, ID, student)
    assert scores is not None, f"{student} was not graded"
    return sum(score for score, _ in scores.values()), sum(m for _, m in scores.values())


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.name for a in ATTACKS])
def test_attack_gets_its_score(batch, attack):
    """Does the notebook get exactly the points its honest work earns (or, when it holds a
    symbolic link, is it refused with the reason, never graded)?"""
    if attack.score is None:
        refused = [p for p in batch["run"].refused if p.student == attack.name]
        assert refused and "symbolic link" in refused[0].reason, batch["run"].problems
        assert submission_scores(batch["course"].root, ID, attack.name) is None
        return
    got, most = total(batch["course"].root, attack.name)
    assert most == 6, f"{attack.name}: the maximum changed to {most}"
    assert got == attack.score, f"{attack.name} ({attack.what}): {got} points, not {attack.score}"


def test_the_batch_grades_every_notebook(batch):
    """Did the batch go on past every crash, loop and bomb, grading each notebook?"""
    run = batch["run"]
    assert not run.failed, run.failed
    assert len(run.graded) == len([a for a in ATTACKS if a.score is not None])


def test_only_the_grader_writes_the_gradebook(batch):
    """Is the gradebook the same after the daemons' wake-up time, with no manual score?"""
    now = grades(batch["course"].root)
    assert now == batch["right_after"]
    assert all(manual is None for _, _, manual in now)


def test_no_sandbox_process_outlives_the_batch(batch):
    """Are the daemons, sleepers and forked children of the sandbox user all gone? (A killed
    process may take a moment to be reaped; a daemon that outlives the batch sleeps 600 s.)"""
    deadline = time.monotonic() + 20
    while sandbox_processes() and time.monotonic() < deadline:
        time.sleep(0.5)
    left = {pid: process_state(pid) for pid in sandbox_processes()}
    assert left == {}


def sysv_objects_of_the_sandbox():
    """SysV IPC objects (shared memory, queues, semaphores) owned by a sandbox user."""
    found = []
    for kind in ("shm", "msg", "sem"):
        lines = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
        header = lines[0].split()
        for line in lines[1:]:
            fields = dict(zip(header, line.split(), strict=False))
            if int(fields["uid"]) in SANDBOX_UIDS:
                found.append((kind, fields["key"]))
    return found


LEFTOVER_PLACES = ("/tmp", "/var/tmp", "/dev/shm", "/run")


def files_of_the_sandbox(*folders):
    """Every file or folder a sandbox user owns in these folders. Other programs create and
    remove files there while the walk runs: what vanishes meanwhile is skipped. A stack, not
    os.walk, which recurses once a folder: another test's (or program's) deeply nested
    folders in /tmp would overflow it."""
    found, todo = [], [Path(folder) for folder in folders]
    while todo:
        try:
            entries = list(os.scandir(todo.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_uid in SANDBOX_UIDS:
                    found.append(Path(entry.path))
                if entry.is_dir(follow_symlinks=False):
                    todo.append(Path(entry.path))
            except OSError:
                continue
    return found


def test_nothing_of_the_sandbox_user_is_left(batch):
    """After the batch, is no SysV IPC object, no file (in /tmp, /var/tmp, /dev/shm, /run, the
    course) and no socket of a sandbox user left anywhere?"""
    assert sysv_objects_of_the_sandbox() == []
    left = [p for p in files_of_the_sandbox(*LEFTOVER_PLACES, batch["course"].root)
            if p not in batch["files_before"]]
    assert left == []
    assert not any(Path(p).exists() for p in ("/run/lock/kit-left", "/dev/shm/kit-left",
                                              "/tmp/kit-left", "/tmp/kit-left.sock"))


def test_nothing_written_outside_the_scratch_folder(batch):
    """Did the writes to the course folder, ../ and /tmp stay inside the sandbox, and is
    every scratch folder removed?"""
    root = batch["course"].root
    leaks = [p for p in (root / "pwned.txt", root / "source" / "pwned.txt",
                         Path("/tmp/pwned.txt"), Path("/pwned.txt"),
                         root / "submitted" / "pwned.txt") if p.exists()]
    assert leaks == []
    # none of the batch's is left (a dead grader's, found before, may have been removed)
    assert set(scratch_folders()) <= set(batch["scratch_before"])


def test_no_network(batch):
    """Did the socket attack reach nothing on the grader's machine?"""
    assert batch["listener"].connections == []


def test_feedback_carries_no_secret(batch):
    """Does any feedback page show a hidden test, the grader's code, or text the student's
    code wrote from the hidden inputs (an error's message, a class's name, a tensor's
    lengths)? And is each notebook refused (never graded) named as having no page?"""
    root = batch["course"].root
    refused, said = sorted(a.name for a in ATTACKS if a.score is None), []
    with pytest.raises(OutputError, match="no feedback page") if refused else nullcontext():
        write_feedback(root, [ID], log=said.append)
    assert all(any(name in line and "no page" in line for line in said) for name in refused)
    pages = list((root / "feedback").glob(f"*/{ID}/*.html"))
    assert len(pages) == len([a for a in ATTACKS if a.score is not None])
    for page in pages:
        text = page.read_text()
        for secret in ("BEGIN HIDDEN TESTS", "check_step", "use_references", "autograder.",
                       LEAK_MARK, str(LEAK_LENGTH)):
            assert secret not in text, f"{page}: shows {secret!r}"


def test_no_markup_of_a_student_runs_on_a_feedback_page(batch):
    """Does the page of the notebook with scripts in its markdown keep the text and the
    harmless markup, drop every script, handler and frame, and leave the course's own prose
    (its tables and embedded figures) whole?"""
    root = batch["course"].root
    write_feedback(root, [ID], students=["markup"], log=lambda _: None)
    page = (root / "feedback" / "markup" / ID / f"{ID}.html").read_text()
    elements = BeautifulSoup(page, "html.parser").find_all(True)
    assert [e.name for e in elements if e.name == "script" and "kitOwned" in e.text] == []
    assert [e.name for e in elements if e.name == "iframe"] == []
    assert [(e.name, a) for e in elements for a in e.attrs if a.lower().startswith("on")] == []
    assert [e for e in elements if str(e.get("href", "")).startswith("javascript:")] == []
    assert page.count("<strong>still bold</strong>") == 2  # both cells, as markdown
    assert page.count("<table") >= 1 and 'src="data:image/png;base64,' in page


def test_no_secret_and_no_huge_output_reaches_the_autograded_notebooks(batch):
    """Is the linked root-only file's text in no file the grading wrote, and is no autograded
    notebook more than its submission plus a few MB, although one printed 60 MB?"""
    root = batch["course"].root
    for path in [*(root / "autograded").rglob("*"), *(root / "feedback").rglob("*")]:
        if path.is_file():
            assert SECRET not in path.read_text(errors="replace"), path
    for path in (root / "autograded").glob(f"*/{ID}/{ID}.ipynb"):
        handed_in = root / "submitted" / path.parts[-3] / ID / path.name
        grown = path.stat().st_size - handed_in.stat().st_size
        assert grown < 3 << 20, f"{path}: {grown} bytes more than handed in"


def test_integrity_report_flags_the_tricks(batch):
    """Are the submissions using grader-facing tricks flagged, with their reason, and the
    honest noisy one not flagged for tampering?"""
    flags = read_results(batch["course"].root, [ID]).integrity
    reasons = {student: " ".join(f["reason"] for f in found)
               for (student, _), found in flags.items()}
    expected = {"function_mode": "TorchFunctionMode", "tensor_subclass": "__torch_function__",
                "exec_source": "exec", "input_transformer": "get_ipython",
                "os_exit": "os._exit", "uninterruptible": "signal",
                "segfault": "ctypes", "fake_torch": "sys.modules",
                "read_solutions": "names the path", "daemon": "subprocess",
                "forged_metadata": "forged", "deleted_test": "deleted",
                "duplicated_test": "second copy", "changed_points": "points",
                "retyped_test": "retyped", "renamed_test": "deleted or renamed"}
    for student, word in expected.items():
        assert word in reasons.get(student, ""), f"{student}: flags {reasons.get(student)}"


def test_a_cell_too_large_to_run_is_shortened_where_pages_show_it(batch):
    """Is the 6 MB cell kept whole in submitted/ but shortened, with a note, in the autograded
    notebook (its feedback page would otherwise take minutes and gigabytes to render)?"""
    root = batch["course"].root
    graded = nbformat.read(root / "autograded" / "huge_source" / ID / f"{ID}.ipynb", 4)
    handed_in = nbformat.read(root / "submitted" / "huge_source" / ID / f"{ID}.ipynb", 4)
    assert max(len(c.source) for c in handed_in.cells) > 5 << 20
    assert max(len(c.source) for c in graded.cells) < 64 << 10
    [shortened] = [c for c in graded.cells if "not shown" in c.source]
    assert len(shortened.source) < 4096 and "was not run" in shortened.source
