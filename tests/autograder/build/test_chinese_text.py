"""Does the Chinese course say one thing one way: the glossary's terms, no English words or
full stops in its prose? Read over every Chinese notebook (prose, comments, strings) and every
Chinese catalog (the kit's autograder/i18n/zh_*.py, the assignments' zh.py)."""

from __future__ import annotations

import functools
import importlib
import io
import re
import tokenize

import pytest

from autograder.build import master_notebook
from autograder.build.cjk import FULL_WIDTH, HAN
from tests.course import IDS, ROOT

GLOSSARY = ROOT / "autograder" / "i18n" / "GLOSSARY.md"
VARIANTS_HEADING = "## Variants we do not use"
ROW = re.compile(r"^\| (\S+) \| `(.+)` \| (.+) \|$")
# Latin words a Chinese sentence may hold outside code, formulas, titles and quotations:
# names (of people, software, models), units, and the terms the glossary keeps in English.
NAMES = {
    "softmax", "id", "PyTorch", "Python", "Transformer", "Jupyter", "JupyterLab", "LayerNorm",
    "ReLU", "FlashAttention", "Llama", "Unicode", "autograd", "CPU", "GPU", "MiB", "GiB",
    "Sebastian", "Raschka", "Vaswani", "dsy", "Milakov", "Gimelshein", "Dao",
    "Assignments", "Validate", "Submit",  # JupyterLab's own buttons, as it labels them
    "True", "False",  # Python's, as the masks' conventions say them
}
# What is not prose: fenced and inline code, formulas, titles 《》, quotations “”, a word of
# an example sentence in italics (*Leben*), a figure's description (shown only when the image
# is not), link targets, HTML tags, numbers written with an exponent.
NOT_PROSE = re.compile(r"```.*?```|\$\$.*?\$\$|\$[^$]*\$|`[^`]*`|《[^》]*》|“[^”]*”"
                       r"|\*[A-Za-z][A-Za-z ,'-]*\*(?!\*)|!\[[^\]]*\]\([^)]*\)|\]\([^)]*\)|<[^>]*>"
                       r"|\d[\d.]*e[-+]?\d+", re.S)
LATIN_WORD = re.compile(r"[A-Za-z][\w'-]*")
# Words inside a formula's \text{...} are read as prose, but for the names of the code's
# sizes and arguments in a subscript (x_query is $x_{\text{query}}$).
TEXT_IN_MATH = re.compile(r"\\text\{([^}]*)\}")
SUBSCRIPTS = {"dim", "seq", "out", "query", "context"}
FULL_STOP = re.compile(f"[{HAN}{FULL_WIDTH}]\\.(?![\\w.])")


def variants():
    """(term, variant pattern, why) of each row of the glossary's table of variants."""
    text = GLOSSARY.read_text(encoding="utf-8")
    assert VARIANTS_HEADING in text, f"{GLOSSARY} lost its table {VARIANTS_HEADING!r}"
    rows = [ROW.match(line) for line in text.split(VARIANTS_HEADING, 1)[1].splitlines()]
    table = [(m[1], re.compile(m[2]), m[3]) for m in rows if m and m[1] not in ("term", "---")]
    assert table, f"{GLOSSARY}: no row could be read under {VARIANTS_HEADING!r}"
    return table


@functools.cache
def notebook_cells(assignment_id):
    """(where, kind, text) of each cell of the Chinese notebook but the helper cell (code the
    kit copies, whose catalog the catalogs below cover)."""
    notebook = master_notebook(ROOT, assignment_id, "zh")
    return [(f"zh {assignment_id} cell {index + 1}", cell.cell_type, cell.source)
            for index, cell in enumerate(notebook.cells)
            if cell.metadata.get("nbgrader", {}).get("grade_id") != "public_checks"]


def catalog_modules():
    kit = sorted(p for p in (ROOT / "autograder" / "i18n").glob("zh_*.py"))
    course = sorted((ROOT / "assignments").glob("**/zh.py"))
    return [p.relative_to(ROOT) for p in kit + course]


def catalog_texts(path):
    """(where, Chinese text) of each entry of the catalog module at `path`."""
    module = importlib.import_module(".".join(path.with_suffix("").parts))
    return [(f"{path}: {english[:40]!r}", chinese) for english, chinese in module.CATALOG.items()]


def all_texts():
    for assignment_id in IDS:
        yield from ((where, text) for where, _, text in notebook_cells(assignment_id))
    for path in catalog_modules():
        yield from catalog_texts(path)


def around(text, match):
    return text[max(0, match.start() - 12):match.end() + 12].replace("\n", " ")


def test_the_glossary_lists_variants():
    """Does the glossary's table hold the variants the course once drifted between?"""
    listed = {pattern.pattern for _, pattern, _ in variants()}
    for variant in ("屏蔽", "遮住", "教程", "出处", "单元(?!格)", "笔记(?!本)"):
        assert variant in listed


def test_the_variants_spare_the_terms():
    """Does a variant leave the term that contains it alone (单元格, 笔记本, 文档字符串,
    check_notebook.py, {notebook})?"""
    fine = "测试单元格、笔记本、文档字符串、运行 check_notebook.py，提交 {notebook}"
    assert [p.pattern for _, p, _ in variants() if p.search(fine)] == []
    wrong = ("测试单元、学习笔记、五份文档、本 notebook、被屏蔽、遮住、教程、出处、不许注意、"
             "可以注意、运行最大值、运行和")
    missed = [p.pattern for _, p, _ in variants() if not p.search(wrong)]
    assert missed == ["遮挡", "遮蔽", "one-hot"]


def test_chinese_texts_use_the_glossarys_terms():
    """Does no Chinese notebook or catalog use a variant the glossary sets aside?"""
    table = variants()
    found = [f"{where}: {around(text, m)!r} has {m.group()!r}, say {term} ({why})"
             for where, text in all_texts() for term, pattern, why in table
             for m in pattern.finditer(text)]
    assert not found, "\n".join(found)


def test_no_english_full_stop_after_chinese():
    """Does every Chinese sentence end in 。 rather than an English full stop?"""
    found = [f"{where}: {around(text, m)!r}" for where, text in all_texts()
             for m in FULL_STOP.finditer(text)]
    assert not found, "\n".join(found)


# A space between Chinese and a full-width quotation mark: Chinese sets none (“is”的, 用“x”).
SPACED_QUOTE = re.compile(f"[{HAN}{FULL_WIDTH}] “|” [{HAN}{FULL_WIDTH}]")


def test_no_space_around_quotes_beside_chinese():
    """Do the Chinese texts set “” against the Chinese beside them, with no space?"""
    found = [f"{where}: {around(text, m)!r}" for where, text in all_texts()
             for m in SPACED_QUOTE.finditer(text)]
    assert not found, "\n".join(found)


def latin_words(text):
    """The prose of a markdown text (outside code, formulas, titles and quotations, with the
    words of formulas' \\text{...}) and its Latin words that are not a name; single letters
    are variables."""
    words_in_math = [w for w in TEXT_IN_MATH.findall(text) if w.strip() not in SUBSCRIPTS]
    prose = NOT_PROSE.sub(" ", text) + " " + " ".join(words_in_math)
    words = [m for m in LATIN_WORD.finditer(prose) if len(m.group()) > 1
             and m.group() not in NAMES]
    return words, prose


def test_latin_words_are_found():
    """Is an English word in Chinese prose or in a formula's text found, and are code,
    formulas, sizes and names not?"""
    words, _ = latin_words("用 `reshape` 和 $\\text{dim}$，PyTorch 里的 one-hot 向量 x，"
                           "$\\text{row } j$")
    assert [m.group() for m in words] == ["one-hot", "row"]


@pytest.mark.parametrize("assignment_id", IDS)
def test_no_english_words_in_chinese_prose(assignment_id):
    """Is the Chinese notebook's prose Chinese, but for names, code and formulas?"""
    found = []
    for where, kind, text in notebook_cells(assignment_id):
        if kind == "markdown":
            words, prose = latin_words(text)
            found += [f"{where}: {around(prose, m)!r}" for m in words]
    assert not found, "\n".join(found)


# Emphasis by single asterisks around Chinese: rendered as slanted Chinese, which no Chinese
# font draws (the browser fakes it). Chinese emphasis is bold, a title 《》.
# (Latin words in italics, *Life*, stay: their fonts have italics.)
FAKE_ITALIC = re.compile(r"(?<![*\\`])\*([\u4e00-\u9fff][\u4e00-\u9fff0-9 ]*?)\*(?![*`])")


@pytest.mark.parametrize("assignment_id", IDS)
def test_no_chinese_in_italics(assignment_id):
    """Does no Chinese markdown cell set Chinese text in italics (*...*)?"""
    found = [f"{where}: {around(text, m)!r}" for where, kind, text in
             notebook_cells(assignment_id) if kind == "markdown"
             for m in FAKE_ITALIC.finditer(text)]
    assert not found, "\n".join(found)


# A comment's English word: three letters or more, not part of a code name (d_model, W_Q),
# and not one of the names a shape comment uses as code does.
COMMENT_WORD = re.compile(r"(?<![\w])[A-Za-z][A-Za-z']{2,}(?![\w])")
CODE_WORDS = {"nan", "inf", "sin", "cos", "seq", "dim", "torch"}


def english_comments(code):
    """The comments of a code cell in English: no Chinese, and an English word its code does
    not use as a name (nbgrader's fences, ### BEGIN SOLUTION and the like, aside)."""
    names = set(re.findall(r"[A-Za-z_]\w*", re.sub(r"#.*", "", code)))
    comments = [token.string for token in
                tokenize.generate_tokens(io.StringIO(code).readline)
                if token.type == tokenize.COMMENT and not token.string.startswith("##")]
    return [comment for comment in comments if not re.search(f"[{HAN}]", comment)
            and any(word not in names | CODE_WORDS for word in COMMENT_WORD.findall(comment))]


def test_english_comments_are_found():
    """Is a comment in English found, and a shape comment, code's names, a Chinese comment
    and nbgrader's fences not?"""
    code = ("x = q @ k  # (seq, d_k)\nscores = x  # the scores of q\n"
            "### BEGIN SOLUTION\ny = x  # 与 scores 形状相同\nz = 1  # sin, cos, sin ...\n")
    assert english_comments(code) == ["# the scores of q"]


@pytest.mark.parametrize("assignment_id", IDS)
def test_no_english_comments_in_chinese_code(assignment_id):
    """Does every comment of the Chinese notebook's code (the solution cells' included,
    which the instructor's source shows) speak Chinese, but for shapes and names?"""
    found = [f"{where}: {comment}" for where, kind, text in notebook_cells(assignment_id)
             if kind == "code" for comment in english_comments(text)]
    assert not found, "\n".join(found)
