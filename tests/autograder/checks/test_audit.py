"""Does the audit of an assignment name a misspelt step with the step meant, a text a Chinese
course lacks, and a probe some draws leave blind?"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import torch

from autograder.checks.audit import (
    blind_probes,
    repeated_cases,
    unchecked_steps,
    untranslated_texts,
)
from autograder.checks.common import calling
from autograder.checks.loader import load_assignment
from autograder.checks.model import Case, Step
from autograder.checks.probes import MIN_SEQ
from autograder.i18n import language
from autograder.tools.scaffold import new_assignment

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


def test_a_text_a_chinese_course_lacks_is_named_with_its_catalog(tmp_path):
    """In a Chinese course, is each text of an assignment's hidden checks with no Chinese (a
    literal passed to t(), here a case's label and a property's message) named once, with
    the zh.py to add it to; and in the English course is nothing asked?"""
    course = tmp_path / "course"
    (course / "assignments").mkdir(parents=True)
    (course / "nbgrader_config.py").write_text("", encoding="utf-8")
    new_assignment(course, "10_my_topic", language="zh", log=lambda _: None)
    folder = course / "assignments" / "10_my_topic"
    checks = folder / "checks.py"
    checks.write_text(checks.read_text(encoding="utf-8").replace(
        '"the example\'s scores"', '"the worked example\'s scores"'), encoding="utf-8")
    catalog = folder / "zh.py"
    catalog.write_text(catalog.read_text(encoding="utf-8").replace(
        '    "twice the queries should give twice the scores": "查询加倍时，分数也应加倍",\n',
        ""), encoding="utf-8")
    assignment = load_assignment(course, "10_my_topic")
    missing = untranslated_texts(assignment, "zh")
    assert len(missing) == 2, missing
    assert all(str(folder / "zh.py") in line for line in missing), missing
    assert any("the worked example's scores" in line for line in missing), missing
    assert any("'twice the queries should give twice the scores'" in line
               for line in missing), missing
    assert untranslated_texts(assignment, "en") == []


def test_a_draw_too_short_for_a_mask_probe_is_refused():
    """Does the audit refuse a causal_weights rule whose cases, in some draw, hold no
    sequence of MIN_SEQ positions (there a mask scores as few spans as a cache, and that
    draw's student keeps the step with one), in both languages; and pass 09's cases, whose
    one sequence is drawn long enough?"""
    step = load_assignment(ROOT, "09_gradients_and_memory").steps["cached_causal_attention"]
    assert blind_probes(step) == []

    def sometimes_short(gen):
        cases = step.random_cases(gen)
        if torch.randint(4, (1,), generator=gen) > 0:
            return cases
        return [Case("two positions", calling(*(arg[..., :2, :] if index == 0 else arg
                                                for index, arg in enumerate(
                                                    cases[0].run.arguments()[0]))))]

    short = dataclasses.replace(step, random_cases=sometimes_short)
    [problem] = blind_probes(short)
    assert "'no mask'" in problem and f"sequence of {MIN_SEQ} positions" in problem, problem
    assert "no other size of the call" in problem, problem
    drawn = int(problem.split(" of 256 draws")[0].rsplit(" ", 1)[1])
    assert 20 < drawn < 120, problem  # about one draw in four was cut short
    with language("zh"):
        [chinese] = blind_probes(short)
    assert f"至少有 {MIN_SEQ} 个位置" in chinese, chinese


def test_a_mistake_whose_code_does_not_parse_is_refused_at_build():
    """A catalogued mistake whose code has a syntax error: is it a problem of the checks
    build proves (step_problems), naming the mistake and the error, not left to validate?"""
    from autograder.checks.audit import step_problems
    from autograder.checks.model import Mistake

    assignment = load_assignment(ROOT, "01_attention_by_hand")
    step = assignment.steps["attention_scores"]
    broken = Mistake("a typo", "a hint", "def attention_scores(q, k):\n    return q @ k.T)\n")
    alone = dataclasses.replace(assignment, steps={
        step.name: dataclasses.replace(step, mistakes=(*step.mistakes, broken))})
    problems = step_problems(alone)
    [problem] = [p for p in problems if "'a typo'" in p]
    assert "its code does not run (SyntaxError: unmatched ')'" in problem, problem
    assert len(problems) == 1, problems


class Scaled(torch.nn.Module):
    """A class step: made with a fixed temperature, called on scores."""

    def __init__(self, temperature):
        super().__init__()
        self.temperature = temperature

    def forward(self, scores):
        return torch.softmax(scores / self.temperature, dim=-1)


def test_a_class_case_that_draws_what_its_object_is_called_on_draws():
    """A class step's random case that makes the object with a fixed argument and calls it on
    drawn scores (a helper's `cls(0.25)(scores)`): is it not refused as drawing the same
    inputs every time, while one that draws nothing still is?"""
    def drawn(gen):
        scores = torch.randn(6, 4, generator=gen)
        return [Case("Scaled(0.25) on drawn scores", lambda cls: cls(0.25)(scores.clone())),
                Case("Scaled(0.25) on ones", lambda cls: cls(0.25)(torch.ones(6, 4)))]

    step = Step(name="Scaled", reference=Scaled, random_cases=drawn)
    draws = [drawn(torch.Generator().manual_seed(seed)) for seed in range(3)]
    assert repeated_cases(step, draws) == ["Scaled(0.25) on ones"]
