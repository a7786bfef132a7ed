"""Do the feedback page's own words, the class report and every text grading writes come out in
the course's language, with the English course unchanged?

No kernel and no gradebook: pages and results are built here (the real pipeline in Chinese is
tests/autograder/grading/test_grading_zh.py)."""

from __future__ import annotations

import ast
import re
import warnings
from collections import Counter
from pathlib import Path

import pytest

from autograder.course.ledger import Problem
from autograder.course.notebook_record import Record
from autograder.engine import worker
from autograder.grading.integrity import NAMES_OUTSIDE, SUSPICIOUS_CALLS, SUSPICIOUS_NAMES
from autograder.i18n import catalog, language, t
from autograder.i18n.zh import CATALOG
from autograder.outputs import report
from autograder.outputs.page_words import TEMPLATE_WORDS, in_course_language
from autograder.outputs.report import SECTIONS, ClassResults, render_report
from autograder.outputs.roster import GRADED, MISSING, PENDING, REFUSED, WARNED, Entry

ROOT = Path(__file__).resolve().parents[3]


def course_catalogs():
    """The repository course's texts join the catalogs (as loading its assignments does)."""
    from tests.course import ASSIGNMENTS

    return ASSIGNMENTS
OWN_FILES = sorted(path for room in ("grading", "outputs", "sandbox", "engine")
                   for path in ROOT.glob(f"autograder/{room}/*.py"))
CJK = re.compile(r"[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]")  # Chinese, full-width marks
IDENTIFIER = re.compile(r"^[\w.]+$")  # a name in code (sys.modules, os.fork): not translated


def literal_texts(path):
    """The string literals passed first to t(...) in a file."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "t" and node.args
                and isinstance(node.args[0], ast.Constant)):
            yield node.args[0].value


def texts_shown_as_data():
    """English texts kept as data and passed to t() where they are shown."""
    statuses = [GRADED, WARNED, REFUSED, PENDING, MISSING]
    kinds = ["suspicious code", "file not copied", "forbidden shortcut", "tampered cells"]
    kinds += {flag["kind"] for flag in Record(tampering=["x"]).flags}
    return [*SUSPICIOUS_CALLS.values(), *SUSPICIOUS_NAMES.values(), NAMES_OUTSIDE,
            *worker.KNOWN_FAILURES.values(), worker.AUTOGRADE_FAILED, *statuses, *kinds,
            *(title for title, _ in SECTIONS), *report.PLOT_WORDS,
            *(english for _, english, _ in TEMPLATE_WORDS)]


@pytest.mark.parametrize("text", sorted({text for path in OWN_FILES
                                         for text in literal_texts(path)}
                                        | set(texts_shown_as_data())))
def test_every_text_has_its_chinese(text):
    """Does every text of grading and its outputs have a Chinese text, with the same fields,
    written in Chinese (names in code apart)?"""
    assert text in CATALOG, f"no Chinese for {text!r}: add it to autograder/i18n/zh_outputs.py"
    chinese = CATALOG[text]
    assert sorted(re.findall(r"{[^}]*}", chinese)) == sorted(re.findall(r"{[^}]*}", text))
    assert CJK.search(chinese) or IDENTIFIER.match(text), chinese


# -- the feedback page ----------------------------------------------------------------------

# The markup nbgrader's feedback template writes (nbgrader 0.9), around a student's own words
# that look like it.
PAGE = """<!DOCTYPE html>
<html>
<head><title>01_a</title></head>
<body>
<h4>01_a (Score: 8.0 / 10.0)</h4>
<li><a href="#test_f">f</a> (Score: 0.0 / 2.0)</li>
<li><a href="#comment-answer">Comment</a></li>
<li class="late-penalty">Late submission penalty (Score: -0.8)</li>
<a name="comment-answer"></a><div class="panel-heading">\
<span class="nbgrader-label">Student's answer</span>\
<span class="pull-right"><a href="#top">(Top)</a></span></div>
<a name="test_f"></a><div class="panel-heading">\
<span class="nbgrader-label">Grade cell: <code>test_f</code></span>
<span class="pull-right">
      Score: 0.0 / 2.0 <a href="#top">(Top)</a>
</span></div>
<div class="panel-footer"><div><b>Comments:</b> <p>well done</p></div></div>
<img alt="No description has been provided for this image" src="data:image/png;base64,iVBO"/>
<div class="prompt input_prompt">In\xa0[\xa0]:</div>
<div class="prompt input_prompt">In&nbsp;[&nbsp;]:</div>
<h4 id="mine">My notes (Score: 1 / 2)</h4><p>Student's answer: Score: 3 / 4 (Top)</p>
</body>
</html>"""
STUDENTS_OWN = ('<h4 id="mine">My notes (Score: 1 / 2)</h4>'
                "<p>Student's answer: Score: 3 / 4 (Top)</p>")


def test_the_feedback_template_speaks_chinese():
    """Are the template's words Chinese, the scores kept, and the page marked zh-CN (the
    prompt's spaces written as characters or as the template's &nbsp;)?"""
    with language("zh"):
        page = in_course_language(PAGE)
    assert '<html lang="zh-CN">' in page
    for words in ["<h4>01_a（得分：8.0 / 10.0）</h4>", "f</a> （得分：0.0 / 2.0）</li>",
                  ">评语</a>", "迟交扣分（-0.8 分）", ">你的答案</span>",
                  "评分单元格：<code>test_f</code>", "得分：0.0 / 2.0", "（回到顶部）",
                  "<b>评语：</b>", 'alt="笔记本中的代码画出的图"',
                  '<div class="prompt input_prompt">输入\xa0[\xa0]:</div>',
                  '<div class="prompt input_prompt">输入&nbsp;[&nbsp;]:</div>']:
        assert words in page
    for english in ["Score:", "Student's answer</span>", "Grade cell", "(Top)</a>",
                    "Comments:", "No description", "In\xa0[", "In&nbsp;["]:
        assert english not in page.replace(STUDENTS_OWN, "")


def test_the_notebook_itself_is_left_alone():
    """Is a student's own text that looks like the template's left as written?"""
    with language("zh"):
        page = in_course_language(PAGE)
    assert STUDENTS_OWN in page


def test_the_english_page_only_gains_its_language_and_a_better_alt():
    """Is the English page unchanged but for <html lang="en"> and the alt text of a plot
    (nbconvert's 'No description has been provided for this image')?"""
    with language("en"):
        page = in_course_language(PAGE)
    assert page == PAGE.replace("<html>", '<html lang="en">').replace(
        "No description has been provided for this image", "a plot drawn by the notebook's code")


# -- the class report -----------------------------------------------------------------------


def class_results():
    course_catalogs()  # a mistake's name is the course's text
    chinese_mistake = catalog("zh")["weights applied from the left"]
    return ClassResults(
        totals={"01_a": [8.0, 10.0], "02_b": []}, max_scores={"01_a": 10.0, "02_b": 5.0},
        steps={("01_a", "f"): [True, False]},
        mistakes=Counter({("01_a", chinese_mistake): 2, ("01_a", "某个没有英文的错误"): 1}),
        integrity={("ada", "01_a"): [{"cell": "cell 3", "kind": "suspicious code",
                                      "reason": "对字符串调用 exec"}]},
        problems=[Problem(Path("submitted/eve/01_a"), "提交文件夹是一个符号链接",
                          "请把文件放在那里", stage="grade", student="eve", assignment="01_a")],
        roster=[Entry("ada", "01_a", GRADED, 8.0, 10.0),
                Entry("bob", "01_a", WARNED, 10.0, 10.0, "有警告"),
                Entry("eve", "01_a", REFUSED, None, 10.0, "提交文件夹是一个符号链接"),
                Entry("ada", "02_b", MISSING, None, 5.0)])


def rendered(code):
    """The report in a language, failing on any warning (matplotlib warns of each glyph its
    font lacks)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with language(code):
            return render_report(class_results())


def english_sentences(page):
    """The catalog's English texts (their literal parts of 3 words or more) found in a page."""
    found = []
    for english in CATALOG:
        for part in re.split(r"{[^}]*}", english):
            if len(part.split()) >= 3 and part.strip() in page:
                found.append(part.strip())
    return found


def test_the_report_speaks_chinese():
    """Are the report's title, headings, columns, statuses and sentences Chinese, with no
    English sentence of the catalog left, and the page marked zh-CN?"""
    page = rendered("zh")
    assert "<html lang='zh-CN'>" in page and "<title>班级报告</title>" in page
    for title, _ in SECTIONS:
        assert f">{CATALOG[title]}</h2>" in page
    for words in ["<th>学生</th>", "<th>作业</th>", "<th>平均分</th>", "10/10（有警告）",
                  "title='无法评分：提交文件夹是一个符号链接'", "可疑代码",
                  "每份作业一列（01_a、02_b）"]:
        assert words in page
    assert not english_sentences(page)


def test_the_english_report_is_unchanged():
    """Is the English report still written in the kit's own English words?"""
    page = rendered("en")
    assert "<html lang='en'>" in page
    assert "<h2 id='mistakes'>Most frequent named mistakes</h2>" in page
    assert "One column per assignment (01_a, 02_b)" in page


def test_plots_are_english_without_a_font_for_chinese(monkeypatch):
    """With no font that draws Chinese, do the plots' words and mistake names fall back to
    English (a name with no English text to its number in the table)?"""
    monkeypatch.setattr(report, "font_drawing", lambda text: None)
    results = class_results()
    with language("zh"), report.plot_words(results):
        assert t("students") == "students"
        assert report.mistake_labels(results, 15) == ["01 weights applied from the left",
                                                      "01 #2"]


def test_plots_are_chinese_with_a_font_for_chinese(monkeypatch):
    """With a font that draws Chinese, are the plots' words Chinese, drawn with that font?"""
    monkeypatch.setattr(report, "font_drawing", lambda text: "Some CJK Font")
    results = class_results()
    with language("zh"), report.plot_words(results):
        assert t("students") == CATALOG["students"]
        assert "Some CJK Font" in report.matplotlib.rcParams["font.family"]
        assert report.mistake_labels(results, 15)[0] == "01 " + catalog("zh")[
            "weights applied from the left"]


def test_a_chinese_mistake_name_falls_back_to_its_own_assignments_english():
    """Two assignments translate two English names alike (01's "weights applied from the
    left", 03's "weight ..."): does each assignment's label fall back to its own English,
    whichever catalog was loaded last?"""
    course_catalogs()
    chinese = catalog("zh")["weights applied from the left"]
    assert catalog("zh")["weight applied from the left"] == chinese
    assert report.english(chinese, "01_attention_by_hand") == "weights applied from the left"
    assert report.english(chinese, "03_scaled_dot_product") == "weight applied from the left"


def test_a_refused_inputs_line_takes_the_courses_marks():
    """Is a refused input's line (path: reason; fix), as collect and grade print it, written
    with Chinese marks in the Chinese course, and with ASCII ones in English?"""
    problem = Problem(Path("inbox/ada_02_embeddings.ipynb"), "it is not a notebook of 01_a",
                      "collect it with its own assignment id")
    assert str(problem) == ("inbox/ada_02_embeddings.ipynb: it is not a notebook of 01_a; "
                            "collect it with its own assignment id")
    with language("zh"):
        line = str(Problem(problem.path, t("it is not a notebook of {assignment}",
                                           assignment="01_a"),
                           t("collect it with its own assignment id")))
    assert line.startswith("inbox/ada_02_embeddings.ipynb：") and "；" in line, line
    assert ";" not in line and ": " not in line, line
