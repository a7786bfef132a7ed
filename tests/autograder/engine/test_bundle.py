"""Is an assignment's bundle made again exactly when what it is made of changes, and do a
student's scores reach a worker's copy of its gradebook whole?"""

from __future__ import annotations

from autograder.course.directory import Course, open_gradebook
from autograder.engine.bundle import assignment_bundle
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


def test_a_class_scores_are_each_students_own(tmp_path):
    """Read for a whole class at once (feedback's one session of the gradebook), is each
    student's entry their own submission, as scores_in reads it alone?"""
    from autograder.engine.bundle import quiet_gradebook, scores_in, scores_of

    root = tmp_path / "course"
    Course.create(root, ROOT, [ID])
    register_assignments(root, [ID], log=lambda _: None)
    with open_gradebook(root) as gradebook, quiet_gradebook():
        for student, score in (("ada", 2.0), ("bo", 0.5)):
            gradebook.add_student(student)
            gradebook.add_submission(ID, student)
            grade = gradebook.find_submission(ID, student).notebooks[0].grades[-1]
            grade.manual_score = score
        gradebook.db.commit()
        alone = {student: scores_in(gradebook, ID, student) for student in ("ada", "bo")}

    together = scores_of(root, ID, ["ada", "bo"])
    assert together == alone
    assert together["ada"] != together["bo"]
