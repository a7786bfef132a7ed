"""The grader's side of a call into the student's kernel.

`Remote` stands for something the student defined (a function, a class, an instance). Calling
it, reading an attribute or iterating sends one request to the agent in the kernel and reads
the reply as data: tensors are rebuilt here from plain numbers after their shape and dtype are
checked, and anything else comes back as another Remote. So a hidden check written for a local
function runs unchanged on the student's code, with every comparison made here.
"""

from __future__ import annotations

import builtins
import functools
import json
import time
from contextlib import contextmanager
from pathlib import Path

from torch import nn

import autograder.recorder
from autograder.i18n import t
from autograder.recorder import checked_record
from autograder.sandbox.agent import CALLBACK, MORE, READY, RESULT, decode, encode

# The recorder first: the agent records the calls of a watched step with it.
AGENT_SOURCE = (Path(autograder.recorder.__file__).read_text() + "\n\n"
                + Path(__file__).with_name("agent.py").read_text())
# The cell that makes the agent anew: its code, from this text, in a namespace of its own.
BOOT_CELL = ("__kit__ = (lambda ns: (exec(" + repr(AGENT_SOURCE) + ", ns), "
             "ns['Agent'](globals()))[1])({'__name__': 'kit_agent'})")
MAX_REPLY = 64 << 20
PARTS = 16  # a reply or a call larger than max_reply comes in parts: this many at most


class Message:
    """One reply or call of the agent, read part by part (a MORE prompt before its last
    part), kept only while it is within `bound` characters."""

    def __init__(self, bound):
        self.bound, self.parts, self.size = bound, [], 0

    def add(self, part):
        self.size += len(part)
        if self.size <= self.bound:
            self.parts.append(part)
        else:
            self.parts = []

    def end(self, last):
        """The whole message (None when it was larger than the bound); the next begins."""
        self.add(last)
        whole = "".join(self.parts) if self.size <= self.bound else None
        self.parts, self.size = [], 0
        return whole


class StudentError(Exception):
    """Student code raised `kind` in the kernel. For a built-in kind (KeyError ...) the error
    is also an instance of that class, so a check can expect it."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


@functools.cache
def error_class(kind):
    builtin = getattr(builtins, kind, None)
    if not (isinstance(builtin, type) and issubclass(builtin, Exception)):
        return StudentError
    try:
        return type(kind, (StudentError, builtin), {})
    except TypeError:  # a built-in whose layout cannot be mixed in (OSError ...)
        return StudentError


def no_reply():
    return StudentError("NoReply", t("the grader got no answer from the kernel (was __kit__ "
                                     "or input() changed?)"))


def bad_reply(error):
    return StudentError("BadReply", t("the kernel's answer is not plain data ({error})",
                                      error=error))


def student_error(kind, message):
    return error_class(kind)(kind, message)


def module_recipe(module):
    """A torch module the grader made (an nn.MultiheadAttention, or an
    nn.TransformerEncoderLayer with relu), sent as its class, sizes and weights."""
    if isinstance(module, nn.MultiheadAttention):
        args = [module.embed_dim, module.num_heads]
        kwargs = {"bias": module.in_proj_bias is not None, "batch_first": module.batch_first,
                  "kdim": module.kdim, "vdim": module.vdim}
    elif isinstance(module, nn.TransformerEncoderLayer) and \
            getattr(module, "activation_relu_or_gelu", 0) == 1:
        attention = module.self_attn
        args = [attention.embed_dim, attention.num_heads, module.linear1.out_features]
        kwargs = {"dropout": module.dropout.p, "batch_first": attention.batch_first,
                  "norm_first": module.norm_first, "layer_norm_eps": module.norm1.eps,
                  "bias": module.linear1.bias is not None}
    else:
        raise TypeError(f"cannot send a {type(module).__name__} into the kernel")
    state = encode(dict(module.state_dict()), lambda v: None)
    return {"module": {"class": type(module).__name__, "args": args, "kwargs": kwargs,
                       "state": state}}


class Link:
    """Requests to one kernel's agent; `references` answers the agent's stand-ins for
    earlier steps (name -> reference callable) while a step is judged.

    Requests go in a conversation: one run of `__kit__.converse()` in the kernel, which takes
    each request as the answer to its last input() (see agent.py), until `end`."""

    def __init__(self, kernel, timeout, max_reply=MAX_REPLY):
        self.kernel = kernel
        self.timeout = timeout  # a callable: seconds left for the next request
        self.max_reply = max_reply  # characters read at once: larger comes in parts
        self.references = {}  # the stand-ins the grader answers now (see stand_ins)
        self.open = None  # the conversation's Run, its last input() not answered yet
        self.records = None  # while a step is watched: the records of its calls, in order

    def boot(self):
        self.end()
        self.kernel.execute(BOOT_CELL, self.timeout(), silent=True)

    def to_wire(self, value):
        def handle_of(obj):
            if isinstance(obj, Remote):
                return {"handle": obj._ref["handle"]}
            if isinstance(obj, nn.Module):
                return module_recipe(obj)
            raise TypeError(f"cannot send a {type(obj).__name__} into the kernel")

        return encode(value, handle_of)

    def from_wire(self, data):
        return decode(data, lambda number: Remote(self, {"handle": int(number)}))

    def request(self, op, ref, boot=False, **fields):
        """The answer of the agent to one request; `boot`: make the agent anew first, in the
        run that begins a new conversation."""
        return self.read_reply(self.exchange({"op": op, "target": ref, **fields}, boot=boot))

    def batch(self, requests):
        """The answers of the agent to several requests ((op, ref, fields) each), made in the
        kernel one after another as `request` would make them, in one round trip (within the
        time of one request): for each, its value or the StudentError it raised (not raised
        here), each reply read, and bounded, as if it had come alone. The answers stop after
        the first NotImplementedError (the agent makes no request after it)."""
        text = self.exchange({"op": "batch", "requests": [
            {"op": op, "target": ref, **fields} for op, ref, fields in requests]},
            bound=2 * len(requests) * self.max_reply * PARTS)
        reply = self.parsed(text)
        each = reply.get("each") if isinstance(reply, dict) else None
        if each is None:
            self.value_of(reply)  # the batch failed as a whole: its error
        if not isinstance(each, list) or len(each) > len(requests) or \
                not all(isinstance(one, str) for one in each):
            raise bad_reply("not one answer a request")
        answers = []
        for one in each:
            try:
                answers.append(self.read_reply(one if len(one) <= self.max_reply * PARTS
                                               else None))
            except StudentError as error:
                answers.append(error)
        return answers

    def exchange(self, payload, boot=False, bound=None):
        """The text of the agent's reply to one request (None when larger than `bound`
        characters, by default PARTS times max_reply)."""
        seconds = self.timeout()
        deadline = time.monotonic() + seconds
        run = self.conversation(boot, deadline, seconds)
        run.answer(json.dumps({**payload, "part": self.max_reply}))
        return self.reply(run, deadline, seconds, bound or self.max_reply * PARTS)

    def conversation(self, boot, deadline, seconds):
        """The Run waiting for a request: the open one, or a new one (the agent made anew
        first when `boot`) once it asks for its first request."""
        if self.open is not None and not self.open.done and not boot:
            return self.open
        self.end()
        run = self.kernel.run((BOOT_CELL + "\n" if boot else "") + "__kit__.converse()",
                              silent=True)
        while (prompt := run.next_prompt(deadline, seconds)) is not None:
            if prompt == READY:
                self.open = run
                return run
            run.answer("")
        raise no_reply()

    def reply(self, run, deadline, seconds, bound):
        """The text of the reply to the request just sent, read part by part (None when
        larger than `bound`), the stand-ins' calls answered on the way; its input() is left
        waiting for the next request."""
        message = Message(bound)
        while (prompt := run.next_prompt(deadline, seconds)) is not None:
            if prompt.startswith(RESULT):
                return message.end(prompt[len(RESULT):])
            if prompt.startswith(MORE):
                message.add(prompt[len(MORE):])
                run.answer("")
            elif prompt.startswith(CALLBACK):
                run.answer(self.answer_callback(message.end(prompt[len(CALLBACK):])))
            else:  # an input() of the student's code
                run.answer("")
        self.open = None
        raise no_reply()

    def end(self):
        """End the conversation: its last input() and any after it get an empty answer,
        until the run is over (within the time of a request)."""
        run, self.open = self.open, None
        if run is None or run.done:
            return
        try:
            seconds = self.timeout()
        except BaseException:  # no time left: the kernel, waiting for an answer, goes
            self.kernel.stop()
            raise
        deadline = time.monotonic() + seconds
        run.answer("")
        while run.next_prompt(deadline, seconds) is not None:
            run.answer("")

    @contextmanager
    def talking(self):
        """A block whose requests share conversations, all ended when it ends."""
        try:
            yield self
        finally:
            self.end()

    def read_reply(self, text):
        """The value a reply's text holds (None: it was larger than PARTS times max_reply)."""
        return self.value_of(self.parsed(text))

    def parsed(self, text):
        """A reply's text as JSON."""
        if text is None:
            raise StudentError("TooLarge", t("the result is larger than the {limit} MB a "
                                             "reply may have",
                                             limit=self.max_reply * PARTS >> 20))
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as error:
            raise bad_reply(error) from None

    def value_of(self, reply):
        """The value a reply holds, or the StudentError it says the request raised; the
        record it carries, kept while a step is watched."""
        try:
            if self.records is not None and "record" in reply:
                self.records.append(checked_record(reply["record"]))
            failed = "error" in reply
            if failed:
                kind, message = str(reply["error"]), str(reply.get("message", ""))
            else:
                value = self.from_wire(reply["ok"])
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
            raise bad_reply(error) from None
        if failed:
            raise student_error(kind, message)
        return value

    def answer_callback(self, text):
        """A stand-in asks for the reference: answered only for the stand-ins of the step
        being judged, during its requests (self.references is empty at any other time)."""
        try:
            if text is None:
                raise ValueError(t("the call is larger than the {limit} MB a call may have",
                                   limit=self.max_reply * PARTS >> 20))
            request = json.loads(text)
            name = request["name"]
            if name not in self.references:
                raise LookupError(f"no stand-in for {name!r} is in use now")
            args = self.from_wire(request["args"])
            kwargs = self.from_wire(request["kwargs"])
            return json.dumps({"ok": self.to_wire(self.references[name](*args, **kwargs))})
        except Exception as error:  # noqa: BLE001 - told to the stand-in, which raises it
            return json.dumps({"error": f"{type(error).__name__}: {error}"[:300]})

    @contextmanager
    def stand_ins(self, references):
        """While the block runs (one step's judging), the earlier steps it calls are stand-ins
        in the kernel that this grader answers with the reference package. Afterwards,
        however the block ends (a student error, a dead kernel), the grader answers none."""
        self.references = dict(references)
        try:
            if references:
                self.request("install", {"global": "__kit__"}, names=sorted(references))
            yield
        finally:
            self.references = {}
        if references:
            self.request("restore", {"global": "__kit__"})


    @contextmanager
    def watching(self, counted):
        """While the block runs (one step's cases and properties), every call the grader
        makes is recorded in the kernel (autograder/recorder.py), entries of the functions named
        in `counted` counted; `records` holds the records, in the order of the calls."""
        self.records = []
        self.request("watch", {"global": "__kit__"}, counted=list(counted))
        try:
            yield self.records
        finally:  # the next step makes the agent anew: it records nothing then
            self.records = None


class Remote:
    """Something in the kernel. `source` is the student's code for it, when known."""

    def __init__(self, link, ref, source=None):
        object.__setattr__(self, "_link", link)
        object.__setattr__(self, "_ref", ref)
        object.__setattr__(self, "source", source)

    def __call__(self, *args, **kwargs):
        return self._call(args, kwargs)

    def seeded(self, seed, *args, burn=0, **kwargs):
        """Call under torch.manual_seed(seed) in the kernel (after `burn` other draws)."""
        return self._call(args, kwargs, seed=seed, burn=burn)

    def _call(self, args, kwargs, **fields):
        return self._link.request("call", self._ref, **self.call_fields(args, kwargs, fields))

    def call_fields(self, args, kwargs, fields):
        link = self._link
        return {"args": link.to_wire(args), "kwargs": link.to_wire(kwargs), **fields}

    def call_each(self, calls):
        """Several calls ((args, kwargs, seed, burn) each; seed None: unseeded) in one round
        trip: for each, its value or the StudentError it raised (see Link.batch). The calls
        stop before the first whose arguments cannot be sent: it, and those after it, get
        no answer (made alone, it raises its own error)."""
        requests = []
        for args, kwargs, seed, burn in calls:
            try:
                fields = self.call_fields(args, kwargs, {} if seed is None else
                                          {"seed": seed, "burn": burn})
            except (TypeError, ValueError):
                break
            requests.append(("call", self._ref, fields))
        return self._link.batch(requests) if requests else []

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self._link.request("getattr", self._ref, name=name)

    def __iter__(self):
        return iter(self._link.request("list", self._ref))

    def __repr__(self):
        return f"<student's {self._ref}>"
