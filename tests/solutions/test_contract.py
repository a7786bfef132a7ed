"""Tests that solutions keeps the course contract (../shared/CURRICULUM.md) and its rules.

The "## Names" table lists every name with its signature; the package must export each at
top level with exactly those parameter names (and defaults). The source rules are read from
the code itself: a softmax written by hand, a multi-head module written out, loops where the
contract asks for them and nowhere else.
"""

import ast
import inspect
import re
import textwrap
from pathlib import Path
from typing import NamedTuple

import pytest
from torch import nn

import solutions
from solutions import multihead_module
from tests.course import ASSIGNMENTS, STEPS

CURRICULUM = (Path(__file__).parents[2] / ".." / "shared" / "CURRICULUM.md").resolve()
ABSENT = f"the course contract {CURRICULUM} is absent (../shared beside the repository)"

MODULE_CLASSES = {"SelfAttention", "MultiHeadAttention", "TransformerBlock"}


class Parameter(NamedTuple):
    name: str
    default: str | None  # the default as written in the table, or None when there is none


class ContractRow(NamedTuple):
    name: str
    signature: str


def table_rows(markdown, heading):
    """The body rows (lists of cell texts) of the first table under ``heading``."""
    lines = markdown.splitlines()
    start = lines.index(heading) + 1
    rows = []
    for line in lines[start:]:
        if line.startswith("## "):
            break
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    header, separator, *body = rows
    assert all(set(cell) <= set("-: ") for cell in separator), separator
    return header, body


def contract_rows():
    _, body = table_rows(CURRICULUM.read_text(encoding="utf-8"), "## Names")
    return [ContractRow(name, signature) for name, signature, _ in body]


def spelled(default):
    """A default as Python writes it back ('1e-5' -> '1e-05'), so that spellings of one value
    compare equal; text that is no literal stays as written."""
    try:
        return repr(ast.literal_eval(default))
    except (ValueError, SyntaxError):
        return default


def parameters(text):
    """'(x, W, dim=-1)' -> [Parameter('x', None), Parameter('W', None), Parameter('dim', '-1')]."""
    result = []
    for part in text.split(","):
        name, _, default = part.strip().partition("=")
        result.append(Parameter(name.strip(), spelled(default.strip()) if default.strip()
                                else None))
    return [p for p in result if p.name]


def contracted_signatures(row):
    """{what: [Parameter]} for a row: {'function'} or {'__init__', 'forward'} for a module."""
    if row.name in MODULE_CLASSES:
        init = re.match(r"nn\.Module\((.*?)\)", row.signature)
        forward = re.search(r"forward\((.*?)\)", row.signature)
        assert init and forward, row
        return {"__init__": parameters(init[1]), "forward": parameters(forward[1])}
    call = re.match(r"\((.*?)\)\s*->", row.signature)
    assert call, row
    return {"function": parameters(call[1])}


def actual_parameters(obj):
    signature = inspect.signature(obj)
    params = list(signature.parameters.values())
    if params and params[0].name == "self":
        params = params[1:]
    return [
        Parameter(p.name, None if p.default is inspect.Parameter.empty else repr(p.default))
        for p in params
    ]


def pending():
    """{assignment id: its names} of the contract's assignments the kit has not built yet
    (issue 23 builds 08 and 09): their tests are expected to fail, strictly, so that they
    must be switched on the day the assignment lands."""
    if not CURRICULUM.is_file():
        return {}
    _, rows = table_rows(CURRICULUM.read_text(encoding="utf-8"), "## Assignments")
    return {row[0]: [name.strip() for name in row[-1].split(",")] for row in rows
            if row[0] not in ASSIGNMENTS}


PENDING = pending()
PENDING_NAMES = {name for names in PENDING.values() for name in names}
NOT_BUILT = pytest.mark.xfail(bool(PENDING), strict=True, reason="not built yet (issue 23): "
                              + ", ".join(PENDING))


def contract_params():
    if not CURRICULUM.is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason=ABSENT))]
    return [pytest.param(row, id=row.name, marks=[NOT_BUILT] if row.name in PENDING_NAMES
                         else []) for row in contract_rows()]


@pytest.fixture
def curriculum():
    if not CURRICULUM.is_file():
        pytest.skip(ABSENT)
    return CURRICULUM.read_text(encoding="utf-8")


# --- the names table -------------------------------------------------------------------------


@NOT_BUILT
def test_names_table_is_the_steps_the_checks_declare(curriculum):
    """Does the contract's names table list each name once, and exactly the steps whose
    hidden checks the kit declares?"""
    names = [row.name for row in contract_rows()]
    assert len(set(names)) == len(names)
    assert set(names) == set(STEPS)


@NOT_BUILT
def test_assignments_table_is_the_kits_list_of_assignments(curriculum):
    """Are the contract's assignments, with the functions each teaches, the repository
    course's assignments (a folder of assignments/ each) with their steps, in order?"""
    _, rows = table_rows(curriculum, "## Assignments")
    contract = {row[0]: [name.strip() for name in row[-1].split(",")] for row in rows}
    kit = {assignment_id: list(assignment.steps)
           for assignment_id, assignment in ASSIGNMENTS.items()}
    assert kit == contract


def test_only_the_assignments_of_issue_23_are_pending(curriculum):
    """Is every assignment the kit lacks one the open issue builds (08 and 09), and is every
    other row of the contract built?"""
    assert set(PENDING) <= {"08_transformer_block", "09_gradients_and_memory"}, PENDING


def test_assignments_functions_are_in_the_names_table(curriculum):
    """Is every function the assignments table teaches a name of the names table?"""
    _, assignments = table_rows(curriculum, "## Assignments")
    taught = {name.strip() for row in assignments for name in row[-1].split(",")}
    assert taught == {row.name for row in contract_rows()}


@pytest.mark.parametrize("row", contract_params())
def test_name_is_exported_at_top_level(row):
    """Does solutions export the contract's name at top level, and list it in __all__?"""
    assert hasattr(solutions, row.name), row.name
    assert row.name in solutions.__all__


@pytest.mark.parametrize("row", contract_params())
def test_signature_matches_the_contract(row):
    """Do the parameter names and defaults match the contract's signature column exactly?

    For the two nn.Module classes, __init__ and forward are checked.
    """
    obj = getattr(solutions, row.name)
    for what, expected in contracted_signatures(row).items():
        target = obj if what == "function" else getattr(obj, what)
        assert actual_parameters(target) == expected, (row.name, what)


def test_module_classes_are_nn_modules_with_from_torch():
    """Are SelfAttention, MultiHeadAttention and TransformerBlock nn.Modules, the last two
    with the from_torch classmethod?"""
    for name in MODULE_CLASSES:
        assert issubclass(getattr(solutions, name), nn.Module), name
    from_torch = inspect.getattr_static(solutions.MultiHeadAttention, "from_torch")
    assert isinstance(from_torch, classmethod)
    assert list(inspect.signature(solutions.MultiHeadAttention.from_torch).parameters) == ["mha"]
    from_torch = inspect.getattr_static(solutions.TransformerBlock, "from_torch")
    assert isinstance(from_torch, classmethod)
    assert list(inspect.signature(solutions.TransformerBlock.from_torch).parameters) == ["layer"]


# --- the source rules ------------------------------------------------------------------------


def function_tree(function):
    return ast.parse(textwrap.dedent(inspect.getsource(function)))


LOOP_NODES = (
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)


def loops_in(function):
    return [node for node in ast.walk(function_tree(function)) if isinstance(node, LOOP_NODES)]


def test_stable_softmax_is_written_by_hand():
    """Does stable_softmax's source avoid torch.softmax, F.softmax and any .softmax( call?"""
    source = inspect.getsource(solutions.stable_softmax)
    for forbidden in ("torch.softmax", "F.softmax", ".softmax("):
        assert forbidden not in source, forbidden
    called = {
        node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        for node in ast.walk(function_tree(solutions.stable_softmax))
        if isinstance(node, ast.Call)
    }
    assert not {name for name in called if "softmax" in name.lower()}, called


def test_multihead_module_does_not_use_torchs_multihead_attention():
    """Does the MultiHeadAttention module use neither nn.MultiheadAttention nor
    multi_head_attention_forward (mentions in docstrings aside)?"""
    tree = ast.parse(inspect.getsource(multihead_module))
    forbidden = {"MultiheadAttention", "multi_head_attention_forward"}
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            used.add(node.attr)
        elif isinstance(node, ast.Name):
            used.add(node.id)
        elif isinstance(node, ast.alias):
            used.update({node.name.rpartition(".")[2], node.asname or ""})
    assert not used & forbidden, used & forbidden
    assert inspect.getsourcefile(solutions.MultiHeadAttention) == inspect.getsourcefile(
        multihead_module
    )


@pytest.mark.parametrize(
    "name", ["vectorized_attention", "self_attention", "multihead_project", "multihead_attention"]
)
def test_vectorized_functions_have_no_python_loop(name):
    """Is there no for, while or comprehension in the functions the contract wants loop-free?"""
    assert loops_in(getattr(solutions, name)) == []


def test_loop_attention_has_a_python_loop():
    """Does loop_attention loop in Python, as document 003's module does?"""
    assert loops_in(solutions.loop_attention)
