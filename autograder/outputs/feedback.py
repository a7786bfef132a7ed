"""Feedback pages (nbgrader generate_feedback, with the kit's HideHiddenTests stage) and the
CSV export (nbgrader export, with the kit's ClassCsvExport plugin)."""

from __future__ import annotations

import re
from pathlib import Path

from autograder.course import run_nbgrader
from autograder.errors import OutputError
from autograder.ledger import chosen

# nbgrader's feedback template lists every test cell as "Test cell"; the kit's test cells are
# named test_<step>, so each entry can name its step.
TEST_CELL_LINK = re.compile(r'<a href="#test_(\w+)">Test cell</a>')


def graded_students(root: Path, assignment_id):
    return sorted(p.parts[-3] for p in
                  (root / "autograded").glob(f"*/{assignment_id}/{assignment_id}.ipynb"))


def name_the_steps(page: Path):
    text = page.read_text(encoding="utf-8")
    page.write_text(TEST_CELL_LINK.sub(r'<a href="#test_\1">\1</a>', text), encoding="utf-8")


def write_feedback(root: Path, ids, students=(), log=print):
    """Feedback pages of the given assignments (of the given students: ids or globs); an
    assignment with nothing graded is skipped and said so. Returns the ids done."""
    done = []
    for assignment_id in ids:
        graded = [s for s in graded_students(root, assignment_id) if chosen(s, students)]
        if not graded:
            log(f"feedback {assignment_id}: skipped, nothing graded yet"
                + (f" for {', '.join(students)}" if students else ""))
            continue
        for student in graded if students else ["*"]:
            run_nbgrader(root, "generate_feedback", assignment_id, "--force",
                         f"--student={student}")
        pages = [root / "feedback" / s / assignment_id / f"{assignment_id}.html" for s in graded]
        for page in pages:
            if page.exists():
                name_the_steps(page)
        log(f"feedback {assignment_id}: {len(pages)} pages in feedback/")
        done.append(assignment_id)
    return done


def export_grades(root: Path, destination: Path, log=print):
    if not destination.resolve().parent.is_dir():
        raise OutputError(f"{destination.parent}: no such folder; create it or export "
                          "elsewhere (--to)")
    run_nbgrader(root, "export", f"--to={destination.resolve()}")
    log(f"grades: {destination}")
    return destination
