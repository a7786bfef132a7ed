"""The kit's code that runs where the kit is not installed, as the build copies it out: the
notebook's helper cell (build/public_checks.py, then checks/code_rules.py) and the students'
self-check script (build/check_notebook.py), in the course's language.

Each of those files imports `_t` from autograder/i18n/standalone.py, so that the kit runs
them as they are. Copied out, the first file gets that module's code in place of its import
line (with LANGUAGE set to the course's language) and the others lose theirs: one namespace,
one `_t`, one catalog. A module docstring a student reads is put in the course's language
from zh_build.py's catalog.
"""

from __future__ import annotations

import ast
from pathlib import Path

from autograder.build import public_checks
from autograder.build.authoring import AuthoringError
from autograder.checks import code_rules
from autograder.checks.compare import TOLERANCE
from autograder.i18n import DEFAULT, language, t
from autograder.i18n import standalone as texts

SELF_CHECK = Path(__file__).with_name("check_notebook.py")
IMPORT_LINE = "from autograder.i18n.standalone import _t\n"
LANGUAGE_LINE = 'LANGUAGE = "en"  # the build writes the course\'s language here'


def translation_code(language_code) -> str:
    """autograder/i18n/standalone.py's code without its docstring, set to the language."""
    text = Path(texts.__file__).read_text(encoding="utf-8")
    body = "\n".join(text.splitlines()[ast.parse(text).body[0].end_lineno:]).strip() + "\n"
    if LANGUAGE_LINE not in body:
        raise AuthoringError(f"i18n/standalone.py lacks the line {LANGUAGE_LINE!r} that the "
                             "build sets to the course's language")
    return body.replace(LANGUAGE_LINE, LANGUAGE_LINE.replace('"en"', f'"{language_code}"'))


def with_docstring_in(text, docstring, language_code, name):
    if not docstring or language_code == DEFAULT:
        return text
    with language(language_code):
        translated = t(docstring)
    if translated == docstring:
        raise AuthoringError(f"{name}'s docstring has no {language_code} text in "
                             "autograder/i18n/: add it to zh_build.py")
    return text.replace(docstring, translated, 1)


def copied_out(files, language_code=DEFAULT, docstrings=True) -> str:
    """The source of `files` (of the kit, each importing `_t`) as one standalone text: the
    translation code in place of the first import line, the later ones dropped."""
    parts = []
    for index, path in enumerate(files):
        text = path.read_text(encoding="utf-8").strip() + "\n"
        if text.count(IMPORT_LINE) != 1:
            raise AuthoringError(f"{path.name} must import the texts once, with the line "
                                 f"{IMPORT_LINE.strip()!r}")
        if docstrings:
            text = with_docstring_in(text, ast.get_docstring(ast.parse(text), clean=False),
                                     language_code, path.name)
        text = text.replace(IMPORT_LINE, "" if index else translation_code(language_code))
        parts.append(text.strip())
    return "\n\n\n".join(parts)


def helper_cell_code(language_code=DEFAULT) -> str:
    """The notebook's helper cell: the public tests' helpers and the rules' decisions,
    copied whole (nothing of the kit is installed where students run them); their tolerance
    is the hidden checks' one."""
    if public_checks.TOLERANCE != TOLERANCE:
        raise AuthoringError("build/public_checks.py's TOLERANCE differs from "
                             "autograder.checks.compare.TOLERANCE: make them equal")
    return copied_out([Path(public_checks.__file__), Path(code_rules.__file__)], language_code)


def self_check_script(language_code=DEFAULT) -> str:
    """check_notebook.py as it sits beside a released notebook."""
    return copied_out([SELF_CHECK], language_code, docstrings=False)
