"""Is a graded (or ungradable) notebook written as Gradescope's results.json: valid against
the published format, one test per test cell with its points and verdict, every finding shown
once grades are published, integrity flags never; in Chinese in a Chinese course?

No kernel: the results are built from data here (test_run.py grades real notebooks)."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import jsonschema
import pytest

from autograder.gradescope.results import (
    Graded,
    GradedCell,
    graded_results,
    not_graded_results,
)
from autograder.i18n import kit_catalog, language
from tests.autograder.gradescope.conftest import ROOT, SCHEMA

CJK = re.compile(r"[\u4e00-\u9fff]")
CELLS = (GradedCell("test_a", ("a",), 2.0, 2.0, "a: every hidden check passed"),
         GradedCell("test_b", ("b",), 3.0, 0.0, "b does not pass the hidden checks:\n  - wrong",
                  ("known mistake 'swap': swapped", "wrong", "wrong again")))
GRADED = Graded(CELLS, restored=("points of 'test_a' changed: restored",),
                flags=("suspicious code: exec",))


def test_a_graded_notebook_fits_the_format():
    """Does a graded notebook's results.json validate, with the total as its score and one
    test per test cell carrying score, max_score, status, name, number and the verdict?"""
    results = graded_results(GRADED, 12.4)
    jsonschema.validate(results, SCHEMA)
    assert results["score"] == 2.0 and results["execution_time"] == 12
    steps = [test for test in results["tests"] if "max_score" in test]
    assert [(s["name"], s["number"], s["score"], s["max_score"], s["status"]) for s in steps] == [
        ("a", "1", 2.0, 2.0, "passed"), ("b", "2", 0.0, 3.0, "failed")]
    assert steps[1]["output"] == CELLS[1].message
    assert {s["visibility"] for s in steps} == {"visible"}


def test_details_wait_for_publication_and_flags_stay_hidden():
    """Are every finding of a failed step (after_published) and the restored cells shown once
    grades are published, integrity flags never, none of them worth points?"""
    notes = {test["number"]: test for test in graded_results(GRADED, 1)["tests"]
             if "max_score" not in test}
    assert notes["2.1"]["visibility"] == "after_published"
    assert notes["2.1"]["output"].splitlines() == [f"- {line}" for line in CELLS[1].findings]
    assert notes["3"]["visibility"] == "after_published" and "restored" in notes["3"]["output"]
    assert notes["4"]["visibility"] == "hidden" and "exec" in notes["4"]["output"]
    assert not any("score" in note for note in notes.values())


def test_the_instructor_chooses_when_steps_show():
    """With --visibility after_due_date, do the step tests carry it, the details keep theirs?"""
    tests = graded_results(GRADED, 1, visibility="after_due_date")["tests"]
    assert {t["visibility"] for t in tests if "max_score" in t} == {"after_due_date"}
    assert {t["visibility"] for t in tests if "max_score" not in t} == {"after_published",
                                                                         "hidden"}


def test_an_ungradable_notebook_still_gets_results():
    """Does a notebook that could not be graded get a valid results.json: score 0, the reason
    at the top and in every step's test, each step's points still listed?"""
    results = not_graded_results(CELLS, "not a Jupyter notebook (NotJSONError)", 3)
    jsonschema.validate(results, SCHEMA)
    assert results["score"] == 0.0 and "NotJSONError" in results["output"]
    assert [(t["score"], t["max_score"]) for t in results["tests"]] == [(0.0, 2.0), (0.0, 3.0)]
    assert all("NotJSONError" in t["output"] for t in results["tests"])


@pytest.mark.parametrize("wrong", [
    {"tests": [{"name": "no score anywhere"}]},
    {"score": 1, "tests": [{"score": 1, "number": 1}]},
    {"score": 1, "visibility": "students"},
    {"score": 1, "tests": [{"score": 1, "status": "ok"}]},
    {"score": 1, "output_format": "rtf"},
    {"score": 1, "scores": 2},
])
def test_the_schema_refuses_what_gradescope_does_not_take(wrong):
    """Can the schema fail: a score nowhere, a number that is not a string, an unknown
    visibility, status or format, a misspelled field?"""
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(wrong, SCHEMA)


def test_a_chinese_course_reads_chinese():
    """In a Chinese course, are the summary, the details' names and the reason Chinese?"""
    with language("zh"):
        graded = graded_results(GRADED, 1)
        ungraded = not_graded_results(CELLS, "原因", 1)
    assert CJK.search(graded["output"]) and CJK.search(ungraded["output"])
    assert all(CJK.search(t["name"]) for t in graded["tests"] if "max_score" not in t)
    assert all(CJK.search(t["output"]) for t in ungraded["tests"])


def t_literals(path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "t" and node.args
                and isinstance(node.args[0], ast.Constant)):
            yield node.args[0].value


def fields(text):
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name)


@pytest.mark.parametrize("path", sorted((ROOT / "autograder" / "gradescope").glob("*.py")),
                         ids=lambda p: p.name)
def test_every_text_has_its_chinese(path: Path):
    """Has every text the Gradescope modules pass to `t` a Chinese text with the same
    fields?"""
    chinese = kit_catalog("zh")
    missing = [text for text in t_literals(path) if text not in chinese
               or fields(chinese[text]) != fields(text) or not CJK.search(chinese[text])]
    assert not missing, missing
