"""Can an instructor read a pair's similarity page, in English and in Chinese, opened offline:
the two notebooks side by side, the passages they share marked on both sides, the student's
text shown as text and nothing run or fetched?

For each language a course folder holds the release of 01_attention_by_hand and five
notebooks made from it: the reference (ada), a solution written apart from it (bob), a
disguised copy of bob's (cy), the blank release (dee), and a disguised copy of the reference
whose own cell carries markup and a script in a string and a comment (eve); and two it must
leave out, saying why: a link to ada's notebook (fox) and a file that is not a notebook
(gus). The kit writes the
report (similarity_page.write_similarity); the pair page is opened in Debian's headless
Chromium with the network off, measured, and photographed (artifacts/similarity-en.png,
similarity-zh.png)."""

from __future__ import annotations

import html
import shutil
import subprocess
import sys

import nbformat
import pytest

from autograder.checks.loader import load_assignment
from autograder.i18n import catalog
from autograder.outputs.similarity_page import page_name, write_similarity
from autograder.tools import simulate
from tests.autograder.conftest import ARTIFACTS
from tests.autograder.outputs import test_feedback_page as feedback_page
from tests.course import ROOT

try:
    from selenium.webdriver.common.by import By
except ImportError:  # the chromedriver fixture skips the test, or fails it in CI
    By = None

ID = "01_attention_by_hand"
WINDOW = feedback_page.WINDOW
offline_browser = feedback_page.offline_browser  # the feedback page's browser: network off
INJECTED = ('shown = "</pre><script>document.title = \'owned\'</script>"  '
            '# <img src=x onerror=alert(1)>\n')


SAID = {}  # language -> what the command said


def read(stage):
    return nbformat.read(ROOT / stage / ID / f"{ID}.ipynb", as_version=4)


def class_of(release, source):
    independent = simulate.independent(release, source, ID)
    eve = simulate.after_cell(simulate.disguised(simulate.correct(release, source)),
                              "context_vectors", INJECTED)
    return {"ada": simulate.correct(release, source), "bob": independent,
            "cy": simulate.disguised(independent), "dee": release, "eve": eve}


@pytest.fixture(scope="module", params=["en", "zh"])
def report(request, tmp_path_factory):
    """(language, the report's folder) of a course in that language."""
    root = tmp_path_factory.mktemp(f"similarity-{request.param}")
    config = (ROOT / "nbgrader_config.py").read_text(encoding="utf-8")
    (root / "nbgrader_config.py").write_text(
        config.replace('c.Course.language = "en"', f'c.Course.language = "{request.param}"'),
        encoding="utf-8")
    for stage in ("source", "release"):  # the command knows a course's ids by source/
        shutil.copytree(ROOT / stage / ID, root / stage / ID)
    shutil.copytree(ROOT / "assignments", root / "assignments",  # where its flag is declared
                    ignore=shutil.ignore_patterns("__pycache__"))
    release, source = read("release"), read("source")
    for student, notebook in class_of(release, source).items():
        (root / "submitted" / student / ID).mkdir(parents=True)
        nbformat.write(notebook, root / "submitted" / student / ID / f"{ID}.ipynb")
    for student in ("fox", "gus"):
        (root / "submitted" / student / ID).mkdir(parents=True)
    (root / "submitted" / "fox" / ID / f"{ID}.ipynb").symlink_to(
        root / "submitted" / "ada" / ID / f"{ID}.ipynb")
    (root / "submitted" / "gus" / ID / f"{ID}.ipynb").write_text("not a notebook")
    write_similarity(root, [ID], root / "similarity", log=SAID.setdefault(request.param, []).append)
    return request.param, root / "similarity" / ID


def words(code, english, **fields):
    """A text of the page in the course's language."""
    return (english if code == "en" else catalog("zh")[english]).format(**fields)


def test_the_index_ranks_the_copies(report):
    """Does the index link exactly the two copied pairs (not the link to ada's notebook as a
    third copy), name the blank notebook as having no code of its own, and the two it did not
    read with the reason of each?"""
    code, folder = report
    assert sorted(p.name for p in folder.glob("*--*.html")) == ["ada--eve.html", "bob--cy.html"]
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert index.index("bob--cy.html") > 0 and "ada--eve.html" in index
    assert words(code, "No code of their own: {students}", students="dee") in index
    link = words(code, "the submission holds {entry}, a symbolic link or special file",
                 entry=f"{ID}.ipynb")
    not_read = words(code, "not a Jupyter notebook ({error})", error="NotJSONError")
    assert words(code, "Not compared, their notebook was not read: {students}",
                 students=f"fox ({link}); gus ({not_read})") in index
    for student, why in (("fox", link), ("gus", not_read)):
        assert words(code, "similarity {assignment}: {student} not compared: {why}",
                     assignment=ID, student=student, why=why) in SAID[code]


def test_the_pair_page_is_readable_offline(report, offline_browser):
    """Opened with the network off, does the page show both notebooks side by side, each with
    marked passages, no script run or present, nothing wider than the window, and its words
    in the course's language?"""
    code, folder = report
    browser = offline_browser
    browser.get((folder / "bob--cy.html").resolve().as_uri())
    sides = browser.find_elements(By.CSS_SELECTOR, "div.side")
    assert len(sides) == 2
    left, right = (side.rect for side in sides)
    assert left["x"] + left["width"] <= right["x"] and abs(left["y"] - right["y"]) < 2
    for side in sides:
        assert side.find_elements(By.TAG_NAME, "mark"), "a side with no passage marked"
    assert browser.execute_script("return document.scripts.length") == 0
    assert browser.execute_script("return document.documentElement.scrollWidth") <= WINDOW[0]
    assert browser.title == words(code, "Similar code in {assignment}: {first} and {second}",
                                  assignment=ID, first="bob", second="cy")
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / f"similarity-{code}.png"))


def test_the_students_text_is_shown_as_text(report, offline_browser):
    """Is markup a student wrote (a script in a string, an image in a comment) shown as the
    text it is, with no element made of it and the page's title unchanged?"""
    code, folder = report
    browser = offline_browser
    browser.get((folder / "ada--eve.html").resolve().as_uri())
    shown = browser.find_element(By.TAG_NAME, "body").text
    assert "<script>document.title = 'owned'</script>" in shown
    assert not browser.find_elements(By.TAG_NAME, "img")
    assert browser.title != "owned"
    assert "Content-Security-Policy" in (folder / "ada--eve.html").read_text(encoding="utf-8")


def kit(root, *args):
    return subprocess.run([sys.executable, "-m", "autograder", "--root", str(root), *args],
                          capture_output=True, text=True, timeout=600, cwd=root)


def squeezed(text):
    """The text without its white space: argparse wraps help lines where it likes."""
    return "".join(text.split())


def test_the_command_writes_the_report_and_says_where(report):
    """Does `python -m autograder similarity ID --to DIR` write the pages and print where, with
    the assignment's own flag (checks.py's SIMILARITY), in the course's language, exit 1
    (fox's and gus's notebooks are not compared: the report is not whole);
    refuse a threshold that is no share, or characters below 0, with exit 1, naming it; and
    does its --help explain it in the course's language?"""
    code, folder = report
    root = folder.parents[1]
    run = kit(root, "similarity", ID, "--to", str(root / "again"))
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    index = root / "again" / ID / "index.html"
    assert (index.parent / "bob--cy.html").exists()
    flag = load_assignment(ROOT, ID).similar
    assert flag.characters > 0  # 01's code is short: its flag counts characters too
    flag_said = words(code, "{share} or more of one notebook's own code, and {characters} "
                      "characters or more, in common with the other",
                      share=f"{100 * flag.share:.0f}%", characters=flag.characters)
    assert words(code, "similarity {assignment}: {notebooks}, {flagged} flagged ({flag}): "
                 "{path}", assignment=ID, notebooks=words(code, "{count} notebooks", count=5),
                 flagged=words(code, "{count} pairs", count=2), flag=flag_said,
                 path=index) in run.stdout
    for option, value in (("--threshold", "50"), ("--characters", "-1")):
        refused = kit(root, "similarity", ID, option, value)
        assert refused.returncode == 1 and f"{option} {value}" in refused.stderr, refused
    helped = kit(root, "similarity", "--help")
    assert helped.returncode == 0 and squeezed(words(
        code, "flag a pair when one notebook has this share of its own code in common with "
        "the other (default: the assignment's, SIMILARITY in its checks.py, else 0.5)")) in \
        squeezed(helped.stdout)


def test_the_pages_are_never_written_into_the_courses_folders(report):
    """Does `similarity --to release` (or submitted, assignments) refuse with exit 1 and
    write nothing there: released, the pages of classmates' code would go to every
    student?"""
    code, folder = report
    root = folder.parents[1]
    for place in ("release", "submitted", "assignments"):
        before = sorted((root / place).rglob("*"))
        run = kit(root, "similarity", ID, "--to", place)
        assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
        assert words(code, "{path} is inside {folder}/, which holds the course's own files "
                     "and nothing else: write the output elsewhere (--to)",
                     path=root / place, folder=place) in run.stderr, run.stderr
        assert sorted((root / place).rglob("*")) == before


def test_the_command_line_replaces_the_assignments_flag(report):
    """Does --characters above every pair's matched code flag none, and --threshold 1 with
    --characters 0 flag exactly the pairs whose one notebook is all in common (each run
    exits 1: fox's and gus's notebooks are not compared)?"""
    code, folder = report
    root = folder.parents[1]
    run = kit(root, "similarity", ID, "--to", str(root / "strict"), "--characters", "100000")
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert not list((root / "strict" / ID).glob("*--*.html"))
    run = kit(root, "similarity", ID, "--to", str(root / "whole"), "--threshold", "1",
              "--characters", "0")
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert words(code, "{share} or more of one notebook's own code in common with the other",
                 share="100%") in run.stdout


def test_code_too_short_to_tell_flags_nothing_and_says_why(report, tmp_path):
    """Where the assignment's checks.py says its code is too short to tell
    (Similar(tells=False)), is no pair flagged, does the index say why and list the most
    alike pairs with their pages to read, and does the command say so, in the course's
    language?"""
    code, folder = report
    root = tmp_path / "course"
    shutil.copytree(folder.parents[1], root, symlinks=True,
                    ignore=shutil.ignore_patterns("similarity", "again", "strict", "whole"))
    checks = root / "assignments" / ID / "checks.py"
    checks.write_text(checks.read_text(encoding="utf-8")
                      + "\nSIMILARITY = Similar(tells=False)\n", encoding="utf-8")
    said = []
    [result] = write_similarity(root, [ID], root / "similarity", log=said.append)
    assert result.flagged == [] and result.listed == result.pairs[:5] and result.listed
    index = (root / "similarity" / ID / "index.html").read_text(encoding="utf-8")
    assert words(code, "Independent correct solutions of this assignment share as much code "
                 "as copies do (bench/similarity_calibration.py measured it), so no pair is "
                 "flagged. The {count} most alike pairs are below for you to read; "
                 "--threshold and --characters flag pairs anyway.",
                 count=len(result.listed)) in html.unescape(index)
    assert all((root / "similarity" / ID / page_name(p)).exists() for p in result.listed)
    none = words(code, "none: the code of this assignment is too short to tell a copy from "
                 "students who wrote it alone")
    assert any(none in line for line in said), said
