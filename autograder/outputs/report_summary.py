"""The class report's first screen: what an instructor wants before any long table. Per
assignment, how the scores spread (fifths of the points, as grade's summary counts them) and
their mean; the steps fewest students passed and the mistakes the hidden checks named most;
and what needs the instructor (not gradable, refused inputs, integrity flags, similar pairs,
late), each count linked to the section below that lists them.

A link's target is the id of a section's heading, which report.py makes from the section
function's name (late_section -> #late); a test follows every link."""

from __future__ import annotations

import html
import statistics

from autograder.i18n import t
from autograder.outputs.roster import REFUSED
from autograder.outputs.score_summary import bins
from autograder.outputs.similarity_report import flagged_in_all

TOP = 3  # steps and mistakes the summary names; their sections below have every one
BAR = 28  # pixels of the tallest bar of a distribution


def link(anchor, text):
    return f"<a href='#{anchor}'>{html.escape(text)}</a>"


def distribution(scores, most):
    """The scores' fifths of the points as a row of small bars, each with its count above it
    and its span on hover."""
    counted = bins(scores, most)
    tallest = max(count for _, count in counted) or 1
    bars = "".join(
        f"<span class='bin' title='{html.escape(span, quote=True)}: {count}'>"
        f"<small>{count}</small><i style='height:{round(BAR * count / tallest)}px'></i></span>"
        for span, count in counted)
    return f"<span class='bins'>{bars}</span>"


def scores_rows(results):
    """A row per assignment graded: its name, notebooks graded, the spread and the mean."""
    for assignment_id, scores in results.totals.items():
        most = results.max_scores.get(assignment_id)
        if not scores or most is None:
            continue
        yield (f"<td>{html.escape(assignment_id)}</td><td>{len(scores)}</td>"
               f"<td>{distribution(scores, most)}</td>"
               f"<td>{statistics.fmean(scores):.1f}/{most:g}</td>")


def scores_box(results):
    rows = list(scores_rows(results))
    title = f"<h3>{link('scores', t('Scores per assignment'))}</h3>"
    if not rows:
        return title + f"<p>{html.escape(t('Nothing graded yet.'))}</p>"
    head = "".join(f"<th>{html.escape(h)}</th>" for h in (
        t("assignment"), t("graded"), t("in fifths of the points"), t("mean")))
    body = "".join(f"<tr>{row}</tr>" for row in rows)
    return title + f"<table class='glance-scores'><tr>{head}</tr>{body}</table>"


def most_failed(results, top=TOP):
    """(assignment, step, students with its full points, students) of the `top` steps the
    fewest passed, among those someone failed."""
    failed = [(a, step, sum(passed), len(passed))
              for (a, step), passed in results.steps.items() if passed and not all(passed)]
    return sorted(failed, key=lambda s: (s[2] / s[3], s[2] - s[3]))[:top]


def steps_box(results):
    title = f"<h3>{link('steps', t('Steps most failed'))}</h3>"
    found = most_failed(results)
    if not found:
        return title + f"<p>{html.escape(t('Every step graded has full points everywhere.'))}</p>"
    head = "".join(f"<th>{html.escape(h)}</th>" for h in (
        t("assignment"), t("step"), t("students with full points")))
    body = "".join(f"<tr><td>{html.escape(a)}</td><td>{html.escape(step)}</td>"
                   f"<td>{100 * n / of:.0f}% ({n}/{of})</td></tr>"
                   for a, step, n, of in found)
    return title + f"<table class='glance-steps'><tr>{head}</tr>{body}</table>"


def mistakes_box(results):
    title = f"<h3>{link('mistakes', t('Mistakes most named'))}</h3>"
    if not results.mistakes:
        return title + f"<p>{html.escape(t('No known mistake was named.'))}</p>"
    head = "".join(f"<th>{html.escape(h)}</th>" for h in (
        t("assignment"), t("mistake"), t("notebooks")))
    body = "".join(f"<tr><td>{html.escape(a)}</td><td>{html.escape(name)}</td><td>{n}</td></tr>"
                   for (a, name), n in results.mistakes.most_common(TOP))
    return title + f"<table class='glance-mistakes'><tr>{head}</tr>{body}</table>"


def attention(results):
    """(anchor, label, count) of what needs the instructor: the five always (a 0 says there is
    nothing to do), a manual grade or a step without hidden checks only when there is one."""
    late = [e for e in results.roster if e.late is not None and e.late.is_late]
    not_gradable = {(e.student, e.assignment) for e in results.roster if e.status == REFUSED}
    found = [
        ("problems", "not gradable", "not gradable",
         sum(e.status == REFUSED for e in results.roster)),
        # a refused file that left no row not gradable (a newer file, the older one graded):
        # each refusal is counted once
        ("problems", "other input refused", "other inputs refused", sum(
            not p.graded_anyway and (p.student, p.assignment) not in not_gradable
            for p in results.problems)),
        ("integrity", "submission flagged for integrity", "submissions flagged for integrity",
         len(results.integrity)),
        ("similarity", "similar pair", "similar pairs", flagged_in_all(results.similar)),
        ("late", "late submission", "late submissions", len(late)),
    ]
    if results.manual:
        found.append(("submissions", "submission needs a manual grade",
                      "submissions need a manual grade", len(results.manual)))
    if results.unchecked:
        found.append(("unchecked", "test cell without hidden checks",
                      "test cells without hidden checks",
                      len({(a, cell) for a, cell, _ in results.unchecked})))
    return [(anchor, t(one if count == 1 else many), count)
            for anchor, one, many, count in found]
    return found


def attention_box(results):
    items = "".join(
        f"<li class='{'to-do' if count else 'none'}'><b>{count}</b> {link(anchor, label)}</li>"
        for anchor, label, count in attention(results))
    return (f"<h3>{html.escape(t('Needs your attention'))}</h3>"
            f"<ul class='attention'>{items}</ul>")


def summary_section(results):
    """The first screen: scores and what needs the instructor side by side, then the steps
    and mistakes; the long tables are at the end of the page, linked from here."""
    tables = (html.escape(t("Every student and every submission, at the end of this page:"))
              + f" {link('students', t('Students'))}{html.escape(t(', '))}"
              f"{link('submissions', t('Submissions'))}")
    return ("<div class='glance'>"
            f"<div>{scores_box(results)}</div><div>{attention_box(results)}</div>"
            f"<div>{steps_box(results)}</div><div>{mistakes_box(results)}</div>"
            f"</div><p>{tables}</p>")
