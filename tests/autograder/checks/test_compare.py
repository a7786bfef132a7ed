"""Does a wrong result's message point at the same numbers torch would?"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.build.public_checks import where_wrong
from autograder.checks.compare import index

ROOT = Path(__file__).resolve().parents[3]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(1, 5), max_size=4), st.data())
def test_index_is_torchs_unravel_index(shape, data):
    """Is the index of every flat position the one torch.unravel_index gives?"""
    total = int(torch.tensor(shape).prod()) if shape else 1
    flat = data.draw(st.integers(0, total - 1))
    expected = [int(i) for i in torch.unravel_index(torch.tensor(flat), tuple(shape))]
    assert index(flat, tuple(shape)) == expected


def test_the_public_checks_point_at_the_first_largest_gap():
    """Does the notebook's message name the first of two equal largest gaps, as argmax does?"""
    expected = torch.zeros(2, 3)
    got = torch.tensor([[0.0, 0.0, 0.5], [0.5, 0.0, 0.0]])
    assert "the largest difference is 0.5, at index [0, 2]" in where_wrong(got, expected)


def test_the_public_checks_say_one_wrong_entry_in_the_singular():
    """One wrong entry of six, of floats and of ints: is it "1 of 6 entries differs", at its
    index, with no "first" and "largest" of one?"""
    got = torch.tensor([[0.0, 0.0, 0.5], [0.0, 0.0, 0.0]])
    assert where_wrong(got, torch.zeros(2, 3)) == (
        "1 of 6 entries differs, at index [0, 2]: expected 0, got 0.5")
    assert where_wrong(torch.tensor([1, 2, 4]), torch.tensor([1, 2, 3])) == (
        "1 of 3 entries differs, at index [2]: expected 3, got 4")


def test_pointing_at_a_wrong_number_imports_no_sympy():
    """Does a first wrong answer cost a kernel or a worker no sympy import (about a CPU
    second: torch.unravel_index brings it)?"""
    code = ("import sys, torch\n"
            "from autograder.build.public_checks import where_wrong\n"
            "from autograder.checks.compare import compare_tensors\n"
            "where_wrong(torch.zeros(2, 3), torch.ones(2, 3))\n"
            "try:\n    compare_tensors(torch.zeros(2, 3), torch.ones(2, 3), 'x')\n"
            "except Exception:\n    pass\n"
            "print('sympy' in sys.modules)")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           cwd=ROOT, check=True).stdout
    assert shown.strip() == "False"


def test_a_hidden_case_says_its_largest_difference_to_one_figure():
    """A wrong answer offset by an input of the hidden case (|x0| + 1, here 1234.5): does the
    hidden check's message give the difference to one significant figure (the student's
    output sets it: three would carry the input out), for one number and for many, one of
    them wrong ("is") or two ("are")?"""
    from autograder.checks.compare import where_wrong as hidden_where_wrong

    want = torch.zeros(2, 3)
    got = want.clone()
    got[1, 2] = 1234.5
    said = hidden_where_wrong(got, want, got == want)
    assert said == "1 of 6 numbers is wrong, at index [1, 2]: off by about 1e+03", said
    got[0, 1] = 0.5
    said = hidden_where_wrong(got, want, got == want)
    assert said == ("2 of 6 numbers are wrong; the first at index [0, 1], the largest "
                    "difference (about 1e+03) at index [1, 2]"), said
    one = hidden_where_wrong(torch.tensor(1234.5), torch.tensor(0.0),
                             torch.tensor(False))
    assert one.endswith("off by about 1e+03"), one


def test_a_wrong_shape_shows_only_lengths_the_expected_shape_has():
    """A hidden case's output of zeros shaped to carry an input out, (23, 29, 8, 27) where
    (5, 2) was expected (a helper read four figures of an input so): is every length the
    expected shape lacks a "?", past two extra dimensions only their number said, and a shape
    a mistake makes, (2, 5) or (5, 2, 1), shown whole?"""
    from autograder.checks.compare import Mismatch, compare

    def said(got_shape):
        with pytest.raises(Mismatch) as raised:
            compare(torch.zeros(got_shape), torch.zeros(5, 2))
        return str(raised.value)

    assert said((23, 29, 8, 27)) == ("output has shape (?, ?, ?, ?), expected (5, 2) (? is a "
                                     "length the expected shape does not have)")
    assert said((5, 7)) == ("output has shape (5, ?), expected (5, 2) (? is a length the "
                            "expected shape does not have)")
    assert said((2, 5)) == "output has shape (2, 5), expected (5, 2)"
    assert said((5, 2, 1)) == "output has shape (5, 2, 1), expected (5, 2)"
    assert said((5, 2, 1, 1, 2)) == "output has more than 4 dimensions, expected (5, 2)"
    assert said((0, 13)) == ("output has shape (?, ?), expected (5, 2) (? is a length the "
                             "expected shape does not have)")
