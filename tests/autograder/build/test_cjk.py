"""Does the build join hard-wrapped Chinese lines, and refuse a notebook that still has one?"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from autograder.build import master_notebook
from autograder.build.authoring import AuthoringError
from autograder.build.cjk import WRAPPED, check_unwrapped, joined
from tests.course import IDS, ROOT


def test_a_break_between_chinese_characters_is_removed():
    """Does a line break between two Chinese characters, or beside full-width punctuation,
    vanish, while one between Chinese and Latin words stays?"""
    text = ("几乎把全部注意力\n都交给它，\n`x` 也一样；例句是\n“Life”；它抛出\n"
            "`ValueError`\n  和别的")
    assert joined(text) == ("几乎把全部注意力都交给它，`x` 也一样；例句是“Life”；它抛出\n"
                            "`ValueError`\n  和别的")


def test_emphasis_marks_are_seen_through():
    """Is a break between Chinese characters joined, and caught, when bold marks stand
    between them ("在\\n**最后一个**维度")?"""
    text = "在\n**最后一个**维度；**总分。**\n每一步"
    assert joined(text) == "在**最后一个**维度；**总分。**每一步"
    assert WRAPPED.search("在\n**最后一个**维度")


def test_an_english_cell_keeps_its_space_after_a_chinese_title():
    """Does an English sentence quoting a Chinese title keep the space after its "）"?"""
    text = "the walk-through *教你动手推导Self-Attention！（附代码）*\n(\"Working it out\")"
    assert joined(text) == text


def test_english_quotes_keep_their_space():
    """Does a break between English words and quote marks stay a break?"""
    assert joined("the sentence\n“Life is short”\nis") == "the sentence\n“Life is short”\nis"


def test_blocks_keep_their_lines():
    """Do a heading, list items, a table, displayed math, a figure and fenced code keep
    their own lines?"""
    text = ("# 标题\n正文一行\n- 第一项\n- 第二项\n| 步骤 | 分值 |\n| --- | --- |\n"
            "如下：\n$$\nx\n$$\n如图：\n![图](figure:a)\n```\n# 注释\n代码\n```")
    assert joined(text) == text


def test_a_list_item_continues_across_lines():
    """Is an indented continuation of a Chinese list item joined to the item?"""
    text = "- 第一项很长，\n  一直写到这里\n- 第二项"
    assert joined(text) == "- 第一项很长，一直写到这里\n- 第二项"


def planted(source):
    return [nbformat.v4.new_code_cell("x = 1"), nbformat.v4.new_markdown_cell(source)]


def test_the_check_catches_a_hard_wrapped_cell():
    """Is a markdown cell with a break between two Chinese characters refused, naming the
    file, the cell and the words around the break?"""
    cells = planted("# 标题\n\n几乎把全部注意力\n都交给了最后一个词。")
    with pytest.raises(AuthoringError) as raised:
        check_unwrapped(cells, Path("assignments/05_multi_head/notebook.py"))
    message = str(raised.value)
    assert "05_multi_head/notebook.py" in message and "markdown cell 2" in message
    assert "注意力⏎都交给" in message


def test_the_check_passes_a_joined_cell_and_code():
    """Are a joined cell, a break beside Latin words and a code cell's comments let
    through?"""
    cells = planted(joined("几乎把全部注意力\n都交给 `x`\n和 `y`")) + [
        nbformat.v4.new_code_cell("# 中文注释\n# 第二行")]
    check_unwrapped(cells, Path("notebook.py"))


@pytest.mark.parametrize("assignment_id", IDS)
def test_every_chinese_notebook_is_unwrapped(assignment_id):
    """Does every Chinese notebook build (the build runs the check) with no markdown cell
    breaking a line between two Chinese characters?"""
    notebook = master_notebook(ROOT, assignment_id, "zh")
    wrapped = [cell.source for cell in notebook.cells
               if cell.cell_type == "markdown" and WRAPPED.search(cell.source)]
    assert not wrapped, wrapped[:1]
