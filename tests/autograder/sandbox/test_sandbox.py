"""Does the sandbox keep a kernel in, and does the grader read only data out of it?

The wire format is tested as properties; the kernel is a real one, forked from the real
template, in the real sandbox when the tests run as root (as in CI)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.checks.op_record import HELD_TABLE
from autograder.checks.recorder import swapped_where_held
from autograder.grading.integrity import suspicious
from autograder.sandbox.agent import decode, encode
from autograder.sandbox.kernel import SandboxedKernel, Settings
from autograder.sandbox.link import Remote, StudentError
from tests.autograder.checks.test_recorder import SHORT_TABLES, STEPS
from tests.autograder.sandbox.conftest import guarded, run

ROOT = Path(__file__).resolve().parents[3]
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="the full sandbox needs root")

# -- the wire format ----------------------------------------------------------------------

shapes = st.lists(st.integers(0, 4), max_size=3)
dtypes = st.sampled_from([torch.float32, torch.float64, torch.int64, torch.bool])


@st.composite
def tensors(draw):
    shape, dtype = draw(shapes), draw(dtypes)
    return (torch.randn(shape) * 10).to(dtype)


values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-1e6, 1e6) | st.text(max_size=5)
    | tensors(),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8)


def same(a, b):
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and a.shape == b.shape and \
            torch.equal(a, b)
    if isinstance(a, list | tuple):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b and type(a) is type(b)


@settings(max_examples=50, deadline=None)
@given(values)
def test_data_survives_the_wire(value):
    """Does every value made of tensors, numbers, strings, lists, tuples and dicts come back
    equal, with its dtype and shape?"""
    back = decode(encode(value, lambda v: pytest.fail(f"not data: {v!r}")), pytest.fail)
    assert same(value, back)


@pytest.mark.parametrize("reply", [
    {"tensor": ["float32", [2, 2], [1.0, 2.0, 3.0]]},
    {"tensor": ["float32", [-1], []]},
    {"tensor": ["object", [1], [1.0]]},
    {"tensor": ["float32", [1], ["1.0"]]},
    {"tensor": ["float32", [1], [[1.0]]]},
    {"tensor": ["float32", [1], [1.0]], "extra": 1},
    {"pickle": "gASV"},
])
def test_malformed_replies_are_refused(reply):
    """Is a reply that is not exactly plain data refused rather than trusted?"""
    with pytest.raises(ValueError):
        decode(reply, lambda number: None)


def test_a_dict_of_keys_made_to_hash_alike_is_refused():
    """A student's dict of 20,000 int keys that all hash alike (k * (2**61 - 1)), which costs
    quadratic time to build: is it refused as it is read, while a dict of keys that only
    happen to hash alike a few times (1, 1.5 and -1 and -2, True and 1) still arrives?"""
    step = 2**61 - 1
    made = {"dict": [[k * step, 0] for k in range(1, 20_001)]}
    with pytest.raises(ValueError, match="hash alike"):
        decode(made, lambda number: None)
    plain = {"dict": [[1, "a"], [-1, "b"], [-2, "c"], [step + 1, "d"], [2.5, "e"]]}
    assert decode(plain, lambda number: None) == {1: "a", -1: "b", -2: "c", step + 1: "d",
                                                  2.5: "e"}


def test_a_tensor_subclass_arrives_as_a_plain_tensor():
    """Does a student's tensor subclass lose its overrides on the way out?"""
    class Agreeable(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return super().__torch_function__(func, types, args, kwargs)

    sent = torch.ones(2).as_subclass(Agreeable)
    back = decode(encode(sent, lambda v: None), lambda number: None)
    assert type(back) is torch.Tensor and torch.equal(back, torch.ones(2))


# -- integrity flags ------------------------------------------------------------------------


@pytest.mark.parametrize(("code", "word"), [
    ("exec(open('x').read())", "exec"),
    ("getattr(torch, 'soft' + 'max')", "getattr"),
    ("get_ipython().events", "get_ipython"),
    ("class T(torch.Tensor):\n    def __torch_function__(self): pass", "__torch_function__"),
    ("from torch.overrides import TorchFunctionMode", "TorchFunctionMode"),
    ("import subprocess", "subprocess"),
    ("import signal", "signal"),
    ("import os\nos._exit(0)", "os._exit"),
    ("import ctypes", "ctypes"),
    ("import sys\nsys.modules['torch'] = None", "sys.modules"),
    ("open('/etc/passwd')", "the path /etc/passwd"),
    ("open('../../source/a.ipynb')", "the path ../../source"),
    ("for p in ['/home/ada/01.ipynb', 'x']:\n    try:\n        print(open(p).read())\n"
     "    except OSError:\n        pass", "the path /home/ada/01.ipynb"),
    ("import os\nsecret = os.path.join('~/course', '.kit', 'secret')", "the path ~/course"),
])
def test_suspicious_code_is_flagged(code, word):
    """Is each kind of grader-facing code named?"""
    assert any(word in reason for reason in suspicious(code)), suspicious(code)


def test_ordinary_code_is_not_flagged():
    """Is a plain solution, with a magic and a literal getattr, left alone?"""
    code = ("%matplotlib inline\ndef f(x):\n    w = getattr(x, 'shape')\n"
            "    print('a/b', '/', 'see ../ in the docs')\n"
            "    return torch.softmax(x, dim=-1) @ open('data.txt').read()\n")
    assert suspicious(code) == []


# -- a real sandboxed kernel ---------------------------------------------------------------


def test_kernel_sees_its_folder_and_runs_torch(kernel):
    """Can student code read the files handed in beside the notebook, and use torch?"""
    text, errors = run(kernel,
                       "import torch\nprint(open('data.txt').read(), torch.ones(3).sum().item())")
    assert not errors and text == "the student's own file 3.0"


def test_kernel_has_limits(kernel):
    """Are memory, file size and process count limited?"""
    text, errors = run(kernel, "import resource\nprint(*(resource.getrlimit(r)[0] for r in "
                               "(resource.RLIMIT_AS, resource.RLIMIT_FSIZE)))")
    assert not errors and text == f"{4 << 30} {1 << 20}"


def test_open_files_are_limited_past_the_students_reach(kernel):
    """Are a kernel's open files limited (256), a limit its code cannot raise: the epoll
    watches of every process of the grader's user are shared, and 2,200 epolls watching
    2,600 eventfds each used them up, aborting the grader?"""
    text, errors = run(kernel, "import resource\n"
                               "print(*resource.getrlimit(resource.RLIMIT_NOFILE))\n"
                               "try:\n"
                               "    resource.setrlimit(resource.RLIMIT_NOFILE, (20000, 20000))\n"
                               "except ValueError:\n"
                               "    print('refused')\n")
    assert not errors and text == "256 256\nrefused", text


@ROOT_ONLY
def test_kernel_is_another_user_without_network_or_course_files(kernel):
    """As root: does student code run as the sandbox user, unable to see the kit's folder
    (solutions/, source/, the gradebook) or to reach the network?"""
    text, errors = run(kernel, f"""
import os, socket
print(os.getuid())
print(sorted(os.listdir({str(ROOT)!r})))
try:
    socket.create_connection(("127.0.0.1", 22), timeout=1)
except OSError as error:
    print(type(error).__name__)
""")
    uid, listing, network = text.splitlines()
    assert not errors and int(uid) == kernel.uid and kernel.uid >= 61000
    assert "solutions" not in listing and "source" not in listing
    assert network in ("ConnectionRefusedError", "OSError")


@ROOT_ONLY
def test_stop_kills_every_process_of_the_sandbox(kernel):
    """Does stopping the kernel kill a daemon it started in a session of its own?"""
    run(kernel, "import subprocess\nsubprocess.Popen(['sleep', '300'], start_new_session=True)")
    uid = kernel.uid
    kernel.stop()
    alive = [p for p in Path("/proc").iterdir()
             if p.name.isdigit() and p.exists() and p.stat().st_uid == uid]
    assert alive == []


def test_strays_are_killed_and_the_kernel_goes_on(kernel):
    """Are a daemon and a spinning copy of the kernel (os.fork) that a cell left behind
    killed, the kernel itself still answering?"""
    run(kernel, "import os, subprocess\n"
                "subprocess.Popen(['sleep', '300'], start_new_session=True)\n"
                "if os.fork() == 0:\n    while True:\n        pass\n")
    assert kernel.kill_strays() == 2
    assert kernel.kill_strays() == 0
    assert run(kernel, "print(6 * 7)") == ("42", [])


def test_a_dead_kernel_is_reported(kernel):
    """Does os._exit in student code end in KernelGone, not in a hang?"""
    from autograder.sandbox.kernel import KernelGone

    with pytest.raises(KernelGone, match="died"):
        kernel.execute("import os\nos._exit(3)", timeout=20)


def test_a_fresh_kernels_first_input_reaches_the_grader(tmp_path):
    """Does input() right after start reach the grader, in each of twenty fresh kernels? (A
    stdin channel that connected after the kernel's first request lost it: 4 kernels in 100
    then waited forever, and a correct step ran past its time limit.)"""
    prompts = []
    for number in range(20):
        folder = tmp_path / str(number)
        folder.mkdir()
        fresh = SandboxedKernel(folder, Settings(hidden=(str(ROOT),)))
        fresh.start()
        try:
            fresh.execute("input('ready?')", timeout=5, silent=True,
                          stdin_hook=lambda prompt: prompts.append(prompt) or "")
        finally:
            fresh.stop()
    assert prompts == ["ready?"] * 20


def test_remote_calls_return_plain_data(kernel):
    """Does a call into the kernel come back as data built here, and a student error as a
    StudentError naming its kind?"""
    link = guarded(kernel)
    run(kernel, "import torch\ndef double(x):\n    return x * 2\n"
                "def broken(x):\n    raise ValueError('no')\n")
    with link.talking():
        doubled = Remote(link, {"global": "double"})(torch.arange(3.0))
        assert type(doubled) is torch.Tensor and doubled.tolist() == [0.0, 2.0, 4.0]
        with pytest.raises(StudentError) as raised:
            Remote(link, {"global": "broken"})(torch.ones(1))
    assert raised.value.kind == "ValueError"


def test_stand_ins_ask_the_grader(kernel):
    """Does an earlier step's stand-in run the grader's reference, with no reference code in
    the kernel?"""
    link = guarded(kernel)
    run(kernel, "def uses_helper(x):\n    return helper(x) + 1\n")
    with link.talking(), link.stand_ins({"helper": lambda x: x * 10}):
        assert Remote(link, {"global": "uses_helper"})(torch.ones(2)).tolist() == [11.0, 11.0]
    text, errors = run(kernel, "print('helper' in globals())")
    assert text == "False"


def test_no_way_of_the_full_sandbox_refuses_and_limits_is_only_chosen(monkeypatch, tmp_path):
    """Where no way of the full sandbox can be had, does a kernel refuse to start (NoSandbox,
    one line naming each way's reason), rather than step down to limits only, which it gets
    only when chosen?"""
    from autograder.sandbox import isolation

    monkeypatch.setattr(isolation, "available", lambda: {
        isolation.NAMESPACES: "not root", isolation.USER_NAMESPACES: "Operation not permitted",
        isolation.LANDLOCK: "no Landlock"})
    with pytest.raises(isolation.NoSandbox, match=r"cannot be built here \(namespaces: not "
                       r"root; user-namespaces: Operation not permitted; landlock: no "
                       r"Landlock\)"):
        SandboxedKernel(tmp_path, Settings())
    chosen = SandboxedKernel(tmp_path, Settings(isolation="limits"))
    assert (chosen.mechanism, chosen.full) == (isolation.LIMITS, False)


def _child_state(queue):
    from autograder.sandbox import kernel as kernel_module

    queue.put((kernel_module.Zygote._instances == {}, kernel_module.claimed_uid(61000)))


@ROOT_ONLY
def test_a_forked_worker_gets_its_own_template_and_user(kernel):
    """Does a grading worker forked from a process with a kernel template start its own, under
    another sandbox user (two workers sharing one would kill each other's kernels)?"""
    import multiprocessing

    from autograder.sandbox.kernel import Zygote, claimed_uid

    assert Zygote._instances
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_child_state, args=(queue,))
    child.start()
    fresh, uid = queue.get(timeout=30)
    child.join()
    assert fresh and uid != claimed_uid(61000)


def test_a_kernel_starts_with_the_kits_settings(kernel):
    """Does a forked kernel keep no history and show a figure as a PNG image (its settings
    come as a Config, not a command line)?"""
    text, errors = run(kernel, "print(get_ipython().history_manager.enabled)")
    assert (text, errors) == ("False", [])
    outputs, _ = kernel.execute("import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()",
                                timeout=20)
    assert any("image/png" in o.get("data", {}) for o in outputs)


def test_a_kernels_collector_leaves_the_templates_objects_alone(kernel):
    """Are the objects a kernel inherits from the template (torch, IPython, matplotlib: a few
    hundred thousand) in the collector's permanent generation, so that its collections walk
    only what the notebook made (and copy no page of the template's by touching it)?"""
    text, errors = run(kernel, "import gc\nprint(gc.get_freeze_count())")
    assert errors == [] and int(text) > 100_000


def test_a_kernel_is_the_first_to_go_when_the_machine_runs_out_of_memory(kernel):
    """Is a kernel the out-of-memory killer's first choice, rather than the template whose
    death would take every worker's kernels with it?"""
    text, errors = run(kernel, "print(open('/proc/self/oom_score_adj').read())")
    assert (text, errors) == ("1000", [])


def test_a_kernel_configures_its_own_logger_and_leaves_the_others(kernel):
    """Does a kernel's app write its warnings, not its debug lines, to the kernel's log in
    traitlets' format, without logging's dictConfig, which wrote to every logger of the
    process (a page of the template's memory copied for each) and closed every handler the
    template's libraries had made?"""
    text, errors = run(kernel, "import logging\n"
                               "from ipykernel.kernelapp import IPKernelApp\n"
                               "log = IPKernelApp.instance().log\n"
                               "log.warning('a warning of the app'); log.debug('a debug line')\n"
                               "print(log.level, [h.level for h in log.handlers])\n"
                               "print(any(h() is logging.lastResort\n"
                               "          for h in logging._handlerList))")
    assert (text, errors) == ("30 [30]\nTrue", [])
    written = (Path(kernel.scratch) / ".kernel.log").read_text()
    assert "[KernelApp] WARNING | a warning of the app" in written
    assert "a debug line" not in written


def test_a_kernel_starts_without_listing_every_modules_file(kernel):
    """Does a kernel start without the list of every module's file that ipykernel makes for
    its debugger (1,500 modules, a page of the template's memory copied for each), with the
    real `sys` in ipykernel's module once it has started?"""
    text, errors = run(kernel, "import sys, ipykernel.ipkernel\n"
                               "print(get_ipython().kernel._kernel_modules)\n"
                               "print(ipykernel.ipkernel.sys is sys, len(sys.modules) > 1000)")
    assert (text, errors) == ("[]\nTrue True", [])


def needs_collapse():
    if tuple(map(int, os.uname().release.split(".")[:2])) < (6, 1) or \
            not os.path.exists("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"):
        pytest.skip("MADV_COLLAPSE needs Linux 6.1 with transparent huge pages")


def memory_sizes(pid):
    """{field: KiB} of /proc/PID/smaps_rollup."""
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        return {line.split(":")[0]: int(line.split()[1]) for line in rollup if ":" in line
                and line.split()[1].isdigit()}


def test_the_template_keeps_its_objects_in_huge_pages(kernel):
    """Is the template's heap (torch's, IPython's and matplotlib's objects) in 2 MiB pages
    where Linux can collapse them (6.1 and later), so that forking a kernel copies one
    page-table entry for 512 pages, without the template growing?"""
    needs_collapse()
    from autograder.sandbox.kernel import Zygote

    sizes = memory_sizes(Zygote.shared().process.pid)
    assert sizes["AnonHugePages"] > sizes["Anonymous"] / 4
    assert sizes["Anonymous"] < 400 << 10  # KiB: 195 MiB before huge pages, 196 after


HELD = STEPS + (
    "BEFORE = [score]\n"
    "def made(s):\n    def step(x):\n        return s(x, x)\n    return step\n\n"
    "closed = made(score)\n\n"
    "def tagged(x):\n    return tagged.score(x, x)\n\ntagged.score = score\n"
    "def defaulted(x, s=score):\n    return s(x, x)\n\n"
    "class Block:\n    use = score\n\n    def forward(self, x, *, s=score):\n"
    "        return s(x, x)\n\n"
    "NESTED = {'scores': {'scaled': score}, 'rows': [[other, score]]}\n"
    "PAIR, KEPT = (other, score), {'pair': (score,)}\n"
    "DEEP = {'a': {'b': {'c': {'d': {'e': score}}}}}\n"
    f"ROOTS = {{d: d ** 0.5 for d in range({HELD_TABLE + 1})}}\n"
    f"NUMBERS = [list(range({HELD_TABLE})) for _ in range({SHORT_TABLES})]\n"
    "AFTER = [score]\n"
    "def calls():\n"
    "    return [BEFORE[0](3, 3), closed(3), tagged(3), defaulted(3), Block().forward(3),\n"
    "            NESTED['scores']['scaled'](3, 3), NESTED['rows'][0][1](3, 3), PAIR[1](3, 3),\n"
    "            KEPT['pair'][0](3, 3), DEEP['a']['b']['c']['d']['e'](3, 3), AFTER[0](3, 3),\n"
    "            Block.use(3, 3)]\n")


def test_a_stand_in_reaches_where_the_notebook_puts_its_own(kernel):
    """Does grading's stand-in for an earlier step reach each place the student's code holds
    that step (a closure, an attribute, a method's default, nested tables, tuples), leave
    the ones the notebook's search leaves (too deep, after a long list, a class's own
    attribute), as the notebook does, and put each back after?"""
    def stand_in(k, q):
        return 0

    notebook = {"__name__": "__main__"}
    exec(HELD, notebook)  # noqa: S102 - the test's own code
    swapped_where_held(notebook, notebook["score"], stand_in)
    notebook["score"] = stand_in
    expected = notebook["calls"]()
    assert expected == [0] * 9 + [9, 9, 9], expected
    link = guarded(kernel)
    run(kernel, HELD)
    with link.talking(), link.stand_ins({"score": stand_in}):
        assert Remote(link, {"global": "calls"})() == expected
    assert run(kernel, "print(calls())") == (str([9] * 12), [])


KEY = ("RAN = []\n"
       "class Key:\n    def __hash__(self):\n        RAN.append(0)\n        return hash('s')\n"
       "    def __eq__(self, other):\n        RAN.append(1)\n        return False\n\n")


@pytest.mark.parametrize("where", ["PARTS = {'s': {Key(): 0, 's': score}}\n",
                                   "def step(x):\n    return x\n\n"
                                   "step.__dict__[Key()] = 0\nstep.s = score\n",
                                   "class Block:\n    locals()[Key()] = 0\n"
                                   "    def forward(self, x, s=score):\n        return x\n\n",
                                   "class Attributes(dict):\n    pass\n\n"
                                   "def step(x):\n    return x\n\n"
                                   "step.__dict__ = Attributes(s=score)\n"])
def test_a_search_runs_none_of_the_students_code(kernel, where):
    """Does grading's search for an earlier step leave alone a table whose keys could run the
    student's code in a lookup (a key's __hash__, or its __eq__ where its hash collides,
    inside the guard), and
    a function whose __dict__ is a dict of another kind, so that the stand-in still answers
    and nothing is read as tampering?"""
    link = guarded(kernel)
    run(kernel, STEPS + KEY + where + "RAN.clear()\n"
        "def calls():\n    return [score(3, 3), len(RAN)]\n")
    link.records = []
    with link.talking(), link.stand_ins({"score": lambda k, q: 0}):
        assert Remote(link, {"global": "calls"})() == [0, 0]
    assert not [r["tampered"] for r in link.records if r["tampered"]]


def test_a_namespace_key_that_is_not_a_name_is_tampering(kernel):
    """Is a key that is not a string in the student's namespace (every lookup of a name there
    could run its __eq__) read as tampering, the stand-ins not bound and its code not run?"""
    link = guarded(kernel)
    run(kernel, STEPS + KEY + "globals()[Key()] = 0\nRAN.clear()\n"
        "def calls():\n    return [score(3, 3), len(RAN)]\n")
    link.records = []
    with link.talking(), link.stand_ins({"score": lambda k, q: 0}):
        assert Remote(link, {"global": "calls"})() == [9, 0]
    assert any("namespace_key" in r["tampered"] for r in link.records)


def test_a_step_stood_in_for_and_counted_is_the_students_again_after(kernel):
    """06's loop_attention both stands in for scaled_dot_score and counts its calls: after
    the step, is the student's own function back under its names and where their code holds
    it, and does the next step's stand-in reach those places again?"""
    link = guarded(kernel)
    run(kernel, STEPS + "MINE, PAIR = score, (other, score)\n"
        "def calls():\n    return [score(3, 3), PAIR[1](3, 3)]\n")
    for _ in range(2):
        with link.talking(), link.stand_ins({"score": lambda k, q: 0}):
            with link.watching({"score"}):
                assert Remote(link, {"global": "calls"})() == [0, 0]
        assert run(kernel, "print(score is MINE, PAIR[1] is MINE, calls())") == (
            "True True [9, 9]", [])


def test_a_kernel_clients_context_ends_at_once_with_a_message_queued_to_no_one(kernel, tmp_path):
    """A kernel client dropped without stop() is ended by whichever thread collects it
    (zmq's Context.__del__). Where one of its sockets still holds a message for a kernel that
    is gone, does that end take no time? (With zmq's default linger it waited for ever: a test
    process hung so, in a collection during an unrelated test.)"""
    import threading

    import zmq

    client = kernel.client
    for channel in (client.shell_channel, client.iopub_channel, client.stdin_channel):
        channel.stop()
    socket = client.context.socket(zmq.DEALER)
    socket.connect(f"ipc://{tmp_path}/nobody.ipc")
    socket.send(b"for a kernel that is gone")
    ending = threading.Thread(target=client.context.destroy, daemon=True)
    ending.start()
    ending.join(timeout=10)
    assert not ending.is_alive(), "the context's end waits on a message no one will take"
    kernel.client = None  # ended here; the fixture's stop() ends the kernel alone
