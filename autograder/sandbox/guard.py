"""The judging kernel's guard: the record of what the student's code computes is kept where
that code cannot reach it, and every reply to the grader is sealed.

The grader runs `install` in each judging kernel before any code of the student's runs there
(grading/session.py, `begin_judging`; sandbox/link.py, `Link.guard`). What it relies on is
what CPython and Linux enforce, not what the student's code leaves alone:

- An audit hook (PEP 578) cannot be removed, and every event the interpreter raises reaches
  it first: ctypes, the collector's lists of objects, a profile or trace function set (by
  sys.setprofile or from C, as torch.profiler does), pickle looking a global up, a code
  object made or swapped, a class's attribute set, a frame handed out, a process started.
  The hook refuses what could reach the guard or work out of its sight, and notes each
  attempt in the record (`tampered`, a key checks/operation_rules.py puts in words), so the
  step's rules break with what was tried named.
- A seccomp filter, installed here before the hook, refuses every new process and thread, any
  exec, timer or signal sent: nothing runs beside this thread, and nothing interrupts the
  guard's own code to run the student's. No code in the process can lift it.
- The record lives in this function's closure, and nothing the student's code can reach refers
  to it: what torch calls (forwarders.py) only raises audit events, the originals of the torch
  functions that switch the recording off are the hook's alone (every module now holds a
  forwarder), and the hook never calls the student's code, so no frame of the guard is ever
  below one of the student's; a frame of the guard's found in a traceback is refused. No
  class is defined here (a class can be found through its bases; a function cannot), and
  this code reads no module attribute once `install` is done, and no built-in but from the
  copy its namespace was given before the student's code ran: what it calls is bound here.
  The student's objects are looked at by their exact type alone (`type(x) is T`, identity),
  never compared, hashed or asked for an attribute.
- Everything computed since the last reply goes into the next one: the recording is on from
  the first code of the student's and never off but for the guard's own work, so nothing is
  computed out of its sight between two calls.
- Each reply is sealed with a key the grader sent through input() before any code of the
  student's ran: an HMAC over its sequence number, the request it answers, the value and the
  record. A reply dropped, replayed, added or rewritten on its way out of the kernel (the
  kernel's own channel is Python the student's code can patch) does not verify. The grader's
  settings (the stand-ins, a probe's perturbation, the memory measure) are sealed the same way.
- What a reply carries is read here, from the value the student's code returned, of exact
  built-in types only (a tensor exactly torch.Tensor, a tuple exactly a tuple ...): a subclass,
  which could compute when it is read, is refused before anything of it is read.

This text runs in a namespace of its own, and the op_record's (autograder/checks/op_record.py) in
another, each with a copy of the built-ins taken before any code of the student's ran; the
forwarders (forwarders.py) are made from their text in a third, with a copy too (their code
reads none, but torch's C code imports through the frame it runs in).
"""


def install(read, parts):
    """Set the guard up in this kernel. `read` is the kernel's input(): it brings the
    grader's settings (the key, the seccomp filter) as one JSON line; `parts` is what the
    kernel template made of the guard's pieces (judging.py)."""
    import _hashlib
    import _json
    import builtins
    import ctypes
    import gc
    import importlib._bootstrap_external
    import json
    import os
    import sys
    import tracemalloc
    import types

    import torch

    settings = json.loads(read("\x00kit-guard:"))
    key = bytes.fromhex(settings["key"])
    # The notebook's own random state (from its draw: the same on every regrade), for code
    # of the student's that draws without a seed of its own.
    seed = int(settings.get("seed", 0))
    __import__("random").seed(seed)
    torch.manual_seed(seed)
    if "numpy" in sys.modules:
        sys.modules["numpy"].random.seed(seed % 2**32)

    # -- what the guard calls, bound now ---------------------------------------------------
    C = torch._C
    audit = sys.audit
    getframe, getprofile, gettrace = sys._getframe, sys.getprofile, sys.gettrace
    gc_enable, gc_disable, gc_isenabled = gc.enable, gc.disable, gc.isenabled
    dict_get, dict_items, dict_setdefault = dict.get, dict.items, dict.setdefault
    dict_set, list_set, dict_length = dict.__setitem__, list.__setitem__, dict.__len__
    proxy_items, proxy_length = types.MappingProxyType.items, types.MappingProxyType.__len__
    tuple_item, tuple_length = tuple.__getitem__, tuple.__len__
    list_item, list_length = list.__getitem__, list.__len__
    float_value, int_value, str_value = float.__float__, int.__int__, str.__str__
    fields_of = object.__getattribute__
    type_name = type.__dict__["__name__"].__get__
    type_mro = type.__dict__["__mro__"].__get__
    type_module = type.__dict__["__module__"].__get__
    frame_code = types.FrameType.f_code.__get__
    frame_back = types.FrameType.f_back.__get__
    code_file = types.CodeType.co_filename.__get__
    code_name = types.CodeType.co_name.__get__
    str_starts = str.startswith
    TORCH_FILES = os.path.dirname(torch.__file__) + os.sep
    traceback_frame = types.TracebackType.tb_frame.__get__
    MethodType, FunctionType = types.MethodType, types.FunctionType
    defaults_of = FunctionType.__dict__["__defaults__"].__get__
    set_defaults = FunctionType.__dict__["__defaults__"].__set__
    kwdefaults_of = FunctionType.__dict__["__kwdefaults__"].__get__
    function_dict = FunctionType.__dict__["__dict__"].__get__
    closure_of = FunctionType.__dict__["__closure__"].__get__
    function_globals = FunctionType.__dict__["__globals__"].__get__
    CellType = types.CellType
    cell_get = CellType.__dict__["cell_contents"].__get__
    cell_set = CellType.__dict__["cell_contents"].__set__
    class_dict = type.__dict__["__dict__"].__get__
    StaticMethod, ClassMethod = staticmethod, classmethod
    static_function = staticmethod.__dict__["__func__"].__get__
    class_function = classmethod.__dict__["__func__"].__get__
    NAMED_KINDS = (types.BuiltinFunctionType, types.MethodDescriptorType,
                   types.WrapperDescriptorType, types.MethodWrapperType,
                   types.GetSetDescriptorType, types.FunctionType)
    Tensor, Parameter, Size = torch.Tensor, torch.nn.Parameter, torch.Size
    OpOverload = torch._ops.OpOverload
    handle_torch_function = torch.overrides.handle_torch_function.__code__
    tensor_str = torch._tensor_str._str.__code__
    TB = C.TensorBase
    t_detach, t_reshape, t_tolist = TB.detach, TB.reshape, TB.tolist
    t_size, t_dtype, t_requires_grad = TB.size, TB.dtype.__get__, TB.requires_grad.__get__
    vf_tensor = C._VariableFunctions.tensor
    Generator = C.Generator
    dtypes = {name: getattr(torch, name) for name in (
        "float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8",
        "uint8", "bool")}
    dtype_names = [(value, name) for name, value in dtypes.items()]
    DtypeKind = type(torch.float32)
    DisableTorchFunction, DisableTorchDispatch = C.DisableTorchFunction, C._DisableTorchDispatch
    DispatchKeySet = C.DispatchKeySet
    PYTHON_KEYS = (C.DispatchKey.Python, C.DispatchKey.PythonTLSSnapshot)
    dispatch_depth, dispatch_at = C._len_torch_dispatch_stack, C._get_dispatch_stack_at
    function_depth, function_at = C._len_torch_function_stack, C._get_function_stack_at
    push_dispatch, push_function = (C._push_on_torch_dispatch_stack,
                                    C._push_on_torch_function_stack)
    trace_start, trace_stop = tracemalloc.start, tracemalloc.stop
    trace_memory, trace_reset_peak = tracemalloc.get_traced_memory, tracemalloc.reset_peak
    trace_is_tracing = tracemalloc.is_tracing
    hmac_digest, compare_digest, sha256 = (_hashlib.hmac_digest, _hashlib.compare_digest,
                                           _hashlib.openssl_sha256)
    scan = json.scanner.c_make_scanner(json.JSONDecoder())
    encode_json = _json.make_encoder(None, None, _json.encode_basestring_ascii, None, ":", ",",
                                     False, False, True)
    join = "".join
    import_reader = importlib._bootstrap_external._compile_bytecode.__code__
    cell_cache = sys.modules.get("cell_cache")  # the template's (zygote.py)
    renaming = getattr(getattr(cell_cache, "renamed", None), "__code__", None)
    agent_code = parts.AGENT
    main = sys.modules["__main__"].__dict__
    missing = object()  # a name the student's namespace did not bind

    # -- the pieces it is made of, each from its own text ---------------------------------------
    recording = {"__name__": "kit_op_record", "__builtins__": dict(vars(builtins))}
    exec(parts.OP_RECORD, recording)  # noqa: S102
    new_record, noted_operation = recording["new_record"], recording["noted_operation"]
    noted_function, described = recording["noted_function"], recording["described"]
    operation_started = recording["operation_started"]
    operation_returned = recording["operation_returned"]
    namespace_kernel, meta_asked = recording["namespace_kernel"], recording["meta_asked"]
    tensors_in = recording["tensors_in"]
    perturbs, perturbed_output = recording["perturbs"], recording["perturbed_output"]
    ipython_history, plain_keys = recording["ipython_history"], recording["plain_keys"]
    HELD_DEPTH, HELD_ENTRIES, HELD_TABLE, HELD_KIND_IDS, WRAPPERS = (
        recording["HELD_DEPTH"], recording["HELD_ENTRIES"], recording["HELD_TABLE"],
        recording["HELD_KIND_IDS"], recording["WRAPPERS"])

    # The forwarders' code reads no built-in, but torch's C code called from their frames
    # imports through them (PyImport_Import takes the frame's __import__): a copy taken now.
    public = {"__name__": "kit_forwarders", "__builtins__": dict(vars(builtins))}
    exec(parts.FORWARDERS, public)  # noqa: S102
    Operations, Functions = public["Operations"], public["Functions"]
    Operations.S = Functions.S = (audit,)
    operations, functions = Operations(), Functions()
    through_guard, stand_in, counted = (public["through_guard"], public["stand_in"],
                                        public["counted"])
    registering = public["registering"]
    OURS = (Operations, Functions)
    OUR_FUNCTIONS = (through_guard, stand_in, counted, Operations.__dict__["__torch_dispatch__"],
                     Functions.__dict__["__torch_function__"])

    state = {
        "record": new_record([]),
        "seq": 0,  # replies sealed so far
        "inside": False,  # the hook is at work: what happens now is the guard's own doing
        "student": False,  # the student's code may run from now on (the grader's word)
        "measuring": False,  # tracemalloc on, for a rule on the memory Python's objects take
        "baseline": 0,
        "perturb": None,  # a probe's perturbation (op_record.perturbs), and its count
        "seen": 0,  # operations the perturbation named since it was set
        "perturbed": 0,  # ... and changed
        "generator": None,
        "setting": 0,  # the number of the grader's last setting: a setting is taken once
        "handles": [],  # an object of the student's the grader refers to, by its number
        "request": ("", None, ""),  # the last request replied to: its text, JSON and digest
        # name -> one list for each binding of it, the last last: [(a name of the namespace,
        # what it bound before)]
        "replaced": {},
        # name -> one list for each binding of it: [(a function, cell or table, the attribute,
        # key or index, before, after)], the places besides the names it was replaced in
        "held": {},
    }

    # -- no process, thread, exec, timer or signal from now on ----------------------------------
    libc = ctypes.CDLL(None, use_errno=True)
    program = settings["filter"]
    # struct sock_filter {u16 code; u8 jt, jf; u32 k} and struct sock_fprog {u16 len; ptr}, as
    # little-endian 64-bit words (x86_64, aarch64).
    words = (ctypes.c_uint64 * len(program))(*[
        code | (jt << 16) | (jf << 24) | (k << 32) for code, jt, jf, k in program])
    fprog = (ctypes.c_uint64 * 2)(len(program), ctypes.addressof(words))
    if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS, which seccomp needs
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if libc.syscall(ctypes.c_long(settings["seccomp"]), ctypes.c_uint(1), ctypes.c_uint(1),
                    fprog) != 0:  # SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC
        raise OSError(ctypes.get_errno(), "seccomp: the judging kernel's filter")
    del libc, words, fprog

    # -- noting, refusing -------------------------------------------------------------------

    def taint(what):
        tampered = state["record"]["tampered"]
        if what not in tampered:
            tampered.append(what)

    def refused(what):
        taint(what)
        return PermissionError(f"refused while grading ({what})")

    def one_of(value, kinds):
        """Whether `value` is one of `kinds`, by identity (no comparison runs its code)."""
        for kind in kinds:
            if value is kind:
                return True
        return False

    # Made once: the guard's own work is never nested (the hook turns itself off while it
    # runs), and a switch's __exit__ restores what its __enter__ found.
    functions_off, dispatch_off = DisableTorchFunction(), DisableTorchDispatch()

    def quiet_on():
        """The guard's own torch work: no mode, no subclass's code, no collection (no
        finaliser of the student's) while it runs."""
        collecting = gc_isenabled()
        gc_disable()
        functions_off.__enter__()
        dispatch_off.__enter__()
        return collecting

    def quiet_off(collecting):
        dispatch_off.__exit__(None, None, None)
        functions_off.__exit__(None, None, None)
        if collecting:
            gc_enable()

    # -- what torch runs ------------------------------------------------------------------------

    # id(an operation) -> (the operation, its name, why its namespace runs a kernel in Python)
    op_names = {}

    def named(func):
        """(the operation, `_softmax`, None), as kept in op_names: the name torch gave an
        operation it dispatched, read from the fields torch wrote into the operation's
        object, and why its namespace runs a kernel in Python (namespace_kernel: not
        aten's);
        None for anything else."""
        if type(func) is not OpOverload:
            return None
        kept = dict_get(op_names, id(func))
        if kept is not None and kept[0] is func:
            return kept
        qualified = dict_get(fields_of(func, "__dict__"), "_name")
        if type(qualified) is not str or "::" not in qualified:
            return None
        kept = op_names[id(func)] = (func, qualified.split("::", 1)[1].split(".", 1)[0],
                                     namespace_kernel(qualified))
        return kept

    def aten_name(func):
        kept = named(func)
        return kept[1] if kept is not None else None

    def function_name(func):
        if not one_of(type(func), NAMED_KINDS):
            return ""
        name = func.__name__
        return name if type(name) is str else ""

    def on_op_in(args):
        func, types_in = args[0], args[1]
        if type(func) is not OpOverload:
            taint("higher_order")
        else:  # a kernel in Python runs before the operation returns: decided before it runs
            kept = named(func)
            why = kept[2] if kept is not None else "?"
            if why is None and type(args[3]) is dict and args[3]:  # (most operations: no
                why = meta_asked(args[3])  # keyword arguments, nothing to ask)
            if why is not None:
                taint(f"python_kernel:{why}")
        if type(types_in) is tuple:
            for kind in types_in:
                if kind is not Tensor and kind is not Parameter:
                    taint("subclass")
        operation_started(state["record"])

    def on_op(args):
        func, op_args, _, box = args
        operation_returned(state["record"])
        name = aten_name(func)
        if name is None or type(box) is not list or len(box) != 1 or type(op_args) is not tuple:
            return
        noted_operation(state["record"], name, box[0], op_args)
        perturb(name, op_args, box)

    def on_fn_in(args):
        func, types_in = args[0], args[1]
        if type(types_in) is tuple:
            for kind in types_in:
                if kind is not Tensor and kind is not Parameter:
                    taint("subclass")
        if type(func) is MethodType:
            func = func.__func__
        module = type_module(type(func))
        if (type(func) is FunctionType and func.__globals__ is main) or (
                type(module) is str and module == "__main__"):
            taint("own_override")  # torch's override machinery handed a function of its own

    def on_fn(args):
        func, fn_args, fn_kwargs, box = args
        name = function_name(func)
        if not name or type(box) is not list or len(box) != 1:
            return
        # this is 0, the hook 1, the forwarder 2; 3 called the function
        noted_function(state["record"], name, tensors_in(box[0]), getframe(3),
                       fn_args if type(fn_args) is tuple else (),
                       fn_kwargs if type(fn_kwargs) is dict else None)
        perturb(name, None, box)

    def perturb(name, op_args, box):
        """A probe's change of what the operations it names give (the grader's sealed
        setting): one of them (`which`, counted from the setting on) or each."""
        spec = state["perturb"]
        if spec is None or not perturbs(spec, name, op_args):
            return
        index, state["seen"] = state["seen"], state["seen"] + 1
        if spec["which"] is not None and spec["which"] != index:
            return
        changed = perturbed_output(box[0], state["generator"], zero=spec.get("zero", False))
        if changed is not None:
            box[0] = changed
            state["perturbed"] += 1

    # -- torch's switches, tracemalloc's: the originals are here alone ---------------------------

    def torch_at_work(ours):
        """Whether torch's own code took the recording's mode off its stack, or puts it back,
        for a moment: handle_torch_function does so with the function mode while the mode's
        handler runs, and printing a tensor (torch._tensor_str) with the dispatch mode while
        it formats the numbers of a plain tensor. Found among the forwarder's callers."""
        frame = getframe(3)  # this is 0, the hook 1, the forwarder 2
        for _ in range(8):
            if frame is None:
                return False
            code = frame_code(frame)
            if code is handle_torch_function:
                return ours is functions
            if code is tensor_str:
                printed = dict_get(frame.f_locals, "self")
                return ours is operations and (type(printed) is Tensor
                                                or type(printed) is Parameter)
            frame = frame.f_back
        return False

    def pops_ours(depth, at, ours):
        def decide(call_args):
            if depth() and at(depth() - 1) is ours and not torch_at_work(ours):
                return "mode_popped"
            return None
        return decide

    def pushes_ours(call_args):
        ours = call_args[0] if call_args else None
        if (ours is operations or ours is functions) and not torch_at_work(ours):
            return "mode_pushed"
        return None

    def once_student(why):
        return lambda call_args: why if state["student"] else None

    def torch_imports_itself():
        """Whether the library being registered is torch's own, made as importlib runs the
        body of one of torch's modules (the first assert_close of a process imports
        torch.distributed.tensor, which registers its operations): every caller from the
        registration up to that body is a file of torch's, and the body's caller is
        importlib's. The guard's own frames and the forwarder's come first."""
        frame = getframe(1)
        for _ in range(64):
            if frame is None:
                return False
            name = code_file(frame_code(frame))
            if name != "kit_guard" and name != "kit_forwarders":
                break
            frame = frame_back(frame)
        for _ in range(64):
            if frame is None:
                return False
            code = frame_code(frame)
            file = code_file(code)
            if type(file) is not str or not str_starts(file, TORCH_FILES):
                return False
            if code_name(code) == "<module>":
                caller = frame_back(frame)
                return caller is not None and \
                    code_name(frame_code(caller)) == "_call_with_frames_removed" and \
                    code_file(frame_code(caller)) == "<frozen importlib._bootstrap>"
            frame = frame_back(frame)
        return False

    def registers_library(call_args):
        return "library" if state["student"] and not torch_imports_itself() else None

    def excludes_python(call_args):
        if not state["student"]:
            return None
        for arg in call_args:
            if one_of(arg, PYTHON_KEYS):
                return "dispatch_off"
            if type(arg) is DispatchKeySet and (arg.has(PYTHON_KEYS[0])
                                                or arg.has(PYTHON_KEYS[1])):
                return "dispatch_off"
        return None

    def measure_kept(call_args):
        return "memory_measure" if state["measuring"] else None

    DECISIONS = {
        "_pop_torch_dispatch_stack": pops_ours(dispatch_depth, dispatch_at, operations),
        "_pop_torch_function_stack": pops_ours(function_depth, function_at, functions),
        "_push_on_torch_dispatch_stack": pushes_ours,
        "_push_on_torch_function_stack": pushes_ours,
        "DisableTorchFunction": once_student("functions_off"),
        "_DisableTorchDispatch": once_student("dispatch_off"),
        "_ExcludeDispatchKeyGuard": excludes_python,
        "ExcludeDispatchKeyGuard": excludes_python,
        "_ForceDispatchKeyGuard": excludes_python,
        "_SetExcludeDispatchKeyGuard": excludes_python,
        "_dispatch_tls_set_dispatch_key_excluded": excludes_python,
        "_RestorePythonTLSSnapshot": once_student("modes_restored"),
        "_set_dispatch_mode": once_student("infra_mode"),
        "_unset_dispatch_mode": once_student("infra_mode"),
        "_dispatch_library": registers_library,
    }
    if set(DECISIONS) != set(parts.SWITCHES):
        raise RuntimeError("the guard and judging.py name different switches of torch's")
    REGISTERING = parts.registering()
    for name in REGISTERING:
        DECISIONS[name] = registers_library
    for name in parts.TRACING:
        DECISIONS["tracemalloc." + name] = measure_kept
    ORIGINALS = {name: value for name, value in parts.originals().items() if name in DECISIONS}
    ORIGINALS.update(REGISTERING)

    def on_guarded(args):
        name, call_args, call_kwargs, box = args
        if type(name) is not str or type(call_args) is not tuple or type(call_kwargs) is not dict \
                or type(box) is not list or len(box) != 2:
            return
        decide = dict_get(DECISIONS, name)
        if decide is None:
            return
        why = decide(call_args)
        if why:
            box[1] = refused(why)
        else:
            box[0] = ORIGINALS[name](*call_args, **call_kwargs)

    # -- the student's namespace: stand-ins, counted functions -----------------------------------

    def on_stand_in(args):
        """A stand-in's call: the request to the grader, written here from plain data."""
        name, call_args, call_kwargs, box = args
        if type(name) is not str or type(box) is not list or len(box) != 2:
            return
        entered(name)
        try:
            box[0] = text_of({"name": name, "args": encoded(call_args),
                              "kwargs": encoded(call_kwargs)})
        except LookupError as error:
            box[1] = TypeError(f"{name} was given {error.args[0]}: give it tensors and "
                               "numbers")

    def on_stand_in_reply(args):
        name, text, box = args
        if type(box) is not list or len(box) != 2:
            return
        try:
            reply = parsed(text)
            if type(reply) is dict and "error" in reply:
                box[1] = RuntimeError(str(reply["error"])[:300])
            else:
                box[0] = decoded(reply["ok"])
        except (ValueError, KeyError, TypeError, IndexError):
            box[1] = RuntimeError("the grader's answer could not be read")

    def is_stand_in(value):
        """Whether `value` is a stand-in bound here: counting around it counted each of its
        calls twice (one call of an earlier step read as two)."""
        return type(value) is MethodType and value.__func__ is stand_in

    def entered(name):
        counts = state["record"]["entered"]
        counts[name] = dict_get(counts, name, 0) + 1

    def on_entered(args):
        if type(args[0]) is str:
            entered(args[0])

    def bind(names, make, where_missing=True):
        """Each of `names` made `make(name, value)` in the student's namespace (also where
        it binds nothing, if `where_missing`), and every other name there bound to the same
        object (an alias) with it, and every place its code holds it (in_held); what each
        held before is kept, one list for each name and each binding, to be restored (a name
        can be bound again over its stand-in: counted). A namespace with a key that is not a
        name is not bound into: looking a name up there could run the student's code."""
        plain = plain_keys(main)
        if not plain:
            taint("namespace_key")
        for name in names:
            kept, held_places = [], []  # (pushed even when empty: restore pops one each)
            dict_setdefault(state["replaced"], name, []).append(kept)
            dict_setdefault(state["held"], name, []).append(held_places)
            if not plain:
                continue
            original = dict_get(main, name, missing)
            if original is missing and not where_missing:
                continue
            replacement = make(name, original)
            for other, value in list(dict_items(main)):
                if value is original and original is not missing:
                    kept.append((other, value))
                    main[other] = replacement
            if original is missing:
                kept.append((name, missing))
                main[name] = replacement
            elif replacement is not original:
                in_held(held_places, original, replacement)

    def in_held(kept, original, replacement):
        """`original` replaced where the namespace's code holds it besides its names, a few
        levels down, where a definition took it in (`def step(x, score=scaled_dot_score)`, a
        closure's cell, a function's attribute) or a table keeps it (a dict, by keys that are
        strings or numbers, a list, a tuple: one that held it is replaced where it is held):
        a call through any of them is a call of the step's, as the notebook counts it. The
        same places, in the same order, as the notebook's search (checks/recorder.py,
        swapped_where_held). Each change is added to `kept`, to be undone (held_restored)."""
        done, left = {id(main): main}, [HELD_ENTRIES]  # (a table may hold the namespace)
        module = dict_get(main, "__name__")

        def changes_in(pairs, depth):
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

        def put_all(holder, changes):
            for place, before, after in changes:
                kept.append((holder, place, before, after))
                put(holder, place, after)

        def looked_into(value):
            """Whether a table is looked into: one of at most HELD_TABLE entries, exactly a
            dict, list or tuple, a dict's keys all strings or ints (plain_keys)."""
            kind = type(value)
            if kind is dict:
                return dict_length(value) <= HELD_TABLE and plain_keys(value)
            if kind is list:
                return list_length(value) <= HELD_TABLE
            if kind is tuple:
                return tuple_length(value) <= HELD_TABLE
            if kind is type:
                return proxy_length(class_dict(value)) <= HELD_TABLE
            return kind is FunctionType

        def own(value):
            """Whether the student's namespace defined `value`: a library's are not looked
            into."""
            if type(value) is type:
                try:
                    defined_in = type_module(value)
                except AttributeError:  # a class whose __module__ went
                    return False
                return type(defined_in) is str and type(module) is str and defined_in == module
            return function_globals(value) is main

        def held(value, depth, wrappers=0):
            if value is original:
                return replacement
            if type(value) is StaticMethod:
                value = static_function(value)
            elif type(value) is ClassMethod:
                value = class_function(value)
            kind = type(value)
            if id(kind) not in HELD_KIND_IDS or depth > HELD_DEPTH or not looked_into(value):
                return value
            known = dict_get(done, id(value), missing)
            if known is not missing:
                return known
            dict_set(done, id(value), value)  # a cycle ends here
            if kind is dict:
                put_all(value, changes_in(dict_items(value), depth))
            elif kind is list:
                put_all(value, changes_in(((index, list_item(value, index))
                                           for index in range(list_length(value))), depth))
            elif kind is tuple:
                changes = changes_in(((index, tuple_item(value, index))
                                      for index in range(tuple_length(value))), depth)
                if changes:
                    items = [tuple_item(value, index) for index in range(tuple_length(value))]
                    for place, _, after in changes:
                        list_set(items, place, after)
                    dict_set(done, id(value), tuple(items))
            elif kind is type:  # its methods (an attribute of the class itself is not replaced)
                if own(value):
                    changes_in(proxy_items(class_dict(value)), depth)
            else:  # a function: its default values, its closure's cells, its attributes
                attributes = function_dict(value)
                if not looked_into(attributes):  # (its __dict__ set to a dict of another kind)
                    attributes = {}
                if own(value):
                    put_all(value, changes_in([("__defaults__", defaults_of(value)),
                                               ("__kwdefaults__", kwdefaults_of(value))],
                                              depth - 1))
                    cells = closure_of(value)
                    for index in range(tuple_length(cells) if type(cells) is tuple else 0):
                        cell = tuple_item(cells, index)
                        try:
                            contents = cell_get(cell)
                        except ValueError:  # a cell not filled yet
                            continue
                        put_all(cell, changes_in([("cell_contents", contents)], depth))
                    put_all(attributes, changes_in(
                        ((key, item) for key, item in dict_items(attributes)
                         if not (type(key) is str and key == "__wrapped__")), depth))
                if wrappers < WRAPPERS:  # what a decorator wrapped, as deep as its wrapper
                    held(dict_get(attributes, "__wrapped__"), depth, wrappers + 1)
            return dict_get(done, id(value))

        put_all(main, changes_in(((key, value) for key, value in dict_items(main)
                                  if value is not original and not ipython_history(key)), -1))

    def put(holder, place, value):
        """`value` in `place` of a table, or as a function's default values or a cell's."""
        if type(holder) is dict:
            dict_set(holder, place, value)
        elif type(holder) is list:
            list_set(holder, place, value)
        elif type(holder) is FunctionType:  # its default values (keyword ones change in place)
            set_defaults(holder, value)
        elif type(holder) is CellType:
            cell_set(holder, value)

    def now_at(holder, place):
        if type(holder) is dict:
            return dict_get(holder, place, missing) if plain_keys(holder) else missing
        if type(holder) is list:
            return list_item(holder, place) if place < list_length(holder) else missing
        if type(holder) is FunctionType:
            return defaults_of(holder)
        try:
            return cell_get(holder)
        except ValueError:
            return missing

    def held_restored(holder, place, before, after):
        """One place put back if it still holds what replaced it (changes are undone last
        first: restore). A table that took a key not a string or an int since is left."""
        if now_at(holder, place) is after:
            put(holder, place, before)

    def restore(names):
        """What the last binding of each of `names` did undone, the last name bound first (a
        tuple replaced for one name may be replaced again for the next)."""
        plain = plain_keys(main)
        if not plain:
            taint("namespace_key")
        for name in reversed(names):
            binds, places = dict_get(state["replaced"], name), dict_get(state["held"], name)
            kept = binds.pop() if binds else []
            for other, value in reversed(kept if plain else []):
                if value is missing:
                    main.pop(other, None)
                else:
                    main[other] = value
            for place in reversed(places.pop() if places else ()):
                held_restored(*place)

    # -- the grader's settings, sealed ------------------------------------------------------------

    def on_config(args):
        """The grader's settings for what comes next, sealed with the key: the student's code
        runs from now on (what ran before, the course's cells, is dropped), stand-ins for the
        earlier steps (answered by the grader through `ask`, the kernel's input()), the
        functions whose calls a rule counts, the memory measure, a probe's perturbation."""
        text, mac, ask, box = args
        if type(text) is not str or type(mac) is not str or type(box) is not list:
            return
        if not compare_digest(hmac_digest(key, ("config:" + text).encode(), "sha256").hex(),
                              mac):
            box.append(False)
            taint("setting_forged")
            return
        config = parsed(text)
        number = config.get("setting")
        if type(number) is not int or number <= state["setting"]:  # one seen before, again
            box.append(False)
            taint("setting_forged")
            return
        state["setting"] = number
        if config.get("student") and not state["student"]:
            state["student"] = True
            state["record"] = new_record([])
        restore(config.get("restore") or ())
        if config.get("stand_ins"):
            prompt = config["prompt"]
            bind(config["stand_ins"], lambda name, _: MethodType(
                stand_in, (audit, name, ask, prompt)))
        if config.get("counted"):  # a stand-in counts its own calls (on_stand_in)
            bind(config["counted"], lambda name, original: original if is_stand_in(original)
                 else MethodType(counted, (audit, name, original)), where_missing=False)
        if "measure" in config:
            measure(bool(config["measure"]))
        if "perturb" in config:
            spec = config["perturb"]
            state["perturb"], state["seen"], state["perturbed"] = spec, 0, 0
            state["generator"] = None
            if spec is not None:
                state["generator"] = Generator()
                state["generator"].manual_seed(int(spec["seed"]))
        box.append(True)

    def measure(on):
        if on and not state["measuring"]:
            if not trace_is_tracing():
                trace_start()
            trace_reset_peak()
            state["baseline"], state["measuring"] = trace_memory()[0], True
        elif not on and state["measuring"]:
            state["measuring"] = False
            trace_stop()

    # -- replies --------------------------------------------------------------------------------

    def on_seal(args):
        """A reply: the outcome of a request's `index`-th call, with the record of everything
        computed since the last reply and the settings in force, sealed. An outcome is
        ("ok", value), ("keep", value): kept here, the grader told its handle, or ("error",
        kind, message)."""
        request, index, outcome, box = args
        if type(request) is not str or type(index) is not int or type(outcome) is not tuple \
                or type(box) is not list or len(box) != 1:
            return
        box[0] = sealed(request, index, outcome)

    def sealed(request, index, outcome):
        record = state["record"]
        checked_stacks()
        if state["measuring"]:  # before the value is read into Python's numbers below
            record["python_peak"] = int(max(trace_memory()[1] - state["baseline"], 0))
        data, digest = read_request(request)
        record["arguments"] = arguments_of(data, index)
        reply = {"seq": state["seq"] + 1, "request": digest,
                 "index": index, "record": record,
                 "state": {"measuring": state["measuring"], "perturb": state["perturb"],
                           "seen": state["seen"], "perturbed": state["perturbed"]}}
        kind = outcome[0] if outcome else None
        if len(outcome) == 2 and (kind == "ok" or kind == "keep"):
            try:
                reply["ok"] = encoded(outcome[1], keep=kind == "keep")
            except LookupError as error:
                reply["error"] = "NotData"
                reply["message"] = (f"it returned {error.args[0]}: return the built-in type "
                                    "itself")
        elif len(outcome) == 3 and kind == "error" and type(outcome[1]) is str \
                and type(outcome[2]) is str:
            reply["error"], reply["message"] = outcome[1][:100], outcome[2][:300]
        else:
            reply["error"], reply["message"] = "BadReply", "the agent's outcome is not data"
        state["seq"] += 1
        state["record"] = new_record([])
        text = text_of(reply)
        if state["measuring"]:
            trace_reset_peak()
            state["baseline"] = trace_memory()[0]
        return text + "\x00" + hmac_digest(key, text.encode(), "sha256").hex()

    def checked_stacks():
        """The recording's modes where the guard put them, with nothing above them, and no
        profile or trace function."""
        if not (dispatch_depth() >= 1 and dispatch_at(0) is operations):
            taint("mode_gone")
        elif dispatch_depth() != 1:
            taint("mode_left")
        if not (function_depth() >= 1 and function_at(0) is functions):
            taint("mode_gone")
        elif function_depth() != 1:
            taint("mode_left")
        if getprofile() is not None or gettrace() is not None:
            taint("profile")

    def on_agent(args):
        box = args[0]
        if type(box) is list and len(box) == 1:
            box[0] = agent_code

    def on_handle(args):
        number, box = args
        if type(box) is list and len(box) == 1 and type(number) is int \
                and 0 < number <= len(state["handles"]):
            box[0] = state["handles"][number - 1]

    def handle_of(value):
        state["handles"].append(value)
        return {"handle": len(state["handles"])}

    # -- values as data -------------------------------------------------------------------------

    def encoded(value, depth=0, keep=False):
        """The wire form of a value (agent.py's format), of exact types only: nothing of a
        subclass is read. An object that is not data gets a handle (so does every tensor with
        `keep`); a subclass of a kind of data raises LookupError, naming it."""
        if depth > 64:
            raise LookupError("a value nested too deep")
        kind = type(value)
        if value is None or kind is bool or kind is int or kind is float or kind is str:
            return value
        if kind is Tensor or kind is Parameter:
            if keep:
                return handle_of(value)
            name = dtype_name(t_dtype(value))
            if name is None:
                raise LookupError(f"a tensor of dtype {t_dtype(value)}")
            return {"tensor": [name, [int(n) for n in t_size(value)],
                               t_tolist(t_reshape(t_detach(value), (-1,))),
                               t_requires_grad(value)]}
        if kind is Size:
            return {"tuple": [int(n) for n in value]}
        if kind is DtypeKind and dtype_name(value) is not None:
            return {"dtype": dtype_name(value)}
        # A tuple, list or dict, or an object of a class built on one (a named tuple, an
        # OrderedDict, torch's return types): read as the base type holds it, through the base
        # type's own methods, so no method of the subclass runs.
        bases = type_mro(kind)
        if one_of(tuple, bases):
            return {"tuple": [encoded(tuple_item(value, i), depth + 1, keep)
                              for i in range(tuple_length(value))]}
        if one_of(list, bases):
            return [encoded(list_item(value, i), depth + 1, keep)
                    for i in range(list_length(value))]
        if one_of(dict, bases):
            return {"dict": [[encoded(k, depth + 1, keep), encoded(v, depth + 1, keep)]
                             for k, v in list(dict_items(value))]}
        if one_of(float, bases):  # numpy's float64 is one: its value, as a float
            return float_value(value)
        if one_of(int, bases):
            return int_value(value)
        if one_of(str, bases):
            return str_value(value)
        if kind is set or kind is frozenset or any(
                one_of(base, (set, frozenset, Tensor)) for base in bases):
            raise LookupError(f"a {type_name(kind)}")
        return handle_of(value)

    def dtype_name(dtype):
        for value, name in dtype_names:
            if dtype is value:
                return name
        return None

    def decoded(data, depth=0):
        """A value from the grader's wire form: plain numbers into tensors, nothing else."""
        if depth > 64:
            raise ValueError("nested too deep")
        kind = type(data)
        if data is None or kind is bool or kind is int or kind is float or kind is str:
            return data
        if kind is list:
            return [decoded(item, depth + 1) for item in data]
        if kind is not dict or len(data) != 1:
            raise ValueError("malformed")
        ((field, body),) = dict_items(data)
        if field == "tensor":
            return t_reshape(vf_tensor(body[2], dtype=dtypes[body[0]]), [int(n) for n in body[1]])
        if field == "tuple":
            return tuple(decoded(item, depth + 1) for item in body)
        if field == "dict":
            return {decoded(k, depth + 1): decoded(v, depth + 1) for k, v in body}
        if field == "dtype":
            return dtypes[body]
        raise ValueError("malformed")

    def parsed(text):
        if type(text) is not str:
            raise ValueError("not text")
        try:
            value, end = scan(text, 0)
        except StopIteration:
            raise ValueError("no JSON") from None
        if text[end:].strip():
            raise ValueError("extra data")
        return value

    def text_of(value):
        return join(encode_json(value, 0))

    def read_request(request):
        """(the request's JSON, or None where it is not JSON; its digest), each worked out
        once: a batch of calls gets a reply for each, and its text holds every case's
        tensors (parsing it again for each reply was about 15 ms of a notebook's judging)."""
        text, data, digest = state["request"]
        if request != text:
            try:
                data = parsed(request)
            except ValueError:
                data = None
            digest = sha256(request.encode()).hexdigest()
            state["request"] = (request, data, digest)
        return data, digest

    def arguments_of(data, index):
        """The described arguments of the `index`-th call of a request (its JSON: its
        tensors' shapes, its numbers), read from the grader's own text and the handles it
        names: what the rules size things by."""
        try:
            if data.get("op") == "batch":
                data = data["requests"][index]
            if data.get("op") != "call":
                return []
            args = data["args"]
            args = args["tuple"] if type(args) is dict else args
            return [argument_of(item) for item in args]
        except (ValueError, KeyError, TypeError, IndexError, AttributeError):
            return []

    def argument_of(item):
        if type(item) in (bool, int, float):
            return item
        if type(item) is dict and "tensor" in item:
            return [int(n) for n in item["tensor"][1]]
        if type(item) is dict and "handle" in item and type(item["handle"]) is int \
                and 0 < item["handle"] <= len(state["handles"]):
            return described(state["handles"][item["handle"] - 1])
        return None

    # -- what the interpreter says --------------------------------------------------------------

    def on_getframe(args):
        if frame_code(args[0]) in TRUSTED:
            raise refused("frame")

    def on_getattr(args):
        obj, name = args
        if type(name) is str and name == "tb_frame" and \
                frame_code(traceback_frame(obj)) in TRUSTED:
            raise refused("frame")

    def on_setattr(args):
        obj, name = args[0], args[1]
        name = name if type(name) is str else "?"
        if type(obj) is type and (one_of(obj, OURS) or one_of(obj, PROTECTED)):
            raise refused(f"class_changed:{type_name(obj)}.{name}")
        if name == "__code__" or one_of(obj, OUR_FUNCTIONS):
            raise refused(f"function_changed:{name}")

    def on_delattr(args):
        obj, name = args
        name = name if type(name) is str else "?"
        if type(obj) is type and (one_of(obj, OURS) or one_of(obj, PROTECTED)):
            raise refused(f"class_changed:{type_name(obj)}.{name}")

    def on_marshal(args):
        """Code from bytes: only the import system, reading a module's cached code."""
        caller = getframe(2)  # this is 0, the hook 1; below, who called marshal
        if frame_code(caller) is not import_reader:
            raise refused("marshal")

    def on_code(args):
        """A code object made: only by the template's cell cache, which gives a course cell's
        kept code the file name of this kernel's run (cell_cache.renamed)."""
        if renaming is None or frame_code(getframe(2)) is not renaming:
            raise refused("code_object")

    def on_import(args):
        module = args[0]
        if type(module) is not str or module in PROTECTED_MODULES:
            raise refused(f"reimport:{module if type(module) is str else '?'}")

    def on_open(args):
        path = args[0]
        if type(path) is int:
            return
        if type(path) is bytes:
            path = path.decode("utf-8", "replace")
        if type(path) is not str or path.rstrip("/").rsplit("/", 1)[-1] in (
                "mem", "pagemap", "kcore", "kmem"):
            raise refused("memory_file")

    def on_find_class(args):
        raise refused(f"pickle:{str(args[0])[:60]}.{str(args[1])[:60]}")

    def always(what):
        def refuse(args):
            raise refused(what)
        return refuse

    def noted(what):
        return lambda args: taint(what)

    HANDLERS = {
        "kit.op_in": on_op_in, "kit.op": on_op, "kit.fn_in": on_fn_in, "kit.fn": on_fn,
        "kit.guarded": on_guarded, "kit.entered": on_entered, "kit.stand_in": on_stand_in,
        "kit.stand_in_reply": on_stand_in_reply, "kit.seal": on_seal, "kit.config": on_config,
        "kit.agent": on_agent, "kit.handle": on_handle,
        "sys._getframe": on_getframe, "object.__getattr__": on_getattr,
        "object.__setattr__": on_setattr, "object.__delattr__": on_delattr,
        "marshal.loads": on_marshal, "import": on_import, "open": on_open,
        "pickle.find_class": on_find_class,
        "sys._current_frames": always("all_frames"),
        "sys.setprofile": always("set_profile"), "sys.settrace": always("set_profile"),
        "sys.addaudithook": always("audit_hook"),
        "gc.get_objects": always("collector"), "gc.get_referrers": always("collector"),
        "gc.get_referents": always("collector"),
        "code.__new__": on_code,
        "os.symlink": always("link"), "os.link": always("link"),
        "os.fork": noted("process:os.fork"), "os.forkpty": noted("process:os.forkpty"),
        "os.posix_spawn": noted("process:os.posix_spawn"),
        "os.spawn": noted("process:os.spawn"), "os.exec": noted("process:os.exec"),
        "os.system": noted("process:os.system"),
        "subprocess.Popen": noted("process:subprocess"), "pty.spawn": noted("process:pty"),
    }
    for event in ("dlopen", "dlsym", "dlsym/handle", "cdata", "cdata/buffer", "call_function",
                  "addressof", "string_at", "wstring_at", "create_string_buffer",
                  "create_unicode_buffer", "get_errno", "set_errno", "PyObj_FromPtr",
                  "set_exception"):
        HANDLERS["ctypes." + event] = always("ctypes")
    # The events whose handling runs torch (the originals of kit.guarded run as they are:
    # a guard torch's own code asked for must hold after the hook returns).
    QUIET = frozenset({"kit.op", "kit.fn", "kit.stand_in", "kit.stand_in_reply", "kit.seal",
                       "kit.config"})
    PROTECTED = (Tensor, Parameter, OpOverload, torch._ops.OpOverloadPacket,
                 torch.utils._python_dispatch.TorchDispatchMode,
                 torch.overrides.TorchFunctionMode, types.MethodType, parts.LIBRARY_OBJECT)
    PROTECTED_MODULES = frozenset({"torch", "torch._C", "torch._ops", "_tracemalloc",
                                   "tracemalloc", "_ctypes", "ctypes", "gc", "_json", "json",
                                   "_hashlib", "sys", "builtins", "_imp"})

    def hook(event, args):
        if type(event) is not str:
            return
        handler = dict_get(HANDLERS, event)
        if handler is None or state["inside"]:
            return
        state["inside"] = True
        quiet = quiet_on() if event in QUIET else None  # gc's state before, or None
        failure = None
        try:
            handler(args)
        except PermissionError as refusal:
            failure = refusal
        except BaseException as error:  # noqa: BLE001 - a fault of the guard's is a finding
            taint(f"guard_failed:{event} ({type_name(type(error))})")
        finally:
            if quiet is not None:
                quiet_off(quiet)
            state["inside"] = False
        if failure is not None:
            raise failure

    # -- in every module, a forwarder where torch's switches and tracemalloc's were --------------
    # (Where the template found them, and in the modules imported since.)
    forwarders = {name: MethodType(through_guard, (audit, name)) for name in ORIGINALS}
    places = parts.LOCATIONS + parts.locations(sorted(set(sys.modules) - parts.MODULES))
    for module_name, attribute, name in places:
        namespace = getattr(sys.modules.get(module_name), "__dict__", None)
        if type(namespace) is dict and name in ORIGINALS and \
                dict_get(namespace, attribute) is ORIGINALS[name]:
            namespace[attribute] = forwarders[name]
    # -- on torch's library object, a forwarder for each method that registers ----------------
    for name in REGISTERING:
        attribute = name.rpartition(".")[2]
        method = FunctionType(registering.__code__, function_globals(registering), attribute)
        method.__kwdefaults__ = {"S": (audit, name)}
        setattr(parts.LIBRARY_OBJECT, attribute, method)

    TRUSTED = frozenset(codes_below([install, *(value for value in recording.values()
                                                if type(value) is types.FunctionType)]))
    del settings

    push_dispatch(operations)
    push_function(functions)
    sys.addaudithook(hook)


def codes_below(functions):
    """The code objects of these functions and of every function, lambda and comprehension
    written inside them."""
    found, todo = set(), [function.__code__ for function in functions]
    while todo:
        code = todo.pop()
        if code not in found:
            found.add(code)
            todo += [const for const in code.co_consts if type(const) is type(code)]
    return found
