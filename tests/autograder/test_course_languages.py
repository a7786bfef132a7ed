"""Is the course whole in each language? `init` builds an English and a Simplified Chinese
course folder from assignments/; each grades its solutions full and its stubs zero, the two
have the same grade ids, points and checks, and the Chinese one has no English left for a
student to read."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import nbformat
import pytest

from autograder.build import helpers_of
from autograder.build.course_folder import init_course
from autograder.build.standalone import HELPERS_FILE
from autograder.checks.loader import assignment_ids
from autograder.course.directory import course_config
from autograder.i18n import config_language
from autograder.tools.validate import validate

ROOT = Path(__file__).resolve().parents[2]
IDS = assignment_ids(ROOT)
CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")
# Four English words in a row, once code, formulas, quoted titles and links are set aside.
ENGLISH_RUN = re.compile(r"[A-Za-z]{2,}(?:[ ,;:'-]+[A-Za-z]+){3,}")
SET_ASIDE = [
    re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$", re.DOTALL),  # formulas
    re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL),  # code
    re.compile(r"“[^”]*”|\"[^\"\n]*\"|《[^》]*》|「[^」]*」|‘[^’]*’"),  # quoted titles
    re.compile(r"\]\([^)]*\)|https?://\S+|attachment:\S+"),  # link targets
    re.compile(r"<[^>]+>"),  # html tags
]
PLOT_LABELS = {"set_xlabel", "set_ylabel", "set_title", "suptitle"}


@pytest.fixture(scope="module")
def courses(tmp_path_factory):
    folder = tmp_path_factory.mktemp("languages")
    return {code: init_course(folder / code, code, log=lambda _: None)
            for code in ("en", "zh")}


def release(course, assignment_id):
    return nbformat.read(course / "release" / assignment_id / f"{assignment_id}.ipynb", 4)


def english_runs(text):
    for pattern in SET_ASIDE:
        text = pattern.sub(" ", text)
    return ENGLISH_RUN.findall(text)


def message_strings(code):
    """The texts a code cell shows a student: what it prints, the labels and mistake names of
    its checks, assert and error messages, docstrings, comments and the labels of its plots.
    (Data, such as the example sentences, are not messages.)"""
    tree = ast.parse(code)
    for node in ast.walk(tree):
        for part in message_parts(node):
            yield from texts(part)
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type == tokenize.COMMENT:
            yield token.string.lstrip("#")


def message_parts(node):
    if isinstance(node, ast.Call):
        name = getattr(node.func, "attr", getattr(node.func, "id", ""))
        if name == "print":
            return node.args
        if name.startswith("expect_"):  # expect_close(got, expected, what, mistakes=...)
            return [*node.args[2:], *(k.value for k in node.keywords)]
        if name in PLOT_LABELS:  # ax.set_xlabel("..."), fig.colorbar(image, label="...")
            return [*node.args[:1], *(k.value for k in node.keywords if k.arg == "label")]
        if name == "colorbar":
            return [k.value for k in node.keywords if k.arg == "label"]
    if isinstance(node, ast.Assert) and node.msg:
        return [node.msg]
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
        return node.exc.args
    if isinstance(node, ast.FunctionDef | ast.ClassDef | ast.Module) and ast.get_docstring(node):
        return [node.body[0].value]
    return []


def texts(part):
    """The literal text of an expression: its strings, an f-string's fixed parts."""
    for node in ast.walk(part):
        if isinstance(node, ast.JoinedStr):
            yield "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


def test_init_sets_the_language(courses):
    """Does each course folder's nbgrader_config.py name its language?"""
    assert {code: config_language(course_config(path)) for code, path in courses.items()} == \
        {"en": "en", "zh": "zh"}


@pytest.mark.parametrize("assignment_id", IDS)
def test_chinese_markdown_is_chinese(courses, assignment_id):
    """Is every markdown cell of the Chinese release written in Chinese, with no English
    sentence left?"""
    notebook = release(courses["zh"], assignment_id)
    problems = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "markdown":
            continue
        if not CJK.search(cell.source):
            problems.append(f"cell {index} has no Chinese: {cell.source[:80]!r}")
        problems += [f"cell {index}: English {run!r}" for run in english_runs(cell.source)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("assignment_id", IDS)
def test_chinese_messages_are_chinese(courses, assignment_id):
    """Does every message, docstring, print and comment a student reads in the Chinese
    release's code cells have its Chinese text (the public checks' helper cell aside, which
    carries both languages)?"""
    notebook = release(courses["zh"], assignment_id)
    problems = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code" or cell.metadata.get("nbgrader", {}).get(
                "grade_id") == "public_checks":
            continue
        for text in message_strings(cell.source):
            if english_runs(text) or (re.search(r"[A-Za-z]{3,} [A-Za-z]{3,}", text)
                                      and not CJK.search(text)):
                problems.append(f"cell {index}: {text.strip()[:90]!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("assignment_id", IDS)
def test_the_helpers_beside_a_chinese_release_are_its_cells_in_chinese(courses, assignment_id):
    """Is course_helpers.py beside each Chinese release the code its helper cell runs, with
    the docstring a student opens it for in Chinese?"""
    beside = (courses["zh"] / "release" / assignment_id / HELPERS_FILE).read_text("utf-8")
    assert beside == helpers_of(release(courses["zh"], assignment_id))
    docstring = ast.get_docstring(ast.parse(beside))
    assert CJK.search(docstring) and not english_runs(docstring), docstring


def grading_shape(notebook):
    """What grading sees of a notebook: each cell's nbgrader metadata and, for code, its
    syntax with every string and comment blanked (an f-string keeps only the values it
    formats: a translation may put its words on either side of them)."""
    shape = []
    for cell in notebook.cells:
        meta = cell.metadata.get("nbgrader", {})
        code = None
        if cell.cell_type == "code":
            tree = ast.parse(cell.source)
            for node in ast.walk(tree):
                if isinstance(node, ast.JoinedStr):
                    node.values = [v for v in node.values if not isinstance(v, ast.Constant)]
                elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                    node.value = ""
            code = ast.dump(tree)
        shape.append((cell.cell_type, meta.get("grade_id"), meta.get("points"),
                      meta.get("locked"), meta.get("solution"), code))
    return shape


@pytest.mark.parametrize("assignment_id", IDS)
def test_both_languages_grade_alike(courses, assignment_id):
    """Do the English and Chinese notebooks have the same cells, grade ids, points and test
    code (strings aside)?"""
    shapes = [grading_shape(release(courses[code], assignment_id)) for code in ("en", "zh")]
    assert shapes[0] == shapes[1]


def test_english_course_is_the_repository_one(courses):
    """Is the English course folder's release what the repository commits?"""
    for assignment_id in IDS:
        assert release(courses["en"], assignment_id) == release(ROOT, assignment_id), (
            f"release/{assignment_id} is stale: run python -m autograder build")


def test_chinese_solutions_full_stubs_zero(courses):
    """Built from assignments/ in Chinese, do the solutions earn full marks and the stubs
    zero, graded by real nbgrader? Three assignments, the first, a middle one and the last:
    every assignment's Chinese notebook has the English one's cells, grade ids, points and test
    code (test_both_languages_grade_alike), and grading/test_grading_e2e.py grades the
    English solutions and stubs of all nine; the Chinese catalogs' placeholders are checked
    in i18n's tests."""
    assert validate(courses["zh"], IDS[::4], workers=2, log=lambda _: None) == []


def test_init_refuses_a_folder_in_use(tmp_path):
    """Does init leave a folder with files in it untouched, and say what to do?"""
    from autograder.build import BuildError

    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(BuildError, match="not empty"):
        init_course(tmp_path, "zh", log=lambda _: None)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def self_check(course, *arguments):
    """The Chinese course's self-check script run on its 01 release, as a student runs it."""
    import subprocess
    import sys

    from autograder.course.directory import nbgrader_env

    folder = course / "release" / IDS[0]
    return subprocess.run([sys.executable, "check_notebook.py", *arguments], cwd=folder,
                          capture_output=True, text=True, timeout=300, env=nbgrader_env())


def test_the_self_check_speaks_chinese(courses):
    """Does the Chinese self-check say everything in Chinese: its --help (argparse's own
    words too), its report on the untouched release, with no kernel warning first, and the
    system's words when the notebook named is not there?"""
    shown = self_check(courses["zh"], "--help")
    ran = self_check(courses["zh"], f"{IDS[0]}.ipynb")
    missing = self_check(courses["zh"], "gone.ipynb")
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert missing.returncode == 2 and "没有那个文件或目录" in missing.stderr, missing.stderr
    problems = []
    for text in (shown.stdout, shown.stderr, ran.stdout, ran.stderr, missing.stderr):
        problems += [f"English {run!r}" for run in english_runs(text)]
        problems += [f"English {word!r}" for word in ("usage:", "positional arguments",
                                                      "options:", "[IPKernelApp]") if word in text]
    assert not problems, "\n".join(problems)


def test_feedback_template_words_are_chinese():
    """Does a Chinese feedback page say nbgrader's words in Chinese ("No response." under an
    untouched stub among them) and embed the glyphs of its text, code blocks included?"""
    from autograder.i18n import language
    from autograder.outputs.page_words import in_course_language

    page = ("<html><head><style>body{}</style></head><body><h4>01.ipynb (Score: 0.0 / 2.0)"
            "</h4><div class='panel-footer'><div><b>Comments:</b> <p>No response.</p></div>"
            "</div><pre>print('查询')</pre></body></html>")
    with language("zh"):
        shown = in_course_language(page)
    text = re.sub(r"<style>.*?</style>|<[^>]+>", " ", shown, flags=re.DOTALL)
    assert not english_runs(text) and "No response" not in text and "Comments" not in text
    assert "font-family:'Kit CJK'" in shown and re.search(r"pre[^{]*\{font-family:'Kit CJK'",
                                                           shown)
