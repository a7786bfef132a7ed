"""Every step's hidden check, by assignment: the course's one list of assignments.

Each module of this package is one assignment: it names its id (`ASSIGNMENT`) and declares
its steps once, as data (`STEPS`: document cases, random cases, properties, rules, mistakes).
Adding a module adds the assignment; nothing else lists them.
"""

from __future__ import annotations

import pkgutil
from importlib import import_module


def _assignments():
    modules = [import_module(f"{__name__}.{info.name}")
               for info in pkgutil.iter_modules(__path__)]
    return {m.ASSIGNMENT: m.STEPS for m in sorted(modules, key=lambda m: m.ASSIGNMENT)}


ASSIGNMENTS = _assignments()  # assignment id -> its steps, in the order students meet them
STEPS = {step.name: step for steps in ASSIGNMENTS.values() for step in steps}
