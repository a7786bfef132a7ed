"""Are the public tests students see proven: does every public cell pass with the reference
solutions, and is every "known mistake" value a public test types in what the catalogue's
own implementation of that mistake gives?

Run as students run them: each master notebook, its hidden parts cut out, in a plain kernel
(nbclient), one kernel per assignment. For each mistake a public test names, the catalogued
implementation replaces the reference in that kernel and the test cell must fail naming it."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from autograder.checks.steps import STEPS
from autograder.outputs.hide_hidden_tests import without_hidden_tests

ROOT = Path(__file__).resolve().parents[3]
IDS = sorted(p.name for p in (ROOT / "source").iterdir() if p.is_dir())
# The names a mistake's code may use, as the hidden checks give them (checks/judge.py).
MISTAKE_PRELUDE = ("import math\nimport string\nimport torch\nimport torch.nn.functional as F\n"
                   "from torch import nn\n")


def public_notebook(assignment_id):
    """The master notebook as students run it: solutions in, hidden tests out."""
    notebook = nbformat.read(ROOT / "source" / assignment_id / f"{assignment_id}.ipynb",
                             as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.source = without_hidden_tests(cell.source)
    return notebook


def step_tested(cell):
    meta = cell.metadata.get("nbgrader", {})
    return meta["grade_id"].removeprefix("test_") if meta.get("grade") else None


def named_mistakes(source):
    """The mistake names a public test cell types: mistakes=[("name", value), ...]."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg == "mistakes" and isinstance(keyword.value, ast.List | ast.Tuple):
                    names += [ast.literal_eval(item.elts[0]) for item in keyword.value.elts]
    return names


def catalogued(step, name):
    found = [m for m in STEPS[step].mistakes if m.name == name]
    assert found, (f"the public test of {step} names the mistake {name!r}, which the step's "
                   f"catalogue lacks (it has {[m.name for m in STEPS[step].mistakes]})")
    return found[0]


def code_cell(source):
    return nbformat.v4.new_code_cell(source)


@pytest.fixture(scope="module", params=IDS)
def ran(request):
    """(assignment id, notebook, client) once every cell ran, the kernel still up."""
    notebook = public_notebook(request.param)
    client = NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT / "source" /
                                                                request.param)}})
    with client.setup_kernel():
        failures = []
        for index, cell in enumerate(notebook.cells):
            try:
                client.execute_cell(cell, index)
            except CellExecutionError as error:
                failures.append(f"cell {index + 1}: {str(error).splitlines()[-1]}")
        yield request.param, notebook, client, failures


def test_public_cells_pass_with_the_reference(ran):
    """Does every cell of the notebook, public tests included, run with the solutions?"""
    assignment_id, _, _, failures = ran
    assert failures == [], f"{assignment_id}: {failures}"


# In the kernel: the public checks that take `mistakes` record each call's outcome instead of
# raising, so that every mistake value a test types is checked in the call that types it.
RECORDING = """
import json as _json
_calls = []
_strict = {"expect_close": expect_close, "expect_equal": expect_equal,
           "expect_tensor": expect_tensor}
def _record(check, what, mistakes, *args):
    try:
        check(*args)
        said = "passed"
    except AssertionError as error:
        said = str(error)
    _calls.append({"what": what, "mistakes": [m for m, _ in mistakes], "said": said})
def _compare(name):
    def check(got, expected, what="the result", mistakes=()):
        _record(_strict[name], what, mistakes, got, expected, what, mistakes)
    return check
def expect_tensor(got, shape, what="the result", dtype=torch.float32):
    _record(_strict["expect_tensor"], what, (), got, shape, what, dtype)
expect_close, expect_equal = _compare("expect_close"), _compare("expect_equal")
"""
STRICT = "expect_close, expect_equal, expect_tensor = _strict.values()"


def recorded_calls(client, source):
    """Run a test cell with recording checks; the calls' records (an error of the cell
    itself, such as a crash before a check, fails the test)."""
    client.execute_cell(code_cell("_calls.clear()"), 0)
    client.execute_cell(code_cell(source), 0)
    shown = client.execute_cell(code_cell("print(_json.dumps(_calls))"), 0)
    return json.loads(shown.outputs[0]["text"])


def test_known_mistake_values_are_the_catalogues(ran):
    """With the catalogue's implementation of each mistake a public test names, does every
    check that types that mistake's value recognise it (so the typed value is the one the
    mistake gives)?"""
    assignment_id, notebook, client, _ = ran
    solutions = {c.metadata.nbgrader["grade_id"]: c for c in notebook.cells
                 if c.metadata.get("nbgrader", {}).get("solution")}
    client.execute_cell(code_cell(RECORDING), 0)
    wrong = []
    try:
        for cell in notebook.cells:
            step = step_tested(cell)
            for name in named_mistakes(cell.source) if step else []:
                mistake = catalogued(step, name)
                client.execute_cell(code_cell(MISTAKE_PRELUDE + mistake.code), 0)
                try:
                    calls = recorded_calls(client, cell.source)
                except CellExecutionError as error:
                    wrong.append(f"{step}: with {name!r} the cell fails before its checks: "
                                 f"{str(error).splitlines()[-1]}")
                    continue
                finally:
                    client.execute_cell(solutions[step], 0)
                typed = [c for c in calls if name in c["mistakes"]]
                if not typed:
                    wrong.append(f"{step}: no expect_close/expect_equal call ran with {name!r}")
                for call in typed:
                    if f"known mistake: {name}" not in call["said"]:
                        wrong.append(f"{step}: {call['what']!r} with {name!r}: {call['said']}")
    finally:
        client.execute_cell(code_cell(STRICT), 0)
    assert wrong == [], f"{assignment_id}: {wrong}"
