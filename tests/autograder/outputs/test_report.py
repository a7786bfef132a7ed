"""Does the class report read the grader's record as data, per assignment, for the ids asked?

No kernel and no gradebook: autograded notebooks are written here with a record as the
grader writes it (autograder/record.py)."""

from __future__ import annotations

import nbformat

from autograder.checks.model import Finding
from autograder.outputs.report import SECTIONS, ClassResults, read_records, render_report
from autograder.record import add_findings, start_record


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
    """Does the page have one heading per declared section, in order, even with no data?"""
    page = render_report(ClassResults())
    positions = [page.index(f"<h2>{title}</h2>") for title, _ in SECTIONS]
    assert positions == sorted(positions)
