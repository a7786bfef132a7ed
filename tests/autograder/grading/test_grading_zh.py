"""Does a course in Simplified Chinese grade, give feedback and report in Chinese, and do
students' plots reach the feedback page as PNG images, bounded, with nothing else a kernel
can send?

One course in a scratch folder, made as tests/autograder/grading/test_grading_e2e.py makes
its own, from the committed 01 notebook, with `c.Course.language = "zh"` in its config. It
receives the solutions (with a heatmap), the untouched release, and a wrong submission (a
catalogued mistake) with three more cells: a plot too large to show, HTML, SVG and JavaScript
outputs, and an "image/png" that is no PNG file. Real nbgrader, real sandboxed kernels, the
kit's grade, feedback and report, as an instructor runs them.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import nbformat
import pytest

from autograder.course.directory import Course
from autograder.grading.parallel import grade
from autograder.i18n import catalog
from autograder.outputs.feedback import write_feedback
from autograder.outputs.report import write_report
from autograder.tools import simulate
from tests.autograder.outputs.test_outputs_zh import english_sentences
from tests.autograder.outputs.test_page_font import embedded
from tests.course import ASSIGNMENTS  # noqa: F401 - loading them adds their Chinese texts

ROOT = Path(__file__).resolve().parents[3]
ASSIGNMENT = "01_attention_by_hand"
MISTAKE = simulate.mistakes_of(ROOT, ASSIGNMENT)[0]
CJK = re.compile(r"[\u4e00-\u9fff]")

# Cells a student may add. The markup each output would carry is assembled when the cell runs,
# so the page holds it only if the output got through (the code itself is shown, escaped).
LARGE_PLOT = """\
import numpy as np
fig, ax = plt.subplots(figsize=(6, 6))
ax.imshow(np.random.default_rng(0).random((600, 600)))
plt.show()
"""
MARKUP = """\
from IPython.display import HTML, SVG, Javascript, display
display(HTML("<b id='kit-" + "html'>bold</b>"))
display(SVG("<svg xmlns='http://www.w3.org/2000/svg' id='kit-" + "svg'></svg>"))
display(Javascript("window.kit" + "js = 1"))
"""
FAKE_PNG = """\
import base64
from IPython.display import display
display({"image/png": base64.b64encode(b"<svg id='kit-" + b"fake'/>").decode(),
         "text/plain": "fake"}, raw=True)
"""
HEADING = "鹦鹉螺的笔记"  # a student's markdown heading: characters no other text of the page has
LEAKS = ["<b id='kit-html'>", "id='kit-svg'", "window.kitjs", "id='kit-fake'"]


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = Course.create(tmp_path_factory.mktemp("course-zh"), ROOT, [ASSIGNMENT])
    with open(course.root / "nbgrader_config.py", "a", encoding="utf-8") as config:
        config.write('\nc.Course.language = "zh"\n'
                     '# the heatmaps of the release run, to be on the pages\n'
                     'c.GradeInSandbox.run_unread_cells = True\n')
    course.generate(ASSIGNMENT)
    source = nbformat.read(ROOT / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", 4)
    blank = nbformat.read(course.root / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", 4)
    course.submit("solved", ASSIGNMENT, simulate.correct(blank, source))
    course.submit("blank", ASSIGNMENT, blank)
    wrong = simulate.with_mistake(blank, source, MISTAKE)
    wrong.cells += [nbformat.v4.new_code_cell(code) for code in (LARGE_PLOT, MARKUP, FAKE_PNG)]
    wrong.cells.append(nbformat.v4.new_markdown_cell(f"## {HEADING}"))
    course.submit("wrong", ASSIGNMENT, wrong)
    run = grade(course.root, [ASSIGNMENT], workers=os.cpu_count())
    assert not run.failed, f"notebooks that could not be graded: {run.failed}"
    write_feedback(course.root, [ASSIGNMENT])
    write_report(course.root, [ASSIGNMENT], course.root / "report.html")
    return course


def autograded(course, student):
    path = course.root / "autograded" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    return nbformat.read(path, as_version=4)


def verdicts(notebook):
    """The text of every test cell's outputs."""
    return ["".join([o.get("text", ""), o.get("evalue", "")]) for cell in notebook.cells
            if cell.metadata.get("nbgrader", {}).get("grade") for o in cell.get("outputs", [])]


@pytest.mark.parametrize("student", ["solved", "blank", "wrong"])
def test_verdicts_are_chinese(course, student):
    """Is every test cell's verdict Chinese, with no English sentence of the catalog?"""
    texts = verdicts(autograded(course, student))
    assert texts and all(CJK.search(text) for text in texts), texts
    assert not english_sentences("\n".join(texts))


def test_the_named_mistake_is_chinese_on_the_feedback_page(course):
    """Does the feedback page name the mistake by its Chinese name, in a Chinese verdict?"""
    page = course.feedback_html("wrong", ASSIGNMENT)
    assert catalog("zh")[MISTAKE.name] in page and "未通过隐藏检查" in page


def test_the_page_font_holds_every_chinese_character_shown(course):
    """Does the font the feedback page embeds hold every Chinese character the page shows,
    those of its headings included (nbconvert writes them as entities, `&#24590;`)?"""
    page = course.feedback_html("wrong", ASSIGNMENT)
    shown = html.unescape(re.sub(r"<style.*?</style>|<script.*?</script>|<[^>]+>", " ", page,
                                 flags=re.DOTALL))
    needed = set(re.findall(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]", shown))
    assert needed and "&#40550;" in page  # 鹦, only in the student's heading
    assert needed <= embedded(page), sorted(needed - embedded(page))


@pytest.mark.parametrize("student", ["solved", "blank", "wrong"])
def test_the_feedback_page_speaks_chinese(course, student):
    """Are the feedback template's words Chinese and the page marked zh-CN?"""
    page = course.feedback_html(student, ASSIGNMENT)
    assert '<html lang="zh-CN">' in page and "（得分：" in page and ">你的答案<" in page
    for english in ['label">Student\'s answer', 'label">Grade cell', ">(Top)</a>", "(Score: ",
                    "No description has been provided", ">In&nbsp;[", ">In\xa0["]:
        assert english not in page


def test_plots_reach_the_feedback_page_as_images(course):
    """Does each heatmap of the solved notebook show as a PNG image on its page?"""
    page = course.feedback_html("solved", ASSIGNMENT)
    images = re.findall(r'<img alt="([^"]*)" src="data:image/png;base64,', page)
    assert images.count(catalog("zh")["a plot drawn by the notebook's code"]) >= 1, images


def test_an_oversized_plot_is_replaced_by_a_note(course):
    """Is a plot past the course's bound (200 KB) replaced by a note in Chinese, and only
    that one (the heatmaps still show)?"""
    page = course.feedback_html("wrong", ASSIGNMENT)
    assert re.search(r"【这里省略了一张 \d+ KB 的图：每张图最多 200 KB】", page)
    assert 'alt="笔记本中的代码画出的图"' in page


def test_nothing_but_text_and_png_reaches_the_page(course):
    """Do HTML, SVG and JavaScript outputs stay off the page and the autograded notebook,
    and is a fake PNG replaced by a note?"""
    page = course.feedback_html("wrong", ASSIGNMENT)
    notebook = nbformat.writes(autograded(course, "wrong"))
    for leak in LEAKS:
        assert leak not in page and leak not in notebook
    for mime in ("text/html", "image/svg+xml", "application/javascript"):
        assert f'"{mime}"' not in notebook
    assert "【这里省略了一张图像：它不是 PNG 文件】" in page


def test_the_report_speaks_chinese(course):
    """Is the class report Chinese, with no English sentence of the catalog?"""
    page = (course.root / "report.html").read_text(encoding="utf-8")
    assert "<html lang='zh-CN'>" in page and "<h2 id='mistakes'>最常见的错误</h2>" in page
    assert catalog("zh")[MISTAKE.name] in page
    assert not english_sentences(page)
