"""How the user runs the kit, as they would type it. The kit's texts name its commands the way
the docs do, `python -m autograder ...`; where `python` on PATH is not the interpreter running
the kit (Debian's login shell has no `python`, a virtualenv not activated has another), a
copied command would fail, so the texts show this interpreter's path instead (i18n.t, the
help's usage line)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from pathlib import Path

KIT = "python -m autograder"  # how the kit's texts spell its commands
SPELLED = re.compile(r"(?<![\w/.\-])python -m autograder")  # not the end of a path given


_made_from: dict[str, str] = {}  # a PATH the kit made (its folder first) -> the one it was


def kit_folder_first(path: str) -> str:
    """`path` with this interpreter's folder first (nbgrader runs the `alembic` executable of
    the kit's environment, activated or not); remembered, so that kit_command still reads the
    PATH the user's shell has."""
    folder = str(Path(sys.executable).parent)
    if path.split(os.pathsep)[0] == folder:
        return path
    made = f"{folder}{os.pathsep}{path}"
    _made_from[made] = _made_from.get(path, path)
    return made


def user_path() -> str:
    """PATH as the user's shell gave it: before the kit put its folder first."""
    path = os.environ.get("PATH", "")
    return _made_from.get(path, path)


def kit_command():
    """`python -m autograder` when `python` on the user's PATH is this very interpreter (same
    folder, same file), else this interpreter's full path, so that a copied command runs the
    kit's python."""
    found = shutil.which("python", path=user_path())
    here = Path(sys.executable)
    if found and Path(found).parent == here.parent and os.path.realpath(found) == \
            os.path.realpath(here):
        return KIT
    return f"{shlex.quote(str(here))} -m autograder"


def as_typed(text: str) -> str:
    """`text` with each `python -m autograder` written as the user runs the kit here."""
    if KIT not in text:
        return text
    typed = kit_command()
    return text if typed == KIT else SPELLED.sub(lambda _: typed, text)
