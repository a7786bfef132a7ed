"""The grader's agent inside the student's kernel, and the wire format both sides share.

The grader sends this file's text into the sandboxed kernel and runs `__kit__.converse()`,
which asks for requests with input() until an empty one comes: the input() that carries a
reply returns the grader's next request, so a request costs one round trip on the kernel's
stdin channel, not a cell. For each request the agent calls the student's function on the
inputs in it and sends back plain data: numbers, strings, shapes, flat lists of floats.
Objects that cannot be sent as data (a module instance, a bound method) stay in the kernel
behind a numbered handle.

Nothing here is trusted: the student's code runs in the same interpreter and can change any of
it. It does not need to be trusted. The grader chose the inputs afresh for this grading, knows
the right outputs, and reads the reply as data only (see link.py); a tampered agent can make
the student's own answer wrong, never right.

While the grader watches a step, every call is made under autograder/recorder.py's Recorder,
whose text the kernel gets before this file's, and the reply carries the call's record
beside its value: the earlier steps' stand-ins apart, the entries of the functions the
step's rules count counted.

This module imports only json and torch (and, in the grader, the recorder), so the grader
can use the same codec.
"""

import json

import torch

if "Recorder" not in globals():  # in the grader; the kernel has the recorder's text already
    from autograder.recorder import Recorder, codes_of

READY = "\x00kit-ready:"  # the prompt that asks for the first request
RESULT = "\x00kit-result:"  # the prompt of the input request that carries a reply
CALLBACK = "\x00kit-callback:"  # the prompt of one that asks the grader for a reference
MORE = "\x00kit-more:"  # the prompt of one that carries a part of a longer reply or call


def in_parts(text, size):
    """`text` cut in parts of at most `size` characters (one part when `size` is 0)."""
    if not size or len(text) <= size:
        return [text]
    return [text[start:start + size] for start in range(0, len(text), size)]


# The wire format ----------------------------------------------------------------------------
# JSON, with tensors, tuples, dicts, dtypes and handles as one-key objects. The same functions
# run on both sides; `handle_of` says what to do with an object that is not data.


def encode(value, handle_of):
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, torch.Tensor):
        flat = value.detach().cpu().reshape(-1)  # (numel,)
        return {"tensor": [str(value.dtype).removeprefix("torch."), list(value.shape),
                           flat.tolist(), bool(value.requires_grad)]}
    if isinstance(value, torch.dtype):
        return {"dtype": str(value).removeprefix("torch.")}
    if isinstance(value, torch.Size):
        return {"tuple": [int(n) for n in value]}
    if isinstance(value, tuple):
        return {"tuple": [encode(v, handle_of) for v in value]}
    if isinstance(value, list):
        return [encode(v, handle_of) for v in value]
    if isinstance(value, dict):
        return {"dict": [[encode(k, handle_of), encode(v, handle_of)] for k, v in value.items()]}
    return handle_of(value)


def decode(data, from_handle, from_module=None):
    if data is None or isinstance(data, bool | int | float | str):
        return data
    if isinstance(data, list):
        return [decode(v, from_handle, from_module) for v in data]
    if not isinstance(data, dict) or len(data) != 1:
        raise ValueError("malformed reply")
    (kind, body), = data.items()
    if kind == "tensor":
        return tensor_from(*body)
    if kind == "dtype":
        return getattr(torch, dtype_name(body))
    if kind == "tuple":
        return tuple(decode(v, from_handle, from_module) for v in body)
    if kind == "dict":
        return {decode(k, from_handle, from_module): decode(v, from_handle, from_module)
                for k, v in body}
    if kind == "handle":
        return from_handle(body)
    if kind == "module" and from_module is not None:
        return from_module(body)
    raise ValueError(f"malformed reply ({kind!r})")


DTYPES = ("float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8",
          "uint8", "bool")


def dtype_name(name):
    if name not in DTYPES:
        raise ValueError(f"unexpected dtype {name!r}")
    return name


def tensor_from(dtype, shape, flat, requires_grad=False):
    """A tensor built from plain numbers, after checking that they are plain numbers."""
    if not (isinstance(shape, list) and all(type(n) is int and n >= 0 for n in shape)):
        raise ValueError("malformed shape")
    if not (isinstance(flat, list) and all(type(v) in (int, float, bool) for v in flat)):
        raise ValueError("malformed tensor data")
    numel = 1
    for n in shape:
        numel *= n
    if len(flat) != numel:
        raise ValueError("tensor data does not fill its shape")
    tensor = torch.tensor(flat, dtype=getattr(torch, dtype_name(dtype))).reshape(shape)
    if requires_grad is True and tensor.is_floating_point():
        tensor.requires_grad_()  # a check may ask whether a result was detached
    return tensor


def call_seeded(function, seed, burn, *args, **kwargs):
    """function(*args, **kwargs) under torch.manual_seed(seed), after `burn` other random
    draws, leaving the caller's random state as it was. The grader calls its own subjects
    with it, the agent the student's: both draw the same numbers."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        if burn:
            torch.rand(burn)  # something else drew random numbers before
        return function(*args, **kwargs)


# The kernel side -----------------------------------------------------------------------------


class Agent:
    """Serves the grader's requests in the kernel's namespace."""

    def __init__(self, namespace):
        self.namespace = namespace
        self.handles = {}
        self.saved = {}
        self.part = 0  # the most characters the grader reads in one input request
        self.counted = None  # while a step is watched: the names its rules count
        self.record = None  # the record of the call being answered

    def send(self, prompt, text):
        """input(prompt + text), a text longer than the grader reads at once sent first in
        parts (MORE), so that a large answer or call costs time, never the step."""
        parts = in_parts(text, self.part)
        for part in parts[:-1]:
            input(MORE + part)
        return input(prompt + parts[-1])

    def handle_of(self, value):
        number = len(self.handles) + 1
        self.handles[number] = value
        return {"handle": number}

    def module_from(self, recipe):
        module = getattr(torch.nn, recipe["class"])(*recipe["args"], **recipe["kwargs"])
        module.load_state_dict(self.decoded(recipe["state"]))
        return module

    def decoded(self, data):
        return decode(data, self.handles.__getitem__, self.module_from)

    def target(self, ref):
        if "global" in ref:
            if ref["global"] not in self.namespace:
                raise NameError(f"name '{ref['global']}' is not defined")
            return self.namespace[ref["global"]]
        return self.handles[ref["handle"]]

    def run(self, request):
        op = request["op"]
        if op == "defined":
            return request["name"] in self.namespace
        target = self.target(request["target"])
        if op == "getattr":
            return getattr(target, request["name"])
        if op == "list":
            return list(target)
        if op == "install":
            return self.install(request["names"])
        if op == "restore":
            return self.restore()
        if op == "watch":  # until the agent is made anew, for the next step
            self.counted = [str(name) for name in request["counted"]]
            return None
        args = self.decoded(request["args"])
        kwargs = self.decoded(request["kwargs"])
        function = target if self.counted is None else self.recorded(target, args)
        if request.get("seed") is None:
            return function(*args, **kwargs)
        return call_seeded(function, request["seed"], request.get("burn", 0), *args, **kwargs)

    def recorded(self, target, args):
        """`target` called under a Recorder whose record is this reply's (the stand-ins of
        the earlier steps, and the student's own versions of them, apart)."""
        # The stand-ins alone are apart: a student's own earlier version, reached through an
        # alias, runs here, in this step, and what it computes is this step's.
        apart = {name: codes_of(self.namespace.get(name)) for name in self.saved}
        counted = {name: self.codes(name) for name in self.counted}
        recorder = Recorder(None, apart, counted, arguments=args)
        self.record = recorder.records[0]

        def call(*args, **kwargs):
            with recorder:
                return target(*args, **kwargs)

        return call

    def codes(self, name):
        """The code objects of what `name` is now, and of what it was before a stand-in."""
        codes = codes_of(self.namespace.get(name))
        before = self.saved.get(name, self)
        return codes | (codes_of(before) if before is not self else set())

    def install(self, names):
        """Put stand-ins for earlier steps in the namespace: each asks the grader to run the
        reference on its inputs, so no reference code enters the kernel."""
        for name in names:
            self.saved[name] = self.namespace.get(name, self)
            self.namespace[name] = self.stand_in(name)

    def restore(self):
        for name, value in self.saved.items():
            if value is self:
                self.namespace.pop(name, None)
            else:
                self.namespace[name] = value
        self.saved = {}

    def stand_in(self, name):
        agent = self

        def reference(*args, **kwargs):
            request = {"name": name, "args": encode(args, agent.handle_of),
                       "kwargs": encode(kwargs, agent.handle_of)}
            reply = json.loads(agent.send(CALLBACK, json.dumps(request)))
            if "error" in reply:
                raise RuntimeError(reply["error"])
            return agent.decoded(reply["ok"])

        reference.__name__ = name
        # Code of its own, so that a recording tells the stand-ins apart.
        reference.__code__ = reference.__code__.replace(co_name=name)
        return reference

    def converse(self):
        """Serve the grader's requests, one after another, until it sends an empty one."""
        line = input(READY)
        while line:
            line = self.serve(line)

    def serve(self, line):
        """Answer one request, or each of a batch's in order (the text of each reply, as it
        would be alone, up to the first that raises NotImplementedError: the grader stops a
        step's cases there); what the grader answers to the reply (its next request)."""
        try:
            request = json.loads(line)
            self.part = int(request.get("part") or 0)
            if request["op"] == "batch":
                replies = []
                for each in request["requests"]:
                    replies.append(self.reply_to(each))
                    if replies[-1].get("error") == "NotImplementedError":
                        break
                reply = {"each": [json.dumps(each) for each in replies]}
            else:
                reply = self.reply_to(request)
        except BaseException as error:  # noqa: BLE001 - every error is the student's answer
            reply = error_reply(error)
        return self.send(RESULT, json.dumps(reply))

    def reply_to(self, request):
        self.record = None
        try:
            reply = {"ok": encode(self.run(request), self.handle_of)}
        except BaseException as error:  # noqa: BLE001 - every error is the student's answer
            reply = error_reply(error)
        if self.record is not None:
            reply["record"] = self.record
        return reply


def error_reply(error):
    """The reply that says a request raised `error` (its message empty when the error cannot
    say it: a student's __str__ may raise too)."""
    try:
        message = str(error)[:300]
    except BaseException:  # noqa: BLE001
        message = ""
    return {"error": type(error).__name__, "message": message}

