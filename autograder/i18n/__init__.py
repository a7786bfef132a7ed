"""The course's language: English, the language the kit's texts are written in, or
Simplified Chinese.

Every text a student or an instructor reads is written in English where it is used and
passed through `t`, which returns it in the current language:

    t("random case {number}", number=2)    # "random case 2", or "随机用例 2"

A catalog (autograder/i18n/zh_*.py, one per part of the kit) maps each English text to its
Chinese text; fields in braces are filled after the lookup, so the Chinese text may put
them in another order. A course adds the texts of its own assignments (their zh.py,
`add_catalog`, called when the course's assignments are loaded). A text with no Chinese entry
stays English (the tests of the catalogs fail on it). The language is a setting of the course:
`c.Course.language = "zh"` in nbgrader_config.py; `python -m autograder init` writes it.

Imports the plumbing's errors and kit_command alone.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

from autograder.i18n.standalone import _os_errors_in, _os_reason
from autograder.plumbing.errors import KitError
from autograder.plumbing.kit_command import as_typed

LANGUAGES = {"en": "English", "zh": "简体中文 (Simplified Chinese)"}
DEFAULT = "en"
_current = {"language": DEFAULT}


class LanguageError(KitError, ValueError):
    """An unknown course language."""


def check_language(code):
    if code not in LANGUAGES:
        known = ", ".join(f"{k} ({v})" for k, v in LANGUAGES.items())
        raise LanguageError(f"unknown course language {code!r}; use one of {known}")
    return code


def current():
    return _current["language"]


HTML_LANG = {"en": "en", "zh": "zh-CN"}  # each language's tag in a page's <html lang=...>


def html_lang():
    """The tag of the current language for a page's <html lang=...> (a browser picks its
    fonts by it: zh-CN, Simplified Chinese glyphs)."""
    return HTML_LANG.get(current(), current())


def locale_language(environ=None):
    """The language the user's locale asks for (LC_ALL, LC_MESSAGES, LANGUAGE's first, LANG,
    the first set, as gettext reads them): Chinese for zh_*, else English. Where no course
    says its language (`--help` outside a course)."""
    environ = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE", "LANG"):
        value = environ.get(name, "")
        if value:
            return "zh" if value.split(":")[0].lower().startswith("zh") else DEFAULT
    return DEFAULT


def set_language(code):
    _current["language"] = check_language(code)


@contextmanager
def language(code):
    """Texts in this language within the block."""
    before = current()
    set_language(code)
    try:
        yield
    finally:
        _current["language"] = before


_added: dict[str, dict[str, tuple[str, str]]] = {}  # language -> English -> (text, home)


def add_catalog(code, table, home):
    """Add a course's texts (`table`, English -> translation) from the file `home`. A text
    given another translation elsewhere (the kit's catalogs, or another file of the course) is
    refused naming both homes; `home` read again replaces its own texts."""
    check_language(code)
    added = _added.setdefault(code, {})
    for english in [e for e, (_, where) in added.items() if where == home]:
        del added[english]
    kit = kit_catalog(code)
    for english, text in table.items():
        other = (kit[english], t("the kit's catalogs")) if english in kit else added.get(english)
        if other and other[0] != text and other[1] != home:
            raise LanguageError(t("{home}: {english!r} is {here!r} there but {other!r} in "
                                  "{where}; give it one translation (or write the English "
                                  "differently)", home=home, english=english, here=text,
                                  other=other[0], where=other[1]))
    for english, text in table.items():
        if english not in kit:
            added[english] = (text, home)


def kit_catalog(code):
    if code == "zh":
        from autograder.i18n.zh import CATALOG

        return CATALOG
    return {}


def catalog(code, within=None):
    """Every text of the language: the kit's and those the loaded courses added; with
    `within` (a folder), only those added from files under it (one course's: a process that
    loaded another course before keeps that one's texts too)."""
    added = _added.get(code)
    if not added:
        return kit_catalog(code)
    inside = None if within is None else Path(within).resolve()
    return {**{english: text for english, (text, home) in added.items()
               if inside is None or Path(home).resolve().is_relative_to(inside)},
            **kit_catalog(code)}


def english_of(text, code, home_part=""):
    """The English texts whose `code` translation is `text`, those whose home (the file that
    added them) has `home_part` in its path first (two assignments may translate two English
    names alike)."""
    found = [(english, where) for english, (translated_text, where) in
             _added.get(code, {}).items() if translated_text == text]
    found.sort(key=lambda pair: home_part not in str(pair[1]) if home_part else False)
    kit = [english for english, translated_text in kit_catalog(code).items()
           if translated_text == text]
    return [english for english, _ in found] + kit


def t(text, **fields):
    """`text` in the current language, its {fields} filled in; a field that is an OSError
    reads in the language too ("[Errno 13] Permission denied: 'x'", "权限不够（errno 13）：'x'"),
    and a command of the kit reads as the user runs it here (plumbing/kit_command.py)."""
    if current() == DEFAULT:
        return as_typed(text.format(**fields) if fields else text)
    fields = _os_errors_in(fields, current())
    template = translated(text, current())
    return as_typed(template.format(**fields) if fields else template)


def counted(count, one, many, **fields):
    """t(one) for a count of 1, else t(many), {count} filled in: "1 notebook", "2 notebooks"
    (a Chinese text is the same for both)."""
    return t(one if count == 1 else many, count=count, **fields)


def os_reason(error: OSError) -> str:
    """What the system says of `error` ("Permission denied"), in the current language."""
    return _os_reason(error, current())


def translated(text, code):
    found = kit_catalog(code).get(text)
    if found is None:
        found = _added.get(code, {}).get(text, (text,))[0]
    return found


def config_language(config):
    """The language a loaded nbgrader config sets (c.Course.language), English by default."""
    return check_language(config.Course.get("language", DEFAULT))
