"""What the student's code can reach of the judging kernel's guard (guard.py): objects that
only forward what happens to the guard's audit hook, and carry nothing it keeps.

The guard sends this file's text into the judging kernel and runs it in a namespace of its
own. Everything here is written so that no change the student's code can make alters what it
forwards: a method reads its state from its class (`self.S`), which the guard fills once and
which the audit hook then refuses to change (a class's attributes are set through
`object.__setattr__`, an audited event); a function reads it from the tuple it is bound to
(`types.MethodType(function, state)`: a bound method cannot be rebound); none of them reads a
global or a built-in name, which the student's code could rebind in this namespace. A
function's code cannot be replaced either (`__code__` is set through an audited event).

So the student's code may hold, call or inspect every object here: it can only add to what
the guard hears, never take anything away, and what the guard keeps (the record, the key that
seals the replies) is not here.

The state tuple of each: `S[0]` is `sys.audit`.
"""


class Operations:
    """A dispatch mode (below autograd: the ATen operations that run, by any path). Torch
    calls it for every operation while it is on its stack; the guard hears each one after
    it ran, with its output in `box`, which the guard may replace (a probe's perturbation)."""

    __slots__ = ()
    S = None
    supports_higher_order_operators = False  # torch.cond and its kin run code out of sight

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        audit = self.S[0]
        kwargs = kwargs or {}
        audit("kit.op_in", func, types, args, kwargs)
        box = [func(*args, **kwargs)]
        audit("kit.op", func, args, kwargs, box)
        return box[0]


class Functions:
    """A function mode (above autograd: the torch functions called, by the names the library
    gives them)."""

    __slots__ = ()
    S = None

    def __torch_function__(self, func, types, args=(), kwargs=None):
        audit = self.S[0]
        kwargs = kwargs or {}
        audit("kit.fn_in", func, types, args, kwargs)
        box = [func(*args, **kwargs)]
        audit("kit.fn", func, args, kwargs, box)
        return box[0]


def through_guard(S, *args, **kwargs):
    """A function of torch's C module that can switch the recording off (a pop of a mode
    stack, a guard that disables Python dispatch), put in its place wherever a module held it:
    the guard decides whether it runs (S[1] is its name). The original is the guard's alone."""
    box = [None, None]
    S[0]("kit.guarded", S[1], args, kwargs, box)
    if box[1] is not None:
        raise box[1]
    return box[0]


def registering(self, *args, S=None, **kwargs):
    """A method of torch's library object that defines an operation or registers code as
    one's (define, impl ...), put in its place on the object's class, each a copy with its own
    S (its name S[1]): the guard decides whether it runs. The original is the guard's alone;
    an S given in the call reaches no original."""
    box = [None, None]
    S[0]("kit.guarded", S[1], (self, *args), kwargs, box)
    if box[1] is not None:
        raise box[1]
    return box[0]


def stand_in(S, *args, **kwargs):
    """An earlier step, answered by the grader's reference: the guard writes the call (S[1]
    the step's name), the kernel's input() asks the grader (S[2], with the prompt S[3]), and
    the guard reads the answer into tensors, none of it recorded as the student's."""
    box = [None, None]
    S[0]("kit.stand_in", S[1], args, kwargs, box)
    if box[1] is not None:
        raise box[1]
    reply = S[2](S[3] + box[0])
    answer = [None, None]
    S[0]("kit.stand_in_reply", S[1], reply, answer)
    if answer[1] is not None:
        raise answer[1]
    return answer[0]


def counted(S, *args, **kwargs):
    """A function of the student's whose calls a rule counts (S[1] its name, S[2] itself)."""
    S[0]("kit.entered", S[1])
    return S[2](*args, **kwargs)
