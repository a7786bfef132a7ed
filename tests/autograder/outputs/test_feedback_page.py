"""Can a student read their whole feedback page, in English and in Chinese, opened from their
own folder without the network: every message wrapped to the page, formulas drawn, the steps
table's header three words, the contents a list of steps, hidden properties told in words?

The page's parts first (no kernel): formulas to MathML, the contents. Then, for each language,
a course made as `init` makes it (03_scaled_dot_product only), one student whose
scaled_dot_product_attention uses `keys.T` (right for one sequence, wrong for a batch: every
batched case and property fails with a long message of shapes), real grading and the kit's
`feedback`; the page is opened in Debian's headless Chromium with the network switched off,
measured, and photographed (artifacts/feedback-en.png, feedback-zh.png: the failed step's
message; feedback-*-formulas.png: the top of the page)."""

from __future__ import annotations

import os
import re
import shutil
from types import SimpleNamespace

import nbformat
import pytest

from autograder.build.course_folder import init_course
from autograder.course.directory import Course, open_gradebook
from autograder.grading.parallel import grade
from autograder.i18n import catalog
from autograder.outputs import page_task
from autograder.outputs.feedback import write_feedback
from autograder.outputs.page_math import with_mathml, without_mathjax
from autograder.outputs.page_style import with_style
from autograder.outputs.page_words import named_steps
from autograder.plumbing import private_api
from autograder.tools import simulate
from tests.autograder.conftest import ARTIFACTS, driven_chromium
from tests.autograder.outputs.test_outputs_zh import PAGE
from tests.course import ASSIGNMENTS

try:
    from selenium.webdriver.common.by import By
except ImportError:  # the chromedriver fixture skips the test, or fails it in CI
    By = None

ID = "03_scaled_dot_product"
STEP = "scaled_dot_product_attention"
TRANSPOSED_KEYS = '''
def scaled_dot_product_attention(queries, keys, values, mask=None):
    scores = queries @ keys.T
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    weights = scaled_softmax(scores, keys.shape[-1])
    if mask is not None:
        weights = weights.masked_fill(mask, 0.0)
    return weights @ values, weights
'''
WINDOW = (1280, 1400)


# -- the page's parts ----------------------------------------------------------------------


def test_a_formula_becomes_mathml():
    """Do inline and displayed formulas of the page's text become MathML, the TeX gone?"""
    page = with_mathml(r"<p>divide by $\sqrt{d_k}$:</p><p>$$w = \frac{e^{s}}{\sum e^{s}}$$</p>")
    assert "$" not in page and r"\sqrt" not in page
    assert page.count("<math") == 2 and '<math xmlns="http://www.w3.org/1998/Math/MathML" ' \
        'display="block">' in page
    assert "<msqrt>" in page and "<mfrac>" in page


def test_code_and_markup_are_left_alone():
    """Are dollars in code, pre, script and attributes left as they are (MathJax skips
    them too)?"""
    page = ('<a href="#$x$">l</a><code>$HOME$</code><pre>cost: $5 and $6</pre>'
            '<script>var a = "$y$";</script>')
    assert with_mathml(page) == page


def test_a_formula_brings_no_markup():
    r"""Does a formula's \text{...} or \href{...} bring no tag or link into the page
    (latex2mathml copies \text through as it is)?"""
    page = with_mathml(r"<p>$\text{&lt;script&gt;alert(1)&lt;/script&gt;} + "
                       r"\href{javascript:alert(1)}{x}$</p>")
    assert "<math" in page
    assert "<script" not in page and "javascript:" not in page and "href" not in page


def test_unreadable_tex_stays_tex():
    """Does a formula latex2mathml cannot read stay as its TeX, the page otherwise intact?"""
    assert with_mathml(r"<p>$\frac{$ and $b$</p>").startswith(r"<p>$\frac{$ and <math")


def test_mathjax_leaves_the_page():
    """Are nbconvert's MathJax loader and configuration taken out, the rest kept?"""
    page = ("<head><title>x</title>\n    <!-- Load mathjax -->\n<script src=\"https://cdn/"
            "MathJax.js\"> </script><script type=\"text/x-mathjax-config\">init();</script>\n"
            "    <!-- End of mathjax configuration -->\n<style>p {}</style></head>")
    assert without_mathjax(page) == "<head><title>x</title>\n<style>p {}</style></head>"
    twice = "a\t<!-- Load mathjax -->1<!-- End of mathjax configuration -->b <!-- Load mathjax -->2"
    assert without_mathjax(twice + "<!-- End of mathjax configuration -->\n") == "ab"
    assert without_mathjax(twice) == "ab <!-- Load mathjax -->2"  # one never ended: kept


def test_a_formula_of_the_head_is_left_as_written():
    """Does a formula become MathML in the page's body only, as MathJax typesets the body
    alone (a <title> cannot hold MathML)?"""
    page = with_mathml("<html><head><title>$x$</title></head><body><p>$x$</p></body></html>")
    assert page.startswith("<html><head><title>$x$</title></head><body><p><math")


def test_the_contents_list_steps_not_comments():
    """Does the contents keep each step's entry and lose the "Comment" entries?"""
    page = named_steps(PAGE.replace('<a href="#test_f">f</a>', '<a href="#test_f">Test cell</a>'))
    assert '<li><a href="#test_f">f</a> (Score: 0.0 / 2.0)</li>' in page
    assert ">Comment</a>" not in page and 'href="#comment-' not in page


# -- a real page in a browser --------------------------------------------------------------


@pytest.fixture(scope="module", params=["en", "zh"])
def page(request, tmp_path_factory):
    """The feedback page of a student who fails the hidden checks with long messages, in a
    course of the given language."""
    code = request.param
    root = init_course(tmp_path_factory.mktemp(f"feedback-{code}") / "course", code, [ID],
                       log=lambda _: None)
    course = Course(root)
    source = nbformat.read(root / "source" / ID / f"{ID}.ipynb", as_version=4)
    release = nbformat.read(root / "release" / ID / f"{ID}.ipynb", as_version=4)
    course.submit("ada", ID, simulate.after_cell(simulate.correct(release, source), STEP,
                                                 TRANSPOSED_KEYS))
    run = grade(root, [ID], workers=os.cpu_count())
    assert not run.failed, f"notebooks that could not be graded: {run.failed}"
    write_feedback(root, [ID], workers=1)
    return code, root / "feedback" / "ada" / ID / f"{ID}.html"


@pytest.fixture(scope="module")
def offline_browser(chromium, chromedriver):
    """Debian's Chromium, headless, through Debian's chromedriver, its network off."""
    with driven_chromium(chromium, chromedriver, WINDOW) as driver:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0})
        yield driver


def opened(browser, page):
    browser.get(page[1].resolve().as_uri())
    return browser


def verdict_start(code):
    english = "{name} does not pass the hidden checks:"
    return (english if code == "en" else catalog("zh")[english]).format(name=STEP)


def message_of(browser, code):
    """The <pre> holding the failed step's verdict."""
    start = verdict_start(code)
    found = [pre for pre in browser.find_elements(By.CSS_SELECTOR, "div.output_error pre")
             if start in pre.text]
    assert len(found) == 1, f"no single verdict of {STEP} on the page"
    return found[0]


def test_the_long_message_wraps_inside_the_page(offline_browser, page):
    """Is the failed step's message, whose lines are far longer than the page is wide, wrapped
    inside its box between words (not cut mid-word, as bootstrap's break-all did), with
    nothing of the page past the window's right edge?"""
    browser = opened(offline_browser, page)
    pre = message_of(browser, page[0])
    longest = max(len(line) for line in pre.get_attribute("textContent").splitlines())
    assert longest > 200, "the message is short enough to fit unwrapped: the test proves nothing"
    widths = browser.execute_script(
        "const e = arguments[0], d = document.documentElement;"
        "return [e.scrollWidth, e.clientWidth, d.scrollWidth, d.clientWidth,"
        " e.getBoundingClientRect().right];", pre)
    box_scroll, box_client, page_scroll, page_client, right = widths
    assert box_scroll <= box_client and page_scroll <= page_client and right <= WINDOW[0], widths
    assert browser.execute_script("return getComputedStyle(arguments[0]).wordBreak", pre) \
        == "normal"
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", pre)
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / f"feedback-{page[0]}.png"))


def test_hidden_properties_are_told_in_words(page):
    """Does the page name no hidden property by its name in code (equals_torch_sdpa ...)?"""
    text = page[1].read_text(encoding="utf-8")
    names = [prop.__name__ for prop in ASSIGNMENTS[ID].steps[STEP].properties]
    assert not [name for name in names if name in text]


def test_the_page_names_no_file_it_lacks(page):
    """Does the page's style name no file beside it (bootstrap's Glyphicons font from
    ../fonts/): every url in it is embedded data, the kit's own font among them?"""
    text = page[1].read_text(encoding="utf-8")
    head = text[:text.index("</head>")]
    urls = re.findall(r"url\(\s*['\"]?([^'\")]{0,40})", head)
    assert urls and not [url for url in urls if not url.startswith("data:")], urls
    assert "@font-face" in head  # the kit's font, embedded


def test_a_font_face_of_the_student_text_is_left():
    """Is a font face written in the page's body (a student's markdown may show one) kept?"""
    shown = "<body><p>@font-face { src: url(x.woff) }</p></body>"
    assert with_style("<head><style>@font-face { src: url(../fonts/g.eot) }</style></head>"
                      + shown).endswith(shown)
    assert "g.eot" not in with_style("<head><style>@font-face { src: url('../fonts/g.eot') }"
                                     "</style></head>")


def test_formulas_are_drawn_offline(offline_browser, page, screenshot):
    """With the network off, is every formula of the page drawn (MathML with a size), no TeX
    left in its text, and does the page load nothing at all?"""
    browser = opened(offline_browser, page)
    text = page[1].read_text(encoding="utf-8")
    assert not re.search(r"<script|<link[^>]*stylesheet|src=\"https?:", text)
    sizes = browser.execute_script(
        "return Array.from(document.querySelectorAll('math'), m => {"
        " const r = m.getBoundingClientRect(); return [r.width, r.height]; });")
    assert len(sizes) >= 5 and all(w > 0 and h > 0 for w, h in sizes), sizes
    shown = browser.execute_script(
        "return Array.from(document.querySelectorAll('.text_cell_render'),"
        " c => c.innerText).join('\\n');")
    assert not re.search(r"\$|\\(sqrt|frac|mathrm|top)\b", shown), re.findall(r".{20}\$.{20}",
                                                                             shown)[:3]
    screenshot(page[1], f"feedback-{page[0]}-formulas", WINDOW[0], WINDOW[1])


def test_the_steps_table_header_is_three_words(offline_browser, page):
    """Do the steps table's header cells (step, what you write, points) stand apart on the
    page, not run together as 'stepyou write'?"""
    browser = opened(offline_browser, page)
    gaps = browser.execute_script(
        "const row = document.querySelector('.text_cell_render table thead tr');"
        "const texts = Array.from(row.cells, c => { const r = document.createRange();"
        " r.selectNodeContents(c); return r.getBoundingClientRect(); });"
        "return texts.slice(1).map((r, i) => r.left - texts[i].right);")
    assert len(gaps) == 2 and min(gaps) >= 8, gaps


def test_the_contents_list_the_steps(offline_browser, page):
    """Does the page's contents list exactly the assignment's steps, in order?"""
    browser = opened(offline_browser, page)
    entries = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#toc li a")]
    assert entries == list(ASSIGNMENTS[ID].steps)


def test_the_page_from_grades_given_is_the_page_from_the_gradebook(page, tmp_path, monkeypatch):
    """With a TA's score, extra credit and comment and a late penalty in the course's
    gradebook, is the page written from the grades sent with it (given_grades.py) the page
    written as nbgrader writes it, from a copy of the gradebook holding them, whether the
    client or only the worker finds GetGrades other than GivenGrades was written for? (One
    page: its worker is a thread of this process, where the speedup can be switched off.)"""
    root = tmp_path / "course"
    shutil.copytree(page[1].parents[3], root)
    with open_gradebook(root) as gradebook:
        notebook = gradebook.find_submission(ID, "ada").notebooks[0]
        notebook.late_submission_penalty = 0.5
        notebook.grades[-1].manual_score, notebook.grades[-1].extra_credit = 1.0, 0.25
        notebook.comments[-1].manual_comment = "see me after class"
        gradebook.db.commit()
    written = root / "feedback" / "ada" / ID / f"{ID}.html"
    write_feedback(root, [ID], students=["ada"], log=lambda _: None)
    given = written.read_text(encoding="utf-8")
    with monkeypatch.context() as patched:  # the worker's GetGrades alone is another's
        patched.setattr(page_task, "private_api", SimpleNamespace(applies=lambda name: False))
        write_feedback(root, [ID], students=["ada"], log=lambda _: None)
        assert given == written.read_text(encoding="utf-8")
    monkeypatch.setattr(private_api, "applies", lambda name: name != "grades given")
    write_feedback(root, [ID], students=["ada"], log=lambda _: None)
    assert given == written.read_text(encoding="utf-8")
    assert "see me after class" in given and "late-penalty" in given
