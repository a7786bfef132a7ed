"""Is the engine a house of named rooms, its imports running one way: does every module sit in
a room (nothing loose at the top but the package's __init__.py, __main__.py and the command
line), every room import only the rooms before it in the package's declared order, and no
room reach past what it is held to?

Read from the source with ast (nothing is imported), so a new module that reaches the wrong
way fails here, naming the module and the import."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "autograder"
TOP = {"__init__.py", "__main__.py", "cli.py", "docs", "__pycache__"}  # docs/: the guide's text


def declared_rooms():
    """The rooms in the order autograder/__init__.py declares them (ROOMS), bottom first."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    return next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                and getattr(node.targets[0], "id", "") == "ROOMS")


ROOMS = declared_rooms()

# What a room is held to, finer than the order: each names the rooms (or single modules of a
# room, dotted) it may import besides its own. The sandbox runs in the kernel's template and
# the kernel: it takes only the record of what a call computes (checks.op_record), which files
# of a submission it may read (course.submission_files), and the timeline. The checks are the
# content's library: the course and the grading machinery stay out of them. serve relays
# commands the command line hands it (its runner, a parameter) and never imports it. The
# course's secret says how its generators are seeded (checks.draws, torch-free at import);
# update compares the assignments a folder holds (checks.loader.ids_in).
HELD_TO = {
    "plumbing": set(),
    "i18n": {"plumbing.errors", "plumbing.kit_command"},
    "checks": {"i18n", "plumbing.errors", "plumbing.course_root"},
    "course": {"checks.model", "checks.draws", "checks.loader", "i18n", "plumbing"},
    "sandbox": {"checks.op_record", "course.submission_files", "i18n", "plumbing"},
    "build": {"checks", "course", "i18n", "plumbing"},
    "engine": {"checks", "course", "sandbox", "i18n", "plumbing"},
    "grading": {"engine", "checks", "course", "sandbox", "i18n", "plumbing", ""},
    "outputs": {"engine", "checks", "course", "i18n", "plumbing"},
    "serve": {"grading", "engine", "sandbox", "outputs", "course", "i18n", "plumbing"},
    "gradescope": {"grading", "engine", "sandbox", "checks", "course", "i18n", "plumbing", ""},
    "tools": {"build", "checks", "course", "grading", "outputs", "sandbox", "i18n", "plumbing"},
}


def imported(path):
    """(line, name) of every import of the autograder package in a module, anywhere in it (at
    its top or in a function): the name after `autograder.`, down to the name imported
    ('' for the package itself), e.g. 'checks.op_record.new_record'."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            if name == "autograder" or name.startswith("autograder."):
                yield node.lineno, name.removeprefix("autograder").lstrip(".")


def room_of(name):
    return name.split(".")[0]


def may_import(room, name):
    """May a module of `room` import `name` (as imported() gives it)?"""
    return room_of(name) == room or any(name == held or name.startswith(held + ".")
                                        for held in HELD_TO[room] if held) \
        or (name == "" and "" in HELD_TO[room])


MODULES = [(room, path) for room in HELD_TO for path in sorted((PACKAGE / room).rglob("*.py"))]


def test_nothing_is_loose_at_the_top():
    """Is every entry at the engine's top a room the package declares, or one of the three
    files that stay there (__init__.py, __main__.py, the command line)?"""
    loose = sorted(entry.name for entry in PACKAGE.iterdir()
                   if entry.name not in TOP and entry.name not in ROOMS)
    assert not loose, f"loose at autograder/'s top: {loose}; put each in a room"
    folders = {entry.name for entry in PACKAGE.iterdir() if entry.is_dir()} - TOP
    assert folders == set(ROOMS) - {"cli"}, folders ^ (set(ROOMS) - {"cli"})


@pytest.mark.parametrize("room", sorted(HELD_TO))
def test_every_room_says_what_it_holds(room):
    """Does the room's __init__.py open with a docstring that says what the room holds?"""
    docstring = ast.get_docstring(ast.parse((PACKAGE / room / "__init__.py").read_text("utf-8")))
    assert docstring and len(docstring.split()) >= 8, f"{room}/__init__.py says nothing"


def test_what_a_room_is_held_to_runs_down_the_order():
    """Is every room a room may import declared before it in ROOMS (so no two rooms import each
    other), and is the command line, on top, the only room not held to a list?"""
    assert set(HELD_TO) == set(ROOMS) - {"cli"} and ROOMS[-1] == "cli"
    against = [(room, held) for room, names in HELD_TO.items() for held in names
               if held and ROOMS.index(room_of(held)) >= ROOMS.index(room)]
    assert not against, f"declared against the order of the rooms: {against}"


@pytest.mark.parametrize(("room", "path"), MODULES,
                         ids=[str(p.relative_to(PACKAGE)) for _, p in MODULES])
def test_imports_run_one_way(room, path):
    """Does this module import only its own room and what its room is held to (so nothing
    climbs back up the order)?"""
    wrong = [f"line {line}: autograder.{name}" for line, name in imported(path)
             if not may_import(room, name)]
    assert not wrong, f"{path.relative_to(PACKAGE)} ({room}/) imports " + ", ".join(wrong)


def module_graph():
    """Every module of the package -> the modules of the package it imports, anywhere in it
    (importing a package's name imports that package's __init__)."""
    names = {".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
             .removesuffix(".__init__"): path for path in PACKAGE.rglob("*.py")}
    graph = {}
    for module, path in names.items():
        graph[module] = set()
        for _, name in imported(path):
            target = f"autograder.{name}".rstrip(".")
            while target not in names:
                target = target.rpartition(".")[0]
            if target != module:
                graph[module].add(target)
    return graph


def a_circle(graph):
    """One circle of imports in `graph` (a list of modules, the first again at its end), or
    None."""
    done, path = set(), []

    def visit(module):
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return None
        path.append(module)
        for target in sorted(graph[module]):
            found = visit(target)
            if found:
                return found
        path.pop()
        done.add(module)
        return None

    for module in sorted(graph):
        found = visit(module)
        if found:
            return found
    return None


def test_no_module_imports_itself_round_a_circle():
    """Do the package's imports, the late ones inside functions too, form no circle (as the
    command line and serve's commands once did: cli imported serve, which imported cli)?"""
    circle = a_circle(module_graph())
    assert circle is None, "imports run in a circle: " + " -> ".join(circle)


def test_the_circle_finder_finds_a_circle():
    """Does a_circle find the command line's old circle, and none where imports run one way?"""
    assert a_circle({"cli": {"serve"}, "serve": {"cli"}}) == ["cli", "serve", "cli"]
    assert a_circle({"cli": {"serve", "course"}, "serve": {"course"}, "course": set()}) is None


def test_the_record_knows_only_the_findings_model():
    """Does the record that grading writes and outputs read depend on nothing but the checks'
    Finding (so outputs never reach into grading)?"""
    names = {name for _, name in imported(PACKAGE / "course" / "notebook_record.py")}
    assert all(name.startswith("checks.model") for name in names), names
