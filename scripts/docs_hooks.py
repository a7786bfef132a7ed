"""MkDocs hooks: pages made at build time from what the kit itself holds, so that each fact
keeps one home.

- instructors/writing-assignments.md is the authoring guide, autograder/docs/writing-
  assignments.md, read where it lives (it ships in the wheel and `guide` prints it);
- reference/commands.md is `python -m autograder --help` and every command's `--help`, run
  from the repository's root (the command line imports only light modules for --help);
- reference/settings.md is every setting the kit adds to nbgrader's configuration
  (autograder/tools/settings_page.py, which `guide settings` prints too)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from mkdocs.structure.files import File

from autograder.tools.settings_page import settings_page

ROOT = Path(__file__).resolve().parents[1]
KIT = ROOT / "autograder"
GUIDE = KIT / "docs" / "writing-assignments.md"
HELP_COLUMNS = "100"


def on_files(files, config):
    files.append(File.generated(config, "instructors/writing-assignments.md",
                                abs_src_path=str(GUIDE)))
    files.append(File.generated(config, "reference/commands.md", content=commands_page()))
    files.append(File.generated(config, "reference/settings.md", content=settings_page()))
    return files


# reference/commands.md

def kit_help(*command):
    """What `python -m autograder COMMAND --help` prints, at a fixed width."""
    env = dict(os.environ, COLUMNS=HELP_COLUMNS, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "autograder", *command, "--help"], cwd=ROOT,
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


def commands_page():
    top = kit_help()
    names = command_names(top)
    parts = ["# Commands", "",
             "Every command of `python -m autograder`, as its `--help` prints it (this page is "
             "made from the command line itself when the site is built). Run the kit in the "
             "course root or any folder below it.", "",
             "Commands: " + ", ".join(f"[{name}](#{name})" for name in names) + ".", "",
             "## python -m autograder", "", "```text", top, "```"]
    for name in names:
        parts += ["", f"## {name}", "", "```text", kit_help(name), "```"]
    return "\n".join(parts) + "\n"
