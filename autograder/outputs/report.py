"""The class report: one self-contained HTML page with PNG plots.

At the top, when it was made and what it cannot show yet, with the command that fills each
gap (report_gaps.py), then one screen of summary (report_summary.py): each assignment's spread
and mean, the steps most failed, the mistakes most named and what needs the instructor, each
linked to its section. Then the sections: score distribution per assignment, pass rate per
step, the most frequent named mistakes, lateness, the integrity flags, similar code, and the
notebooks that could not be graded; last, the long tables of every student and submission
(report_students.py). Everything is read back from the gradebook and the autograded
notebooks, so the report shows what nbgrader recorded.

The page is in the course's language (c.Course.language), with the glyphs that language needs
embedded (page_font.py); the plots too, drawn with the kit's font (fonts.py), or with English
labels where no font draws the language.
"""

from __future__ import annotations

import base64
import html
import io
import os
import statistics
import textwrap
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import nbformat  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from autograder.checks.loader import (  # noqa: E402
    AssignmentError,
    assignment_ids,
    load_assignment,
)
from autograder.course.deadlines import grace_seconds, late_by, penalised_score  # noqa: E402
from autograder.course.directory import course_config, open_gradebook, write_atomically  # noqa: E402
from autograder.course.gradebook_guard import check_gradebook  # noqa: E402
from autograder.course.ledger import read_problems, read_status  # noqa: E402
from autograder.course.notebook_record import read_record  # noqa: E402
from autograder.i18n import (  # noqa: E402
    DEFAULT,
    LANGUAGES,
    config_language,
    counted,
    current,
    english_of,
    html_lang,
    language,
    t,
)
from autograder.outputs.destination import (  # noqa: E402
    KIT_PAGE_START,
    a_report,
    check_destination,
)
from autograder.outputs.fonts import (  # noqa: E402
    font_drawing,
    missing_font_advice,
    needs_font,
)
from autograder.outputs.page_font import font_css  # noqa: E402
from autograder.outputs.report_gaps import gaps  # noqa: E402
from autograder.outputs.report_students import (  # noqa: E402
    students_section,
    submissions_section,
    when,
)
from autograder.outputs.report_summary import attention, summary_section  # noqa: E402
from autograder.outputs.roster import page_is_stale, roster  # noqa: E402
from autograder.outputs.similarity_report import similarity_section, top_pairs, untold  # noqa: E402
from autograder.plumbing.errors import OutputError  # noqa: E402


@dataclass
class ClassResults:
    totals: dict = field(default_factory=dict)  # assignment -> [score per submission]
    max_scores: dict = field(default_factory=dict)  # assignment -> max
    steps: dict = field(default_factory=dict)  # (assignment, cell) -> [passed?]
    mistakes: Counter = field(default_factory=Counter)  # (assignment, mistake) -> notebooks
    integrity: dict = field(default_factory=dict)  # (student, assignment) -> [flag]
    problems: list = field(default_factory=list)  # ledger.Problem kept by collect and grade
    roster: list = field(default_factory=list)  # roster.Entry of every student and assignment
    links: dict = field(default_factory=dict)  # (student, assignment) -> feedback page URL
    unchecked: Counter = field(default_factory=Counter)  # (assignment, cell, text) -> notebooks
    collected: dict = field(default_factory=dict)  # assignment -> notebooks in submitted/
    manual: set = field(default_factory=set)  # (student, assignment) needing a manual grade
    stale: set = field(default_factory=set)  # (student, assignment) with a page older than grading
    similar: list = field(default_factory=list)  # similarity_report.Listed: the top pairs
    untold: list = field(default_factory=list)  # assignments too short to tell copies by
    generated: datetime | None = None  # when the report was written (UTC)
    isolations: Counter = field(default_factory=Counter)  # sandbox, in words -> notebooks
    unreadable: dict = field(default_factory=dict)  # assignment -> why its checks are unread


def read_results(root: Path, ids, page: Path | None = None, unreadable=None) -> ClassResults:
    """Scores from the gradebook, every student's status, named mistakes and flags from the
    grader's record in each autograded notebook of the assignments `ids` (those the gradebook
    does not know yet have nothing graded); feedback links relative to the report's `page`
    (the course root when none is given). `unreadable`: {id: why} of the assignments whose
    checks could not be read (course_texts), whose similarity flag is unknown."""
    results = ClassResults(problems=[replace(p, path=shown_path(root, p.path))
                                     for p in read_problems(root, ids)],
                           unreadable=dict(unreadable or {}))
    check_gradebook(root)
    with open_gradebook(root) as gradebook:
        results.roster = roster(root, gradebook, ids,
                                grace=grace_seconds(course_config(root)))
        known = {a.name: a for a in gradebook.assignments}
        for assignment_id in ids:
            results.totals[assignment_id] = []
            if assignment_id not in known:
                continue  # released, perhaps, but nothing graded yet
            assignment = known[assignment_id]
            results.max_scores[assignment_id] = assignment.max_score
            for submission in assignment.submissions:
                results.totals[assignment_id].append(penalised_score(submission))
                if submission.needs_manual_grade:
                    results.manual.add((submission.student.id, assignment_id))
                for notebook in submission.notebooks:
                    for grade in notebook.grades:
                        key = (assignment_id, grade.name.removeprefix("test_"))
                        results.steps.setdefault(key, []).append(grade.score == grade.max_score)
    read_records(root, ids, results)
    flagged = [a for a in ids if a not in results.unreadable]
    results.similar = top_pairs(root, flagged, page)
    results.untold = untold(root, flagged)
    results.collected = {a: len(list((root / "submitted").glob(f"*/{a}/{a}.ipynb"))) for a in ids}
    for e in results.roster:
        status = read_status(root, e.student, e.assignment) if e.student else None
        if status and status.get("isolation"):
            results.isolations[status["isolation"]] += 1
        feedback = root / "feedback" / e.student / e.assignment / f"{e.assignment}.html"
        if e.student and feedback.exists():
            results.links[(e.student, e.assignment)] = os.path.relpath(
                feedback, page.resolve().parent if page else root)
            if page_is_stale(root, e.student, e.assignment):
                results.stale.add((e.student, e.assignment))
    return results


def shown_path(root: Path, path: Path):
    """A path as short as it can be read: from the course root when it is inside, else the
    file with its folder (the inbox or the zip it came from)."""
    try:
        return path.resolve().relative_to(root.resolve())
    except ValueError:
        return Path(path.parent.name) / path.name


def read_records(root: Path, ids, results):
    """Named mistakes, counted per assignment, and integrity flags of the assignments `ids`,
    from the grader's record in each autograded notebook."""
    for assignment_id in ids:
        for path in sorted((root / "autograded").glob(f"*/{assignment_id}/{assignment_id}.ipynb")):
            record = read_record(nbformat.read(path, as_version=4))
            results.mistakes.update((assignment_id, m) for m in record.mistakes)
            results.unchecked.update((assignment_id, *found) for found in record.unchecked)
            if record.flags:
                results.integrity[(path.parts[-3], assignment_id)] = record.flags


def png(figure):
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    plt.close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


# The plots' own words: in the course's language when a font draws them (see plot_words).
PLOT_WORDS = ["points (of {top})", "students", "students with full points (%)",
              "notebooks where the hidden checks named it"]


def english(text, assignment_id=""):
    """The English text a catalog translates to `text` (a mistake's name as the record of a
    Chinese course keeps it), the assignment's own first, or `text` itself."""
    for code in LANGUAGES:
        found = english_of(text, code, f"/{assignment_id}/" if assignment_id else "")
        if found:
            return found[0]
    return text


def mistake_labels(results, top):
    """The labels of the most frequent mistakes, as the plot may draw them: their names in the
    course's language when a font draws them (plot_words), else in English, else numbered
    as in the table below the plot."""
    labels = []
    for number, ((assignment_id, name), _) in enumerate(results.mistakes.most_common(top), 1):
        if current() == DEFAULT and needs_font(name):
            name = english(name, assignment_id)
            if needs_font(name):
                name = f"#{number}"
        labels.append(f"{assignment_id[:2]} {name}")
    return labels


def plot_texts(results):
    """Every word the plots may draw, in the current language."""
    return "".join([t(w) for w in PLOT_WORDS] + [name for _, name in results.mistakes])


def missing_font(results):
    """What to install, when no font draws the plots' words in the course's language; else
    None."""
    if current() == DEFAULT or font_drawing(plot_texts(results)) is not None:
        return None
    return missing_font_advice()


@contextmanager
def plot_words(results):
    """Plots drawn in this block speak the course's language when a font on this machine has
    every character of their labels, else English (matplotlib would draw empty boxes)."""
    if current() == DEFAULT:
        yield
        return
    font = font_drawing(plot_texts(results))
    if font is None:
        with language(DEFAULT):
            yield
        return
    # Named families fall back one to the next for each character: Latin from the default
    # font, Chinese from `font`.
    family = [matplotlib.rcParams["font.sans-serif"][0], font]
    with matplotlib.rc_context({"font.family": family, "axes.unicode_minus": False}):
        yield


PER_ROW = 4  # score histograms side by side: four fit the page's width


def score_plot(results):
    ids = [a for a, scores in results.totals.items() if scores]  # nothing to draw for the rest
    rows = (len(ids) + PER_ROW - 1) // PER_ROW
    figure, axes = plt.subplots(rows, PER_ROW, figsize=(9, 2.6 * rows), squeeze=False)
    for ax in axes.flat[len(ids):]:
        ax.set_visible(False)
    for ax, assignment_id in zip(axes.flat, ids, strict=False):
        top = results.max_scores[assignment_id] or 1
        counts, _, bars = ax.hist(results.totals[assignment_id], bins=range(0, int(top) + 2),
                                  color="#4c72b0", align="left", rwidth=0.85)
        ax.bar_label(bars, [f"{c:g}" if c else "" for c in counts], fontsize=6)
        ax.set_ylim(0, max(counts) * 1.18)
        ax.set_title("\n".join(textwrap.wrap(assignment_id.replace("_", " "), 22)), fontsize=8)
        ax.set_xlabel(t("points (of {top})", top=f"{top:g}"), fontsize=7)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel(t("students"), fontsize=7)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # students come whole
        ax.tick_params(labelsize=7)
    figure.tight_layout()
    return png(figure)


def step_plot(results):
    return png(step_figure(results))


def step_figure(results):
    """A bar per step: the share of students with its full points, written on the bar with
    the count it comes from ('67% (2/3)')."""
    labels = [f"{a[:2]} {step}" for a, step in results.steps]
    passed = [(sum(v), len(v)) for v in results.steps.values()]
    rates = [100 * n / of for n, of in passed]
    figure, ax = plt.subplots(figsize=(6.5, 0.28 * len(labels) + 0.8))
    bars = ax.barh(labels[::-1], rates[::-1], color="#55a868")
    ax.bar_label(bars, [f"{rate:.0f}% ({n}/{of})" for rate, (n, of)
                        in zip(rates[::-1], passed[::-1], strict=True)], padding=3, fontsize=7)
    ax.set_xlim(0, 115)  # room for the label of a full bar
    ax.set_xticks(range(0, 101, 20))
    ax.set_xlabel(t("students with full points (%)"))
    ax.tick_params(labelsize=7)
    return figure


def mistake_plot(results, top=15):
    common = results.mistakes.most_common(top)
    figure, ax = plt.subplots(figsize=(6.5, 0.3 * max(len(common), 1) + 0.8))
    if common:
        names = mistake_labels(results, top)
        counts = [count for _, count in common]
        bars = ax.barh(names[::-1], counts[::-1], color="#c44e52")
        ax.bar_label(bars, padding=3, fontsize=7)
        ax.set_xlim(0, max(counts) * 1.12)
    ax.set_xlabel(t("notebooks where the hidden checks named it"))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.tick_params(labelsize=7)
    return png(figure)


def drawn(plot, results):
    """A plot of the results as base64 PNG, in the words plot_words allows."""
    with plot_words(results):
        return plot(results)


def summary_rows(results):
    """A row per assignment asked for; one the gradebook does not know yet has no numbers."""
    for assignment_id, scores in results.totals.items():
        top = results.max_scores.get(assignment_id)
        if not scores:
            yield (assignment_id, 0, "", "", "" if top is None else f"{top:g}")
            continue
        yield (assignment_id, len(scores), f"{statistics.fmean(scores):.1f}",
               f"{statistics.median(scores):g}", f"{top:g}")


def table(header, rows, css_class=""):
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f"<table class='{css_class}'><tr>{head}</tr>{body}</table>"


def image(alt, encoded):
    return f"<p><img alt='{html.escape(alt, quote=True)}' src='data:image/png;base64,{encoded}'>"


def paragraph(text):
    return f"<p>{html.escape(text)}</p>"


def scores_section(results):
    if not any(results.totals.values()):
        return paragraph(t("Nothing graded yet."))
    return (table([t("assignment"), t("graded"), t("mean"), t("median"), t("max points")],
                  summary_rows(results))
            + image(t("score distributions"), drawn(score_plot, results)))


def steps_section(results):
    if not results.steps:
        return paragraph(t("Nothing graded yet."))
    return image(t("pass rate per step"), drawn(step_plot, results))


def mistakes_section(results):
    if not results.mistakes:
        return paragraph(t("No known mistake was named."))
    return image(t("named mistakes"), drawn(mistake_plot, results)) + table(
        ["#", t("assignment"), t("mistake"), t("notebooks")],
        [(number, a, name, n) for number, ((a, name), n)
         in enumerate(results.mistakes.most_common(), 1)])


def integrity_section(results):
    intro = paragraph(t("Submissions to look at: code that reaches into the grader (it cannot "
                        "change a score: verdicts are computed outside the student's kernel), "
                        "a shortcut a notebook forbids, or graded cells changed by the student "
                        "(each was graded as the release has it)."))
    if not results.integrity:
        return intro + paragraph(t("Nothing flagged."))
    return intro + table([t("student"), t("assignment"), t("cell"), t("kind"), t("reason")],
                         [(student, assignment_id, f["cell"], t(f["kind"]), f["reason"])
                          for (student, assignment_id), found in sorted(results.integrity.items())
                          for f in found])


def unchecked_section(results):
    """Test cells no student could pass: the course declares no hidden checks for them."""
    if not results.unchecked:
        return paragraph(t("None."))
    intro = paragraph(t("Every student scored 0 on these test cells because the course has no "
                        "hidden checks for their step. Fix the assignment (its checks.py), "
                        "then run grade --force."))
    return intro + table([t("assignment"), t("cell"), t("notebooks"), t("problem")],
                         [(a, cell, n, text) for (a, cell, text), n
                          in sorted(results.unchecked.items())], css_class="problems")


def late_section(results):
    """Every submission handed in after its deadline: when, by how much, what it cost."""
    late = [e for e in results.roster if e.late is not None and e.late.seconds_late > 0]
    if not late:
        return paragraph(t("None."))
    return table([t("student"), t("assignment"), t("due"), t("handed in"), t("late by"),
                  t("penalty")],
                 [(e.student, e.assignment, e.late.due, e.late.timestamp, late_by(e.late),
                   f"{e.late.penalty:g}") for e in sorted(late, key=lambda e: (e.student,
                                                                              e.assignment))])


def problems_section(results):
    """Inputs the kit refused or graded with a warning, kept by collect and grade."""
    if not results.problems:
        return paragraph(t("None."))
    return table([t("found by"), t("student"), t("assignment"), t("file"), t("problem"),
                  t("fix")],
                 [(p.stage, p.student, p.assignment, p.path, p.reason, p.fix)
                  for p in results.problems], css_class="problems")


# The report, top to bottom: a section is a heading (translated where it is shown) and a
# function of the class's results; the heading's id, the function's name without _section,
# is what the summary links to (#late). The summary comes first: an instructor wants the
# picture, then what needs them; the two long tables (a row per student, per notebook) last.
SECTIONS = [
    ("At a glance", summary_section),
    ("Scores per assignment", scores_section),
    ("Pass rate per step", steps_section),
    ("Most frequent named mistakes", mistakes_section),
    ("Late submissions", late_section),
    ("Integrity", integrity_section),
    ("Similar code", similarity_section),
    ("Test cells without hidden checks", unchecked_section),
    ("Input problems and notebooks that could not be graded", problems_section),
    ("Students", students_section),
    ("Submissions", submissions_section),
]


def anchor(section):
    """The id of a section's heading: late_section -> 'late'."""
    return section.__name__.removesuffix("_section")


STYLE = ("body{font-family:sans-serif;max-width:60em;margin:2em auto}"
         "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px}"
         ".problems td:nth-child(n+4){overflow-wrap:anywhere}"
         "img{max-width:100%}td.graded{background:#e6f4ea}td.not-gradable{background:#fde2e1}"
         "td.graded-with-warnings{background:#fff4d6}td.not-graded-yet{background:#eef}"
         ".mark{font-size:75%;background:#fde2e1;border-radius:3px;padding:0 3px}"
         ".gaps{background:#fff4d6;padding:.5em 1em}.generated{color:#555}"
         ".submissions td:nth-child(-n+4){white-space:nowrap}th{white-space:nowrap}"
         ".glance{display:grid;grid-template-columns:1fr 1fr;gap:0 2em}"
         ".glance h3{margin:.6em 0 .3em}"
         ".bins{display:inline-flex;gap:2px;align-items:flex-end}"
         ".bin{display:inline-flex;flex-direction:column;align-items:center;width:1.6em}"
         ".bin i{display:block;width:100%;background:#4c72b0}.bin small{font-size:70%}"
         ".attention{list-style:none;padding:0;margin:0}.attention li{padding:1px 0}"
         ".attention b{display:inline-block;min-width:2.5em;text-align:right;margin-right:.5em}"
         ".attention .to-do b{color:#b3261e}.attention .none{color:#666}")


def sandbox_line(results):
    """The sandbox the graded notebooks' student code ran in, as grade named it in each
    notebook's status."""
    if not results.isolations:
        return ""
    text = t("Student code ran in the sandbox: {isolations}.", isolations="; ".join(
        counted(count, "{isolation}, {count} notebook", "{isolation}, {count} notebooks",
                isolation=name)
        for name, count in sorted(results.isolations.items())))
    return f"<p class='sandbox'>{html.escape(text)}</p>"


def header(results):
    """When the report was made and the sandbox of its grading."""
    made = ""
    if results.generated:
        made = t("Generated {time}.", time=when(results.generated))
        made = f"<p class='generated'>{html.escape(made)}</p>"
    return made + sandbox_line(results)


def gaps_box(results):
    """What the report cannot show yet (report_gaps), one line folded open on a click: it
    comes after the summary, which the page opens with."""
    missing = gaps(results)
    if not missing:
        return ""
    items = "".join(f"<li>{html.escape(line)}</li>" for line in missing)
    said = (t("This report is partial: {count} thing it cannot show yet", count=len(missing))
            if len(missing) == 1 else
            t("This report is partial: {count} things it cannot show yet", count=len(missing)))
    return (f"<div class='gaps'><details><summary>{html.escape(said)}</summary>"
            f"<ul>{items}</ul></details></div>")


def render_report(results):
    """The page in the current language (write_report sets the course's), with the glyphs
    its text needs beyond Latin (page_font): its summary first, then what it cannot show
    yet, then the other sections."""
    page_title = html.escape(t("Class report"))
    body = [f"<h1>{html.escape(t('Self-attention course: class report'))}</h1>"
            f"{header(results)}"]
    body += [f"<h2 id='{anchor(section)}'>{html.escape(t(title))}</h2>\n{section(results)}"
             for title, section in SECTIONS]
    body.insert(2, gaps_box(results))
    head = (f"{KIT_PAGE_START}{html_lang()}'><head>"
            f"<meta charset='utf-8'><title>{page_title}</title>"
            f"<style>{STYLE}{font_css(page_title + ''.join(body))}</style></head><body>")
    return "\n".join([head, *body, "</body></html>"])


def course_texts(root: Path, ids):
    """Load the course's assignments, so that the texts of their checks (a mistake's name in
    the course's language) are known here too; {id: why} of those of assignments/ whose
    checks or similarity flag could not be read (one made in source/ alone has none)."""
    unreadable, written = {}, set(assignment_ids(root))
    for assignment_id in [a for a in ids if a in written]:
        try:
            load_assignment(root, assignment_id).similar  # noqa: B018 (raises when unreadable)
        except AssignmentError as error:
            unreadable[assignment_id] = str(error)
    return unreadable


@dataclass(frozen=True)
class Written:
    """The report's page, and {id: why} of the assignments whose checks could not be read
    (the page leaves out their similar pairs and says so, as the console does)."""

    path: Path
    unreadable: dict


def write_report(root: Path, ids, destination: Path, log=print) -> Written:
    if not destination.parent.is_dir():
        raise OutputError(t("{folder}: no such folder; create it or write the report "
                            "elsewhere (--to)", folder=destination.parent))
    check_destination(root, destination, a_report)
    unreadable = course_texts(root, ids)
    with language(config_language(course_config(root))):
        results = read_results(root, ids, destination, unreadable)
        results.generated = datetime.now(UTC).replace(tzinfo=None)
        page = render_report(results)
        write_atomically(destination, page)
        for line in gaps(results):
            log(line)
        if needs := [(label, count) for _, label, count in attention(results) if count]:
            log(t("needs your attention, each with its fix on the page: {items}",
                  items=t(", ").join(f"{count} {label}" for label, count in needs)))
        if (missing := missing_font(results)) is not None:
            log(missing)
        log(t("report: {path}", path=destination))
    return Written(destination, results.unreadable)
