"""The similarity report of an assignment as pages: an index of the pairs its flag (checks.py's
SIMILARITY, similarity.declared_flag) flags, ranked, and for each pair the two notebooks' own
code side by side, the passages they share marked.

Each page is one file that opens offline: its styles inline, the glyphs of its Chinese words
embedded (page_font.py), no script, and a Content-Security-Policy that loads nothing
(safe_page.py). Every text a student wrote (code, student ids) is escaped.
"""

from __future__ import annotations

import html
from pathlib import Path

from autograder.checks.loader import AssignmentError
from autograder.checks.model import Similar
from autograder.course.directory import course_config, write_atomically
from autograder.i18n import config_language, counted, language, t
from autograder.outputs.destination import check_outside_course
from autograder.outputs.plain_page import plain_page
from autograder.outputs.similarity import COMMON, declared_flag, handed_in, similarity
from autograder.plumbing.errors import OutputError
from autograder.plumbing.kit_command import KIT, as_typed

STYLE = ("body{font-family:sans-serif;margin:1.5em auto;max-width:96em;padding:0 1em}"
         "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px}"
         ".sides{display:grid;grid-template-columns:1fr 1fr;gap:1em}.side{min-width:0}"
         "pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f7f7f7;margin:0 0 .8em;"
         "padding:.4em;border:1px solid #ddd;font-size:85%}"
         "mark{background:#ffd56b;color:inherit}.cell{color:#555;font-size:80%;margin:.2em 0}"
         ".note{color:#444}")


def percent(share):
    return f"{100 * share:.0f}%"


def flag_words(flag):
    """When a pair is flagged, in words."""
    if not flag.tells:
        return t("none: the code of this assignment is too short to tell a copy from students "
                 "who wrote it alone")
    if not flag.characters:
        return t("{share} or more of one notebook's own code in common with the other",
                 share=percent(flag.share))
    return t("{share} or more of one notebook's own code, and {characters} characters or "
             "more, in common with the other", share=percent(flag.share),
             characters=flag.characters)


def page_name(pair):
    """The file of a pair's page: the two student ids (folder names, so file names too)."""
    return f"{pair.first.student}--{pair.second.student}.html"


def marked(code, passages):
    """`code` as HTML, escaped, each passage inside <mark>."""
    inside = [False] * len(code)
    for start, end in passages:
        inside[start:end] = [True] * (end - start)
    pieces, run = [], 0
    for i in range(1, len(code) + 1):
        if i == len(code) or inside[i] != inside[run]:
            text = html.escape(code[run:i])
            pieces.append(f"<mark>{text}</mark>" if inside[run] else text)
            run = i
    return "".join(pieces)


def side(notebook, passages):
    """One notebook's own code, cell by cell, its shared passages marked."""
    blocks = [f"<h2>{html.escape(notebook.student)}</h2>"]
    for (index, start), (_, source) in zip(notebook.starts(), notebook.cells, strict=True):
        local = [(max(a, start) - start, min(b, start + len(source)) - start)
                 for a, b in passages if a < start + len(source) and b > start]
        blocks.append(f"<p class='cell'>{html.escape(t('cell {number}', number=index + 1))}</p>"
                      f"<pre>{marked(source, local)}</pre>")
    return f"<div class='side'>{''.join(blocks)}</div>"


def notebooks_counted(count):
    return counted(count, "{count} notebook", "{count} notebooks")


def pairs_counted(count):
    return counted(count, "{count} pair", "{count} pairs")


def explanation(result):
    """What the shares count, in words."""
    text = t("Only the students' own code is compared: the release's code, the helper cell "
             "and the locked cells never count. Names the student chose, comments, blank "
             "lines and the order of functions change nothing; a passage found in more than "
             "{common} notebooks is the course's and is not marked.", common=result.common)
    return f"<p class='note'>{html.escape(text)}</p>"


def page(title, body):
    """A whole page in the current language, safe to open (plain_page)."""
    return plain_page(title, body, STYLE)


def pair_page(result, pair):
    """Two notebooks side by side, the passages they share marked."""
    first, second = pair.first.student, pair.second.student
    summary = t("{share_first} of {first}'s own code matches {second}'s, and {share_second} "
                "of {second}'s matches {first}'s ({matched} characters of code in common, "
                "names and layout aside).", first=first, second=second,
                share_first=percent(pair.shares[0]), share_second=percent(pair.shares[1]),
                matched=pair.matched)
    back = t("all pairs of {assignment}", assignment=result.assignment)
    body = (f"<p>{html.escape(summary)}</p>{explanation(result)}"
            f"<p><a href='index.html'>{html.escape(back)}</a></p>"
            f"<div class='sides'>{side(pair.first, pair.passages[0])}"
            f"{side(pair.second, pair.passages[1])}</div>")
    return page(t("Similar code in {assignment}: {first} and {second}",
                  assignment=result.assignment, first=first, second=second), body)


def index_page(result):
    """The pairs the flag flags (or, where the code is too short to tell, the most alike),
    ranked, each linked to its page."""
    flagged = result.flagged
    listed = result.listed
    rows = "".join(
        f"<tr><td>{rank}</td><td>{html.escape(p.first.student)}</td>"
        f"<td>{html.escape(p.second.student)}</td><td>{percent(p.score)}</td>"
        f"<td>{percent(p.shares[0])} / {percent(p.shares[1])}</td><td>{p.matched}</td>"
        f"<td><a href='{html.escape(page_name(p), quote=True)}'>"
        f"{html.escape(t('side by side'))}</a></td></tr>"
        for rank, p in enumerate(listed, 1))
    header = "".join(f"<th>{html.escape(h)}</th>" for h in (
        "#", t("student"), t("student"), t("similarity"), t("each one's share"),
        t("characters in common"), t("page")))
    counts = t("{notebooks} compared; {flagged} flagged, with {flag}.",
               notebooks=notebooks_counted(len(result.notebooks)),
               flagged=pairs_counted(len(flagged)), flag=flag_words(result.flag))
    body = f"<p>{html.escape(counts)}</p>{explanation(result)}"
    if not result.flag.tells:
        untold = t("Independent correct solutions of this assignment share as much code as "
                   "copies do (bench/similarity_calibration.py measured it), so no pair is "
                   "flagged. The {count} most alike pairs are below for you to read; "
                   "--threshold and --characters flag pairs anyway.", count=len(listed))
        body += f"<p class='note'>{html.escape(untold)}</p>"
    if result.empty:
        empty = t("No code of their own: {students}", students=", ".join(result.empty))
        body += f"<p class='note'>{html.escape(empty)}</p>"
    if result.left_out:
        left_out = t("Not compared, their notebook was not read: {students}",
                     students="; ".join(f"{student} ({why})"
                                        for student, why in sorted(result.left_out.items())))
        body += f"<p class='note'>{html.escape(left_out)}</p>"
    body += f"<table><tr>{header}</tr>{rows}</table>" if listed else ""
    return page(t("Similar code in {assignment}", assignment=result.assignment), body)


def write_pages(result, folder: Path):
    """index.html and a page per listed pair in `folder`; the index's path."""
    folder.mkdir(parents=True, exist_ok=True)
    for pair in result.listed:
        write_atomically(folder / page_name(pair), pair_page(result, pair))
    index = folder / "index.html"
    write_atomically(index, index_page(result))
    return index


def chosen_flag(root: Path, assignment_id, share=None, characters=None):
    """The assignment's flag, its share or characters replaced where the command gives one
    (which flags pairs even where the assignment's code is too short to tell)."""
    if share is not None and not Similar.is_share(share):
        raise OutputError(t("--threshold {value}: give a share above 0 and at most 1, such "
                            "as 0.5", value=share))
    if characters is not None and not Similar.is_characters(characters):
        raise OutputError(t("--characters {value}: give a number of characters, 0 or more",
                            value=characters))
    flag = declared_flag(root, assignment_id)
    if share is None and characters is None:
        return flag
    return Similar(flag.share if share is None else share,
                   flag.characters if characters is None else characters)


def check_common(common):
    """Refuse a common limit that is no count."""
    if common < 1:
        raise OutputError(t("--common {value}: give a number of notebooks, 1 or more",
                            value=common))


def write_similarity(root: Path, ids, to: Path, share=None, characters=None, common=COMMON,
                     log=print):
    """The similarity report of each assignment of `ids` with notebooks handed in, in
    to/<id>/, in the course's language, each flagged by its assignment's flag (`share` and
    `characters` replace its parts where given); what was written, said per assignment.
    Returns the results (none when nothing was handed in)."""
    check_common(common)
    check_outside_course(root, to)
    if not to.parent.is_dir():
        raise OutputError(t("{folder}: no such folder; create it or write the similarity "
                            "report elsewhere (--to)", folder=to.parent))
    results, unread = [], []
    with language(config_language(course_config(root))):
        for assignment_id in ids:
            try:
                flag = chosen_flag(root, assignment_id, share, characters)
            except AssignmentError as error:  # the next assignments are still compared
                log(t("similarity {assignment}: skipped, its checks could not be read: {why}",
                      assignment=assignment_id, why=error))
                unread.append(assignment_id)
                continue
            if not handed_in(root, assignment_id):
                log(t("similarity {assignment}: skipped, no notebook handed in",
                      assignment=assignment_id))
                continue
            result = similarity(root, assignment_id, flag, common)
            index = write_pages(result, to / assignment_id)
            log(t("similarity {assignment}: {notebooks}, {flagged} flagged ({flag}): {path}",
                  assignment=assignment_id, notebooks=notebooks_counted(len(result.notebooks)),
                  flagged=pairs_counted(len(result.flagged)), flag=flag_words(flag),
                  path=index))
            for student, why in sorted(result.left_out.items()):
                log(t("similarity {assignment}: {student} not compared: {why}",
                      assignment=assignment_id, student=student, why=why))
            results.append(result)
        if unread:  # in the course's language, as the lines above
            raise OutputError(t("similarity: not compared, since their checks could not be "
                                "read (said above): {assignments}; fix them, then run "
                                "{command}", assignments=t(", ").join(unread),
                                command=as_typed(f"{KIT} similarity {' '.join(unread)}")))
    return results
