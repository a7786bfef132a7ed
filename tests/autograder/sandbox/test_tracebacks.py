"""Tracebacks prepared by the template (autograder/sandbox/tracebacks.py)."""

from __future__ import annotations

import importlib.util
import inspect
import json.decoder
import re
import sys

import pytest

from autograder.sandbox import tracebacks
from tests.autograder.sandbox.conftest import run

INSPECTS = inspect.getmodule  # inspect's own (only the template installs the kit's)


@pytest.fixture()
def walks(monkeypatch):
    """inspect.getmodule as the template installs it, with a count of inspect's own calls
    (each a walk of every module when the answer is None), undone after the test."""
    calls = []

    def counted(object, _filename=None):
        calls.append(object)
        return inspect_getmodule(object, _filename)

    inspect_getmodule = tracebacks._getmodule
    monkeypatch.setattr(tracebacks, "_getmodule", counted)
    monkeypatch.setattr(tracebacks, "_walked", None)
    monkeypatch.setattr(inspect, "getmodule", tracebacks.getmodule)
    return calls


def inspects(item, file=None):
    """inspect's answer, with inspect's own lookup for the questions it asks itself."""
    kit = inspect.getmodule
    inspect.getmodule = INSPECTS
    try:
        return INSPECTS(item, file)
    finally:
        inspect.getmodule = kit


def raised(function):
    try:
        function()
    except Exception as error:  # noqa: BLE001 - its frames are what the tests look at
        return error.__traceback__
    raise AssertionError("did not raise")


def frames_of(traceback):
    found = []
    while traceback is not None:
        found.append(traceback.tb_frame)
        traceback = traceback.tb_next
    return found


def test_every_answer_is_inspects_own(walks, tmp_path):
    """For a cell's code, its frames and traceback, a module's frames, a function, a class
    and a module: is each answer the one inspect gives, asked again and again?"""
    cell = compile("def fails():\n    json.loads('{')\n", str(tmp_path / "123.py"), "exec")
    space = {"json": sys.modules["json"]}
    exec(cell, space)
    traceback = raised(space["fails"])
    objects = [cell, traceback, *frames_of(traceback), json.decoder.JSONDecoder,
               json.decoder.JSONDecoder.decode, json.decoder, space["fails"]]
    for _ in range(3):
        for item in objects:
            assert tracebacks.getmodule(item) is inspects(item)
            file = getattr(tracebacks.code_of(item), "co_filename", None)
            assert tracebacks.getmodule(item, file) is inspects(item, file)
    assert inspects(json.decoder.JSONDecoder) is json.decoder  # the comparison compares


def test_a_cells_file_makes_inspect_walk_the_modules_once(walks, tmp_path):
    """Are the modules walked once for a first cell's file, not again for it nor for a
    second cell's file while no module is imported?"""
    first = compile("x = 1", str(tmp_path / "1.py"), "exec")
    second = compile("y = 2", str(tmp_path / "2.py"), "exec")
    assert tracebacks.getmodule(first) is None
    assert len(walks) == 1
    for code in (first, second, first):
        assert tracebacks.getmodule(code) is None
        assert tracebacks.getmodule(code, code.co_filename) is None
    assert len(walks) == 1


def test_a_module_imported_since_is_found_by_its_file(walks, tmp_path, monkeypatch):
    """A file no module had, then a module is imported from it: is the module the answer,
    also when a module inspect knew already was asked about first?"""
    path = tmp_path / "made_later.py"
    path.write_text("VALUE = 1\n")
    code = compile("VALUE = 1\n", str(path), "exec")
    assert tracebacks.getmodule(code) is None
    spec = importlib.util.spec_from_file_location("made_later", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, "made_later", module)
    assert tracebacks.getmodule(json.decoder.JSONDecoder.decode.__code__) is json.decoder
    assert tracebacks.getmodule(code) is module


def test_a_kernels_traceback_is_the_one_ipython_makes(kernel):
    """In a kernel forked from the template: is inspect's lookup the template's, does a
    cell's error show the line that raised in the function of another cell, and is that
    traceback the very one IPython makes with inspect's own lookup, pygments' own formatter
    and stack_data's own style, walking no module for the cells' files once it walked them
    and drawing with the one formatter the template made?"""
    made, _ = run(kernel, "def fails(x):\n    return x.missing\nimport sys\n"
                          "print(len(sys.modules['tracebacks'].KeptTerminal256Formatter._made))")
    outputs, _ = kernel.execute("fails(3)", timeout=20)
    error = next(o for o in outputs if o.output_type == "error")
    assert "return x.missing" in re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(error.traceback))
    text, errors = run(kernel, """
import inspect, sys
kept = sys.modules["tracebacks"]
walks, original = [], kept._getmodule
shell, error = get_ipython(), sys.last_value
print(inspect.getmodule is kept.getmodule)
kept._getmodule = lambda o, f=None: walks.append(o) or original(o, f)
ours = shell.InteractiveTB.structured_traceback(type(error), error, error.__traceback__)
cells = [o for o in walks if kept.code_of(o) is not None and "ipykernel" in
         kept.code_of(o).co_filename]
kept._getmodule = original
inspect.getmodule = original
import stack_data, pygments.formatters.terminal256 as terminal256
made = len(kept.KeptTerminal256Formatter._made)
terminal256.Terminal256Formatter = kept.KeptTerminal256Formatter.__mro__[1]
stack_data.style_with_executing_node = stack_data.style_with_executing_node.__wrapped__
theirs = shell.InteractiveTB.structured_traceback(type(error), error, error.__traceback__)
inspect.getmodule = kept.getmodule
print(ours == theirs, len(ours) > 0, len(cells), made)
""")
    assert int(made) > 0  # the template drew one traceback: its formatters are every kernel's
    assert (text, errors) == (f"True\nTrue True 0 {made}", [])


def test_a_formatter_is_made_once_for_the_same_options(monkeypatch):
    """Does the same style give the same formatter, whose output is pygments' own
    formatter's, and another style, or line numbers (a formatter that counts its lines), a
    new one?"""
    import pygments
    from pygments.lexers import PythonLexer
    from pygments.styles import get_style_by_name

    monkeypatch.setattr(tracebacks.KeptTerminal256Formatter, "_made", {})
    Kept, Own = tracebacks.KeptTerminal256Formatter, tracebacks.terminal256.Terminal256Formatter
    default, other = get_style_by_name("default"), get_style_by_name("monokai")
    first = Kept(style=default)
    assert Kept(style=default) is first
    assert Kept(style=other) is not first
    numbered = Kept(style=default, linenos=True)
    assert Kept(style=default, linenos=True) is not numbered
    source = "def f(x):\n    return x.missing  # a comment\n"
    for style in (default, other):
        kept = pygments.highlight(source, PythonLexer(), Kept(style=style))
        assert kept == pygments.highlight(source, PythonLexer(), Own(style=style))
    twice = [pygments.highlight(source, PythonLexer(), Kept(style=default, linenos=True))
             for _ in range(2)]
    assert twice[0] == twice[1] == pygments.highlight(source, PythonLexer(),
                                                      Own(style=default, linenos=True))
