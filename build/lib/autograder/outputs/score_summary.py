"""The few lines `grade` ends with: how the class scored, per assignment. With a few students
(FEW or fewer graded), each student's score; with more, the distribution: how many were
graded, the mean and median, the lowest and highest, and how many fall in each fifth of the
points. Read from the roster (outputs/roster.py), so a score is the export's: late penalty
taken off, and only notebooks whose grade is current (graded, or graded with warnings)."""

from __future__ import annotations

import statistics
from pathlib import Path

from autograder.course.directory import open_gradebook
from autograder.i18n import t
from autograder.outputs.csv_cells import points
from autograder.outputs.roster import GRADED, WARNED, roster

FEW = 8  # students of an assignment shown one by one
BINS = 5  # the distribution's bars: fifths of the points


def score_lines(entries, few=FEW):
    """The summary's lines for the roster's `entries` (an assignment with no current grade
    gets none)."""
    lines = []
    for assignment in sorted({e.assignment for e in entries if e.student}):
        graded = [e for e in entries if e.assignment == assignment and e.student
                  and e.status in (GRADED, WARNED) and e.score is not None]
        if not graded:
            continue
        most = graded[0].max_score
        if len(graded) <= few:
            scores = ", ".join(f"{e.student} {points(e.score)}" for e in graded)
            lines.append(t("{id} (of {most} points): {scores}", id=assignment,
                           most=points(most), scores=scores))
            continue
        values = [e.score for e in graded]
        lines.append(t("{id} (of {most} points): {count} graded, mean {mean}, median {median}, "
                       "lowest {low}, highest {high}", id=assignment, most=points(most),
                       count=len(values), mean=points(round(statistics.mean(values), 1)),
                       median=points(statistics.median(values)), low=points(min(values)),
                       high=points(max(values))))
        lines.append("    " + "  ".join(f"{span}: {count}" for span, count in bins(values, most)))
    return lines


def bins(values, most):
    """(span, count) of each fifth of [0, most], the last one closed: '[0, 2)', '[8, 10]'."""
    if most <= 0:
        return [("0", len(values))]
    edges = [most * i / BINS for i in range(BINS + 1)]
    counts = [0] * BINS
    for value in values:
        counts[min(BINS - 1, max(0, int(value / most * BINS)))] += 1
    return [(f"[{points(edges[i])}, {points(edges[i + 1])}" + ("]" if i == BINS - 1 else ")"),
             counts[i]) for i in range(BINS)]


def summary(root: Path, ids, students=()):
    """The summary of the course's assignments `ids`, only `students` (ids or globs) when
    given; [] when nothing there has a current grade."""
    with open_gradebook(root) as gradebook:
        return score_lines(roster(root, gradebook, ids, students))
