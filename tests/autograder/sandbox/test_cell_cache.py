"""Does a kernel run a cell exactly as IPython would when the template did IPython's work on
its text beforehand (autograder/sandbox/cell_cache.py)?"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import ipykernel.compiler
import nbformat
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from IPython.core.async_helpers import _should_be_async
from IPython.core.compilerop import CachingCompiler
from IPython.core.inputtransformer2 import TransformerManager

from autograder.build.standalone import unpacked_helpers
from autograder.sandbox import cell_cache
from tests.autograder.sandbox.conftest import run

REPO = Path(__file__).resolve().parents[3]

IPYTHON_TEXTS = ["x = 1\nx", "%time y = 2", "files = !ls\n", "len?", "%%capture\nprint(1)",
                 "  indented = 1\n", ">>> z = 3\n", "a = %who_ls\n", "print('%d' % 5)\n",
                 "def f(:\n", "s = '''\n!not a command\n'''\n", ""]


@pytest.fixture()
def installed(monkeypatch):
    """The cache installed as the template installs it, undone after the test."""
    monkeypatch.setattr(TransformerManager, "transform_cell", cell_cache.transform_cell)
    monkeypatch.setattr(ipykernel.compiler, "murmur2_x86", cell_cache.cell_hash)
    monkeypatch.setattr(cell_cache, "_transformed", cell_cache.Kept(cell_cache.MAX_CHARS))
    monkeypatch.setattr(cell_cache, "_parsed", cell_cache.Kept(cell_cache.MAX_PARSED_CHARS))
    monkeypatch.setattr(cell_cache, "_codes", {})


def ipython(text):
    try:
        return cell_cache._transform(TransformerManager(), text)
    except Exception as error:  # noqa: BLE001 - compared as IPython raises it
        return type(error)


def cached(text):
    try:
        return TransformerManager().transform_cell(text)
    except Exception as error:  # noqa: BLE001
        return type(error)


# One cache for all the examples, as a kernel keeps one for all its cells.
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.sampled_from(IPYTHON_TEXTS), st.text(max_size=80)))
def test_a_kept_transformation_is_ipythons_own(installed, text):
    """Is a text transformed as IPython transforms it, the first time and every time after
    (magics, shell escapes, help, prompts, syntax errors, any text)?"""
    assert cached(text) == ipython(text)
    assert cached(text) == ipython(text)


def test_a_manager_with_transforms_of_its_own_is_not_served_from_the_cache(installed):
    """Does a kernel that added an input transformer get it, on a text kept before?"""
    cached("print(ONE)\n")
    manager = TransformerManager()
    manager.line_transforms.append(lambda lines: [line.replace("ONE", "1") for line in lines])
    assert manager.transform_cell("print(ONE)\n") == "print(1)\n"


def test_the_cache_keeps_no_more_than_its_bound(installed, monkeypatch):
    """Does a process keep at most MAX_CHARS of texts, dropping the oldest first?"""
    monkeypatch.setattr(cell_cache._transformed, "limit", 1000)
    for number in range(50):
        cached(f"value_{number} = {'1' * 40}\n")
    kept = cell_cache._transformed
    assert 0 < kept.size <= 1000
    assert sum(chars for _, chars in kept.items.values()) == kept.size
    assert "value_49 = " + "1" * 40 + "\n" in kept.items
    assert "value_0 = " + "1" * 40 + "\n" not in kept.items


ASYNC_TEXTS = ["await something()\n", "async def f():\n    return 1\n", "return 3\n",
               "x = [i async for i in agen()]\n", "def g(:\n", "from __future__ import braces\n"]


# One template's cache for all the examples.
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.sampled_from(IPYTHON_TEXTS + ASYNC_TEXTS), st.text(max_size=80)))
def test_a_warmed_text_is_parsed_and_judged_async_as_ipython_does(installed, text):
    """For a warmed text, are the kept tree and the kept answer to "does it need an event
    loop" IPython's own (top-level await, async comprehensions, syntax errors, any text)?"""
    cell_cache.warm([text])
    transformed = cached(text)
    if not isinstance(transformed, str):
        return  # IPython refused the text: nothing of it is kept
    assert cell_cache.should_be_async(transformed) == _should_be_async(transformed)
    kept = cell_cache._parsed.get(transformed)
    try:
        parsed = ast.dump(cell_cache._parse(CachingCompiler(), transformed))
    except (SyntaxError, ValueError):
        assert kept is None
    else:
        assert ast.dump(kept[0]) == parsed


def files_of(code):
    return {code.co_filename} | {name for c in code.co_consts if isinstance(c, type(code))
                                 for name in files_of(c)}


CODE_TEXTS = ["x = 1\nx", "def f(a):\n    return [b for b in a]\nclass C:\n    y = lambda: 2\n",
              "import asyncio\nawait asyncio.sleep(0)\n", "from __future__ import annotations\n",
              "return 3\n", "total = 20 + 22\nprint(total)\ntotal"]


# One template's cache for all the examples.
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.sampled_from(CODE_TEXTS + IPYTHON_TEXTS), st.text(max_size=80)))
def test_a_kept_statements_code_is_the_one_ipython_compiles(installed, monkeypatch, text):
    """For each statement of a warmed text, in every mode and with the flags a kernel may
    compile it with: is the code handed out the compiler's own, named after the cell's file
    down to its functions and comprehensions, and is anything it cannot compile (a `return`
    outside a function, `await` without top-level await) raised as the compiler raises it?"""
    monkeypatch.setattr(cell_cache, "_codes", {})
    cell_cache.warm([text])
    transformed = cached(text)
    kept = cell_cache._parsed.get(transformed) if isinstance(transformed, str) else None
    if kept is None:
        return
    file = "/tmp/ipykernel_1/123.py"
    for statement in kept[0].body:
        modes = [("exec", ast.Module([statement], [])), ("single", ast.Interactive([statement]))]
        for flags in (cell_cache.FLAGS, cell_cache.FLAGS | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT):
            for symbol, module in modes:  # every statement as the last one too
                compiler, reference = CachingCompiler(), CachingCompiler()
                compiler.flags = reference.flags = flags
                try:
                    expected = cell_cache._compile(reference, module, file, symbol)
                except (SyntaxError, ValueError) as error:
                    with pytest.raises(type(error)):
                        cell_cache.compile_statement(compiler, module, file, symbol)
                    continue
                code = cell_cache.compile_statement(compiler, module, file, symbol)
                assert code == expected and files_of(code) == {file}
                assert compiler.flags == reference.flags  # what a __future__ import teaches it


def test_a_kernel_compiles_a_warmed_statement_only_through_the_template(kernel):
    """In a kernel forked after the warm: is no statement of a warmed cell compiled again
    (a cell that is not warmed is), does a function of a warmed cell name the cell's own
    file, and does a `__future__` import (in a warmed cell too) still change how the kernel
    compiles the warmed cells after it?"""
    warmed = ["def double(x):\n    return 2 * x\nprint(double(21))",
              "from __future__ import annotations",
              "def typed(x: NotDefined):\n    return x\nprint('typed')"]
    kernel.warm(warmed)
    kernel.restart()
    run(kernel, "import sys\nkept = sys.modules['cell_cache']\ncompiled = []\n"
                "own = kept._compile\n"
                "kept._compile = lambda *a, **k: compiled.append(a[2]) or own(*a, **k)\n"
                "file_of = lambda text: get_ipython().compile.get_code_name(text, '', 0)")
    assert run(kernel, warmed[0]) == ("42", [])
    assert run(kernel, f"print(file_of({warmed[0]!r}) in compiled, "
                       f"double.__code__.co_filename == file_of({warmed[0]!r}))") == (
        "False True", [])
    cold = "def triple(x):\n    return 3 * x"
    run(kernel, cold)
    assert run(kernel, f"print(file_of({cold!r}) in compiled)") == ("True", [])
    assert run(kernel, warmed[1]) == ("", [])
    assert run(kernel, warmed[2]) == ("typed", [])  # its annotation is never evaluated
    run(kernel, "kept._compile = own")


def test_the_template_keeps_trees_of_no_more_than_its_bound(installed, monkeypatch):
    """Does the template keep the trees of at most MAX_PARSED_CHARS of texts, the latest?"""
    monkeypatch.setattr(cell_cache._parsed, "limit", 500)
    monkeypatch.setattr(cell_cache, "_codes", {})
    cell_cache.warm([f"value_{n} = {n}\n" for n in range(100)])
    assert 0 < cell_cache._parsed.size <= 500
    assert cell_cache._parsed.get("value_99 = 99\n") is not None
    assert cell_cache._parsed.get("value_0 = 0\n") is None
    kept = [tree.body[0] for (tree, _), _ in cell_cache._parsed.items.values()]
    assert [statement for statement, _ in cell_cache._codes.values()] == kept


def test_a_cells_file_name_is_a_32_bit_number_of_its_text():
    """Does every text get a steady number of murmur2's size, other texts other numbers?"""
    numbers = {cell_cache.cell_hash(f"cell {n}", 0xC70F6907) for n in range(200)}
    assert len(numbers) == 200 and all(0 <= n < 2**32 for n in numbers)
    assert cell_cache.cell_hash("x = 1", 7) == cell_cache.cell_hash("x = 1", 7)


def test_a_warmed_cell_runs_in_a_real_kernel_as_ipython_runs_it(kernel):
    """In a kernel forked after the template warmed the texts: do magics still work, does a
    traceback still show the line that raised, and does a transformer the notebook adds
    apply to a warmed text?"""
    cells = ["%time total = 20 + 22\nprint(total)",
             "def fails():\n    raise ValueError('from fails')\nfails()",
             "print(ONE + 1)"]
    kernel.warm(cells)
    kernel.restart()  # a kernel forked after the warm
    assert run(kernel, cells[0])[0].endswith("42")
    outputs, _ = kernel.execute(cells[1], timeout=20)
    error = next(o for o in outputs if o.output_type == "error")
    shown = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(error.traceback))  # colours aside
    assert "raise ValueError('from fails')" in shown
    run(kernel, "get_ipython().input_transformer_manager.line_transforms.append("
                "lambda lines: [line.replace('ONE', '1') for line in lines])")
    assert run(kernel, cells[2]) == ("2", [])


def shown(kernel, code):
    outputs, _ = kernel.execute(code, timeout=20)
    return [o.data["text/plain"] for o in outputs if o.output_type == "execute_result"]


def test_a_warmed_tree_is_ipythons_whatever_the_kernel_changes(kernel):
    """In a kernel forked after the warm: does a cell that needs an event loop still get
    one; do an AST transformer the notebook adds, an interactivity that appends a statement
    to the cell, and a `__future__` import that changes the parser each apply to a warmed
    text, and leave it as it was for the runs after?"""
    cells = ["import asyncio\nawait asyncio.sleep(0)\nprint('awaited')",
             "value = 40 + 2",
             "print(1 != 2)"]
    kernel.warm(cells)
    kernel.restart()
    assert run(kernel, cells[0]) == ("awaited", [])
    assert shown(kernel, cells[1]) == []
    run(kernel, "get_ipython().ast_node_interactivity = 'last_expr_or_assign'")
    assert shown(kernel, cells[1]) == ["42"] and shown(kernel, cells[1]) == ["42"]
    run(kernel, "get_ipython().ast_node_interactivity = 'last_expr'")
    assert shown(kernel, cells[1]) == []
    run(kernel, "import ast\n"
                "class Plus(ast.NodeTransformer):\n"
                "    def visit_Constant(self, node):\n"
                "        return ast.Constant(node.value + 1) if node.value == 40 else node\n"
                "get_ipython().ast_transformers.append(Plus())")
    assert shown(kernel, cells[1] + "\nvalue") == ["43"]
    run(kernel, cells[1])
    assert shown(kernel, "value") == ["43"]
    run(kernel, "get_ipython().ast_transformers.clear()")
    run(kernel, cells[1])
    assert shown(kernel, "value") == ["42"]
    assert run(kernel, cells[2]) == ("True", [])
    run(kernel, "from __future__ import barry_as_FLUFL")  # the one import that changes parsing
    assert run(kernel, cells[2]) == ("", ["SyntaxError"])


def helper_cell(assignment="01_attention_by_hand"):
    notebook = nbformat.read(REPO / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    return next(cell.source for cell in notebook.cells
                if cell.metadata.get("nbgrader", {}).get("grade_id") == "public_checks")


def test_the_template_keeps_the_helper_cells_code_as_the_build_packed_it(installed,
                                                                          monkeypatch):
    """Does warming a released helper cell keep the code the build packed into it (the text
    course_helpers.py holds), compiled under the cell's NAME; and a cell whose packed text
    does not unpack, nothing?"""
    monkeypatch.setattr(cell_cache, "kept_helpers", {})
    cell = helper_cell()
    cell_cache.warm([cell, 'PACKED, NAME = "not base85 ~~", "x.py"\n'])
    ((packed, name), (text, code)), = cell_cache.kept_helpers.items()
    assert text == unpacked_helpers(cell) and name == "course_helpers.py"
    assert f'"{packed}"' in cell and code.co_filename == name
    assert code == compile(text, name, "exec", dont_inherit=True)


def test_a_kernel_runs_the_helper_cell_from_the_templates_code(kernel):
    """In a kernel forked after the warm: does the helper cell run the template's code (its
    helpers defined, no compile of its own), and one the template did not warm (here under
    another file's name) unpack and compile its own?"""
    warmed = helper_cell()
    cold = warmed.replace('"course_helpers.py"', '"other_helpers.py"')
    kernel.warm([warmed])
    kernel.restart()
    assert run(kernel, warmed) == ("", [])
    assert run(kernel, "print(KEPT is not None, callable(expect_close), "
                       "KEPT[1] is __import__('sys').modules['cell_cache']"
                       ".kept_helpers[PACKED, NAME][1])") == ("True True True", [])
    assert run(kernel, cold) == ("", [])
    assert run(kernel, "print(KEPT is None, callable(expect_close))") == ("True True", [])
