"""Tests for autograder/sandbox/guard.py: can code in a guarded judging kernel reach the
guard, or get a reply past the grader that the guard did not seal? In a real sandboxed kernel,
guarded as grading guards it."""

import ast
import dis
import json
from pathlib import Path

import pytest
import torch

from autograder.sandbox import forwarders, guard
from autograder.sandbox.link import Link, Remote, StudentError
from tests.autograder.sandbox.conftest import run

SANDBOX = Path(guard.__file__).parent


def guarded(kernel):
    link = Link(kernel, lambda: 20)
    link.guard()
    with link.talking():
        link.configure(student=True)
    return link


def test_the_forwarders_read_no_global_or_built_in_name():
    """Does every function the student's code can reach forward without reading a global or
    a built-in name (which that code could rebind in the forwarders' namespace)?"""
    tree = ast.parse(Path(forwarders.__file__).read_text())
    code = compile(tree, "forwarders", "exec")
    functions = [const for const in code.co_consts if isinstance(const, type(code))]
    for cls in (c for c in code.co_consts if isinstance(c, type(code))):
        functions += [c for c in cls.co_consts if isinstance(c, type(code))]
    methods = [f for f in functions if f.co_name not in ("Operations", "Functions")]
    assert {f.co_name for f in methods} >= {"__torch_dispatch__", "__torch_function__",
                                            "through_guard", "stand_in", "counted"}
    for function in methods:
        loads = [i.argval for i in dis.get_instructions(function)
                 if i.opname in ("LOAD_GLOBAL", "LOAD_NAME", "LOAD_DEREF")]
        assert not loads, (function.co_name, loads)


def test_the_guard_defines_no_class():
    """Does the guard define no class (a class can be found from its bases, with the
    functions and closures it holds; a function cannot)?"""
    tree = ast.parse(Path(guard.__file__).read_text())
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]


PROBES = """
import sys, traceback
found = {}
def reach(name, how):
    try:
        found[name] = how()
    except BaseException as error:
        found[name] = 'refused: ' + type(error).__name__
def frames_of_a_refusal():
    try:
        import gc
        gc.get_objects()
    except PermissionError as error:
        tb = error.__traceback__
        names = []
        while tb is not None:
            names.append(tb.tb_frame.f_code.co_name)
            tb = tb.tb_next
        return names
reach('collector', lambda: len(__import__('gc').get_objects()))
reach('frames', frames_of_a_refusal)
reach('profile', lambda: sys.setprofile(lambda *a: None))
reach('ctypes', lambda: __import__('ctypes').CDLL(None))
reach('pickle', lambda: __import__('pickle').loads(b'c__main__\\nfound\\n.'))
reach('thread', lambda: __import__('threading').Thread(target=print).start())
reach('fork', lambda: __import__('os').fork())
reach('own frame', lambda: sys._getframe(0).f_code.co_name)
print(found)
"""


def test_code_in_a_guarded_kernel_reaches_none_of_the_guard(kernel):
    """Are the collector, profile functions, ctypes, pickle's globals, threads and processes
    refused in a guarded kernel, and does a traceback of a refusal hand out no frame of the
    guard's (its own frames stay the student's)?"""
    link = guarded(kernel)
    text, errors = run(kernel, PROBES)
    assert not errors, errors
    found = eval(text)  # noqa: S307 - the dict the probes printed
    for name in ("collector", "profile", "ctypes", "pickle", "thread", "fork"):
        assert str(found[name]).startswith("refused"), (name, found[name])
    assert found["frames"] == "refused: PermissionError"  # the guard's frame was reached for
    assert found["own frame"] == "<lambda>"
    link.records = []
    with link.talking():
        assert link.request("defined", None, name="found")
    tampered = {entry.split(":")[0] for r in link.records for entry in r["tampered"]}
    assert {"collector", "set_profile", "ctypes", "pickle", "frame", "process"} <= tampered


REGISTERS = """
import torch
def register(how):
    try:
        how()
        print('registered')
    except PermissionError:
        print('refused')
"""


def test_torch_may_register_its_own_operations_as_it_imports_itself(kernel):
    """Does the first assert_close of a guarded kernel run (it imports torch.distributed.tensor,
    whose import registers that module's operations: an honest softmax_backward with one
    debug assert_close lost its step), while a library the student's code registers, directly,
    from the body of a module of its own being imported, or in a library torch made, is still
    refused and noted?"""
    link = guarded(kernel)
    text, errors = run(kernel, "import torch\ns = torch.ones(3)\n"
                               "torch.testing.assert_close(s, torch.ones_like(s))\n"
                               "print('compared')")
    assert (text, errors) == ("compared", [])
    run(kernel, REGISTERS)
    assert run(kernel, "register(lambda: torch.library.Library('mine', 'DEF'))") == (
        "refused", [])
    run(kernel, "open('own_ops.py', 'w').write(\"import torch\\n"
                "lib = torch.library.Library('own', 'DEF')\\n\")")
    assert run(kernel, "register(lambda: __import__('own_ops'))") == ("refused", [])
    # a library torch made as it imported, reused (a helper's 7 of 7: a kernel of its own,
    # registered there, ran where nothing is recorded)
    assert run(kernel, "register(lambda: torch.export.custom_ops.lib.define("
                       "'kitx(Tensor x) -> Tensor'))") == ("refused", [])
    assert run(kernel, "register(lambda: torch.export.custom_ops.lib.m.impl("
                       "'kitx', 'CPU', lambda x: x, False))") == ("refused", [])
    link.records = []
    with link.talking():
        link.request("defined", None, name="register")
    assert any(entry.startswith("library") for r in link.records for entry in r["tampered"])


def test_a_reply_out_of_turn_does_not_verify(kernel):
    """Does a reply sealed by the guard but sent out of its turn (one more sealed by the
    student's code before it, so one reply is missing) fail, noted as tampering?"""
    link = guarded(kernel)
    run(kernel, "import sys, torch\n"
                "def early(x):\n"
                "    sys.audit('kit.seal', '{}', 0, ('ok', 1), [None])\n"
                "    return x * 2\n")
    link.records = []
    with link.talking():
        assert Remote(link, {"global": "early"})(torch.ones(2)).tolist() == [2.0, 2.0]
    assert any("reply_missing" in r["tampered"] for r in link.records)


def test_a_setting_is_taken_once(kernel):
    """Is a setting of the grader's, sealed and numbered, refused when it comes again (the
    student's code saw it go by and sends it a second time)?"""
    link = guarded(kernel)
    sent = []
    exchange = link.exchange

    def keep(payload, **options):
        if payload.get("op") == "config":
            sent.append((payload["text"], payload["mac"]))
        return exchange(payload, **options)

    link.exchange = keep
    with link.talking():
        link.configure(measure=True)
        link.configure(measure=False)
    text, mac = sent[0]
    run(kernel, f"import sys\nbox = []\nsys.audit('kit.config', {text!r}, {mac!r}, input, box)"
                "\nprint(box)")
    assert run(kernel, "print(box)")[0] == "[False]"
    link.records = []
    with link.talking():
        link.request("defined", None, name="box")
    assert any("setting_forged" in r["tampered"] for r in link.records)


def test_every_operation_between_two_replies_is_in_the_second(kernel):
    """Is what runs between two calls (the student's code run in no call of the grader's, as
    a patched agent would run it) in the record of the next reply?"""
    link = guarded(kernel)
    run(kernel, "import torch\ndef f(x):\n    return x + 1\n")
    link.records = []
    with link.talking():
        Remote(link, {"global": "f"})(torch.ones(2))
    run(kernel, "y = torch.softmax(torch.ones(3), 0)\n")
    with link.talking():
        Remote(link, {"global": "f"})(torch.ones(2))
    assert any("_softmax" in r["ops"] for r in link.records[-2:])


def test_a_value_is_read_by_its_type_alone(kernel):
    """Is a returned tuple subclass read through tuple's own methods (its __getitem__ and
    __iter__ not run), and a tensor subclass refused before anything of it is read?"""
    link = guarded(kernel)
    run(kernel, "import torch\n"
                "class Lazy(tuple):\n"
                "    def __iter__(self):\n"
                "        raise RuntimeError('ran')\n"
                "    def __getitem__(self, i):\n"
                "        raise RuntimeError('ran')\n"
                "class Later(torch.Tensor):\n"
                "    pass\n"
                "def lazy():\n"
                "    return Lazy((1, 2))\n"
                "def later():\n"
                "    return torch.zeros(2).as_subclass(Later)\n")
    with link.talking():
        assert Remote(link, {"global": "lazy"})() == (1, 2)
        with pytest.raises(StudentError, match="Later"):
            Remote(link, {"global": "later"})()


def test_the_guard_text_is_what_the_template_compiled():
    """Does the template's judging.py compile the very files the kit ships (guard,
    forwarders, op_record, agent), and name the same switches of torch's the guard decides?"""
    source = (SANDBOX / "judging.py").read_text()
    for name in ("guard.py", "forwarders.py", "agent.py", "op_record.py"):
        assert f'"{name}"' in source
    switches = next(ast.literal_eval(node.value) for node in ast.parse(source).body
                    if isinstance(node, ast.Assign) and node.targets[0].id == "SWITCHES")
    guard_text = Path(guard.__file__).read_text()
    assert all(f'"{name}":' in guard_text for name in switches)
    assert json.loads(json.dumps(switches))
