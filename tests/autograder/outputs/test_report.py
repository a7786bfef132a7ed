"""Does the class report read the grader's record as data, per assignment, for the ids asked,
and does `python -m autograder report` write a report, never a traceback, for every state a
course goes through in a term, saying what it cannot show yet?

The record tests write autograded notebooks with a record as the grader writes it
(autograder/course/notebook_record.py), with no gradebook. The course tests make a course folder
(the repository's nbgrader_config.py, empty source/ folders for two assignment ids) with a real
SQLite gradebook filled through nbgrader's Gradebook API, as grading would leave it, and run the
command line itself; no kernel starts."""

from __future__ import annotations

import base64
import html
import io
import os
import re
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import nbformat
import pytest
from alembic.script import ScriptDirectory
from nbgrader.dbutil import ALEMBIC_DIR

from autograder.checks.model import Finding
from autograder.cli import main
from autograder.course.directory import open_gradebook
from autograder.course.ledger import Problem, keep_problems
from autograder.course.notebook_record import add_findings, start_record
from autograder.i18n import catalog, language
from autograder.i18n.zh import CATALOG
from autograder.outputs import fonts, report
from autograder.outputs.report import SECTIONS, ClassResults, read_records, render_report
from autograder.outputs.report_gaps import feedback_command
from autograder.plumbing.kit_command import kit_command

ROOT = Path(__file__).resolve().parents[3]
FIRST, SECOND = "01_alpha", "02_beta"
DUE = datetime(2026, 12, 1, 10, 0)  # naive UTC, as nbgrader keeps it

# nbgrader's add_submission builds its rows in a way SQLAlchemy 2 warns about; not the kit's.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Object of type <Submitted:sqlalchemy.exc.SAWarning")


def make_course(folder: Path, code="en"):
    """A course in `code` with two assignments released (source/ folders) and no gradebook."""
    folder.mkdir()
    config = (ROOT / "nbgrader_config.py").read_text()
    (folder / "nbgrader_config.py").write_text(
        config.replace('c.Course.language = "en"', f'c.Course.language = "{code}"'))
    for assignment_id in (FIRST, SECOND):
        (folder / "source" / assignment_id).mkdir(parents=True)
    return folder


@pytest.fixture(autouse=True)
def quick_alembic(monkeypatch):
    """nbgrader asks the `alembic` executable for the newest schema (seconds); the same answer
    from its own migration folder, in this process."""
    import nbgrader.api

    monkeypatch.setattr(nbgrader.api, "get_alembic_version",
                        lambda: ScriptDirectory(ALEMBIC_DIR).get_current_head())


@pytest.fixture
def course(tmp_path):
    return make_course(tmp_path / "course")


def release(root, assignment_id, cells):
    """The assignment in the gradebook, as generate_assignment puts it: {cell: (points,
    graded by hand?)}."""
    with open_gradebook(root) as gb:
        gb.add_assignment(assignment_id, duedate=DUE)
        gb.add_notebook(assignment_id, assignment_id)
        for cell, (points, by_hand) in cells.items():
            gb.add_grade_cell(cell, assignment_id, assignment_id, max_score=points,
                              cell_type="markdown" if by_hand else "code")


def graded(root, assignment_id, student, scores, handed_in=DUE, penalty=0.0):
    """A submission graded as grade leaves it: scores per cell (None: left to the
    instructor), the time handed in, the late penalty, and the autograded notebook."""
    with open_gradebook(root) as gb:
        gb.update_or_create_student(student)
        gb.add_submission(assignment_id, student, timestamp=handed_in)
        for cell, score in scores.items():
            grade = gb.find_grade(cell, assignment_id, assignment_id, student)
            grade.auto_score = score
            grade.needs_manual_grade = score is None
        gb.find_submission_notebook(assignment_id, assignment_id, student) \
            .late_submission_penalty = penalty
        gb.db.commit()
    folder = root / "autograded" / student / assignment_id
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nbformat.v4.new_notebook(), folder / f"{assignment_id}.ipynb")


def feedback_page(root, assignment_id, student, age_seconds):
    """A feedback page written `age_seconds` before (negative: after) the notebook's grading."""
    page = root / "feedback" / student / assignment_id / f"{assignment_id}.html"
    page.parent.mkdir(parents=True)
    page.write_text("<html><body>feedback</body></html>")
    graded_at = (root / "autograded" / student / assignment_id /
                 f"{assignment_id}.ipynb").stat().st_mtime
    os.utime(page, (graded_at - age_seconds, graded_at - age_seconds))


def run_report(root, capsys, *ids):
    """Run `python -m autograder report` in the course; (exit code, page, console lines)."""
    code = main(["--root", str(root), "report", "--to", str(root / "report.html"), *ids])
    out = capsys.readouterr()
    assert "Traceback" not in out.err, out.err
    page = root / "report.html"
    return code, page.read_text(encoding="utf-8") if page.exists() else "", out.out.splitlines()


def gaps_of(page):
    """The lines of the report's 'partial' box."""
    box = re.search(r"<div class='gaps'>(.*?)</div>", page, re.DOTALL)
    return re.findall(r"<li>(.*?)</li>", box.group(1)) if box else []


def row_of(page, css_class, *first_cells):
    """The cells of the row of a table that starts with `first_cells`."""
    table = re.search(rf"<table class='{css_class}'>(.*?)</table>", page, re.DOTALL).group(1)
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.DOTALL):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)
        if tuple(cells[:len(first_cells)]) == first_cells:
            return cells
    raise AssertionError(f"no row {first_cells} in {css_class}")



# -- the grader's record ---------------------------------------------------------------------


def autograded(root, student, assignment_id, findings, tampering=()):
    notebook = nbformat.v4.new_notebook()
    start_record(notebook, tampering)
    add_findings(notebook, "test_step", findings)
    folder = root / "autograded" / student / assignment_id
    folder.mkdir(parents=True)
    nbformat.write(notebook, folder / f"{assignment_id}.ipynb")


def named(step, mistake):
    return Finding("value", step, "random case 1: 3 of 12 numbers are wrong", mistake, "a hint")


def test_mistakes_are_counted_per_assignment(tmp_path):
    """Is a mistake of the same name counted apart in two assignments, once per notebook?"""
    autograded(tmp_path, "ada", "01_a", [named("f", "swapped"), named("f", "swapped")])
    autograded(tmp_path, "bob", "01_a", [named("f", "swapped")])
    autograded(tmp_path, "ada", "02_b", [named("g", "swapped")])
    results = ClassResults()
    read_records(tmp_path, ["01_a", "02_b"], results)
    assert results.mistakes == {("01_a", "swapped"): 2, ("02_b", "swapped"): 1}


def test_only_the_assignments_asked_for_are_read(tmp_path):
    """Are notebooks of an assignment not asked for left out of mistakes and flags?"""
    autograded(tmp_path, "ada", "01_a", [named("f", "swapped")], tampering=["x restored"])
    autograded(tmp_path, "ada", "02_b", [named("g", "other")], tampering=["y restored"])
    results = ClassResults()
    read_records(tmp_path, ["02_b"], results)
    assert set(results.mistakes) == {("02_b", "other")}
    assert set(results.integrity) == {("ada", "02_b")}


def test_broken_rules_and_tampering_are_flags(tmp_path):
    """Does a broken rule show as a forbidden shortcut of its step, and a restored cell as
    tampering, without parsing any message?"""
    rule = Finding("rule", "stable_softmax", "stable_softmax calls PyTorch's softmax")
    autograded(tmp_path, "ada", "01_a", [rule], tampering=["points of 'test_f' changed"])
    results = ClassResults()
    read_records(tmp_path, ["01_a"], results)
    kinds = [(f["kind"], f["cell"]) for f in results.integrity[("ada", "01_a")]]
    assert kinds == [("forbidden shortcut", "test_stable_softmax"), ("tampered cells", "")]


def test_a_notebook_without_a_record_counts_nothing(tmp_path):
    """Is a notebook whose metadata has no grader's record (or a forged one) read as empty?"""
    folder = tmp_path / "autograded" / "eve" / "01_a"
    folder.mkdir(parents=True)
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kit"] = ["not", "a", "record"]
    nbformat.write(notebook, folder / "01_a.ipynb")
    results = ClassResults()
    read_records(tmp_path, ["01_a"], results)
    assert not results.mistakes and not results.integrity


def test_every_section_is_rendered():
    """Does the page have one heading per declared section, in order, each with its anchor,
    even with no data?"""
    page = render_report(ClassResults())
    positions = [page.index(f"<h2 id='{report.anchor(section)}'>{title}</h2>")
                 for title, section in SECTIONS]
    assert positions == sorted(positions)


# -- the states of a course -----------------------------------------------------------------


def test_a_course_with_nothing_graded(course, capsys):
    """With no gradebook yet, is a report written that says nothing is graded and what to
    run, on the page and on the console?"""
    code, page, lines = run_report(course, capsys)
    assert code == 0
    [gap] = gaps_of(page)
    assert "Nothing is graded yet" in gap and "python -m autograder grade" in gap
    # the page opens with its summary; the partial box follows it, folded to one line
    assert page.index("<h2 id='") < page.index("<div class='gaps'>") < page.index("<h2", (
        page.index("<h2 id='") + 1))
    assert "<details><summary>This report is partial: 1 thing it cannot show yet" in page
    assert any("Nothing is graded yet" in line for line in lines)
    assert lines[-1] == f"report: {course / 'report.html'}"


def test_an_assignment_not_in_the_gradebook_yet(course, capsys):
    """With the first assignment graded and the second released but never graded (every week
    but the last), does `report` with no ids write the report, the first's numbers and a line
    saying the second is not graded yet and how to grade it?"""
    release(course, FIRST, {"test_f": (4, False)})
    graded(course, FIRST, "ada", {"test_f": 4})
    code, page, lines = run_report(course, capsys)
    assert code == 0
    assert gaps_of(page) == [f"{SECOND}: nothing graded yet; once its notebooks are collected, "
                             f"run {kit_command()} grade {SECOND}."]
    assert row_of(page, "", FIRST)[1:] == ["1", "4.0", "4", "4"]
    assert row_of(page, "", SECOND)[1:] == ["0", "", "", ""]
    assert any(SECOND in line and "grade" in line for line in lines)


def test_an_assignment_collected_but_not_graded(course, capsys):
    """With the second assignment's notebooks collected into submitted/ but not graded, does
    the report count them and name the command that grades them (not collect)?"""
    release(course, FIRST, {"test_f": (4, False)})
    graded(course, FIRST, "ada", {"test_f": 4})
    for student in ("ada", "bob"):
        folder = course / "submitted" / student / SECOND
        folder.mkdir(parents=True)
        nbformat.write(nbformat.v4.new_notebook(), folder / f"{SECOND}.ipynb")
    _, page, _ = run_report(course, capsys)
    assert gaps_of(page) == [f"{SECOND}: 2 notebooks collected, none graded yet; run "
                             f"{kit_command()} grade {SECOND}."]

def test_an_assignment_whose_checks_cannot_be_read(course, capsys):
    """When one assignment's checks.py is gone (an update's --keep of a file the kit deleted),
    is the report still written with every assignment's numbers, the one without its similar
    pairs and saying why on the page and the console, with an exit of 1?"""
    release(course, FIRST, {"test_f": (4, False)})
    graded(course, FIRST, "ada", {"test_f": 4})
    (course / "assignments" / SECOND).mkdir(parents=True)
    (course / "assignments" / SECOND / "notebook.py").write_text("# its checks.py is gone\n")
    code, page, lines = run_report(course, capsys)
    assert code == 1
    [gap] = [g for g in gaps_of(page) if g.startswith(SECOND)
             and "its similar pairs are left out" in g]
    assert f"{SECOND}/checks.py is missing" in gap
    assert row_of(page, "", FIRST)[1:] == ["1", "4.0", "4", "4"]
    assert any(line.startswith(f"{SECOND}: its similar pairs") for line in lines)
    assert lines[-1] == f"report: {course / 'report.html'}"


def test_an_assignment_nobody_handed_in(course, capsys):
    """Is an assignment the gradebook knows (released) but nobody submitted said to have
    nothing graded, with its points, instead of breaking the report?"""
    release(course, FIRST, {"test_f": (4, False)})
    release(course, SECOND, {"test_g": (2, False)})
    graded(course, FIRST, "ada", {"test_f": 3})
    code, page, _ = run_report(course, capsys)
    assert code == 0
    assert row_of(page, "", SECOND)[1:] == ["0", "", "", "2"]
    assert [g for g in gaps_of(page) if g.startswith(SECOND)]


def test_a_student_with_no_submission(course, capsys):
    """Is a student who handed nothing in for one assignment shown as missing there, with a
    total over both assignments that counts it as 0?"""
    release(course, FIRST, {"test_f": (4, False)})
    release(course, SECOND, {"test_g": (2, False)})
    graded(course, FIRST, "ada", {"test_f": 3})
    graded(course, SECOND, "ada", {"test_g": 2})
    graded(course, FIRST, "bob", {"test_f": 1})
    _, page, _ = run_report(course, capsys)
    assert row_of(page, "students", "bob")[2:] == ["missing", f"{1 + 0:g}/{4 + 2:g}"]
    assert row_of(page, "students", "ada")[-1] == f"{3 + 2:g}/{4 + 2:g}"


def test_a_regraded_student_has_a_stale_feedback_page(course, capsys):
    """Is a feedback page written before the student's latest grading marked stale, with the
    command that rewrites it, and a page written after the grading left unmarked?"""
    release(course, FIRST, {"test_f": (4, False)})
    graded(course, FIRST, "ada", {"test_f": 4})
    graded(course, FIRST, "bob", {"test_f": 2})
    feedback_page(course, FIRST, "ada", age_seconds=60)  # ada was graded again since
    feedback_page(course, FIRST, "bob", age_seconds=-60)
    _, page, _ = run_report(course, capsys)
    ada, bob = row_of(page, "students", "ada")[1], row_of(page, "students", "bob")[1]
    assert "stale" in ada and "stale" not in bob
    assert feedback_command("ada", FIRST) == f"python -m autograder feedback {FIRST} --student ada"
    assert feedback_command("ada", FIRST) in row_of(page, "submissions", "ada")[-1]
    assert any(g.startswith("Feedback pages older") and ": 1;" in g for g in gaps_of(page))



def test_feedback_rewrites_the_page_the_report_marks_stale(course, capsys):
    """Does the command the stale mark names rewrite the page, so that the next report marks
    nothing? (feedback writes the page of every graded student, an existing one too)"""
    release(course, FIRST, {"test_f": (4, False)})
    graded(course, FIRST, "ada", {"test_f": 4})
    feedback_page(course, FIRST, "ada", age_seconds=60)
    assert "stale" in row_of(run_report(course, capsys)[1], "students", "ada")[1]
    command = feedback_command("ada", FIRST).split()[3:]  # after `python -m autograder`
    assert main(["--root", str(course), *command, "--workers", "1"]) == 0
    capsys.readouterr()
    _, page, _ = run_report(course, capsys)
    assert "stale" not in row_of(page, "students", "ada")[1]
    assert not [gap for gap in gaps_of(page) if "feedback" in gap]

# -- the columns ----------------------------------------------------------------------------


def test_the_submissions_table_has_every_column(course, capsys):
    """Does a late submission's row say when it was handed in, how late, its raw score, the
    penalty, the score after it, the points, and that a cell waits for a manual grade; and
    the scores by assignment count the score after the penalty?"""
    release(course, FIRST, {"test_f": (4, False), "answer": (2, True)})
    handed_in = DUE.replace(hour=12, minute=30)
    graded(course, FIRST, "ada", {"test_f": 4, "answer": None}, handed_in=handed_in,
           penalty=0.4)
    _, page, _ = run_report(course, capsys)
    row = row_of(page, "submissions", "ada", FIRST)
    assert row[2:8] == ["2026-12-01 12:30:00 UTC", "2:30:00", "4", "0.4", f"{4 - 0.4:g}", "6"]
    assert "manual grade" in row[8]
    # the scores by assignment are those the student keeps, as grade's console says them
    assert row_of(page, "", FIRST)[1:] == ["1", f"{4 - 0.4:.1f}", f"{4 - 0.4:g}", "6"]
    assert "manual" in row_of(page, "students", "ada")[1]
    assert any(g.startswith("Submissions that need a manual grade") and ": 1;" in g
               for g in gaps_of(page))


def test_the_report_says_when_it_was_made(course, capsys):
    """Does the page carry the time it was generated (UTC, to the second)?"""
    before = datetime.now(UTC).replace(microsecond=0, tzinfo=None)
    _, page, _ = run_report(course, capsys)
    after = datetime.now(UTC).replace(tzinfo=None)
    stamp = re.search(r"Generated (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC", page).group(1)
    assert before <= datetime.fromisoformat(stamp) <= after


# -- in Chinese -----------------------------------------------------------------------------


def test_the_chinese_report_and_its_console_lines(tmp_path, capsys):
    """In a Chinese course, are the report's gap lines and every console line of `report`
    Chinese?"""
    root = make_course(tmp_path / "zh", "zh")
    release(root, FIRST, {"test_f": (4, False)})
    graded(root, FIRST, "ada", {"test_f": 4})
    code, page, lines = run_report(root, capsys)
    assert code == 0
    assert lines == [
        CATALOG["{assignment}: nothing graded yet; once its notebooks are collected, run "
                "{command}."].format(assignment=SECOND,
                                     command=f"{kit_command()} grade {SECOND}"),
        CATALOG["report: {path}"].format(path=root / "report.html")]
    assert "<summary>这份报告还不完整：有 " in page and "生成于 " in page


NO_CJK_FONTS = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>{cache}</cachedir>
<alias><family>sans-serif</family><prefer><family>DejaVu Sans</family></prefer></alias>
</fontconfig>
"""


def test_chinese_and_english_partial_reports_in_a_browser(tmp_path, capsys, screenshot,
                                                          monkeypatch):
    """Opened in headless Chromium on a machine whose only fonts are DejaVu (no CJK font),
    does the report of a course with one assignment not yet graded render in both languages
    (kept as artifacts/report-partial-en.png and -zh.png; the Chinese page's glyphs come from
    the font it embeds)?"""
    (tmp_path / "fonts.conf").write_text(NO_CJK_FONTS.format(cache=tmp_path / "font-cache"))
    monkeypatch.setenv("FONTCONFIG_FILE", str(tmp_path / "fonts.conf"))
    for code in ("en", "zh"):
        root = make_course(tmp_path / code, code)
        release(root, FIRST, {"test_f": (4, False), "test_g": (2, False), "answer": (1, True)})
        for number, student in enumerate(["ada", "bob", "cy", "dee", "eve"]):
            late = DUE.replace(day=1 + number % 3)  # cy and eve a day late, dee two days
            graded(root, FIRST, student, {"test_f": 4 - number % 4, "test_g": number % 3,
                                          "answer": None if number == 2 else 1},
                   handed_in=late, penalty=(number % 3) * 0.1 * (4 - number % 4))
        feedback_page(root, FIRST, "ada", age_seconds=60)
        (root / "submitted" / "fay" / FIRST).mkdir(parents=True)
        shutil.copy(root / "autograded" / "ada" / FIRST / f"{FIRST}.ipynb",
                    root / "submitted" / "fay" / FIRST / f"{FIRST}.ipynb")
        assert run_report(root, capsys)[0] == 0
        shot = screenshot(root / "report.html", f"report-partial-{code}", height=3000)
        assert shot.stat().st_size > 20_000  # a rendered page, not a blank one


# -- the charts -----------------------------------------------------------------------------


def test_the_pass_rate_bars_carry_their_numbers():
    """Is each step's bar labelled with its share of students and the count behind it, the
    first step (drawn at the top, so last) included?"""
    results = ClassResults(steps={("01_a", "f"): [True, False, True], ("01_a", "g"): [False]})
    figure = report.step_figure(results)
    labels = [text.get_text() for text in figure.axes[0].texts]
    report.plt.close(figure)
    assert labels == [f"{0:.0f}% (0/1)", f"{100 * 2 / 3:.0f}% (2/3)"]


def test_the_kit_draws_the_chinese_charts_with_its_own_font():
    """Does the font the kit installs (noto-cjk-sans-otc, requirements.lock) have every
    character the Chinese report's charts may draw, so they never depend on the machine's
    fonts, and is it the font chosen for them?"""
    from tests.course import STEPS  # loading the course puts its texts in the catalogs

    names = {mistake.name for step in STEPS.values() for mistake in step.mistakes}
    path = fonts.kit_font_path()
    assert path is not None, "pip install -r requirements.lock (bash scripts/kit setup)"
    with language("zh"):
        words = report.plot_texts(ClassResults()) + "".join(
            text for english, text in catalog("zh").items() if english in names)
    needed = {ord(c) for c in words if ord(c) > fonts.PLAIN}
    assert needed and needed <= fonts.characters_of(path)
    assert fonts.font_drawing(words) == fonts.KIT_FONT


# -- the page's own font --------------------------------------------------------------------


def embedded_characters(page):
    """The characters the font embedded in a page (page_font.py) has glyphs for."""
    from fontTools.ttLib import TTFont

    found = re.search(r"url\(data:font/woff;base64,([A-Za-z0-9+/=]+)\)", page)
    if found is None:
        return set()
    font = TTFont(io.BytesIO(base64.b64decode(found.group(1))))
    return {chr(code) for code in font.getBestCmap()}


def test_the_chinese_page_carries_its_glyphs(tmp_path, capsys):
    """Does the Chinese report embed a font with every character of its text beyond Latin, so
    a browser without a CJK font still draws it, and the English report embed none?"""
    for code in ("en", "zh"):
        root = make_course(tmp_path / code, code)
        release(root, FIRST, {"test_f": (4, False)})
        graded(root, FIRST, "ada", {"test_f": 3})
        page = run_report(root, capsys)[1]
        text = re.sub(r"<style>.*?</style>|<[^>]+>", "", page, flags=re.DOTALL)
        needed = {c for c in html.unescape(text) if ord(c) > fonts.PLAIN}
        if code == "en":
            assert not needed and not embedded_characters(page)
        else:
            assert needed and needed <= embedded_characters(page)


# -- the first screen -----------------------------------------------------------------------


def known_class(root):
    """A class whose summary is known: of 01_alpha's steps, g is the most failed (1 of 5
    students with its full points; f 3 of 5); "weights not normalised" is named in 3 notebooks,
    "swapped" in 1; bob and cy are late; eve changed a graded cell; collect refused three
    files: one of fay's and one that names no student, so two are not gradable, and a newer
    one of ada's 02_beta, the graded one kept; no code to compare."""
    release(root, FIRST, {"test_f": (4, False), "test_g": (2, False)})
    release(root, SECOND, {"test_h": (2, False)})
    late = DUE.replace(day=2)
    scores = {"ada": (4, 2, DUE), "bob": (4, 0, late), "cy": (2, 0, late), "dee": (4, 0, DUE),
              "eve": (0, 1, DUE)}
    for student, (f, g, handed_in) in scores.items():
        graded(root, FIRST, student, {"test_f": f, "test_g": g}, handed_in=handed_in)
    for student, h in (("ada", 2), ("bob", 2), ("cy", 0)):
        graded(root, SECOND, student, {"test_h": h})
    found = {"bob": [named("g", "weights not normalised")],
             "cy": [named("g", "weights not normalised")],
             "dee": [named("g", "weights not normalised")], "eve": [named("f", "swapped")]}
    for student, findings in found.items():
        notebook = nbformat.v4.new_notebook()
        start_record(notebook, ["points of 'test_f' changed"] if student == "eve" else [])
        add_findings(notebook, "test_step", findings)
        nbformat.write(notebook, root / "autograded" / student / FIRST / f"{FIRST}.ipynb")
    keep_problems(root, "collect", [FIRST], [
        Problem(Path("inbox/fay_01_alpha.ipynb"), "not a Jupyter notebook", "resubmit it",
                student="fay", assignment=FIRST),
        Problem(Path("inbox/final version.ipynb"), "the name tells no student",
                "rename it", assignment=FIRST)])
    keep_problems(root, "collect", [SECOND], [
        Problem(Path("inbox/ada_02_beta.ipynb"), "not a Jupyter notebook", "resubmit it",
                student="ada", assignment=SECOND)])
    return root


def summary_of(page):
    """The page's summary: from its heading to the next section's."""
    start = page.index("<h2 id='summary'>")
    return page[start:page.index("<h2 ", start + 1)]


def first_row(summary, css_class):
    table = re.search(rf"<table class='{css_class}'>(.*?)</table>", summary, re.DOTALL).group(1)
    return re.findall(r"<td>(.*?)</td>", re.findall(r"<tr>(.*?)</tr>", table)[1])


def test_a_notebook_within_the_grace_minutes_is_not_counted_late(course, capsys):
    """With 30 minutes of grace, is a notebook handed in 10 minutes past its due date said
    to be within them, beside its time, and left out of the summary's count of late
    submissions, while one handed in a day late still counts?"""
    config = course / "nbgrader_config.py"
    config.write_text(config.read_text() + "\nc.PercentPerDay.grace_minutes = 30\n")
    release(course, FIRST, {"test_f": (4, False)})
    graded(course, FIRST, "ada", {"test_f": 4}, handed_in=DUE + timedelta(minutes=10))
    graded(course, FIRST, "bob", {"test_f": 4}, handed_in=DUE + timedelta(days=1),
           penalty=0.4)
    _, page, _ = run_report(course, capsys)
    items = re.findall(r"<b>(\d+)</b> <a href='#late'>(.*?)</a>", summary_of(page))
    assert items == [("1", "late submission")], items
    assert "0:10:00 (within the grace minutes)" in page
    assert "1 d 0:00:00<" in page


def test_the_summary_comes_before_the_long_tables(course, capsys):
    """Does the report open with its summary, right after the header, and keep the two long
    tables (Students, Submissions) for last?"""
    _, page, _ = run_report(known_class(course), capsys)
    headings = re.findall(r"<h2 id='(\w+)'>", page)
    assert headings[0] == "summary" and headings[-2:] == ["students", "submissions"]
    assert page.index("<h1>") < page.index("<h2 id='summary'>") == page.index("<h2")


def test_the_summary_counts_what_needs_the_instructor(course, capsys):
    """Does the summary count the not gradable, the other refused inputs (each refusal
    counted once: a refused file that left a row not gradable is not counted again), the
    integrity flags, the
    similar pairs and the late submissions of a known class, each linked to a heading of the
    page, and every link of the page lead somewhere, and are those
    that are not 0 said on the console too?"""
    _, page, lines = run_report(known_class(course), capsys)
    items = re.findall(r"<li class='[\w-]+'><b>(\d+)</b> <a href='#(\w+)'>(.*?)</a></li>",
                       summary_of(page))
    assert {label: (int(n), target) for n, target, label in items} == {
        "not gradable": (2, "problems"), "other input refused": (1, "problems"),
        "submission flagged for integrity": (1, "integrity"),
        "similar pairs": (0, "similarity"), "late submissions": (2, "late")}
    assert "needs your attention, each with its fix on the page: 2 not gradable, 1 other " \
        "input refused, 1 submission flagged for integrity, 2 late submissions" in lines, lines
    ids = set(re.findall(r" id='(\w+)'", page))
    assert set(re.findall(r"href='#(\w+)'", page)) <= ids


def test_the_summary_names_the_most_failed_step_and_mistake(course, capsys):
    """Does the summary name 01_alpha's step g first (1 of 5 with full points) and "weights
    not normalised" first (3 notebooks), and give each assignment's mean and spread?"""
    _, page, _ = run_report(known_class(course), capsys)
    summary = summary_of(page)
    assert first_row(summary, "glance-steps") == [FIRST, "g", "20% (1/5)"]
    assert first_row(summary, "glance-mistakes") == [FIRST, "weights not normalised", "3"]
    assert f"<td>{FIRST}</td><td>5</td>" in summary and f"{(6 + 4 + 2 + 4 + 1) / 5:.1f}/6" \
        in summary
    spread = re.search(rf"<td>{SECOND}</td><td>3</td><td>(.*?)</td>", summary).group(1)
    assert re.findall(r"<small>(\d+)</small>", spread) == ["1", "0", "0", "0", "2"]


def test_the_first_screen_in_a_browser(tmp_path, capsys, screenshot, monkeypatch):
    """Opened in headless Chromium on a machine without a CJK font, does the report's first
    screen (1280 by 800) render the known class's summary in both languages (kept as
    artifacts/report-first-screen-en.png and -zh.png)?"""
    (tmp_path / "fonts.conf").write_text(NO_CJK_FONTS.format(cache=tmp_path / "font-cache"))
    monkeypatch.setenv("FONTCONFIG_FILE", str(tmp_path / "fonts.conf"))
    for code in ("en", "zh"):
        root = known_class(make_course(tmp_path / code, code))
        assert run_report(root, capsys)[0] == 0
        shot = screenshot(root / "report.html", f"report-first-screen-{code}", height=800)
        assert shot.stat().st_size > 20_000
