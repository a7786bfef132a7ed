"""The commands page: `python -m autograder --help` and every command's `--help`, each run as
a command of its own at a fixed width. The documentation site shows it as
reference/commands.md; `python -m autograder guide commands` prints it from an installed
kit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]  # autograder/: no course, so the help is English
HELP_COLUMNS = "100"


def kit_help(*command, cwd=KIT):
    """What `python -m autograder COMMAND --help` prints, at a fixed width, run in `cwd` (the
    help speaks the language of the course it is run in; the kit's own folder is none)."""
    env = dict(os.environ, COLUMNS=HELP_COLUMNS)
    done = subprocess.run([sys.executable, "-m", "autograder", *command, "--help"], cwd=cwd,
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"python -m autograder {' '.join(command)} --help failed:\n"
                           f"{done.stderr}")
    return done.stdout.rstrip()


def command_names(top_help):
    """The commands the top-level help lists under COMMAND, in its order."""
    names, inside = [], False
    for line in top_help.splitlines():
        if line.strip() == "COMMAND":
            inside = True
        elif inside and not line.strip():
            break
        elif inside and line.startswith("    ") and not line.startswith("     "):
            names.append(line.split()[0])
    return names


def commands_page(cwd=KIT):
    """The page: the top-level help, then each command's, as run in `cwd`."""
    top = kit_help(cwd=cwd)
    names = command_names(top)
    parts = ["# Commands", "",
             "Every command of `python -m autograder`, as its `--help` prints it (this page is "
             "made from the command line itself: `python -m autograder guide commands` prints "
             "it). Run the kit in the course root or any folder below it.", "",
             "Commands: " + ", ".join(f"[{name}](#{name})" for name in names) + ".", "",
             "## python -m autograder", "", "```text", top, "```"]
    for name in names:
        parts += ["", f"## {name}", "", "```text", kit_help(name, cwd=cwd), "```"]
    return "\n".join(parts) + "\n"
