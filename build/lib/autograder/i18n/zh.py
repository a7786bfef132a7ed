"""The Chinese catalog: every zh_*.py module's CATALOG, merged. Two modules may not give one
English text two different Chinese texts."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path


def merged():
    catalog, homes = {}, {}
    for info in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]),
                       key=lambda i: i.name):
        if not info.name.startswith("zh_"):
            continue
        module = importlib.import_module(f"{__package__}.{info.name}")
        for english, chinese in module.CATALOG.items():
            if english in catalog and catalog[english] != chinese:
                raise ValueError(f"{english!r} has two Chinese texts, in {homes[english]} "
                                 f"and {info.name}: keep one")
            catalog[english], homes[english] = chinese, info.name
    return catalog


CATALOG = merged()
