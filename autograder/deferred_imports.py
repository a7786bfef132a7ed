"""Work a library does as it is imported, which the kit's processes never need, put off until
something uses it.

jsonschema, which nbformat imports (so every command that reads a notebook, and every grading
worker), imports rfc3987_syntax when it is installed (jupyter-events asks for it), only to check
strings of the "iri" format; and rfc3987_syntax builds a Lark parser of RFC 3987's grammar as it
is imported: about 1.5 CPU s in each process, a third of what a grading worker spends to
start, for a format no notebook schema and no course file has. Here the package stands in
the module table with its parser unbuilt: jsonschema's `is_valid_syntax` builds it at its first
call and answers as the library does, and any other name of the package loads the package's
own module first.

`import nbgrader` imports its four Jupyter server extensions (their request handlers, and
with them jupyter_server's web framework and nbgrader's exchange), only to name the functions
a Jupyter server calls to load them: about 0.2 CPU s and a hundred modules in every process
that reads a gradebook or grades, none of which serves web pages. Here each extension's
package stands in the module table with its own code not yet run: the server's call of its
`load_jupyter_server_extension`, or the first use of any other of its names, runs it then;
its modules import as usual.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import types

DEFERRED = "rfc3987_syntax"
BUILDS_ON_IMPORT = DEFERRED + ".syntax_helpers"  # the module that builds the parser
SERVER_EXTENSIONS = [f"nbgrader.server_extensions.{name}" for name in
                     ("assignment_list", "course_list", "validate_assignment", "formgrader")]


def defer():
    """Put rfc3987_syntax's parser and nbgrader's server extensions off until first use,
    unless they are already imported or not installed."""
    defer_parser()
    deferred = [name for name in SERVER_EXTENSIONS
                if defer_package_code(name, "load_jupyter_server_extension")]
    if deferred:  # each a name of its parent package too, as an import would make it
        parent = importlib.import_module("nbgrader.server_extensions")  # nbgrader's own is empty
        for name in deferred:
            setattr(parent, name.rpartition(".")[2], sys.modules[name])


def package_spec(name):
    """The spec of an installed package not yet imported; else None. Found without
    importing the packages it is in (which importlib's find_spec would do)."""
    if name in sys.modules:
        return None
    path = None
    try:
        for part in range(1, name.count(".") + 2):
            spec = importlib.machinery.PathFinder.find_spec(".".join(name.split(".")[:part]),
                                                            path)
            if spec is None or not spec.submodule_search_locations:
                return None
            path = list(spec.submodule_search_locations)
    except (ImportError, ValueError):
        return None
    return spec


def stand_in(name, spec, doc):
    """An empty module for package `name`: its own modules load as usual."""
    package = types.ModuleType(name, doc)
    package.__spec__, package.__loader__, package.__file__ = spec, spec.loader, spec.origin
    package.__path__ = list(spec.submodule_search_locations)
    package.__package__ = name
    return package


def defer_parser():
    spec = package_spec(DEFERRED)
    if spec is None:
        return
    package = stand_in(DEFERRED, spec, "rfc3987_syntax, its parser built at first use "
                       "(autograder/deferred_imports.py)")

    def built():
        return importlib.import_module(BUILDS_ON_IMPORT)

    def is_valid_syntax(term, value):
        return built().is_valid_syntax(term, value)

    package.is_valid_syntax = is_valid_syntax
    package.__getattr__ = lambda name: getattr(built(), name)  # every other name, loaded
    sys.modules[DEFERRED] = package


def defer_package_code(name, function):
    """Stand in for package `name` with its __init__ not yet run: calling its `function`, or
    asking for any other name but one of its modules', runs it in the stand-in (which so
    becomes the package). Whether it stands in (not if imported already, or not installed)."""
    spec = package_spec(name)
    if spec is None:
        return False
    package = stand_in(name, spec, f"{name}, run at first use (autograder/deferred_imports.py)")
    ran = []

    def run():
        if not ran:
            ran.append(True)
            del package.__getattr__, package.__dict__[function]
            spec.loader.exec_module(package)
        return package

    def first_use(*args, **kwargs):
        return getattr(run(), function)(*args, **kwargs)

    def other_name(attribute):
        if ran or attribute.startswith("__"):
            raise AttributeError(f"module {name!r} has no attribute {attribute!r}")
        if importlib.machinery.PathFinder.find_spec(f"{name}.{attribute}", package.__path__):
            return importlib.import_module(f"{name}.{attribute}")  # a module of the package
        return getattr(run(), attribute)

    setattr(package, function, first_use)
    package.__getattr__ = other_name
    sys.modules[name] = package
    return True
