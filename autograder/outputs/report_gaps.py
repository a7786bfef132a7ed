"""What the class report cannot show yet, and the command that fills each gap.

A report is written every week, and every week but the last some assignment is not graded
yet: the report then says which, and what to run, at its top and on the console, instead of
leaving a column silently empty. The same goes for submissions waiting for grading, grades
nbgrader leaves to the instructor, and feedback pages older than the student's latest grading.
"""

from __future__ import annotations

from autograder.i18n import counted, t
from autograder.outputs.roster import PENDING

COMMAND = "python -m autograder"


def feedback_command(student, assignment_id):
    """The command that rewrites one student's feedback page of one assignment."""
    return f"{COMMAND} feedback {assignment_id} --student {student}"


def ungraded(assignment_id, collected):
    """The gap of an assignment with nothing graded: its notebooks are waiting in submitted/,
    or have still to be collected."""
    command = f"{COMMAND} grade {assignment_id}"
    if collected:
        return counted(collected, "{assignment}: {count} notebook collected, not graded yet; run "
                       "{command}.", "{assignment}: {count} notebooks collected, none graded "
                       "yet; run {command}.", assignment=assignment_id, command=command)
    return t("{assignment}: nothing graded yet; once its notebooks are collected, run "
             "{command}.", assignment=assignment_id, command=command)


def gaps(results):
    """One sentence per gap of the report, in the current language, each with its command;
    empty when the report shows the whole course as it is asked for."""
    unread = [t("{assignment}: its similar pairs are left out, since its checks could not be "
                "read: {why}", assignment=a, why=why) for a, why in results.unreadable.items()]
    if not any(results.totals.values()) and not results.roster \
            and not any(results.collected.values()):
        return [t("Nothing is graded yet: collect the students' notebooks ({collect}), then "
                  "run {grade}.", collect=f"{COMMAND} collect ID --from FILE",
                  grade=f"{COMMAND} grade"), *unread]
    lines = [ungraded(a, results.collected.get(a, 0))
             for a, scores in results.totals.items() if not scores]
    waiting = sorted({e.assignment for e in results.roster
                      if e.status == PENDING and results.totals.get(e.assignment)})
    lines += [t("{assignment}: submissions waiting for grading: {count}; run {command}.",
                assignment=a, command=f"{COMMAND} grade {a}",
                count=sum(e.status == PENDING and e.assignment == a for e in results.roster))
              for a in waiting]
    if results.manual:
        lines.append(t("Submissions that need a manual grade (marked below): {count}; grade them "
                       "in nbgrader's formgrader, then run {command}.", count=len(results.manual),
                       command=f"{COMMAND} report"))
    if results.stale:
        lines.append(t("Feedback pages older than the student's latest grading (marked below): "
                       "{count}; run {command}.", count=len(results.stale),
                       command=f"{COMMAND} feedback"))
    return lines + unread
