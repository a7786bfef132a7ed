"""The kit's code that runs where the kit is not installed, as the build copies it out: the
notebook's helper cell (build/public_checks.py, checks/raised.py, checks/code_rules.py,
autograder/checks/op_record.py, autograder/checks/recorder.py, checks/probes.py,
checks/operation_rules.py and build/failed_cell.py) and the students' self-check script
(build/check_notebook.py), in the course's language and in it alone.

Each of those files that has texts imports `_t` from autograder/i18n/standalone.py (the
recorder has none), and the helper cell's files import each other, so that the kit runs
them as they are. Copied out, they become one
namespace: the first file gets the translation code in place of its `_t` import, every other
import of a copied file goes, each `_t("...")` text is replaced by its translation (so the
catalog stays behind), and only the first file's docstring stays, put in the course's
language from zh_build.py's catalog; the other docstrings and every comment go, so the cell
is code a student can read in the course's language.
"""

from __future__ import annotations

import ast
import base64
import io
import re
import tokenize
import zlib
from pathlib import Path

import autograder.checks.op_record
import autograder.checks.recorder
from autograder.build import check_notebook, failed_cell, public_checks
from autograder.build.authoring import AuthoringError
from autograder.checks import code_rules, operation_rules, probes, raised
from autograder.checks.code_rules import ALLOWED_MODULES, bound_names, import_bound, root_name
from autograder.checks.compare import TOLERANCE
from autograder.course.time_limits import CELL_SECONDS
from autograder.i18n import DEFAULT, language, t
from autograder.i18n import standalone as texts

SELF_CHECK = Path(check_notebook.__file__)
HELPER_CELL = [Path(module.__file__) for module in (public_checks, raised, code_rules,
                                                    autograder.checks.op_record,
                                                    autograder.checks.recorder,
                                                    probes, operation_rules, failed_cell)]
PACKAGE = Path(texts.__file__).parents[1]
IMPORT_LINE = "from autograder.i18n.standalone import _t\n"
HELPERS_FILE = "course_helpers.py"  # beside the notebook: the helper cell's code, readable
FILLED_LINES = re.compile(r"^(?:STEP_USES|COURSE_CELLS|COURSE_HELPERS|MISTAKE_HINTS) = .*\n",
                          re.MULTILINE)  # by the build
# The packed code, unpacked and run. A kernel of the kit's grader finds it unpacked and
# compiled already, by its template (sandbox/cell_cache.py, keep_helpers, which reads the
# PACKED, NAME line): the helper cell runs twice a graded notebook, and compiling its code
# cost about 18 ms each time. Anywhere else, the cell unpacks and compiles it itself.
UNPACK = (
    "import base64, linecache, sys, zlib\n"
    'PACKED, NAME = "{packed}", "{name}"\n'
    "# {comment}\n"
    'KEPT = getattr(sys.modules.get("cell_cache"), "kept_helpers", {{}}).get((PACKED, NAME))\n'
    'HELPERS = KEPT[0] if KEPT else zlib.decompress(base64.b85decode(PACKED)).decode("utf-8")\n'
    "linecache.cache[NAME] = (len(HELPERS), None, HELPERS.splitlines(True), NAME)\n"
    'exec(KEPT[1] if KEPT else compile(HELPERS, NAME, "exec"))')
UNPACK_COMMENT = ("The grader's kernels find this code unpacked and compiled once, by their "
                  "template.")  # in the course's language
LANGUAGE_LINE = 'LANGUAGE = "en"  # the build writes the course\'s language here'


def translation_code(language_code) -> str:
    """autograder/i18n/standalone.py's code, set to the language, without its docstrings and
    with its catalog left behind (the copied texts are translated already)."""
    text = Path(texts.__file__).read_text(encoding="utf-8")
    if LANGUAGE_LINE not in text:
        raise AuthoringError(f"i18n/standalone.py lacks the line {LANGUAGE_LINE!r} that the "
                             "build sets to the course's language")
    text = text.replace(LANGUAGE_LINE, f'LANGUAGE = "{language_code}"')
    tree = ast.parse(text)
    left_behind = {"ZH": "{}"} if language_code != DEFAULT else {
        "ZH": "{}", "ZH_OS_ERRORS": "{}", "ZH_OS_ERROR": '""', "ZH_OS_ERROR_FILES": '""'}
    tables = [(node.value, left_behind[node.targets[0].id]) for node in tree.body
              if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") in left_behind]
    return edited(text, [*docstring_edits(text, tree),
                         *((span(text, table), empty) for table, empty in tables)]).strip()


def filled(code, name, literal):
    """`code` with the line `name = ...` that the build fills in set to `literal`."""
    line = re.compile(rf"^{name} = .*$", re.MULTILINE)
    if len(line.findall(code)) != 1:
        raise AuthoringError(f"the helper cell must assign {name} once, on a line of its own, "
                             "for the build to fill in")
    return line.sub(lambda _: f"{name} = {literal}", code)


def span(text, node):
    """(start, end) character offsets of an ast node in `text` (ast counts UTF-8 bytes)."""
    lines = text.splitlines(keepends=True)

    def offset(line, column):
        return sum(map(len, lines[:line - 1])) + len(
            lines[line - 1].encode("utf-8")[:column].decode("utf-8"))

    return offset(node.lineno, node.col_offset), offset(node.end_lineno, node.end_col_offset)


def edited(text, edits):
    """`text` with each ((start, end), replacement) applied."""
    for (start, end), replacement in sorted(edits, key=lambda edit: edit[0], reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)


def docstring_node(node):
    if not isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return None
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return body[0]
    return None


def translated_literal(node, language_code, path):
    """The translation of a `_t` text, as a Python literal."""
    text = texts._t(node.value, language_code)
    if language_code != DEFAULT and text == node.value:
        raise AuthoringError(f"{path.name}:{node.lineno}: {node.value!r} has no "
                             f"{language_code} text: add it to autograder/i18n/standalone.py")
    return repr(text)


def text_literals(call):
    """The string constants a `_t` call may take as its text (a literal, or either branch of
    `a if ... else b`)."""
    first = call.args[0] if call.args else None
    candidates = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
    return [c for c in candidates if isinstance(c, ast.Constant) and isinstance(c.value, str)]


def docstring_edits(text, tree, keep_module=False):
    """The edits that take out the docstrings (but the module's, when kept); a body that was
    only a docstring gets `pass`."""
    edits = []
    for node in ast.walk(tree):
        docstring = docstring_node(node)
        if docstring is None or (node is tree and keep_module):
            continue
        if len(node.body) == 1:
            edits.append((span(text, docstring), "pass"))
        else:
            edits.append((whole_lines(text, span(text, docstring)), ""))
    return edits


def whole_lines(text, where):
    """A span widened to the lines it stands on (its indentation and its line break)."""
    start, end = where
    start = text.rfind("\n", 0, start) + 1
    end = text.find("\n", end)
    return start, len(text) if end < 0 else end + 1


def code_edits(text, path, copied, language_code, first):
    """The edits that make one copied file part of the standalone code: the translation code
    in place of the first file's `_t` import, the other imports of copied files out, every
    `_t` text translated, the docstrings out (the first file's own kept)."""
    tree = ast.parse(text)
    edits = docstring_edits(text, tree, keep_module=first)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("autograder"):
            if node.module == texts.__name__:
                edits.append((span(text, node), translation_code(language_code) if first
                              else ""))
            elif node.module in copied:
                edits.append((span(text, node), ""))
            else:
                raise AuthoringError(f"{path.name}:{node.lineno} imports {node.module}, which "
                                     "is not copied out with it; the copied code may import "
                                     "only the other copied files and the Python libraries")
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "_t":
            edits += [(span(text, literal), translated_literal(literal, language_code, path))
                      for literal in text_literals(node)]
    return edits


def without_comments(text):
    """`text` without its comments; a line that held only a comment goes."""
    lines = text.splitlines()
    for token in reversed(list(tokenize.generate_tokens(io.StringIO(text).readline))):
        if token.type == tokenize.COMMENT:
            row, column = token.start
            lines[row - 1] = lines[row - 1][:column].rstrip()
            if not lines[row - 1].strip():
                lines[row - 1] = None
    return "\n".join(line for line in lines if line is not None)


def with_docstring_in(text, language_code, name):
    """The module docstring of `text` in the course's language."""
    docstring = ast.get_docstring(ast.parse(text), clean=False)
    if not docstring or language_code == DEFAULT:
        return text
    with language(language_code):
        translated = t(docstring)
    if translated == docstring:
        raise AuthoringError(f"{name}'s docstring has no {language_code} text in "
                             "autograder/i18n/: add it to zh_build.py")
    return text.replace(docstring, translated, 1)


def copied_out(files, language_code=DEFAULT) -> str:
    """The source of `files` (of the kit, each importing `_t`) as one standalone text in the
    course's language."""
    copied = {module_name(path) for path in files}
    one_namespace(files)
    parts = []
    for index, path in enumerate(files):
        text = path.read_text(encoding="utf-8").strip() + "\n"
        if text.count(IMPORT_LINE) != ("_t(" in text or index == 0):
            raise AuthoringError(f"{path.name} must import the texts once, with the line "
                                 f"{IMPORT_LINE.strip()!r} (a file with no text to "
                                 "translate, not at all)")
        text = edited(text, code_edits(text, path, copied, language_code, index == 0))
        text = without_comments(text)
        if index == 0:
            text = with_docstring_in(text, language_code, path.name)
        parts.append(re.sub(r"\n{3,}", "\n\n", text).strip())
    return "\n\n\n".join(parts)


def one_namespace(files):
    """Raise AuthoringError when two of the files define the same top-level name: copied out
    they share one namespace, where the later definition would replace the earlier."""
    defined = {}
    for path in files:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            names = [node.name] if isinstance(node, ast.FunctionDef | ast.ClassDef) else \
                [t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)]
            for name in names:
                if defined.setdefault(name, path) != path:
                    raise AuthoringError(f"{path.name} and {defined[name].name} both define "
                                         f"{name}, which the helper cell would define once: "
                                         "rename one")


def helper_cell_code(language_code=DEFAULT) -> str:
    """The notebook's helper cell: the public tests' helpers, the rules' decisions and the
    explanations of a failed test cell, copied whole (nothing of the kit is installed where
    students run them); their tolerance is the hidden checks' one."""
    if public_checks.TOLERANCE != TOLERANCE:
        raise AuthoringError("build/public_checks.py's TOLERANCE differs from "
                             "autograder.checks.compare.TOLERANCE: make them equal")
    return copied_out(HELPER_CELL, language_code)


def packed_helper_cell(code, language_code=DEFAULT) -> str:
    """The helper cell as a notebook carries it (`code` is helper_cell_code's): its docstring,
    the lines the build fills in, then the rest of the code packed on one line that runs it.

    Its one comment is in the course's language (`language_code`). A static render
    (nbviewer, GitHub, an exported page) then shows a dozen lines where the
    code has some 900, and the notebook still runs alone: nothing beside it is needed. The
    packed code is compiled as course_helpers.py and put in linecache under that name, so a
    traceback through a helper shows its lines; the build writes the same text, readable, to
    course_helpers.py beside the notebook (unpacked_helpers). The filled lines stay in the
    cell itself: a cell's key (checks/code_rules.py, course_key) leaves out the COURSE_CELLS
    line, which a packed line could not, and they are assigned before the code that reads
    them."""
    filled_lines = FILLED_LINES.findall(code)
    if len(filled_lines) != 4:
        raise AuthoringError("the helper cell must assign STEP_USES, COURSE_CELLS, "
                             "COURSE_HELPERS and MISTAKE_HINTS once each, on lines of their "
                             "own, for the build to fill in")
    readable = FILLED_LINES.sub("", code)
    docstring = ast.get_docstring(ast.parse(readable), clean=False)
    packed = base64.b85encode(zlib.compress(readable.encode("utf-8"), 9)).decode("ascii")
    with language(language_code):
        comment = t(UNPACK_COMMENT)
    return (f'"""{docstring}"""\n' + "".join(filled_lines)
            + UNPACK.format(packed=packed, name=HELPERS_FILE, comment=comment))


def helper_definitions(cell_source) -> set:
    """The names the helper cell (as a notebook carries it) binds to code or data of its own:
    its functions, classes and tables, the packed code, the lines the build fills in, and the
    modules it imports that graded code may not (inspect, types). Not its imports of the
    course's libraries, nor its aliases of what they hold (`Tensor = torch.Tensor`): a
    student's code may read those as the library's."""
    names, aliases = set(), set()
    for node in [*ast.parse(cell_source).body, *ast.parse(unpacked_helpers(cell_source)).body]:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:  # a module graded code may not import is the helper's
                module = alias.name if isinstance(node, ast.Import) else node.module or ""
                (aliases if module.split(".")[0] in ALLOWED_MODULES else names).add(
                    import_bound(alias))
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name) and root_name(node.value) in aliases:
            aliases.add(node.targets[0].id)
        else:
            names.update(bound_names(node))
    return names - aliases


def unpacked_helpers(cell_source) -> str:
    """The code a packed helper cell runs (what course_helpers.py beside the notebook holds)."""
    for node in ast.parse(cell_source).body:
        names = [getattr(target, "id", "") for target in getattr(node.targets[0], "elts", ())] \
            if isinstance(node, ast.Assign) else []
        if names[:1] == ["PACKED"] and isinstance(node.value, ast.Tuple):
            return zlib.decompress(base64.b85decode(node.value.elts[0].value)).decode("utf-8")
    raise AuthoringError("the helper cell holds no packed code (PACKED = ...): rebuild it")


def self_check_script(language_code=DEFAULT, cell_limit=CELL_SECONDS) -> str:
    """check_notebook.py as it sits beside a released notebook: in the course's language,
    telling the seconds grading gives one cell (`cell_limit`, the course's)."""
    return filled(copied_out([SELF_CHECK], language_code), "CELL_LIMIT", f"{cell_limit:g}")
