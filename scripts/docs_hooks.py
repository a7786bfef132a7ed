"""MkDocs hooks: pages made at build time from what the kit itself holds, so that each fact
keeps one home.

- instructors/writing-assignments.md is the authoring guide, autograder/docs/writing-
  assignments.md, read where it lives (it ships in the wheel and `guide` prints it);
- reference/commands.md is `python -m autograder --help` and every command's `--help`
  (autograder/tools/commands_page.py, which `guide commands` prints too), run from the
  repository's root, its English course;
- reference/settings.md is every setting the kit adds to nbgrader's configuration
  (autograder/tools/settings_page.py, which `guide settings` prints too)."""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File

from autograder.tools.commands_page import commands_page
from autograder.tools.settings_page import settings_page

ROOT = Path(__file__).resolve().parents[1]
KIT = ROOT / "autograder"
GUIDE = KIT / "docs" / "writing-assignments.md"


def on_files(files, config):
    files.append(File.generated(config, "instructors/writing-assignments.md",
                                abs_src_path=str(GUIDE)))
    files.append(File.generated(config, "reference/commands.md",
                                content=commands_page(cwd=ROOT)))
    files.append(File.generated(config, "reference/settings.md", content=settings_page()))
    return files
