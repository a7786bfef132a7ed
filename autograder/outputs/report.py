"""The class report: one self-contained HTML page with PNG plots.

Score distribution per assignment, pass rate per step, the most frequent named mistakes, the
integrity flags, and the notebooks that could not be graded. Everything is read back from the
gradebook and the autograded notebooks, so the report shows what nbgrader recorded.
"""

from __future__ import annotations

import base64
import html
import io
import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import nbformat  # noqa: E402

from autograder.course import open_gradebook, write_atomically  # noqa: E402
from autograder.record import read_record  # noqa: E402


@dataclass
class ClassResults:
    totals: dict = field(default_factory=dict)  # assignment -> [score per submission]
    max_scores: dict = field(default_factory=dict)  # assignment -> max
    steps: dict = field(default_factory=dict)  # (assignment, cell) -> [passed?]
    mistakes: Counter = field(default_factory=Counter)  # (assignment, mistake) -> notebooks
    integrity: dict = field(default_factory=dict)  # (student, assignment) -> [flag]
    problems: list = field(default_factory=list)  # input problems (course.Problem)
    failed: list = field(default_factory=list)  # (submission, why) not graded


def read_results(root: Path, ids) -> ClassResults:
    """Scores from the gradebook, named mistakes and flags from the grader's record in each
    autograded notebook of the assignments `ids`."""
    results = ClassResults()
    with open_gradebook(root) as gradebook:
        for assignment_id in ids:
            assignment = gradebook.find_assignment(assignment_id)
            results.max_scores[assignment_id] = assignment.max_score
            results.totals[assignment_id] = []
            for submission in assignment.submissions:
                results.totals[assignment_id].append(submission.score)
                for notebook in submission.notebooks:
                    for grade in notebook.grades:
                        key = (assignment_id, grade.name.removeprefix("test_"))
                        results.steps.setdefault(key, []).append(grade.score == grade.max_score)
    read_records(root, ids, results)
    return results


def read_records(root: Path, ids, results):
    """Named mistakes, counted per assignment, and integrity flags of the assignments `ids`,
    from the grader's record in each autograded notebook."""
    for assignment_id in ids:
        for path in sorted((root / "autograded").glob(f"*/{assignment_id}/{assignment_id}.ipynb")):
            record = read_record(nbformat.read(path, as_version=4))
            results.mistakes.update((assignment_id, m) for m in record.mistakes)
            if record.flags:
                results.integrity[(path.parts[-3], assignment_id)] = record.flags


def png(figure):
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    plt.close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def score_plot(results):
    ids = [a for a, scores in results.totals.items() if scores]  # nothing to draw for the rest
    figure, axes = plt.subplots(1, len(ids), figsize=(2.3 * len(ids), 2.4), squeeze=False)
    for ax, assignment_id in zip(axes[0], ids, strict=True):
        top = results.max_scores[assignment_id] or 1
        ax.hist(results.totals[assignment_id], bins=range(0, int(top) + 2), color="#4c72b0",
                align="left", rwidth=0.85)
        ax.set_title(assignment_id[:2] + " " + assignment_id[3:15], fontsize=8)
        ax.set_xlabel(f"points (of {top:g})", fontsize=7)
        ax.tick_params(labelsize=7)
    axes[0][0].set_ylabel("students", fontsize=8)
    return png(figure)


def step_plot(results):
    labels = [f"{a[:2]} {step}" for a, step in results.steps]
    rates = [100 * sum(v) / len(v) for v in results.steps.values()]
    figure, ax = plt.subplots(figsize=(6.5, 0.28 * len(labels) + 0.8))
    ax.barh(labels[::-1], rates[::-1], color="#55a868")
    ax.set_xlim(0, 100)
    ax.set_xlabel("students with full points (%)")
    ax.tick_params(labelsize=7)
    return png(figure)


def mistake_plot(results, top=15):
    common = results.mistakes.most_common(top)
    figure, ax = plt.subplots(figsize=(6.5, 0.3 * max(len(common), 1) + 0.8))
    if common:
        names = [f"{a[:2]} {name}" for (a, name), _ in common]
        counts = [count for _, count in common]
        ax.barh(list(names)[::-1], list(counts)[::-1], color="#c44e52")
    ax.set_xlabel("notebooks where the hidden checks named it")
    ax.tick_params(labelsize=7)
    return png(figure)


def summary_rows(results):
    for assignment_id, scores in results.totals.items():
        mean = statistics.fmean(scores) if scores else 0.0
        median = statistics.median(scores) if scores else 0.0
        yield (assignment_id, len(scores), f"{mean:.1f}", f"{median:g}",
               f"{results.max_scores[assignment_id]:g}")


def table(header, rows):
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def image(alt, encoded):
    return f"<p><img alt='{alt}' src='data:image/png;base64,{encoded}'>"


def scores_section(results):
    if not any(results.totals.values()):
        return "<p>Nothing graded yet.</p>"
    return (table(["assignment", "graded", "mean", "median", "max points"],
                  summary_rows(results)) + image("score distributions", score_plot(results)))


def steps_section(results):
    if not results.steps:
        return "<p>Nothing graded yet.</p>"
    return image("pass rate per step", step_plot(results))


def mistakes_section(results):
    if not results.mistakes:
        return "<p>No known mistake was named.</p>"
    return image("named mistakes", mistake_plot(results)) + table(
        ["assignment", "mistake", "notebooks"],
        [(a, name, n) for (a, name), n in results.mistakes.most_common()])


def integrity_section(results):
    intro = ("<p>Submissions to look at: code that reaches into the grader (it cannot change a "
             "score: verdicts are computed outside the student's kernel), a shortcut a "
             "notebook forbids, or graded cells changed by the student (each was graded as "
             "the release has it).</p>")
    if not results.integrity:
        return intro + "<p>Nothing flagged.</p>"
    return intro + table(["student", "assignment", "cell", "kind", "reason"],
                         [(student, assignment_id, f["cell"], f["kind"], f["reason"])
                          for (student, assignment_id), found in sorted(results.integrity.items())
                          for f in found])


def problems_section(results):
    if not results.problems:
        return "<p>None.</p>"
    return table(["file", "problem", "fix"], [(p.path, p.reason, p.fix) for p in results.problems])


def failed_section(results):
    if not results.failed:
        return "<p>None.</p>"
    return table(["notebook", "error"], [(s.notebook, m) for s, m in results.failed])


# The report, top to bottom: a section is a heading and a function of the class's results.
SECTIONS = [
    ("Scores per assignment", scores_section),
    ("Pass rate per step", steps_section),
    ("Most frequent named mistakes", mistakes_section),
    ("Integrity", integrity_section),
    ("Input problems", problems_section),
    ("Notebooks that could not be graded", failed_section),
]


def render_report(results):
    head = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>Class report</title>"
            "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
            "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px}"
            "</style></head><body><h1>Self-attention course: class report</h1>")
    body = [f"<h2>{html.escape(title)}</h2>\n{section(results)}" for title, section in SECTIONS]
    return "\n".join([head, *body, "</body></html>"])


def write_report(root: Path, ids, destination: Path, problems=(), failed=(), log=print):
    results = read_results(root, ids)
    results.problems, results.failed = list(problems), list(failed)
    write_atomically(destination, render_report(results))
    log(f"report: {destination}")
    return destination
