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
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types

DEFERRED = "rfc3987_syntax"
BUILDS_ON_IMPORT = DEFERRED + ".syntax_helpers"  # the module that builds the parser


def defer():
    """Put rfc3987_syntax's parser off until first use, unless it is already imported or
    not installed."""
    if DEFERRED in sys.modules:
        return
    try:
        spec = importlib.util.find_spec(DEFERRED)
    except (ImportError, ValueError):
        return
    if spec is None or not spec.submodule_search_locations:
        return
    package = types.ModuleType(DEFERRED, "rfc3987_syntax, its parser built at first use "
                               "(autograder/deferred_imports.py)")
    package.__spec__, package.__loader__, package.__file__ = spec, spec.loader, spec.origin
    package.__path__ = list(spec.submodule_search_locations)  # its own modules load as usual

    def built():
        return importlib.import_module(BUILDS_ON_IMPORT)

    def is_valid_syntax(term, value):
        return built().is_valid_syntax(term, value)

    package.is_valid_syntax = is_valid_syntax
    package.__getattr__ = lambda name: getattr(built(), name)  # every other name, loaded
    sys.modules[DEFERRED] = package
