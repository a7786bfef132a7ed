"""The class report's section on similar code: each assignment's top pairs its flag flags
(similarity.py), each linked to its side-by-side page when `python -m autograder
similarity` wrote it (similarity_page.py), else naming that command."""

from __future__ import annotations

import html
import os
from dataclasses import dataclass
from pathlib import Path

from autograder.i18n import t
from autograder.outputs.similarity import declared_flag, handed_in, similarity
from autograder.outputs.similarity_page import page_name, percent
from autograder.plumbing.kit_command import KIT, as_typed

TOP = 5  # pairs per assignment in the report
FOLDER = "similarity"  # where the similarity command writes its pages, in the course root


@dataclass(frozen=True)
class Listed:
    """A pair the report lists: its page relative to the report, or None when not written."""

    assignment: str
    first: str
    second: str
    score: float
    matched: int
    link: str | None
    of: int = 1  # the pairs its assignment flags in all, listed or not


def top_pairs(root: Path, ids, page: Path | None = None, top=TOP):
    """The top pairs of each assignment of `ids` that has a release; links relative to the
    report's `page` (the course root when none is given)."""
    listed = []
    for assignment_id in ids:
        if not (root / "release" / assignment_id / f"{assignment_id}.ipynb").exists():
            continue  # not built: nothing tells the release's code from the students'
        flagged = similarity(root, assignment_id).flagged
        for pair in flagged[:top]:
            path = root / FOLDER / assignment_id / page_name(pair)
            link = os.path.relpath(path, page.resolve().parent if page else root) \
                if path.exists() else None
            listed.append(Listed(assignment_id, pair.first.student, pair.second.student,
                                 pair.score, pair.matched, link, len(flagged)))
    return listed


def flagged_in_all(listed):
    """How many pairs the assignments of `listed` flag, the unlisted ones too."""
    return sum({pair.assignment: pair.of for pair in listed}.values())


def untold(root: Path, ids):
    """The assignments of `ids` with a release whose code is too short to tell a copy from
    students who wrote it alone (their flag flags no pair), among whose notebooks there is a
    pair to flag (otherwise no flag could have flagged one)."""
    return [a for a in ids if (root / "release" / a / f"{a}.ipynb").exists()
            and not declared_flag(root, a).tells and len(handed_in(root, a)) >= 2]


def row(listed):
    """A table row; the last cell the pair's page, or the command that writes it."""
    if listed.link:
        shown = (f"<a href='{html.escape(listed.link, quote=True)}'>"
                 f"{html.escape(t('side by side'))}</a>")
    else:
        shown = html.escape(as_typed(f"{KIT} similarity {listed.assignment}"))
    cells = [html.escape(c) for c in (listed.assignment, listed.first, listed.second,
                                      percent(listed.score), str(listed.matched))]
    return "<tr>" + "".join(f"<td>{c}</td>" for c in [*cells, shown]) + "</tr>"


def similarity_section(results):
    """The report's section: ClassResults.similar as a table."""
    intro = t("The pairs of notebooks that their assignment's similarity check flags, the "
              "most alike first, at most {top} per assignment. A pair is flagged when one "
              "notebook has at least the assignment's share of its own code in common with "
              "the other, and the two have at least its number of characters of code in "
              "common (names, comments and layout do not count). python -m autograder "
              "similarity ID shows an assignment's thresholds, lists every pair and writes a "
              "page for each.", top=TOP)
    paragraphs = f"<p>{html.escape(intro)}</p>"
    if results.untold:
        note = t("No pair is flagged in {assignments}: their code is too short to tell a "
                 "copy from students who wrote it alone. python -m autograder similarity ID "
                 "still lists their most alike pairs for you to read.",
                 assignments=t(", ").join(results.untold))
        paragraphs += f"<p>{html.escape(note)}</p>"
    if not results.similar:
        return f"{paragraphs}<p>{html.escape(t('None.'))}</p>"
    header = "".join(f"<th>{html.escape(h)}</th>" for h in (
        t("assignment"), t("student"), t("student"), t("similarity"),
        t("characters in common"), t("page")))
    rows = "".join(row(listed) for listed in results.similar)
    return f"{paragraphs}<table><tr>{header}</tr>{rows}</table>"
