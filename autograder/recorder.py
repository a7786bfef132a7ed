"""What a call of the student's code computes: the record a step's rules on operations are
decided on (checks/operation_rules.py).

While a Recorder runs it keeps, for each call of the subject (the student's function or the
methods of the student's class), one record as plain data:
- `ops`: every operation torch ran, by name, at two levels: the torch functions called
  (`layer_norm`, `multi_head_attention_forward`, `_make_dual`) and the ATen operations they
  reach (`native_layer_norm`, `_softmax`, `native_batch_norm`), whatever the Python path;
- `autograd`: whether an autograd graph was walked (backward, torch.autograd.grad, torch.func)
  or forward-mode dual numbers were made;
- `entered`: how many times each watched function was entered (an earlier step's, the
  subject's helpers the rules name);
- `arguments`: the shape of each tensor argument and the value of each number;
- `largest`: the most numbers one operation produced;
- `weights`: the span of every softmax (the size of the dim it normalises) and exponential
  (the size of its last dim) computed.

Operations inside a function watched as `apart` (an earlier step, judged in its own step) are
not the subject's and are left out. The same class records in grading (autograder/sandbox/
agent.py, around each call the grader makes) and in the notebook (expect_rule's cell).

This module imports only sys and torch: the grader sends its text into the student's kernel,
and the build copies it into the notebook's helper cell.
"""

import sys

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

WEIGHT_OPS = frozenset({"exp", "exp_", "_softmax", "_safe_softmax", "softmax", "_masked_softmax"})
SOFTMAX_OPS = frozenset({"_softmax", "_safe_softmax", "softmax"})  # (input, dim, ...)
DUAL_FUNCTIONS = frozenset({"_make_dual", "make_dual"})
# Whether the autograd engine is running a backward pass (-1: not), read from torch's C module
# (a private function, read, never patched). A torch without it: the torch functions that
# start a backward pass (Tensor.backward, torch.autograd.grad) tell it instead.
GRAPH_TASK = getattr(torch._C, "_current_graph_task_id", None)
BACKWARD_FUNCTIONS = frozenset({"backward", "grad"})


def codes_of(target):
    """The code objects of a function, or of every method a class of the student's defines
    (its bases from torch and Python left out)."""
    codes = set()
    if isinstance(target, type):
        for cls in target.__mro__:
            if cls is object or str(cls.__module__).split(".")[0] in ("torch", "typing"):
                continue
            for value in vars(cls).values():
                value = getattr(value, "__func__", value)  # classmethod, staticmethod
                code = getattr(value, "__code__", None)
                if code is not None:
                    codes.add(code)
        return codes
    target = getattr(target, "__func__", target)
    code = getattr(target, "__code__", None)
    return {code} if code is not None else codes


def namespace_of(target):
    """The globals a function or class was defined in (a notebook's: its namespace)."""
    target = getattr(target, "__func__", target)
    if hasattr(target, "__globals__"):
        return target.__globals__
    for value in vars(target).values() if isinstance(target, type) else ():
        if hasattr(getattr(value, "__func__", value), "__globals__"):  # a method's
            return getattr(value, "__func__", value).__globals__
    module = sys.modules.get(getattr(target, "__module__", None) or "")
    return vars(module) if module is not None else {}


def watched(names, apart, counted):
    """({name: code objects} of the names in `apart`, the same of those in `counted`), as
    `names` (a namespace) binds them now."""
    return tuple({name: codes_of(names[name]) for name in group if name in names}
                 for group in (apart, counted))


def described(value):
    """An argument as a record keeps it: a tensor's shape, a number, or None."""
    if isinstance(value, torch.Tensor):
        return list(value.shape)
    if isinstance(value, bool | int | float):
        return value
    return None


class Recorder:
    """Records every call of the subject while it runs (`start` ... `stop`, or `with`).

    `subject`: code objects of the subject (None: everything that runs is the subject's, as
    in grading, where the recorder runs around one call, on these `arguments`). `apart` and
    `counted`: {name: code objects} of functions whose entries are counted; operations
    inside an `apart` one are not the subject's. `records`: one record per outermost call
    of the subject."""

    def __init__(self, subject=None, apart=None, counted=None, arguments=()):
        self.subject = subject
        self.watched = {}  # code -> (name, whether apart)
        for names, is_apart in ((counted or {}, False), (apart or {}, True)):
            for name, codes in names.items():
                for code in codes:
                    self.watched[code] = (name, is_apart)
        self.records = []
        self.depth = 0 if subject is not None else 1  # subject frames on the stack
        self.away = 0  # apart frames on the stack, inside the subject
        self.modes = (Operations(self), Functions(self))
        self.profiling = bool(self.watched) or subject is not None
        self.previous_profile = None
        if subject is None:
            self.records.append(new_record([described(value) for value in arguments]))

    # Starting and stopping --------------------------------------------------------------

    def start(self):
        if self.profiling:
            self.previous_profile = sys.getprofile()
            sys.setprofile(self.profile)
        for mode in self.modes:
            mode.__enter__()
        return self

    def stop(self):
        for mode in reversed(self.modes):
            try:
                mode.__exit__(None, None, None)
            except (AssertionError, RuntimeError, IndexError):  # popped already
                pass
        if self.profiling:
            sys.setprofile(self.previous_profile)
            self.profiling = False

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # What runs ---------------------------------------------------------------------------

    def recording(self):
        return self.depth > 0 and self.away == 0 and bool(self.records)

    def profile(self, frame, event, arg):
        if event == "call":
            code = frame.f_code
            if self.subject is not None and code in self.subject:
                if self.depth == 0:
                    self.records.append(new_record(call_arguments(frame)))
                self.depth += 1
            elif code in self.watched and self.depth > 0:
                name, is_apart = self.watched[code]
                if self.away == 0:
                    entered = self.records[-1]["entered"]
                    entered[name] = entered.get(name, 0) + 1
                self.away += is_apart
        elif event == "return":
            code = frame.f_code
            if self.subject is not None and code in self.subject and self.depth > 0:
                self.depth -= 1
            elif code in self.watched and self.depth > 0 and self.watched[code][1]:
                self.away = max(self.away - 1, 0)

    def operation(self, name, outputs, args=()):
        record = self.records[-1]
        record["ops"][name] = record["ops"].get(name, 0) + 1
        record["count"] += 1
        if GRAPH_TASK is not None and GRAPH_TASK() != -1:
            record["autograd"] = True
        for output in outputs:
            record["largest"] = max(record["largest"], output.numel())
            if name in WEIGHT_OPS and output.dim() > 0:
                dim = args[1] if name in SOFTMAX_OPS and len(args) > 1 and \
                    isinstance(args[1], int) else -1
                span = int(output.shape[dim])
                if span not in record["weights"]:
                    record["weights"].append(span)

    def function(self, name):
        record = self.records[-1]
        record["ops"][name] = record["ops"].get(name, 0) + 1
        if name in DUAL_FUNCTIONS or (GRAPH_TASK is None and name in BACKWARD_FUNCTIONS):
            record["autograd"] = True


def new_record(arguments):
    return {"ops": {}, "count": 0, "autograd": False, "entered": {}, "arguments": arguments,
            "largest": 0, "weights": []}


def checked_record(data):
    """A record read back from the kernel, as plain data of the expected kinds (ValueError
    otherwise): the grader reads nothing else of it."""

    def counts(value):
        if not (isinstance(value, dict) and all(isinstance(k, str) and type(n) is int
                                                for k, n in value.items())):
            raise ValueError("malformed record")
        return dict(value)

    def argument(value):
        if value is None or type(value) in (bool, int, float):
            return value
        if isinstance(value, list) and all(type(n) is int for n in value):
            return list(value)
        raise ValueError("malformed record")

    if not isinstance(data, dict) or set(data) != set(new_record([])):
        raise ValueError("malformed record")
    if not (type(data["count"]) is int and type(data["largest"]) is int
            and type(data["autograd"]) is bool
            and isinstance(data["arguments"], list) and isinstance(data["weights"], list)
            and all(type(n) is int for n in data["weights"])):
        raise ValueError("malformed record")
    return {**data, "ops": counts(data["ops"]), "entered": counts(data["entered"]),
            "arguments": [argument(value) for value in data["arguments"]],
            "weights": list(data["weights"])}


def call_arguments(frame):
    """The described positional arguments of a call just entered (`self` left out)."""
    code = frame.f_code
    names = code.co_varnames[:code.co_argcount]
    values = [frame.f_locals.get(name) for name in names]
    if names and names[0] in ("self", "cls"):
        values = values[1:]
    return [described(value) for value in values]


def tensors_in(value):
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, tuple | list):
        return [t for item in value for t in tensors_in(item)]
    return []


class Operations(TorchDispatchMode):
    """The ATen operations that run (below autograd: what is computed, by any path)."""

    def __init__(self, recorder):
        super().__init__()
        self.recorder = recorder

    @classmethod
    def _should_skip_dynamo(cls):
        """False: torch then leaves __torch_dispatch__ as it is, instead of wrapping it for
        torch.compile, whose first call imports dynamo and sympy (0.9 s in every kernel).
        Nothing is compiled under the recorder (graded code may not call compile)."""
        return False

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if self.recorder.recording():
            self.recorder.operation(func.overloadpacket.__name__, tensors_in(out), args)
        return out


class Functions(TorchFunctionMode):
    """The torch functions called (above autograd: the names the library gives them)."""

    def __init__(self, recorder):
        super().__init__()
        self.recorder = recorder

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if self.recorder.recording():
            self.recorder.function(getattr(func, "__name__", "") or type(func).__name__)
        return func(*args, **(kwargs or {}))
