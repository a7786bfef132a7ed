"""What the build proves before it writes an assignment (as otter's assign runs the tests
against the solution before it succeeds: a public test nothing has run is a guess):

1. every test cell names a step the assignment's checks declare (render refuses one that
   does not, naming notebook.py's line);
2. every step's hidden checks pass the reference and draw fresh inputs (checks/audit.py);
3. the reference passes the public tests: the student version with the reference's code in
   its solution cells runs in a fresh kernel, as the students' check_notebook.py runs it,
   without an error in any cell;
4. every value a public test types for a known mistake (`expect_close(..., mistakes=[("name",
   value)])`, or expect_equal) is what that Mistake's code in checks.py computes: in the same
   kernel, once every cell has run, the step's solution is replaced by the Mistake's code,
   the test cell runs again, and each check that types the mistake must name it (a wrong
   typed value would give students who make that mistake a generic failure instead).

A failure is a ProofError of one line per problem, each naming the file, its line and the fix.
"""

from __future__ import annotations

import ast
import copy
import json
import re
import shutil
import tempfile
from pathlib import Path

import nbformat

from autograder.build.check_notebook import error_of, run
from autograder.checks.audit import step_problems
from autograder.i18n import DEFAULT, catalog, t
from autograder.plumbing.errors import KitError

CELL_SECONDS = 120  # one cell of the reference's run; an endless loop is an error too
SOLUTION_FENCE = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n", re.MULTILINE)


class ProofError(KitError, ValueError):
    """An assignment the build will not write: its checks or its public tests are unfit."""


def solution_cells(master):
    """{grade_id: the solution cell's code as a student who solved it writes it}."""
    return {cell.metadata["nbgrader"]["grade_id"]: SOLUTION_FENCE.sub("", cell.source)
            for cell in master.cells if cell.metadata.get("nbgrader", {}).get("solution")}


def solved(release, master):
    """The student notebook with each solution cell holding the reference's code."""
    answers = solution_cells(master)
    notebook = copy.deepcopy(release)
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.metadata.get("nbgrader", {}).get("solution") and grade_id in answers:
            cell.source = answers[grade_id]
    return notebook


# Appended to the solved notebook: runs a test cell with a Mistake's code in place of the
# step's solution. A check that types the mistake names it when its message with that mistake
# differs from its message without (so the check's own words, in any language, decide).
MISTAKE_PROBE = r'''
def _kit_mistake_probe(mistake_code, test_code, solution_code, name):
    import json as _json
    import sys as _sys
    import traceback as _traceback
    space = globals()
    strict = {kind: space[kind] for kind in ("expect_close", "expect_equal", "expect_tensor",
                                             "expect_rule") if kind in space}
    calls = []

    def said(kind, *args):
        space.update(strict)  # the checks call one another: the real ones, while one runs
        try:
            strict[kind](*args)
            return None
        except Exception as error:
            return str(error)
        finally:
            space.update(probing)

    def compared(kind):
        def check(got, expected, what=None, mistakes=()):
            for typed, wrong in mistakes:
                if typed == name:
                    named = said(kind, got, expected, what, [(typed, wrong)])
                    plain = said(kind, got, expected, what, ())
                    calls.append({"what": str(what), "said": named, "line": test_line(),
                                  "named": named not in (None, plain)})
        return check

    def test_line(frame=None):
        frame = frame or _sys._getframe(1)
        while frame is not None and frame.f_code.co_filename != "<test>":
            frame = frame.f_back
        return frame.f_lineno if frame is not None else None

    def quiet(kind):
        def check(*args, **kwargs):
            space.update(strict)
            try:
                strict[kind](*args, **kwargs)
            except AssertionError:
                pass
            finally:
                space.update(probing)
        return check

    probing = {kind: (compared if kind in ("expect_close", "expect_equal") else quiet)(kind)
               for kind in strict}
    space.update(probing)
    error, line = None, None
    try:
        exec(compile("import math, string, torch\nimport torch.nn.functional as F\n"
                     "from torch import nn\n" + mistake_code, "<mistake>", "exec"), space)
        exec(compile(test_code, "<test>", "exec"), space)
    except BaseException as raised:
        error = f"{type(raised).__name__}: {raised}"
        line = next((f.lineno for f in _traceback.extract_tb(raised.__traceback__)
                     if f.filename == "<test>"), None)
    finally:
        space.update(strict)
        exec(compile(solution_code, "<solution>", "exec"), space)
    print("KIT-MISTAKE " + _json.dumps({"calls": calls, "error": error, "line": line}))
'''
MARK = "KIT-MISTAKE "


def typed_mistakes(source):
    """The names of the mistakes a test cell types: mistakes=[("name", value), ...] written out
    in a call (a list built elsewhere is not read)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    names = []
    for node in ast.walk(tree):
        for keyword in node.keywords if isinstance(node, ast.Call) else ():
            if keyword.arg == "mistakes" and isinstance(keyword.value, ast.List | ast.Tuple):
                names += [item.elts[0].value for item in keyword.value.elts
                          if isinstance(item, ast.Tuple) and item.elts
                          and isinstance(item.elts[0], ast.Constant)
                          and isinstance(item.elts[0].value, str)]
    return names


def tested_step(cell):
    meta = cell.metadata.get("nbgrader", {})
    return str(meta.get("grade_id", "")).removeprefix("test_") if meta.get("grade") else None


def solution_of(step, answers):
    """The solution cell's code that defines the step."""
    if step in answers:
        return answers[step]
    pattern = re.compile(rf"^(?:def|class) {re.escape(step)}\b", re.MULTILINE)
    return next((code for code in answers.values() if pattern.search(code)), "")


def mistake_probes(assignment, notebook, answers, where, code=DEFAULT):
    """Append to `notebook` a cell per mistake a test cell types (run after every cell);
    return [(the cell, step, name, the test cell's index)] and the lines of names that
    checks.py's step does not list. A name is read in the notebook's language `code`
    (a Chinese course's test cells quote the Chinese names), whatever the console's."""
    words = catalog(code) if code != DEFAULT else {}
    probes, unknown = [], []
    for index, cell in enumerate(list(notebook.cells)):
        step = tested_step(cell)
        if step not in assignment.steps:
            continue
        listed = assignment.steps[step].mistakes
        for name in typed_mistakes(cell.source):
            mistake = next((m for m in listed if name in (m.name, words.get(m.name))), None)
            if mistake is None:
                unknown.append(t("{where}: the public test of {step} types a value for the "
                                 "mistake {name!r}, which {step}'s mistakes in checks.py do not "
                                 "list ({listed}); name one of them as Mistake(...) spells it, "
                                 "or add it there", where=where(index), step=step, name=name,
                                 listed=", ".join(repr(m.name) for m in listed) or "-"))
                continue
            if not probes:
                notebook.cells.append(nbformat.v4.new_code_cell(MISTAKE_PROBE))
            code = (f"_kit_mistake_probe({mistake.code!r}, {cell.source!r}, "
                    f"{solution_of(step, answers)!r}, {name!r})")
            probe = nbformat.v4.new_code_cell(code)
            notebook.cells.append(probe)
            probes.append((probe, step, name, index))
    return probes, unknown


def mistake_problems(probes, where):
    """One line per typed mistake value its Mistake's code does not give (see above); `where`
    names the authoring file's line of a test cell's index and a line in that cell."""
    problems = []
    for cell, step, name, index in probes:
        text = "".join(o.get("text", "") for o in cell.get("outputs", [])
                       if o.get("output_type") == "stream")
        found = [line[len(MARK):] for line in text.splitlines() if line.startswith(MARK)]
        if not found:
            problems.append(t("{where}: the public test of {step} could not be run with the "
                              "code of the mistake {name!r} (checks.py); check that the "
                              "Mistake's code defines {step}", where=where(index), step=step,
                              name=name))
            continue
        result = json.loads(found[-1])
        if result["error"]:
            where_error = where(index, result.get("line"))
            problems.append(t("{where}: with the code of the mistake {name!r} (checks.py) in "
                              "place of {step}, the public test stops before its checks: "
                              "{error}; make the test reach its check of that mistake, or fix "
                              "the Mistake's code", where=where_error, name=name, step=step,
                              error=result["error"]))
        for call in result["calls"]:
            if call["named"]:
                continue
            said = call["said"] or t("it passes: the mistake gives the expected value on "
                                     "this input")
            problems.append(t("{where}: the value the public test of {step} types for the "
                              "known mistake {name!r} ({what}) is not what that Mistake's "
                              "code in checks.py computes; with it the check says: {said}. "
                              "Type the value the mistake gives on this input, or fix the "
                              "Mistake's code", where=where(index, call.get("line")),
                              step=step, name=name, what=call["what"], said=said))
        if not result["error"] and not result["calls"]:
            problems.append(t("{where}: the public test of {step} names the mistake {name!r} "
                              "in no expect_close or expect_equal call that runs",
                              where=where(index), step=step, name=name))
    return problems


LOOK_AHEAD = 5  # rendered lines read past a rewritten one (a statement's next lines)
CELL_FRAME = re.compile(r"Cell In\[\d+\], line (\d+)")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def failing_line(cell):
    """The line of the cell's own code that raised its error (the outermost frame of the
    cell in IPython's traceback), or None."""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            found = CELL_FRAME.search(ANSI.sub("", "\n".join(output.get("traceback", []))))
            return int(found[1]) if found else None
    return None


def authored_line(path, header, cell_source, line):
    """The line of the authoring file `path` that wrote line `line` of a rendered cell whose
    `# %%` header is line `header`. The build may rewrite a line (a printed value filled in)
    and adds lines above the author's, so the nearest rendered line at or after `line` that
    the cell's authored lines hold once places it; the header itself when none does or `line`
    is None."""
    rendered = cell_source.splitlines()
    if not line or not 0 < line <= len(rendered):
        return header
    authored = Path(path).read_text(encoding="utf-8").splitlines()
    cell = []  # (line number, text) of the authored cell below its header
    for number in range(header, len(authored)):  # authored[header] follows the header line
        if authored[number].startswith("# %%"):
            break
        cell.append((number + 1, authored[number].strip()))
    for after, text in enumerate(r.strip() for r in rendered[line - 1:line - 1 + LOOK_AHEAD]):
        places = [number for number, written in cell if written == text]
        if text and len(places) == 1:
            return places[0] - after
    return header


def public_test_failures(assignment, specs, master, release_folder: Path, code=DEFAULT):
    """One line per cell of the solved student notebook that fails in a fresh kernel; when
    none fails, one per typed mistake value that its Mistake's code does not give."""
    path = release_folder / f"{assignment.id}.ipynb"
    notebook = solved(nbformat.read(path, as_version=4), master)
    lines = [spec.line for spec in specs]  # the release keeps the authoring file's cells
    count = len(notebook.cells)

    def where(index, line=None):
        header = lines[index] if index < len(lines) else 1
        found = authored_line(assignment.notebook, header, notebook.cells[index].source, line)
        return f"{assignment.notebook}:{found}"

    probes, unknown = mistake_probes(assignment, notebook, solution_cells(master), where,
                                     code)
    with tempfile.TemporaryDirectory(prefix="kit-proof-") as scratch:
        folder = Path(scratch) / assignment.id
        shutil.copytree(release_folder, folder)
        stopped = run(notebook, folder, CELL_SECONDS, quiet=True)
    failures = []
    for index, cell in enumerate(notebook.cells[:count]):
        error = error_of(cell) if cell.cell_type == "code" else None
        if error:
            failures.append(t("{where}: with the reference's code, this cell fails in a fresh "
                              "kernel: {error}; fix the test or the reference",
                              where=where(index, failing_line(cell)), error=error))
    if stopped and not failures:
        failures.append(t("{notebook}: with the reference's code, the notebook {stopped}",
                          notebook=assignment.notebook, stopped=stopped))
    return failures or unknown + mistake_problems(probes, where)


def prove(assignment, specs, master, release_folder: Path, code=DEFAULT):
    """Raise ProofError unless the assignment's checks and public tests hold (see above), the
    notebook written in the language `code`."""
    problems = step_problems(assignment)
    if not problems:
        problems = public_test_failures(assignment, specs, master, release_folder, code)
    if problems:
        raise ProofError(t("{id} is not built:", id=assignment.id) + "\n" + "\n".join(
            f"  {problem}" for problem in problems))
