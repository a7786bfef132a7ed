"""Does the audit of an assignment's test cells name a misspelt step with the step meant?"""

from __future__ import annotations

from pathlib import Path

from autograder.checks.audit import unchecked_steps
from autograder.checks.loader import load_assignment
from autograder.i18n import language

ROOT = Path(__file__).resolve().parents[3]


def test_a_misspelt_step_is_named_with_the_step_meant():
    """Does a test cell naming 'atention_scores' hear "did you mean 'attention_scores'?",
    and one naming nothing like a step hear only how to add it, in both languages?"""
    assignment = load_assignment(ROOT, "01_attention_by_hand")
    [misspelt, unknown] = unchecked_steps(assignment, [("cell 3", "atention_scores"),
                                                       ("cell 5", "rotary_angles")])
    assert "did you mean 'attention_scores'?" in misspelt and "'atention_scores'" in misspelt
    assert "did you mean" not in unknown and "add a Step named 'rotary_angles'" in unknown
    with language("zh"):
        [chinese] = unchecked_steps(assignment, [("cell 3", "atention_scores")])
    assert "是不是想写 'attention_scores'" in chinese
