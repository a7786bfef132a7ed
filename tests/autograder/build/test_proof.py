"""What build proves before it writes an assignment: here, that every value a public test
types for a known mistake is what that Mistake's code in checks.py computes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from autograder.build.course_folder import write_config
from autograder.build.proof import typed_mistakes
from autograder.tools.scaffold import new_assignment

ID = "10_positions"
TYPED = 'mistakes=[("no 1/sqrt(d_k)", queries @ keys.T)]'  # the scaffold's, right


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A course holding the scaffold's assignment, whose public test types the value of its
    mistake 'no 1/sqrt(d_k)'."""
    root = tmp_path_factory.mktemp("proof") / "course"
    root.mkdir()
    write_config(root, "en", log=lambda line: None)
    (root / "assignments").mkdir()
    new_assignment(root, ID, "en", None, log=lambda line: None)
    assert TYPED in (root / "assignments" / ID / "notebook.py").read_text(encoding="utf-8")
    return root


def build_with(course, typed):
    """`python -m autograder build ID` with the public test typing `typed`: (exit, output)."""
    notebook = course / "assignments" / ID / "notebook.py"
    text = notebook.read_text(encoding="utf-8")
    notebook.write_text(text.replace(TYPED, typed), encoding="utf-8")
    try:
        result = subprocess.run([sys.executable, "-m", "autograder", "build", ID], cwd=course,
                                capture_output=True, text=True, timeout=600)
    finally:
        notebook.write_text(text, encoding="utf-8")
    return result.returncode, result.stdout + result.stderr


def typed_line(course, text="expect_close(scores, "):
    """The line of the scaffold's notebook.py that starts the call typing the mistake's
    value (the line a build error must name, not its cell's `# %%` header)."""
    lines = (course / "assignments" / ID / "notebook.py").read_text(encoding="utf-8")
    return next(number for number, line in enumerate(lines.splitlines(), 1)
                if line.startswith(text))


def test_the_right_typed_value_builds(course):
    """Does the scaffold, whose typed value is what its mistake computes, build?"""
    code, said = build_with(course, TYPED)
    assert code == 0, said


def test_a_wrong_typed_value_is_refused(course):
    """Is a public test that types a wrong value for a known mistake (twice the right one)
    refused by build, naming notebook.py's test cell, the step, the mistake and the fix?"""
    code, said = build_with(course, 'mistakes=[("no 1/sqrt(d_k)", 2 * queries @ keys.T)]')
    assert code == 1, said
    assert f"assignments/{ID}/notebook.py:{typed_line(course)}: the value" in said, said
    assert ("the value the public test of scaled_scores types for the known mistake "
            "'no 1/sqrt(d_k)' (the scores of the example) is not what that Mistake's code in "
            "checks.py computes") in said
    assert "Type the value the mistake gives on this input, or fix the Mistake's code" in said


def test_a_public_test_that_fails_with_the_reference_names_its_line(course):
    """Is a public test line that fails with the reference's code named by its own line of
    notebook.py, not by its cell's header?"""
    code, said = build_with(course, TYPED + ')\nexpect_tensor(scores, (9, 9), "a wrong shape"')
    assert code == 1, said
    line = typed_line(course) + 2  # below the call's two lines
    assert f"notebook.py:{line}: with the reference's code, this cell fails" in said, said


def test_a_mistake_checks_py_does_not_list_is_refused(course):
    """Is a public test naming a mistake that the step's catalogue lacks refused, listing the
    ones it has?"""
    code, said = build_with(course, 'mistakes=[("no sqrt", queries @ keys.T)]')
    assert code == 1, said
    assert ("types a value for the mistake 'no sqrt', which scaled_scores's mistakes in "
            "checks.py do not list ('no 1/sqrt(d_k)')") in said


def test_typed_mistakes_reads_the_names_written_out():
    """Are the names of mistakes=[("name", value), ...] read from every call, and a list built
    elsewhere, or a cell that does not parse, left alone?"""
    source = ('expect_close(a, b, "x", mistakes=[("one", c), ("two", d)])\n'
              'expect_equal(a, b, mistakes=(("three", e),))\nexpect_close(a, b, mistakes=m)\n')
    assert typed_mistakes(source) == ["one", "two", "three"]
    assert typed_mistakes("%timeit f()") == []


def test_a_chinese_course_builds_when_the_console_speaks_english(tmp_path):
    """Does the kit's 01 build in a Chinese course, its public tests naming known mistakes in
    Chinese, while the command speaks English (as `demo` does: its console is the English
    course's)? The names are read in the notebook's language, not the console's."""
    from autograder.build import build
    from autograder.build.course_folder import init_course
    from autograder.i18n import language

    course = init_course(tmp_path / "zh-course", "zh", ["01_attention_by_hand"],
                         log=lambda line: None)
    with language("en"):
        assert build(course, ["01_attention_by_hand"], log=lambda line: None)
    notebook = course / "release" / "01_attention_by_hand" / "01_attention_by_hand.ipynb"
    assert "查询和键的权重矩阵用反了" in notebook.read_text(encoding="utf-8")
