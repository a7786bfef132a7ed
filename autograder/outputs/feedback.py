"""Feedback pages (nbgrader generate_feedback, with the kit's HideHiddenTests stage, one task
per page on the grading engine) and the CSV export (nbgrader export, with the kit's
ClassCsvExport plugin)."""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

from nbgrader.api import MissingEntry

from autograder.course.directory import course_config, open_gradebook, run_nbgrader
from autograder.course.gradebook_guard import check_gradebook
from autograder.course.ledger import chosen
from autograder.engine.bundle import replace_folder
from autograder.engine.cluster import close_client, feedback_all, start_client
from autograder.engine.progress import Progress
from autograder.i18n import config_language, html_lang, language, t
from autograder.outputs.csv_cells import csv_text
from autograder.outputs.destination import check_destination, same_table
from autograder.outputs.export import COLUMNS
from autograder.outputs.page_font import font_css
from autograder.outputs.roster import not_in_course, removal_note
from autograder.plumbing.errors import OutputError

# nbgrader's feedback template lists every test cell as "Test cell"; the kit's test cells are
# named test_<step>, so each entry can name its step.
TEST_CELL_LINK = re.compile(r'<a href="#test_(\w+)">Test cell</a>')
# It also lists a "Comment" entry for every cell that carries a comment, which filled the
# contents with entries that name nothing; the comment stays on its cell, below the step.
# Each is a line of its own: it goes with the line break before it (a pattern that begins
# with a literal is searched for quickly, one that begins with spaces is tried at every
# character of the page: 4 ms a page).
COMMENT_ENTRY = re.compile(r'\n[ \t]*<li><a href="#comment-[^"]*">Comment</a></li>[ \t]*(?=\n)')


def score(name):
    return rf"(?P<{name}>-?[0-9.]+)"


LINK = r'(?P<keep><a href="#[^"]*">)'
LABEL = '<span class="nbgrader-label">'
# The words nbgrader's feedback template (nbgrader/server_extensions/formgrader/templates/
# feedback/index.html.j2) writes around the notebook, each matched with its markup so that
# nothing of the notebook itself is touched: (pattern, the English text whose fields are the
# pattern's named groups, the markup around it: {keep} is the group `keep`, {text} the
# text). The notebook's own words are the grader's (in the course's language already) and
# the student's.
TEMPLATE_WORDS = [
    (rf"<h4>(?P<notebook>[\w.-]*) \(Score: {score('score')} / {score('points')}\)</h4>",
     "{notebook} (Score: {score} / {points})", "<h4>{text}</h4>"),
    (rf"</a> \(Score: {score('score')} / {score('points')}\)</li>",
     "(Score: {score} / {points})", "</a> {text}</li>"),
    (rf'<li class="late-penalty">Late submission penalty \(Score: -{score("penalty")}\)</li>',
     "Late submission penalty (Score: -{penalty})", '<li class="late-penalty">{text}</li>'),
    (rf'(?P<keep><span class="pull-right">\s*)Score: {score("score")} / {score("points")}',
     "Score: {score} / {points}", "{keep}{text}"),
    (r'<a href="#top">\(Top\)</a>', "(Top)", '<a href="#top">{text}</a>'),
    (rf"{LINK}Comment</a>", "Comment", "{keep}{text}</a>"),
    (rf"{LINK}Coding free-response</a>", "Coding free-response", "{keep}{text}</a>"),
    (rf"{LINK}Written response</a>", "Written response", "{keep}{text}</a>"),
    (rf"{LINK}Task</a>", "Task", "{keep}{text}</a>"),
    (f"{LABEL}Student's answer</span>", "Student's answer", LABEL + "{text}</span>"),
    (f"{LABEL}Student's task</span>", "Student's task", LABEL + "{text}</span>"),
    (rf"{LABEL}Grade cell: (?P<cell><code>[\w-]*</code>)</span>", "Grade cell: {cell}",
     LABEL + "{text}</span>"),
    (rf"{LABEL}Task: (?P<cell><code>[\w-]*</code>)</span>", "Task: {cell}",
     LABEL + "{text}</span>"),
    # nbgrader's comment on a solution cell left as released, before "Comments:" is changed
    (r"(?P<keep><b>Comments:</b>\s*<p>)No response\.</p>", "No response.", "{keep}{text}</p>"),
    ("<b>Comments:</b>", "Comments:", "<b>{text}</b>"),
    # nbconvert's prompt of a code cell (the page is never run: no count in it), its spaces
    # as the template writes them (&nbsp;) or as characters
    ('(?P<keep><div class="prompt input_prompt">)In(?P<space>\xa0|&nbsp;)\\[(?P<count>'
     '(?:[^\\]<&]|&nbsp;)*)\\]:', "In{space}[{count}]:", "{keep}{text}"),
    ('alt="No description has been provided for this image"',
     "a plot drawn by the notebook's code", 'alt="{text}"'),
]


def graded_students(root: Path, assignment_id):
    """Students with an autograded notebook of the assignment and its scores in the
    gradebook (a page shows both)."""
    folders = {p.parts[-3] for p in
               (root / "autograded").glob(f"*/{assignment_id}/{assignment_id}.ipynb")}
    with open_gradebook(root) as gradebook:
        try:
            scored = {s.student.id for s in gradebook.find_assignment(assignment_id).submissions}
        except MissingEntry:
            scored = set()
    return sorted(folders & scored)


def in_words(pattern, english, markup):
    """A substitution for `pattern`: its English text, fields filled from the match's named
    groups, in the current language, inside the template's markup."""
    def replace(match):
        fields = match.groupdict()
        keep = fields.pop("keep", "")
        return markup.format(keep=keep, text=t(english, **fields))

    return lambda text: re.sub(pattern, replace, text)


def in_course_language(text):
    """The page with the feedback template's words in the current language, its <html>
    element saying which language that is (a browser's fonts and screen readers use it), and
    the glyphs of its Chinese embedded (page_font.py), so no machine shows it as boxes."""
    for pattern, english, markup in TEMPLATE_WORDS:
        text = in_words(pattern, english, markup)(text)
    lang = html_lang()
    text = re.sub(r"<html[^>]*>", f'<html lang="{lang}">', text, count=1)
    css = font_css(re.sub(r"<style.*?</style>|<script.*?</script>", "", text, flags=re.DOTALL))
    if not css:
        return text
    return text.replace("</head>", f"<style>{css}</style>\n</head>", 1)


def named_steps(text):
    """The page's contents naming each test cell's step, without "Comment" entries."""
    return COMMENT_ENTRY.sub("", TEST_CELL_LINK.sub(r'<a href="#test_\1">\1</a>', text))


def name_the_steps(page: Path, note=""):
    """Name each test cell's step in the page's list of cells, open the page with `note`
    (a line from the grader to the student, when there is one) and put the page in the
    current language."""
    text = named_steps(page.read_text(encoding="utf-8"))
    if note:
        text = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + NOTE.format(
            note=html.escape(note)), text, count=1)
    page.write_text(in_course_language(text), encoding="utf-8")


NOTE = ('\n<p class="kit-note" style="margin:1em auto;max-width:60em;padding:.6em 1em;'
        'border-left:4px solid #2a6fb0;background:#eef4fb">{note}</p>')


def write_feedback(root: Path, ids, students=(), log=print, workers=None, scheduler=None,
                   notes=None):
    """Feedback pages of the given assignments (of the given students: ids or globs), in the
    course's language, one task per page on the grading engine (`workers` processes of the
    embedded cluster, or the cluster at `scheduler`); an assignment with nothing graded is
    skipped and said so. `notes`: {student: a line that opens their pages}. Every page is
    written again: a TA's score changes a page without a new grading, so a page's file time
    cannot tell it is current. Returns the ids done; a page that could not be written keeps
    the old one and ends in an OutputError naming each."""
    check_gradebook(root)
    config = course_config(root)
    with language(config_language(config)):
        todo = {}
        for assignment_id in ids:
            graded = [s for s in graded_students(root, assignment_id) if chosen(s, students)]
            if graded:
                todo[assignment_id] = graded
            else:
                log(t("feedback {assignment}: skipped, nothing graded yet for {students}",
                      assignment=assignment_id, students=t(", ").join(students))
                    if students else t("feedback {assignment}: skipped, nothing graded yet",
                                       assignment=assignment_id))
        if not todo:
            return []
        count = max(map(len, todo.values()))
        # One page (a student's regrade, feedback on submit) is written in this process.
        client = start_client(config, max(1, min(workers or os.cpu_count() or 1, count)),
                              scheduler, root / "grade.log", log,
                              in_process=sum(map(len, todo.values())) == 1)
        try:
            failed = [line for assignment_id, graded in todo.items()
                      for line in _write_pages(client, root, assignment_id, graded, log,
                                               notes or {})]
        finally:
            close_client(client)
        if failed:
            raise OutputError(t("{count} feedback pages could not be written (the old page, "
                                "if any, is kept): {pages}", count=len(failed),
                                pages="; ".join(failed)))
    return list(todo)


def _write_pages(client, root: Path, assignment_id, graded, log, notes):
    """Write the pages of one assignment; returns a line per page not written."""
    progress = Progress(len(graded), what="pages")
    failed = []

    def keep(student, page):
        if page.ok:
            folder = root / "feedback" / student / assignment_id
            replace_folder(folder, page.files)
            if (folder / f"{assignment_id}.html").exists():
                name_the_steps(folder / f"{assignment_id}.html", notes.get(student, ""))
        else:
            failed.append(f"{student}/{assignment_id}: {page.why}")
        progress.advance(f"{student}/{assignment_id}")

    feedback_all(client, root, assignment_id, graded, keep)
    written = len(graded) - len(failed)
    log(t("feedback {assignment}: {count} page in feedback/", assignment=assignment_id,
          count=written) if written == 1 else
        t("feedback {assignment}: {count} pages in feedback/", assignment=assignment_id,
          count=written))
    return failed


KIT_EXPORT = "autograder.outputs.export.ClassCsvExport"  # the kit's CSV, through nbgrader's export


def export_grades(root: Path, destination: Path, log=print, ids=None):
    """The kit's CSV (outputs/export.py) at `destination`, written by nbgrader's `export`
    with the kit's plugin for this command alone: `nbgrader export` itself stays nbgrader's.
    `ids`: only these assignments' rows (all when None)."""
    if not destination.resolve().parent.is_dir():
        raise OutputError(t("{folder}: no such folder; create it or export elsewhere (--to)",
                            folder=destination.parent))
    check_destination(root, destination, same_table(csv_text([COLUMNS])))
    check_gradebook(root)
    run_nbgrader(root, "export", f"--to={destination.resolve()}",
                 f"--ExportApp.plugin_class={KIT_EXPORT}",
                 *(f"--ExportPlugin.assignment={i}" for i in ids or ()))
    log(t("grades: {path}", path=destination))
    with open_gradebook(root) as gradebook:
        for assignment_id in not_in_course(root, gradebook):
            log(t("warning: {message}", message=removal_note(assignment_id)) + " "
                + t("(every student shows as missing there)"))
    return destination
