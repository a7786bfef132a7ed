"""Does real nbgrader, on real kernels, grade every assignment as the kit promises?

One course is built in a scratch folder from the committed source/ notebooks. Per assignment
it receives the release filled in with the solutions, the unmodified release, and the
catalogued mistakes in rounds: round r is the solved notebook with the r-th mistake of every
step redefining that step the wrong way (so each step is judged beside other steps' mistakes,
and a class of many mistakes costs a few notebooks, not one each); nbgrader
generate_assignment, then the kit's parallel grade and feedback, run as an instructor runs
them.
"""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

import nbformat
import pytest

from autograder.checks.loader import assignment_ids
from autograder.course.directory import Course
from autograder.course.notebook_record import read_record
from autograder.grading.parallel import grade
from autograder.grading.regrade_check import regrade_check
from autograder.outputs.feedback import write_feedback
from autograder.tools import simulate

pytestmark = pytest.mark.long

ROOT = Path(__file__).resolve().parents[3]
# KIT_E2E_ONLY=05_multi_head,07_cross_attention_and_masks narrows a local run; CI runs all.
IDS = [i for i in assignment_ids(ROOT)
       if i in os.environ.get("KIT_E2E_ONLY", i).split(",")]


def rounds(mistakes):
    """[[Mistake]]: round r holds the r-th mistake of each step that has one."""
    by_step = {}
    for mistake in mistakes:
        by_step.setdefault(mistake.step, []).append(mistake)
    return [[step[r] for step in by_step.values() if r < len(step)]
            for r in range(max(map(len, by_step.values()), default=0))]


def student_for(index):
    return f"mistakes{index:02d}"


def with_mistakes(release, source, mistakes):
    """The solved notebook with each mistake's code right after its step's solution cell."""
    notebook = simulate.correct(release, source)
    for mistake in mistakes:
        notebook = simulate.after_cell(notebook, mistake.step, mistake.code)
    return notebook


# Markdown a student may write whose links and images would run script in a reader's browser.
HOSTILE_MARKDOWN = ("[a link](javascript:alert(1)) ![an image](javascript:alert(2)) "
                    "[upper case](JaVaScRiPt:alert(3)) [a tab](java&#x09;script:alert(4)) "
                    "[a page](data:text/html;base64,PHNjcmlwdD5hbGVydCg1KTwvc2NyaXB0Pg==) "
                    "[fine](https://example.org)")


def with_hostile_markdown(notebook):
    notebook.cells.append(nbformat.v4.new_markdown_cell(HOSTILE_MARKDOWN))
    return notebook


def redrawn(notebook):
    """The notebook with every cell that draws a plot made the student's own (a comment
    added): a cell the student changed runs, whether or not a check reads it."""
    for cell in notebook.cells:
        if cell.cell_type == "code" and "plt.show()" in cell.source:
            cell.source += "\n# redrawn"
    return notebook


def autograded(course, student, assignment_id):
    path = course.root / "autograded" / student / assignment_id / f"{assignment_id}.ipynb"
    return nbformat.read(path, as_version=4)


def unsafe_urls(page):
    """Every href or src of the page whose scheme could run script."""
    found = re.findall(r'(?:href|src)\s*=\s*["\']?\s*([^"\' >]*)', page, flags=re.IGNORECASE)
    return [url for url in found
            if re.sub(r"[\s\x00-\x1f]|&#x0?9;", "", html.unescape(url)).lower().startswith(
                ("javascript:", "data:text", "vbscript:"))]


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = Course.create(tmp_path_factory.mktemp("course"), ROOT, IDS)
    for assignment_id in IDS:
        course.generate(assignment_id)
        source = nbformat.read(ROOT / "source" / assignment_id / f"{assignment_id}.ipynb", 4)
        blank = nbformat.read(course.root / "release" / assignment_id / f"{assignment_id}.ipynb", 4)
        course.submit("solved", assignment_id, simulate.correct(blank, source))
        course.submit("blank", assignment_id, blank)
        course.submit("redrawn", assignment_id, redrawn(simulate.correct(blank, source)))
        if assignment_id == IDS[0]:
            course.submit("scripted", assignment_id, with_hostile_markdown(
                simulate.correct(blank, source)))
        for index, mistakes in enumerate(rounds(simulate.mistakes_of(ROOT, assignment_id))):
            course.submit(student_for(index), assignment_id,
                          with_mistakes(blank, source, mistakes))
    run = grade(course.root, IDS, workers=os.cpu_count())
    assert not run.failed, f"notebooks that could not be graded: {run.failed}"
    write_feedback(course.root, IDS)
    return course


@pytest.mark.parametrize("assignment_id", IDS)
def test_solved_notebook_scores_full_marks(course, assignment_id):
    """Does the master notebook with its solutions earn every point?"""
    scores = course.cell_scores(assignment_id, "solved")
    lost = {g: s.score for g, s in scores.items() if s.score != s.max_score}
    assert scores and not lost, f"points lost by the solutions: {lost}"


@pytest.mark.parametrize("assignment_id", IDS)
def test_unmodified_release_scores_zero(course, assignment_id):
    """Does the untouched student notebook autograde to exactly 0 points?"""
    scores = course.cell_scores(assignment_id, "blank")
    assert scores, "the blank submission was not graded"
    earned = {g: s.score for g, s in scores.items() if s.score}
    assert not earned, f"points earned by stubs: {earned}"


@pytest.mark.parametrize("assignment_id", IDS[:1])
def test_a_feedback_page_runs_no_script_from_student_markdown(course, assignment_id):
    """Do links and images a student writes in markdown keep only safe schemes on the page the
    kit writes and on the one plain nbgrader generate_feedback writes, each page with a
    Content-Security-Policy?"""
    for writer in ("kit", "plain nbgrader"):
        if writer == "plain nbgrader":
            course.generate_feedback(assignment_id, "--student=scripted")
        page = course.feedback_html("scripted", assignment_id)
        assert "a link" in page and 'href="https://example.org"' in page, writer
        assert not unsafe_urls(page), (writer, unsafe_urls(page))
        assert '<meta http-equiv="Content-Security-Policy"' in page, writer


@pytest.mark.parametrize("assignment_id", IDS)
def test_a_blank_stub_breaks_no_rule(course, assignment_id):
    """Is every stub of the untouched notebook 'not implemented yet', never a forbidden
    shortcut, in its record and on its feedback page?"""
    graded = course.root / "autograded" / "blank" / assignment_id / f"{assignment_id}.ipynb"
    record = read_record(nbformat.read(graded, as_version=4))
    assert record.findings, "the blank notebook has no findings"
    assert not record.flags, f"a blank notebook flagged: {record.flags}"
    page = course.feedback_html("blank", assignment_id)
    assert "not implemented yet" in page and "rule broken" not in page


def mistake_params():
    return [
        pytest.param(assignment_id, index, mistake, [m.step for m in mistakes],
                     id=f"{assignment_id}:{mistake.name}")
        for assignment_id in IDS
        for index, mistakes in enumerate(rounds(simulate.mistakes_of(ROOT, assignment_id)))
        for mistake in mistakes
    ]


def test_rounds_hold_every_mistake_once_and_one_per_step():
    """Does each round redefine a step at most once, and do the rounds hold every catalogued
    mistake exactly once?"""
    for assignment_id in IDS:
        mistakes = simulate.mistakes_of(ROOT, assignment_id)
        grouped = rounds(mistakes)
        assert sorted(m.name for r in grouped for m in r) == sorted(m.name for m in mistakes)
        assert all(len({m.step for m in r}) == len(r) for r in grouped), assignment_id


@pytest.mark.parametrize(("assignment_id", "index", "mistake", "mistaken_steps"),
                         mistake_params())
def test_mistake_loses_only_its_step_and_is_named(course, assignment_id, index, mistake,
                                                  mistaken_steps):
    """Does a known mistake cost its step's points, and is it named in the feedback, while
    every step without a mistake in that notebook keeps its points?"""
    student = student_for(index)
    scores = course.cell_scores(assignment_id, student)
    step_cell = f"test_{mistake.step}"
    assert scores[step_cell].score == 0, f"{mistake.name} still earned {step_cell}"
    others = {g: s.score for g, s in scores.items()
              if g.removeprefix("test_") not in mistaken_steps and s.score != s.max_score}
    assert not others, f"{mistake.name} (with {mistaken_steps} mistaken) also cost {others}"
    graded = nbformat.read(course.root / "autograded" / student / assignment_id /
                           f"{assignment_id}.ipynb", as_version=4)
    # What the step's test printed: shown when the mistake's name is missing.
    said = " ".join(str(output.get("text", "")) + str(output.get("evalue", ""))
                    for cell in graded.cells if cell.cell_type == "code"
                    and cell.metadata.get("nbgrader", {}).get("grade_id") == step_cell
                    for output in cell.outputs)
    # As the page shows it: the grader's message is escaped text ("attention&#x27;s ...").
    assert mistake.name in html.unescape(course.feedback_html(student, assignment_id)), said
    assert mistake.name in read_record(graded).mistakes, said


@pytest.mark.parametrize("assignment_id", IDS)
def test_feedback_shows_no_hidden_test(course, assignment_id):
    """Is every feedback page free of hidden-test code and its tracebacks?"""
    for page in (course.root / "feedback").glob(f"*/{assignment_id}/*.html"):
        text = page.read_text()
        for secret in ("BEGIN HIDDEN", "check_step", "use_references", "autograder/"):
            assert secret not in text, f"{page} shows {secret!r}"


@pytest.mark.parametrize("assignment_id", IDS)
def test_committed_release_matches_nbgrader_output(course, assignment_id):
    """Is release/ what nbgrader makes from the committed source/ (not stale)?"""
    made = course.root / "release" / assignment_id / f"{assignment_id}.ipynb"
    committed = ROOT / "release" / assignment_id / f"{assignment_id}.ipynb"
    assert json.loads(made.read_text()) == json.loads(committed.read_text()), (
        f"release/{assignment_id} is stale: run `python -m autograder build {assignment_id}`"
    )


@pytest.mark.parametrize("assignment_id", IDS)
def test_cells_that_only_show_are_not_run(course, assignment_id):
    """Is each cell of the release that only shows (neither locked, a solution nor a test),
    left as released in the solved notebook, not run, its output the note that says so, while
    the cells a student changed run?"""
    release = nbformat.read(ROOT / "release" / assignment_id / f"{assignment_id}.ipynb", 4)
    shown = {cell.source for cell in release.cells if cell.cell_type == "code"
             and not cell.metadata.get("nbgrader", {}).get("locked")
             and not cell.metadata.get("nbgrader", {}).get("solution")
             and not cell.metadata.get("nbgrader", {}).get("grade")}
    solved = autograded(course, "solved", assignment_id)
    left = [cell for cell in solved.cells if cell.cell_type == "code" and cell.source in shown]
    assert shown and len(left) == len(shown)
    for cell in left:
        assert [o.get("text") for o in cell.outputs] == [
            "[not run in grading: no check reads what this cell makes; run it in your notebook "
            "to see what it shows]\n"], cell.source
    changed = [cell for cell in autograded(course, "redrawn", assignment_id).cells
               if cell.cell_type == "code" and cell.source.endswith("# redrawn")]
    assert all(cell.outputs and "not run in grading" not in str(cell.outputs)
               for cell in changed)


@pytest.mark.parametrize("assignment_id", IDS)
def test_plots_show_as_images_on_the_feedback_page(course, assignment_id):
    """Does every cell that draws a plot, changed by the student so that it runs, show it as a
    PNG image on the feedback page (not as the text '<Figure size ... with 2 Axes>')?"""
    release = nbformat.read(ROOT / "release" / assignment_id / f"{assignment_id}.ipynb", 4)
    plotting = [c for c in release.cells if c.cell_type == "code" and "plt.show()" in c.source]
    page = course.feedback_html("redrawn", assignment_id)
    images = page.count('alt="a plot drawn by the notebook\'s code" src="data:image/png;base64,')
    assert images >= len(plotting), f"{len(plotting)} plotting cells, {images} images"
    assert "&lt;Figure size" not in page


REGRADES = 1  # in CI, on every assignment; bench/regrades.py grades each class 20 times


@pytest.mark.parametrize("assignment_id", IDS)
def test_every_regrade_gives_every_student_the_same_grade(course, assignment_id):
    """Graded again aside (regrade-check), does every student of the class get the
    same score, the same failing cases and the same named mistakes (their hidden cases drawn
    from the course's secret, the same on every regrade)?"""
    graded = {path.name for path in (course.root / "autograded").iterdir()
              if (path / assignment_id).is_dir()}
    for _ in range(REGRADES):
        check = regrade_check(course.root, assignment_id, workers=os.cpu_count(),
                              log=lambda line: None)
        assert not check.different and not check.unchecked, (check.different,
                                                              check.unchecked)
        assert {student for student, _ in check.same} == graded
