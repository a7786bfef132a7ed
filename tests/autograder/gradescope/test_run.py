"""Does run_autograder, unpacked from the zip into a /autograder laid out as Gradescope lays it
out and run as a real subprocess (real nbgrader, the real sandbox and kernels), grade a
correct, a wrong and a blank notebook exactly as the kit's own `grade` grades them, and write a
results.json of Gradescope's format, also when a notebook cannot be graded, and in Chinese in a
Chinese course?"""

from __future__ import annotations

import json
import re
import shutil
import zipfile

import jsonschema
import nbformat
import pytest

from autograder.checks.draws import WHOLE_STATE
from autograder.course.draw_keys import read_secret, secret_path
from autograder.course.notebook_record import read_record
from autograder.course.submission_files import FOLDER_DEPTH
from autograder.grading.parallel import grade, submission_scores
from autograder.i18n import language, t
from autograder.tools import simulate
from tests.autograder.deep_folders import deep_folders
from tests.autograder.gradescope.conftest import (
    ID,
    SCHEMA,
    gradescope_zip,
    kit,
    lay_out,
    notebooks,
    run_autograder,
    scratch_course,
)

CJK = re.compile(r"[\u4e00-\u9fff]")


def first_mistake(course):
    return simulate.mistakes_of(course, ID)[0]


@pytest.fixture(scope="module")
def students(course):
    """The three notebooks: the reference solutions, one catalogued mistake, the release as
    it was handed out."""
    release, source = notebooks(course)
    return {"correct": simulate.correct(release, source),
            "wrong": simulate.with_mistake(release, source, first_mistake(course)),
            "blank": release}


GRADESCOPE_STUDENT = "gs-7"  # lay_out's submission_metadata.json names the user id 7


@pytest.fixture(scope="module")
def kit_course(students, archive, course, tmp_path_factory):
    """(another scratch copy of the course, with the zip's secret, graded by the kit's own
    `grade`; {student: their id there}): the wrong notebook is handed in as Gradescope's
    student gs-7, so its hidden cases are drawn as the Gradescope run draws them."""
    root = scratch_course(tmp_path_factory.mktemp("kit-grade") / "course")
    (root / ".kit").mkdir()
    shutil.copy2(course / ".kit" / "secret", root / ".kit" / "secret")
    ids = {"correct": "correct", "wrong": GRADESCOPE_STUDENT, "blank": "blank"}
    for student, notebook in students.items():
        folder = root / "submitted" / ids[student] / ID
        folder.mkdir(parents=True)
        nbformat.write(notebook, folder / f"{ID}.ipynb")
    run = grade(root, [ID], workers=1, log=lambda line: None)
    assert run.ok, run
    return root, ids


@pytest.fixture(scope="module")
def kit_scores(kit_course):
    """{student: {test cell: (score, max)}} as the kit's own `grade` gives them."""
    root, ids = kit_course
    return {student: submission_scores(root, ID, ids[student]) for student in ids}


@pytest.fixture(scope="module")
def graded(archive, students, tmp_path_factory):
    """{student: (process, results)}: each notebook uploaded under another name, as students
    name their files (the wrong one is the only notebook of its upload, not named by id)."""
    names = {"correct": f"{ID}.ipynb", "wrong": "attention (2).ipynb", "blank": f"{ID}.ipynb"}
    out = {}
    for student, notebook in students.items():
        folder = lay_out(tmp_path_factory.mktemp(student) / "autograder", archive,
                         {names[student]: nbformat.writes(notebook).encode()})
        out[student] = run_autograder(folder)
    return out


def steps_of(results):
    return {test["tags"][0]: test for test in results["tests"] if "max_score" in test}


@pytest.mark.parametrize("student", ["correct", "wrong", "blank"])
def test_scores_are_the_kits_own(student, graded, kit_scores):
    """Does each step's test carry the score and maximum the kit's own grade gives the same
    notebook, the total at the top, with exit 0 and a results.json of Gradescope's format?"""
    process, results = graded[student]
    assert process.returncode == 0, process.stdout[-3000:] + process.stderr[-3000:]
    jsonschema.validate(results, SCHEMA)
    expected = kit_scores[student]
    steps = steps_of(results)
    assert {cell: (test["score"], test["max_score"]) for cell, test in steps.items()} == expected
    assert results["score"] == sum(score for score, _ in expected.values())
    assert [test["number"] for test in steps.values()] == [str(n) for n in
                                                           range(1, len(steps) + 1)]


def test_an_upload_draws_what_grade_draws_for_its_student(graded, kit_course):
    """Graded by `grade` as Gradescope's student (gs-7, from submission_metadata.json), with
    the course's secret the zip carries, does the wrong notebook get the very findings the
    Gradescope run shows, drawn cases and their sizes included, not only the same score?"""
    root, ids = kit_course
    autograded = nbformat.read(root / "autograded" / ids["wrong"] / ID / f"{ID}.ipynb", 4)
    findings = read_record(autograded).findings
    _, results = graded["wrong"]
    shown = "\n".join(test["output"] for test in results["tests"])
    assert findings and all(finding.text in shown for finding in findings), shown
    assert any("random case" in finding.text for finding in findings), findings


def test_the_zip_carries_the_secret_for_the_grader_alone(archive, course):
    """Does the zip hold the course's secret (the instructor's zip: Gradescope never shows it
    to students), readable by its owner alone once unpacked, and the very secret, so that
    an upload draws as `grade` draws (from the generator's whole state here)?"""
    with zipfile.ZipFile(archive) as opened:
        info = opened.getinfo("course/.kit/secret")
        assert (info.external_attr >> 16) & 0o777 == 0o600
        carried = bytes.fromhex(opened.read(info).decode().strip())
    assert carried == read_secret(secret_path(course)) and carried.startswith(WHOLE_STATE)


def test_the_correct_notebook_passes_every_step(graded):
    """Does the reference earn every point, each step passed with its verdict and no
    details to publish?"""
    _, results = graded["correct"]
    assert results["score"] == 10.0
    assert all(test["status"] == "passed" and "every hidden check passed" in test["output"]
               for test in steps_of(results).values())
    assert all("max_score" in test for test in results["tests"])


def test_the_wrong_step_says_what_is_wrong(graded, course):
    """Does the step with the catalogued mistake fail, its verdict naming the mistake to the
    student, every finding in a test shown after publication, the other steps passed?"""
    mistake = first_mistake(course)
    _, results = graded["wrong"]
    steps = steps_of(results)
    failed = steps[f"test_{mistake.step}"]
    assert failed["status"] == "failed" and failed["score"] == 0
    assert mistake.name in failed["output"]
    assert all(test["status"] == "passed" for cell, test in steps.items()
               if cell != f"test_{mistake.step}")
    details = [test for test in results["tests"] if test["name"].startswith(mistake.step + ":")]
    assert len(details) == 1 and details[0]["visibility"] == "after_published"
    assert mistake.hint in details[0]["output"] and "score" not in details[0]


def test_the_blank_notebook_earns_nothing(graded):
    """Does the release as handed out score 0, each step failed with a message?"""
    _, results = graded["blank"]
    assert results["score"] == 0
    assert all(test["status"] == "failed" and test["output"]
               for test in steps_of(results).values())


def test_the_zips_kit_graded(graded, tmp_path):
    """Did the kit unpacked from the zip grade (run_autograder puts it first on the path),
    not the checkout's?"""
    process, _ = graded["correct"]
    assert re.search(r"with the kit in \S*/source/kit/autograder", process.stdout), \
        process.stdout[-2000:]


def test_the_runs_grade_log_is_in_its_output(graded):
    """The scratch course goes with the run: is its grade.log (the sandbox line, a worker's
    warnings, a speedup that stepped aside) in the output Gradescope shows the instructor?"""
    process, _ = graded["correct"]
    shown = process.stdout.split("grade.log of this run:\n", 1)
    assert len(shown) == 2 and "sandbox: full (" in shown[1], process.stdout[-2000:]


@pytest.mark.parametrize("upload, why", [
    ({f"{ID}.ipynb": b"this is not json"}, "not a Jupyter notebook"),
    ({"notes.txt": b"hello"}, "holds no notebook"),
    ({"a.ipynb": b"{}", "b.ipynb": b"{}"}, "holds 2 notebooks"),
])
def test_an_ungradable_upload_still_gets_results(upload, why, archive, tmp_path):
    """Does an upload that cannot be graded get results.json (exit 0): no points, each step
    listed, the reason and what to upload instead, in Gradescope's format?"""
    process, results = run_autograder(lay_out(tmp_path / "autograder", archive, upload))
    assert process.returncode == 0, process.stderr[-3000:]
    jsonschema.validate(results, SCHEMA)
    assert results["score"] == 0 and why in results["output"]
    assert len(steps_of(results)) == 5
    assert "Traceback" not in results["output"]


def test_an_upload_beyond_the_bounds_is_the_students_to_fix(archive, students, tmp_path):
    """Does a correct notebook uploaded beside 1,100 nested folders get results.json (exit 0)
    saying what is wrong and what to upload instead, never that the autograder itself
    failed?"""
    folder = lay_out(tmp_path / "autograder", archive,
                     {f"{ID}.ipynb": nbformat.writes(students["correct"]).encode()})
    with deep_folders(folder / "submission"):
        process, results = run_autograder(folder)
    assert process.returncode == 0, process.stderr[-3000:]
    jsonschema.validate(results, SCHEMA)
    assert results["score"] == 0 and len(steps_of(results)) == 5
    assert f"its folders are nested more than {FOLDER_DEPTH} deep" in results["output"]
    assert f"upload only this assignment's notebook, {ID}.ipynb" in results["output"]
    assert "the autograder itself failed" not in results["output"]


def test_the_kernel_template_shares_the_graders_torch(archive, students, tmp_path,
                                                      monkeypatch):
    """run_autograder starts the grader with nothing of Gradescope's environment: is the
    kernel template forked from it (one copy of torch's memory for both, not two), and the
    notebook graded in full so?"""
    timeline = tmp_path / "timeline"
    monkeypatch.setenv("KIT_TIMELINE", str(timeline))
    monkeypatch.setenv("GRADESCOPE_SECRET", "not for the grader")
    folder = lay_out(tmp_path / "autograder", archive,
                     {f"{ID}.ipynb": nbformat.writes(students["correct"]).encode()})
    process, results = run_autograder(folder)
    assert process.returncode == 0, process.stderr[-3000:]
    assert results["score"] == 10
    marks = timeline.read_text()
    assert "template: forked from the grader" in marks, marks
    assert "template: started early" not in marks, marks


def test_a_broken_autograder_says_so(archive, tmp_path):
    """When the kit itself cannot run (the course folder is gone), is results.json still
    written, saying so to the student, the traceback left to the instructor's output, and is
    the exit code 1?"""
    folder = lay_out(tmp_path / "autograder", archive, {f"{ID}.ipynb": b"{}"})
    shutil.rmtree(folder / "source" / "course")
    process, results = run_autograder(folder)
    assert process.returncode == 1
    jsonschema.validate(results, SCHEMA)
    assert "the autograder itself failed" in results["output"]
    assert "Traceback" in process.stderr and "Traceback" not in results["output"]


def test_a_chinese_course_grades_in_chinese(tmp_path, course):
    """In a course made by `init --language zh`, is the results.json of a notebook with a
    catalogued mistake Chinese: the summary, the verdict naming the mistake in Chinese, the
    details' names?"""
    zh = tmp_path / "course-zh"
    made = kit("init", str(zh), ID, "--language", "zh", cwd=tmp_path)
    assert made.returncode == 0, made.stderr[-3000:]
    archive = gradescope_zip(zh, tmp_path / "zh.zip")
    release, source = notebooks(zh)
    mistake = first_mistake(zh)
    wrong = simulate.with_mistake(release, source, mistake)
    process, results = run_autograder(lay_out(tmp_path / "autograder", archive,
                                              {f"{ID}.ipynb": nbformat.writes(wrong).encode()}))
    assert process.returncode == 0, process.stderr[-3000:]
    jsonschema.validate(results, SCHEMA)
    assert CJK.search(results["output"]) and "points" not in results["output"]
    failed = steps_of(results)[f"test_{mistake.step}"]
    with language("zh"):
        assert t(mistake.name) in failed["output"] and CJK.search(failed["output"])
    assert all(CJK.search(test["name"]) for test in results["tests"] if "max_score" not in test)
    assert "hidden checks" not in json.dumps(results, ensure_ascii=False)
