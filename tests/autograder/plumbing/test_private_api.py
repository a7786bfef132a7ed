"""The check before every speedup that patches another library's private code
(autograder/plumbing/private_api.py). Whether grading stays right where speedups step aside is
tested with older libraries in tests/test_older_versions.py."""

from __future__ import annotations

import textwrap

import pytest

from autograder.plumbing import private_api


@pytest.fixture
def fresh_checks():
    """The checks' answers forgotten before and after (they are kept for a process)."""
    private_api.why_not.cache_clear()
    yield
    private_api.why_not.cache_clear()


def test_every_speedup_applies_with_the_locks_versions(fresh_checks):
    """With requirements.lock's versions, is every speedup's table entry current? (After an
    update of the lock: read the new source against the speedup, then take the digest that
    `python -m autograder.tools.speedups` prints.)"""
    assert private_api.stepped_aside() == []


def test_a_speedup_whose_code_differs_steps_aside_and_says_so(fresh_checks, monkeypatch):
    """When the library's code is not the one a speedup was written for, does it step aside,
    with a line naming the speedup, its module, the library's version and the digest found?"""
    speedup = private_api.SPEEDUPS["one transaction"]
    monkeypatch.setitem(private_api.SPEEDUPS, "one transaction",
                        speedup._replace(digests=("0" * 16,)))
    assert not private_api.applies("one transaction")
    assert private_api.applies("output streams")
    [line] = private_api.stepped_aside()
    assert line.startswith("speedup 'one transaction' (autograder/course/gradebook_engines.py")
    assert f"SQLAlchemy {private_api.version_of('SQLAlchemy')}" in line
    assert f"(digest {speedup.digests[0]})" in line and "only slower" in line


def test_a_function_that_is_gone_is_a_step_aside_not_an_error(fresh_checks, monkeypatch):
    """A target whose function, module or library is not there: does the speedup step aside,
    naming what is missing, instead of raising?"""
    for target, missing in (("json:no_such_function", "no_such_function"),
                            ("json.no_such_module:f", "json.no_such_module"),
                            ("no_such_library.core:f", "no_such_library.core")):
        monkeypatch.setitem(private_api.SPEEDUPS, "gone", private_api.Speedup(
            "autograder/x.py", "python", (target,), ("0" * 16,)))
        private_api.why_not.cache_clear()
        assert private_api.why_not("gone") == f"{missing} is not there"


def test_a_method_is_read_from_its_own_class(tmp_path):
    """Two classes with a method of the same name, and a function of that name nested in
    another: is `B.run` B's own method, whole, and nothing after it?"""
    module = tmp_path / "two.py"
    module.write_text(textwrap.dedent('''\
        class A:
            def helper(self):
                def run():
                    return "nested in A.helper"

            def run(self):
                return "A"


        class B:
            x = 1

            def run(self):
                text = """
        a string at column 0 inside the method
        """
                return "B" + text

            def after(self):
                return "not B.run"


        def run():
            return "module"
        '''))
    b_run = private_api.source_of(str(module), "B.run")
    assert b_run.startswith("    def run(self):") and 'return "B" + text' in b_run
    assert "not B.run" not in b_run and '"A"' not in b_run
    assert '"A"' in private_api.source_of(str(module), "A.run")
    assert '"module"' in private_api.source_of(str(module), "run")
    with pytest.raises(LookupError):
        private_api.source_of(str(module), "B.helper")  # A's, not B's


def test_the_digest_follows_the_code(tmp_path, monkeypatch):
    """Does a change of one character in a target change its digest, and a change elsewhere
    in the file not?"""
    package = tmp_path / "kit_probe_library"
    package.mkdir()
    (package / "__init__.py").write_text("")
    core = package / "core.py"
    monkeypatch.syspath_prepend(str(tmp_path))

    def digest(text):
        core.write_text(text)
        private_api.lines_of.cache_clear()
        private_api.module_file.cache_clear()
        return private_api.digest_of(("kit_probe_library.core:f",))

    first = digest("def f():\n    return 1\n")
    assert digest("X = 2\n\n\ndef f():\n    return 1\n") == first
    assert digest("def f():\n    return 2\n") != first
