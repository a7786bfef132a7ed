"""What the judging kernel's guard is made of, made once in the kernel template: the code of
the guard, the forwarders, the op_record and the agent, compiled, and where in the imported
modules the torch and tracemalloc functions the guard takes over are held.

The kernel template (zygote.py) imports this module after its own imports, so every kernel
forked from it has it ready: a judging kernel runs the guard (guard.py) from these code
objects in a namespace of its own (link.py, `GUARD_CELL`), and puts its forwarders where
`LOCATIONS` says, instead of reading every module of the process, which in a kernel just
forked copied the pages of every module's objects (about 35 ms a judging kernel). Modules
imported after the template's are looked through as well (`MODULES`).

Nothing here is secret or stateful: code objects and names. The student's code may read it.
"""

import sys
import tracemalloc
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent


def compiled(path, name):
    return compile(path.read_text(encoding="utf-8"), name, "exec")


GUARD = compiled(HERE / "guard.py", "kit_guard")
FORWARDERS = compiled(HERE / "forwarders.py", "kit_forwarders")
AGENT = compiled(HERE / "agent.py", "kit_agent")
OP_RECORD = compiled(HERE.parent / "checks" / "op_record.py", "kit_op_record")

# The functions and guards of torch's C module that can switch the recording off, and
# tracemalloc's that can reset its measure: the guard decides when each may run.
SWITCHES = (
    "_pop_torch_dispatch_stack", "_pop_torch_function_stack", "_push_on_torch_dispatch_stack",
    "_push_on_torch_function_stack", "DisableTorchFunction", "_DisableTorchDispatch",
    "_ExcludeDispatchKeyGuard", "ExcludeDispatchKeyGuard", "_ForceDispatchKeyGuard",
    "_SetExcludeDispatchKeyGuard", "_dispatch_tls_set_dispatch_key_excluded",
    "_RestorePythonTLSSnapshot", "_set_dispatch_mode", "_unset_dispatch_mode",
    "_dispatch_library")
TRACING = ("stop", "clear_traces", "reset_peak", "start")
# The methods of torch's library object (a torch.library.Library's `m`) that define an
# operation or register code as one's: in a library torch made as it imported (export's, 134
# of them), as in a new one, the guard decides when each may run.
REGISTERING = ("def_", "def_legacy", "def_name_t_t", "def_schema_t_t", "define", "fallback",
               "fallback_fallthrough", "impl", "impl_t_t", "impl_with_aoti_compile",
               "register_ad_inplace_or_view_fallback", "reset")
LIBRARY_OBJECT = getattr(torch._C, "_DispatchModule", None)


def originals():
    """{the guard's name of a function: the function}, as this process holds them."""
    found = {name: getattr(torch._C, name) for name in SWITCHES if hasattr(torch._C, name)}
    found.update({"tracemalloc." + name: getattr(tracemalloc, name) for name in TRACING})
    return found


def registering():
    """{the guard's name of a registering method: the method}, from the library object's class
    as this process holds it."""
    methods = vars(LIBRARY_OBJECT) if LIBRARY_OBJECT is not None else {}
    return {"DispatchModule." + name: methods[name] for name in REGISTERING if name in methods}


def locations(modules):
    """((module, attribute, the guard's name), ...) of every module attribute of `modules`
    (names) that holds one of the originals."""
    wanted = {id(value): name for name, value in originals().items()}
    found = []
    for module_name in modules:
        namespace = getattr(sys.modules.get(module_name), "__dict__", None)
        if type(namespace) is not dict:
            continue
        for attribute, value in list(namespace.items()):
            name = wanted.get(id(value))
            if name is not None:
                found.append((module_name, attribute, name))
    return tuple(found)


MODULES = frozenset(sys.modules)
LOCATIONS = locations(sorted(MODULES))
