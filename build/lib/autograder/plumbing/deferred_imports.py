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
that reads a gradebook or grades, none of which serves web pages. Here an import finder
imports each extension's package with its own code not yet run (nothing is imported until
something imports nbgrader): the server's call of its `load_jupyter_server_extension`, or
the first use of any other of its names, runs it then; its modules import as usual.

nbgrader's API imports requests, for the calls of its JupyterHub authenticator, made only
where a course authenticates through JupyterHub: some 40 ms of every process that reads a
gradebook or grades, on the way to a cold grade's first notebook. It is imported the same way,
its package's own code run at the first use of one of its names. (nbgrader imports setuptools
as well, some 45 ms, for three functions of its zip collector; that is not put off: setuptools
adds its vendored packages to sys.path as it is imported, which another import may count on.)
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import threading
import types

from autograder.plumbing import private_api

DEFERRED = "rfc3987_syntax"
BUILDS_ON_IMPORT = DEFERRED + ".syntax_helpers"  # the module that builds the parser
SERVER_EXTENSIONS = [f"nbgrader.server_extensions.{name}" for name in
                     ("assignment_list", "course_list", "validate_assignment", "formgrader")]
UNUSED_ON_IMPORT = {"requests": "deferred requests"}  # package: private_api's speedup
_checking = threading.local()  # .now: this thread asks private_api, which finds packages too


def speedup_applies(name) -> bool:
    """private_api.applies(name), where finding the packages it reads (find_spec of their
    top-level names) does not ask this module's finders again."""
    _checking.now = True
    try:
        return private_api.applies(name)
    finally:
        _checking.now = False


def defer():
    """Put rfc3987_syntax's parser and nbgrader's server extensions off until first use: a
    finder first on sys.meta_path answers for them when a process imports them, once the
    library code is found to be what the deferral was written for (private_api: read then,
    not here, so that a process that never imports them, the command line handing a command
    to serve, never reads their files). A package already imported keeps its module.
    Nothing is imported or read here."""
    if not any(isinstance(finder, DeferredParser) for finder in sys.meta_path):
        sys.meta_path.insert(0, DeferredParser())
    if not any(isinstance(finder, DeferredPackages) for finder in sys.meta_path):
        sys.meta_path.insert(0, DeferredPackages(
            {name: "deferred server extensions" for name in SERVER_EXTENSIONS},
            "load_jupyter_server_extension"))
        sys.meta_path.insert(0, DeferredPackages(UNUSED_ON_IMPORT))


# Finders and loaders as the import system calls them, not importlib.abc's classes: importing
# that module imports importlib.resources, about 10 ms of every process's start.


class DeferredPackages:
    """Imports each package of `speedups` ({name: the private_api speedup that checks its
    deferral}) with its own code not yet run: calling its `function` (where one is named),
    or asking for any other name but one of its modules', runs it in the module the import
    made (which so becomes the package). The import itself, of the package and of the
    packages above it, is Python's: only the package's own code waits."""

    def __init__(self, speedups, function=None):
        self.speedups, self.function = dict(speedups), function

    def find_spec(self, name, path, target=None):
        if name not in self.speedups or getattr(_checking, "now", False) \
                or not speedup_applies(self.speedups[name]):
            return None
        real = importlib.machinery.PathFinder.find_spec(name, path)
        if real is None or not real.submodule_search_locations:
            return None
        spec = importlib.util.spec_from_file_location(
            name, real.origin, loader=self,
            submodule_search_locations=list(real.submodule_search_locations))
        spec.loader_state = real
        return spec

    def create_module(self, spec):
        return None  # Python's own module

    def exec_module(self, package):
        real, function, ran = package.__spec__.loader_state, self.function, []
        name, lock = package.__name__, threading.Lock()

        def run():
            with lock:
                if not ran:
                    ran.append(True)
                    del package.__getattr__
                    if function:
                        del package.__dict__[function]
                    real.loader.exec_module(package)
            return package

        def first_use(*args, **kwargs):
            return getattr(run(), function)(*args, **kwargs)

        def other_name(attribute):
            if ran or (function and attribute.startswith("__")):
                raise AttributeError(f"module {name!r} has no attribute {attribute!r}")
            if not attribute.startswith("__") and importlib.machinery.PathFinder.find_spec(
                    f"{name}.{attribute}", package.__path__):
                return importlib.import_module(f"{name}.{attribute}")  # one of its modules
            return getattr(run(), attribute)  # a name its code sets (__version__ too)

        if function:
            setattr(package, function, first_use)
        package.__getattr__ = other_name


class DeferredParser:
    """Finds rfc3987_syntax as a package whose parser is not built yet: is_valid_syntax builds
    it at its first call and answers as the library does, and any other name of the package
    loads the module that builds it first. Its own modules load as usual."""

    def find_spec(self, name, path, target=None):
        if name != DEFERRED or getattr(_checking, "now", False) \
                or not speedup_applies("deferred parser"):
            return None
        real = importlib.machinery.PathFinder.find_spec(name, path)
        if real is None or not real.submodule_search_locations:
            return None
        spec = importlib.machinery.ModuleSpec(name, self, origin=real.origin, is_package=True)
        spec.submodule_search_locations = list(real.submodule_search_locations)
        spec.has_location = real.has_location
        return spec

    def create_module(self, spec):
        package = types.ModuleType(DEFERRED, "rfc3987_syntax, its parser built at first use "
                                   "(autograder/plumbing/deferred_imports.py)")

        def built():
            return importlib.import_module(BUILDS_ON_IMPORT)

        def is_valid_syntax(term, value):
            return built().is_valid_syntax(term, value)

        def other_name(name):  # every other name, loaded; the import system's own set later
            if name.startswith("__"):
                raise AttributeError(f"module {DEFERRED!r} has no attribute {name!r}")
            return getattr(built(), name)

        package.is_valid_syntax = is_valid_syntax
        package.__getattr__ = other_name
        return package

    def exec_module(self, package):
        """The package's own code waits: create_module made what it holds."""
