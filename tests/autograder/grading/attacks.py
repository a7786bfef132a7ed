"""The attack catalogue: notebooks a student might hand in to get points they did not earn,
or to break the grading, each with the score it must get.

All attacks are on assignment 03 (project 1 point, scaled_softmax 2, scaled_dot_product_attention
3, which calls scaled_softmax). Most hand in wrong functions plus a trick that fooled plain
nbgrader: a trick that works would earn points. The crashes hand in right functions, one of
which crashes: only its step may be lost. In code, {root} is the course folder, {repo} the
kit's (with solutions/) and {port} a socket the test listens on.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import nbformat

from autograder.tools import simulate

ID = "03_scaled_dot_product"
FULL = 6
POINTS = {"project": 1, "scaled_softmax": 2, "scaled_dot_product_attention": 3}

WRONG = {
    "project": "def project(x, W):\n    return x @ W + 1.0\n",
    "scaled_softmax": "def scaled_softmax(scores, d_k):\n"
                      "    return torch.softmax(scores, dim=-1)\n",
    "scaled_dot_product_attention":
        "def scaled_dot_product_attention(queries, keys, values, mask=None):\n"
        "    weights = torch.softmax(queries @ keys.transpose(-2, -1), dim=-1)\n"
        "    return weights @ values, weights\n",
}


@dataclass(frozen=True)
class Attack:
    name: str
    what: str
    build: object  # (release, source, env) -> notebook
    score: int | None  # None: the submission is refused as input (never graded)
    extra: dict = field(default_factory=dict)  # other files: name -> builder like `build`
    links: dict = field(default_factory=dict)  # symbolic links: name -> target ({repo} ...)


def wrong(release):
    return simulate.fill(release, WRONG)


def with_prelude(notebook, code):
    """A cell of `code` before the first answer (after the notebook's setup)."""
    return simulate.after_cell(notebook, "setup_04", code)


def filled(code, env):
    """`code` with {root}, {repo} and {port} filled in."""
    for key, value in env.items():
        code = code.replace("{" + key + "}", str(value))
    return code


def wrong_with(code):
    return lambda release, source, env: with_prelude(wrong(release), filled(code, env))


def wrong_but(step, code):
    """Wrong answers, and after `step`'s cell `code` (which redefines it)."""
    return lambda release, source, env: simulate.after_cell(wrong(release), step,
                                                            filled(code, env))


def right_with(code):
    def build(release, source, env):
        return with_prelude(simulate.correct(release, source), filled(code, env))
    return build


def right_but(step, code):
    """Right answers, except that `step` is redefined (right after its cell) by `code`."""
    def build(release, source, env):
        return simulate.after_cell(simulate.correct(release, source), step, filled(code, env))
    return build


def retagged(change):
    """Right answers, then `change(cells)` applied to the notebook's cells."""
    def build(release, source, env):
        notebook = simulate.correct(release, source)
        change(notebook.cells)
        return notebook
    return build


def cell(cells, grade_id):
    return next(c for c in cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def delete_test(cells):
    cells.remove(cell(cells, "test_scaled_softmax"))


def duplicate_test(cells):
    original = cell(cells, "test_project")
    cells.insert(cells.index(original), copy.deepcopy(original))


def change_points(cells):
    cell(cells, "test_project").metadata["nbgrader"]["points"] = 100


def retype_test(cells):
    test = cell(cells, "test_scaled_dot_product_attention")
    test.cell_type = "markdown"
    test.pop("outputs")
    test.pop("execution_count")


def rename_test(cells):
    cell(cells, "test_scaled_softmax").metadata["nbgrader"]["grade_id"] = "test_mine"


def forge_metadata(cells):
    """A solution cell made a 100-point test cell, and an extra 50-point cell."""
    cell(cells, "project").metadata["nbgrader"].update(grade=True, points=100)
    bonus = nbformat.v4.new_code_cell("print('bonus')")
    bonus.pop("id", None)
    bonus.metadata["nbgrader"] = {"grade": True, "grade_id": "bonus", "points": 50,
                                  "locked": False, "solution": False, "schema_version": 3}
    cells.append(bonus)


def moved_test_cell_and_stolen_stand_in(release, source, env):
    """scaled_softmax forwards to the grader's stand-in that scaled_dot_product_attention
    received while it was checked; the student moved scaled_softmax's test cell last."""
    notebook = simulate.correct(release, source)
    notebook = simulate.after_cell(notebook, "scaled_softmax", STOLEN_SOFTMAX)
    notebook = simulate.after_cell(notebook, "scaled_dot_product_attention", STEALING_ATTENTION)
    test = cell(notebook.cells, "test_scaled_softmax")
    notebook.cells.remove(test)
    notebook.cells.append(test)
    return notebook


STOLEN_SOFTMAX = """
STASH = []
def scaled_softmax(scores, d_k):
    return STASH[0](scores, d_k)
"""
STEALING_ATTENTION = """
_right = scaled_dot_product_attention
def scaled_dot_product_attention(queries, keys, values, mask=None):
    if not STASH:
        STASH.append(globals()["scaled_softmax"])
    return _right(queries, keys, values, mask)
"""

ALLCLOSE = "import torch\ntorch.allclose = lambda *a, **k: True\ntorch.isclose = " \
           "lambda a, b, *x, **k: torch.ones_like(a, dtype=torch.bool)\n"
OWN_SOFTMAX = "import torch\n_s = torch.softmax\ntorch.softmax = lambda x, dim=-1, **k: " \
              "_s(x * 0 + 1, dim=dim)\ntorch.nn.functional.softmax = torch.softmax\n"
SUBCLASS = """
class Agreeable(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return True
def project(x, W):
    return torch.zeros(1).as_subclass(Agreeable)
"""
FUNCTION_MODE = """
from torch.overrides import TorchFunctionMode
class Yes(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func in (torch.allclose, torch.equal, torch.isclose, torch.Tensor.__eq__):
            return True
        return func(*args, **(kwargs or {}))
Yes().__enter__()
"""
TRANSFORMER = """
def _skip(lines):
    return ["pass\\n"]
get_ipython().input_transformers_post.append(_skip)
"""
EXEC_SOURCE = """
import json, re
try:
    nb = json.load(open("../../../source/03_scaled_dot_product/03_scaled_dot_product.ipynb"))
except OSError:
    nb = json.load(open("{root}/source/03_scaled_dot_product/03_scaled_dot_product.ipynb"))
for c in nb["cells"]:
    if c.get("metadata", {}).get("nbgrader", {}).get("solution"):
        exec("".join(c["source"]))
"""
IMPORT_SOLUTIONS = """
import sys
sys.path.insert(0, "{repo}")
from solutions import project, scaled_softmax, scaled_dot_product_attention
"""
READ_SOLUTIONS = """
code = open("{repo}/solutions/scaled_dot_product.py").read()
exec(code)
"""
DAEMON_GRADEBOOK = """
import os, sqlite3, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(3)
        db = sqlite3.connect("{root}/gradebook.db")
        db.execute("UPDATE grade SET manual_score = 100")
        db.commit()
    os._exit(0)
"""
WRITE_GRADEBOOK = """
import sqlite3
try:
    db = sqlite3.connect("{root}/gradebook.db")
    db.execute("UPDATE grade SET manual_score = 100")
    db.commit()
except Exception as error:
    print("no:", error)
"""
WRITE_OUTSIDE = """
for path in ["{root}/pwned.txt", "../pwned.txt", "../../pwned.txt", "/tmp/pwned.txt",
             "{root}/source/pwned.txt"]:
    try:
        open(path, "w").write("hidden tests copied here")
    except OSError as error:
        print(path, error)
"""
SOCKET = """
import socket
s = socket.socket()
s.settimeout(2)
try:
    s.connect(("127.0.0.1", {port}))
    s.sendall(b"the answers, please")
except OSError as error:
    print("no network:", error)
"""
FAKE_PASS = """
print("project: every hidden check passed")
print("scaled_softmax: every hidden check passed")
print("All tests passed! Score: 6/6")
"""
# Hidden inputs carried out through the feedback page: scaled_softmax raises them in its
# message, scaled_dot_product_attention in the name of an exception class of its own, project
# in the lengths of an empty tensor (a dimension of 0 allows any other length).
LEAK_MARK = "LEAKMARK"
LEAK_LENGTH = 987654321
LEAK_IN_TEXT = f"""
MARK = "{LEAK_MARK[:4]}" + "{LEAK_MARK[4:]}"  # the page shows the code: the mark is made


def scaled_softmax(scores, d_k):
    raise ValueError(MARK + repr(scores.flatten().tolist()))


def scaled_dot_product_attention(queries, keys, values, mask=None):
    raise type(MARK + "_" + "_".join(str(round(v, 4)) for v in queries.flatten().tolist()),
               (Exception,), {{}})()


def project(x, W):
    length = {LEAK_LENGTH // 1000} * 1000 + {LEAK_LENGTH % 1000}
    return torch.empty(0, length, int(1000 * float(x.flatten()[0]) % 997))
"""
FAKE_RESULT = """
import json
_fake = json.dumps({"ok": {"tensor": ["float32", [2, 2], [1.0, 2.0, 6.0, 4.0]]}, "calls": []})
def project(x, W):
    input("\\x00kit-result:" + _fake)
    return x @ W + 1
"""
NUMPY_TESTING = """
import numpy.testing
numpy.testing.assert_allclose = lambda *a, **k: None
numpy.testing.assert_array_equal = lambda *a, **k: None
"""
PYTEST_APPROX = """
try:
    import pytest
    pytest.approx = lambda expected, *a, **k: _Equal()
except ImportError:
    pass
class _Equal:
    def __eq__(self, other):
        return True
"""
BUILTINS = """
import builtins
builtins.abs = lambda x: 0
builtins.all = lambda x: True
builtins.len = lambda x: 0
"""
TENSOR_EQ = """
torch.Tensor.__eq__ = lambda self, other: torch.ones_like(self, dtype=torch.bool)
torch.Tensor.__ne__ = lambda self, other: torch.zeros_like(self, dtype=torch.bool)
torch.equal = lambda a, b: True
"""
FAKE_TORCH = """
import sys, types
real = sys.modules["torch"]
fake = types.ModuleType("torch")
fake.__dict__.update(real.__dict__)
fake.allclose = lambda *a, **k: True
fake.equal = lambda *a, **k: True
sys.modules["torch"] = fake
"""
SPOIL_AGENT = """
__kit__ = None
import builtins
builtins.input = lambda prompt="": ""
"""
OS_EXIT = """
def scaled_softmax(scores, d_k):
    import os
    os._exit(0)
"""
SEGFAULT = """
def scaled_softmax(scores, d_k):
    import ctypes
    return ctypes.string_at(0)
"""
UNINTERRUPTIBLE = """
import signal
signal.signal(signal.SIGINT, signal.SIG_IGN)
def scaled_dot_product_attention(queries, keys, values, mask=None):
    while True:
        pass
"""
HUGE = """
def scaled_softmax(scores, d_k):
    return torch.empty(50 * 2**30 // 4)
"""
FORK_BOMB = """
def project(x, W):
    import os
    while True:
        os.fork()
"""
RECURSION = """
import sys
sys.setrecursionlimit(10**7)
def scaled_dot_product_attention(queries, keys, values, mask=None, depth=0):
    return scaled_dot_product_attention(queries, keys, values, mask, depth + 1)
"""
DAEMON = """
import subprocess
subprocess.Popen(["sleep", "600"], start_new_session=True)
"""
NOISE = """
%load_ext autoreload
import warnings
warnings.warn("a warning from the student")
print("some output")
import sys
print("to stderr", file=sys.stderr)
!echo a shell line
x_extra = torch.randn(3, 3)
x_extra
"""
NOISE_MAGIC = "%%time\nfor i in range(3):\n    print(i)\n"


DIRECT_STAND_IN = """
def scaled_softmax(scores, d_k):
    return __kit__.stand_in("scaled_softmax")(scores, d_k)
"""
DEEP_REPLY = """
def scaled_softmax(scores, d_k):
    input("\\x00kit-result:" + "[" * 200000 + "]" * 200000)
    return scores
"""
LEFTOVERS = """
import ctypes, os, socket
libc = ctypes.CDLL(None)
libc.shmget(0x6b697401, 4096, 0o1666)  # IPC_CREAT | 0666: a SysV segment that would outlive us
for path in ("/run/lock/kit-left", "/dev/shm/kit-left", "/tmp/kit-left", "/var/tmp/kit-left"):
    try:
        open(path, "w").write("left behind")
    except OSError:
        pass
try:
    left = socket.socket(socket.AF_UNIX)
    left.bind("/tmp/kit-left.sock")
    left.listen()
except OSError:
    pass
"""
HUGE_PRINT = "print('x' * 60_000_000)"
HUGE_SOURCE = "big = [" + "1," * 3_000_000 + "]"
FROM_LINKED_SOLUTIONS = """
import sys
sys.path.insert(0, ".")
from solutions import project, scaled_softmax, scaled_dot_product_attention
"""
READ_LINKED_SECRET = "print(open('notes.txt').read())"


def malformed_metadata(cells):
    """Cells whose nbgrader metadata is not a dict, or whose grade id is a list; a notebook
    record that is not a dict."""
    odd = [nbformat.v4.new_code_cell("x_odd = 1"), nbformat.v4.new_code_cell("y_odd = 2"),
           nbformat.v4.new_code_cell("z_odd = 3")]
    odd[0].metadata["nbgrader"] = "junk"
    odd[1].metadata["nbgrader"] = {"grade": True, "grade_id": ["a", "list"], "points": 50}
    odd[2].metadata["nbgrader"] = [1, 2, 3]
    cells[3:3] = odd


def tests_first(cells):
    """Every test cell moved to the top, before the functions it checks."""
    tests = [c for c in cells if c.metadata.get("nbgrader", {}).get("grade")]
    for test in tests:
        cells.remove(test)
    cells[0:0] = tests


def hard_coded(release, source, env):
    """Each function returns the printed answer of its public test when given that test's
    input, and a wrong answer otherwise: fresh random inputs must catch it."""
    code = """
_project_right = {"in": [[1.0, 2.0, 0.0], [0.0, 1.0, 3.0]], "out": [[1.0, 2.0], [6.0, 4.0]]}
def project(x, W):
    if x.tolist() == _project_right["in"]:
        return torch.tensor(_project_right["out"])
    return x @ W + 1.0
"""
    return simulate.after_cell(wrong(release), "project", code)


def noisy(release, source, env):
    notebook = with_prelude(simulate.correct(release, source), NOISE)
    return simulate.after_cell(notebook, "project", NOISE_MAGIC)


# Markup a browser would run, in markdown cells of the student's (one claiming to be a
# locked cell of the course): the feedback page must show none of it working.
MARKUP = ('<script>window.kitOwned = 1</script>\n'
          '<img src="x" onerror="window.kitOwned = 2">\n'
          '<iframe src="https://example.org"></iframe>\n'
          '<a href="javascript:kitOwned()">click</a> **still bold**')


def with_markup(release, source, env):
    notebook = simulate.correct(release, source)
    plain = nbformat.v4.new_markdown_cell(MARKUP)
    forged = nbformat.v4.new_markdown_cell(MARKUP, metadata={"nbgrader": {
        "grade": False, "grade_id": "prose_99", "locked": True, "schema_version": 3,
        "solution": False, "task": False}})
    for cell in (plain, forged):
        cell.pop("id", None)  # the release is nbformat 4.4: no cell ids
    notebook.cells[3:3] = [plain, forged]
    return notebook


def copy_under_another_name(release, source, env):
    return simulate.correct(release, source)


ATTACKS = [
    Attack("allclose", "torch.allclose and isclose always True", wrong_with(ALLCLOSE), 0),
    Attack("own_softmax", "torch.softmax replaced", wrong_with(OWN_SOFTMAX), 0),
    Attack("tensor_subclass", "a tensor subclass whose __torch_function__ answers True",
           wrong_but("project", SUBCLASS), 0),
    Attack("function_mode", "a global TorchFunctionMode that makes comparisons True",
           wrong_with(FUNCTION_MODE), 0),
    Attack("input_transformer", "an IPython input transformer that turns cells into pass",
           wrong_with(TRANSFORMER), 0),
    Attack("exec_source", "exec of the solutions read from ../../../source/",
           wrong_with(EXEC_SOURCE), 0),
    Attack("import_solutions", "import of the reference package", wrong_with(IMPORT_SOLUTIONS),
           0),
    Attack("read_solutions", "reading solutions/ from disk", wrong_with(READ_SOLUTIONS), 0),
    Attack("daemon_gradebook", "a detached process that rewrites the gradebook later",
           wrong_with(DAEMON_GRADEBOOK), 0),
    Attack("write_gradebook", "writing the gradebook from the notebook",
           wrong_with(WRITE_GRADEBOOK), 0),
    Attack("write_outside", "writing the course folder, ../ and /tmp",
           wrong_with(WRITE_OUTSIDE), 0),
    Attack("socket", "opening a socket to a server on the grader's machine",
           wrong_with(SOCKET), 0),
    Attack("fake_pass", "printing fake 'all tests passed'", wrong_with(FAKE_PASS), 0),
    Attack("leak_in_text", "hidden inputs in an error's message, an exception class's name "
           "and an empty tensor's lengths",
           wrong_but("scaled_dot_product_attention", LEAK_IN_TEXT), 0),
    Attack("fake_result", "a fake result sent on the grader's channel",
           wrong_but("project", FAKE_RESULT), 0),
    Attack("numpy_testing", "numpy.testing patched", wrong_with(NUMPY_TESTING), 0),
    Attack("pytest_approx", "pytest.approx patched", wrong_with(PYTEST_APPROX), 0),
    Attack("builtins", "builtins.abs/all/len patched", wrong_with(BUILTINS), 0),
    Attack("tensor_eq", "torch.Tensor.__eq__ and torch.equal patched", wrong_with(TENSOR_EQ),
           0),
    Attack("fake_torch", "a fake torch in sys.modules", wrong_with(FAKE_TORCH), 0),
    Attack("hard_coded", "the public test's answer hard-coded (project only)", hard_coded, 0),
    Attack("spoil_agent", "the grader's agent and input() replaced",
           wrong_with(SPOIL_AGENT), 0),
    Attack("stolen_stand_in", "scaled_softmax forwards to a reference stand-in it stole, its "
           "test cell moved last", moved_test_cell_and_stolen_stand_in,
           FULL - POINTS["scaled_softmax"]),
    Attack("os_exit", "os._exit in scaled_softmax", right_but("scaled_softmax", OS_EXIT),
           FULL - POINTS["scaled_softmax"]),
    Attack("segfault", "a segfault in scaled_softmax", right_but("scaled_softmax", SEGFAULT),
           FULL - POINTS["scaled_softmax"]),
    Attack("uninterruptible", "an endless loop with SIGINT ignored",
           right_but("scaled_dot_product_attention", UNINTERRUPTIBLE),
           FULL - POINTS["scaled_dot_product_attention"]),
    Attack("huge_allocation", "a 50 GB allocation", right_but("scaled_softmax", HUGE),
           FULL - POINTS["scaled_softmax"]),
    Attack("fork_bomb", "a fork bomb in project", right_but("project", FORK_BOMB),
           FULL - POINTS["project"]),
    Attack("recursion", "endless recursion", right_but("scaled_dot_product_attention",
                                                       RECURSION),
           FULL - POINTS["scaled_dot_product_attention"]),
    Attack("daemon", "a daemon that outlives the notebook", right_with(DAEMON), FULL),
    Attack("deleted_test", "a test cell deleted", retagged(delete_test), FULL),
    Attack("duplicated_test", "a test cell duplicated", retagged(duplicate_test), FULL),
    Attack("changed_points", "a test cell's points set to 100", retagged(change_points), FULL),
    Attack("retyped_test", "a test cell turned into markdown", retagged(retype_test), FULL),
    Attack("renamed_test", "a test cell's id renamed", retagged(rename_test), FULL),
    Attack("forged_metadata", "nbgrader metadata forged on student cells",
           retagged(forge_metadata), FULL),
    Attack("copy_other_name", "a right copy under another name beside a wrong notebook",
           lambda release, source, env: wrong(release), 0,
           extra={"copy.ipynb": copy_under_another_name}),
    Attack("noise", "right answers with prints, warnings, stderr, magics, extra cells",
           noisy, FULL),
    Attack("markup", "scripts, event handlers and frames in markdown cells", with_markup,
           FULL),
    Attack("direct_stand_in", "scaled_softmax calls the grader's stand-in for itself",
           right_but("scaled_softmax", DIRECT_STAND_IN), FULL - POINTS["scaled_softmax"]),
    Attack("deep_reply", "scaled_softmax sends the grader a reply nested 200,000 deep",
           right_but("scaled_softmax", DEEP_REPLY), FULL - POINTS["scaled_softmax"]),
    Attack("malformed_metadata", "nbgrader metadata that is a string, a list, a list id",
           retagged(malformed_metadata), FULL),
    Attack("tests_first", "every test cell moved before the code it checks",
           retagged(tests_first), FULL),
    Attack("huge_print", "right answers and a 60 MB print", right_with(HUGE_PRINT), FULL),
    Attack("leftovers", "right answers, a SysV segment, files in /run/lock, /dev/shm, /tmp and "
           "a unix socket left behind", right_with(LEFTOVERS), FULL),
    Attack("huge_source", "right answers and a 6 MB cell of code", right_with(HUGE_SOURCE),
           FULL),
    Attack("link_solutions", "a symbolic link to the kit's solutions/, imported",
           wrong_with(FROM_LINKED_SOLUTIONS), None, links={"solutions": "{repo}/solutions"}),
    Attack("link_secret", "a symbolic link to a file only root can read, printed",
           wrong_with(READ_LINKED_SECRET), None, links={"notes.txt": "{secret}"}),
]
