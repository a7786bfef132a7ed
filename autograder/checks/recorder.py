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
    HELD_DEPTH,
    HELD_ENTRIES,
    HELD_KIND_IDS,
    HELD_TABLE,
    WRAPPERS,
    Parameter,
    Tensor,
    described,
    ipython_history,
    kernel_noted,
    meta_asked,
    namespace_kernel,
    new_record,
    noted_function,
    noted_operation,
    operation_returned,
    operation_started,
    perturbed_output,
    perturbs,
    plain_keys,
    tensors_in,
)

KEPT_CALLS = 8  # the subject's calls kept for a probe to choose from (checks/probes.py)


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
        self.calls = []  # (args, kwargs) of the subject's first KEPT_CALLS calls
        self.call_codes = []  # the code each of those calls ran (a class's: which method)
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
                    if len(self.calls) < KEPT_CALLS:  # a probe reruns one
                        self.calls.append(call_of(frame))
                        self.call_codes.append(code)
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
        recorder = self.recorder
        record = recorder.records[-1] if recorder.recording() else None
        if record is not None:
            operation_started(record)
            if kwargs or not func._name.startswith("aten::"):  # (most operations: neither)
                kernel_noted(record, namespace_kernel(func._name) or meta_asked(kwargs))
        out = func(*args, **(kwargs or {}))
        if record is not None and recorder.recording() and record is recorder.records[-1]:
            operation_returned(record)
            if any(kind is not Tensor and kind is not Parameter for kind in types):
                record["tampered"].append("subclass")
            noted_operation(record, operation_name(func), out, args)
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
            noted_function(record, function_name(func), tensors_in(out), sys._getframe(1),
                           args, kwargs)
        return out


def swapped_where_held(namespace, original, replacement):
    """Replace `original` by `replacement` where the namespace's code holds it besides its
    names, a few levels down (op_record's HELD_ limits): the default values of the
    functions it defined, their closures' cells and their attributes (of the methods of the
    classes it defined too, and of the functions a decorator wrapped), the entries of its
    tables (a dict, by keys that are strings or numbers, or a list) and of its tuples (a
    tuple that held it is replaced where it is held by one that holds the replacement), as
    grading's kernel does (sandbox/guard.py, `in_held`, which looks at the same places in the
    same order); [(the function, cell, table or namespace, the attribute, key or index, what
    it held before)]. IPython's history (In, Out, _5, ...) is left out."""
    swapped, done, left = [], {id(namespace): namespace}, [HELD_ENTRIES]  # (globals() held)
    name = namespace.get("__name__")

    def changes_in(pairs, depth):
        """[(place, before, after)] of the entries of `pairs` that held `original`, looked at
        in their order while the search has entries left."""
        changes = []
        for place, item in pairs:
            left[0] -= 1
            if left[0] < 0:
                break
            if type(place) is not str and type(place) is not int:
                continue
            if item is original:
                changes.append((place, item, replacement))
            elif id(type(item)) in HELD_KIND_IDS:
                new = held(item, depth + 1)
                if new is not item:
                    changes.append((place, item, new))
        return changes

    def put(holder, changes):
        for place, before, after in changes:
            swapped.append((holder, place, before))
            placed(holder, place, after)

    def looked_into(value):
        """Whether a table is looked into: one of at most HELD_TABLE entries, exactly a dict,
        list or tuple, a dict's keys all strings or ints (op_record.plain_keys)."""
        kind = type(value)
        if kind is dict:
            return len(value) <= HELD_TABLE and plain_keys(value)
        if kind is list or kind is tuple or kind is type:
            return len(value if kind is not type else vars(value)) <= HELD_TABLE
        return kind is FunctionType

    def own(value):
        """Whether the namespace's code defined `value`: a library's are not looked into."""
        if type(value) is type:
            module = vars(value).get("__module__")
            return type(module) is str and module == name
        return value.__globals__ is namespace

    def held(value, depth, wrappers=0):
        """`value` with `original` replaced in what it holds (in place where it can be; a new
        tuple for a tuple that held it), or `replacement` for `original` itself."""
        if value is original:
            return replacement
        if type(value) is staticmethod or type(value) is classmethod:
            value = value.__func__
        kind = type(value)
        if id(kind) not in HELD_KIND_IDS or depth > HELD_DEPTH or not looked_into(value):
            return value
        if id(value) in done:
            return done[id(value)]
        done[id(value)] = value  # a cycle ends here
        if kind is dict:
            put(value, changes_in(value.items(), depth))
        elif kind is list:
            put(value, changes_in(enumerate(value), depth))
        elif kind is tuple:
            changes = changes_in(enumerate(value), depth)
            if changes:
                items = list(value)
                for place, _, after in changes:
                    items[place] = after
                done[id(value)] = tuple(items)
        elif kind is type:  # its methods (an attribute of the class itself is not replaced)
            if own(value):
                changes_in(vars(value).items(), depth)
        else:  # a function: its default values, its closure's cells, its attributes
            attributes = value.__dict__
            if not looked_into(attributes):  # (its __dict__ set to a dict of another kind)
                attributes = {}
            if own(value):
                put(value, changes_in((("__defaults__", value.__defaults__),
                                       ("__kwdefaults__", value.__kwdefaults__)), depth - 1))
                for cell in value.__closure__ or ():
                    try:
                        contents = cell.cell_contents
                    except ValueError:  # a cell not filled yet
                        continue
                    put(cell, changes_in((("cell_contents", contents),), depth))
                put(attributes, changes_in(((key, item) for key, item in attributes.items()
                                            if not (type(key) is str and key == "__wrapped__")),
                                           depth))
            if wrappers < WRAPPERS:  # what a decorator wrapped, as deep as its wrapper
                held(attributes.get("__wrapped__"), depth, wrappers + 1)
        return done[id(value)]

    put(namespace, changes_in(((key, value) for key, value in namespace.items()
                               if value is not original and not ipython_history(key)), -1))
    return swapped


def placed(holder, place, value):
    """`value` put in `place` of a table, or as an attribute of a function or a cell."""
    if isinstance(holder, (dict, list)):
        holder[place] = value
    else:
        setattr(holder, place, value)


def restored(swapped):
    """Undo swapped_where_held (its list), the last change first."""
    for holder, place, before in reversed(swapped):
        placed(holder, place, before)


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
            changed = perturbed_output(value, generator, change.get("large", False),
                                       change.get("zero", False)) \
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
        changed = perturbed_output(value, self.generator, zero=self.spec.get("zero", False))
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
