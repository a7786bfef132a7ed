"""Render an assignment's cell specs as nbgrader's master notebook (source/<id>/<id>.ipynb).

Everything an assignment's cells name comes from its folder (checks/loader.py): the code of
solution and given cells from reference.py, each test cell's step from checks.py, figures
from figures.py, printed values from documents.py."""

from __future__ import annotations

import base64
import re

import nbformat

from autograder.build import cjk, translate
from autograder.build.authoring import AuthoringError
from autograder.build.check_notebook import points
from autograder.build.hand_in import HAND_IN
from autograder.build.printed_values import with_printed_values
from autograder.build.standalone import (
    filled,
    helper_cell_code,
    helper_definitions,
    packed_helper_cell,
)
from autograder.build.stubs import given_code, named_at, solution_code
from autograder.checks.audit import unknown_step
from autograder.checks.code_rules import bound_names, course_key, statements
from autograder.checks.loader import GUIDE
from autograder.course.directory import HELPER_CELL
from autograder.i18n import DEFAULT, language, t

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
# The notebook's own record of the course language it was built in (metadata "kit":
# {"language": ...}): the one place a course's language survives the loss of its config.
KIT_METADATA = "kit"
# The hidden part opens the test cell and names the step it checks. Grading never runs a test
# cell: GradeInSandbox reads that name and judges the step in the grader. When the master
# notebook runs by itself (an instructor in Jupyter), the hidden part runs first, so a known
# mistake is named even when a public assert below it would fail. The release keeps only the
# public part.
HIDDEN_TESTS = (
    "### BEGIN HIDDEN TESTS\n"
    "from autograder.checks.hidden import check_step, use_references\n"
    "{prologue}"
    'check_step("{name}", globals())\n'
    "### END HIDDEN TESTS"
)
RUNS_ALONE = "graded on its own"
RUNS_ALONE_WHY = ("grading runs the course's cells, then only the code of yours that defines "
                  "this step and the names it uses: keep all of it in the notebook and import "
                  "no .py file of your own")
USE_REFERENCES = 'use_references("{name}", globals())\n'
# The first line of every test cell, in the master and in the release: what the step is worth.
TEST_HEADER = ("# {name}: {points}. Below are the public checks; grading checks the same "
               "requirements on other inputs too.")
# A markdown line `![what it shows](figure:NAME)` embeds the drawing NAME of the assignment's
# figures.py (drawn with build/figures.py's toolkit).
FIGURE = re.compile(r"\]\(figure:(\w+)\)")


def nbgrader_metadata(grade_id, *, solution=False, grade=False, locked=False, points=None):
    meta = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": locked,
        "schema_version": 3,
        "solution": solution,
        "task": False,
    }
    if points is not None:
        meta["points"] = points
    return {"nbgrader": meta}


def total_points(specs):
    return sum(spec.points for spec in specs if spec.kind == "tests")


def render(specs, assignment, language_code=DEFAULT):
    """The master notebook of `assignment` (checks/loader.py) in the course's language:
    prose, read-only setup, solution cells, graded test cells and the hand-in instructions."""
    with language(language_code):
        cells = []
        total = total_points(specs)
        for index, spec in enumerate(specs):
            cells.append(render_cell(spec, index, total, assignment, language_code))
        cells.append(hand_in_cell(assignment.id, total, language_code))
        with_course_keys(cells, assignment)  # the mistakes' names and hints in the language
    cjk.check_unwrapped(cells, assignment.notebook)
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata = {
        "kernelspec": KERNELSPEC,
        "language_info": {"name": "python"},
        KIT_METADATA: {"language": language_code},  # what `init --config-only` reads back
    }
    for cell in notebook.cells:
        cell.pop("id", None)
    notebook.nbformat_minor = 4
    return notebook


def with_course_keys(cells, assignment):
    """Write into the helper cell the earlier steps each step calls (so that a failed test
    cell names the one to fix first), the hints of the known mistakes the cells name (so
    that a public check gives the grader's hint), then the keys of the course's code cells
    (all but the solution cells), so that expect_rule leaves them out of the student's code
    as grading does (a cell's key leaves out the COURSE_CELLS line itself). And the names of
    the helper cell's own code that grading removes before a step's code runs
    (code_rules.COURSE_HELPERS): all but those another cell of the course or a step binds."""
    helper = [cell for cell in cells
              if cell.metadata.get("nbgrader", {}).get("grade_id") == HELPER_CELL]
    uses = {name: list(step.uses) for name, step in assignment.steps.items() if step.uses}
    hints = named_mistake_hints(cells, assignment)
    for cell in helper:
        cell.source = filled(cell.source, "STEP_USES", repr(uses))
        cell.source = filled(cell.source, "MISTAKE_HINTS", repr(hints))
        forgotten = sorted(helper_definitions(cell.source) - course_bindings(
            [other for other in cells if other is not cell], assignment))
        cell.source = filled(cell.source, "COURSE_HELPERS", f"frozenset({forgotten!r})")
    keys = sorted(course_key(cell.source) for cell in cells if cell.cell_type == "code"
                  and not cell.metadata.get("nbgrader", {}).get("solution"))
    for cell in helper:
        cell.source = filled(cell.source, "COURSE_CELLS", f"frozenset({keys!r})")


def course_bindings(cells, assignment):
    """The names the course's code cells (not the solution cells) bind at top level, and the
    steps' names: what a student's code may read that is not the helper cell's."""
    names = set(assignment.steps)
    for cell in cells:
        if cell.cell_type == "code" and not cell.metadata.get("nbgrader", {}).get("solution"):
            names.update(name for node, _ in statements([cell.source], texts=False)
                         for name in bound_names(node))
    return names


def named_mistake_hints(cells, assignment):
    """{name: hint} of each catalogued mistake a code cell quotes by name, both in the
    course's language, so that a public check names the mistake as the grader does."""
    code = "".join(cell.source for cell in cells if cell.cell_type == "code")
    return {t(mistake.name): t(mistake.hint) for step in assignment.steps.values()
            for mistake in step.mistakes if mistake.hint
            and any(f"{quote}{t(mistake.name)}{quote}" in code for quote in "'\"")}


def render_cell(spec, index, total, assignment, language_code):
    if spec.kind == "markdown":
        text = cjk.joined(translate.markdown_text(spec, assignment.notebook, language_code))
        return markdown_cell(text.replace("{total_points}", str(total)),
                             nbgrader_metadata(f"prose_{index:02d}", locked=True), assignment)
    if spec.kind == "checks":
        cell = code_cell(packed_helper_cell(helper_cell_code(language_code), language_code),
                         nbgrader_metadata(HELPER_CELL, locked=True))
        cell.metadata["jupyter"] = {"source_hidden": True}  # shown folded: one click opens it
        return cell
    text, metadata = code_and_metadata(spec, index, assignment, language_code)
    text = translate.code_text(spec, text, assignment.notebook, language_code)
    return code_cell(with_printed_values(text, assignment), metadata)


def code_and_metadata(spec, index, assignment, language_code):
    """A code cell's English text and nbgrader metadata."""
    if spec.kind == "setup":
        return spec.text, nbgrader_metadata(f"setup_{index:02d}", locked=True)
    if spec.kind == "given":
        meta = nbgrader_metadata(f"given_{'_'.join(spec.names)}", locked=True)
        return given_code(spec.names, assignment, named_at(spec, assignment)), meta
    if spec.kind == "solution":
        return (solution_code(spec.names, assignment, named_at(spec, assignment)),
                nbgrader_metadata(spec.names[0], solution=True))
    if spec.kind == "tests":
        meta = nbgrader_metadata(f"test_{spec.names[0]}", grade=True, locked=True,
                                 points=spec.points)
        return test_code(spec, assignment, language_code), meta
    return spec.text, {}


def test_code(spec, assignment, language_code):
    """A graded cell: what it is worth, the hidden part, the public asserts, the rules."""
    name = spec.names[0]
    step = assignment.steps.get(name)
    if step is None:
        raise AuthoringError(unknown_step(f"{assignment.notebook}:{spec.line}", name,
                                          assignment))
    prologue = USE_REFERENCES.format(name=name) if step.uses else ""
    header = "# " + t(TEST_HEADER.removeprefix("# "), name=name,
                      points=points(spec.points, language_code))
    public = translate.mistake_names(spec.text, step, language_code)
    text = (header + "\n" + HIDDEN_TESTS.format(name=name, prologue=prologue) + "\n"
            + recording(step) + public + rule_checks(step))
    return text.strip("\n")


def recording(step):
    """The line that opens the public part of a step with rules on operations: from there
    on, the cell's calls of the step are recorded for its expect_rule lines
    (checks/operation_rules.py), as grading records its hidden cases' calls."""
    if not step.recorded:
        return ""
    arguments = "".join(f", {key}={value!r}" for key, value in
                        (("uses", list(step.uses)), ("counted", step.counted),
                         ("measure", step.measured is not None)) if value)
    return (f"record_calls({step.name}{arguments})  # "
            + t("what your code computes below, for the step's rules") + "\n")


def hand_in_cell(assignment_id, total, language_code):
    """The notebook's last cell: how to check, how to hand in, what is graded."""
    text = HAND_IN[language_code].strip().format(
        assignment=assignment_id, notebook=f"{assignment_id}.ipynb",
        total_points=points(total, language_code))
    return markdown_cell(text, nbgrader_metadata("hand_in", locked=True))


def markdown_cell(text, metadata, assignment=None):
    """A markdown cell; each `![...](figure:NAME)` becomes the assignment's drawing NAME,
    attached."""
    names = FIGURE.findall(text)
    cell = nbformat.v4.new_markdown_cell(FIGURE.sub(r"](attachment:\1.png)", text),
                                         metadata=metadata)
    if names:
        from autograder.build.figures import png  # matplotlib only when a cell has a figure

        drawings = figures_of(assignment)
        unknown = sorted(set(names) - set(drawings))
        if unknown:
            raise AuthoringError(
                f"{assignment.notebook}: no figure named {', '.join(unknown)}; the figures of "
                f"{assignment.folder / 'figures.py'} are {', '.join(sorted(drawings)) or 'none'} "
                f"(FIGURES = {{name: function drawing it}}; {GUIDE})")
        cell.attachments = {
            f"{name}.png": {"image/png": base64.b64encode(png(drawings[name])).decode("ascii")}
            for name in dict.fromkeys(names)}
    return cell


def figures_of(assignment):
    """{name: drawing function} of the assignment's figures.py (empty without one)."""
    module = assignment.module("figures") if assignment is not None else None
    return dict(getattr(module, "FIGURES", {}) or {})


def rule_checks(step):
    """The public check of each of the step's rules: the grader's decision, made in plain
    Jupyter on the student's code (checks/code_rules.py), so no rule is a surprise."""
    publics = [(RUNS_ALONE, ("runs_alone", [], RUNS_ALONE_WHY), None)] + \
        [(rule.name, rule.public, rule.probe) for rule in step.rules]
    uses = f", uses={list(step.uses)!r}" if step.uses else ""
    lines = [f"expect_rule({step.name}, {kind!r}, {params!r}, {t(name)!r}, {t(why)!r}{uses}"
             + (f", probe={probe!r}" if probe else "") + f", name={step.name!r})"
             for name, (kind, params, why), probe in publics]
    heading = "# " + t("The step's rules, as grading checks them:")
    return "\n" + heading + "\n" + "\n".join(lines) if lines else ""


def code_cell(text, metadata):
    return nbformat.v4.new_code_cell(text, metadata=metadata)
