"""A course's assignment folders, loaded: does an import that fails in the instructor's code
name the file, the line and the import as written, never the kit's internal module names? And
does an assignment say when the similarity report flags a pair of its notebooks (checks.py's
SIMILARITY, the kit's default without one, an error naming the file for anything else), on the
assignment `python -m autograder new` writes (tools/scaffold.py)?"""

from __future__ import annotations

import pytest

from autograder.checks.loader import AssignmentError, load_assignment
from autograder.checks.model import Similar
from autograder.tools.scaffold import new_assignment


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


@pytest.mark.parametrize(("documents", "said"), [
    ("EXAMPLE = 1\ndef broken(:\n", "documents.py:2: invalid syntax"),
    ("EXAMPLE = 1\nraise ValueError('oops')\n", "documents.py:2: ValueError: oops"),
    ("EXAMPLE = 1\nimport numpyy\n", "documents.py:2: `import numpyy` fails: no module named "
     "'numpyy' is installed in the kit's Python"),
])
def test_an_error_in_a_module_checks_imports_names_that_module(tmp_path, documents, said):
    """A syntax error, an error raised, or an import that fails, in a module checks.py
    imports (reference.py, documents.py): is that module's file and line named, not checks.py's
    import line?"""
    folder = course_with(tmp_path, "from .documents import EXAMPLE", documents=documents)
    with pytest.raises(AssignmentError) as error:
        load_assignment(tmp_path, "10_rope")
    assert str(error.value).startswith(f"{folder / said}"), str(error.value)


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


ID = "11_rotary"


@pytest.fixture
def course(tmp_path):
    new_assignment(tmp_path, ID, log=lambda _: None)
    return tmp_path


def declare(root, line):
    checks = root / "assignments" / ID / "checks.py"
    checks.write_text(checks.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    return checks


def test_without_a_declaration_the_kits_default_flags(course):
    """Without SIMILARITY, is the flag the kit's default: half of one notebook's code, no
    count of characters?"""
    checks = course / "assignments" / ID / "checks.py"
    text = checks.read_text(encoding="utf-8")
    declared = "SIMILARITY = Similar(tells=False)\n"  # the scaffold's: its steps are one line
    assert declared in text
    checks.write_text(text.replace(declared, ""), encoding="utf-8")
    assert load_assignment(course, ID).similar == Similar(share=0.5, characters=0)


def test_the_assignments_own_flag_is_read(course):
    """Is SIMILARITY = Similar(share=0.4, characters=120) the flag, and does it flag a pair
    only when both the share and the characters reach it?"""
    declare(course, "from autograder.checks.model import Similar\n"
                    "SIMILARITY = Similar(share=0.4, characters=120)")
    flag = load_assignment(course, ID).similar
    assert flag == Similar(0.4, 120)
    assert flag.flags(0.4, 120) and not flag.flags(0.9, 119) and not flag.flags(0.39, 500)


@pytest.mark.parametrize("line, said", [
    ("SIMILARITY = 0.4", "SIMILARITY must be Similar(share=..., characters=...)"),
    ("from autograder.checks.model import Similar\nSIMILARITY = Similar(share=40)",
     "share=40: give a share above 0 and at most 1"),
    ("from autograder.checks.model import Similar\nSIMILARITY = Similar(0.5, characters=-1)",
     "characters=-1: give a number of characters, 0 or more"),
])
def test_a_wrong_declaration_names_the_file(course, line, said):
    """Does a SIMILARITY that is no Similar, or a Similar out of its range, stop with an
    AssignmentError that names checks.py and says what to write?"""
    checks = declare(course, line)
    with pytest.raises(AssignmentError) as raised:
        load_assignment(course, ID).similar  # noqa: B018 - reading it is what is checked
    assert str(checks) in str(raised.value) and said in str(raised.value)


def test_a_chinese_text_does_not_depend_on_which_assignments_were_loaded(tmp_path):
    """A course's zh.py files give its Chinese texts: is a text one assignment's zh.py
    translates translated in a process that loaded only another assignment (a build of that
    one alone, a worker grading it), as it is where both were loaded?"""
    import subprocess
    import sys

    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\n")
    new_assignment(tmp_path, "10_first", language="zh", log=lambda _: None)
    new_assignment(tmp_path, "11_second", language="zh", log=lambda _: None)
    (tmp_path / "assignments" / "11_second" / "zh.py").unlink()
    catalog = tmp_path / "assignments" / "10_first" / "zh.py"
    catalog.write_text(catalog.read_text(encoding="utf-8").replace(
        "CATALOG = {", 'CATALOG = {\n    "a text of the course": "课程的一段文字",', 1),
        encoding="utf-8")
    script = ("import sys\nfrom pathlib import Path\n"
              "from autograder.checks.loader import load_assignment\n"
              "from autograder.i18n import language, t\n"
              "load_assignment(Path(sys.argv[1]), '11_second')\n"
              "with language('zh'):\n    print(t('a text of the course'))\n")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "课程的一段文字"
