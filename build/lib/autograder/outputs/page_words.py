"""A feedback page in the course's words: nbgrader's feedback template writes its words in
English and names every test cell "Test cell"; the page names each step, opens with the
grader's note to the student when there is one, says the template's words in the course's
language, and embeds the glyphs its Chinese needs (page_font.py).

The words are put in a worker, beside the page it wrote (page_task.py, feedback_page);
the glyphs are embedded in the client, from the kit's font there (a worker of another host
may have the kit without its font package).
"""

from __future__ import annotations

import html
import re

from autograder.i18n import html_lang, t
from autograder.outputs.page_body import head_and_body
from autograder.outputs.page_font import font_css

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


def in_words(pattern, english, markup):
    """A substitution for `pattern`: its English text, fields filled from the match's named
    groups, in the current language, inside the template's markup."""
    def replace(match):
        fields = match.groupdict()
        keep = fields.pop("keep", "")
        return markup.format(keep=keep, text=t(english, **fields))

    return lambda text: re.sub(pattern, replace, text)


def in_course_words(text):
    """The page with the feedback template's words in the current language (they are all in
    its body) and its <html> element saying which language that is (a browser's fonts and
    screen readers use it)."""
    head, body = head_and_body(text)
    for pattern, english, markup in TEMPLATE_WORDS:
        body = in_words(pattern, english, markup)(body)
    lang = f'<html lang="{html_lang()}">'
    if "<html" in head:  # the head alone is written again, not the whole page
        return re.sub(r"<html[^>]*>", lang, head, count=1) + body
    return re.sub(r"<html[^>]*>", lang, head + body, count=1)


def with_page_font(text):
    """The page with the glyphs of its body's Chinese embedded, so no machine shows it as
    boxes (the head's title is drawn by the browser's own font)."""
    _, body = head_and_body(text)
    css = font_css(re.sub(r"<style.*?</style>|<script.*?</script>", "", body, flags=re.DOTALL))
    if not css:
        return text
    return text.replace("</head>", f"<style>{css}</style>\n</head>", 1)


def in_course_language(text):
    """The page in the course's words (in_course_words), its glyphs embedded."""
    return with_page_font(in_course_words(text))


def named_steps(text):
    """The page's contents naming each test cell's step, without "Comment" entries."""
    return COMMENT_ENTRY.sub("", TEST_CELL_LINK.sub(r'<a href="#test_\1">\1</a>', text))


def page_in_words(text, note=""):
    """The page naming each test cell's step in its list of cells, opening with `note` (a
    line from the grader to the student, when there is one), in the current language's words
    (its glyphs are embedded by with_page_font)."""
    text = named_steps(text)
    if note:
        text = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + NOTE.format(
            note=html.escape(note)), text, count=1)
    return in_course_words(text)


NOTE = ('\n<p class="kit-note" style="margin:1em auto;max-width:60em;padding:.6em 1em;'
        'border-left:4px solid #2a6fb0;background:#eef4fb">{note}</p>')
