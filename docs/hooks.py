"""MkDocs hooks: pages made at build time from what the kit itself holds, so that each fact
keeps one home.

- instructors/writing-assignments.md is the authoring guide, autograder/docs/writing-
  assignments.md, read where it lives (it ships in the wheel and `guide` prints it);
- reference/commands.md is `python -m autograder --help` and every command's `--help`, run
  from the repository's root (the command line imports only light modules for --help);
- reference/settings.md is every setting the kit adds to nbgrader's configuration: each trait
  tagged config=True in autograder/, its type, default and help, read from the source with
  `ast` (importing the kit would import torch and nbgrader)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

from mkdocs.structure.files import File

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


# reference/settings.md

class Unreadable(Exception):
    """A default or help the page cannot read from the source alone."""


def module_scope(path):
    """{name: node} of a module's top-level assignments and `from autograder... import`s."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    scope = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            scope[node.targets[0].id] = (node.value, path)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("autograder"):
            source = ROOT.joinpath(*node.module.split("."))
            source = source / "__init__.py" if source.is_dir() else source.with_suffix(".py")
            for alias in node.names:
                scope[alias.asname or alias.name] = ("import", source, alias.name)
    return tree, scope


def value(node, scope):
    """The value of a literal expression: constants, strings joined, f-strings, str.format,
    names bound to such at a module's top level (also through an import)."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(value(part, scope)) for part in node.values)
    if isinstance(node, ast.FormattedValue):
        spec = value(node.format_spec, scope) if node.format_spec else ""
        return format(value(node.value, scope), spec)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return value(node.left, scope) + value(node.right, scope)
    if isinstance(node, ast.Name) and node.id in scope:
        bound = scope[node.id]
        if bound[0] == "import":
            _, other = module_scope(bound[1])
            return value(ast.Name(id=bound[2]), other)
        return value(bound[0], scope)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "format" and not node.args:
        return value(node.func.value, scope).format(
            **{k.arg: value(k.value, scope) for k in node.keywords})
    if isinstance(node, (ast.List, ast.Tuple, ast.Dict, ast.Set)):
        try:
            return ast.literal_eval(node)
        except ValueError as error:
            raise Unreadable(ast.unparse(node)) from error
    raise Unreadable(ast.unparse(node))


def config_traits(path):
    """(class, trait, type, default, help) of each trait tagged config=True in a module."""
    tree, scope = module_scope(path)
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for node in cls.body:
            call = node.value if isinstance(node, ast.Assign) else None
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "tag"
                    and any(k.arg == "config" for k in call.keywords)):
                continue
            trait = call.func.value
            kind = ast.unparse(trait.func)
            keywords = {k.arg: k.value for k in trait.keywords}
            args = list(trait.args)
            if args and isinstance(args[0], ast.Call):  # List(Unicode()): the items' trait
                kind = f"{kind}({ast.unparse(args.pop(0))})"
            default = value(args[0], scope) if args else None
            help_text = " ".join(str(value(keywords["help"], scope)).split())
            yield cls.name, node.targets[0].id, kind, default, help_text


def settings_rows():
    for path in sorted(KIT.rglob("*.py")):
        if "i18n" in path.parts:
            continue
        for cls, name, kind, default, help_text in config_traits(path):
            shown = "" if default is None else f"`{default!r}`"
            where = path.relative_to(ROOT).as_posix()
            yield f"| `c.{cls}.{name}` | {kind} | {shown} | {escape_cell(help_text)} | `{where}` |"


def escape_cell(text):
    return text.replace("|", "\\|")


def settings_page():
    rows = list(settings_rows())
    return "\n".join([
        "# Settings", "",
        "Every setting the kit adds to nbgrader's configuration: the traits of its classes "
        "that `nbgrader_config.py` sets (`c.Class.name = value`), with their type, default "
        "and help as the kit's source states them (this page is read from the source when the "
        "site is built). The course's own `nbgrader_config.py`, at the top of the course, "
        "sets the values a course changes and says why beside each.", "",
        f"{len(rows)} settings:", "",
        "| setting | type | default | what it does | defined in |",
        "| --- | --- | --- | --- | --- |",
        *rows, ""])
