"""Records what a call of the student's code computes, in this process: the notebook's
expect_rule (the test cell's calls) and the checks' own tests. Grading records in the judging
kernel instead, through its guard (autograder/sandbox/guard.py); both note each operation
with the same functions (autograder/checks/op_record.py), so a record means the same wherever it
was made.

While a Recorder runs it keeps one record per call of the subject (the student's function,
or the methods of the student's class); operations inside a function watched as `apart` (an
earlier step, judged in its own step) are not the subject's and are left out, and the entries
of the `counted` ones are counted.

This module imports only sys, torch and op_record: the build copies it into the notebook's
helper cell. `Perturbing` is a probe's change of what operations give (checks/probes.py), in
this process.
"""

import sys
import tracemalloc
from types import FunctionType

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

from autograder.checks.op_record import (
    Parameter,
    Tensor,
    described,
    new_record,
    noted_function,
    noted_operation,
    perturbed_output,
    perturbs,
    tensors_in,
)


def operation_name(func):
    """An ATen operation's name without its overload (`_softmax` of aten._softmax.default)."""
    return func.overloadpacket.__name__


def function_name(func):
    return getattr(func, "__name__", "") or type(func).__name__



def codes_of(target, depth=0):
    """The code objects of a function, or of every method a class of the student's defines
    (its bases from torch and Python left out); of an object called as a function (an instance
    of the student's class), its class's; of a wrapper (functools.wraps, lru_cache, partial),
    its own and those of what it wraps. Grading records whatever the call computes, so the
    notebook must find the student's code behind any of these as well."""
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
    if code is not None:
        codes.add(code)
    elif callable(target):
        codes |= codes_of(type(target))
    inner = wrapped_by(target)
    if inner is not None and depth < WRAPPERS:
        codes |= codes_of(inner, depth + 1)
    return codes


WRAPPERS = 20  # the longest chain of wrappers followed (a chain, never a cycle)


def wrapped_by(target):
    """What a wrapper wraps (functools.wraps' and lru_cache's __wrapped__, a partial's
    func), or None."""
    inner = getattr(target, "__wrapped__", None)
    if inner is None and type(target).__module__ == "functools":  # functools.partial
        inner = getattr(target, "func", None)
    return inner


def namespace_of(target):
    """The globals a function or class was defined in (a notebook's: its namespace); of a
    wrapper, those of what it wraps (torch.no_grad's wrapper was defined in torch)."""
    for _ in range(WRAPPERS):
        inner = wrapped_by(target)
        if inner is None:
            break
        target = inner
    target = getattr(target, "__func__", target)
    if hasattr(target, "__globals__"):
        return target.__globals__
    if not isinstance(target, type) and callable(target) and \
            type(target).__module__ != "builtins":
        target = type(target)  # an object called as a function: its class's
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


class Recorder:
    """Records every call of the subject while it runs (`start` ... `stop`, or `with`).

    `subject`: code objects of the subject (None: everything that runs is the subject's, on
    these `arguments`). `apart` and `counted`: {name: code objects} of functions whose
    entries are counted; operations inside an `apart` one are not the subject's. `records`:
    one record per outermost call of the subject. `measure`: each record says the most
    memory Python's objects and numpy's arrays took at once during its call (tracemalloc).
    A tensor of a class of its own that reaches torch's dispatch or a torch function, and a
    mode of the recorder's taken off torch's stack, are noted in the records (`tampered`), as
    grading notes them."""

    def __init__(self, subject=None, apart=None, counted=None, arguments=(), measure=False):
        self.watched = {}  # code -> (name, whether apart)
        for names, is_apart in ((counted or {}, False), (apart or {}, True)):
            for name, codes in names.items():
                for code in codes:
                    self.watched[code] = (name, is_apart)
        if subject is not None:  # a wrapper's code shared with a watched function (one
            shared = set(subject) & set(self.watched)  # decorator on both) is neither's
            subject = set(subject) - shared
            for code in shared:
                del self.watched[code]
        self.subject = subject
        self.records = []
        self.depth = 0 if subject is not None else 1  # subject frames on the stack
        self.away = 0  # apart frames on the stack, inside the subject
        self.modes = (Operations(self), Functions(self))
        self.profiling = bool(self.watched) or subject is not None
        self.previous_profile = None
        self.measure, self.tracing_before, self.baseline = measure, False, 0
        self.first_call = None  # (args, kwargs) of the subject's first call, a function's
        self.paused = False  # a probe's rerun (checks/probes.py): not recorded
        if subject is None:
            self.records.append(new_record([described(value) for value in arguments]))

    # Starting and stopping --------------------------------------------------------------

    def start(self):
        if self.measure:
            self.tracing_before = tracemalloc.is_tracing()
            if not self.tracing_before:
                tracemalloc.start()
            self.measured()
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
                if self.records:
                    self.records[-1]["tampered"].append("mode_gone")
        if self.profiling:
            sys.setprofile(self.previous_profile)
            self.profiling = False
        if self.measure:
            if self.subject is None and self.records:
                self.records[-1]["python_peak"] = self.measured()
            if not self.tracing_before:
                tracemalloc.stop()
            self.measure = False

    def measured(self):
        """The most bytes Python's objects took since the last measure beyond those then;
        the measure begins anew."""
        current, peak = tracemalloc.get_traced_memory()
        taken = max(peak - self.baseline, 0)
        tracemalloc.reset_peak()
        self.baseline = tracemalloc.get_traced_memory()[0]
        return taken

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # What runs ---------------------------------------------------------------------------

    def recording(self):
        return self.depth > 0 and self.away == 0 and bool(self.records) and not self.paused

    def profile(self, frame, event, arg):
        if event == "call":
            code = frame.f_code
            if self.subject is not None and code in self.subject:
                if self.paused:
                    return
                if self.depth == 0:
                    self.records.append(new_record(call_arguments(frame)))
                    if self.first_call is None:  # a probe reruns it (a function's)
                        self.first_call = call_of(frame)
                    if self.measure:
                        self.measured()
                self.depth += 1
            elif code in self.watched and self.depth > 0:
                name, is_apart = self.watched[code]
                if self.away == 0:
                    entered = self.records[-1]["entered"]
                    entered[name] = entered.get(name, 0) + 1
                self.away += is_apart
        elif event == "return":
            code = frame.f_code
            if self.subject is not None and code in self.subject and self.depth > 0 \
                    and not self.paused:
                self.depth -= 1
                if self.depth == 0 and self.measure:
                    self.records[-1]["python_peak"] = self.measured()
            elif code in self.watched and self.depth > 0 and self.watched[code][1]:
                self.away = max(self.away - 1, 0)


def call_of(frame):
    """(args, kwargs) of the call of a function just entered, as it was given them."""
    code = frame.f_code
    values = frame.f_locals
    names = code.co_varnames
    args = [values[name] for name in names[:code.co_argcount]]
    at = code.co_argcount + code.co_kwonlyargcount
    kwargs = {name: values[name] for name in names[code.co_argcount:at]}
    if code.co_flags & 0x04:  # *args
        args += list(values[names[at]])
        at += 1
    if code.co_flags & 0x08:  # **kwargs
        kwargs.update(values[names[at]])
    return args, kwargs


def call_arguments(frame):
    """The described positional arguments of a call just entered (`self` left out; a
    wrapper's `*args` are its positional arguments)."""
    code = frame.f_code
    names = code.co_varnames[:code.co_argcount]
    values = [frame.f_locals.get(name) for name in names]
    if names and names[0] in ("self", "cls"):
        values = values[1:]
    if code.co_flags & 0x04:  # *args
        values += list(frame.f_locals.get(code.co_varnames[
            code.co_argcount + code.co_kwonlyargcount]) or ())
    return [described(value) for value in values]


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
        recorder = self.recorder
        if recorder.recording():
            record = recorder.records[-1]
            if any(kind is not Tensor and kind is not Parameter for kind in types):
                record["tampered"].append("subclass")
            noted_operation(record, operation_name(func), tensors_in(out), args)
        return out


class Functions(TorchFunctionMode):
    """The torch functions called (above autograd: the names the library gives them)."""

    def __init__(self, recorder):
        super().__init__()
        self.recorder = recorder

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        recorder = self.recorder
        if recorder.recording():
            record = recorder.records[-1]
            if any(kind is not Tensor and kind is not Parameter for kind in types):
                record["tampered"].append("subclass")
            noted_function(record, function_name(func), tensors_in(out))
        return out


def swapped_where_held(namespace, original, replacement):
    """Replace `original` by `replacement` where the namespace's code holds it besides its
    names: the default values of its functions (its classes' methods, the functions a
    decorator wrapped) and the entries of the tables it binds (a dict, by keys that are
    strings or numbers, or a list), as grading's kernel does (sandbox/guard.py); [(the
    function or table, the attribute, key or index, what it held before)]."""
    swapped = []
    for function in functions_in(namespace):
        defaults, keywords = function.__defaults__, function.__kwdefaults__
        if defaults and any(item is original for item in defaults):
            swapped.append((function, "__defaults__", defaults))
            function.__defaults__ = tuple(replacement if item is original else item
                                          for item in defaults)
        if keywords and any(value is original for value in keywords.values()):
            swapped.append((function, "__kwdefaults__", keywords))
            function.__kwdefaults__ = {key: replacement if value is original else value
                                       for key, value in keywords.items()}
    for table in list(namespace.values()):
        places = (table.items() if type(table) is dict else
                  enumerate(table) if type(table) is list else ())
        for place, value in list(places):
            if value is original and type(place) in (str, int):
                swapped.append((table, place, value))
                table[place] = replacement
    return swapped


def functions_in(namespace):
    """The plain functions `namespace` binds, its classes define, and each wraps."""
    found = {}

    def take(value, depth=0):
        value = getattr(value, "__func__", value) if isinstance(value, (staticmethod,
                                                                        classmethod)) else value
        if isinstance(value, FunctionType) and id(value) not in found and depth <= WRAPPERS:
            found[id(value)] = value
            take(wrapped_by(value), depth + 1)

    for value in list(namespace.values()):
        for member in (vars(value).values() if isinstance(value, type) else (value,)):
            take(member)
    return list(found.values())


def restored(swapped):
    """Undo swapped_where_held (its list), the last change first."""
    for holder, place, before in reversed(swapped):
        if isinstance(holder, FunctionType):
            setattr(holder, place, before)
        else:
            holder[place] = before


class perturbing_here:  # noqa: N801 - a context manager, used as a function
    """A probe's change (checks/probes.py) while the block runs, in this process: the answers
    of an earlier step (`change["stand_in"]`: every name of `subject`'s namespace bound to
    that function, and every default value and table entry holding it (swapped_where_held),
    answers through a wrapper that changes one call's output, or each), or what
    some torch operations give (Perturbing). The dict the block gets has `seen` after it: how
    many calls or operations the change named."""

    def __init__(self, change, subject):
        self.change, self.subject, self.done = change, subject, {"seen": 0}

    def __enter__(self):
        change = self.change
        if "stand_in" not in change:
            self.perturbing = Perturbing(change).__enter__()
            return self.done
        self.perturbing = None
        self.namespace = namespace_of(self.subject)
        original = self.namespace.get(change["stand_in"])
        generator = torch.Generator().manual_seed(int(change["seed"]))
        done = self.done

        def answered(*args, **kwargs):
            value = original(*args, **kwargs)
            index = done["seen"]
            done["seen"] += 1
            changed = perturbed_output(value, generator, change.get("large", False)) \
                if change["which"] in (None, index) else None
            return value if changed is None else changed

        self.bound = [(name, value) for name, value in self.namespace.items()
                      if original is not None and value is original]
        self.swapped = [] if original is None else swapped_where_held(self.namespace,
                                                                      original, answered)
        for name, _ in self.bound:
            self.namespace[name] = answered
        return done

    def __exit__(self, *exc):
        if self.perturbing is not None:
            self.perturbing.__exit__(None, None, None)
            self.done["seen"] = self.perturbing.seen
            return
        for name, value in self.bound:
            self.namespace[name] = value
        restored(self.swapped)


class Perturbing:
    """A probe's change of what some operations give, in this process (checks/probes.py):
    while the block runs, noise is added to the output of the torch functions and ATen
    operations that `spec` names (op_record.perturbs), of one of them (`which`, counted from
    the block's start) or of each; `seen` counts those named."""

    def __init__(self, spec):
        self.spec, self.seen = spec, 0
        self.generator = torch.Generator().manual_seed(int(spec["seed"]))
        self.modes = (PerturbedOperations(self), PerturbedFunctions(self))

    def __enter__(self):
        for mode in self.modes:
            mode.__enter__()
        return self

    def __exit__(self, *exc):
        for mode in reversed(self.modes):
            mode.__exit__(None, None, None)

    def changed(self, name, op_args, value):
        if not perturbs(self.spec, name, op_args):
            return value
        index, self.seen = self.seen, self.seen + 1
        if self.spec["which"] is not None and self.spec["which"] != index:
            return value
        changed = perturbed_output(value, self.generator)
        return value if changed is None else changed


class PerturbedOperations(TorchDispatchMode):
    def __init__(self, perturbing):
        super().__init__()
        self.perturbing = perturbing

    @classmethod
    def _should_skip_dynamo(cls):
        return False

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        return self.perturbing.changed(operation_name(func), args, out)


class PerturbedFunctions(TorchFunctionMode):
    def __init__(self, perturbing):
        super().__init__()
        self.perturbing = perturbing

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        return self.perturbing.changed(function_name(func), None, out)
