"""The checks' shared helpers (autograder/checks/common.py)."""

import torch

from autograder.checks.common import seeded_as


def test_seeded_as_draws_what_manual_seed_draws_and_restores_the_state():
    """Does a draw inside seeded_as(seed) give the numbers a draw right after
    torch.manual_seed(seed) gives, and is the caller's random state the same after the block?"""
    torch.manual_seed(7)
    expected = torch.randn(3, 4)
    torch.manual_seed(99)
    before = torch.get_rng_state()
    with seeded_as(7):
        drawn = torch.randn(3, 4)
    assert torch.equal(drawn, expected)
    assert torch.equal(torch.get_rng_state(), before)
