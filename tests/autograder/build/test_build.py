"""Are source/ and release/ what the course's assignments/ make, and do they keep secrets?"""

from __future__ import annotations

import json
import re

import nbformat
import pytest

import solutions
from autograder.build import build, master_notebook
from autograder.build.authoring import AuthoringError, read_assignment
from autograder.build.stubs import BEGIN, END, fenced_source
from autograder.checks.loader import assignment_ids
from autograder.course.directory import UnknownAssignment, check_ids
from tests.course import ASSIGNMENTS, IDS, ROOT


def committed(folder, assignment_id):
    return json.loads((ROOT / folder / assignment_id / f"{assignment_id}.ipynb").read_text())


def test_every_assignment_is_built():
    """Is there a master notebook in source/ for each assignment folder of the course, and
    no other? (tests/solutions/test_contract.py holds the list against the course contract.)"""
    assert IDS == sorted(p.name for p in (ROOT / "source").iterdir() if p.is_dir())


@pytest.mark.parametrize("assignment_id", IDS)
def test_committed_source_is_fresh(assignment_id):
    """Is source/<id>/<id>.ipynb exactly what assignments/<id>/ renders?"""
    rendered = json.loads(nbformat.writes(master_notebook(ROOT, assignment_id)))
    assert rendered == committed("source", assignment_id), (
        f"source/{assignment_id} is stale: run `python -m autograder build {assignment_id}`"
    )


BOILERPLATE = {"super().__init__()", "with torch.no_grad():"}


def solution_lines(names):
    """The distinctive lines of the reference bodies a notebook's solution cells fence."""
    lines = set()
    for name in names:
        inside = False
        for line in fenced_source(getattr(solutions, name)).splitlines():
            if line.strip() == BEGIN:
                inside = True
            elif line.strip() == END:
                inside = False
            elif inside and len(line.strip()) > 12 and not line.strip().startswith("#"):
                lines.add(line.strip())
    return lines


@pytest.mark.parametrize("assignment_id", IDS)
def test_release_holds_no_solution_and_no_hidden_test(assignment_id):
    """Does the student notebook lack every solution line and every trace of hidden tests?"""
    release = committed("release", assignment_id)
    text = "\n".join("".join(cell["source"]) for cell in release["cells"])
    for secret in ("BEGIN HIDDEN", "check_step", "use_references", "autograder", BEGIN):
        assert secret not in text, f"release/{assignment_id} contains {secret!r}"
    specs = read_assignment(ASSIGNMENTS[assignment_id].notebook)
    names = [n for spec in specs if spec.kind == "solution" for n in spec.names]
    code = "\n".join(
        "".join(cell["source"]) for cell in release["cells"] if cell["cell_type"] == "code"
    )
    # The hints of the known mistakes the public tests name are the grader's words to a student
    # who makes one ("call torch.manual_seed(seed) before making it"), not the solution.
    code = re.sub(r"^MISTAKE_HINTS = .*$", "", code, flags=re.MULTILINE)
    leaked = [line for line in solution_lines(names) - BOILERPLATE if line in code]
    assert not leaked, f"release/{assignment_id} shows solution lines: {leaked[:3]}"


@pytest.mark.parametrize("assignment_id", IDS)
def test_release_stubs_raise(assignment_id):
    """Does every solution cell of the release end in nbgrader's NotImplementedError stub?"""
    release = committed("release", assignment_id)
    for cell in release["cells"]:
        if cell["metadata"].get("nbgrader", {}).get("solution"):
            assert "raise NotImplementedError()" in "".join(cell["source"])


@pytest.mark.parametrize("assignment_id", IDS)
def test_total_points_stated_at_the_top(assignment_id):
    """Does the first cell state the notebook's total, equal to the sum of its test cells?"""
    notebook = committed("source", assignment_id)
    total = sum(
        cell["metadata"]["nbgrader"].get("points", 0)
        for cell in notebook["cells"]
        if cell["metadata"].get("nbgrader", {}).get("grade")
    )
    assert f"Total: {total} points" in "".join(notebook["cells"][0]["source"])


def test_fenced_source_keeps_signature_and_docstring():
    """Does fencing keep a function's signature and docstring outside the solution?"""
    code = fenced_source(solutions.context_vectors)
    head, body = code.split(BEGIN)
    assert head.startswith("def context_vectors(weights, values):")
    assert '"""' in head and "weights @ values" in body and body.rstrip().endswith(END)


def test_fenced_source_fences_each_method():
    """Does a class get one fenced region per method, its decorators kept?"""
    code = fenced_source(solutions.SelfAttention)
    assert code.count(BEGIN) == 2 and code.count(END) == 2
    assert code.index("def __init__") < code.index(BEGIN)


def outer_with_a_helper_inside(x):
    """A solution that defines a helper in its body."""
    def twice(y):
        """The helper's own docstring."""
        return 2 * y
    return twice(x)


def test_fenced_source_fences_a_function_once_whatever_it_defines_inside():
    """Does a solution that defines a function in its body get one fence (a fence inside
    another is refused by nbgrader), its inner helper hidden with the rest of the body?"""
    code = fenced_source(outer_with_a_helper_inside)
    assert code.count(BEGIN) == 1 and code.count(END) == 1
    assert code.index(BEGIN) < code.index("def twice") < code.index(END)


def write(tmp_path, text):
    path = tmp_path / "99_example.py"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("import torch\n# %% setup\n", "must start with"),
        ("# %% sollution x\n", "unknown cell marker"),
        ("# %% solution project\nreturn x @ W\n", "leave its body empty"),
        ("# %% tests project\nassert True\n", "points=N"),
        ("# %% given\n", "needs the name"),
        ("# %% [markdown]\nnot a comment\n", "must start with '# '"),
    ],
)
def test_authoring_errors_name_the_line_and_the_fix(tmp_path, text, complaint):
    """Is a malformed authoring file refused with its path, line and what to write?"""
    path = write(tmp_path, text)
    with pytest.raises(AuthoringError, match=complaint) as error:
        read_assignment(path)
    assert str(path) in str(error.value)


def test_unknown_assignment_id_lists_the_known_ones():
    """Does asking for an unknown id say which ids exist?"""
    with pytest.raises(UnknownAssignment, match="01_attention_by_hand"):
        check_ids(["99_nope"], assignment_ids(ROOT))


def test_an_unknown_id_in_a_course_without_assignments_says_how_to_add_one():
    """In a course with no assignment yet, does an unknown id point to `new`?"""
    with pytest.raises(UnknownAssignment, match="no assignment yet.*new 08_positions"):
        check_ids(["08_positions"], [])


def test_a_build_keeps_the_instructor_s_own_files(tmp_path):
    """A data file the instructor put in source/<id>/ and another in release/<id>/: does a
    build again keep both, and release the source's one, as nbgrader does?"""
    from autograder.build.course_folder import init_course

    course = init_course(tmp_path / "course", "en", ["02_embeddings"], log=lambda line: None)
    source, release = course / "source" / "02_embeddings", course / "release" / "02_embeddings"
    (source / "data").mkdir()
    (source / "data" / "words.txt").write_text("mine\n")
    (release / "handout.txt").write_text("also mine\n")
    assert build(course, ["02_embeddings"], log=lambda line: None)
    assert (source / "data" / "words.txt").read_text() == "mine\n"
    assert (release / "data" / "words.txt").read_text() == "mine\n"
    assert (release / "handout.txt").read_text() == "also mine\n"
    assert (release / "02_embeddings.ipynb").is_file()


def test_a_notebook_changed_since_its_build_is_kept_before_it_is_written_anew(tmp_path):
    """An nbgrader user edits source/<id>/<id>.ipynb by hand: does the next build say so and
    keep the edited notebook in .kit/replaced/ before writing it anew, and keep quiet when
    nothing was edited (and on a course's first build, which has no record)?"""
    from autograder.build.course_folder import init_course

    course = init_course(tmp_path / "course", "en", ["02_embeddings"], log=lambda line: None)
    notebook = course / "source" / "02_embeddings" / "02_embeddings.ipynb"
    said = []
    build(course, ["02_embeddings"], log=said.append)
    assert not [line for line in said if "changed since build wrote it" in line], said
    edited = notebook.read_text(encoding="utf-8").replace("From words to vectors",
                                                          "Words as vectors", 1)
    assert edited != notebook.read_text(encoding="utf-8")
    notebook.write_text(edited, encoding="utf-8")
    said.clear()
    build(course, ["02_embeddings"], log=said.append)
    [warning] = [line for line in said if "changed since build wrote it" in line]
    kept = next((course / ".kit" / "replaced").glob("*/source/02_embeddings/02_embeddings.ipynb"))
    assert kept.read_text(encoding="utf-8") == edited and str(kept) in warning
    assert notebook.read_text(encoding="utf-8") != edited
    said.clear()
    build(course, ["02_embeddings"], log=said.append)
    assert not [line for line in said if "changed since build wrote it" in line], said


def test_a_name_reference_py_lacks_is_refused_at_the_line_that_names_it(tmp_path):
    """A solution cell of notebook.py naming a function reference.py does not define: is the
    build refused naming reference.py, the name, and notebook.py's line that names it?"""
    from autograder.build.course_folder import init_course
    from autograder.checks.loader import AssignmentError

    course = init_course(tmp_path / "course", "en", ["02_embeddings"], log=lambda line: None)
    notebook = course / "assignments" / "02_embeddings" / "notebook.py"
    lines = notebook.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("# %% solution "))
    lines[number - 1] += " no_such_function"
    notebook.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(AssignmentError) as refused:
        build(course, ["02_embeddings"], log=lambda line: None)
    said = str(refused.value)
    assert "reference.py has no 'no_such_function'" in said, said
    assert f"as {notebook}:{number} names it" in said, said


def test_a_gradebook_without_tables_is_left_without_them(tmp_path):
    """A course whose gradebook is an empty database (a new PostgreSQL database, here an
    empty SQLite file): does asking what it recorded of a release make none of nbgrader's
    tables in it, and answer that it recorded nothing?"""
    import shutil
    import sqlite3

    from autograder.build import changed_in_gradebook

    (tmp_path / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.CourseDirectory.db_url = 'sqlite:///{tmp_path / 'gb.db'}'\n")
    sqlite3.connect(tmp_path / "gb.db").close()
    shutil.copytree(ROOT / "release" / "01_attention_by_hand",
                    tmp_path / "release" / "01_attention_by_hand")
    assert changed_in_gradebook(tmp_path, "01_attention_by_hand") == []
    with sqlite3.connect(tmp_path / "gb.db") as db:
        assert db.execute("SELECT name FROM sqlite_master").fetchall() == []
