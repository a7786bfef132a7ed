"""Do the helpers a student runs speak the Chinese course's language: every message of the
public checks and the rules in the notebook, every line of the self-check script, the hand-in
cell, with each text of ours in the one catalog of the code copied out of the kit
(autograder/i18n/standalone.py)?

Run as the build copies them out (autograder/build/standalone.py): the notebook's helper cell
(public_checks.py, raised.py, code_rules.py and failed_cell.py in one namespace) and
check_notebook.py on its own."""

from __future__ import annotations

import ast
import io
import re
import shutil
import string
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import torch

from autograder.build.check_notebook import points
from autograder.build.hand_in import HAND_IN
from autograder.build.standalone import (
    HELPER_CELL,
    SELF_CHECK,
    helper_cell_code,
    self_check_script,
    text_literals,
)
from autograder.checks.code_rules import rule_broken
from autograder.course.directory import nbgrader_env
from autograder.i18n.standalone import ZH

ROOT = Path(__file__).resolve().parents[3]
FILES = {path.stem: path for path in [*HELPER_CELL, SELF_CHECK]}
CJK = re.compile(r"[\u4e00-\u9fff]")
# Field values the tests pass in: no word of them is a word of our English texts.
WHAT, RULE, WHY, MISTAKE = "`W_x`", "R1", "Q2", "M3"


def run_as(source, module_name):
    space = {"__name__": module_name}
    exec(compile(source, f"<{module_name} in Chinese>", "exec"), space)  # noqa: S102
    return space


@pytest.fixture(scope="module")
def cell():
    """The notebook's helper cell in the Chinese course."""
    return run_as(helper_cell_code("zh"), "__main__")


@pytest.fixture(scope="module")
def script():
    return run_as(self_check_script("zh"), "check_notebook_zh")


def words(text):
    return {w.lower() for w in re.findall(r"[A-Za-z]+", text)}


def english_words():
    """The words of our English texts that no Chinese text keeps (code such as torch.Tensor
    or NotImplementedError stays in both)."""
    english = set().union(*(words(re.sub(r"\{[^}]*\}", " ", text)) for text in ZH))
    return english - set().union(*map(words, ZH.values()))


ENGLISH = english_words()


def assert_chinese(message, *fields):
    """Chinese, with no word of our English texts outside the field values passed in."""
    assert CJK.search(message), f"not Chinese: {message!r}"
    rest = message
    for field in fields:
        rest = rest.replace(field, " ")
    assert not words(rest) & ENGLISH, f"English left in: {message!r}"


def mine(x):
    return torch.softmax(x, dim=-1)


def looping(x):
    return [row.sum() for row in x]


def plain(x):
    return x @ x.T


FAILURES = {
    "a tuple for a tensor": lambda c: c["expect_tensor"]((1.0,), (1,), WHAT),
    "a wrong shape": lambda c: c["expect_tensor"](torch.zeros(2, 3), (3, 2), WHAT),
    "a wrong dtype": lambda c: c["expect_tensor"](torch.zeros(2), (2,), WHAT, torch.long),
    "wrong numbers": lambda c: c["expect_close"](torch.tensor([1.0, 5.0]), [1.0, 2.0], WHAT),
    "one wrong number": lambda c: c["expect_close"](torch.tensor(3.0), 2.0, WHAT),
    "a known mistake's numbers": lambda c: c["expect_close"](
        torch.tensor([2.0, 1.0]), [1.0, 2.0], WHAT, mistakes=[(MISTAKE, [2.0, 1.0])]),
    "a shape no mistake gives": lambda c: c["expect_close"](
        torch.zeros(3), [1.0, 2.0], WHAT, mistakes=[(MISTAKE, [2.0, 1.0])]),
    "numbers that are not a tensor": lambda c: c["expect_close"]((1.0, 2.0), [1.0, 2.0], WHAT),
    "wrong entries": lambda c: c["expect_equal"](torch.tensor([1, 2, 3]),
                                                 torch.tensor([1, 2, 4]), WHAT),
    "one wrong entry": lambda c: c["expect_equal"](torch.tensor([True]), torch.tensor([False]),
                                                   WHAT),
    "a known mistake's entries": lambda c: c["expect_equal"](
        torch.tensor([1, 2]), torch.tensor([2, 1]), WHAT, mistakes=[(MISTAKE, torch.tensor(
            [1, 2]))]),
    "entries of another dtype": lambda c: c["expect_equal"](torch.tensor([1.0, 2.0]),
                                                            torch.tensor([1, 2]), WHAT),
    "a forbidden name": lambda c: c["expect_rule"](mine, "forbids_names", ["softmax"], RULE,
                                                   WHY),
    "a forbidden built-in": lambda c: c["expect_rule"](mine, "forbids_builtins", ["softmax"],
                                                       RULE, WHY),
    "a required name missing": lambda c: c["expect_rule"](plain, "requires_names",
                                                          ["bmm", "einsum"], RULE, WHY),
    "a forbidden loop": lambda c: c["expect_rule"](looping, "forbids_loops", [], RULE, WHY),
    "a required loop missing": lambda c: c["expect_rule"](plain, "requires_loop", [], RULE,
                                                          WHY),
    "code that cannot be read": lambda c: c["expect_rule"](len, "forbids_loops", [], RULE,
                                                           WHY),
}


@pytest.mark.parametrize("failure", FAILURES)
def test_every_failure_of_the_public_checks_is_chinese(cell, failure):
    """Does each way a public check fails (its every branch) give a Chinese message, the
    English only in what the test cell passes in?"""
    with pytest.raises(AssertionError) as raised:
        FAILURES[failure](cell)
    assert_chinese(str(raised.value), WHAT, RULE, WHY, MISTAKE, "<built-in function len>")


def test_the_default_name_of_a_result_is_chinese(cell):
    """Is a result the test cell does not name called 结果?"""
    with pytest.raises(AssertionError, match="^结果："):
        cell["expect_close"](torch.tensor([1.0]), [2.0])


def test_the_grader_gets_a_rule_in_the_language_it_asks_for():
    """Does the kit's own code_rules (English by default) phrase a broken rule in Chinese
    when the grader passes language="zh", and in English otherwise?"""
    tree = ast.parse("def f(x):\n    return [v for v in x]\n")
    assert rule_broken("forbids_loops", [], tree) == "found a Python loop: a list comprehension"
    assert_chinese(rule_broken("forbids_loops", [], tree, language="zh"))
    assert_chinese(rule_broken("forbids_names", ["f", "x"], tree, language="zh"), "f", "x")


def test_points_in_both_languages(script):
    """Are points '2 分' in Chinese, and '1 point' / '2 points' in English?"""
    assert (script["points"](2), script["points"](1), script["points"](1.5)) == (
        "2 分", "1 分", "1.5 分")
    assert (points(1), points(2), points(2, "zh")) == ("1 point", "2 points", "2 分")


def code_cell(source, points_=None, error=None, ran=True):
    meta = {"nbgrader": {"grade": True, "grade_id": f"test_{source}", "points": points_}} \
        if points_ is not None else {}
    cell = nbformat.v4.new_code_cell(source, metadata=meta)
    cell.execution_count = 1 if ran else None
    if error:
        cell.outputs = [nbformat.v4.new_output("error", ename=error[0], evalue=error[1],
                                               traceback=[])]
    return cell


@pytest.mark.parametrize("stop", [None, "CellTimeoutError", "DeadKernelError"])
def test_the_report_is_chinese(script, capsys, monkeypatch, stop):
    """Is every line of the self-check's report Chinese: a failing test cell, a stub left in
    another cell, a notebook the kernel could not finish, and the summary?"""
    notebook = nbformat.v4.new_notebook(cells=[
        code_cell("project_qkv", 2, ("AssertionError", "M3")),
        code_cell("weights = f(x)", error=("NotImplementedError", "")),
        code_cell("context_vectors", 1),
        code_cell("stable_softmax", 3, ran=False),
    ])

    class Client:
        def __init__(self, *args, **kwargs):
            pass

        def execute(self):
            if stop:
                raise script[stop]("stopped")

    monkeypatch.setitem(script, "NotebookClient", Client)
    stopped = script["run"](notebook, ".", 120)
    assert (stopped is None) == (stop is None)
    assert script["report"](notebook, stopped) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 + bool(stop)
    for line in lines:
        assert_chinese(line, "project_qkv", "AssertionError: M3", "weights = f(x)")
    assert lines[-1].startswith("3 个测试单元格中通过了 1 个（公开测试得 1 分，满分 6 分）")


def test_the_command_line_is_chinese(script, capsys, tmp_path):
    """Are the script's help and its message for an unreadable file Chinese?"""
    with pytest.raises(SystemExit):
        script["main"](["--help"])
    shown = capsys.readouterr().out
    assert "在全新的内核中运行笔记本" in shown and "要检查的 .ipynb 文件" in shown
    missing = tmp_path / "notes.ipynb"
    assert script["main"]([str(missing)]) == 2
    said = capsys.readouterr().err.strip()
    assert said.startswith(f"无法读取 {missing}") and said.endswith("请给出你的 .ipynb 文件的路径")


def test_the_chinese_script_on_a_released_notebook(tmp_path):
    """Run as a student of the Chinese course runs it, on the stubs: does it exit 1 with
    every line of its own in Chinese?"""
    assignment = "01_attention_by_hand"
    shutil.copy(ROOT / "release" / assignment / f"{assignment}.ipynb", tmp_path)
    (tmp_path / "check_notebook.py").write_text(self_check_script("zh"), encoding="utf-8")
    result = subprocess.run([sys.executable, "check_notebook.py", f"{assignment}.ipynb"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=300,
                            env=nbgrader_env())
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("未通过  第 ") and "project_qkv 的测试（2 分）" in lines[0]
    assert lines[-1].startswith("5 个测试单元格中通过了 0 个（公开测试得 0 分，满分 10 分）")


def texts_passed_to_t(name):
    """Every text the file passes to _t: literals (or a choice of two), nothing computed."""
    texts, computed = [], []
    for node in ast.walk(ast.parse(FILES[name].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_t":
            literals = text_literals(node)
            texts += [literal.value for literal in literals]
            first = node.args[0]
            options = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
            if len(literals) != len(options):
                computed.append(f"line {node.lineno}")
    assert computed == [], f"{name}.py passes _t a text the scan cannot read: {computed}"
    return texts


def fields(template):
    return sorted((field, spec, conversion)
                  for _, field, spec, conversion in string.Formatter().parse(template)
                  if field is not None)


@pytest.mark.parametrize("name", FILES)
def test_every_text_has_its_chinese(name):
    """Does every text the file passes to _t have a Chinese entry in the catalog, with the
    same fields?"""
    texts = texts_passed_to_t(name)
    assert [t for t in texts if t not in ZH] == [], f"{name}.py: texts without Chinese"
    assert [t for t in texts if t in ZH and fields(t) != fields(ZH[t])] == [], (
        f"{name}.py: Chinese texts whose fields differ from the English")


def test_every_entry_of_the_catalog_is_used_and_chinese():
    """Is every entry of the catalog passed to _t by one of the files, and Chinese?"""
    used = {text for name in FILES for text in texts_passed_to_t(name)}
    assert sorted(set(ZH) - used) == [], "catalog entries nothing uses"
    assert [c for c in ZH.values() if not CJK.search(c) and c != "、"] == []


def test_the_hand_in_cell_in_both_languages():
    """Is the Chinese hand-in cell Chinese, with the English one's placeholders, and each
    paragraph and list item on one line (a line break in Chinese text shows as a space)?"""
    assert set(HAND_IN) == {"en", "zh"}
    assert set(fields(HAND_IN["zh"])) == set(fields(HAND_IN["en"]))
    text = HAND_IN["zh"].format(assignment="01_attention_by_hand",
                                notebook="01_attention_by_hand.ipynb", total_points="10 分")
    assert "满分 **10 分**" in text
    for line in filter(None, text.splitlines()):
        assert re.match(r"#|- |\d\. ", line), f"a paragraph broken across lines: {line!r}"
        assert CJK.search(line), line


def string_literals(code):
    return [node.value for node in ast.walk(ast.parse(code))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


@pytest.mark.parametrize("code", ["en", "zh"])
def test_the_helper_cell_carries_only_the_course_language(code):
    """Does the helper cell hold its texts in the course's language alone (no catalog, no
    text of the other language), with one docstring and no comment?"""
    cell = helper_cell_code(code)
    tree = ast.parse(cell)
    literals = string_literals(cell)
    if code == "en":
        assert [text for text in literals if CJK.search(text)] == []
    else:
        assert [text for text in literals if text in ZH and words(text)] == []
        chinese = [text for text in literals if CJK.search(text)]
        assert len(chinese) >= len(ZH) // 2, "the Chinese texts are not in the cell"
    docstrings = [node for node in ast.walk(tree) if isinstance(
        node, ast.Module | ast.FunctionDef | ast.ClassDef) and ast.get_docstring(node)]
    assert docstrings == [tree]
    assert "#" not in "".join(line.split("'")[0].split('"')[0] for line in cell.splitlines())


def test_a_plot_with_chinese_labels_draws_every_glyph():
    """After the helper cell's use_course_font, as every plotting cell calls it, does a plot
    labelled in Chinese draw with no glyph missing (matplotlib's own font alone has none)?"""
    import warnings

    import matplotlib
    from matplotlib.figure import Figure

    namespace = {}
    exec(compile(helper_cell_code("zh"), "<helper cell>", "exec"), namespace)
    with matplotlib.rc_context(), warnings.catch_warnings():
        warnings.simplefilter("error")
        assert namespace["use_course_font"]() is not None
        fig = Figure()
        fig.add_subplot().set_xlabel("列（成对的 sin、cos）")
        fig.savefig(io.BytesIO(), format="png")


@pytest.mark.parametrize("code", ["en", "zh"])
def test_the_hints_of_the_named_mistakes_are_in_the_notebooks_language(code):
    """Does the helper cell of 01 carry, for each mistake its test cells name, the grader's
    hint, both the name and the hint in the notebook's language (as the test cells quote the
    name)?"""
    from autograder.build import master_notebook
    from autograder.checks.loader import load_assignment
    from autograder.i18n import language, t
    from tests.course import ROOT

    notebook = master_notebook(ROOT, "01_attention_by_hand", code)
    [line] = [line for cell in notebook.cells for line in cell.source.splitlines()
              if line.startswith("MISTAKE_HINTS = ")]
    hints = ast.literal_eval(line.removeprefix("MISTAKE_HINTS = "))
    mistake = next(m for step in load_assignment(ROOT, "01_attention_by_hand").steps.values()
                   for m in step.mistakes if m.name == "softmax over dim 0")
    with language(code):
        assert hints[t(mistake.name)] == t(mistake.hint)
