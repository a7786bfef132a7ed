"""A course's assignment folders, loaded: does an import that fails in the instructor's code
name the file, the line and the import as written, never the kit's internal module names?"""

from __future__ import annotations

import pytest

from autograder.checks.loader import AssignmentError, load_assignment


def course_with(tmp_path, checks_line, documents="EXAMPLE = 1\n"):
    """A course whose one assignment's checks.py has `checks_line` on its line 2."""
    folder = tmp_path / "assignments" / "10_rope"
    folder.mkdir(parents=True)
    (folder / "notebook.py").write_text("")
    (folder / "documents.py").write_text(documents)
    (folder / "checks.py").write_text(f'"""Checks."""\n{checks_line}\nSTEPS = ()\n')
    return folder


@pytest.mark.parametrize(("line", "said"), [
    ("from .documents import ROPE_EXAMPLE",
     "10_rope/documents.py has no 'ROPE_EXAMPLE'; define it there"),
    ("from .documentz import ROPE_EXAMPLE", "there is no {folder}/documentz.py; `from .NAME"),
    ("from ..documents import EXAMPLE", "there is no {assignments}/documents.py; `from .NAME"),
    ("import numpyy", "no module named 'numpyy' is installed in the kit's Python"),
    ("from . import nothing", "there is no {folder}/nothing.py"),
])
def test_a_bad_import_names_the_file_and_the_import_as_written(tmp_path, line, said):
    """Does a failing import in checks.py say `checks.py:2`, quote the statement and say what
    is missing, with no kit_course_... module name in the message?"""
    folder = course_with(tmp_path, line)
    with pytest.raises(AssignmentError) as error:
        load_assignment(tmp_path, "10_rope")
    message = str(error.value)
    assert message.startswith(f"{folder / 'checks.py'}:2: `{line}` fails: "), message
    assert said.format(folder=folder, assignments=folder.parent) in message
    assert "kit_course_" not in message


def test_an_import_split_over_lines_is_quoted_whole(tmp_path):
    """Is an import written over several lines quoted as one statement?"""
    course_with(tmp_path, "from .documents import (\n    EXAMPLE,\n    MISSING,\n)")
    with pytest.raises(AssignmentError, match=r"`from \.documents import \( EXAMPLE, "
                                              r"MISSING, \)` fails"):
        load_assignment(tmp_path, "10_rope")


def test_other_errors_name_files_not_modules(tmp_path):
    """Does an error other than an import's (an attribute of a course module that is not
    there) name the course's file instead of the kit's module name?"""
    folder = course_with(tmp_path, "from . import documents\nVALUE = documents.MISSING")
    with pytest.raises(AssignmentError) as error:
        load_assignment(tmp_path, "10_rope")
    assert str(folder / "documents.py") in str(error.value)
    assert "kit_course_" not in str(error.value)


def test_uses_given_as_a_string_is_refused(tmp_path):
    """Is `uses="scaled_softmax"` (a string, which Python would read letter by letter) refused
    naming the step and the tuple to write?"""
    folder = course_with(tmp_path, "")
    (folder / "reference.py").write_text("def a(x):\n    return x\n\n\n"
                                         "def b(x):\n    return a(x)\n")
    (folder / "checks.py").write_text(
        "from autograder.checks.model import Step\nfrom . import reference\n"
        "STEPS = (Step('a', reference.a), Step('b', reference.b, uses='a'))\n")
    with pytest.raises(AssignmentError, match=r"step 'b': uses='a' must be a tuple of step "
                                              r"names, such as uses=\('scaled_softmax',\)"):
        load_assignment(tmp_path, "10_rope")
