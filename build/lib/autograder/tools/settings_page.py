"""The settings page: every setting the kit adds to nbgrader's configuration, each trait tagged
config=True in autograder/, its type, default and help, read from the kit's source with `ast`
(importing the kit would import torch and nbgrader). The documentation site shows it as
reference/settings.md; `python -m autograder guide settings` prints it from an installed kit."""

from __future__ import annotations

import ast
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]  # autograder/, in a checkout or a wheel
ROOT = KIT.parent  # where `autograder.x.y` is the file autograder/x/y.py


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
        "and help as the kit's source states them (this page is read from that source: "
        "`python -m autograder guide settings` prints it). The course's own "
        "`nbgrader_config.py`, at the top of the course, sets the values a course changes and "
        "says why beside each.", "",
        f"{len(rows)} settings:", "",
        "| setting | type | default | what it does | defined in |",
        "| --- | --- | --- | --- | --- |",
        *rows, ""])
