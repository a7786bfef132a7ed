"""Do the hidden checks speak the course's language: Chinese in the Chinese course, and in the
English course exactly the words they always used?

Static texts (mistakes, rules, the worked examples' names) stay English in the declarations
and are translated where a Finding is composed; texts made at grading time (case labels,
mismatches, property messages) are templates passed to `t`. These tests hold the catalogs
(the engine's autograder/i18n/zh_checks.py, and the zh.py of the repository's course and of
each of its assignments) to every one of them."""

from __future__ import annotations

import ast
import re
import string
from dataclasses import replace
from pathlib import Path

import pytest
import torch
from attention_course.documents import EXAMPLES

from autograder.checks.audit import declared_texts, t_literals
from autograder.checks.draws import CASES, Draws
from autograder.checks.judge import mistake_subject, step_findings, verdict_message
from autograder.checks.model import Finding
from autograder.checks.subject import LocalSubject
from autograder.i18n import catalog, language, t
from autograder.i18n.zh_checks import CATALOG as ENGINE_CATALOG
from tests.course import ROOT, STEPS, helpers_of

CHECKS = ROOT / "autograder" / "checks"
COURSE = ROOT / "assignments"
CJK = re.compile(r"[\u4e00-\u9fff]")
SEED = 20240915


def has_cjk(text):
    return bool(text) and bool(CJK.search(text))


def static_texts():
    """(where, English text) of every text declared as data: mistakes, rules, properties
    (as validate reads them, checks/audit.py), examples."""
    texts = [pair for step in STEPS.values() for pair in declared_texts(step)]
    texts += [(f"documents.EXAMPLES[{key!r}]", label) for key, label in EXAMPLES.items()]
    return texts


def course_catalogs():
    """{path: CATALOG} of every zh.py of the repository's course."""
    found = {}
    for path in sorted(COURSE.rglob("zh.py")):
        space = {}
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), space)  # noqa: S102
        found[path.relative_to(ROOT)] = space["CATALOG"]
    return found


CATALOGS = {Path("autograder/i18n/zh_checks.py"): ENGINE_CATALOG, **course_catalogs()}
ALL_ENTRIES = [(english, chinese) for table in CATALOGS.values()
               for english, chinese in table.items()]


def code_files():
    """The modules whose texts the checks' catalogs translate: the engine's checks and the
    course's modules (its authoring files aside: their text is translated in place)."""
    return sorted(CHECKS.rglob("*.py")) + sorted(p for p in COURSE.rglob("*.py")
                                                  if p.name not in ("notebook.py", "zh.py"))


def t_calls():
    """(file:line, call) of every call of `t` in the checks' modules."""
    calls = []
    for path in code_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "t":
                calls.append((f"{path.relative_to(ROOT)}:{node.lineno}", node))
    return calls


def templates():
    """(file:line, English template) of every literal passed to `t` in the checks' modules
    (as validate reads an assignment's, checks/audit.py)."""
    return [(f"{path.relative_to(ROOT)}:{line}", text) for path in code_files()
            for line, text in t_literals(path)]


def fields(template):
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def all_cases(step):
    return [*step.document_cases(), *step.fixed_cases(),
            *step.random_cases(Draws.seeded(SEED).of(step.name, CASES))]


def documents_only(step):
    """The step without its random cases: findings that do not depend on random draws."""
    return replace(step, random_cases=lambda gen: [])


def judged(step, subject):
    helpers = helpers_of(step)
    return step_findings(step, subject, helpers, Draws.seeded(SEED))


def judged_mistake(step_name, mistake_name, only_documents=True):
    step = STEPS[step_name]
    mistake = next(m for m in step.mistakes if m.name == mistake_name)
    subject = mistake_subject(mistake, helpers_of(step))
    return judged(documents_only(step) if only_documents else step, subject)


def raising(*args, **kwargs):
    raise ValueError("boom")


# The catalog ----------------------------------------------------------------------------------


def test_every_declared_text_has_chinese():
    """Has every mistake name and hint, rule name and reason, and worked example's name of
    every step a Chinese entry, with Chinese characters in it?"""
    zh = catalog("zh")
    missing = [f"{where}: {text!r}" for where, text in static_texts()
               if text not in zh or not has_cjk(zh[text])]
    assert not missing, "no Chinese text for:\n" + "\n".join(missing)


def test_every_template_of_the_checks_is_in_the_catalog():
    """Is every literal the checks pass to `t` a key of the Chinese catalog, with a Chinese text
    that differs from the English one?"""
    zh = catalog("zh")
    missing = [f"{where}: {text!r}" for where, text in templates()
               if text not in zh or zh[text] == text]
    assert not missing, "templates with no Chinese text:\n" + "\n".join(missing)


def test_t_is_given_templates_not_formatted_text():
    """Does every call of `t` in the checks name its template as a literal (or a declared text
    translated where it is shown), never an f-string or a concatenation made at run time?"""
    bad = [where for where, call in t_calls()
           if not call.args or isinstance(call.args[0], ast.JoinedStr | ast.BinOp)]
    assert not bad, "t() must get a template with named fields: " + ", ".join(bad)


def test_chinese_templates_keep_the_fields():
    """Does each Chinese text of the checks fill exactly the fields its English template has, so
    that formatting it can never fail or drop a value?"""
    wrong = [f"{english!r}: {sorted(fields(english))} vs {sorted(fields(chinese))}"
             for english, chinese in ALL_ENTRIES if fields(english) != fields(chinese)]
    assert not wrong, "fields differ:\n" + "\n".join(wrong)


def test_catalog_holds_no_stale_entries():
    """Is every entry of the checks' catalogs a text the checks still use (a template or a
    declared text), so that a reworded English text cannot leave its old translation
    behind?"""
    used = {text for _, text in templates()} | {text for _, text in static_texts()}
    stale = sorted(f"{path}: {english!r}" for path, table in CATALOGS.items()
                   for english in set(table) - used)
    assert not stale, "entries no check uses:\n" + "\n".join(stale)


def test_chinese_uses_full_width_punctuation():
    """Do the Chinese texts avoid ASCII commas, colons and semicolons right after a Chinese
    character (the Chinese sentence's own punctuation is full width)?"""
    ascii_after_cjk = re.compile(r"[\u4e00-\u9fff][,;:]")
    wrong = [chinese for _, chinese in ALL_ENTRIES if ascii_after_cjk.search(chinese)]
    assert not wrong, "ASCII punctuation in Chinese:\n" + "\n".join(wrong)


# Labels -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(STEPS))
def test_case_labels_are_chinese(name):
    """Is every document case and random case label of the step Chinese in the Chinese
    course?"""
    with language("zh"):
        labels = [case.label for case in all_cases(STEPS[name])]
    english = [label for label in labels if not has_cjk(label)]
    assert not english, f"{name}: labels with no Chinese: {english}"


@pytest.mark.parametrize("name", sorted(STEPS))
def test_case_labels_never_name_a_document(name):
    """Does no case label, in either language, name a source document by its number (students
    know the worked examples, not the kit's file names)?"""
    for code in ("en", "zh"):
        with language(code):
            labels = [case.label for case in all_cases(STEPS[name])]
        named = [label for label in labels if re.search(r"document|文档|\b00[0-4]\b", label)]
        assert not named, f"{name} ({code}): {named}"


# What a student reads ---------------------------------------------------------------------------

# What the English course said before the checks spoke Chinese, word for word.
SELF_ATTENTION_NO_SCALE = [
    Finding("value", "self_attention",
            "the sentence 'The sun rises in the east': the contexts of all six words: output: "
            "24 of 24 numbers are wrong; the first at index [0, 0], the largest difference "
            "(about 0.3) at index [1, 1]",
            "no 1/sqrt(d_k)",
            "divide the scores by the square root of the key size before the softmax"),
    Finding("value", "self_attention",
            "the sentence 'The sun rises in the east': context_3 (row index 2): output: 4 of 4 "
            "numbers are wrong; the first at index [0], the largest difference (about 0.1) at "
            "index [3]",
            "no 1/sqrt(d_k)",
            "divide the scores by the square root of the key size before the softmax"),
    Finding("property", "self_attention",
            "property: the result should equal torch.nn.functional.scaled_dot_product_attention "
            "of the projected queries, keys and values"),
]

SOFTMAX_OVERFLOW = [
    Finding("value", "stable_softmax", "scores far from zero: two rows in the thousands, one "
            "positive, one negative (3 rows, 4 columns): output contains nan",
            "softmax without max-subtraction",
            "exp of a large score overflows to inf and inf/inf is nan; subtract the maximum "
            "along dim first"),
    Finding("value", "stable_softmax", "scores of size 1e4: output contains nan",
            "softmax without max-subtraction",
            "exp of a large score overflows to inf and inf/inf is nan; subtract the maximum "
            "along dim first"),
    Finding("property", "stable_softmax",
            "property: scores of 1e4 must give finite weights (no nan, no inf)"),
]

# A ValueError that is not about shapes: the arguments, no hint to compare shapes.
EMBED_RAISES = ("the sentence 'Life is short, eat dessert first': the 6x16 embedding: raised "
                "ValueError: boom (called with token_ids=a (6,) int64 tensor, vocab_size=6, "
                "dim=16)")

SOFTMAX_EVAL_RULE = ("no built-in softmax: no rule can be verified because it calls eval(); call "
                     "what you need by name (this step is about writing softmax yourself, with "
                     "torch.exp and a sum (torch.logsumexp counts as a built-in softmax: it is "
                     "the log of softmax's denominator, computed stably for you))")

ENCODE_FLOAT_IDS = ("the sentence 'Life is short, eat dessert first': the ids: output has dtype "
                    "torch.float32, expected torch.int64")


def test_english_findings_are_worded_as_before():
    """In the English course, do a known mistake's findings (case label, mismatch, mistake
    name, hint) read word for word as they did before the checks learnt Chinese?"""
    assert judged_mistake("self_attention", "no 1/sqrt(d_k)") == SELF_ATTENTION_NO_SCALE
    assert judged_mistake("encode", "float ids")[0].text == ENCODE_FLOAT_IDS


def test_english_property_rule_and_error_lines_are_worded_as_before():
    """In the English course, do a property's message, a rule the grader cannot verify and an
    error raised in the student's code read as before?"""
    assert judged_mistake("stable_softmax", "softmax without max-subtraction",
                          only_documents=False) == SOFTMAX_OVERFLOW
    embed = judged(documents_only(STEPS["embed"]), LocalSubject(raising, source=""))
    assert embed[0].text == EMBED_RAISES
    step = STEPS["stable_softmax"]
    dynamic = LocalSubject(step.reference, source="def stable_softmax(s, dim=-1):\n"
                                                  "    return eval('s')\n")
    rules = [f.text for f in judged(documents_only(step), dynamic) if f.kind == "rule"]
    assert rules == [SOFTMAX_EVAL_RULE]


def test_english_verdict_is_worded_as_before():
    """In the English course, does a verdict list the known mistake first, mark a broken rule,
    and count what it leaves out as before?"""
    findings = [Finding("rule", "s", "no loop: it loops"),
                *[Finding("value", "s", f"case {i}: wrong", "a mistake", "its hint")
                  for i in range(7)]]
    assert verdict_message("s", findings) == "\n".join([
        "s does not pass the hidden checks:",
        "  - known mistake 'a mistake': its hint",
        "  - rule broken: no loop: it loops",
        "  - case 0: wrong",
        "  - case 1: wrong",
        "  - case 2: wrong",
        "  - case 3: wrong",
        "  ... and 3 more",
    ])


@pytest.mark.parametrize(("step_name", "mistake_name"), [
    ("self_attention", "no 1/sqrt(d_k)"),
    ("encode", "float ids"),
    ("scaled_dot_product_attention", "mask applied after the softmax"),
    ("causal_mask", "mask of 0/1 floats instead of booleans"),
    ("MultiHeadAttention", "weights not averaged over heads"),
])
def test_chinese_findings_of_a_known_mistake(step_name, mistake_name):
    """In the Chinese course, does every finding of a catalogued mistake read in Chinese, and
    does it name the mistake by its Chinese name, with the Chinese hint?"""
    with language("zh"):
        findings = judged_mistake(step_name, mistake_name, only_documents=False)
        name, hint = t(mistake_name), t(next(m.hint for m in STEPS[step_name].mistakes
                                             if m.name == mistake_name))
    assert findings
    assert all(has_cjk(f.text) for f in findings), [f.text for f in findings]
    named = [f for f in findings if f.mistake]
    assert named and all((f.mistake, f.hint) == (name, hint) for f in named)
    assert has_cjk(name) and has_cjk(hint)


def test_chinese_error_rule_and_stub_lines():
    """In the Chinese course, are an error raised in the student's code, a rule the grader
    cannot verify and a stub reported in Chinese?"""
    step = STEPS["stable_softmax"]
    dynamic = LocalSubject(step.reference, source="def stable_softmax(s, dim=-1):\n"
                                                  "    return eval('s')\n")

    def stub(*args, **kwargs):
        raise NotImplementedError

    with language("zh"):
        texts = [f.text for f in judged(documents_only(STEPS["embed"]),
                                        LocalSubject(raising, source=""))]
        texts += [f.text for f in judged(documents_only(step), dynamic)]
        texts += [f.text for f in judged(step, LocalSubject(stub, source=""))]
    assert texts and all(has_cjk(text) for text in texts), texts


def test_chinese_verdict():
    """In the Chinese course, is every line of a verdict Chinese, with the step's name kept as
    it is in the code?"""
    findings = [Finding("rule", "s", "规则：说明"),
                *[Finding("value", "s", f"用例 {i}：不对", "常见错误", "提示") for i in range(7)]]
    with language("zh"):
        message = verdict_message("stable_softmax", findings)
    lines = message.splitlines()
    assert lines[0].startswith("stable_softmax")
    assert all(has_cjk(line) for line in lines), message


@pytest.mark.parametrize(("notebook_language", "chinese"), [("zh", True), ("en", False),
                                                            (None, False), ("xx", False)])
def test_a_master_notebook_run_by_hand_speaks_its_language(notebook_language, chinese):
    """Does check_step, run in a master notebook, speak the language the notebook's helper
    cell set (LANGUAGE), English when it sets none or an unknown one?"""
    from autograder.checks.hidden import check_step

    def stable_softmax(scores, dim=-1):
        return torch.exp(scores) / torch.exp(scores).sum(dim=dim, keepdim=True) * 2

    namespace = {"stable_softmax": stable_softmax}
    if notebook_language:
        namespace["LANGUAGE"] = notebook_language
    with pytest.raises(AssertionError) as raised:
        check_step("stable_softmax", namespace)
    assert has_cjk(str(raised.value)) == chinese, str(raised.value)
