"""Feedback pages (nbgrader generate_feedback, with the kit's HideHiddenTests stage) and the
CSV export (nbgrader export, with the kit's ClassCsvExport plugin)."""

from __future__ import annotations

import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

from autograder.course import course_config, run_nbgrader
from autograder.errors import OutputError
from autograder.gradebook_guard import check_gradebook
from autograder.i18n import config_language, current, language, t
from autograder.ledger import chosen

# nbgrader's feedback template lists every test cell as "Test cell"; the kit's test cells are
# named test_<step>, so each entry can name its step.
TEST_CELL_LINK = re.compile(r'<a href="#test_(\w+)">Test cell</a>')
HTML_LANG = {"en": "en", "zh": "zh-CN"}


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
    ("<b>Comments:</b>", "Comments:", "<b>{text}</b>"),
    ('alt="No description has been provided for this image"',
     "a plot drawn by the notebook's code", 'alt="{text}"'),
]


def graded_students(root: Path, assignment_id):
    return sorted(p.parts[-3] for p in
                  (root / "autograded").glob(f"*/{assignment_id}/{assignment_id}.ipynb"))


def in_words(pattern, english, markup):
    """A substitution for `pattern`: its English text, fields filled from the match's named
    groups, in the current language, inside the template's markup."""
    def replace(match):
        fields = match.groupdict()
        keep = fields.pop("keep", "")
        return markup.format(keep=keep, text=t(english, **fields))

    return lambda text: re.sub(pattern, replace, text)


def in_course_language(text):
    """The page with the feedback template's words in the current language, and its <html>
    element saying which language that is (a browser's fonts and screen readers use it)."""
    for pattern, english, markup in TEMPLATE_WORDS:
        text = in_words(pattern, english, markup)(text)
    lang = HTML_LANG.get(current(), current())
    return re.sub(r"<html[^>]*>", f'<html lang="{lang}">', text, count=1)


def name_the_steps(page: Path):
    """Name each test cell's step in the page's list of cells, and put the page in the
    current language."""
    text = page.read_text(encoding="utf-8")
    text = TEST_CELL_LINK.sub(r'<a href="#test_\1">\1</a>', text)
    page.write_text(in_course_language(text), encoding="utf-8")


@contextmanager
def restored_on_failure(folders):
    """Keep a copy of the feedback folders that exist: nbgrader's --force removes a page's
    folder before it writes the new page, so a run that fails puts the old pages back."""
    with tempfile.TemporaryDirectory(prefix="kit-feedback-") as keep:
        kept = {}
        for number, folder in enumerate(folders):
            if folder.is_dir():
                kept[folder] = Path(keep) / str(number)
                shutil.copytree(folder, kept[folder], symlinks=True)
        try:
            yield
        except BaseException:
            for folder, copy in kept.items():
                shutil.rmtree(folder, ignore_errors=True)
                shutil.copytree(copy, folder, symlinks=True)
            raise


def write_feedback(root: Path, ids, students=(), log=print):
    """Feedback pages of the given assignments (of the given students: ids or globs), in the
    course's language; an assignment with nothing graded is skipped and said so. Returns the
    ids done."""
    check_gradebook(root)
    with language(config_language(course_config(root))):
        return _write_feedback(root, ids, students, log)


def _write_feedback(root: Path, ids, students, log):
    done = []
    for assignment_id in ids:
        graded = [s for s in graded_students(root, assignment_id) if chosen(s, students)]
        if not graded:
            log(f"feedback {assignment_id}: skipped, nothing graded yet"
                + (f" for {', '.join(students)}" if students else ""))
            continue
        pages = [root / "feedback" / s / assignment_id for s in graded]
        with restored_on_failure(pages):
            for student in graded if students else ["*"]:
                run_nbgrader(root, "generate_feedback", assignment_id, "--force",
                             f"--student={student}")
        pages = [root / "feedback" / s / assignment_id / f"{assignment_id}.html" for s in graded]
        for page in pages:
            if page.exists():
                name_the_steps(page)
        log(f"feedback {assignment_id}: {len(pages)} pages in feedback/")
        done.append(assignment_id)
    return done


def export_grades(root: Path, destination: Path, log=print):
    if not destination.resolve().parent.is_dir():
        raise OutputError(f"{destination.parent}: no such folder; create it or export "
                          "elsewhere (--to)")
    check_gradebook(root)
    run_nbgrader(root, "export", f"--to={destination.resolve()}")
    log(f"grades: {destination}")
    return destination
