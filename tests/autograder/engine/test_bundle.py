"""Is an assignment's bundle made again exactly when what it is made of changes?"""

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
