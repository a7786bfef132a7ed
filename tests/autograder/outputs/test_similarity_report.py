"""Does the class report's section on similar code list each assignment's copied pairs, the
most alike first, linked to their pages once `similarity` wrote them, and name the command
before?"""

from __future__ import annotations

import shutil
from types import SimpleNamespace

import nbformat

from autograder.outputs.similarity_page import write_similarity
from autograder.outputs.similarity_report import similarity_section, top_pairs
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
        SimpleNamespace(similar=before))
    write_similarity(tmp_path, [ID], tmp_path / "similarity", log=lambda _: None)
    after = top_pairs(tmp_path, [ID], report)
    assert [p.score for p in after] == sorted((p.score for p in after), reverse=True)
    assert {p.link for p in after} == {f"../similarity/{ID}/bob--cy.html",
                                       f"../similarity/{ID}/ada--eve.html"}
    section = similarity_section(SimpleNamespace(similar=after))
    assert f"href='../similarity/{ID}/bob--cy.html'" in section
