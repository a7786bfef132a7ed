"""Does each assignment's similarity flag (its checks.py SIMILARITY) flag no pair of honest
students and every copy of one disguise (or, where it says its code is too short to tell, is
that so), on bench/similarity_calibration.py's class: the
reference, independent correct solutions written in different styles, and the copier's
disguised copies of two of them?

The bench prints the figures behind each flag; this test holds the flags to them, so a change
to the fingerprints (similarity_text.py) or to a flag that breaks the separation fails."""

from __future__ import annotations

import sys

import pytest

from tests.course import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import similarity_calibration  # noqa: E402


@pytest.mark.parametrize("assignment_id", similarity_calibration.IDS)
def test_the_flag_separates_honest_pairs_from_copies(assignment_id, capsys):
    """No honest pair flagged, no copy of one disguise missed, and every student and copy
    kept (a student the hidden checks drop proves nothing)? And where the assignment says its
    code is too short to tell, can no share and count of characters tell indeed?"""
    measured = similarity_calibration.measure(assignment_id, False)
    printed = capsys.readouterr().out
    assert "DROPPED" not in printed, printed
    assert measured["honest"] and measured["copies"]
    assert measured["honest flagged"] == [], printed
    if measured["flag"].tells:
        assert measured["copies missed"] == [], printed
    else:
        assert not measured["separable"], printed
