"""Does a kit process leave rfc3987_syntax's parser unbuilt until something uses it, and does
jsonschema's check of the "iri" format then answer exactly as it does in a process without
the kit?"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IRIS = ["http://example.com/ä", "ht tp://x", "urn:isbn:0451450523", "", "//no-scheme",
        "mailto:名前@例え.jp", "http://[::1]:80/", "http://a/%zz"]
ANSWERS = f"""
import json, sys
from jsonschema import FormatChecker
built_before = "rfc3987_syntax.syntax_helpers" in sys.modules
answers = [FormatChecker().conforms(iri, "iri") for iri in {IRIS!r}]
import rfc3987_syntax
print(json.dumps({{"built_before": built_before, "answers": answers,
                  "parse": str(rfc3987_syntax.parse("iri", "http://a/b").data)}}))
"""


def run(code):
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, check=True)
    return json.loads(result.stdout)


def test_the_parser_is_built_at_first_use_and_answers_as_the_library():
    """The "iri" answers, and a name of the package other than is_valid_syntax, are the
    library's own; the parser was not built by importing the kit and nbformat."""
    kit = run("import autograder, nbformat, nbgrader.api\n" + ANSWERS)
    plain = run(ANSWERS)
    assert plain["built_before"], "jsonschema no longer builds the parser on import"
    assert not kit["built_before"]
    assert kit["answers"] == plain["answers"]
    assert kit["answers"][:2] == [True, False]
    assert kit["parse"] == plain["parse"] == "iri"


def test_nothing_is_deferred_when_the_package_is_already_imported():
    """A process that imported rfc3987_syntax itself keeps its module."""
    kit = run("import rfc3987_syntax, autograder, sys\n"
              "from autograder import deferred_imports\n"
              "deferred_imports.defer()\n"
              "import json; print(json.dumps(sys.modules['rfc3987_syntax'].__doc__))")
    assert "first use" not in (kit or "")
