"""Is an assignment's bundle made again exactly when what it is made of changes, and do a
student's scores reach a worker's copy of its gradebook whole?"""

from __future__ import annotations

from autograder.course.directory import Course, open_gradebook
from autograder.course.handed_in import record, record_path
from autograder.engine.bundle import (
    COMMENT_COLUMNS,
    SCORE_COLUMNS,
    assignment_bundle,
    graded_submission,
)
from autograder.grading.parallel import register_assignments
from tests.course import ROOT

ID = "01_attention_by_hand"


def test_a_bundle_is_reused_until_a_file_or_a_master_cell_changes(tmp_path):
    """In one process (serve grades again and again), is the bundle of an unchanged
    assignment the one made before, and is a new one made after the assignment's checks, or
    its gradebook's master cells, change?"""
    root = tmp_path / "course"
    Course.create(root, ROOT, [ID])
    register_assignments(root, [ID], log=lambda _: None)
    first = assignment_bundle(root, ID)
    assert assignment_bundle(root, ID) is first

    checks = root / "assignments" / ID / "checks.py"
    checks.write_text(checks.read_text() + "\n# a comment of the instructor's\n")
    edited = assignment_bundle(root, ID)
    assert edited is not first
    assert edited.files[f"assignments/{ID}/checks.py"].endswith(b"instructor's\n")
    assert assignment_bundle(root, ID) is edited

    with open_gradebook(root) as gradebook:
        cell = gradebook.find_assignment(ID).notebooks[0].grade_cells[0]
        cell.max_score += 1
        gradebook.db.commit()
    assert assignment_bundle(root, ID) is not edited


def test_a_bundles_gradebook_holds_the_courses_master_cells(tmp_path):
    """Does the gradebook a bundle carries hold the assignment's notebooks and every master
    cell of each kind, with their fields, as the course's gradebook holds them?"""
    from nbgrader.api import Gradebook

    from autograder.engine.bundle import GRADEBOOK, master_of

    root = tmp_path / "course"
    Course.create(root, ROOT, [ID])
    register_assignments(root, [ID], log=lambda _: None)
    with open_gradebook(root) as gradebook:
        expected = master_of(gradebook, ID)
    path = tmp_path / "bundle.db"
    path.write_bytes(assignment_bundle(root, ID).files[GRADEBOOK])
    with Gradebook(f"sqlite:///{path}") as gradebook:
        assert master_of(gradebook, ID) == expected
    assert all(expected[1][0][2][kind] for kind in ("grade_cells", "solution_cells",
                                                      "source_cells"))


def test_a_submissions_scores_reach_a_bundles_gradebook_whole(tmp_path):
    """Do a student's scores, read from the course's gradebook as data, land in a bundle's
    gradebook (a feedback worker's) exactly as they were: a TA's score, extra credit and
    comment, the notebook's flag and late penalty, the submission's time and extension?"""
    import datetime

    from nbgrader.api import Gradebook

    from autograder.engine.bundle import GRADEBOOK, quiet_gradebook, scores_in, write_scores

    root = tmp_path / "course"
    Course.create(root, ROOT, [ID])
    register_assignments(root, [ID], log=lambda _: None)
    when = datetime.datetime(2026, 11, 2, 9, 30)
    with open_gradebook(root) as gradebook, quiet_gradebook():
        gradebook.add_student("ada")
        gradebook.add_submission(ID, "ada", timestamp=when,
                                 extension=datetime.timedelta(hours=6))
        notebook = gradebook.find_submission(ID, "ada").notebooks[0]
        notebook.flagged, notebook.late_submission_penalty = True, 1.5
        grade, comment = notebook.grades[-1], notebook.comments[-1]
        grade.auto_score, grade.manual_score, grade.extra_credit = 0.0, 2.5, 1.0
        comment.manual_comment = "see me after class"
        gradebook.db.commit()
        expected = scores_in(gradebook, ID, "ada")
    assert expected["notebooks"][notebook.name]["grades"][grade.name]["manual_score"] == 2.5

    path = tmp_path / "worker.db"
    path.write_bytes(assignment_bundle(root, ID).files[GRADEBOOK])
    with Gradebook(f"sqlite:///{path}") as gradebook:
        write_scores(gradebook, ID, "ada", expected)
    with Gradebook(f"sqlite:///{path}") as gradebook:
        assert scores_in(gradebook, ID, "ada") == expected


def test_a_score_for_a_cell_the_bundle_lacks_is_refused(tmp_path):
    """A score of a cell the bundle's gradebook has no cell for (the course changed between
    grading and feedback): is it refused with nbgrader's MissingEntry, not dropped?"""
    import pytest
    from nbgrader.api import Gradebook, MissingEntry

    from autograder.engine.bundle import GRADEBOOK, quiet_gradebook, scores_in, write_scores

    root = tmp_path / "course"
    Course.create(root, ROOT, [ID])
    register_assignments(root, [ID], log=lambda _: None)
    with open_gradebook(root) as gradebook, quiet_gradebook():
        gradebook.add_student("ada")
        gradebook.add_submission(ID, "ada")
        scores = scores_in(gradebook, ID, "ada")
    notebook = next(iter(scores["notebooks"].values()))
    notebook["grades"]["a_cell_removed_since"] = {"manual_score": 1.0}
    path = tmp_path / "worker.db"
    path.write_bytes(assignment_bundle(root, ID).files[GRADEBOOK])
    with Gradebook(f"sqlite:///{path}") as gradebook, pytest.raises(MissingEntry):
        write_scores(gradebook, ID, "ada", scores)


def as_nbgrader_reads_it(gradebook, assignment_id, student):
    """scores_in's data read as nbgrader's own objects give it, attribute by attribute (what
    GetGrades reads for a page): the oracle of the class read in a few queries."""
    submitted = gradebook.find_submission(assignment_id, student)
    notebooks = {}
    for notebook in submitted.notebooks:
        grades, comments = notebook.grades, notebook.comments
        notebooks[notebook.name] = {
            "flagged": notebook.flagged,
            "late_submission_penalty": notebook.late_submission_penalty,
            "grades": {g.name: {c: getattr(g, c) for c in SCORE_COLUMNS} for g in grades},
            "comments": {c.name: {k: getattr(c, k) for k in COMMENT_COLUMNS} for c in comments},
            "shown": {"score": notebook.score, "max_score": notebook.max_score,
                      "late_penalty": notebook.late_submission_penalty,
                      "grades": {g.name: (g.score, g.max_score) for g in grades},
                      "comments": {c.name: c.comment for c in comments}}}
    return {"timestamp": submitted.timestamp, "extension": submitted.extension,
            "notebooks": notebooks}


def test_a_class_scores_are_what_nbgrader_says_of_each_student(tmp_path, monkeypatch):
    """Read for a whole class at once (feedback's few queries, a few students to a query),
    is each student's entry what nbgrader's own objects say of their submission: a TA's
    score, extra credit and comment, a flag and a late penalty included; and is a student
    without a submission named with nbgrader's MissingEntry?"""
    import datetime

    import pytest
    from nbgrader.api import MissingEntry

    from autograder.engine import bundle
    from autograder.engine.bundle import quiet_gradebook, scores_of

    monkeypatch.setattr(bundle, "SCORES_AT_ONCE", 2)  # three students: two queries of each
    root = tmp_path / "course"
    Course.create(root, ROOT, [ID])
    register_assignments(root, [ID], log=lambda _: None)
    students = ("ada", "bo", "cy")
    with open_gradebook(root) as gradebook, quiet_gradebook():
        for n, student in enumerate(students):
            gradebook.add_student(student)
            gradebook.add_submission(ID, student, timestamp=datetime.datetime(2026, 11, 2 + n))
            notebook = gradebook.find_submission(ID, student).notebooks[0]
            notebook.grades[-1].auto_score = 0.5 * n
            notebook.grades[0].manual_score = 1.0 + n
        bo = gradebook.find_submission(ID, "bo").notebooks[0]
        bo.flagged, bo.late_submission_penalty = True, 1.5
        bo.grades[1].extra_credit = 0.25
        bo.comments[0].manual_comment = "see me after class"
        gradebook.add_student("dan")  # no submission
        gradebook.db.commit()
        expected = {s: as_nbgrader_reads_it(gradebook, ID, s) for s in students}

    together = scores_of(root, ID, ["cy", "ada", "bo"])
    assert together == expected
    assert together["bo"]["notebooks"][bo.name]["shown"]["late_penalty"] == 1.5
    assert len({repr(entry) for entry in together.values()}) == 3
    with pytest.raises(MissingEntry, match="dan"):
        scores_of(root, ID, ["ada", "dan"])


def test_a_page_is_made_of_what_grading_wrote_not_a_tas_file(tmp_path):
    """An autograded folder holding the graded notebook, the student's data file (also in
    submitted/) and a TA's note put beside them: does the page's submission carry the first
    two and not the note, which nbgrader would copy into the folder students get?"""
    graded = tmp_path / "autograded" / "ada" / "01_x"
    handed_in = tmp_path / "submitted" / "ada" / "01_x"
    for folder in (graded / "data", handed_in / "data"):
        folder.mkdir(parents=True)
        (folder / "words.txt").write_text("mine")
    (graded / "01_x.ipynb").write_text("{}")
    (graded / "ta_notes.txt").write_text("asked for an extension")
    files = graded_submission(tmp_path, "01_x", "ada").files
    assert sorted(files) == ["autograded/ada/01_x/01_x.ipynb",
                             "autograded/ada/01_x/data/words.txt"]


def test_a_tas_file_put_in_submitted_after_collect_stays_out_of_the_page(tmp_path):
    """A student's notebook and data file recorded as collect put them, then a TA's note put
    beside them in submitted/, which grading copied into autograded/: does the page's
    submission leave the note out, and take it (as before) where no record tells?"""
    graded = tmp_path / "autograded" / "ada" / "01_x"
    handed_in = tmp_path / "submitted" / "ada" / "01_x"
    for folder in (graded, handed_in):
        (folder / "data").mkdir(parents=True)
        (folder / "data" / "words.txt").write_text("mine")
        (folder / "01_x.ipynb").write_text("{}")
        (folder / "timestamp.txt").write_text("2026-12-01 09:30:00 UTC")
    record(tmp_path, "01_x", "ada", handed_in)
    for folder in (graded, handed_in):  # stamped by collect after its record: release_feedback's
        (folder / "submission_secret.txt").write_text("4f2a")
    for folder in (graded, handed_in):
        (folder / "ta_notes.txt").write_text("asked for an extension")
    theirs = ["autograded/ada/01_x/01_x.ipynb", "autograded/ada/01_x/data/words.txt",
              "autograded/ada/01_x/submission_secret.txt", "autograded/ada/01_x/timestamp.txt"]
    assert sorted(graded_submission(tmp_path, "01_x", "ada").files) == theirs
    record_path(tmp_path, "01_x", "ada").unlink()
    assert sorted(graded_submission(tmp_path, "01_x", "ada").files) == sorted(
        [*theirs, "autograded/ada/01_x/ta_notes.txt"])
