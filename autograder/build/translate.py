"""A cell's text in the course's language: the markdown twin or the code with its strings
replaced (both written beside the English in assignments/<id>/notebook.py), and the names of the
catalogued mistakes a test cell quotes, in the hidden checks' own words."""

from __future__ import annotations

from autograder.build.authoring import AuthoringError
from autograder.i18n import DEFAULT, t


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
            raise AuthoringError(t("{path}:{line}: the {language} strings of this cell "
                                   "translate {english!r}, which the cell no longer holds (a key "
                                   "is a piece of the cell as the build writes it); update or "
                                   "remove that entry", path=path, line=spec.line,
                                   language=language, english=english))
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
