"""Do imports run one way between the kit's rooms: build -> checks <- grading -> engine ->
sandbox, outputs -> engine?

Read from the source with ast (nothing is imported), so a new module that reaches the wrong
way fails here, naming the module and the import."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "autograder"

# room -> the rooms (and shared top-level modules) it may import from
# (i18n, the course's language and its catalogs, is a leaf every room that speaks may use;
# submission_files, what of a student's folder is read and within which bounds, a leaf of i18n
# alone, is used by every room that reads one; op_record, what a call of a student's code computes
# as data, a leaf of torch alone, and recorder, which makes it in this process (a leaf of
# op_record), by the checks that decide on it, the sandbox that makes it in the kernel and reads it
# back, the grading that asks for it and the build that copies them into notebooks; timeline, where
# a command's time goes, a leaf of the standard library, by the rooms a grading run passes;
# quiet_imports, heavy imports with the garbage collector paused, a leaf of the standard library, by
# the command line, the Gradescope runner and the workers' fork server; kit_font, the CJK font the
# kit ships, a leaf of matplotlib alone, by the build that draws the Chinese figures with it and the
# outputs that draw plots with it and embed it in pages; config_file, the course's
# nbgrader_config.py read with traitlets alone, by course and by the commands that read it before
# their heavy imports; draw_keys, the course's secret and each notebook's draw key, a leaf of
# the ledger, by init, which makes the secret, the grading that draws with them and the
# Gradescope zip that carries the secret; course_access, who besides the instructor may reach
# the course, a leaf of i18n, by init, which makes the course closed, by course, which makes a
# course, and by the command line, which checks it.)
ALLOWED = {
    "i18n": {"i18n", "errors"},
    "checks": {"checks", "recorder", "op_record", "i18n", "errors"},
    "sandbox": {"sandbox", "op_record", "submission_files", "i18n", "timeline"},
    "build": {"build", "checks", "recorder", "op_record", "course", "course_access", "draw_keys",
              "errors", "i18n", "kit_font"},
    "engine": {"engine", "checks", "sandbox", "course", "errors", "stages", "submission_files",
               "i18n", "timeline", "quiet_imports"},
    "grading": {"grading", "engine", "checks", "sandbox", "op_record", "course", "deadlines",
                "draw_keys", "errors",
                "gradebook_engines", "gradebook_guard", "ledger", "progress", "record",
                "shown_outputs", "stages", "submission_files", "i18n", "timeline", ""},
    "outputs": {"outputs", "engine", "checks", "course", "deadlines", "errors", "sandbox",
                "gradebook_guard", "ledger", "progress", "record", "shown_outputs",
                "submission_files", "i18n", "kit_font"},
    # serve sits above grading and outputs, beside the command line: it runs the commands
    # other processes hand it (cli.main) and grades on submit.
    "serve": {"serve", "cli", "grading", "engine", "sandbox", "outputs", "course", "errors",
              "ledger", "i18n"},
    # Gradescope's autograder sits above grading, as the command line does.
    "gradescope": {"gradescope", "grading", "engine", "sandbox", "checks", "course",
                   "config_file", "draw_keys", "errors", "record", "submission_files", "i18n",
                   "quiet_imports", ""},
}


def imported_rooms(path):
    """(line, room) of every import of the autograder package in a module: the room is the
    name after `autograder.` ('' for the package itself)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            if name == "autograder" or name.startswith("autograder."):
                yield node.lineno, name.removeprefix("autograder").lstrip(".").split(".")[0]


MODULES = [(room, path) for room in ALLOWED for path in sorted((PACKAGE / room).rglob("*.py"))]


@pytest.mark.parametrize(("room", "path"), MODULES,
                         ids=[str(p.relative_to(PACKAGE)) for _, p in MODULES])
def test_imports_run_one_way(room, path):
    """Does this module import only from the rooms its own room may use?"""
    wrong = [f"line {line}: autograder.{target}" for line, target in imported_rooms(path)
             if target not in ALLOWED[room]]
    assert not wrong, f"{path.relative_to(PACKAGE)} ({room}/) imports " + ", ".join(wrong)


def test_the_record_knows_only_the_findings_model():
    """Does the record that grading writes and outputs read depend on nothing but the checks'
    Finding (so outputs never reach into grading)?"""
    rooms = {target for _, target in imported_rooms(PACKAGE / "record.py")}
    assert rooms <= {"checks"}
