"""What the student's code computes, as data: the record a step's rules on operations are
decided on (checks/operation_rules.py), and the one place an operation enters it.

A record is plain data, one per call of the subject (in grading: per reply of the kernel,
which holds everything computed since the reply before it):
- `ops`: every operation torch ran, by name, at two levels: the torch functions called
  (`layer_norm`, `multi_head_attention_forward`, `_make_dual`) and the ATen operations they
  reach (`native_layer_norm`, `_softmax`, `native_batch_norm`), whatever the Python path;
  and `multi_head_attention_module` for a torch function called by the code of torch's
  own multi-head attention (`in_torch_attention`), which torch.ao's quantizable module
  computes from plain products and a softmax;
- `autograd`: whether an autograd graph was walked (backward, torch.autograd.grad,
  torch.func), forward-mode dual numbers were made, or a torch function gave a result that
  takes part in a graph (requires_grad);
- `entered`: how many times each watched function was entered (an earlier step's, the
  subject's helpers the rules name);
- `arguments`: the shape of each tensor argument and the value of each number;
- `largest`: the most numbers one operation produced, or read from one tensor (a view
  reads none; a complex number counts as two);
- `work`: the numbers every operation but a view (VIEW_OPS) read and made, in all (a view
  read counts as many as it shows: an expanded or unfolded tensor summed is read whole): the
  work done, which differences of a loss one entry at a time multiply by the entries;
- `weights`: the span of every normalisation computed: the size of the dim a softmax
  normalises, the number of entries a sum, a logsumexp (or a cumulative one) or a matrix
  product adds up;
- `tampered`: what the code did to what records it (in grading, the judging kernel's guard
  says what it refused or found; autograder/sandbox/guard.py);
- `python_peak`: the most bytes of Python objects and numpy arrays held at once beyond those
  at the start (in grading, where a rule asks for it; else 0).

The recorder (autograder/checks/recorder.py) uses these functions in this process (the notebook's
expect_rule, the checks' own tests); the judging kernel's guard runs this very text in a
namespace of its own, which the student's code cannot reach, for what grading records. So
this file defines functions only, and binds every name of torch's it uses once, as it runs:
code run after it cannot change what they are.

It imports only torch and the standard library: the grader sends its text into the student's
kernel, and the build copies it into the notebook's helper cell.
"""

import types

import torch

Tensor = torch.Tensor
Parameter = torch.nn.Parameter
TensorBase = torch._C.TensorBase
NUMEL = TensorBase.numel
DIM = TensorBase.dim
IS_COMPLEX = TensorBase.is_complex
SIZE = TensorBase.size
REQUIRES_GRAD = TensorBase.requires_grad.__get__
IS_FLOATING = TensorBase.is_floating_point
DTYPE = TensorBase.dtype.__get__
RANDN, RAND, ADD, MUL = (torch._C._VariableFunctions.randn, torch._C._VariableFunctions.rand,
                         torch._C._VariableFunctions.add, torch._C._VariableFunctions.mul)
SOFTMAX_OPS = frozenset({"_softmax", "_safe_softmax", "softmax", "_log_softmax", "log_softmax",
                         "_masked_softmax"})  # (input, dim, ...)
# (input, dims): a mean is a sum divided by a count, which the code can multiply back
SUM_OPS = frozenset({"sum", "logsumexp", "nansum", "cumsum", "logcumsumexp", "mean", "nanmean"})
NORM_OPS = frozenset({"linalg_vector_norm", "norm"})  # (input, order, dims): ord 1 is a sum
# Products that add up along their operands' shared dim (a sum by a product with ones, too):
# the first operand's last dim, after the bias of those that add one.
PRODUCT_OPS = frozenset({"mm", "bmm", "mv", "dot", "vdot"})  # (first, second)
BIASED_PRODUCT_OPS = frozenset({"addmm", "addmv", "baddbmm", "addbmm"})  # (bias, first, ...)
DUAL_FUNCTIONS = frozenset({"_make_dual", "make_dual"})
# Operations whose output shows numbers already made (a view of its input), by name: not
# torch's own flag, which code of the student's could set on any operation.
VIEW_OPS = frozenset({
    "view", "_unsafe_view", "view_as", "reshape", "_reshape_alias", "expand", "expand_as",
    "transpose", "t", "permute", "movedim", "unsqueeze", "squeeze", "select", "slice",
    "narrow", "as_strided", "diagonal", "unbind", "split", "split_with_sizes", "chunk",
    "unflatten", "flatten", "alias", "detach", "lift_fresh", "view_as_real",
    "view_as_complex", "unfold", "real", "imag", "conj", "_conj", "_neg_view", "T", "mT",
    "mH", "H", "adjoint", "swapaxes", "swapdims", "tensor_split", "hsplit", "vsplit",
    "dsplit"})
# Operations whose result's shape a tensor's numbers decide, so that its lengths hand those
# numbers to Python (tensor_split at a tensor's running sums gave back every number of it):
# these ATen operations always; tensor_split and repeat_interleave only when given a tensor
# for their indices, sections or repeats (a function of torch's: its ATen operation reads the
# tensor in C++, or given ints is no operation of its own). Each is noted as shaped(name).
SHAPED_OPS = frozenset({"nonzero", "masked_select", "_unique", "_unique2", "unique_dim",
                        "unique_consecutive", "unique_dim_consecutive", "repeat_interleave",
                        "bincount"})
LAYOUT = TensorBase.layout.__get__
STRIDED = torch.strided  # a result of another layout (sparse) is shaped by the numbers too:
# it keeps the entries that are not zero, and without a size takes its own from the indices
SHAPED_BY_A_TENSOR = frozenset({"tensor_split", "repeat_interleave"})


# The record's name for the count of numbers operations gave Python (numbers_handed).
NUMBERS_OUT = "!numbers"


SHAPED = "->shape"


def shaped(name):
    """The record's name for an operation whose result's shape a tensor's numbers decided."""
    return name + SHAPED


IS_META = TensorBase.is_meta.__get__
DEVICE = torch.device


# What makes an ATen operation about to run reach a kernel torch wrote in Python, which runs
# out of the record's sight and calls whatever torch's modules name as it runs: a namespace
# other than aten's (namespace_kernel), or the meta device asked for (meta_asked: every meta
# kernel is Python; a tensor already there was made by an operation the record saw, which
# noted_operation notes).


def namespace_kernel(qualified):
    """The namespace of an operation (`qualified`: its name with it, aten::add.Tensor) whose
    kernels torch writes in Python (prims ...); None for aten's."""
    if type(qualified) is not str or not qualified.startswith("aten::"):
        return str(qualified).split("::", 1)[0][:40]
    return None


def meta_asked(kwargs):
    """"meta" where an operation's keyword arguments ask for the meta device; else None."""
    device = kwargs.get("device") if type(kwargs) is dict else None
    return "meta" if type(device) is DEVICE and device.type == "meta" else None


def kernel_noted(record, why):
    """The record says an operation ran a kernel torch wrote in Python (`why`:
    namespace_kernel's or meta_asked's answer; None: nothing to say)."""
    if why is not None and f"python_kernel:{why}" not in record["tampered"]:
        record["tampered"].append(f"python_kernel:{why}")


FRAME_CODE = types.FrameType.f_code.__get__
# Whether the autograd engine is running a backward pass (-1: not), read from torch's C module
# (a private function, read, never patched). A torch without it: the torch functions that
# start a backward pass (Tensor.backward, torch.autograd.grad) tell it instead.
GRAPH_TASK = getattr(torch._C, "_current_graph_task_id", None)
BACKWARD_FUNCTIONS = frozenset({"backward", "grad"})

# Where an earlier step the student's code holds besides its names is looked for, when
# grading's kernel (sandbox/guard.py, `in_held`) and the notebook (checks/recorder.py,
# `swapped_where_held`) put another function in its place: both look at the same places in
# the same order, so that both find the same ones.
HELD_DEPTH = 3  # how far below a name of the namespace
HELD_TABLE = 4096  # a table (or tuple, or class) of more entries is not looked into
HELD_ENTRIES = 32768  # the most entries one search looks at, all tables together
WRAPPERS = 20  # the longest chain of wrappers followed (a chain, never a cycle)
IPYTHON_NAMES = frozenset({"In", "Out", "_ih", "_oh", "_dh", "_", "__", "___", "_i", "_ii",
                           "_iii"})


def ipython_history(name):
    """Whether a name of the namespace is one of IPython's records of the cells and their
    outputs (In, Out, _5, _i5, ...), which a search for a held step leaves out."""
    if type(name) is not str:
        return False
    return name in IPYTHON_NAMES or name[:1] == "_" and (
        name[1:].isdigit() or name[1:2] == "i" and name[2:].isdigit())


HELD_KINDS = (dict, list, tuple, type, type(ipython_history))  # exactly these are looked into
# the identities of those and of the wrappers a class's methods come in: `id(type(x)) in
# HELD_KIND_IDS` runs no code of x's (a metaclass's __eq__ would run for `type(x) in ...`)
HELD_KIND_IDS = frozenset(id(kind) for kind in (*HELD_KINDS, staticmethod, classmethod))


def plain_keys(table):
    """Whether every key of the dict `table` is exactly a string or an int: a lookup in it
    then runs no code of the student's (a key of another type is compared by its own __eq__
    where its hash collides with the one looked up), so a search looks into no other."""
    for key in table:  # iterating a dict runs no code of its keys
        if type(key) is not str and type(key) is not int:
            return False
    return True


def new_record(arguments):
    return {"ops": {}, "count": 0, "autograd": False, "entered": {}, "arguments": arguments,
            "largest": 0, "work": 0, "weights": [], "tampered": [], "python_peak": 0}


def is_plain(value):
    """Whether a value is exactly a tensor (a Parameter is one with a flag): not a subclass,
    whose own code could run when it is read."""
    return type(value) is Tensor or type(value) is Parameter


def described(value):
    """An argument as a record keeps it: a tensor's shape, a number, or None."""
    if is_plain(value):
        return [int(n) for n in SIZE(value)]
    if type(value) in (bool, int, float):
        return value
    return None


def tensors_in(value):
    """The plain tensors an operation gave: the value itself, or those of a tuple or list."""
    if is_plain(value):
        return [value]
    if type(value) in (tuple, list):
        return [item for item in value if is_plain(item)]
    return []


def numbers_of(tensor):
    """The numbers a plain tensor shows (a complex number counts as two)."""
    return int(NUMEL(tensor)) * (2 if IS_COMPLEX(tensor) else 1)


def span_of(name, args):
    """How many entries a normalisation adds up: the size of a softmax's dim, the entries of
    the dims a sum, a mean or a norm reduces (all of them when it names none), the length of
    the dim a product adds up along; None for another operation."""
    if name in BIASED_PRODUCT_OPS and type(args) is tuple:
        name, args = "mm", args[1:]
    elif name in NORM_OPS and type(args) is tuple:
        name, args = "sum", args[:1] + args[2:]
    elif name not in SOFTMAX_OPS and name not in SUM_OPS and name not in PRODUCT_OPS:
        return None
    if type(args) is not tuple or not args or not is_plain(args[0]) or DIM(args[0]) == 0:
        return None
    shape = SIZE(args[0])
    if name in PRODUCT_OPS:
        return int(shape[-1])
    if name in SOFTMAX_OPS:
        dim = args[1] if len(args) > 1 and type(args[1]) is int else -1
        return int(shape[dim]) if -len(shape) <= dim < len(shape) else None
    dims = args[1] if len(args) > 1 else None
    if type(dims) is int:
        dims = [dims]
    if type(dims) not in (list, tuple) or not dims:
        return int(NUMEL(args[0]))
    span = 1
    for dim in dims:
        if type(dim) is not int or not -len(shape) <= dim < len(shape):
            return None
        span *= int(shape[dim])
    return span


def note(record, name, count=1):
    """`count` more of `name` in the record's counts of operations."""
    record["ops"][name] = record["ops"].get(name, 0) + count


def words_of(number):
    """The 32-bit words a Python number an operation gave can carry: a bool 1, an int or a
    float 2 (two float32 numbers fit in one, viewed as float64), a complex 4; 0 for anything
    else (told by identity: no code of the value's runs)."""
    kind = type(number)
    if kind is float or kind is int:
        return 2
    if kind is complex:
        return 4
    return 1 if kind is bool else 0


def numbers_handed(result):
    """How many numbers, in 32-bit words (words_of), an operation gave Python (item()'s one,
    torch.equal's bool, a quantized tensor's scale; those of a tuple or list it gave): each
    is a number, or a bit, of a tensor taken out of torch."""
    kind = type(result)
    if kind is tuple or kind is list:
        return sum(words_of(item) for item in result)
    return words_of(result)


def noted_operation(record, name, result, args=()):
    """An ATen operation that ran, with what it gave and its arguments (the tensors among
    them and in the lists among them, cat's, each read as it shows), in the record."""
    note(record, name)
    record["count"] += 1
    if GRAPH_TASK is not None and GRAPH_TASK() != -1:
        record["autograd"] = True
    if type(result) is not Tensor:  # (most operations give one: nothing handed)
        handed = numbers_handed(result)
        if handed:
            note(record, NUMBERS_OUT, handed)
    made, other_layout, meta = 0, False, False
    for output in tensors_in(result):
        size = numbers_of(output)
        made += size
        if size > record["largest"]:
            record["largest"] = size
        other_layout = other_layout or LAYOUT(output) is not STRIDED
        meta = meta or IS_META(output)
    if name in SHAPED_OPS or other_layout:
        note(record, shaped(name))
    if meta:  # every operation on it runs a kernel in Python
        kernel_noted(record, "meta")
    if name not in VIEW_OPS:
        record["work"] += made
        for value in args:  # a tensor made before the call, read whole (a buffer of scores)
            for tensor in tensors_in(value):
                size = numbers_of(tensor)
                record["work"] += size
                if size > record["largest"]:
                    record["largest"] = size
    span = span_of(name, args)
    if span is not None and span not in record["weights"]:
        record["weights"].append(span)


def torch_attention_codes():
    """{id: code} of the Python code that computes torch's own multi-head attention:
    nn.MultiheadAttention's forward, multi_head_attention_forward, and torch.ao's quantizable
    module, which computes it in Python from products and a softmax, so that no operation it
    runs is named for attention. A subclass, or a function made from one of these codes, runs
    the same code."""
    owners = [("nn.MultiheadAttention", ("forward",)),
              ("ao.nn.quantizable.MultiheadAttention", ("forward", "_forward_impl")),
              ("nn.functional", ("multi_head_attention_forward",))]
    codes = {}
    for path, names in owners:
        owner = torch
        for part in path.split("."):
            owner = getattr(owner, part, None)
        for name in names:
            code = getattr(vars(owner).get(name) if owner is not None else None, "__code__",
                           None)
            if code is not None:
                codes[id(code)] = code
    return codes


ATTENTION_CODES = torch_attention_codes()
ATTENTION_NOTE = "multi_head_attention_module"


def in_torch_attention(frame):
    """Whether `frame`, the caller of a torch function, runs one of torch's own multi-head
    attention codes. Each of them calls tensor methods itself (`q.transpose(...)`,
    `.view(...)`), which no change the student's code makes to a module's names can route
    through other code: however the module was called (`__call__`, `forward`, a subclass),
    such calls are seen. Codes are told by identity: no code of the student's runs."""
    code = FRAME_CODE(frame)
    return ATTENTION_CODES.get(id(code)) is code


# The record's name for the operations that started and raised instead of returning: an
# error's message can hand Python the numbers it read (an index out of range says which).
RAISED = "!raised"


def operation_started(record):
    """An ATen operation about to run: counted as raised until it returns
    (operation_returned)."""
    note(record, RAISED)


def operation_returned(record):
    left = record["ops"].get(RAISED, 0) - 1
    if left > 0:
        record["ops"][RAISED] = left
    else:
        record["ops"].pop(RAISED, None)


def shaped_by_a_tensor(name, args, kwargs):
    """Whether a call of the torch function `name` with these arguments reads its result's
    shape from a tensor (SHAPED_BY_A_TENSOR: any tensor after the input, or repeats alone)."""
    if name not in SHAPED_BY_A_TENSOR or type(args) is not tuple:
        return False
    if name == "repeat_interleave" and len(args) == 1 and not kwargs:
        return True  # torch.repeat_interleave(repeats)
    given = [*args[1:], *(kwargs.values() if type(kwargs) is dict else ())]
    return any(is_plain(value) for value in given)


def noted_function(record, name, outputs=(), caller=None, args=(), kwargs=None):
    """A torch function that was called, with its output tensors and its arguments, in the
    record; `caller`: the frame that called it (where torch's attention modules are looked
    for)."""
    note(record, name)
    if shaped_by_a_tensor(name, args, kwargs):
        note(record, shaped(name))
    if caller is not None and in_torch_attention(caller):
        note(record, ATTENTION_NOTE)
    if name in DUAL_FUNCTIONS or (GRAPH_TASK is None and name in BACKWARD_FUNCTIONS):
        record["autograd"] = True
    for output in outputs:
        if REQUIRES_GRAD(output):
            record["autograd"] = True


def perturbs(spec, name, op_args):
    """Whether a probe's perturbation (`spec`: {"names": fragments, "spans": [...], "level":
    "op", "fn" or None}) names this operation: by a fragment of its name, or, for a
    normalisation, by its span (checks/probes.py)."""
    if spec.get("level") not in (None, "op" if op_args is not None else "fn"):
        return False
    if any(fragment in name.lower() for fragment in spec["names"]):
        return True
    return bool(spec["spans"]) and op_args is not None and \
        span_of(name, op_args) in spec["spans"]


def perturbed_output(value, generator, large=False, zero=False):
    """An operation's output with noise added to its first tensor (a probe's change of what
    one operation gives), or None when it has no floating tensor to change. `large`: a rise
    of 1000 to 2000 instead, which makes a score the largest of its row (a change of a score
    that softmax gives a weight of 0 would otherwise change nothing); a fall as large where
    `large` is negative (-1), which makes it the smallest. `zero`: that tensor as zeros (a
    call whose result adds nothing, `x + layer_norm(x, 0 * gamma, 0 * beta)`, changes
    nothing so)."""
    outputs = tensors_in(value)
    if not outputs or not IS_FLOATING(outputs[0]):
        return None
    first = outputs[0]
    if zero:
        noise = MUL(first, -1.0)
    elif large:
        noise = ADD(MUL(RAND(SIZE(first), generator=generator, dtype=DTYPE(first)), 1000.0),
                    1000.0)
        if large < 0:
            noise = MUL(noise, -1.0)
    else:
        noise = MUL(RANDN(SIZE(first), generator=generator, dtype=DTYPE(first)), 0.5)
    changed = ADD(first, noise)
    if value is first:
        return changed
    return type(value)([changed if item is first else item for item in value])


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
            and type(data["work"]) is int
            and type(data["autograd"]) is bool and type(data["python_peak"]) is int
            and isinstance(data["arguments"], list) and isinstance(data["weights"], list)
            and all(type(n) is int for n in data["weights"])
            and isinstance(data["tampered"], list)
            and all(type(s) is str for s in data["tampered"])):
        raise ValueError("malformed record")
    return {**data, "ops": counts(data["ops"]), "entered": counts(data["entered"]),
            "arguments": [argument(value) for value in data["arguments"]],
            "weights": list(data["weights"]), "tampered": list(data["tampered"])}
