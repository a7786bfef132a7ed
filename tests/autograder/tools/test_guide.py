"""autograder/tools/guide.py: the documentation's pages, printed by `python -m autograder guide
PAGE` where the kit's messages point."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.build.course_folder import config_text
from autograder.plumbing.errors import KitError
from autograder.tools.guide import find_page, page_list, page_names, page_text

ROOT = Path(__file__).resolve().parents[3]
NAMED = re.compile(r"-m autograder guide ([a-z][\w/-]*)")  # a page a text names


def kit_texts():
    """(file, text) of every file of the kit whose texts a user reads: its modules (messages,
    help, catalogs) and the nbgrader_config.py init writes."""
    for path in sorted((ROOT / "autograder").rglob("*.py")):
        yield path.relative_to(ROOT), path.read_text(encoding="utf-8")
    yield "init's nbgrader_config.py", config_text("en")
    yield "nbgrader_config.py", (ROOT / "nbgrader_config.py").read_text(encoding="utf-8")


def test_every_page_a_text_names_is_a_page():
    """Does every `python -m autograder guide PAGE` in the kit's texts name a page guide
    prints (and do the kit's texts name pages so, never as a path of the repository)?"""
    named = [(where, page) for where, text in kit_texts() for page in NAMED.findall(text)]
    assert len({page for _, page in named}) >= 4, named  # sandbox, lms, settings, ...
    for where, page in named:
        assert page_text(find_page(page)).strip(), f"{where}: `guide {page}` prints nothing"
    paths = [(where, found) for where, text in kit_texts()
             for found in re.findall(r"\bdocs/[\w/-]+\.md", text)]
    assert not paths, f"texts naming a page the wheel has no such path for: {paths}"


def test_a_page_is_found_by_its_whole_name_or_its_last_part():
    """Is `grading/sandbox` found as given and as `sandbox` (also as docs/...md, as the site's
    links spell it), and an English page before its Chinese one?"""
    assert find_page("grading/sandbox") == "grading/sandbox"
    assert find_page("sandbox") == "grading/sandbox"
    assert find_page("docs/grading/sandbox.md") == "grading/sandbox"
    assert find_page("feedback") == "students/feedback"
    assert find_page("zh/students/feedback") == "zh/students/feedback"
    assert find_page("settings") == "reference/settings"
    assert find_page("zh") == "zh/index" and find_page("not-done") == "not-done"


def test_an_unknown_page_is_refused_with_the_way_to_list_them():
    """Does a page no one wrote stop with its name and the command that lists the pages?"""
    with pytest.raises(KitError, match=r"'sandboxes'.*guide --list"):
        find_page("sandboxes")


def test_the_default_page_is_the_authoring_guide():
    """Does `guide` with no page print the guide to writing an assignment, as before?"""
    expected = (ROOT / "autograder" / "docs" / "writing-assignments.md").read_text(
        encoding="utf-8")
    assert page_text(find_page("instructors/writing-assignments")) == expected


def test_the_settings_page_lists_what_a_course_can_set():
    """Does `guide settings` list the kit's settings with their defaults, the sandbox's
    isolation among them, and the site's reference/settings page come from the same text?"""
    text = page_text("reference/settings")
    assert "| `c.GradeInSandbox.isolation` |" in text, text[:2000]
    assert re.search(r"^(\d+) settings:$", text, re.MULTILINE)


def test_the_list_names_every_page_of_the_site():
    """Does `guide --list` name every page under docs/ (the developers' list of what is not
    done too: pages link to it) and the pages made from the kit, with their titles?"""
    listed = page_list().splitlines()
    names = [line.split()[0] for line in listed]
    on_disk = {p.relative_to(ROOT / "docs").with_suffix("").as_posix()
               for p in (ROOT / "docs").rglob("*.md")} | {"reference/commands",
                                                          "reference/settings"}
    assert on_disk <= set(names) == set(page_names())
    titles = dict(line.split(None, 1) for line in listed)
    assert titles["grading/sandbox"] == "How grading works: the sandbox", titles
    assert titles["reference/settings"] == "Settings", titles


def test_the_command_prints_a_page():
    """Does `python -m autograder guide lms` print the LMS page, and an unknown page exit 1
    with one line, no traceback?"""
    run = [sys.executable, "-m", "autograder", "guide"]
    done = subprocess.run([*run, "lms"], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == page_text("instructors/lms") + "\n"
    done = subprocess.run([*run, "nowhere"], capture_output=True, text=True, cwd=ROOT,
                          check=False)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "guide --list" in done.stderr, done.stderr


def test_a_reader_that_stops_early_ends_the_page_quietly():
    """Does `guide PAGE` whose reader has gone (`guide sandbox | head -2`) end with no traceback
    and status 0: nothing is wrong?"""
    reader = subprocess.Popen([sys.executable, "-m", "autograder", "guide", "sandbox"],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader.stdout.close()  # gone before the page is written: the write finds no reader
    _, stderr = reader.communicate(timeout=60)
    assert stderr.decode() == "" and reader.returncode == 0, (reader.returncode, stderr)


def test_the_commands_page_is_every_commands_help():
    """Does `guide commands` print the top-level help and each command's, in English outside
    a course, as the site's reference/commands page does?"""
    text = page_text(find_page("commands"))
    assert text.startswith("# Commands") and "## grade" in text and "## guide" in text
    assert "--list" in text  # guide's own option, from its help
