"""The course's language: English, the language the kit's texts are written in, or
Simplified Chinese.

Every text a student or an instructor reads is written in English where it is used and
passed through `t`, which returns it in the current language:

    t("random case {number}", number=2)    # "random case 2", or "随机用例 2"

A catalog (autograder/i18n/zh_*.py, one per part of the kit) maps each English text to its
Chinese text; fields in braces are filled after the lookup, so the Chinese text may put
them in another order. A text with no Chinese entry stays English (tests/autograder/
test_i18n.py fails on it). The language is a setting of the course:
`c.Course.language = "zh"` in nbgrader_config.py; `python -m autograder init` writes it.
"""

from __future__ import annotations

from contextlib import contextmanager

from autograder.errors import KitError

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


def catalog(code):
    if code == "zh":
        from autograder.i18n.zh import CATALOG

        return CATALOG
    return {}


def t(text, **fields):
    """`text` in the current language, its {fields} filled in."""
    template = catalog(current()).get(text, text) if current() != DEFAULT else text
    return template.format(**fields) if fields else template


def config_language(config):
    """The language a loaded nbgrader config sets (c.Course.language), English by default."""
    return check_language(config.Course.get("language", DEFAULT))
