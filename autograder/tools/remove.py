"""`python -m autograder remove ID`: an assignment taken out of the gradebook and the course.

The gradebook: nbgrader's own `Gradebook.remove_assignment`, what `nbgrader db assignment
remove` runs. Where the gradebook holds submissions of the assignment (grades, a TA's manual
score or comment among them) it is refused, as nbgrader refuses, unless `--force` says so;
then those rows go with the assignment, written first to `removed/ID/gradebook.json` (a TA's
scores and comments are nowhere else).

The course: nothing is deleted. Every folder of the assignment (its authoring folder in
assignments/, source/ and release/, each student's submitted/, autograded/ and feedback/
folder, its similarity pages) is moved, as it is, under `removed/ID/` at the same relative
path, so that no submission, grade file or file the kit did not make is lost, and putting
them back is moving them back (then `grade ID` registers the assignment again). Only the kit's
own books of it (`.kit/status/*/ID.json`, its entries in `.kit/problems.json`) are dropped.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from autograder.course.config_file import SQLITE
from autograder.course.directory import open_gradebook, write_atomically
from autograder.course.gradebook_guard import check_gradebook
from autograder.course.ids import REMOVED, UnknownAssignment
from autograder.course.ledger import FOLDER, GradeLock, problems_path, read_problems
from autograder.i18n import counted, t
from autograder.plumbing.errors import KitError

PER_STUDENT = ("submitted", "autograded", "feedback")


class RemoveError(KitError):
    """An assignment `remove` will not take out: grades in the gradebook, no such id."""


def folders_of(root: Path, assignment_id):
    """Every folder of the assignment in the course, as paths relative to the root."""
    found = [Path(top, assignment_id) for top in ("assignments", "source", "release",
                                                   "similarity")]
    for top in PER_STUDENT:
        if (root / top).is_dir():
            found += [Path(top, student.name, assignment_id)
                      for student in sorted((root / top).iterdir()) if student.is_dir()]
    return [path for path in found if (root / path).is_dir() and not (root / path).is_symlink()]


def in_gradebook(root: Path, assignment_id):
    """(the gradebook's assignment or None, its known ids), without making a gradebook."""
    from autograder.course.directory import db_url

    url = db_url(root)
    if url.startswith(SQLITE) and not Path(url[len(SQLITE):]).exists():
        return None, []
    check_gradebook(root, complete=False)
    gradebook = open_gradebook(root)
    names = sorted(a.name for a in gradebook.assignments)
    found = next((a for a in gradebook.assignments if a.name == assignment_id), None)
    return (gradebook, found), names


def grades_held(assignment):
    """(submissions, of them those with a score or comment given by hand)."""
    by_hand = 0
    for submission in assignment.submissions:
        notebooks = submission.notebooks
        if any(g.manual_score is not None or g.extra_credit for n in notebooks for g in n.grades) \
                or any(c.manual_comment for n in notebooks for c in n.comments):
            by_hand += 1
    return len(assignment.submissions), by_hand


GRADES = "gradebook.json"  # under removed/ID/: the rows the gradebook held of the assignment


def gradebook_rows(assignment):
    """What the gradebook holds of each submission of the assignment, as data: its time and
    late penalty, and every grade and comment of each notebook, the TA's among them."""
    return [{
        "student": submission.student.id,
        "timestamp": str(submission.timestamp) if submission.timestamp else None,
        "late_submission_penalty": submission.late_submission_penalty,
        "notebooks": [{
            "name": notebook.name,
            "grades": [{"cell": g.name, "auto_score": g.auto_score,
                        "manual_score": g.manual_score, "extra_credit": g.extra_credit,
                        "max_score": g.max_score} for g in notebook.grades],
            "comments": [{"cell": c.name, "auto_comment": c.auto_comment,
                          "manual_comment": c.manual_comment} for c in notebook.comments],
        } for notebook in submission.notebooks],
    } for submission in assignment.submissions]


def kept_at(root: Path, assignment_id):
    """removed/ID, or removed/ID-2 ... when an earlier removal is kept there."""
    target, number = root / REMOVED / assignment_id, 1
    while target.exists():
        number += 1
        target = root / REMOVED / f"{assignment_id}-{number}"
    return target


def remove(root: Path, assignment_id, force=False, log=print):
    """Take the assignment out of the gradebook and the course (see above); the lines said."""
    if not assignment_id or assignment_id in (".", "..") or "/" in assignment_id:
        raise UnknownAssignment(t("{id!r} is no assignment id", id=assignment_id))
    with GradeLock(root):
        held, known = in_gradebook(root, assignment_id)
        folders = folders_of(root, assignment_id)
        if (held is None or held[1] is None) and not folders:
            ids = sorted(set(known) | {p.name for p in (root / "assignments").glob("*")
                                       if p.is_dir() and not p.name.startswith(("_", "."))}
                         | {p.name for p in (root / "source").glob("*") if p.is_dir()})
            raise UnknownAssignment(t("unknown assignment id {id!r}: neither the gradebook nor "
                                      "the course folder has it (they have: {known})",
                                      id=assignment_id, known=", ".join(ids) or "-"))
        target = kept_at(root, assignment_id)
        if held is not None and held[1] is not None:
            gradebook, assignment = held
            with gradebook:
                count, by_hand = grades_held(assignment)
                if count and not force:
                    raise RemoveError(t(
                        "{id} has grades in the gradebook: {held}, {by_hand} of them with a "
                        "score or comment given by hand; nothing was changed. `python -m "
                        "autograder remove {id} --force` removes them from the gradebook with "
                        "the assignment (their files are kept under removed/{id}/)",
                        id=assignment_id, by_hand=by_hand,
                        held=counted(count, "{count} submission", "{count} submissions")))
                if count:  # a TA's scores and comments live only here: kept before they go
                    target.mkdir(parents=True, exist_ok=True)
                    write_atomically(target / GRADES, json.dumps(
                        gradebook_rows(assignment), indent=1, ensure_ascii=False))
                gradebook.remove_assignment(assignment_id)  # nbgrader db assignment remove
            log(counted(count, "{id}: out of the gradebook ({count} submission and its grades "
                        "with it)", "{id}: out of the gradebook ({count} submissions and their "
                        "grades with it)", id=assignment_id))
            if count:
                log(t("{id}: every score and comment the gradebook held of it, those given by "
                      "hand among them ({by_hand}), is kept in {file} (moving the folders back "
                      "does not put them back in the gradebook: `grade {id}` grades again, and a "
                      "TA's scores are entered again from that file)", id=assignment_id,
                      by_hand=counted(by_hand, "{count} submission", "{count} submissions"),
                      file=(target / GRADES).relative_to(root)))
        elif held is not None:
            held[0].close()
        if folders:
            for path in folders:
                (target / path).parent.mkdir(parents=True, exist_ok=True)
                shutil.move(root / path, target / path)
            log(t("{id}: {moved}, as they were, under {target}/ (nothing deleted; move "
                  "them back to restore it): {folders}", id=assignment_id,
                  moved=counted(len(folders), "{count} folder moved", "{count} folders moved"),
                  target=target.relative_to(root), folders=", ".join(str(p) for p in folders)))
        drop_books(root, assignment_id)
    named = deadline_entries(root, assignment_id)
    if named:
        log(t("{id}: nbgrader_config.py still names it in {entries}: delete those entries "
              "(grade leaves them be while removed/{id}/ is there)", id=assignment_id,
              entries=", ".join(named)))
    return 0


def deadline_entries(root: Path, assignment_id):
    """Which of c.Deadlines' settings name the assignment."""
    from autograder.course.config_file import course_config
    from autograder.course.deadlines import Deadlines

    deadlines = Deadlines(config=course_config(root))
    return [f"c.Deadlines.{name}" for name in ("due_dates", "extension_hours")
            if assignment_id in getattr(deadlines, name)]


def drop_books(root: Path, assignment_id):
    """The kit's own records of the assignment: its ledger entries and kept problems."""
    for status in (root / FOLDER / "status").glob(f"*/{assignment_id}.json"):
        status.unlink()
    problems = read_problems(root)
    kept = [p for p in problems if p.assignment != assignment_id]
    if len(kept) != len(problems):
        write_atomically(problems_path(root), json.dumps([p.to_data() for p in kept], indent=1))
