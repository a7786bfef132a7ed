"""Does a Chinese build say the English its strings cells left in the code (a message a
student would read in English), and keep silent on what they translate or declare as data
kept in English, on the kit's own nine and on an instructor's assignment?"""

from __future__ import annotations

import nbformat
import pytest

from autograder.build import build, master_notebook
from autograder.build.authoring import CellSpec, read_assignment
from autograder.build.translate import english_left, english_words
from autograder.checks.loader import load_assignment
from tests.course import IDS, ROOT

MESSAGE = "the weights of each row sum to one"


def notebook_of(*sources):
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])


def test_english_words_are_found_in_strings_and_comments_only():
    """Are three English words in a row found in a string, an f-string (its own tokens from
    Python 3.12) and a comment, and are names, shapes, short labels and code that is no
    Python left alone?"""
    code = (f'print("{MESSAGE}")  # one row per query word\n'
            'x = torch.zeros(3, 4)  # (n_query, d_k)\nlabel = "the ids"\n'
            'raise ValueError(f"expected {n} rows for each query")\n')
    assert english_words(code) == [MESSAGE, "one row per query word", "rows for each query"]
    assert english_words("print(1 +") == []


def test_only_what_the_strings_cell_does_not_give_is_left():
    """In a Chinese notebook, is a message the cell's strings table does not give left with
    the cell's line, one it translates or maps to itself (data) not, the kit's own helper
    cell not, and nothing at all in an English course?"""
    specs = [CellSpec("code", "", line=7),
             CellSpec("code", "", line=12, translations={"zh": {'"Life is short, eat '
                                                                 'dessert first"': '"Life is '
                                                                 'short, eat dessert first"'}}),
             CellSpec("checks", "", line=20)]
    notebook = notebook_of(f'print("{MESSAGE}")\nprint("{MESSAGE}")',
                           'encode("Life is short, eat dessert first")',
                           f'raise AssertionError("{MESSAGE}")')
    assert english_left(notebook, specs, "zh") == [(7, MESSAGE)]
    assert english_left(notebook, specs, "en") == []


@pytest.mark.parametrize("assignment_id", IDS)
def test_the_kits_chinese_notebooks_leave_no_english(assignment_id):
    """Does every code cell of the kit's Chinese notebook translate its English, or declare
    it data kept in English?"""
    specs = read_assignment(load_assignment(ROOT, assignment_id).notebook)
    assert english_left(master_notebook(ROOT, assignment_id, "zh"), specs, "zh") == []


def test_a_chinese_build_names_the_english_left_and_its_fix(tmp_path):
    """An instructor's code cell printing an English sentence in a Chinese course: does build
    warn, naming the file, the line and the strings cell to write, and not once it is
    translated there?"""
    from autograder.build.course_folder import init_course

    course = init_course(tmp_path / "course", "zh", ["01_attention_by_hand"],
                         log=lambda line: None)
    notebook = course / "assignments" / "01_attention_by_hand" / "notebook.py"
    text = notebook.read_text(encoding="utf-8")
    cell = f'\n# %% code\nprint("{MESSAGE}")\n'
    notebook.write_text(text + cell, encoding="utf-8")
    said = []
    build(course, ["01_attention_by_hand"], log=said.append)
    warned = [line for line in said if MESSAGE in line]
    where = f"notebook.py:{len(text.splitlines()) + 2}:"
    assert len(warned) == 1 and where in warned[0] and "# %% strings zh" in warned[0], said
    translated = f'\n# %% strings zh\n{{"{MESSAGE}": "每行的权重之和为一"}}\n'
    notebook.write_text(text + cell + translated, encoding="utf-8")
    said.clear()
    build(course, ["01_attention_by_hand"], log=said.append)
    assert not [line for line in said if MESSAGE in line], said
