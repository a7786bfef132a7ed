"""Does the instructor's pipeline (collect, grade, feedback, export, report) work on a small
class, keep going past bad input, and resume instead of grading twice?

Real nbgrader, real kernels, a real SQLite gradebook, on assignment 01 (the quickest)."""

from __future__ import annotations

import base64
import csv
import re
import shutil
import struct
import subprocess
import sys
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import nbformat
import pytest

from autograder.course.directory import Course, run_nbgrader
from autograder.course.ledger import mark
from autograder.grading.parallel import grade, submission_scores
from autograder.outputs.collect import collect
from autograder.outputs.feedback import export_grades, write_feedback
from autograder.outputs.report import write_report
from autograder.plumbing.errors import OutputError
from autograder.tools import simulate

ROOT = Path(__file__).resolve().parents[2]
ID = "01_attention_by_hand"


def notebooks():
    release = nbformat.read(ROOT / "release" / ID / f"{ID}.ipynb", as_version=4)
    source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", as_version=4)
    return release, source


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A course whose inbox is an LMS zip with good, blank, mistaken and bad files."""
    tmp = tmp_path_factory.mktemp("pipeline")
    course = Course.create(tmp / "course", ROOT, [ID])
    shutil.copytree(ROOT / "release", course.root / "release")
    release, source = notebooks()
    inbox = tmp / "inbox"
    inbox.mkdir()
    mistake = simulate.mistakes_of(ROOT, ID)[0]
    deleted = simulate.correct(release, source)
    deleted.cells = [c for c in deleted.cells
                     if c.metadata.get("nbgrader", {}).get("grade_id") != "test_context_vectors"]
    handed_in = {
        "ada": simulate.correct(release, source),
        "bob": release,
        "cy": simulate.with_mistake(release, source, mistake),
        "dee": deleted,
    }
    for student, notebook in handed_in.items():
        nbformat.write(notebook, inbox / f"{student}_{ID}.ipynb")
    (inbox / f"eve_{ID}.ipynb").write_text("not json at all")
    (inbox / "final version.ipynb").write_text("{}")
    archive = tmp / "lms.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for hour, path in enumerate(sorted(inbox.iterdir())):  # handed in an hour apart
            info = zipfile.ZipInfo(f"export/{path.name}", date_time=(2026, 12, 1, 8 + hour, 0, 0))
            zipped.writestr(info, path.read_bytes())
    messages = []
    problems = collect(course.root, ID, archive, log=messages.append)
    first = grade(course.root, [ID], workers=2, log=messages.append)
    second = grade(course.root, [ID], workers=2, log=messages.append)
    with pytest.raises(OutputError) as pageless:  # eve's notebook is no notebook
        write_feedback(course.root, [ID], log=messages.append)
    csv_path = course.root / "grades.csv"
    export_grades(course.root, csv_path, log=messages.append)
    report = write_report(course.root, [ID], course.root / "report.html",
                          log=messages.append).path
    return {"course": course, "problems": problems, "first": first, "second": second,
            "csv": csv_path, "report": report, "messages": messages, "mistake": mistake,
            "pageless": str(pageless.value)}


def test_collect_reports_unparsable_names(course):
    """Is a file whose name does not follow the pattern named, with the fix, and skipped;
    and eve's file that is no notebook said at collect already, as hers?"""
    named, broken = course["problems"]
    assert named.path.name == "final version.ipynb" and "rename it" in named.fix
    assert broken.student == "eve" and "not a Jupyter notebook" in broken.reason


def test_collected_students(course):
    """Are the parsable files in submitted/<student>/<id>/<id>.ipynb?"""
    submitted = course["course"].root / "submitted"
    assert sorted(p.name for p in submitted.iterdir()) == ["ada", "bob", "cy", "dee", "eve"]


def test_broken_notebook_is_reported_and_the_batch_goes_on(course):
    """Is a file that is not a notebook refused with a one-line error, the rest graded?"""
    first = course["first"]
    broken = [p for p in first.problems if p.path.parts[-3] == "eve"]
    assert broken and "not a Jupyter notebook" in broken[0].reason
    assert sorted(s.student for s, _ in first.graded) == ["ada", "bob", "cy", "dee"]


def test_deleted_test_cell_is_flagged(course):
    """Is a notebook with a deleted test cell flagged, naming the cell, and still graded?"""
    flagged = [p for p in course["first"].problems if p.path.parts[-3] == "dee"]
    assert flagged and "test_context_vectors" in flagged[0].reason
    assert submission_scores(course["course"].root, ID, "dee") is not None


def test_scores(course):
    """Do the correct, blank and mistaken notebooks get full, zero and all-but-one-step?"""
    root = course["course"].root
    ada, bob, cy = (submission_scores(root, ID, s) for s in ("ada", "bob", "cy"))
    assert all(s == m for s, m in ada.values())
    assert not any(s for s, _ in bob.values())
    lost = [cell for cell, (s, m) in cy.items() if s != m]
    assert lost == [f"test_{course['mistake'].step}"]


def test_second_run_skips_graded_notebooks(course):
    """Does a re-run grade nothing that is already graded?"""
    second = course["second"]
    assert not second.graded and len(second.skipped) == 4


def test_changed_submission_is_graded_again(course, tmp_path):
    """Is a resubmitted (changed) notebook graded again, and only that one?"""
    root = course["course"].root
    release, source = notebooks()
    nbformat.write(simulate.correct(release, source), root / "submitted" / "bob" / ID /
                   f"{ID}.ipynb")
    run = grade(root, [ID], workers=1, log=lambda _: None)
    assert [s.student for s, _ in run.graded] == ["bob"]
    assert all(s == m for s, m in submission_scores(root, ID, "bob").values())


def test_unfinished_grading_is_graded_again_and_kept_meanwhile(course):
    """Is a submission whose grading did not finish graded again by the next run, and its
    gradebook entry kept (not deleted) meanwhile?"""
    root = course["course"].root
    notebook = root / "submitted" / "ada" / ID / f"{ID}.ipynb"
    mark(root, "ada", ID, notebook, "grading")  # as a run killed in the middle leaves it
    assert submission_scores(root, ID, "ada") is not None
    run = grade(root, [ID], workers=1, log=lambda _: None)
    assert [s.student for s, _ in run.graded] == ["ada"]


def test_feedback_pages(course):
    """Is there one feedback page per graded student, naming the mistake, hiding tests?"""
    root = course["course"].root
    pages = {p.parts[-3]: p.read_text() for p in (root / "feedback").glob(f"*/{ID}/*.html")}
    assert set(pages) >= {"ada", "bob", "cy", "dee"}
    assert course["mistake"].name in pages["cy"]
    assert not any("BEGIN HIDDEN" in t or "check_step" in t for t in pages.values())


def test_feedback_names_who_handed_in_and_has_no_page(course):
    """eve handed in a file that is no notebook, so no grade and no page: is she named on
    the console, and does feedback end in an error naming the command that says why?"""
    assert f"feedback {ID}: no page for eve: handed in, not graded" in course["messages"]
    assert course["pageless"].startswith("1 handed-in notebook has no feedback page")
    assert f"python -m autograder grade {ID}" in course["pageless"]


def test_export_has_a_row_per_student_and_assignment_and_totals(course):
    """Does the CSV hold a row per student and assignment plus a TOTAL row each?"""
    rows = list(csv.DictReader(course["csv"].open(encoding="utf-8-sig")))
    ada = [r for r in rows if r["student_id"] == "ada"]
    assert [r["assignment"] for r in ada] == [ID, "TOTAL"]
    assert ada[0]["score"] == ada[0]["max_score"] == "10"


def test_export_names_every_student_with_a_status(course):
    """Is every student there, the one whose file is not a notebook and the file whose name
    tells no student included, each with a status and, when refused, the reason and fix?"""
    table = course["csv"].open(encoding="utf-8-sig")
    rows = [r for r in csv.DictReader(table) if r["assignment"] == ID]
    statuses = {r["student_id"]: r["status"] for r in rows}
    assert statuses == {"ada": "graded", "bob": "graded", "cy": "graded",
                        "dee": "graded with warnings", "eve": "not gradable",
                        "": "not gradable"}
    eve = next(r for r in rows if r["student_id"] == "eve")
    assert "not a Jupyter notebook" in eve["note"] and "resubmit" in eve["note"]
    unknown = next(r for r in rows if not r["student_id"])
    assert "final version.ipynb" in unknown["note"]


def test_report_is_self_contained_with_plots(course):
    """Is the report one HTML page with embedded PNG plots and the named mistake?"""
    page = course["report"].read_text()
    assert page.count("data:image/png;base64,") == 3
    assert course["mistake"].name in page and "final version.ipynb" in page


def test_report_lists_every_student_with_a_link_to_their_feedback(course):
    """Does the report's class table name every student with a status, link each graded
    one to their feedback page, and keep the refused ones with their reason?"""
    page = course["report"].read_text()
    table = page[page.index("<table class='students'>"):]
    table = table[:table.index("</table>")]
    for student in ("ada", "bob", "cy", "dee", "eve"):
        assert f"<td>{student}</td>" in table
    assert f"href='feedback/ada/{ID}/{ID}.html'" in table
    assert "not gradable" in table and "not a Jupyter notebook" in table


def png_width(encoded):
    """The width in pixels of a base64 PNG (from its IHDR header)."""
    return struct.unpack(">I", base64.b64decode(encoded)[16:20])[0]


def test_report_reads_well_in_a_browser(course, screenshot):
    """Opened in Debian's headless Chromium, does the report render (kept as
    artifacts/report.png), with every plot no wider than the page's column?"""
    page = course["report"]
    shot = screenshot(page, "report")
    assert shot.stat().st_size > 20_000  # a rendered page, not a blank one
    text = page.read_text()
    plots = re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", text)
    assert plots and all(png_width(p) <= 960 for p in plots), [png_width(p) for p in plots]


def test_missing_kernel_is_a_clear_error():
    """Does grading without what every kernel imports stop with an error that says what to
    install, and does the check itself import nothing of IPython (a cold grade's command
    never needs it)?"""
    from autograder.grading.parallel import GradeError, check_kernel

    with pytest.raises(GradeError, match="pip install no_such_kernel_module"):
        check_kernel("no_such_kernel_module")
    checked = subprocess.run(
        [sys.executable, "-c", "import sys\nfrom autograder.grading.parallel import "
         "check_kernel\ncheck_kernel()\nprint(sorted(m for m in sys.modules if "
         "m.split('.')[0] in ('IPython', 'ipykernel')))"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip() == "[]"


def test_cli_unknown_assignment_exits_1_naming_the_ids(capsys):
    """Does the CLI refuse an unknown assignment id with exit 1 and the list of ids?"""
    from autograder.cli import main

    assert main(["--root", str(ROOT), "report", "99_nope"]) == 1
    assert "01_attention_by_hand" in capsys.readouterr().err


def test_nbgrader_commands_work_directly(tmp_path):
    """Do plain `nbgrader autograde`, `generate_feedback` and `export` work in a kit course,
    with the kit's feedback stage taken from nbgrader_config.py, and `nbgrader export`
    writing nbgrader's own CSV (its columns, no TOTAL row), which scripts built on it read?"""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    course.generate(ID)
    release, source = notebooks()
    course.submit("ada", ID, simulate.correct(release, source))
    course.autograde(ID)
    course.generate_feedback(ID)
    run_nbgrader(course.root, "export", "--to=grades.csv")
    assert all(s.score == s.max_score for s in course.cell_scores(ID, "ada").values())
    assert "check_step" not in course.feedback_html("ada", ID)
    rows = list(csv.DictReader((course.root / "grades.csv").open(encoding="utf-8-sig")))
    assert {"first_name", "last_name", "email", "raw_score", "score"} <= set(rows[0])
    assert [(r["assignment"], r["student_id"]) for r in rows] == [(ID, "ada")]


def test_validate_passes_the_committed_assignment():
    """Does `validate` find the solutions at full marks and the stubs at zero?"""
    from autograder.tools.validate import validate

    assert validate(ROOT, [ID], workers=2, log=lambda _: None) == []


def test_collect_from_a_folder(tmp_path):
    """Does collecting from a plain folder put each parsable notebook in submitted/ and name
    the file that is for another assignment?"""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    shutil.copytree(ROOT / "release", course.root / "release")
    release, _ = notebooks()
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    nbformat.write(release, inbox / f"zoe_{ID}.ipynb")
    nbformat.write(release, inbox / "zoe_02_embeddings.ipynb")
    problems = collect(course.root, ID, inbox, log=lambda _: None)
    assert (course.root / "submitted" / "zoe" / ID / f"{ID}.ipynb").exists()
    assert [p.path.name for p in problems] == ["zoe_02_embeddings.ipynb"]
    assert f"not a notebook of {ID}" in problems[0].reason
    handed_in = datetime.fromtimestamp((inbox / f"zoe_{ID}.ipynb").stat().st_mtime, UTC)
    stamp = (course.root / "submitted" / "zoe" / ID / "timestamp.txt").read_text()
    assert datetime.fromisoformat(stamp) == handed_in


def test_time_in_an_lms_file_name_is_the_time_handed_in(tmp_path):
    """When the LMS writes the time into the file name (a (?P<timestamp>...) group in the
    pattern), is that the submission's timestamp, whatever the file's own dates?"""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    shutil.copytree(ROOT / "release", course.root / "release")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    nbformat.write(notebooks()[0], inbox / f"zoe_2026-12-03T18:05:00Z_{ID}.ipynb")
    timed = (r".*/(?P<student_id>[a-z]+)_(?P<timestamp>[0-9T:Z-]+)_"
             r"(?P<file_id>\d\d_[a-z_]+\.ipynb)$")
    assert collect(course.root, ID, inbox, file_pattern=timed, log=lambda _: None) == []
    stamp = (course.root / "submitted" / "zoe" / ID / "timestamp.txt").read_text()
    assert datetime.fromisoformat(stamp.strip()).replace(tzinfo=UTC) == datetime(
        2026, 12, 3, 18, 5, tzinfo=UTC)


def test_zip_entry_dates_are_read_in_the_course_time_zone(course):
    """Is a zip entry's date (which has no zone) written with the course's zone (UTC, from
    c.Exchange.timezone), so that nbgrader compares it with the due date correctly?"""
    stamp = (course["course"].root / "submitted" / "ada" / ID / "timestamp.txt").read_text()
    assert datetime.fromisoformat(stamp).utcoffset() == timedelta(0)


def test_release_feedback_works_for_students_collected_from_an_lms(course, tmp_path):
    """Does nbgrader's own release_feedback take the kit's LMS-collected students (their
    timestamp and secret written at collect), beside exchange ones?"""
    root = course["course"].root
    exchange = tmp_path / "exchange"
    exchange.mkdir()
    run_nbgrader(root, "release_feedback", ID, f"--Exchange.root={exchange}")
    released = list(exchange.rglob("*.html"))
    assert len(released) == len(list((root / "feedback").glob(f"*/{ID}/{ID}.html")))


def test_force_grades_again(course):
    """Does --force grade a notebook that is already graded?"""
    run = grade(course["course"].root, [ID], workers=1, force=True, log=lambda _: None)
    assert sorted(s.student for s, _ in run.graded) == ["ada", "bob", "cy", "dee"]
