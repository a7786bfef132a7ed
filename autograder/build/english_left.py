"""The English a notebook in another language would keep, which `build` warns of.

Read where the instructor wrote it, so that each warning names the very file and line: a code
cell's text in notebook.py, and the docstrings and comments of reference.py that a solution or
given cell shows (not a solution's body: the release replaces it). English is a run of three
plain words or more, one of them a word only prose uses ("the", "of", "is"): names, shapes,
formulas and the values `{{documents.NAME}}` writes in are not read. A run the cell's strings
table gives (its translation, or itself: data kept in English) is not left, nor the name of a
catalogued mistake a test cell quotes (the hidden checks' zh.py gives that, and `validate`
asks for it). A markdown twin with no character of its language is said too, and in one that
has some, a run of its own prose: not what it quotes (“...”, 《...》, "...") or shows as code
(`...`, a fenced block, a `>>>` line) or as a formula ($...$).
"""

from __future__ import annotations

import ast
import inspect
import io
import re
import textwrap
import tokenize
from dataclasses import dataclass
from pathlib import Path

from autograder.build.cjk import HAN
from autograder.build.stubs import (
    body_start,
    leading_comments,
    named_at,
    outer_functions,
)
from autograder.i18n import DEFAULT

PROSE_WORDS = frozenset(
    "a an the of to is are was were be been in on at for with by from your you it its this "
    "that these those each every not no should must can cannot has have had got per than "
    "then when all we our us they them their if as into which there here but do does will "
    "would may might how what where why".split())
CHUNK = re.compile(r"[^\s,;:]+")  # what lies between spaces and the marks inside a sentence
WORD = re.compile(r"[A-Za-z]+(?:['-][A-Za-z]+)*")  # dot-product, student's
SENTENCE_END = re.compile(r"[.!?][\"')\]`*]*$")  # a word that ends its sentence ends the run
PREFIX = re.compile(r"^[rRbBuUfF]+(?=['\"])")  # a string's prefix: f"the ... is no word
TOOL_COMMENT = re.compile(r"#\s*(?:noqa|pragma|type:|fmt:|pylint:|ruff:|isort:)")
EDGES = "\"'()[].!?`*"  # marks a word may stand between: quotes, brackets, a full stop
# The tokens text is read in: an f-string's pieces are tokens of their own from Python 3.12
TEXT_TOKENS = {tokenize.STRING, tokenize.COMMENT, getattr(tokenize, "FSTRING_MIDDLE", -1)}
SCRIPT = {"zh": re.compile(f"[{HAN}]")}  # a character every text in the language holds
LANGUAGE_NAMES = {"zh": "Chinese"}  # as a sentence names the notebook's language, through t()
# What a markdown twin may keep in English: quotes and titles, code and formulas
QUOTED = re.compile(r"```.*?```|`[^`\n]*`|“[^”]*”|《[^》]*》|「[^」]*」|\"[^\"\n]*\"|"
                    r"\$\$.*?\$\$|\$[^$\n]*\$", re.DOTALL)
NOTEBOOK_CELLS = ("setup", "code", "tests")  # their code is written in notebook.py
REFERENCE_CELLS = ("given", "solution")  # theirs comes from reference.py


@dataclass(frozen=True)
class Run:
    """English in a line: `core`, its plain words as written (what a strings key must hold),
    and `key`, the key the warning suggests: the core to the end of its sentence, the names
    and numbers after it and the full stop included, so that a translation replaces them."""
    core: str
    key: str


WHOLE, RUN = "whole", "run"  # a Left's twin: it holds no character of its language; a run in it


@dataclass(frozen=True)
class Left:
    path: Path
    line: int
    words: str  # the English run, as written: a key for the cell's strings table
    twin: str = ""  # in a markdown twin: WHOLE or RUN; "" in code


def english_left(specs, assignment, language) -> list[Left]:
    """What the notebook of `assignment`, read from `specs`, keeps in English in `language`,
    in the order of the cells."""
    if language == DEFAULT:
        return []
    left = []
    for spec in specs:
        table = spec.translations.get(language, {})
        if spec.kind == "markdown":
            twin = table if isinstance(table, str) else None
            if twin and language in SCRIPT:
                left += twin_left(twin, assignment.notebook, spec.translation_lines[language],
                                  SCRIPT[language])
        elif spec.kind in NOTEBOOK_CELLS:
            step = assignment.steps.get(spec.names[0]) if spec.kind == "tests" else None
            named = {m.name for m in step.mistakes} if step else set()
            left += [Left(assignment.notebook, spec.body_line + row - 1, run.key)
                     for row, run in english_runs(spec.text, named) if not given(run, table)]
        elif spec.kind in REFERENCE_CELLS:
            for name in spec.names:
                left += reference_left(assignment.reference(name, named_at(spec, assignment)),
                                       spec.kind, table)
    return list(dict.fromkeys(left))


def twin_left(twin, notebook: Path, marker: int, script) -> list[Left]:
    """The English of a markdown twin whose marker is on line `marker` of `notebook`: the twin
    whole when it holds no character of its language's `script` (but a formula), else each
    run of prose it writes as its own (own_prose), at its line."""
    if not script.search(twin):
        if any(prose_runs(line) for line in twin.splitlines()):  # not a formula alone
            return [Left(notebook, marker, twin[:60], twin=WHOLE)]
        return []
    rows = notebook.read_text(encoding="utf-8").splitlines()[marker:]
    return [Left(notebook, marker + 1 + row_of(rows, line), run.key, twin=RUN)
            for line, run in own_prose(twin)]


def own_prose(twin) -> list[tuple[str, Run]]:
    """(line, run) of each run of prose on the twin's lines once what it quotes, its code and
    its formulas are blanked out (each a mark that ends a run), `>>>` lines left out."""
    blanked = QUOTED.sub(lambda found: "|" + re.sub(r"[^\n]", " ", found.group(0)[1:]), twin)
    return [(line, run) for line, kept in zip(twin.splitlines(), blanked.splitlines(),
                                              strict=True)
            if not line.lstrip().startswith(">>>") for run in prose_runs(kept)]


def row_of(rows, line) -> int:
    """The index of the first of the notebook's `rows` (from a twin's marker on) that writes
    the twin's `line` (after its '# ')."""
    return next((i for i, row in enumerate(rows) if row[2:] == line), 0)


def reference_left(obj, kind, table) -> list[Left]:
    """The English left in what a cell shows of reference.py's `obj`: its docstrings and
    comments, but for the bodies a solution cell hides."""
    obj = inspect.unwrap(obj)  # a decorated helper: its own source, as stubs.py shows it
    lines, start = inspect.getsourcelines(obj)
    source = textwrap.dedent("".join(lines))
    hidden = solution_bodies(source) if kind == "solution" else set()
    path = Path(inspect.getsourcefile(obj))
    return [Left(path, start + row - 1, run.key) for row, run in english_runs(source)
            if row not in hidden and not given(run, table)]


def solution_bodies(source) -> set[int]:
    """The rows of `source` the release replaces: each function's body after its docstring,
    with the comments right above it (stubs.py fences the same)."""
    lines = source.splitlines()
    rows = set()
    for function in outer_functions(ast.parse(source)):
        first = body_start(function)
        if first is not None:
            top = first.lineno - leading_comments(lines, first.lineno - 1)
            rows.update(range(top, function.end_lineno + 1))
    return rows


def given(run, table) -> bool:
    """Whether the strings table gives the run: a piece it replaces holds its words."""
    return any(run.core in english for english in table)


def english_runs(code, named=frozenset()) -> list[tuple[int, Run]]:
    """(row, run) of each English run in the strings and comments of `code`, but in a string
    that is one of the `named` (a catalogued mistake's name)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return []  # not Python the tokenizer reads: the build's proof names it
    return [(token.start[0] + row, run) for token in tokens
            if token.type in TEXT_TOKENS and literal(token) not in named and not code_comment(token)
            for row, line in enumerate(text_of(token).split("\n")) for run in prose_runs(line)]


def text_of(token) -> str:
    """A token's text, a string's prefix (f, r, b) blanked so that its first word is one."""
    return PREFIX.sub(lambda found: " " * len(found.group(0)), token.string)


def code_comment(token) -> bool:
    """Whether a comment is a tool's (noqa, pragma) or code put aside (# for i in x:)."""
    if token.type != tokenize.COMMENT:
        return False
    code = token.string.lstrip("#").strip().removeprefix(">>>").strip()
    if TOOL_COMMENT.match(token.string) or not code:
        return True
    for attempt in (code, code + "\n    pass"):
        try:
            ast.parse(attempt)
            return True
        except (SyntaxError, ValueError):
            continue
    return False


def literal(token):
    """The value of a plain string token, else None."""
    try:
        value = ast.literal_eval(token.string) if token.type == tokenize.STRING else None
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


def prose_runs(line) -> list[Run]:
    """Each run of three plain words or more of `line`, one of them a word of prose: its
    words as written from the first to the last, and as a key to the end of its sentence
    (the names and numbers after it, and the mark that ends it: a key pasted from the
    warning then translates them too)."""
    chunks = list(CHUNK.finditer(line))
    runs, current = [], []
    for index, chunk in enumerate([*chunks, None]):
        word = chunk and plain_word(chunk)
        if word:
            current.append(word)
            if not SENTENCE_END.search(chunk.group(0)):
                continue
        if len(current) >= 3 and any(w[2].lower() in PROSE_WORDS for w in current):
            end = sentence_end(chunks[index:], current[-1][1])
            runs.append(Run(line[current[0][0]:current[-1][1]], line[current[0][0]:end]))
        current = []
    return runs


def sentence_end(rest, end) -> int:
    """Where the sentence of a run ending at `end` ends: after the mark that closes it, in the
    chunks from the one that ended the run (`rest`) on; `end` when the line has none."""
    for chunk in rest:
        closing = SENTENCE_END.search(chunk.group(0))
        if closing:
            return chunk.start() + closing.start() + 1
    return end


def plain_word(chunk):
    """(start, end, word) of a chunk that is one word between marks; None for a name, a
    number, a path or code."""
    core = chunk.group(0).strip(EDGES)
    if not WORD.fullmatch(core):
        return None
    start = chunk.start() + chunk.group(0).index(core)
    return start, start + len(core), core
