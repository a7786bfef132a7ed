"""Does the class report's section on similar code list each assignment's copied pairs, the
most alike first, linked to their pages once `similarity` wrote them, and name the command
before?"""

from __future__ import annotations

import shutil
from types import SimpleNamespace

import nbformat
import pytest

from autograder.outputs.similarity_page import write_similarity
from autograder.outputs.similarity_report import (
    flagged_in_all,
    similarity_section,
    top_pairs,
    untold,
)
from autograder.plumbing.errors import OutputError
from tests.autograder.outputs.test_similarity_page import ID, class_of, read
from tests.course import ROOT


def test_the_section_links_the_top_pairs(tmp_path):
    """Before the pages exist, are the two copied pairs listed with the command that writes
    them; after, linked relative to the report, and does a course without a release of the
    assignment list nothing for it?"""
    shutil.copy(ROOT / "nbgrader_config.py", tmp_path / "nbgrader_config.py")
    shutil.copytree(ROOT / "release" / ID, tmp_path / "release" / ID)
    for student, notebook in class_of(read("release"), read("source")).items():
        (tmp_path / "submitted" / student / ID).mkdir(parents=True)
        nbformat.write(notebook, tmp_path / "submitted" / student / ID / f"{ID}.ipynb")
    report = tmp_path / "out" / "report.html"
    before = top_pairs(tmp_path, [ID, "02_embeddings"], report)
    assert {(p.first, p.second) for p in before} == {("bob", "cy"), ("ada", "eve")}
    assert [p.link for p in before] == [None, None]
    assert f"python -m autograder similarity {ID}" in similarity_section(
        SimpleNamespace(similar=before, untold=[]))
    write_similarity(tmp_path, [ID], tmp_path / "similarity", log=lambda _: None)
    after = top_pairs(tmp_path, [ID], report)
    assert [p.score for p in after] == sorted((p.score for p in after), reverse=True)
    assert {p.link for p in after} == {f"../similarity/{ID}/bob--cy.html",
                                       f"../similarity/{ID}/ada--eve.html"}
    section = similarity_section(SimpleNamespace(similar=after, untold=[]))
    assert f"href='../similarity/{ID}/bob--cy.html'" in section
    only = top_pairs(tmp_path, [ID], report, top=1)  # the summary counts the unlisted too
    assert len(only) == 1 and flagged_in_all(only) == 2


def test_an_assignment_too_short_to_tell_is_named_not_listed(tmp_path):
    """Where an assignment's checks.py says its code is too short to tell
    (Similar(tells=False)), does the section list none of its pairs and name it, with the
    command that lists its most alike pairs, once two notebooks are handed in (not before)?"""
    shutil.copy(ROOT / "nbgrader_config.py", tmp_path / "nbgrader_config.py")
    shutil.copytree(ROOT / "release" / ID, tmp_path / "release" / ID)
    shutil.copytree(ROOT / "assignments", tmp_path / "assignments",
                    ignore=shutil.ignore_patterns("__pycache__"))
    checks = tmp_path / "assignments" / ID / "checks.py"
    checks.write_text(checks.read_text(encoding="utf-8")
                      + "\nSIMILARITY = Similar(tells=False)\n", encoding="utf-8")
    assert untold(tmp_path, [ID]) == []  # no notebook handed in: no pair it could have flagged
    for student, notebook in class_of(read("release"), read("source")).items():
        (tmp_path / "submitted" / student / ID).mkdir(parents=True)
        nbformat.write(notebook, tmp_path / "submitted" / student / ID / f"{ID}.ipynb")
    assert top_pairs(tmp_path, [ID]) == []
    assert untold(tmp_path, [ID, "02_embeddings"]) == [ID]  # 02: no release here
    section = similarity_section(SimpleNamespace(similar=[], untold=[ID]))
    assert "too short to tell" in section and ID in section


def test_an_assignment_whose_checks_cannot_be_read_stops_no_other(tmp_path):
    """When the first assignment asked for lost its checks.py, is the second still compared,
    the first said skipped with the file that is missing, and the command's end an error
    naming the command to run again?"""
    shutil.copy(ROOT / "nbgrader_config.py", tmp_path / "nbgrader_config.py")
    shutil.copytree(ROOT / "release" / ID, tmp_path / "release" / ID)
    shutil.copytree(ROOT / "assignments", tmp_path / "assignments",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "assignments" / "02_embeddings" / "checks.py").unlink()
    for student, notebook in class_of(read("release"), read("source")).items():
        (tmp_path / "submitted" / student / ID).mkdir(parents=True)
        nbformat.write(notebook, tmp_path / "submitted" / student / ID / f"{ID}.ipynb")
    said = []
    with pytest.raises(OutputError) as stopped:
        write_similarity(tmp_path, ["02_embeddings", ID], tmp_path / "similarity",
                         log=said.append)
    assert said[0].startswith("similarity 02_embeddings: skipped, its checks could not be read")
    assert "02_embeddings/checks.py is missing" in said[0]
    assert said[1].startswith(f"similarity {ID}: 5 notebooks, 2 pairs flagged")
    assert (tmp_path / "similarity" / ID / "index.html").is_file()
    assert "similarity 02_embeddings" in str(stopped.value)
