"""A course's assignments, found in its folder: the engine names none of them.

A course folder holds `assignments/`, one folder per assignment, named by its id:

    assignments/
      documents.py, zh.py ...     optional modules the course's assignments share
      08_positions/
        notebook.py               the authoring file: prose, public tests, cell markers
        reference.py              the reference code the solution and given cells name
        checks.py                 STEPS: each step's hidden checks (checks/model.py); optional
                                  SIMILARITY: when the similarity report flags a pair
        zh.py                     optional: CATALOG, the Chinese of the checks' texts
        figures.py, probes.py ... optional: diagrams, the mutation harness's inputs

The `assignments/` folder is imported as a package of its own per course (a name made from
its path), so an assignment's modules import each other and the shared ones relatively:
`from .reference import positions`, `from ..documents import EXAMPLE`. Every `zh.py` adds
its CATALOG to the course's language (`autograder.i18n`). A folder is read again when one
of its files changed, so a long session (a notebook, the tests) sees an instructor's edits.

Every problem of an assignment's code is an AssignmentError naming the file, the line and
the fix, never a traceback.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import itertools
import re
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from autograder.checks.model import Similar, Step
from autograder.i18n import add_catalog, t
from autograder.plumbing.errors import KitError

FOLDER = "assignments"
ID = re.compile(r"^\d\d_[a-z][a-z0-9_]*$")
NOTEBOOK, REFERENCE, CHECKS, CATALOG = "notebook.py", "reference.py", "checks.py", "zh.py"
GUIDE = "the guide: python -m autograder guide"


class AssignmentError(KitError, ValueError):
    """An assignment folder the kit cannot use; the message names the file, line and fix."""


def assignments_folder(root: Path) -> Path:
    return Path(root) / FOLDER


def assignment_ids(root: Path) -> list[str]:
    """The ids of the course's assignments: the folders of assignments/ with a notebook.py."""
    return ids_in(assignments_folder(root))


def ids_in(folder: Path) -> list[str]:
    """The ids of the assignments in an assignments/ folder."""
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if (p / NOTEBOOK).is_file())


def check_id(assignment_id):
    """An id the kit can use everywhere (folders, the LMS file names): 'NN_words'."""
    if not ID.match(assignment_id):
        raise AssignmentError(t(
            "{id!r} is not an assignment id the course can use: write two digits, an "
            "underscore and lower-case words joined by underscores, such as '10_positions' "
            "(the digits order the course)", id=assignment_id))
    return assignment_id


@dataclass(frozen=True)
class Assignment:
    """One assignment folder, loaded: its steps in the order STEPS lists them."""

    id: str
    folder: Path
    package: str  # the module name of the folder
    steps: dict[str, Step]

    @property
    def notebook(self) -> Path:
        return self.folder / NOTEBOOK

    def module(self, name) -> ModuleType | None:
        """The assignment's module `name` (reference, figures, probes ...), else the course's
        shared module of that name, else None."""
        for package, folder in ((self.package, self.folder),
                                (self.package.rpartition(".")[0], self.folder.parent)):
            if (folder / f"{name}.py").is_file():
                return imported(f"{package}.{name}", folder / f"{name}.py")
        return None

    @property
    def similar(self) -> Similar:
        """When the similarity report flags a pair of its notebooks: checks.py's SIMILARITY,
        else the kit's default."""
        declared = getattr(self.module("checks"), "SIMILARITY", Similar())
        if not isinstance(declared, Similar):
            raise AssignmentError(t("{path}: SIMILARITY must be Similar(share=..., "
                                    "characters=...) from autograder.checks.model, not {kind} "
                                    "({guide})", path=self.folder / CHECKS,
                                    kind=type(declared).__name__, guide=t(GUIDE)))
        return declared

    def reference(self, name, named_at=""):
        """The object `name` of reference.py (a solution or given cell names it, at
        `named_at`: notebook.py's path and line)."""
        module = self.module("reference")
        where = self.folder / REFERENCE
        if module is None or not (self.folder / REFERENCE).is_file():
            raise AssignmentError(t("{path} is missing: write the reference code of the "
                                    "assignment's solution and given cells there ({guide})",
                                    path=where, guide=t(GUIDE)))
        if not hasattr(module, name):
            raise AssignmentError(t("{path} has no {name!r}: define it there (or import it), "
                                    "as {cell} names it", path=where, name=name,
                                    cell=named_at or t("a cell of the notebook")))
        return getattr(module, name)


def fingerprint(folder: Path):
    """What changes when an instructor edits a file of the folder (its .py files)."""
    return tuple(sorted((p.name, p.stat().st_mtime_ns, p.stat().st_size)
                        for p in folder.glob("*.py")))


_packages: dict[Path, tuple[tuple, str]] = {}  # assignments/ -> (fingerprint, package name)
_generations = itertools.count()
_loaded: dict[tuple[Path, str], tuple[tuple, Assignment]] = {}


def course_package(root: Path) -> str:
    """The module name of the course's assignments/ folder, imported anew when a shared
    module changed; its zh.py, if any, joins the course's language."""
    folder = assignments_folder(root).resolve()
    if not folder.is_dir():
        raise AssignmentError(t("{folder} is missing: a course keeps its assignments there "
                                "(python -m autograder new ID writes one)", folder=folder))
    stamp = fingerprint(folder)
    known = _packages.get(folder)
    if known and known[0] == stamp:
        return known[1]
    digest = hashlib.sha1(str(folder).encode()).hexdigest()[:10]
    name = f"kit_course_{digest}_{next(_generations)}"
    spec = importlib.util.spec_from_loader(name, loader=None, is_package=True)
    package = importlib.util.module_from_spec(spec)
    package.__path__ = [str(folder)]
    package.__file__ = str(folder / "__init__.py")
    sys.modules[name] = package
    if (folder / "__init__.py").is_file():
        run_module(package, folder / "__init__.py")
    _packages[folder] = (stamp, name)
    register_catalog(name, folder)
    return name


def load_assignment(root: Path, assignment_id) -> Assignment:
    """The assignment `assignment_id` of the course at `root`, read from its folder."""
    # in the course's assignments/ even when the folder is a link to one elsewhere
    folder = assignments_folder(root).resolve() / assignment_id
    if not (folder / NOTEBOOK).is_file():
        known = ", ".join(assignment_ids(root)) or t("none yet")
        raise AssignmentError(t("{path} is missing: the course has no assignment {id!r} (its "
                                "assignments: {known}); python -m autograder new {id} writes "
                                "one", path=folder / NOTEBOOK, id=assignment_id, known=known))
    parent = course_package(root)
    register_course_catalogs(folder.parent)
    stamp = (fingerprint(folder), _packages[folder.parent][0])
    cached = _loaded.get((folder, assignment_id))
    if cached and cached[0] == stamp:
        return cached[1]
    package = f"{parent}.{assignment_id}"
    for stale in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        del sys.modules[stale]
    assignment = Assignment(assignment_id, folder, package,
                            read_steps(package, folder / CHECKS))  # its zh.py: with the course's
    _loaded[(folder, assignment_id)] = (stamp, assignment)
    return assignment


def read_steps(package, path: Path) -> dict[str, Step]:
    if not path.is_file():
        raise AssignmentError(t("{path} is missing: declare the assignment's hidden checks "
                                "there, STEPS = (Step(...), ...) ({guide})", path=path,
                                guide=t(GUIDE)))
    module = imported(f"{package}.checks", path)
    steps = getattr(module, "STEPS", None)
    if not isinstance(steps, list | tuple) or not all(isinstance(s, Step) for s in steps):
        raise AssignmentError(t("{path}: STEPS must be a tuple of Step(...), one per function "
                                "students write ({guide})", path=path, guide=t(GUIDE)))
    names = [step.name for step in steps]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise AssignmentError(t("{path}: two steps are named {name!r}; give each its own name",
                                path=path, name=twice[0]))
    for step in steps:
        if isinstance(step.uses, str) or not all(isinstance(u, str) for u in step.uses):
            raise AssignmentError(t("{path}: step {name!r}: uses={uses!r} must be a tuple of "
                                    "step names, such as uses=('scaled_softmax',) (the comma "
                                    "makes it a tuple)", path=path, name=step.name,
                                    uses=step.uses))
        unknown = [u for u in step.uses if u not in names]
        if unknown:
            raise AssignmentError(t("{path}: step {name!r} uses {used!r}, which is not a step "
                                    "of this assignment; `uses` names earlier steps of STEPS",
                                    path=path, name=step.name, used=unknown[0]))
    return {step.name: step for step in steps}


def imported(name, path: Path) -> ModuleType:
    """The module `name` of file `path`, imported once; an error in it names the file."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        run_module(module, path)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def run_module(module, path: Path):
    try:
        source = path.read_text(encoding="utf-8")
        code = compile(source, str(path), "exec")
        exec(code, module.__dict__)  # noqa: S102 - the course's own code, as an import runs it
    except AssignmentError:
        raise
    except SyntaxError as error:  # its own file: a module this one imports may be the one
        where = Path(error.filename) if error.filename else path
        raise AssignmentError(t("{path}:{line}: {problem}; fix the code", path=where,
                                line=error.lineno, problem=error.msg)) from None
    except ImportError as error:  # named where it fails: reference.py, which checks.py imports
        where, _ = course_line(error, path)
        if where != path and where.is_file():
            path, source = where, where.read_text(encoding="utf-8")
        raise AssignmentError(import_problem(error, path, source)) from None
    except Exception as error:  # noqa: BLE001 - any error of the course's code names its file
        where, line = course_line(error, path)
        raise AssignmentError(t("{path}:{line}: {kind}: {problem}; fix the code (the error "
                                "happens while the module is imported)", path=where, line=line,
                                kind=type(error).__name__, problem=readable(error))) from None


INTERNAL = re.compile(r"kit_course_[0-9a-f]{10}_\d+(?:\.\w+)*")


def module_file(name) -> Path | None:
    """The file of the course's module `name` (the kit's internal name of assignments/'s
    package, `kit_course_<digest>_<n>.10_rope.documents`), whether or not it exists."""
    for folder, (_, package) in _packages.items():
        if name == package or name.startswith(package + "."):
            parts = name[len(package):].lstrip(".").split(".")
            if not parts[0] or folder.joinpath(*parts).is_dir():
                return folder.joinpath(*parts)  # the package of assignments/ or of a folder
            return folder.joinpath(*parts[:-1], parts[-1] + ".py")
    return None


def readable(error) -> str:
    """An error's text with the kit's internal module names written as the files they are."""
    return INTERNAL.sub(lambda m: str(module_file(m.group()) or m.group()), str(error))


def import_statement(source, line):
    """The import statement at `line` as the instructor wrote it (one line of it)."""
    try:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import | ast.ImportFrom) and \
                    node.lineno <= line <= (node.end_lineno or node.lineno):
                return " ".join(ast.get_source_segment(source, node).split())
    except SyntaxError:
        pass
    lines = source.splitlines()
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def import_problem(error, path: Path, source):
    """One line for an import of the course's code that fails: the file, the line, the
    statement as written, what it did not find and the fix (never the kit's module names)."""
    line = last_line_in(error, path)
    where = t("{path}:{line}: `{statement}` fails", path=path, line=line,
              statement=import_statement(source, line))
    missing = module_file(error.name) if error.name else None
    if isinstance(error, ModuleNotFoundError) and missing is not None:
        return t("{where}: there is no {missing}; `from .NAME import ...` imports the "
                 "assignment's own NAME.py, `from ..NAME import ...` the course's "
                 "assignments/NAME.py, shared by every assignment", where=where, missing=missing)
    if isinstance(error, ModuleNotFoundError):
        return t("{where}: no module named {name!r} is installed in the kit's Python; install "
                 "it there or import another", where=where, name=error.name)
    name = re.search(r"cannot import name '([^']+)'", str(error))
    if name and missing is not None and missing.is_dir():
        return t("{where}: there is no {missing}; write it, or import from a module of that "
                 "folder", where=where, missing=missing / (name.group(1) + ".py"))
    if name and (missing or error.path):
        return t("{where}: {module} has no {name!r}; define it there, or import a name it has",
                 where=where, module=missing or error.path, name=name.group(1))
    return t("{where}: {problem}; fix the import", where=where, problem=readable(error))


def course_line(error, path: Path):
    """(file, line) where the error was raised in the course's own code: the innermost frame
    in its assignments/ folder (reference.py, which checks.py imports, rather than the import
    line of checks.py), else `path`'s last line in the traceback."""
    folder = next((p for p in path.parents if p.name == "assignments"), path.parent)
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if Path(f.filename).is_relative_to(folder)]
    if frames:
        return Path(frames[-1].filename), frames[-1].lineno
    return path, last_line_in(error, path)


def last_line_in(error, path: Path):
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if Path(f.filename) == path]
    return frames[-1].lineno if frames else 1


def register_catalog(package, folder: Path):
    """The folder's zh.py CATALOG joins the Chinese texts of the course."""
    path = folder / CATALOG
    if path.is_file():
        add_catalog_of(path, getattr(imported(f"{package}.zh", path), "CATALOG", None))


_catalogs: dict[Path, int] = {}  # an assignment's zh.py -> the time it was changed when read


def register_course_catalogs(folder: Path):
    """Every assignment's zh.py in the course's assignments/ `folder` joins the Chinese
    texts, whichever assignment is loaded: otherwise a text one assignment's zh.py translates
    was translated in another assignment's notebook and feedback only where the same process
    had loaded the first (a whole-course build and a build of one gave two releases)."""
    for path in sorted(folder.glob(f"*/{CATALOG}")):
        if not ID.match(path.parent.name) or _catalogs.get(path) == path.stat().st_mtime_ns:
            continue
        namespace = {"__name__": f"{path.parent.name}_zh", "__file__": str(path)}
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)  # noqa: S102
        add_catalog_of(path, namespace.get("CATALOG"))


def add_catalog_of(path: Path, table):
    """A zh.py's CATALOG (`table`) among the course's texts, once checked to be one."""
    if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                              for k, v in table.items()):
        raise AssignmentError(t("{path}: CATALOG must be a dict of English texts to their "
                                "Chinese texts", path=path))
    add_catalog("zh", table, str(path))
    _catalogs[path] = path.stat().st_mtime_ns


def find_step(root: Path, name, hint=None):
    """(assignment, step) of the course's step `name`; `hint`, an assignment id, decides when
    several assignments have a step of that name. None when the course has no such step."""
    found = []
    for assignment_id in assignment_ids(root):
        assignment = load_assignment(root, assignment_id)
        if name in assignment.steps:
            found.append(assignment)
    if not found:
        return None
    chosen = next((a for a in found if a.id == hint), found[0])
    return chosen, chosen.steps[name]

