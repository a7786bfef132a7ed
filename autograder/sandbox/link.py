"""The grader's side of a call into the student's judging kernel.

`Remote` stands for something the student defined (a function, a class, an instance). Calling
it, reading an attribute or iterating sends one request to the agent in the kernel and reads
the reply as data: tensors are rebuilt here from plain numbers after their shape and dtype are
checked, and anything else comes back as another Remote. So a hidden check written for a local
function runs unchanged on the student's code, with every comparison made here.

Each judging kernel gets the guard first (`Link.guard`, sandbox/guard.py), with a key of its
own sent through input() before any code of the student's runs there: every reply is then
sealed with it, numbered, and carries the record of everything computed since the reply
before. A reply that does not verify (altered, missing, added, replayed, or for another
request) is not read: its call fails, and the step's record says its replies were tampered
with, which breaks every rule on what the step computes.
"""

from __future__ import annotations

import builtins
import functools
import hashlib
import hmac
import json
import secrets
import time
from contextlib import contextmanager

from torch import nn

from autograder.checks.op_record import checked_record, new_record
from autograder.i18n import t
from autograder.sandbox import seccomp
from autograder.sandbox.agent import CALLBACK, MORE, READY, RESULT, decode, encode

# The cell that guards a judging kernel: the guard's code, as the kernel template compiled
# it (judging.py), run in a namespace of its own with a copy of the built-ins taken now,
# before any code of the student's ran.
GUARD_CELL = ("(lambda parts, ns: (exec(parts.GUARD, ns), ns['install'](input, parts)))("
              "__import__('sys').modules['judging'], {'__name__': 'kit_guard', "
              "'__builtins__': dict(vars(__import__('builtins')))})")
GUARD_PROMPT = "\x00kit-guard:"
# The cell that runs a conversation: the agent's code, as the guard keeps it, run afresh.
CONVERSE_CELL = ("(lambda box, ns: (__import__('sys').audit('kit.agent', box), "
                 "exec(box[0], ns), ns['converse']()))([None], {'__name__': 'kit_agent'})")
TAMPERED = "its replies to the grader were tampered with ({what})"
MAX_REPLY = 4 << 20  # GradeInSandbox.max_reply_mb's default
PARTS = 16  # a reply or a call larger than max_reply comes in parts: this many at most


def guard_settings(key, seed):
    """The line the guard reads through input() as it installs (guard.py): the key that seals
    the replies, the seccomp filter of a judging kernel, and the seed of its random state."""
    return json.dumps({"key": key.hex(), "filter": seccomp.program(seccomp.JUDGING),
                       "seccomp": seccomp.seccomp_number(), "seed": seed})


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


def no_reply(run=None):
    """The error of a request the kernel did not answer; what the kernel said instead, if it
    raised an error (the run's first), added."""
    error = next((o for o in getattr(run, "outputs", ()) if o.get("output_type") == "error"),
                 None)
    said = f" ({error.get('ename', '')}: {str(error.get('evalue', ''))[:200]})" if error else ""
    return StudentError("NoReply", t("the grader got no answer from the kernel (was input() "
                                     "changed?)") + said)


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
    """Requests to one judging kernel's agent, its replies verified; `references` answers
    the kernel's stand-ins for earlier steps (name -> reference callable) while a step is
    judged.

    Requests go in a conversation: one run of the agent's `converse()` in the kernel, which
    takes each request as the answer to its last input() (see agent.py), until `end`."""

    def __init__(self, kernel, timeout, max_reply=MAX_REPLY):
        self.kernel = kernel
        self.timeout = timeout  # a callable: seconds left for the next request
        self.max_reply = max_reply  # characters read at once: larger comes in parts
        self.references = {}  # the stand-ins the grader answers now (see stand_ins)
        self.open = None  # the conversation's Run, its last input() not answered yet
        self.records = None  # while a step is judged: the records of its replies, in order
        self.key = None  # the judging kernel's key (guard), None before it is guarded
        self.seq = 0  # replies verified so far in this kernel
        self.sent = 0  # requests sent so far
        # A probe's change of a stand-in's answers: [name, which of its calls (None: each),
        # the change, calls answered so far] (grading/remote_subject.py, `perturbed`).
        self.perturbing = None
        self.last_state = None  # the guard's settings, as the last reply said them
        # While a step is judged: which calls' memory the guard measures (Step.measured), or None
        self.measuring = None
        self.settings = 0  # settings sent to this kernel's guard (each numbered: taken once)
        self.pending = []  # settings to send with the next request, in its round trip

    def guard(self, seed=0):
        """Guard the kernel (guard.py) before any code of the student's runs in it: a new key,
        sent through input(), the seccomp filter of a judging kernel, and the seed of its
        random state (the notebook's: the same on every regrade)."""
        self.end()
        self.key, self.seq, self.settings = secrets.token_bytes(32), 0, 0
        # What was sealed for an earlier kernel is not for this one: a setting still unsent
        # when that kernel ended (a probe's undoing, after a step's rule broke) is dropped.
        self.pending, self.last_state = [], None
        settings = guard_settings(self.key, seed)
        outputs, status = self.kernel.execute(
            GUARD_CELL, self.timeout(), silent=True,
            stdin_hook=lambda prompt: settings if prompt == GUARD_PROMPT else "")
        if status != "ok":
            error = next((o for o in outputs if o.get("output_type") == "error"), {})
            raise RuntimeError(t("the judging kernel could not be guarded ({error})",
                                 error=f"{error.get('ename', '')}: {error.get('evalue', '')}"))

    def configure(self, **settings):
        """Send the guard settings, sealed with the key and numbered, so that none can be
        sent again (guard.py, `on_config`)."""
        op, ref, fields = self.sealed_setting(settings)
        if self.request(op, ref, **fields) is not True:
            raise StudentError("Tampered", t(TAMPERED, what=t("a setting did not arrive")))

    def configure_later(self, **settings):
        """The settings, sealed as `configure` seals them, sent ahead of the next request in
        its own round trip (a probe's change, made and undone around each rerun): the
        request sent, to `withdraw` while still unsent."""
        request = self.sealed_setting(settings)
        self.pending.append(request)
        return request

    def withdraw(self, request):
        """Whether a setting of `configure_later` was still unsent: it is dropped then."""
        if any(pending is request for pending in self.pending):
            self.pending = [pending for pending in self.pending if pending is not request]
            return True
        return False

    def sealed_setting(self, settings):
        self.settings += 1
        text = json.dumps({**settings, "setting": self.settings}, sort_keys=True)
        mac = hmac.new(self.key, ("config:" + text).encode(), hashlib.sha256).hexdigest()
        return "config", None, {"text": text, "mac": mac}

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

    def request(self, op, ref, **fields):
        """The answer of the agent to one request (the pending settings sent with it)."""
        if self.pending:
            answers = self.batch([(op, ref, fields)])
            if isinstance(answers[0], BaseException):
                raise answers[0]
            return answers[0]
        payload = {"op": op, "target": ref, **fields}
        text = self.exchange(payload)
        return self.read_reply(text, payload["digest"], 0)

    def batch(self, requests):
        """The answers of the agent to several requests ((op, ref, fields) each), made in the
        kernel one after another as `request` would make them, in one round trip (within the
        time of one request): for each, its value or the StudentError it raised (not raised
        here), each reply read, and bounded, as if it had come alone. The answers stop after
        the first NotImplementedError (the agent makes no request after it). The pending
        settings (`configure_later`) go first, each checked as `configure` checks it."""
        pending, self.pending = self.pending, []
        answers = self.answers_of(pending + list(requests))
        if any(answer is not True for answer in answers[:len(pending)]):
            raise StudentError("Tampered", t(TAMPERED, what=t("a setting did not arrive")))
        return answers[len(pending):]

    def answers_of(self, requests):
        payload = {"op": "batch", "requests": [
            {"op": op, "target": ref, **fields} for op, ref, fields in requests]}
        text = self.exchange(payload, bound=2 * len(requests) * self.max_reply * PARTS)
        try:
            outer = json.loads(text) if text is not None else None
        except (ValueError, RecursionError):
            outer = None
        each = outer.get("each") if isinstance(outer, dict) else None
        if each is None:
            self.read_reply(text, payload["digest"], 0)  # the batch failed as a whole: its error
            raise bad_reply("not one answer a request")
        if not isinstance(each, list) or len(each) > len(requests) or \
                not all(isinstance(one, str) for one in each):
            raise bad_reply("not one answer a request")
        answers = []
        for index, one in enumerate(each):
            try:
                answers.append(self.read_reply(one if len(one) <= self.max_reply * PARTS
                                               else None, payload["digest"], index))
            except StudentError as error:
                answers.append(error)
        return answers

    def exchange(self, payload, bound=None):
        """The text of the agent's reply to one request (None when larger than `bound`
        characters, by default PARTS times max_reply); the digest of the request's own text
        is kept in payload["digest"], once for all its replies: each is sealed over it."""
        seconds = self.timeout()
        deadline = time.monotonic() + seconds
        run = self.conversation(deadline, seconds)
        self.sent += 1
        text = json.dumps({**payload, "part": self.max_reply, "n": self.sent})
        payload["digest"] = hashlib.sha256(text.encode()).hexdigest()
        run.answer(text)
        return self.reply(run, deadline, seconds, bound or self.max_reply * PARTS)

    def conversation(self, deadline, seconds):
        """The Run waiting for a request: the open one, or a new one once it asks for its
        first request."""
        if self.open is not None and not self.open.done:
            return self.open
        self.end()
        run = self.kernel.run(CONVERSE_CELL, silent=True)
        while (prompt := run.next_prompt(deadline, seconds)) is not None:
            if prompt == READY:
                self.open = run
                return run
            run.answer("")
        raise no_reply(run)

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
        raise no_reply(run)

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

    def read_reply(self, text, digest, index):
        """The value a reply's text holds, once its seal verifies as the reply to the
        index-th call of the request whose text has this `digest` (None text: it was larger
        than PARTS times max_reply)."""
        if text is None:
            raise StudentError("TooLarge", t("the result is larger than the {limit} MB a "
                                             "reply may have",
                                             limit=self.max_reply * PARTS >> 20))
        return self.value_of(self.verified(text, digest, index))

    def verified(self, text, digest, index):
        """The reply a sealed text holds, if its seal is the guard's, it comes next in the
        kernel's numbering and answers this request (by its text's digest); its record,
        kept while a step is judged. A reply that fails fails its call and taints the step's
        record."""
        body, _, mac = text.rpartition("\x00")
        good = self.key is not None and hmac.compare_digest(
            mac, hmac.new(self.key, body.encode(), hashlib.sha256).hexdigest())
        try:
            reply = json.loads(body) if good else None
        except (ValueError, RecursionError):
            reply = None
        if not isinstance(reply, dict):
            self.taint("reply_unverified")
            raise StudentError("Tampered", t(TAMPERED, what=t("a reply did not verify")))
        expected, self.seq = self.seq + 1, max(self.seq, int(reply.get("seq", 0)))
        if reply.get("seq") != expected:
            self.taint("reply_missing")
        if reply.get("request") != digest or \
                reply.get("index") != index:
            self.taint("reply_other")
            raise StudentError("Tampered", t(TAMPERED, what=t("a reply answers another "
                                                               "request")))
        try:
            record = checked_record(reply.get("record"))
        except ValueError:
            record = new_record([])
            record["tampered"].append("record_malformed")
        if self.records is not None:
            self.records.append(record)
        self.last_state = reply.get("state")
        return reply

    def taint(self, what):
        """Note in the step's records that its replies were tampered with (`what`: a key of
        checks/operation_rules.TAMPERING)."""
        if self.records is not None:
            record = new_record([])
            record["tampered"].append(what)
            self.records.append(record)

    def parsed(self, text):
        """A reply's text as JSON."""
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as error:
            raise bad_reply(error) from None

    def value_of(self, reply):
        """The value a reply holds, or the StudentError it says the request raised."""
        try:
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
        being judged, during its requests (self.references is empty at any other time). A
        probe may change the answers of a stand-in (`perturbing`)."""
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
            answer = self.references[name](*args, **kwargs)
            if self.perturbing is not None and self.perturbing[0] == name:
                call, self.perturbing[3] = self.perturbing[3], self.perturbing[3] + 1
                changed = self.perturbing[2](answer) if self.perturbing[1] in (None, call) \
                    else None
                answer = answer if changed is None else changed
            return json.dumps({"ok": self.to_wire(answer)})
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
                self.configure(stand_ins=sorted(references), prompt=CALLBACK)
            yield
        finally:
            self.references = {}
        if references:
            self.configure(restore=sorted(references))

    @contextmanager
    def watching(self, counted, measure=None):
        """While the block runs (one step's cases and properties), the calls of the
        functions named in `counted` are counted in the kernel (guard.py), and in the calls
        whose positional arguments pass the test `measure` the memory Python's objects take
        is measured (`measured`); the step's records gather in `records`, in the order of
        the replies."""
        if counted:
            self.configure(counted=sorted(counted))
        self.measuring = measure
        try:
            yield self.records
        finally:
            self.measuring = None
            if counted:
                self.configure(restore=sorted(counted))

    def measures(self, args):
        """Whether a call on these positional arguments is measured."""
        return self.measuring is not None and self.measuring(tuple(args))

    @contextmanager
    def measured(self):
        """The guard measures the memory Python's objects take while the block runs: one
        call, its tensors sent in first by a request of their own (`kept`), so that only what
        the call makes is measured. Measuring slows every allocation in the kernel, so it is
        on for no other request."""
        self.configure(measure=True)
        try:
            yield
        finally:
            self.configure(measure=False)

    def kept(self, args, kwargs):
        """(args, kwargs) with every tensor in them sent into the kernel first, by a request
        of its own, and given back as the handle of what the kernel keeps."""
        return self.request("keep", None, args=self.to_wire((tuple(args), dict(kwargs))))


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
        link = self._link
        if not link.measures(args):
            return link.request("call", self._ref, **self.call_fields(args, kwargs, fields))
        with link.measured():
            args, kwargs = link.kept(args, kwargs)
            return link.request("call", self._ref, **self.call_fields(args, kwargs, fields))

    def call_fields(self, args, kwargs, fields):
        link = self._link
        return {"args": link.to_wire(args), "kwargs": link.to_wire(kwargs), **fields}

    def call_each(self, calls):
        """Several calls ((args, kwargs, seed, burn) each; seed None: unseeded) in one round
        trip: for each, its value or the StudentError it raised (see Link.batch). The calls
        stop before the first whose arguments cannot be sent, or whose memory is measured
        (`_call` measures it alone): it, and those after it, get no answer (made alone, it
        raises its own error)."""
        requests = []
        for args, kwargs, seed, burn in calls:
            if self._link.measures(args):
                break
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
