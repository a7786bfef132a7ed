"""Do the numbers a figure prints agree with each other, as a reader who checks them computes
them (07's causal mask once printed scores [-1.5, 0.1] beside weights [0.16, 0.84], whose
softmax is [0.17, 0.83])?"""

from __future__ import annotations

import torch

from autograder.build.figures import number
from tests.course import ASSIGNMENTS


def test_causal_mask_weights_are_the_softmax_of_the_printed_scores():
    """Does every printed weight of 07's causal-mask figure equal the softmax of the printed
    scores of its row, to the two decimals printed?"""
    masked, scores, weights = ASSIGNMENTS["07_cross_attention_and_masks"].module(
        "figures").causal_example()
    for row in range(len(scores)):
        visible = ~masked[row]
        shown = [float(number(s, 1)) for s in scores[row][visible].tolist()]
        want = torch.softmax(torch.tensor(shown), dim=0).tolist()
        got = [number(w, 2) for w in weights[row][visible].tolist()]
        assert got == [number(w, 2) for w in want], (row, shown, got)
