"""Does a student's path through JupyterLab work with nbgrader's extensions: the Assignment
List shows the released assignment, Fetch brings it home, Validate names the steps still to
do, and Submit puts the edited notebook in the exchange?

Real things only: the instructor releases with `nbgrader release_assignment`, the student
runs a JupyterLab server of her own (nbgrader's assignment_list and validate_assignment
server extensions, its lab extension) and is played by Debian's headless Chromium, driven
by selenium through Debian's chromedriver. The path is walked in the English course and in
the Simplified Chinese one (made by `python -m autograder init --language zh`). A screenshot
of each stage is kept in artifacts/student/ (01-assignment-list.png ...; the Chinese course's
in artifacts/student/zh/), and failure.png when a stage fails."""

from __future__ import annotations

import inspect
import os
import shutil
import sys
import textwrap
import time
import urllib.error
import urllib.request
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import nbformat
import psutil
import pytest

import solutions
from autograder.build.course_folder import init_course
from autograder.course.directory import nbgrader_env, run_nbgrader

from .conftest import ARTIFACTS, driven_chromium, free_port

try:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # the chromedriver fixture skips the test, or fails it in CI
    WebDriverWait = None

ROOT = Path(__file__).resolve().parents[2]
ID = "01_attention_by_hand"
COURSE = "self-attention"  # c.CourseDirectory.course_id in nbgrader_config.py
STUDENT = "ada"
STEP = "project_qkv"  # the one step the student writes; the others stay stubs
SHOTS = ARTIFACTS / "student"
TOKEN = "student-token"
WINDOW = (1400, 1000)
TITLES = {"en": "Assignment 1", "zh": "作业 1"}  # how the notebook's first heading starts
WAIT = 30  # seconds a stage may wait for the page
VALIDATE_WAIT = 90  # Validate runs the whole notebook in a fresh kernel (torch included)
# A student's server runs nbgrader's student extensions; formgrader and the course list
# are the instructor's.
SERVER_EXTENSIONS = {
    "nbgrader.server_extensions.assignment_list": True,
    "nbgrader.server_extensions.validate_assignment": True,
    "nbgrader.server_extensions.formgrader": False,
    "nbgrader.server_extensions.course_list": False,
}


@pytest.fixture(params=["en", "zh"])
def course_language(request):
    return request.param


@pytest.fixture
def exchange(tmp_path, course_language):
    """An exchange folder into which the instructor released the assignment, with real
    nbgrader run in a copy of the English course or in a Chinese course folder."""
    course = tmp_path / "course"
    if course_language == "en":
        course.mkdir()
        shutil.copy(ROOT / "nbgrader_config.py", course)
        for folder in ("source", "release"):
            shutil.copytree(ROOT / folder, course / folder)
    else:
        init_course(course, course_language, [ID], log=lambda _: None)
    exchange = tmp_path / "exchange"
    exchange.mkdir()
    run_nbgrader(course, "release_assignment", ID, f"--Exchange.root={exchange}", timeout=120)
    return exchange


@pytest.fixture
def student_home(tmp_path, exchange):
    """The student's home: an nbgrader_config.py naming the exchange, the course and her id
    (nbgrader names a submission after the account running the server, root in CI), and
    JupyterLab told not to ask about news (a toast over the page)."""
    home = tmp_path / STUDENT
    home.mkdir()
    (home / "nbgrader_config.py").write_text(textwrap.dedent(f"""\
        c = get_config()  # noqa: F821
        c.Exchange.root = {str(exchange)!r}
        c.CourseDirectory.course_id = {COURSE!r}
        c.CourseDirectory.student_id = {STUDENT!r}
        """))
    settings = home / ".jupyter/lab/user-settings/@jupyterlab/apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    return home


@dataclass
class Lab:
    """A running JupyterLab server and the file its output goes to."""

    url: str
    log: Path
    server: psutil.Popen | None = None

    def kernel_pythons(self):
        """The python executable of every kernel the server runs."""
        return [p.cmdline()[0] for p in self.server.children(recursive=True)
                if "ipykernel_launcher" in p.cmdline()]

    def log_tail(self, lines=40):
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def answers(self, path, method="GET"):
        request = urllib.request.Request(f"{self.url}{path}", method=method,
                                         headers={"Authorization": f"token {TOKEN}"})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status == 200
        except (urllib.error.URLError, OSError):
            return False


def lab_command(home, port):
    extensions = [f"--ServerApp.jpserver_extensions={name}={enabled}"
                  for name, enabled in SERVER_EXTENSIONS.items()]
    root = ["--allow-root"] if os.geteuid() == 0 else []
    return [sys.executable, "-m", "jupyterlab", "--no-browser", *root, "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={home}", *extensions]


def student_env(home):
    """The student's environment: her HOME and user name, the virtualenv first on PATH (its
    python runs the `python3` kernel, torch included), no JUPYTER_* of the caller's."""
    env = {k: v for k, v in nbgrader_env().items() if not k.startswith("JUPYTER")}
    return {**env, "HOME": str(home), "USER": STUDENT, "LOGNAME": STUDENT}


@pytest.fixture
def jupyterlab(student_home, tmp_path):
    """The student's JupyterLab, started from her home; stopped with its kernels afterwards,
    whatever happened."""
    port = free_port()
    lab = Lab(f"http://127.0.0.1:{port}", tmp_path / "jupyterlab.log")
    with open(lab.log, "w") as log:
        lab.server = psutil.Popen(lab_command(student_home, port), cwd=student_home,
                                  env=student_env(student_home), stdout=log, stderr=log,
                                  start_new_session=True)
    try:
        wait_until_answering(lab)
        yield lab
    finally:
        stop_server(lab)


def wait_until_answering(lab, timeout=60):
    deadline = time.monotonic() + timeout
    while not lab.answers("/api/status"):
        if lab.server.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"JupyterLab did not start (exit code {lab.server.poll()}):\n"
                        f"{lab.log_tail()}")
        time.sleep(0.1)


def stop_server(lab):
    """Ask the server to shut down (it stops its kernels), then kill whatever of it is left."""
    server = lab.server
    with suppress(psutil.Error):
        started = server.children(recursive=True)  # kernels run in sessions of their own
        lab.answers("/api/shutdown", method="POST")
        with suppress(psutil.TimeoutExpired):
            server.wait(timeout=20)
        for process in [server, *started]:
            with suppress(psutil.NoSuchProcess):
                process.kill()
        psutil.wait_procs([server, *started], timeout=10)


@pytest.fixture
def browser(chromium, chromedriver):
    """Debian's Chromium, headless, driven through Debian's chromedriver."""
    with driven_chromium(chromium, chromedriver, WINDOW) as driver:
        yield driver


def steps_of_the_release():
    """The functions the student writes, in the notebook's order (its solution cells)."""
    release = nbformat.read(ROOT / "release" / ID / f"{ID}.ipynb", as_version=4)
    return [c.metadata.nbgrader["grade_id"] for c in release.cells
            if c.metadata.get("nbgrader", {}).get("solution")]


def solution_of(step):
    return textwrap.dedent(inspect.getsource(getattr(solutions, step))).rstrip()


def cell_source(notebook_path, header):
    """The source of the code cell that contains `header`, or None."""
    notebook = nbformat.read(notebook_path, as_version=4)
    return next((c.source for c in notebook.cells
                 if c.cell_type == "code" and header in c.source), None)


def assignment_button(listing, label):
    """XPath of the button `label` on the assignment's row in one list of the Assignment
    List (released_assignments_list, fetched_assignments_list)."""
    return (f"//div[@id='{listing}']//div[contains(@class, 'list_item')]"
            f"[.//*[contains(@class, 'item_name')][normalize-space()='{ID}']]"
            f"//button[normalize-space()='{label}']")


# The notebook's scrolling panel, one screen further (back to the top once at the bottom).
SCROLL_A_SCREEN_DOWN = """
const panel = document.querySelector('.jp-NotebookPanel .jp-WindowedPanel-outer');
if (panel.scrollTop + panel.clientHeight >= panel.scrollHeight - 1) { panel.scrollTop = 0; }
else { panel.scrollBy(0, panel.clientHeight * 0.8); }
"""


def editor_text(cell):
    """The text in a cell's editor (its lines run together)."""
    return cell.find_element(By.CSS_SELECTOR, ".cm-content").get_attribute("textContent")


class Student:
    """A student in JupyterLab: each stage of her path ends with a screenshot; a stage that
    fails leaves failure.png and fails the test naming the stage, with the server's log."""

    def __init__(self, driver, lab, shots):
        self.driver, self.lab, self.shots = driver, lab, shots

    @contextmanager
    def stage(self, name):
        try:
            yield
            self.driver.save_screenshot(str(self.shots / f"{name}.png"))
        except Exception as error:
            with suppress(Exception):
                self.driver.save_screenshot(str(self.shots / "failure.png"))
            raise AssertionError(f"stage {name}: {type(error).__name__}: {error}\n"
                                 f"--- end of JupyterLab's log ---\n{self.lab.log_tail()}"
                                 ) from error

    def wait_for(self, what, condition, timeout=WAIT):
        """Wait until condition(driver) is truthy and return it; else fail saying `what`."""
        return WebDriverWait(self.driver, timeout, poll_frequency=0.1, ignored_exceptions=(
            NoSuchElementException, StaleElementReferenceException),  # the page re-renders
        ).until(condition, message=f"waited {timeout} s for {what}")

    def visible(self, what, by, selector, timeout=WAIT):
        """The first visible element found, once there is one."""
        def shown(driver):
            return next((e for e in driver.find_elements(by, selector) if e.is_displayed()),
                        None)
        return self.wait_for(what, shown, timeout)

    def click(self, what, by, selector, timeout=WAIT):
        self.visible(what, by, selector, timeout).click()

    def open_jupyterlab(self):
        self.driver.get(f"{self.lab.url}/lab?token={TOKEN}")

    def open_assignment_list(self):
        self.click("the Nbgrader menu", By.XPATH,
                   "//li[contains(@class, 'lm-MenuBar-item')][normalize-space()='Nbgrader']")
        self.click("its Assignment List item", By.CSS_SELECTOR,
                   "li.lm-Menu-item[data-command='nbgrader:open-assignment-list']")

    def open_fetched_notebook(self):
        self.click("the fetched assignment's name", By.XPATH,
                   f"//div[@id='fetched_assignments_list']"
                   f"//a[contains(@class, 'assignment-notebooks-link')][normalize-space()='{ID}']")
        self.click("the link to its notebook", By.XPATH,
                   f"//div[@id='nbgrader-{COURSE}-{ID}']//a[normalize-space()='{ID}']")

    def code_cell(self, header):
        """The notebook's code cell whose editor holds `header`, found by content, scrolling
        down as a student does: JupyterLab gives a cell its editor only once it is in view."""
        def cell(driver):
            cells = driver.find_elements(By.CSS_SELECTOR, ".jp-NotebookPanel .jp-CodeCell")
            found = next((c for c in cells
                          if c.find_elements(By.CSS_SELECTOR, ".cm-content")
                          and header in editor_text(c)), None)
            if found is None:
                driver.execute_script(SCROLL_A_SCREEN_DOWN)
            return found
        return self.wait_for(f"a code cell holding {header!r} in the notebook", cell)

    def wait_for_idle_kernel(self):
        self.wait_for("the notebook's kernel to be idle (status bar)", lambda driver: "| Idle"
                      in driver.find_element(By.ID, "jp-main-statusbar").text)

    def replace_cell_source(self, cell, source):
        """Select everything in the cell's editor and put `source` in its place, as a paste
        does (typing it would be re-indented by the editor)."""
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", cell)
        editor = cell.find_element(By.CSS_SELECTOR, ".cm-content")
        editor.click()
        editor.send_keys(Keys.CONTROL, "a")
        self.driver.execute_cdp_cmd("Input.insertText", {"text": source})

    def save(self):
        self.driver.switch_to.active_element.send_keys(Keys.CONTROL, "s")

    def validate(self):
        """Press nbgrader's Validate in the notebook's toolbar; the dialog it opens."""
        self.click("the Validate button", By.CSS_SELECTOR, ".jp-NotebookPanel .validate-button")
        return self.visible("the validation dialog", By.CSS_SELECTOR, ".jp-Dialog",
                            VALIDATE_WAIT)

    def close_dialog(self):
        self.click("the dialog's Ok button", By.CSS_SELECTOR, ".jp-Dialog .jp-mod-accept")
        self.wait_for("the dialog to close",
                      lambda d: not d.find_elements(By.CSS_SELECTOR, ".jp-Dialog"))

    def show_tab(self, label):
        self.click(f"the {label} tab", By.XPATH, "//div[@id='jp-main-dock-panel']"
                   f"//li[contains(@class, 'lm-TabBar-tab')][normalize-space()='{label}']")


@pytest.fixture
def student(browser, jupyterlab, course_language):
    """The student, with the screenshots of an earlier run removed."""
    shots = SHOTS if course_language == "en" else SHOTS / course_language
    shots.mkdir(parents=True, exist_ok=True)
    for old in shots.glob("*.png"):
        old.unlink()
    return Student(browser, jupyterlab, shots)


def test_student_fetches_validates_and_submits(student, student_home, exchange,
                                              course_language):
    """Does a student fetch the released assignment in JupyterLab (in English and in
    Chinese), fill one step, see Validate fail on the steps still to do, and submit her
    edited notebook?"""
    fetched = student_home / ID / f"{ID}.ipynb"
    header = f"def {STEP}("
    code = solution_of(STEP)
    with student.stage("01-assignment-list"):
        student.open_jupyterlab()
        student.open_assignment_list()
        student.visible("the release's Fetch button", By.XPATH,
                        assignment_button("released_assignments_list", "Fetch"))
    with student.stage("02-fetched"):
        student.click("Fetch", By.XPATH,
                      assignment_button("released_assignments_list", "Fetch"))
        student.visible("the fetched assignment's Submit button", By.XPATH,
                        assignment_button("fetched_assignments_list", "Submit"))
        assert fetched.is_file(), f"Fetch did not write {fetched}"
    with student.stage("03-notebook-opened"):
        student.open_fetched_notebook()
        title = student.visible("the notebook's title", By.CSS_SELECTOR, ".jp-MarkdownCell h1")
        assert TITLES[course_language] in title.text, title.text
        student.wait_for_idle_kernel()
        assert student.lab.kernel_pythons() == [sys.executable], "not the virtualenv's kernel"
    with student.stage("04-step-filled"):
        student.replace_cell_source(student.code_cell(header), code)
        student.save()
        student.wait_for(f"the saved notebook's {STEP} cell to be the solution",
                         lambda _: cell_source(fetched, header) == code)
    with student.stage("05-validate-dialog"):
        dialog = student.validate()
        text = dialog.text
        assert "nbgrader-ErrorDialog" in dialog.get_attribute("class"), text
        assert "The following cell failed" in text and "NotImplementedError" in text, text
        assert f"{STEP}(" not in text, f"the test of the filled step {STEP} failed:\n{text}"
        stubs = [s for s in steps_of_the_release() if s != STEP]
        assert stubs and all(f"{s}(" in text for s in stubs), f"not every stub named:\n{text}"
    with student.stage("06-submitted"):
        student.close_dialog()
        student.show_tab("Assignments")
        student.click("Submit", By.XPATH,
                      assignment_button("fetched_assignments_list", "Submit"))
        student.visible("the submission's timestamp", By.CSS_SELECTOR,
                        "#submitted_assignments_list .nested_list_item .item_name")
        [submission] = (exchange / COURSE / "inbound").glob(f"{STUDENT}+{ID}+*")
        assert (submission / "timestamp.txt").read_text().strip() in submission.name
        assert cell_source(submission / f"{ID}.ipynb", header) == code
