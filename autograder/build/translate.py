"""A cell's text in the course's language: the markdown twin or the code with its strings
replaced (both written beside the English in assignments/<id>/notebook.py), the names of the
catalogued mistakes a test cell quotes, in the hidden checks' own words, and the English its
strings cells left in the code (`english_left`)."""

from __future__ import annotations

import io
import re
import tokenize

from autograder.build.authoring import AuthoringError
from autograder.i18n import DEFAULT, t

# Three words or more of English in a row: a sentence a student reads, not a name or a shape
WORDS = re.compile(r"[A-Za-z][a-z']+(?:[ \t]+[A-Za-z][a-z']*){2,}")
KIT_CELLS = ("checks",)  # cells the kit writes in the course's language itself
# The tokens text is read in: an f-string's pieces are tokens of their own from Python 3.12
TEXT_TOKENS = {tokenize.STRING, tokenize.COMMENT, getattr(tokenize, "FSTRING_MIDDLE", -1)}


def markdown_text(spec, path, language):
    """The markdown cell's text in `language`; `path` is the authoring file's."""
    if language == DEFAULT:
        return spec.text
    if language not in spec.translations:
        raise AuthoringError(t("{path}:{line}: this markdown cell has no '# %% [markdown "
                               "{language}]' twin, which a course in {language} needs; write it "
                               "right below the cell", path=path, line=spec.line,
                               language=language))
    return spec.translations[language]


def code_text(spec, text, path, language):
    """`text`, the cell's rendered code, with the pieces its strings cell translates; `path`
    is the authoring file's."""
    if language == DEFAULT:
        return text
    table = spec.translations.get(language, {})
    for english in sorted(table, key=len, reverse=True):  # a longer piece before its parts
        if english not in text:
            raise AuthoringError(f"{path}:{spec.line}: the {language} strings of this cell "
                                 f"translate {english!r}, which the cell no longer holds; "
                                 "update or remove that entry")
        text = text.replace(english, table[english])
    return text


def mistake_names(text, step, language):
    """A test cell quotes catalogued mistakes by name: in the course's language, the name the
    hidden checks give the same mistake."""
    if language == DEFAULT:
        return text
    for mistake in step.mistakes:
        for quote in ('"', "'"):
            text = text.replace(f"{quote}{mistake.name}{quote}", repr(t(mistake.name)))
    return text


def english_left(notebook, specs, language) -> list[tuple[int, str]]:
    """(the authoring file's line of the cell, the words) of each run of English words left in
    a string or comment of the code cells of `notebook`, rendered from `specs` in `language`,
    that the cell's strings table does not give: a piece to translate there, or to map to
    itself when it is data kept in English ("Life is short": a document's sentence)."""
    if language == DEFAULT:
        return []
    left = []
    for spec, cell in zip(specs, notebook.cells, strict=False):  # one cell a spec, in order
        if cell.cell_type != "code" or spec.kind in KIT_CELLS:
            continue
        given = spec.translations.get(language, {}).values()
        left += [(spec.line, words) for words in english_words(cell.source)
                 if not any(words in text for text in given)]
    return list(dict.fromkeys(left))  # each once, in the notebook's order


def english_words(code) -> list[str]:
    """The runs of English words in the strings and comments of `code`."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return []  # not Python the tokenizer reads: the build's proof names it
    return [found.group(0) for token in tokens if token.type in TEXT_TOKENS
            for found in WORDS.finditer(token.string)]
