"""The grader's agent inside the judging kernel, and the wire format both sides share.

The guard (guard.py) keeps this file's code; each conversation runs it afresh
(link.py, `CONVERSE_CELL`): `converse()` asks for requests with input() until an empty one
comes, and the input() that carries a reply returns the grader's next request, so a request
costs one round trip on the kernel's stdin channel, not a cell. For each request the agent
calls the student's function on the inputs in it, and the guard writes the reply: the value
as plain data (numbers, strings, shapes, flat lists of floats; an object that is not data
stays in the kernel behind a numbered handle), the record of what was computed since the
last reply, and a seal only the grader can check.

Nothing here is trusted: the student's code runs in the same interpreter and can change any
of it, and need not be stopped from doing so. The agent carries text; what the grader reads
is what the guard sealed, of what the guard recorded. A tampered agent can make the student's
own answer wrong or unsealed, never right.

This module imports only json, sys and torch, so the grader can use the same codec.
"""

import json
import sys

import torch

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
# run on both sides; `handle_of` says what to do with an object that is not data. (In the
# judging kernel the guard writes replies itself, in this format, of exact types only.)


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
        pairs = [(decode(k, from_handle, from_module), decode(v, from_handle, from_module))
                 for k, v in body]
        hashing_apart([key for key, _ in pairs])
        return dict(pairs)
    if kind == "handle":
        return from_handle(body)
    if kind == "module" and from_module is not None:
        return from_module(body)
    raise ValueError(f"malformed reply ({kind!r})")


MOST_ALIKE_HASHES = 8  # keys of one dict that hash alike: more are a reply made to be slow


def hashing_apart(keys):
    """A ValueError where more than MOST_ALIKE_HASHES of `keys` share a hash. Keys
    made to hash alike (ints k * (2**61 - 1), which a student's code makes in a line) cost a
    dict quadratic time to build: 20,000 of them, two seconds; two hundred such dicts in one
    reply held a grading worker for minutes, outside every time limit the kernel has. Counting
    the hashes themselves is linear: equal hashes are one entry of the count."""
    seen = {}
    for key in keys:
        try:
            value = hash(key)
        except TypeError:
            raise ValueError("malformed reply (a key that is not hashable)") from None
        seen[value] = seen.get(value, 0) + 1
        if seen[value] > MOST_ALIKE_HASHES:
            raise ValueError("malformed reply (dict keys made to hash alike)")


DTYPES = ("float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8",
          "uint8", "bool")


def dtype_name(name):
    if name not in DTYPES:
        raise ValueError(f"unexpected dtype {name!r}")
    return name


PLAIN_NUMBERS = {int, float, bool}  # exactly these types: no subclass of them


def tensor_from(dtype, shape, flat, requires_grad=False):
    """A tensor built from plain numbers, after checking that they are plain numbers."""
    if not (isinstance(shape, list) and all(type(n) is int and n >= 0 for n in shape)):
        raise ValueError("malformed shape")
    if not (isinstance(flat, list) and set(map(type, flat)) <= PLAIN_NUMBERS):
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
    draws, leaving the caller's random state as it was: the student's function, called by the
    agent. The grader seeds its own subjects the same way (checks/common.py, seeded_as, which
    this file may not import), so both draw the same numbers. Only the CPU's generator is
    seeded, the one torch.manual_seed seeds here: torch.manual_seed also queues a seed for
    each accelerator torch has not started, formatting the call's stack for each."""
    with torch.random.fork_rng(devices=[]):
        torch.default_generator.manual_seed(seed)
        if burn:
            torch.rand(burn)  # something else drew random numbers before
        return function(*args, **kwargs)


def module_from(recipe):
    """A torch module the grader described (link.module_recipe): its class, sizes, weights."""
    module = getattr(torch.nn, recipe["class"])(*recipe["args"], **recipe["kwargs"])
    module.load_state_dict(decode(recipe["state"], lambda number: None))
    return module


# The kernel side -----------------------------------------------------------------------------


def converse():
    """Serve the grader's requests, one after another, until it sends an empty one."""
    agent = Agent(sys.modules["__main__"].__dict__)
    line = input(READY)
    while line:
        line = agent.serve(line)


class Agent:
    """Serves the grader's requests in the kernel's namespace."""

    def __init__(self, namespace):
        self.namespace = namespace
        self.part = 0  # the most characters the grader reads in one input request

    def send(self, prompt, text):
        """input(prompt + text), a text longer than the grader reads at once sent first in
        parts (MORE), so that a large answer or call costs time, never the step."""
        parts = in_parts(text, self.part)
        for part in parts[:-1]:
            input(MORE + part)
        return input(prompt + parts[-1])

    def serve(self, line):
        """Answer one request, or each of a batch's in order (each reply sealed alone, up to
        the first that raises NotImplementedError: the grader stops a step's cases there);
        what the grader answers to the reply (its next request)."""
        try:
            request = json.loads(line)
            self.part = int(request.get("part") or 0)
            if request["op"] == "batch":
                replies = []
                for index, each in enumerate(request["requests"]):
                    outcome = self.outcome(each)
                    replies.append(sealed(line, index, outcome))
                    if outcome[:2] == ("error", "NotImplementedError"):
                        break
                text = json.dumps({"each": replies})
            else:
                text = sealed(line, 0, self.outcome(request))
        except BaseException as error:  # noqa: BLE001 - every error is the student's answer
            text = sealed(line, 0, error_outcome(error))
        return self.send(RESULT, text)

    def outcome(self, request):
        """("ok", value) of a request, ("keep", value) of one that sends values for the kernel
        to keep (the guard answers with their handles), or ("error", kind, message)."""
        try:
            if request["op"] == "keep":
                return ("keep", self.decoded(request["args"]))
            return ("ok", self.run(request))
        except BaseException as error:  # noqa: BLE001 - every error is the student's answer
            return error_outcome(error)

    def run(self, request):
        op = request["op"]
        if op == "defined":
            return request["name"] in self.namespace
        if op == "config":  # the grader's sealed settings, for the guard to check and apply
            box = []
            sys.audit("kit.config", request["text"], request["mac"], input, box)
            return bool(box and box[0])
        target = self.target(request["target"])
        if op == "getattr":
            return getattr(target, request["name"])
        if op == "list":
            return list(target)
        args = self.decoded(request["args"])
        kwargs = self.decoded(request["kwargs"])
        if request.get("seed") is None:
            return target(*args, **kwargs)
        return call_seeded(target, request["seed"], request.get("burn", 0), *args, **kwargs)

    def decoded(self, data):
        return decode(data, self.handle, module_from)

    def target(self, ref):
        if "global" in ref:
            if ref["global"] not in self.namespace:
                raise NameError(f"name '{ref['global']}' is not defined")
            return self.namespace[ref["global"]]
        return self.handle(ref["handle"])

    @staticmethod
    def handle(number):
        box = [None]
        sys.audit("kit.handle", number, box)
        return box[0]


def sealed(request, index, outcome):
    """The guard's sealed reply to a request's index-th call (the text itself when no guard
    answers: the grader then refuses it)."""
    box = [None]
    sys.audit("kit.seal", request, index, outcome, box)
    return box[0] if isinstance(box[0], str) else json.dumps({"unsealed": True})


def error_outcome(error):
    """The outcome that says a request raised `error` (its message empty when the error cannot
    say it: a student's __str__ may raise too)."""
    try:
        kind = str(type(error).__name__)
    except BaseException:  # noqa: BLE001
        kind = "Exception"
    try:
        message = str(error)[:300]
    except BaseException:  # noqa: BLE001
        message = ""
    return ("error", kind, message)
