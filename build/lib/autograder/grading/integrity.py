"""What in a submission an instructor should look at: code that reaches into the grader's
machinery. A flag does not change a score (the sandbox and the outside verdicts already make
such code useless); it tells the instructor where to look, for the class report, in the
course's language (the reasons below are translated where a flag is made)."""

from __future__ import annotations

import ast
import functools

from autograder.checks.code_rules import without_magics
from autograder.i18n import t

SUSPICIOUS_CALLS = {
    "exec": "exec of a string",
    "eval": "eval of a string",
    "compile": "compile of a string",
    "get_ipython": "get_ipython (IPython hooks)",
    "__import__": "__import__",
    "_exit": "os._exit",
    "getattr": "getattr with a computed name",
}
SUSPICIOUS_NAMES = {
    "__torch_function__": "__torch_function__ (tensor subclass that intercepts torch)",
    "TorchFunctionMode": "TorchFunctionMode (intercepts every torch call)",
    "subprocess": "subprocess",
    "signal": "signal handlers",
    "ctypes": "ctypes",
    "modules": "sys.modules",
    "__builtins__": "__builtins__",
    "builtins": "builtins",
    "input_transformers_post": "IPython input transformers",
    "input_transformers_cleanup": "IPython input transformers",
    "socket": "socket",
    "fork": "os.fork",
    "setsid": "os.setsid",
}

NAMES_OUTSIDE = "names the path {path}, outside the notebook's folder"


def outside_paths(tree):
    """The string literals of the code that are paths leaving the notebook's folder (from
    the root, from a home, or up through ..), wherever they stand: passed to open(), kept in
    a list a loop walks, joined to another. A path computed from parts no literal shows is
    not seen here; the sandbox refuses the read."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            path = node.value
            if len(path) > 1 and not any(c.isspace() for c in path) and (
                    path.startswith(("/", "~")) or ".." in path.split("/")):
                yield path


def suspicious(source):
    """Sorted reasons this cell's code is suspicious (empty when it is not), in the course's
    language."""
    return sorted(t(reason, **params) for reason, params in reasons_of(source))


@functools.lru_cache(maxsize=256)  # the course's cells are the same text in every notebook
def reasons_of(source):
    """(reason in English, its parameters) of each thing that makes this cell's code
    suspicious."""
    try:
        tree = ast.parse(without_magics(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    reasons = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name == "getattr" and len(node.args) >= 2 and isinstance(
                    node.args[1], ast.Constant):
                continue  # getattr(x, "literal") is just an attribute
            if name in SUSPICIOUS_CALLS:
                reasons.add((SUSPICIOUS_CALLS[name], ()))
        names = [node.id] if isinstance(node, ast.Name) else [node.attr] if isinstance(
            node, ast.Attribute) else [a.name.split(".")[0] for a in node.names] if isinstance(
            node, ast.Import | ast.ImportFrom) else []
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module.split(".")[0])
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.append(node.name)
        reasons.update((SUSPICIOUS_NAMES[n], ()) for n in names if n in SUSPICIOUS_NAMES)
    reasons.update((NAMES_OUTSIDE, (("path", path),)) for path in outside_paths(tree))
    return tuple((reason, dict(params)) for reason, params in sorted(reasons))


MAX_READ = 256 << 10  # a cell larger than this is not parsed (nor run: see session.Bounds)


def is_student_code(cell):
    meta = cell.metadata.get("nbgrader", {})
    if not isinstance(meta, dict):
        return cell.cell_type == "code"
    return cell.cell_type == "code" and not meta.get("locked") and not meta.get("grade")


def scan(notebook):
    """[{"cell": where, "kind": "suspicious code", "reason": ...}] over the student's cells."""
    flags = []
    for index, cell in enumerate(notebook.cells):
        if not is_student_code(cell):
            continue
        meta = cell.metadata.get("nbgrader")
        where = (meta.get("grade_id") if isinstance(meta, dict) else None) or \
            t("cell {number}", number=index + 1)  # in the course's language, as the reason
        if len(cell.source) > MAX_READ:
            flags.append({"cell": where, "kind": "suspicious code",
                          "reason": t("a cell of {size} KB (not read)",
                                      size=len(cell.source) >> 10)})
            continue
        flags.extend({"cell": where, "kind": "suspicious code", "reason": reason}
                     for reason in suspicious(cell.source))
    return flags
