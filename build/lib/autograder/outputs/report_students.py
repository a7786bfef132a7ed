"""The class report's two tables of students: the class at a glance (a column per assignment
and each student's total) and every graded submission in full (when it was handed in, how
late, its raw score, the late penalty, the score, whether nbgrader leaves a grade to the
instructor, whether its feedback page is older than its grading)."""

from __future__ import annotations

import html

from autograder.course.deadlines import late_by
from autograder.i18n import t
from autograder.outputs.report_gaps import feedback_command
from autograder.outputs.roster import GRADED, WARNED


def number(value):
    return "" if value is None else f"{value:g}"


def when(moment):
    """A time nbgrader keeps (naive UTC) as a person reads it."""
    return "" if moment is None else f"{moment:%Y-%m-%d %H:%M:%S} UTC"


def students_section(results):
    """Every student the course knows, a column per assignment: status and score, linked to
    the feedback page when there is one; then the student's total."""
    ids = list(results.totals)
    if not results.roster:
        return f"<p>{html.escape(t('No student yet.'))}</p>"
    students = sorted({e.student for e in results.roster if e.student})
    by_key = {(e.student, e.assignment): e for e in results.roster}
    head = f"<th>{html.escape(t('student'))}</th>" + "".join(
        f"<th title='{html.escape(a)}'>{html.escape(a[:2])}</th>" for a in ids)
    head += f"<th>{html.escape(t('total'))}</th>"
    body = []
    for student in students:
        cells = [f"<td>{html.escape(student)}</td>"]
        for assignment_id in ids:
            cells.append(student_cell(by_key.get((student, assignment_id)), results))
        cells.append(f"<td class='total'>{html.escape(total(results, student, ids))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    legend = t("One column per assignment ({ids}): the score, linked to the student's "
               "feedback page, or what is missing; hover a cell for the reason and the fix.",
               ids=t(", ").join(ids))
    summed = t("The last column adds the scores, late penalties taken off, over the "
               "assignments the gradebook has.")
    legend = f"<p>{html.escape(legend)}</p><p>{html.escape(summed)}</p>"
    return legend + f"<table class='students'><tr>{head}</tr>{''.join(body)}</table>"


def total(results, student, ids):
    """'7.5/20': the student's scores over the assignments the gradebook has."""
    known = [a for a in ids if a in results.max_scores]
    scores = [e.score for e in results.roster
              if e.student == student and e.assignment in known and e.score is not None]
    return f"{sum(scores):g}/{sum(results.max_scores[a] for a in known):g}"


def markers(results, student, assignment_id):
    """(short mark, its explanation) of what the instructor still has to do for this cell."""
    found = []
    if (student, assignment_id) in results.manual:
        found.append((t("manual"), t("needs a manual grade in nbgrader's formgrader")))
    if (student, assignment_id) in results.stale:
        found.append((t("stale"), t("the feedback page is older than the latest grading; "
                                    "rewrite it: {command}",
                                    command=feedback_command(student, assignment_id))))
    return found


def student_cell(e, results):
    if e is None:
        return "<td></td>"
    score = f"{e.score:g}/{e.max_score:g}" if e.score is not None else ""
    status = t(e.status)
    shown = {GRADED: score, WARNED: t("{score} (warnings)", score=score)}.get(
        e.status, f"{status} {score}".strip())
    text = html.escape(shown)
    link = results.links.get((e.student, e.assignment))
    if link:
        text = f"<a href='{html.escape(link)}'>{text}</a>"
    hints = [t("{status}: {note}", status=status, note=e.note) if e.note else status]
    for mark, why in markers(results, e.student, e.assignment):
        text += f" <span class='mark'>{html.escape(mark)}</span>"
        hints.append(why)
    hint = html.escape(t("; ").join(hints))
    return f"<td class='{e.status.replace(' ', '-')}' title='{hint}'>{text}</td>"


def submissions_section(results):
    """A row per submission the gradebook has: handed in, lateness, raw score, penalty,
    score, and what is left to do."""
    rows = sorted((e for e in results.roster if e.late is not None),
                  key=lambda e: (e.student, e.assignment))
    if not rows:
        return f"<p>{html.escape(t('Nothing graded yet.'))}</p>"
    header = [t("student"), t("assignment"), t("handed in"), t("late by"), t("raw score"),
              t("penalty"), t("score"), t("max points"), t("to do")]
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = []
    for e in rows:
        late = late_by(e.late) if e.late.seconds_late > 0 else ""
        cells = [e.student, e.assignment, when(e.late.timestamp), late,
                 number(e.late.raw_score), number(e.late.penalty), number(e.score),
                 number(e.max_score),
                 t("; ").join(why for _, why in markers(results, e.student, e.assignment))]
        body.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in cells)
                    + "</tr>")
    return f"<table class='submissions'><tr>{head}</tr>{''.join(body)}</table>"
