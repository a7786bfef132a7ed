"""Is the course's secret made once, kept private and refused when damaged, and does each
notebook's key depend on the secret, the assignment, the student and the reseed alone?"""

from __future__ import annotations

import os
import stat

import pytest

from autograder.checks.draws import WHOLE_STATE
from autograder.course.draw_keys import (
    SECRET_BYTES,
    SecretError,
    course_secret,
    draw_key,
    key_digest,
    make_secret,
    read_secret,
    ready_to_draw,
    secret_path,
)


def mode_of(path):
    return stat.S_IMODE(path.stat().st_mode)


def test_the_first_use_makes_a_private_secret_and_says_so(tmp_path):
    """With no secret yet, is one made in .kit/ (mode 0600), said once, and the same one read
    back afterwards?"""
    said = []
    first = course_secret(tmp_path, said.append)
    assert first.startswith(WHOLE_STATE) and len(first) == len(WHOLE_STATE) + SECRET_BYTES
    assert mode_of(secret_path(tmp_path)) == 0o600
    assert len(said) == 1 and str(secret_path(tmp_path)) in said[0]
    assert course_secret(tmp_path, said.append) == first and len(said) == 1


def test_a_secret_others_can_read_is_made_private_again(tmp_path):
    """Is a secret left readable by others (a copy made with cp) made the owner's alone, and
    said?"""
    made = make_secret(secret_path(tmp_path))
    os.chmod(secret_path(tmp_path), 0o644)
    said = []
    assert read_secret(secret_path(tmp_path), said.append) == made
    assert mode_of(secret_path(tmp_path)) == 0o600 and "0600" in said[0]


@pytest.mark.parametrize("text", ["", "not hex at all", "ab" * 8])
def test_a_damaged_secret_is_refused_naming_the_fix(tmp_path, text):
    """Is a secret file that the kit did not write (empty, not hex, too short) refused with
    the file and the fix named, never replaced (a new secret would draw new cases for
    everyone)?"""
    path = secret_path(tmp_path)
    path.parent.mkdir()
    path.write_text(text)
    with pytest.raises(SecretError, match="put back the course's own"):
        course_secret(tmp_path)
    assert path.read_text() == text


def test_making_a_secret_where_one_appeared_keeps_that_one(tmp_path):
    """When another process made the secret first, does make_secret return that one rather
    than replace it?"""
    first = make_secret(secret_path(tmp_path))
    assert make_secret(secret_path(tmp_path)) == first
    assert not list(secret_path(tmp_path).parent.glob("*.partial"))


def test_a_key_is_the_notebooks_alone():
    """Does a key change with the secret, the assignment, the student and the reseed, and
    only with them (the same inputs, the same key)?"""
    secret = bytes(range(32))
    key = draw_key(secret, "01_a", "ada")
    assert draw_key(secret, "01_a", "ada") == key
    others = [draw_key(bytes(32), "01_a", "ada"), draw_key(secret, "02_b", "ada"),
              draw_key(secret, "01_a", "bo"), draw_key(secret, "01_a", "ada", "r1"),
              draw_key(secret, "01_aa", "da")]  # no two fields can be moved into each other
    assert len({key, *others}) == 6


def test_the_ledger_keeps_a_digest_that_cannot_draw():
    """Is what the ledger keeps of a key short, stable and not the key itself?"""
    key = draw_key(bytes(range(32)), "01_a", "ada")
    assert key_digest(key) == key_digest(key) and len(key_digest(key)) == 16
    assert key_digest(key) not in key.hex()


def test_a_new_course_draws_from_the_whole_state_and_says_nothing(tmp_path):
    """Does a secret made now give keys that seed the generator's whole state, with nothing
    said before grading?"""
    secret, said = course_secret(tmp_path, print), []
    assert draw_key(secret, "01_a", "ada").startswith(WHOLE_STATE)
    ready_to_draw(secret, said.append)
    assert said == []


def test_an_older_course_keeps_its_draws_and_is_told_how_to_move(tmp_path):
    """Is a secret of 32 bytes alone (a course made before the whole-state draws) still read,
    its keys unchanged (no WHOLE_STATE: the 32-bit seeds its gradings drew with), and is the
    instructor told so before grading, with how to move?"""
    path = secret_path(tmp_path)
    path.parent.mkdir()
    path.write_text(bytes(range(32)).hex() + "\n")
    os.chmod(path, 0o600)
    secret = course_secret(tmp_path)
    assert secret == bytes(range(32))
    assert not draw_key(secret, "01_a", "ada").startswith(WHOLE_STATE)
    said = []
    ready_to_draw(secret, said.append)
    assert len(said) == 1 and "32-bit seeds" in said[0] and "grade --force" in said[0]
