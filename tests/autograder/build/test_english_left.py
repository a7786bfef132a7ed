"""Does a Chinese build say the English its strings cells left where the instructor wrote it
(the file and the very line, the words whole), and keep silent on what they translate or
declare as data kept in English, on names, shapes and formulas, on a document's value, on a
solution's hidden body and on a catalogued mistake's name, for the kit's own nine and for an
instructor's assignment?"""

from __future__ import annotations

import functools
import inspect

import pytest

from autograder.build import build
from autograder.build.authoring import read_assignment
from autograder.build.english_left import (
    english_left,
    english_runs,
    own_prose,
    reference_left,
)
from autograder.checks.loader import load_assignment
from tests.course import IDS, ROOT

MESSAGE = "the weights of each row sum to one"


@pytest.mark.parametrize("code, runs", [
    (f'print("{MESSAGE}")  # one row per query word\n',
     [(1, MESSAGE), (1, "one row per query word")]),
    ('raise ValueError(f"expected {n} rows for each of the queries")\n',
     [(1, "rows for each of the queries")]),  # an f-string: tokens of its own from 3.12
    ('"""Attention of q against k.\n\nReturns the weights, one row per query."""\n',
     [(1, "Attention of q against k."), (3, "Returns the weights, one row per query.")]),
    ('x = torch.zeros(3, 4)  # (n_query, d_k)\nlabel = "the ids"\n', []),
    ('# batch x d_model x seq\n# q k^T over sqrt d\ns = "sin and cos"\n', []),
    ('e = "batch seq dim -> batch dim seq"  # see README.md for more\n', []),
    ('s = "Bob saw Alice, Alice saw Bob."\n', []),  # names are data, no word of prose
    ("s = 'one of the rows'\n", [(1, "one of the rows")]),  # no quote carried along
    ('s = "run it on the GPU with PyTorch"\n', [(1, "run it on the GPU with PyTorch")]),
    ("print(1 +", []),
    ('print(f"the sum is {a}")  # compute the multi-head attention for each query\n',
     [(1, "the sum is"), (1, "compute the multi-head attention for each query")]),
    ('# we scale the scores by the square root of d_k.\n',  # the key to the full stop
     [(1, "we scale the scores by the square root of d_k.")]),
    ('# Add the bias. Then apply the softmax.\n', [(1, "Add the bias."),
                                                    (1, "Then apply the softmax.")]),
    ('# for i in range(3):\n# >>> for w in words: print(w)\nimport os  # noqa: E402 is it\n', []),
])
def test_english_runs_are_whole_words_of_prose(code, runs):
    """Is a run of three plain words with one of prose found, whole, with its row, in a
    string, an f-string (its first word too), a docstring's later line and a comment, a
    hyphenated word one word and a full stop the end of a run (kept in it, so that a key
    pasted from the warning translates it), and are names, shapes,
    formulas, paths, short labels, code that is no Python, code put aside in a comment and a
    tool's comment left alone?"""
    assert [(row, run.key) for row, run in english_runs(code)] == runs


@pytest.mark.parametrize("twin, runs", [
    ("这一步很简单。 The weights of each row sum to one.\n下一步。",
     ["The weights of each row sum to one."]),
    ("资料《Attention Is All You Need》和“Life is short, eat dessert first”都用到它。", []),
    ("《Understanding and Coding the Self-Attention of\nLarge Models From Scratch》一文", []),
    ('用 `the sum of the rows` 和 "the cat sat on the mat" 计算 $the sum of x$。', []),
    ("示例：\n```\nprint('the sum of the rows')\n```\n>>> print(the sum of the rows)", []),
    ("见“原文”: we add the bias to each of the rows", ["we add the bias to each of the rows"]),
])
def test_a_twin_in_chinese_is_read_for_its_own_english(twin, runs):
    """In a markdown twin that holds Chinese, is a sentence of English prose of its own found,
    and what it quotes (“”, 《》, even over two lines, "..."), its code (`...`, fenced, a `>>>`
    line) and its formulas left alone?"""
    assert [run.key for _, run in own_prose(twin)] == runs


@pytest.mark.parametrize("assignment_id", IDS)
def test_the_kits_chinese_notebooks_leave_no_english(assignment_id):
    """Does every code cell of the kit's Chinese notebook translate its English, or declare
    it data kept in English?"""
    assignment = load_assignment(ROOT, assignment_id)
    assert english_left(read_assignment(assignment.notebook), assignment, "zh") == []
    assert english_left(read_assignment(assignment.notebook), assignment, "en") == []


def test_a_chinese_build_names_each_english_where_it_was_written(tmp_path):
    """An instructor's Chinese course: do a setup cell's English on its fourth line, a
    stub's docstring in reference.py and an English markdown twin warn with their own file
    and line (the twin's, not its English cell's), while a document's sentence written in by
    {{documents.NAME}}, a catalogued mistake's name, a solution's hidden body and a sentence
    mapped to itself do not, and does the warning go once the cell translates it?"""
    from autograder.build.course_folder import init_course
    from autograder.tools.scaffold import new_assignment

    course = init_course(tmp_path / "course", "zh", [], log=lambda line: None)
    new_assignment(course, "10_positions", "zh", None)
    folder = course / "assignments" / "10_positions"
    notebook, reference = folder / "notebook.py", folder / "reference.py"
    (folder / "documents.py").write_text((folder / "documents.py").read_text() +
                                         '\nSENTENCE = "the cat sat on the mat"\n')
    text = notebook.read_text(encoding="utf-8")
    cell = ('\n# %% setup\nsentence = {{documents.SENTENCE}}\nkept = "Life is short, eat '
            f'dessert first"\n\nprint("{MESSAGE}")\n\n# %% strings zh\n{{\n    '
            '"\\"Life is short, eat dessert first\\"": "\\"Life is short, eat dessert '
            'first\\"",\n}\n')
    twin = ("\n# %% [markdown]\n# An English paragraph.\n\n# %% [markdown zh]\n"
            "# This paragraph is still in English.\n"
            "\n# %% [markdown]\n# Two paragraphs.\n#\n# The second one.\n\n"
            "# %% [markdown zh]\n# 第一段，引用《The Art of the Deal》。\n#\n"
            "# Then the second one is left in English.\n")
    notebook.write_text(text + cell + twin, encoding="utf-8")
    lines = len(text.splitlines())
    body = reference.read_text(encoding="utf-8")
    function = body.index("def ")
    docstring = body.index('"""', function) + 3
    reference.write_text(body[:docstring] + "Each of the rows is a position. " +
                         body[docstring:] + "\n", encoding="utf-8")
    doc_line = body[:docstring].count("\n") + 1
    said = []
    build(course, ["10_positions"], log=said.append)
    warned = [line for line in said if "warning" in line or "警告" in line]
    assert any(f"notebook.py:{lines + 6}:" in w and MESSAGE in w for w in warned), said
    assert any(f"reference.py:{doc_line}:" in w and "'Each of the rows is a position.'" in w
               for w in warned), said  # the key it suggests holds the full stop
    assert any(f"notebook.py:{lines + 16}:" in w and "markdown zh" in w for w in warned), said
    assert any(f"notebook.py:{lines + 27}:" in w and "'Then the second one is left in "
               "English.' stays English in this `# %% [markdown zh]` twin" in w
               for w in warned), said  # its own line; the quoted title not
    assert not any("Life is short" in w or "cat sat" in w or "Art" in w for w in warned), said
    assert len(warned) == 4, said
    translated = cell.replace("{\n    ", '{\n    "' + MESSAGE + '": "每行的权重之和为一",\n    ')
    notebook.write_text(text + translated, encoding="utf-8")
    said.clear()
    build(course, ["10_positions"], log=said.append)
    assert not [line for line in said if MESSAGE in line], said


@functools.cache
def decorated_helper(n):
    """Return the helper value for each n."""
    return n


def test_a_decorated_helper_is_read_where_it_is_written():
    """Is a given helper under a decorator (lru_cache, whose wrapper has no source file) read
    in its own file, at its docstring's line, rather than crashing the build?"""
    left = reference_left(decorated_helper, "given", {})
    line = inspect.getsourcelines(decorated_helper.__wrapped__)[1] + 2
    assert [(found.path.name, found.line, found.words) for found in left] == \
        [("test_english_left.py", line, "Return the helper value for each n.")]
