"""Does a kit process put off what libraries do as they are imported and it never needs
(rfc3987_syntax's parser, nbgrader's server extensions, requests) until something uses it, and
does each then answer exactly as it does in a process without the kit?"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
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


SERVER_ROUTES = """
import json, os, sys, tempfile
{first}
import nbgrader
imported = sorted(name for name in sys.modules if name.startswith("nbgrader.server_extensions."))
from jupyter_server.serverapp import ServerApp
folder = tempfile.mkdtemp()
for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
    os.environ[name] = folder
app = ServerApp()
app.initialize(argv=["--ServerApp.jpserver_extensions={{'nbgrader': True}}",
                     "--ServerApp.open_browser=False", f"--ServerApp.root_dir={{folder}}",
                     "--ServerApp.port=0"])
routes = sorted({{str(route.matcher.regex.pattern) for rule in app.web_app.default_router.rules
                 for route in getattr(rule.target, "rules", [])}})
print(json.dumps({{"imported": imported, "routes": routes}}))
"""


def test_nbgraders_server_extensions_load_when_a_jupyter_server_asks():
    """After the kit and nbgrader are imported, are the extensions' handlers still
    unimported, and does a Jupyter server that loads nbgrader then serve every page of
    assignment_list, course_list, validate_assignment and formgrader, as without the kit?"""
    kit = run(SERVER_ROUTES.format(first="import autograder"))
    plain = run(SERVER_ROUTES.format(first=""))
    extensions = [f"nbgrader.server_extensions.{name}" for name in
                  ("assignment_list", "course_list", "formgrader", "validate_assignment")]
    assert kit["imported"] == extensions  # the stand-ins alone
    assert len(plain["imported"]) > len(extensions)  # nbgrader imports their handlers itself
    for page in ("/assignments$", "/courses$", "/assignments/validate$", "/formgrader/?$"):
        assert any(route.endswith(page) for route in plain["routes"]), page
    assert kit["routes"] == plain["routes"]


def test_a_module_of_a_deferred_extension_imports_as_usual():
    """Is a module of a deferred extension the package's own, imported by its name, and
    the extension's loader the real one once it ran?"""
    kit = run("import autograder, json, sys\n"
              "from nbgrader.server_extensions.formgrader import formgrader\n"
              "import nbgrader.server_extensions.formgrader as package\n"
              "ran_before = 'handlers' in package.__dict__ and "
              "package.load_jupyter_server_extension is formgrader.load_jupyter_server_extension\n"
              "package.handlers\n"
              "import nbgrader.server_extensions.assignment_list as listing\n"
              "getattr(listing, 'no_such_name', None)  # a name not of its modules: it runs\n"
              "print(json.dumps([ran_before, formgrader.__file__, "
              "listing.load_jupyter_server_extension.__module__]))")
    assert kit[0] is False
    assert kit[1].endswith("formgrader/formgrader.py")
    assert kit[2] == "nbgrader.server_extensions.assignment_list.handlers"


REQUESTS = """
import json, logging, sys, warnings
{first}
import nbgrader.api
ran_before = sorted(name for name in sys.modules if name.startswith(("requests.", "urllib3")))
import requests
from requests import Session
import nbgrader.auth.jupyterhub as hub
answers = {{"version": requests.__version__, "get": requests.get.__module__,
           "session": Session.__module__, "same": hub.requests is requests,
           "handlers": [type(h).__name__ for h in logging.getLogger("requests").handlers],
           "prepared": requests.Request("GET", "http://a/b", params={{"q": "ä"}}).prepare().url}}
print(json.dumps({{"ran_before": ran_before, "answers": answers}}))
"""


def test_requests_runs_at_its_first_use_and_answers_as_the_library():
    """After the kit and nbgrader's API are imported, has none of requests' code run (nor
    urllib3's, which it imports), and does its first use (a name its code sets, __version__
    among them, and one of its modules) then answer as in a process without the kit?"""
    kit = run(REQUESTS.format(first="import autograder"))
    plain = run(REQUESTS.format(first=""))
    assert kit["ran_before"] == []
    assert "requests.api" in plain["ran_before"]  # nbgrader's API imports it itself
    assert kit["answers"] == plain["answers"]
    assert kit["answers"]["same"] and kit["answers"]["handlers"] == ["NullHandler"]
