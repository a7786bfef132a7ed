"""The class report: one self-contained HTML page with PNG plots.

Score distribution per assignment, pass rate per step, the most frequent named mistakes, the
integrity flags, and the notebooks that could not be graded. Everything is read back from the
gradebook and the autograded notebooks, so the report shows what nbgrader recorded.
"""

from __future__ import annotations

import base64
import html
import io
import re
import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import nbformat  # noqa: E402

from autograder.course import open_gradebook, write_atomically  # noqa: E402

MISTAKE = re.compile(r"known mistake '([^']+)'")


@dataclass
class ClassResults:
    totals: dict = field(default_factory=dict)  # assignment -> [score per submission]
    max_scores: dict = field(default_factory=dict)  # assignment -> max
    steps: dict = field(default_factory=dict)  # (assignment, cell) -> [passed?]
    mistakes: Counter = field(default_factory=Counter)
    integrity: dict = field(default_factory=dict)  # (student, assignment) -> [flag]


def read_results(root: Path, ids) -> ClassResults:
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
    for path in sorted((root / "autograded").glob("*/*/*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        results.mistakes.update(named_mistakes(notebook))
        student, assignment_id = path.parts[-3], path.parts[-2]
        flags = integrity_flags(notebook)
        if flags and assignment_id in ids:
            results.integrity[(student, assignment_id)] = flags
    return results


def integrity_flags(notebook):
    """[{"cell", "kind", "reason"}] of one autograded notebook: suspicious code, forbidden
    shortcuts and tampered cells, as the grader wrote them in its metadata (a student cannot:
    the grader overwrites it)."""
    kit = notebook.metadata.get("kit", {})
    return list(kit.get("integrity", [])) + [
        {"cell": "", "kind": "tampered cells", "reason": change}
        for change in kit.get("tampering", [])]


def named_mistakes(notebook):
    """The known mistakes the hidden checks named in one autograded notebook."""
    found = set()
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                found.update(MISTAKE.findall(output.get("evalue", "")))
    return found


def png(figure):
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    plt.close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def score_plot(results):
    ids = list(results.totals)
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
        names, counts = zip(*common, strict=True)
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


def render_report(results, problems=(), failed=()):
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Class report</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px}</style>",
        "</head><body><h1>Self-attention course: class report</h1>",
        "<h2>Scores per assignment</h2>",
        table(["assignment", "graded", "mean", "median", "max points"], summary_rows(results)),
        f"<p><img alt='score distributions' src='data:image/png;base64,{score_plot(results)}'>",
        "<h2>Pass rate per step</h2>",
        f"<p><img alt='pass rate per step' src='data:image/png;base64,{step_plot(results)}'>",
        "<h2>Most frequent named mistakes</h2>",
        f"<p><img alt='named mistakes' src='data:image/png;base64,{mistake_plot(results)}'>",
        table(["mistake", "notebooks"], results.mistakes.most_common()),
        "<h2>Integrity</h2>",
        "<p>Submissions to look at: code that reaches into the grader (it cannot change a "
        "score: verdicts are computed outside the student's kernel), a shortcut a notebook "
        "forbids, or graded cells changed by the student (each was graded as the release has "
        "it).</p>",
        table(["student", "assignment", "cell", "kind", "reason"],
              [(student, assignment_id, f["cell"], f["kind"], f["reason"])
               for (student, assignment_id), found in sorted(results.integrity.items())
               for f in found]) if results.integrity else "<p>Nothing flagged.</p>",
        "<h2>Input problems</h2>",
        table(["file", "problem", "fix"], [(p.path, p.reason, p.fix) for p in problems])
        if problems else "<p>None.</p>",
        "<h2>Notebooks that could not be graded</h2>",
        table(["notebook", "error"], [(s.notebook, m) for s, m in failed])
        if failed else "<p>None.</p>",
        "</body></html>",
    ]
    return "\n".join(parts)


def write_report(root: Path, ids, destination: Path, problems=(), failed=(), log=print):
    page = render_report(read_results(root, ids), problems, failed)
    write_atomically(destination, page)
    log(f"report: {destination}")
    return destination
