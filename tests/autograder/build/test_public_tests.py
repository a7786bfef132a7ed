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

from autograder.checks.draws import Draws
from autograder.checks.judge import namespace, step_findings
from autograder.checks.subject import LocalSubject
from autograder.outputs.hide_hidden_tests import without_hidden_tests
from tests.course import ASSIGNMENTS, STEPS, helpers_of

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


def solution_cells(notebook):
    """{step: its solution cell}."""
    return {c.metadata.nbgrader["grade_id"]: c for c in notebook.cells
            if c.metadata.get("nbgrader", {}).get("solution")}


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


def run(client, source):
    """Run code in the notebook's kernel as a cell of its own, appended for the time it runs
    (nbclient writes a cell's outputs back into the notebook at its index)."""
    cell = nbformat.v4.new_code_cell(source)
    client.nb.cells.append(cell)
    try:
        return client.execute_cell(cell, len(client.nb.cells) - 1)
    finally:
        client.nb.cells.pop()


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
           "expect_tensor": expect_tensor, "expect_rule": expect_rule}
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
def expect_rule(*args, **kwargs):  # a mistake may break a rule too: not this test's question
    try:
        _strict["expect_rule"](*args, **kwargs)
    except AssertionError:
        pass
"""
STRICT = "expect_close, expect_equal, expect_tensor, expect_rule = _strict.values()"


def recorded_calls(client, source):
    """Run a test cell with recording checks; the calls' records (an error of the cell
    itself, such as a crash before a check, fails the test)."""
    run(client, "_calls.clear()")
    run(client, source)
    shown = run(client, "print(_json.dumps(_calls))")
    return json.loads(shown.outputs[0]["text"])


def test_known_mistake_values_are_the_catalogues(ran):
    """With the catalogue's implementation of each mistake a public test names, does every
    check that types that mistake's value recognise it (so the typed value is the one the
    mistake gives)?"""
    assignment_id, notebook, client, _ = ran
    solutions = solution_cells(notebook)
    run(client, RECORDING)
    wrong = []
    try:
        for cell in notebook.cells:
            step = step_tested(cell)
            for name in named_mistakes(cell.source) if step else []:
                mistake = catalogued(step, name)
                run(client, MISTAKE_PRELUDE + mistake.code)
                try:
                    calls = recorded_calls(client, cell.source)
                except CellExecutionError as error:
                    wrong.append(f"{step}: with {name!r} the cell fails before its checks: "
                                 f"{str(error).splitlines()[-1]}")
                    continue
                finally:
                    run(client, solutions[step].source)
                typed = [c for c in calls if name in c["mistakes"]]
                if not typed:
                    wrong.append(f"{step}: no expect_close/expect_equal call ran with {name!r}")
                for call in typed:
                    if f"known mistake '{name}': " not in call["said"]:
                        wrong.append(f"{step}: {call['what']!r} with {name!r}: {call['said']}")
    finally:
        run(client, STRICT)
    assert wrong == [], f"{assignment_id}: {wrong}"


# -- no hidden requirement ------------------------------------------------------------------

# Every requirement that can cost points, each broken alone by a variant of the reference that
# is still right on the notebook's plain example: (step, requirement, text of the solution cell,
# what it becomes). The hidden checks must fail the variant (it is a real requirement) and so
# must a public test (the student can see it before handing in).
VARIANTS = [
    ("attention_scores", "leading batch dimensions", "keys.transpose(-2, -1)", "keys.T"),
    ("stable_softmax", "no built-in softmax",
     "    return exps / exps.sum(dim=dim, keepdim=True)",
     "    return torch.softmax(scores, dim=dim)"),
    ("scaled_dot_product_attention", "leading batch dimensions",
     "keys.transpose(-2, -1)", "keys.T"),
    ("scaled_dot_product_attention", "a mask per sequence of a batch",
     'weights = torch.softmax(hidden, dim=-1).masked_fill(mask, 0.0)',
     'weights = torch.softmax(hidden, dim=1).masked_fill(mask, 0.0)'),
    ("self_attention", "leading batch dimensions", "keys.transpose(-2, -1)", "keys.T"),
    ("self_attention", "no Python loop",
     "    scores = queries @ keys.transpose(-2, -1)  # (..., seq, seq)",
     "    scores = torch.stack([q @ keys.transpose(-2, -1) for q in queries.unbind(-2)], -2)"),
    ("multihead_project", "calls torch.bmm", "torch.bmm(W, stacked)",
     "torch.einsum('hoi,his->hos', W, stacked)"),
    ("multihead_project", "no Python loop", "torch.bmm(W, stacked)",
     "torch.stack([torch.bmm(W[i:i + 1], stacked[i:i + 1])[0] for i in range(h)])"),
    ("loop_attention", "calls scaled_dot_score", "scaled_dot_score(K[:, j], Q[:, i])",
     "K[:, j] @ Q[:, i] / math.sqrt(K.shape[0])"),
    ("vectorized_attention", "no call to loop_attention or scaled_dot_score",
     "    Q = W_Q @ X  # (d3, N)",
     "    scaled_dot_score(X[:, 0], X[:, 0])  # called, its value unused\n"
     "    Q = W_Q @ X  # (d3, N)"),
    ("masked_scaled_softmax", "a mask that broadcasts to the scores",
     '    hidden = (scores / math.sqrt(d_k)).masked_fill(mask, float("-inf"))',
     '    hidden = scores / math.sqrt(d_k)\n'
     '    hidden[mask] = float("-inf")  # a mask as big as the scores'),
    ("MultiHeadAttention", "an attn_mask per sequence and head",
     "as_additive(attn_mask).reshape(-1, L, S)", "as_additive(attn_mask).reshape(1, L, S)"),
    ("MultiHeadAttention", "no built-in multi-head attention",
     "def forward(self, query, key, value, key_padding_mask=None, attn_mask=None):",
     "def forward(self, query, key, value, key_padding_mask=None, attn_mask=None):\n"
     "        nn.MultiheadAttention(self.embed_dim, self.num_heads)(query, key, value)  # run"),
    ("sinusoidal_positions", "the ValueError names the odd d_model",
     'raise ValueError(f"d_model must be even, got {d_model}")',
     'raise ValueError("d_model must be even")'),
    ("layer_norm", "no built-in layer norm",
     "    return (x - mean) / torch.sqrt(variance + eps) * gamma + beta  # (..., d)",
     "    return F.layer_norm(x, x.shape[-1:], gamma, beta, eps)"),
    ("layer_norm", "leading batch dimensions", "x.mean(dim=-1, keepdim=True)",
     "x.mean(dim=1, keepdim=True)"),
    ("layer_norm", "eps under the square root", "torch.sqrt(variance + eps)",
     "(torch.sqrt(variance) + eps)"),
    ("layer_norm", "the eps it is given", "variance + eps", "variance + 1e-5"),
    ("feed_forward", "leading batch dimensions", "torch.relu(x @ W1 + b1)",
     "torch.relu(x.mm(W1) + b1)"),
    ("TransformerBlock", "the attn_mask",
     "allowed = None if attn_mask is None else ~attn_mask", "allowed = None"),
    ("TransformerBlock", "no built-in attention or encoder layer", "        N, L, E = x.shape",
     "        N, L, E = x.shape\n"
     "        nn.TransformerEncoderLayer(E, 1, 4, dropout=0.0, batch_first=True)(x)  # run"),
    ("TransformerBlock", "no built-in layer norm beside your own",
     "self.attention(layer_norm(x, self.gamma1, self.beta1), attn_mask)",
     "self.attention(F.layer_norm(x, x.shape[-1:], self.gamma1, self.beta1), attn_mask)"),
    ("TransformerBlock", "calls your feed_forward",
     "ffn = feed_forward(layer_norm(h, self.gamma2, self.beta2), self.W1, self.b1, self.W2,\n"
     "                           self.b2)",
     "ffn = torch.relu(layer_norm(h, self.gamma2, self.beta2) @ self.W1 + self.b1) @ self.W2 "
     "+ self.b2"),
    ("softmax_backward", "the dim argument", "(grad_weights * weights).sum(dim=dim, keepdim=True)",
     "(grad_weights * weights).sum(dim=-1, keepdim=True)"),
    ("softmax_backward", "no autograd",
     "    weighted = (grad_weights * weights).sum(dim=dim, keepdim=True)",
     "    scores = weights.log().detach().requires_grad_()\n"
     "    torch.softmax(scores, dim=dim).backward(grad_weights)\n"
     "    return scores.grad\n"
     "    weighted = (grad_weights * weights).sum(dim=dim, keepdim=True)"),
    ("attention_backward", "leading batch dimensions", "keys.transpose(-2, -1)", "keys.T"),
    ("attention_backward", "no autograd", "    scale = 1.0 / math.sqrt(keys.shape[-1])\n",
     "    leaves = [t.detach().clone().requires_grad_() for t in (queries, keys, values)]\n"
     "    F.scaled_dot_product_attention(*leaves).backward(grad_context)\n"
     "    return tuple(t.grad for t in leaves)\n"),
    ("online_attention", "no built-in softmax or attention",
     "    scale = 1.0 / math.sqrt(keys.shape[-1])\n",
     "    return F.scaled_dot_product_attention(queries, keys, values)\n"),
    ("online_attention", "a block size that does not divide n_keys",
     "range(0, keys.shape[-2], block_size)",
     "range(0, keys.shape[-2] - block_size + 1, block_size)"),
    ("online_attention", "leading batch dimensions", "block_keys.transpose(-2, -1)",
     "block_keys.T"),
    ("cached_causal_attention", "no mask", "    outputs = []\n",
     "    scores = (x @ W_query) @ (x @ W_key).transpose(-2, -1) / math.sqrt(d_k)\n"
     "    hidden = torch.ones(seq, seq, dtype=torch.bool).triu(diagonal=1)\n"
     "    weights = torch.softmax(scores.masked_fill(hidden, float('-inf')), dim=-1)\n"
     "    return weights @ (x @ W_value)\n"),
    ("cached_causal_attention", "leading batch dimensions", "token = x[..., t, :]",
     "token = x[t]"),
]


def variant_source(notebook, step, old, new):
    cell = solution_cells(notebook)[step]
    assert old in cell.source, f"{step}: the solution cell has no {old!r} to vary"
    return cell.source.replace(old, new, 1)


def hidden_verdict(step, source):
    """The hidden checks' findings on code defining the step (in this process)."""
    space = namespace(helpers_of(STEPS[step]))
    exec(compile(source, f"<variant of {step}>", "exec"), space)  # noqa: S102
    return step_findings(STEPS[step], LocalSubject(space[step], source=source),
                         helpers_of(STEPS[step]), Draws())


def test_every_requirement_is_visible_in_a_public_test(ran):
    """Does each variant that breaks one requirement (right on the plain example) fail both
    the hidden checks and a public test of its step?"""
    assignment_id, notebook, client, _ = ran
    mine = [v for v in VARIANTS if v[0] in ASSIGNMENTS[assignment_id].steps]
    tests = {step_tested(c): c for c in notebook.cells if step_tested(c)}
    solutions = solution_cells(notebook)
    unseen = []
    for step, requirement, old, new in mine:
        source = variant_source(notebook, step, old, new)
        assert hidden_verdict(step, source), f"{step}: '{requirement}' costs nothing hidden"
        run(client, source)
        try:
            run(client, tests[step].source)
            unseen.append(f"{step}: {requirement}")
        except CellExecutionError:
            pass
        finally:
            run(client, solutions[step].source)
    assert unseen == [], f"{assignment_id}: requirements no public test shows: {unseen}"


LAYER_NORM_BUILT_IN = ("def layer_norm(x, gamma, beta, eps=1e-5):\n"
                       "    return F.layer_norm(x, x.shape[-1:], gamma, beta, eps)\n")


@pytest.mark.parametrize("ran", ["08_transformer_block"], indirect=True)
def test_a_rule_broken_in_an_earlier_step_fails_only_its_own_public_test(ran):
    """In the notebook: a layer_norm that calls F.layer_norm fails layer_norm's public test;
    does the block's public test still pass, its rules read without the layer_norm it uses
    (as grading reads them)?"""
    _, notebook, client, _ = ran
    tests = {step_tested(c): c for c in notebook.cells if step_tested(c)}
    run(client, LAYER_NORM_BUILT_IN)
    try:
        with pytest.raises(CellExecutionError, match="no built-in layer norm"):
            run(client, tests["layer_norm"].source)
        run(client, tests["TransformerBlock"].source)
    finally:
        run(client, solution_cells(notebook)["layer_norm"].source)


def test_rules_on_operations_decide_alike_in_the_notebook(ran):
    """In the notebook: does each evasion of tests/autograder/checks/test_operation_rules.py
    fail its step's public test on a rule, and each honest student there pass it, as the
    hidden checks decide (expect_rule on the records of the test cell's calls)?"""
    from tests.autograder.checks.test_operation_rules import (
        EVASIONS,
        FAILS_BEFORE_ITS_RULES,
        HONEST,
    )

    assignment_id, notebook, client, _ = ran
    steps = ASSIGNMENTS[assignment_id].steps
    tests = {step_tested(c): c for c in notebook.cells if step_tested(c)}
    solutions = [c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("solution")]
    wrong = []
    # The honest students first: the kernel keeps every cell run (an evasion's `import
    # torch._subclasses` rebinds torch for the cells after it, as in a student's notebook).
    for label, (step, code, *said) in {**HONEST, **EVASIONS}.items():
        if step not in steps or label in FAILS_BEFORE_ITS_RULES:
            continue
        run(client, code)
        try:
            run(client, tests[step].source)
            if said:
                wrong.append(f"{label}: passed")
        except CellExecutionError as error:
            if not said or "rule '" not in str(error):
                wrong.append(f"{label}: {str(error).splitlines()[-1][:300]}")
        finally:
            for cell in solutions:
                run(client, cell.source)
    assert wrong == [], f"{assignment_id}: {wrong}"
