"""How the user runs the kit, as they would type it. The kit's texts name its commands the way
the docs do, `python -m autograder ...`; where `python` on PATH is not the interpreter running
the kit (Debian's login shell has no `python`, a virtualenv not activated has another), a
copied command would fail, so the texts show this interpreter's path instead (i18n.t, the
help's usage line), and the full path of the environment's nbgrader and dask where PATH does
not find them."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from pathlib import Path

KIT = "python -m autograder"  # how the kit's texts spell its commands
SPELLED = re.compile(r"(?<![\w/.\-])python -m autograder")  # not the end of a path given


USER_PATH = "KIT_USER_PATH"  # the user's PATH, where the kit put its folder first on PATH


def kit_folder_first(path: str) -> str:
    """`path` with this interpreter's folder first (nbgrader runs the `alembic` executable of
    the kit's environment, activated or not)."""
    folder = str(Path(sys.executable).parent)
    return path if path.split(os.pathsep)[0] == folder else f"{folder}{os.pathsep}{path}"


def with_kit_folder_first(env) -> dict:
    """`env` (os.environ or a copy) with the kit's folder first on its PATH, and the PATH the
    user gave kept in USER_PATH, so that kit_command, here or in a process started with it,
    still reads the user's."""
    given = user_path(env)
    env[USER_PATH] = given
    env["PATH"] = kit_folder_first(given)
    return env


def user_path(env=None) -> str:
    """PATH as the user's shell gave it: before the kit put its folder first (USER_PATH, when
    PATH is still what the kit made of it; a PATH set since is the user's)."""
    env = os.environ if env is None else env
    path, given = env.get("PATH", ""), env.get(USER_PATH)
    return given if given is not None and path == kit_folder_first(given) else path


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


# The other tools of the kit's environment an instructor's text names, as commands to paste (in
# a `code span`, after its environment variable if any): nbgrader's instructor commands and
# dask's. A student's `nbgrader submit` is run where the student is, and stays as written; so
# does prose ("no dask scheduler answers").
TOOLS = re.compile(r"(?:(?<=`)|(?<=`PYTHONHASHSEED=0 ))"
                   r"(nbgrader (?=(?:db|generate_assignment|export|autograde|collect|zip_collect|"
                   r"generate_feedback|release_assignment|release_feedback|formgrader)\b)|"
                   r"dask (?=(?:worker|scheduler)\b))")


def tool_command(tool: str) -> str:
    """How the user runs `tool` of the kit's environment: its name when the user's PATH finds
    that very file, else its full path."""
    own = Path(sys.executable).parent / tool
    found = shutil.which(tool, path=user_path())
    if not own.exists() or (found and os.path.realpath(found) == os.path.realpath(own)):
        return tool
    return shlex.quote(str(own))


def as_typed(text: str) -> str:
    """`text` with each `python -m autograder`, and each command of nbgrader's or dask's,
    written as the user runs it here."""
    if KIT in text:
        typed = kit_command()
        if typed != KIT:
            text = SPELLED.sub(lambda _: typed, text)
    if "nbgrader " in text or "dask " in text:
        text = TOOLS.sub(lambda found: tool_command(found[1].strip()) + " ", text)
    return text
