"""One check before every speedup that patches, replaces or leans on another library's private
code: is that code what the speedup was written for?

Each speedup below names the private functions it touches ("module:Qualified.name") and the
digests of their source that were read against it (the lock's versions; Debian's Python).
Where the installed library's source differs (another ipykernel, IPython, SQLAlchemy ...), or
a name is gone, the speedup steps aside: its module leaves the library as it is, and grading
is the library's own, only slower. `grade` says each one that stepped aside in grade.log
(`stepped_aside`).

The sources are read from the libraries' files, not imported: the grader checks them before
it starts anything, and the kernel template (zygote.py, which imports this file from its own
folder) checks the same files before it imports what it patches, so both decide alike.

When a lock's update changes a digest, read the new source against the speedup, then add the
digest that `python -m autograder.tools.speedups` prints (tests/autograder/sandbox/
test_private_api.py fails until the table below is current).
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections import namedtuple
from functools import cache


class Speedup(namedtuple("Speedup", ("module", "distribution", "targets", "digests", "aside"),
                         defaults=("grading is the library's own, only slower",))):
    """module: the kit's module that patches (where to read what it does); distribution: the
    library it patches, for its version in the log line; targets: "module:Qualified.name" of
    each function it touches, a module alone for a module's whole file; digests: of the
    targets' source, each read against the speedup; aside: what follows when it differs.
    (A named tuple, not a dataclass: dataclasses imports inspect, some 8 ms of the start of
    every process, which imports this module.)"""

    __slots__ = ()


SPEEDUPS = {
    "output streams": Speedup(
        "autograder/sandbox/output_streams.py", "ipykernel",
        ("ipykernel.iostream:OutStream.flush", "ipykernel.iostream:OutStream._flush",
         "ipykernel.iostream:OutStream._watch_pipe_fd",
         "ipykernel.kernelbase:Kernel.execute_request"),
        ("d1da1827768c9aeb",)),
    "cell cache": Speedup(
        "autograder/sandbox/cell_cache.py", "ipython",
        ("IPython.core.inputtransformer2:TransformerManager.transform_cell",
         "IPython.core.compilerop:CachingCompiler.ast_parse",
         "codeop:Compile.__call__",  # CachingCompiler's own, inherited
         "IPython.core.async_helpers:_should_be_async",
         "IPython.core.interactiveshell:InteractiveShell.should_run_async",
         "ipykernel.compiler:murmur2_x86", "ipykernel.compiler:get_file_name"),
        # Python 3.11.7's codeop (a keyword argument more) and 3.11.2's, Debian 12's
        ("62306dc6392eabfb", "fc67735a34ba9979")),
    "tracebacks": Speedup(
        "autograder/sandbox/tracebacks.py", "stack_data",
        ("inspect:getmodule", "stack_data.core:style_with_executing_node",
         "pygments.formatters.terminal256:Terminal256Formatter.__init__"),
        ("75eba26b998d8531",)),
    "kernel logging": Speedup(
        "autograder/sandbox/zygote.py (KernelApp)", "traitlets",
        ("traitlets.config.application:Application._configure_logging",),
        ("49ea4dd17f0bc3f5",)),
    "kernel module list": Speedup(
        "autograder/sandbox/zygote.py (GradingKernel)", "ipykernel",
        ("ipykernel.ipkernel:IPythonKernel.__init__",),
        ("e2c86420e226f7f6",)),
    "one transaction": Speedup(
        "autograder/course/gradebook_engines.py (JoinedConnection)", "SQLAlchemy",
        ("sqlalchemy.engine.base:Connection._run_ddl_visitor",),
        ("5e198466053dd601",)),
    "tables found at once": Speedup(
        "autograder/course/gradebook_engines.py (create_missing_tables)", "nbgrader",
        ("nbgrader.api:Gradebook.__init__", "sqlalchemy.sql.ddl:SchemaGenerator.visit_metadata"),
        ("ddd8ba69f63cce69",), "each open of a gradebook asks about each of its tables, only "
        "slower"),
    "one pass": Speedup(
        "autograder/engine/worker_autograde.py", "nbgrader",
        ("nbgrader.converters.autograde:Autograde.convert_single_notebook",
         "nbconvert.exporters.exporter:Exporter.register_preprocessor"),
        ("3a0084ebc647ab3a",)),
    "fork server stop": Speedup(
        "autograder/engine/fork_server.py (stop)", "python",
        ("multiprocessing.forkserver:ForkServer._stop",),
        ("701a3fcab9cf836c",)),
    "translated argparse": Speedup(
        "autograder/cli.py", "python",
        ("argparse:HelpFormatter._format_usage", "argparse:ArgumentParser.__init__"),
        ("fd7edc4175d8760b",)),
    "deferred server extensions": Speedup(
        "autograder/plumbing/deferred_imports.py", "nbgrader",
        tuple(f"nbgrader.server_extensions.{name}" for name in  # the packages' whole files
              ("assignment_list", "course_list", "validate_assignment", "formgrader")),
        ("60b03846d13b8cf5",)),
    "one submission collected": Speedup(
        "autograder/serve/collect_one.py", "nbgrader",
        ("nbgrader.exchange.default.collect:ExchangeCollect.init_src",
         "nbgrader.exchange.default.collect:ExchangeCollect._path_to_record",
         "nbgrader.exchange.default.collect:ExchangeCollect.copy_files"),
        ("fdbde3d9d51043f1",), "feedback on submit (serve) refuses to start"),
    "page in one pass": Speedup(
        "autograder/outputs/safe_page.py (SafeHTMLExporter.without_soup)", "nbconvert",
        ("nbconvert.exporters.html:HTMLExporter.from_notebook_node",
         "nbconvert.exporters.html:HTMLExporter._init_resources"),
        ("667ea9ece55a29ac",), "feedback pages are nbconvert's own, only slower"),
    "one copy of a page": Speedup(
        "autograder/outputs/safe_page.py (SafeHTMLExporter._preprocess)", "nbconvert",
        ("nbconvert.exporters.exporter:Exporter.from_notebook_node",
         "nbconvert.exporters.exporter:Exporter._preprocess"),
        ("bf00d3a12d6cceb7",), "a page's notebook is copied and checked as nbconvert does, "
        "only slower"),
    "tags by piece": Speedup(
        "autograder/outputs/safe_page.py (unsafe_tags)", "python",
        ("html.parser", "_markupbase"),  # the parser's state between two feeds: whole files
        ("64c618085fcc0806",), "a page's safety pass reads each page whole, only slower"),
    "grades given": Speedup(
        "autograder/outputs/given_grades.py (GivenGrades)", "nbgrader",
        ("nbgrader.preprocessors.getgrades:GetGrades",),
        ("b9454548eedcd71a",), "a feedback worker writes each page's scores into its copy of "
        "the gradebook and nbgrader reads them back, only slower"),
    "gradebook version": Speedup(
        "autograder/course/gradebook_version.py", "nbgrader",
        ("nbgrader.api:get_alembic_version", "nbgrader.dbutil:_temp_alembic_ini",
         "nbgrader.dbutil:write_alembic_ini"),
        ("5952c15a7add32bf",), "a new gradebook runs the alembic executable, only slower"),
    "deferred requests": Speedup(
        "autograder/plumbing/deferred_imports.py", "requests",
        ("nbgrader.auth.jupyterhub", "requests"),  # whole files: where it is used, what waits
        ("d1b4a834cda7f68b",)),
    "deferred parser": Speedup(
        "autograder/plumbing/deferred_imports.py", "rfc3987-syntax",
        ("rfc3987_syntax.syntax_helpers:is_valid_syntax",),
        ("f86331c2e5bc8429",)),
}


def applies(name: str) -> bool:
    """Whether the speedup `name` may patch: the code it touches is what it was written for."""
    return why_not(name) is None


@cache
def why_not(name: str) -> str | None:
    """None when the speedup `name` applies; else why not, in words."""
    speedup = SPEEDUPS[name]
    try:
        found = digest_of(speedup.targets)
    except LookupError as missing:
        return f"{missing.args[0]} is not there"
    if found not in speedup.digests:
        return f"its code differs from what the speedup was written for (digest {found})"
    return None


def stepped_aside() -> list[str]:
    """A line for each speedup that steps aside here, naming it, the library and why."""
    lines = []
    for name, speedup in SPEEDUPS.items():
        reason = why_not(name)
        if reason is not None:
            lines.append(f"speedup '{name}' ({speedup.module}) steps aside, "
                         f"{speedup.distribution} {version_of(speedup.distribution)}: "
                         f"{reason}; {speedup.aside}")
    return lines


def version_of(distribution: str) -> str:
    import importlib.metadata  # here: some 10 ms to import, and the template never asks

    if distribution == "python":
        return sys.version.split()[0]
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


def digest_of(targets) -> str:
    """A digest of the targets' source text, in order: raises LookupError naming the first
    target that cannot be found."""
    import hashlib  # here, as inspect below: a process that checks nothing starts lighter

    digest = hashlib.sha256()
    for target in targets:
        module, _, qualified = target.partition(":")
        path = module_file(module)
        text = source_of(path, qualified) if qualified else "".join(lines_of(path))
        digest.update(f"{target}\n{text}".encode())
    return digest.hexdigest()[:16]


@cache
def module_file(module: str) -> str:
    """The .py file of `module`, found without importing it or its packages (find_spec of a
    dotted name would import its parents: ipykernel, nbgrader, sqlalchemy)."""
    top, *rest = module.split(".")
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        spec = None
    if spec is None or spec.origin in (None, "built-in", "frozen"):
        raise LookupError(module)
    if not rest:
        return spec.origin
    base = os.path.join(spec.submodule_search_locations[0], *rest)
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(path):
            return path
    raise LookupError(module)


@cache
def lines_of(path: str) -> list[str]:
    with open(path, encoding="utf-8") as file:
        return file.readlines()


def source_of(path: str, qualified: str) -> str:
    """The source of the function or class `qualified` ("Class.method") in the file `path`:
    each part is the least indented definition of that name after the last one found,
    before the next top-level definition; its block is read as inspect reads one."""
    import inspect

    lines, start, indent = lines_of(path), 0, -1
    for part in qualified.split("."):
        start, indent = definition(lines, part, start, indent, qualified)
    return "".join(inspect.getblock(lines[start:]))


def definition(lines, name, start, outer, qualified):
    """The line and indentation of `name`'s definition, nested deeper than `outer`."""
    pattern = re.compile(rf"(\s*)(?:async\s+def|def|class)\s+{re.escape(name)}\b")
    found = None
    for number in range(start, len(lines)):
        line = lines[number]
        if number > start and outer >= 0 and re.match(r"(?:async\s+def|def|class)\s", line):
            break  # the next top-level definition: the class searched ended before it
        match = pattern.match(line)
        if match is None or len(match.group(1)) <= outer:
            continue
        if outer < 0 and match.group(1):
            continue  # a module's own name is defined at the top level
        if found is None or len(match.group(1)) < found[1]:
            found = (number, len(match.group(1)))
            if outer < 0:
                break
    if found is None:
        raise LookupError(qualified)
    return found
