"""Does the similarity report find a disguised copy and leave two independent correct
solutions alone, on real notebooks made from the release as simulated students hand them in?

The notebooks: the course's reference (simulate.correct), a correct solution written apart
from it (simulate.independent, itself checked here against the hidden checks), a copy of each
disguised as a copier disguises it (simulate.disguised: local variables renamed, functions in
reverse order in one cell, comments replaced, blank lines added), and the blank release. No
kernel: similarity reads code."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import nbformat
import pytest

from autograder.checks.draws import Draws
from autograder.checks.judge import step_findings
from autograder.checks.loader import load_assignment
from autograder.checks.subject import LocalSubject
from autograder.outputs.similarity import (
    Notebook,
    compare_class,
    release_parts,
    similarity,
    student_cells,
)
from autograder.tools import simulate
from tests.course import ASSIGNMENTS, ROOT, helpers_of

ID = "01_attention_by_hand"
SHARE = load_assignment(ROOT, ID).similar.share  # the share at which 01 flags a pair


def read(stage):
    return nbformat.read(ROOT / stage / ID / f"{ID}.ipynb", as_version=4)


@pytest.fixture(scope="module")
def made():
    """{name: notebook} of the class, and the release."""
    release, source = read("release"), read("source")
    notebooks = {"reference": simulate.correct(release, source),
                 "independent": simulate.independent(release, source, ID)}
    notebooks["reference copy"] = simulate.disguised(notebooks["reference"])
    notebooks["independent copy"] = simulate.disguised(notebooks["independent"])
    notebooks["blank"] = release
    return notebooks, release


def compared(notebooks, release, common=10):
    """{(first, second): pair} of the notebooks compared as one class, and the students with
    no code of their own."""
    own = [Notebook(name, Path(name), student_cells(nb, release))
           for name, nb in notebooks.items()]
    pairs, empty, _ = compare_class(own, release_parts(release), common)
    return {(p.first.student, p.second.student): p for p in pairs}, empty


def score(pairs, first, second):
    pair = pairs.get((first, second)) or pairs.get((second, first))
    return 0.0 if pair is None else pair.score


def test_the_independent_solution_is_correct():
    """Does the solution written apart from the reference pass every step's hidden checks (a
    wrong one would prove nothing about two correct solutions)?"""
    for name, code in simulate.INDEPENDENT[ID].items():
        step = ASSIGNMENTS[ID].steps[name]
        space = {"torch": __import__("torch")}
        exec(compile(code, f"<{name}>", "exec"), space)
        findings = step_findings(step, LocalSubject(space[name], code), helpers_of(step),
                                 Draws())
        assert not findings, [f.text for f in findings]


def test_the_copies_are_disguised(made):
    """Did the copier change what a copier changes: no line of a function body left as it
    was written, the functions in another order, other comments?"""
    notebooks, release = made
    for name in ("reference", "independent"):
        original = "\n".join(c for _, c in student_cells(notebooks[name], release))
        copied = "\n".join(c for _, c in student_cells(notebooks[f"{name} copy"], release))
        assert "my_" in copied and "as I wrote it" in copied and "as I wrote it" not in original
        assert copied.index("def context_vectors") < copied.index("def project_qkv")
        assert original.index("def context_vectors") > original.index("def project_qkv")


def test_a_disguised_copy_is_ranked_first(made):
    """Is each disguised copy paired with its original above the threshold, and are those two
    pairs the top of the ranking?"""
    pairs, _ = compared(*made)
    ranked = [set(key) for key in pairs]
    assert {"reference", "reference copy"} in ranked[:2]
    assert {"independent", "independent copy"} in ranked[:2]
    assert score(pairs, "reference", "reference copy") >= 0.8
    assert score(pairs, "independent", "independent copy") >= 0.8


def test_two_independent_solutions_are_not_flagged(made):
    """Do the reference and the independent solution, both correct, written apart, stay far
    below the threshold, and their copies too?"""
    pairs, _ = compared(*made)
    for first in ("reference", "reference copy"):
        for second in ("independent", "independent copy"):
            assert score(pairs, first, second) < SHARE / 2, (first, second)


def test_the_release_never_counts(made):
    """Does the blank release hold no code of its own, and does code the student writes into
    the helper cell or a test cell (graded as the release's) not count, while a cell the
    student marks locked with a grade id of their own still does?"""
    notebooks, release = made
    _, empty = compared(notebooks, release)
    assert empty == ["blank"]
    tampered = copy.deepcopy(notebooks["independent"])
    forged = copy.deepcopy(notebooks["independent"])
    for cell in tampered.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if grade_id == "public_checks" or grade_id.startswith("test_"):
            cell.source += "\n" + simulate.INDEPENDENT[ID]["stable_softmax"]
    for cell in forged.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            cell.metadata["nbgrader"] = {**meta, "solution": False, "locked": True,
                                         "grade_id": f"mine_{meta['grade_id']}"}
    assert student_cells(tampered, release) == student_cells(notebooks["independent"], release)
    assert student_cells(forged, release) == student_cells(notebooks["independent"], release)


def test_code_the_whole_class_shares_is_not_a_copy(made):
    """In a class where a dozen notebooks hold the reference (as the demo's does), are those
    notebooks no longer flagged with one another, while the disguised copy of the
    independent solution still is; and with the common limit above the class, are they?"""
    notebooks, release = made
    crowd = {f"s{n:02d}": notebooks["reference"] for n in range(12)}
    crowd |= {k: notebooks[k] for k in ("independent", "independent copy")}
    pairs, _ = compared(crowd, release, common=10)
    assert score(pairs, "s00", "s01") < SHARE / 2
    assert score(pairs, "independent", "independent copy") >= 0.8
    pairs, _ = compared(crowd, release, common=len(crowd))
    assert score(pairs, "s00", "s01") == pytest.approx(1.0)


def test_a_course_folder_is_read(tmp_path, made):
    """Read from a course's submitted/ (and autograded/, which wins): are the right notebooks
    compared, a file that is not a notebook left out?"""
    notebooks, _ = made
    (tmp_path / "release" / ID).mkdir(parents=True)
    nbformat.write(notebooks["blank"], tmp_path / "release" / ID / f"{ID}.ipynb")
    for student, name, stage in [("ada", "independent", "submitted"),
                                 ("bo", "reference", "submitted"),
                                 ("bo", "independent copy", "autograded")]:
        (tmp_path / stage / student / ID).mkdir(parents=True)
        nbformat.write(notebooks[name], tmp_path / stage / student / ID / f"{ID}.ipynb")
    (tmp_path / "submitted" / "cy" / ID).mkdir(parents=True)
    (tmp_path / "submitted" / "cy" / ID / f"{ID}.ipynb").write_text("not a notebook")
    result = similarity(tmp_path, ID)
    assert [n.student for n in result.notebooks] == ["ada", "bo"]
    assert [(p.first.student, p.second.student) for p in result.flagged] == [("ada", "bo")]


def test_the_demo_class_ranks_its_planted_copies_first(tmp_path):
    """In the demo's class of the first assignment (every student as the demo makes them:
    the reference, partly done, blank, each mistake, a crash ...), are the planted copies and
    the solution they copy the top three pairs, the only ones flagged, and is the independent
    solution not flagged beside any student who hands in the reference?"""
    import random

    from autograder.tools.demo import hand_in, plan_class, plant_copies

    release, source = read("release"), read("source")
    plan = plant_copies(plan_class(ROOT, [ID], random.Random(0)))
    shutil.copytree(ROOT / "assignments", tmp_path / "assignments",  # the demo's flag: 01's own
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "release" / ID).mkdir(parents=True)
    nbformat.write(release, tmp_path / "release" / ID / f"{ID}.ipynb")
    for (student, _), (kind, mistake) in plan.items():
        (tmp_path / "submitted" / student / ID).mkdir(parents=True)
        nbformat.write(hand_in(kind, mistake, release, source),
                       tmp_path / "submitted" / student / ID / f"{ID}.ipynb")
    kinds = {student: kind for (student, _), (kind, _) in plan.items()}
    planted = {s for s, kind in kinds.items() if kind in ("independent", "copy")}
    result = similarity(tmp_path, ID)
    assert result.flag == load_assignment(ROOT, ID).similar
    assert len(planted) == 3 and len(result.notebooks) == len(plan)
    assert [{p.first.student, p.second.student} <= planted for p in result.flagged] == [True] * 3
    independent = next(s for s, kind in kinds.items() if kind == "independent")
    correct = [s for s, kind in kinds.items() if kind == "correct"]
    assert correct and all(
        p.score < SHARE / 2 for p in result.pairs
        if {p.first.student, p.second.student} & {independent} and
        {p.first.student, p.second.student} & set(correct))
