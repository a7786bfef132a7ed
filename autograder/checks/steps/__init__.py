"""Every step's hidden check, by assignment. Each module declares its steps once, as data:
document cases, random cases, properties, rules and the mistakes it recognises."""

from __future__ import annotations

from importlib import import_module

MODULES = {
    "01_attention_by_hand": "attention_by_hand",
    "02_embeddings": "embeddings",
    "03_scaled_dot_product": "scaled_dot_product",
    "04_self_attention": "self_attention",
    "05_multi_head": "multi_head",
    "06_scoring_functions": "scoring_functions",
    "07_cross_attention_and_masks": "cross_attention_and_masks",
}


ASSIGNMENTS = {
    assignment_id: import_module(f"autograder.checks.steps.{module}").STEPS
    for assignment_id, module in MODULES.items()
}
STEPS = {step.name: step for steps in ASSIGNMENTS.values() for step in steps}
