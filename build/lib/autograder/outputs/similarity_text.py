"""The text a notebook's code is fingerprinted on: what a copier changes is gone, what an
independent author writes differently is kept.

Python's own tokenizer reads the code. A name the student binds (a variable, a parameter, a
function or class they define, an import's alias) becomes "V", so renaming hides nothing;
every string "S"; comments, blank lines and indentation go, so rewording a comment or adding
lines changes nothing. A name the student does not bind is kept as it is written: the library
call (`torch.einsum`, `.masked_fill`, `math.sqrt`) and attribute names, so two solutions that
compute the same thing by other means differ. (copydetect's own filter, Pygments-based, folds
the library's names too. On 01_attention_by_hand both separate the reference from an
independent solution, 0.00 with either, and find the disguised copies, 0.88-0.92 with its
filter and 0.92-0.99 with this text.)

Each character of the text remembers the span of the code it stands for, so a matched
passage of the text is marked on the code as written; the text also keeps where each
top-level statement (a function, a class, a line of a cell) starts, so that no fingerprint
spans two of them: functions put in another order, or cells between them moved, leave every
fingerprint of each function as it was.
"""

from __future__ import annotations

import ast
import io
import keyword
import tokenize
from dataclasses import dataclass

DROPPED = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
           tokenize.ENDMARKER, tokenize.ENCODING}
STRINGS = {tokenize.STRING, getattr(tokenize, "FSTRING_START", -1)}
IN_FSTRING = {getattr(tokenize, name, -1) for name in ("FSTRING_MIDDLE", "FSTRING_END")}
BINDS_NEXT = {"def", "class", "for", "as", "global", "nonlocal", "import", "lambda"}
ASSIGNS = {"=", ":=", "+=", "-=", "*=", "/=", "//=", "%=", "@=", "**=", "&=", "|=", "^=",
           ">>=", "<<="}


@dataclass(frozen=True)
class Text:
    """The text fingerprinted, and for each of its characters the span (start, end) of the
    code it stands for."""

    text: str
    spans: tuple[tuple[int, int], ...]
    starts: tuple[int, ...] = ()  # where each top-level statement starts in `text`

    def code_span(self, start, end):
        """The span of the code a passage [start, end) of the text stands for."""
        return self.spans[start][0], self.spans[end - 1][1]


def tokens(code):
    """Python's tokens of `code`, as far as it tokenizes (a syntax error ends the list)."""
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            found.append(token)
    except (tokenize.TokenError, SyntaxError):
        pass
    return found


def bound_by_syntax(code):
    """Names the code binds, read from its syntax tree; None when it does not parse, Python's
    parser refusing code nested too deep for it included (`x = ----...1`, 100,000 signs: a
    MemoryError; `1+1+...`, 200,000 terms: a RecursionError)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.alias) and node.asname:
            names.add(node.asname)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


def bound_by_tokens(found):
    """Names the code binds, guessed from its tokens (code that does not parse): a name after
    def, class, for, as ... or before an assignment."""
    names = set()
    for before, token, after in zip([None, *found], found, [*found[1:], None], strict=False):
        if token.type != tokenize.NAME or keyword.iskeyword(token.string):
            continue
        if (before is not None and before.string in BINDS_NEXT) or (
                after is not None and after.string in ASSIGNS and
                (before is None or before.string != ".")):
            names.add(token.string)
    return names


def word(token, before, bound):
    """What one token becomes in the text ("" when it goes)."""
    if token.type in DROPPED or token.type in IN_FSTRING:
        return ""
    if token.type in STRINGS:
        return "S"
    if token.type == tokenize.NAME and not keyword.iskeyword(token.string):
        after_dot = before is not None and before.string == "."
        return "V" if token.string in bound and not after_dot else token.string
    return token.string


def offsets(code):
    """The offset in `code` where each line starts (tokenize counts lines and columns)."""
    starts, total = [], 0
    for line in code.splitlines(keepends=True):
        starts.append(total)
        total += len(line)
    return starts + [total]


def bound_names(code):
    """The names `code` binds: from its syntax tree, or its tokens where it does not parse."""
    bound = bound_by_syntax(code)
    return bound_by_tokens(tokens(code)) if bound is None else bound


def normalised(code, bound):
    """The fingerprinted Text of `code`, where the names in `bound` are the student's (those
    their code binds and those the notebook's other cells bind: one text for a passage in
    the student's code and in the release's)."""
    found = tokens(code)
    lines = offsets(code)
    text, spans, starts, length = [], [], [], 0
    for before, token in zip([None, *found], found, strict=False):
        written = word(token, before, bound)
        if not written:
            continue
        if token.start[1] == 0 and length:
            starts.append(length)
        length += len(written)
        start = lines[token.start[0] - 1] + token.start[1]
        end = lines[token.end[0] - 1] + token.end[1]
        text.append(written)
        spans += [(start, end)] * len(written)
    return Text("".join(text), tuple(spans), tuple(starts))
