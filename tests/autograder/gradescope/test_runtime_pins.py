"""Does a Gradescope image pin what the kit needs to run and nothing else: the requirements
the installed metadata tells, followed through the extras each asks for?"""

from __future__ import annotations

from autograder.gradescope.runtime_pins import needed, runtime_pins


def test_an_extra_brings_its_own_requirements_and_only_when_asked():
    """Does jsonschema asked with its format-nongpl extra (as jupyter_events asks) bring that
    extra's requirements (uri-template, webcolors), and jsonschema alone not?"""
    assert {"jsonschema", "attrs"} <= needed(["jsonschema"])
    assert not {"uri-template", "webcolors"} & needed(["jsonschema"])
    assert {"uri-template", "webcolors"} <= needed(["jsonschema[format-nongpl]"])


def test_a_marker_that_does_not_hold_leaves_its_requirement_out():
    """Is a requirement for another platform, or for an extra not asked, left out?"""
    assert needed(['pytest; sys_platform == "win32"', 'ruff; extra == "dev"']) == set()


def test_the_lock_keeps_its_lines_of_what_runs():
    """Are the lines kept exactly as the pins give them (names as written, versions), those
    of nothing the kit needs dropped?"""
    pins = "Jinja2==3.1.6\npytest==9.0.0\nMarkupSafe==3.0.3\n"
    kept = runtime_pins(pins, "no-such-kit", None)
    assert kept == ""  # no kit requirements known: nothing is the kit's
    assert runtime_pins(pins, "nbgrader", None) == "Jinja2==3.1.6\nMarkupSafe==3.0.3\n"
